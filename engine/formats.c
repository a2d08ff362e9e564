// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The fourcc table: memory layout, chroma subsampling and colour class of
 * every pixel format negcam knows, as pure data. The descriptions are the
 * strings the Linux 6.1 core puts in VIDIOC_ENUM_FMT (v4l_fill_fmtdesc),
 * so a profile answers the same through negcam.ko and in user space.
 */
#include "formats.h"

/* Short-hand for the table rows: layout, colour class, bits, hsub, vsub. */
#define PK(fcc, d, col, bpp, hs) { fcc, d, NC_LAYOUT_PACKED, col, bpp, hs, 1 }
#define SP(fcc, d, bpp, hs, vs) { fcc, d, NC_LAYOUT_SEMIPLANAR, NC_COLOR_YUV, bpp, hs, vs }
#define PL(fcc, d, hs, vs) { fcc, d, NC_LAYOUT_PLANAR, NC_COLOR_YUV, 8, hs, vs }
#define BY(fcc, d, bpp, hs) { fcc, d, NC_LAYOUT_BAYER, NC_COLOR_BAYER, bpp, hs, 2 }
/* The 'M' variants: the same, one buffer per plane on a multiplanar queue. */
#define SPM(fcc, d, bpp, hs, vs) { fcc, d, NC_LAYOUT_SEMIPLANAR, NC_COLOR_YUV, bpp, hs, vs, 2 }
#define PLM(fcc, d, hs, vs) { fcc, d, NC_LAYOUT_PLANAR, NC_COLOR_YUV, 8, hs, vs, 3 }
#define CO(fcc, d, col) { fcc, d, NC_LAYOUT_COMPRESSED, col, 0, 1, 1 }

static const struct negcam_fourcc_info negcam_fourccs[] = {
	/* Packed YUV */
	PK(V4L2_PIX_FMT_YUYV, "YUYV 4:2:2", NC_COLOR_YUV, 16, 2),
	PK(V4L2_PIX_FMT_YVYU, "YVYU 4:2:2", NC_COLOR_YUV, 16, 2),
	PK(V4L2_PIX_FMT_UYVY, "UYVY 4:2:2", NC_COLOR_YUV, 16, 2),
	PK(V4L2_PIX_FMT_VYUY, "VYUY 4:2:2", NC_COLOR_YUV, 16, 2),
	PK(V4L2_PIX_FMT_YYUV, "YYUV 4:2:2", NC_COLOR_YUV, 16, 2),
	PK(V4L2_PIX_FMT_UV8, "8-bit Chrominance UV 4-4", NC_COLOR_YUV, 8, 1),
	PK(V4L2_PIX_FMT_Y41P, "YUV 4:1:1 (Packed)", NC_COLOR_YUV, 12, 8),
	PK(V4L2_PIX_FMT_YUV444, "16-bit A/XYUV 4-4-4-4", NC_COLOR_YUV, 16, 1),
	PK(V4L2_PIX_FMT_YUV555, "16-bit A/XYUV 1-5-5-5", NC_COLOR_YUV, 16, 1),
	PK(V4L2_PIX_FMT_YUV565, "16-bit YUV 5-6-5", NC_COLOR_YUV, 16, 1),
	PK(V4L2_PIX_FMT_YUV24, "24-bit YUV 4:4:4 8-8-8", NC_COLOR_YUV, 24, 1),
	PK(V4L2_PIX_FMT_YUV32, "32-bit A/XYUV 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_AYUV32, "32-bit AYUV 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_XYUV32, "32-bit XYUV 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_VUYA32, "32-bit VUYA 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_VUYX32, "32-bit VUYX 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_YUVA32, "32-bit YUVA 8-8-8-8", NC_COLOR_YUV, 32, 1),
	PK(V4L2_PIX_FMT_YUVX32, "32-bit YUVX 8-8-8-8", NC_COLOR_YUV, 32, 1),

	/* Semi-planar YUV: luma plane, then one CbCr (or CrCb) plane */
	SP(V4L2_PIX_FMT_NV12, "Y/UV 4:2:0", 8, 2, 2),
	SP(V4L2_PIX_FMT_NV21, "Y/VU 4:2:0", 8, 2, 2),
	SP(V4L2_PIX_FMT_NV16, "Y/UV 4:2:2", 8, 2, 1),
	SP(V4L2_PIX_FMT_NV61, "Y/VU 4:2:2", 8, 2, 1),
	SP(V4L2_PIX_FMT_NV24, "Y/UV 4:4:4", 8, 1, 1),
	SP(V4L2_PIX_FMT_NV42, "Y/VU 4:4:4", 8, 1, 1),
	SP(V4L2_PIX_FMT_P010, "10-bit Y/UV 4:2:0", 16, 2, 2),
	/* M420 interleaves two luma lines and one CbCr line: same total size. */
	SP(V4L2_PIX_FMT_M420, "YUV 4:2:0 (M420)", 8, 2, 2),
	/*
	 * The multiplanar 'M' variants: each plane in its own buffer on a
	 * multiplanar queue (negcam_fourcc_planes()). On a single-planar one
	 * the planes follow one another in one buffer: the same bytes, the
	 * sizes of the contiguous form.
	 */
	SPM(V4L2_PIX_FMT_NV12M, "Y/UV 4:2:0 (N-C)", 8, 2, 2),
	SPM(V4L2_PIX_FMT_NV21M, "Y/VU 4:2:0 (N-C)", 8, 2, 2),
	SPM(V4L2_PIX_FMT_NV16M, "Y/UV 4:2:2 (N-C)", 8, 2, 1),
	SPM(V4L2_PIX_FMT_NV61M, "Y/VU 4:2:2 (N-C)", 8, 2, 1),

	/* Planar YUV: luma plane, then two chroma planes */
	PL(V4L2_PIX_FMT_YUV420, "Planar YUV 4:2:0", 2, 2),
	PL(V4L2_PIX_FMT_YVU420, "Planar YVU 4:2:0", 2, 2),
	PL(V4L2_PIX_FMT_YUV422P, "Planar YUV 4:2:2", 2, 1),
	PL(V4L2_PIX_FMT_YUV411P, "Planar YUV 4:1:1", 4, 1),
	PL(V4L2_PIX_FMT_YUV410, "Planar YUV 4:1:0", 4, 4),
	PL(V4L2_PIX_FMT_YVU410, "Planar YVU 4:1:0", 4, 4),
	PLM(V4L2_PIX_FMT_YUV420M, "Planar YUV 4:2:0 (N-C)", 2, 2),
	PLM(V4L2_PIX_FMT_YVU420M, "Planar YVU 4:2:0 (N-C)", 2, 2),
	PLM(V4L2_PIX_FMT_YUV422M, "Planar YUV 4:2:2 (N-C)", 2, 1),
	PLM(V4L2_PIX_FMT_YVU422M, "Planar YVU 4:2:2 (N-C)", 2, 1),
	PLM(V4L2_PIX_FMT_YUV444M, "Planar YUV 4:4:4 (N-C)", 1, 1),
	PLM(V4L2_PIX_FMT_YVU444M, "Planar YVU 4:4:4 (N-C)", 1, 1),

	/* Greyscale */
	PK(V4L2_PIX_FMT_GREY, "8-bit Greyscale", NC_COLOR_GREY, 8, 1),
	PK(V4L2_PIX_FMT_Y10, "10-bit Greyscale", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y12, "12-bit Greyscale", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y14, "14-bit Greyscale", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y16, "16-bit Greyscale", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y16_BE, "16-bit Greyscale BE", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y10BPACK, "10-bit Greyscale (Packed)", NC_COLOR_GREY, 10, 4),
	PK(V4L2_PIX_FMT_Y10P, "10-bit Greyscale (MIPI Packed)", NC_COLOR_GREY, 10, 4),
	/* Y4 and Y6 keep their bits in the high end of one byte a pixel */
	PK(V4L2_PIX_FMT_Y4, "4-bit Greyscale", NC_COLOR_GREY, 8, 1),
	PK(V4L2_PIX_FMT_Y6, "6-bit Greyscale", NC_COLOR_GREY, 8, 1),
	/* Depth and IR (RealSense and the like): two sensors' pixels side by side */
	PK(V4L2_PIX_FMT_Y8I, "Interleaved 8-bit Greyscale", NC_COLOR_GREY, 16, 1),
	PK(V4L2_PIX_FMT_Y12I, "Interleaved 12-bit Greyscale", NC_COLOR_GREY, 24, 1),
	PK(V4L2_PIX_FMT_Z16, "16-bit Depth", NC_COLOR_GREY, 16, 1),
	/* INZI: a 16-bit IR plane, then a 16-bit depth plane */
	PK(V4L2_PIX_FMT_INZI, "Planar 10:16 Greyscale Depth", NC_COLOR_GREY, 32, 1),
	PK(V4L2_PIX_FMT_CNF4, "4-bit Depth Confidence (Packed)", NC_COLOR_GREY, 4, 2),

	/* RGB */
	PK(V4L2_PIX_FMT_RGB332, "8-bit RGB 3-3-2", NC_COLOR_RGB, 8, 1),
	PK(V4L2_PIX_FMT_RGB444, "16-bit A/XRGB 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_ARGB444, "16-bit ARGB 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_XRGB444, "16-bit XRGB 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGBA444, "16-bit RGBA 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGBX444, "16-bit RGBX 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_ABGR444, "16-bit ABGR 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_XBGR444, "16-bit XBGR 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_BGRA444, "16-bit BGRA 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_BGRX444, "16-bit BGRX 4-4-4-4", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGB555, "16-bit A/XRGB 1-5-5-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_ARGB555, "16-bit ARGB 1-5-5-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_XRGB555, "16-bit XRGB 1-5-5-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_ABGR555, "16-bit ABGR 1-5-5-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_XBGR555, "16-bit XBGR 1-5-5-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGBA555, "16-bit RGBA 5-5-5-1", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGBX555, "16-bit RGBX 5-5-5-1", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_BGRA555, "16-bit BGRA 5-5-5-1", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_BGRX555, "16-bit BGRX 5-5-5-1", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGB565, "16-bit RGB 5-6-5", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGB555X, "16-bit A/XRGB 1-5-5-5 BE", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_ARGB555X, "16-bit ARGB 1-5-5-5 BE", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_XRGB555X, "16-bit XRGB 1-5-5-5 BE", NC_COLOR_RGB, 16, 1),
	PK(V4L2_PIX_FMT_RGB565X, "16-bit RGB 5-6-5 BE", NC_COLOR_RGB, 16, 1),
	/* 18 bits in a 32-bit container: b5..b0 g5 g4 | g3..g0 r5..r2 | r1 r0 0.. | 0 */
	PK(V4L2_PIX_FMT_BGR666, "18-bit BGRX 6-6-6-14", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_BGR24, "24-bit BGR 8-8-8", NC_COLOR_RGB, 24, 1),
	PK(V4L2_PIX_FMT_RGB24, "24-bit RGB 8-8-8", NC_COLOR_RGB, 24, 1),
	PK(V4L2_PIX_FMT_BGR32, "32-bit BGRA/X 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_ABGR32, "32-bit BGRA 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_XBGR32, "32-bit BGRX 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_RGB32, "32-bit A/XRGB 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_ARGB32, "32-bit ARGB 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_XRGB32, "32-bit XRGB 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_BGRA32, "32-bit ABGR 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_BGRX32, "32-bit XBGR 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_RGBA32, "32-bit RGBA 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_RGBX32, "32-bit RGBX 8-8-8-8", NC_COLOR_RGB, 32, 1),
	PK(V4L2_PIX_FMT_HSV24, "24-bit HSV 8-8-8", NC_COLOR_OTHER, 24, 1),
	PK(V4L2_PIX_FMT_HSV32, "32-bit XHSV 8-8-8-8", NC_COLOR_OTHER, 32, 1),
	PK(V4L2_PIX_FMT_PAL8, "8-bit Palette", NC_COLOR_RGB, 8, 1),
	PK(V4L2_PIX_FMT_HI240, "8-bit Dithered RGB (BTTV)", NC_COLOR_RGB, 8, 1),

	/* Raw Bayer: the 2x2 pattern needs even sizes; packed forms group pixels */
	BY(V4L2_PIX_FMT_SBGGR8, "8-bit Bayer BGBG/GRGR", 8, 2),
	BY(V4L2_PIX_FMT_SGBRG8, "8-bit Bayer GBGB/RGRG", 8, 2),
	BY(V4L2_PIX_FMT_SGRBG8, "8-bit Bayer GRGR/BGBG", 8, 2),
	BY(V4L2_PIX_FMT_SRGGB8, "8-bit Bayer RGRG/GBGB", 8, 2),
	BY(V4L2_PIX_FMT_SBGGR10, "10-bit Bayer BGBG/GRGR", 16, 2),
	BY(V4L2_PIX_FMT_SGBRG10, "10-bit Bayer GBGB/RGRG", 16, 2),
	BY(V4L2_PIX_FMT_SGRBG10, "10-bit Bayer GRGR/BGBG", 16, 2),
	BY(V4L2_PIX_FMT_SRGGB10, "10-bit Bayer RGRG/GBGB", 16, 2),
	BY(V4L2_PIX_FMT_SBGGR10P, "10-bit Bayer BGBG/GRGR Packed", 10, 4),
	BY(V4L2_PIX_FMT_SGBRG10P, "10-bit Bayer GBGB/RGRG Packed", 10, 4),
	BY(V4L2_PIX_FMT_SGRBG10P, "10-bit Bayer GRGR/BGBG Packed", 10, 4),
	BY(V4L2_PIX_FMT_SRGGB10P, "10-bit Bayer RGRG/GBGB Packed", 10, 4),
	BY(V4L2_PIX_FMT_SBGGR10ALAW8, "8-bit Bayer BGBG/GRGR (A-law)", 8, 2),
	BY(V4L2_PIX_FMT_SGBRG10ALAW8, "8-bit Bayer GBGB/RGRG (A-law)", 8, 2),
	BY(V4L2_PIX_FMT_SGRBG10ALAW8, "8-bit Bayer GRGR/BGBG (A-law)", 8, 2),
	BY(V4L2_PIX_FMT_SRGGB10ALAW8, "8-bit Bayer RGRG/GBGB (A-law)", 8, 2),
	BY(V4L2_PIX_FMT_SBGGR10DPCM8, "8-bit Bayer BGBG/GRGR (DPCM)", 8, 2),
	BY(V4L2_PIX_FMT_SGBRG10DPCM8, "8-bit Bayer GBGB/RGRG (DPCM)", 8, 2),
	BY(V4L2_PIX_FMT_SGRBG10DPCM8, "8-bit Bayer GRGR/BGBG (DPCM)", 8, 2),
	BY(V4L2_PIX_FMT_SRGGB10DPCM8, "8-bit Bayer RGRG/GBGB (DPCM)", 8, 2),
	BY(V4L2_PIX_FMT_SBGGR12, "12-bit Bayer BGBG/GRGR", 16, 2),
	BY(V4L2_PIX_FMT_SGBRG12, "12-bit Bayer GBGB/RGRG", 16, 2),
	BY(V4L2_PIX_FMT_SGRBG12, "12-bit Bayer GRGR/BGBG", 16, 2),
	BY(V4L2_PIX_FMT_SRGGB12, "12-bit Bayer RGRG/GBGB", 16, 2),
	BY(V4L2_PIX_FMT_SBGGR12P, "12-bit Bayer BGBG/GRGR Packed", 12, 2),
	BY(V4L2_PIX_FMT_SGBRG12P, "12-bit Bayer GBGB/RGRG Packed", 12, 2),
	BY(V4L2_PIX_FMT_SGRBG12P, "12-bit Bayer GRGR/BGBG Packed", 12, 2),
	BY(V4L2_PIX_FMT_SRGGB12P, "12-bit Bayer RGRG/GBGB Packed", 12, 2),
	BY(V4L2_PIX_FMT_SBGGR14, "14-bit Bayer BGBG/GRGR", 16, 2),
	BY(V4L2_PIX_FMT_SGBRG14, "14-bit Bayer GBGB/RGRG", 16, 2),
	BY(V4L2_PIX_FMT_SGRBG14, "14-bit Bayer GRGR/BGBG", 16, 2),
	BY(V4L2_PIX_FMT_SRGGB14, "14-bit Bayer RGRG/GBGB", 16, 2),
	/* MIPI CSI-2 packing: four pixels in seven bytes ('pBEE' and kin) */
	BY(V4L2_PIX_FMT_SBGGR14P, "14-bit Bayer BGBG/GRGR Packed", 14, 4),
	BY(V4L2_PIX_FMT_SGBRG14P, "14-bit Bayer GBGB/RGRG Packed", 14, 4),
	BY(V4L2_PIX_FMT_SGRBG14P, "14-bit Bayer GRGR/BGBG Packed", 14, 4),
	BY(V4L2_PIX_FMT_SRGGB14P, "14-bit Bayer RGRG/GBGB Packed", 14, 4),
	BY(V4L2_PIX_FMT_SBGGR16, "16-bit Bayer BGBG/GRGR", 16, 2),
	BY(V4L2_PIX_FMT_SGBRG16, "16-bit Bayer GBGB/RGRG", 16, 2),
	BY(V4L2_PIX_FMT_SGRBG16, "16-bit Bayer GRGR/BGBG", 16, 2),
	BY(V4L2_PIX_FMT_SRGGB16, "16-bit Bayer RGRG/GBGB", 16, 2),

	/* Compressed: V4L2_FMT_FLAG_COMPRESSED, sizeimage is a bound */
	CO(V4L2_PIX_FMT_MJPEG, "Motion-JPEG", NC_COLOR_JPEG),
	CO(V4L2_PIX_FMT_JPEG, "JFIF JPEG", NC_COLOR_JPEG),
	CO(V4L2_PIX_FMT_DV, "1394", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MPEG, "MPEG-1/2/4", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_H264, "H.264", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_H264_NO_SC, "H.264 (No Start Codes)", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_H264_MVC, "H.264 MVC", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_H263, "H.263", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MPEG1, "MPEG-1 ES", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MPEG2, "MPEG-2 ES", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MPEG4, "MPEG-4 Part 2 ES", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_XVID, "Xvid", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_VC1_ANNEX_G, "VC-1 (SMPTE 412M Annex G)", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_VC1_ANNEX_L, "VC-1 (SMPTE 412M Annex L)", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_VP8, "VP8", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_VP9, "VP9", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_HEVC, "HEVC", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_FWHT, "FWHT", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_FWHT_STATELESS, "FWHT Stateless", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_H264_SLICE, "H.264 Parsed Slice Data", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MPEG2_SLICE, "MPEG-2 Parsed Slice Data", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_HEVC_SLICE, "HEVC Parsed Slice Data", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_VP8_FRAME, "VP8 Frame", NC_COLOR_YUV),
	/* The vendor formats of old USB webcams (gspca, pwc...), compressed for Linux */
	CO(V4L2_PIX_FMT_CPIA1, "GSPCA CPiA YUV", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_WNVA, "WNVA", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_SN9C10X, "GSPCA SN9C10X", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_PWC1, "Raw Philips Webcam Type (Old)", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_PWC2, "Raw Philips Webcam Type (New)", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_ET61X251, "GSPCA ET61X251", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_SPCA561, "GSPCA SPCA561", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_PAC207, "GSPCA PAC207", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_MR97310A, "GSPCA MR97310A", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_JL2005BCD, "GSPCA JL2005BCD", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_SN9C2028, "GSPCA SN9C2028", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_SQ905C, "GSPCA SQ905C", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_PJPG, "GSPCA PJPG", NC_COLOR_JPEG),
	CO(V4L2_PIX_FMT_OV511, "GSPCA OV511", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_OV518, "GSPCA OV518", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_JPGL, "JPEG Lite", NC_COLOR_JPEG),
	CO(V4L2_PIX_FMT_SE401, "GSPCA SE401", NC_COLOR_YUV),
	CO(V4L2_PIX_FMT_S5C_UYVY_JPG, "S5C73MX interleaved UYVY/JPEG", NC_COLOR_JPEG),
	CO(V4L2_PIX_FMT_MT21C, "Mediatek Compressed Format", NC_COLOR_YUV),
};

/*
 * Layouts of fourccs the Linux 6.1 core does not describe (formats.h):
 * a profile names them 'opaque' and gives their description; negcam
 * sizes and draws them as documented:
 * - Y12P, Y14P: MIPI CSI-2 packed greyscale, pixfmt-yuv-luma.rst
 *   (2 pixels in 3 bytes; 4 pixels in 7 bytes), added to Linux after 6.1
 *   with the mainline unicam driver;
 * - INVZ, INVR: 16-bit depth; INRI: 16-bit depth then 8-bit IR, 3 bytes a
 *   pixel; INVI, RELI: 8-bit IR: the RealSense F200/SR300 formats as the
 *   depthview uvcvideo patch names them ("Depth 16-bit", "Depth:IR 16:8
 *   24-bit", "Infrared 8-bit", "FlickerIR 8-bit");
 * - EBD8, SPD6: 8-bit embedded data and 16-bit shield-pixel (PDAF) data,
 *   one plane of 8 or 16 bits a sample as Rockchip's rkisp/rkcif size
 *   them (bpp 8 and 16).
 */
static const struct negcam_fourcc_info negcam_fourcc_layouts[] = {
	PK(V4L2_PIX_FMT_Y12P, "12-bit Greyscale (MIPI Packed)", NC_COLOR_GREY, 12, 2),
	PK(V4L2_PIX_FMT_Y14P, "14-bit Greyscale (MIPI Packed)", NC_COLOR_GREY, 14, 4),
	PK(NC_PIX_FMT_INVZ, "Depth 16-bit (INVZ)", NC_COLOR_GREY, 16, 1),
	PK(NC_PIX_FMT_INVR, "Depth 16-bit (INVR)", NC_COLOR_GREY, 16, 1),
	PK(NC_PIX_FMT_INRI, "Depth:IR 16:8 24-bit (INRI)", NC_COLOR_GREY, 24, 1),
	PK(NC_PIX_FMT_INVI, "Infrared 8-bit (INVI)", NC_COLOR_GREY, 8, 1),
	PK(NC_PIX_FMT_RELI, "FlickerIR 8-bit (RELI)", NC_COLOR_GREY, 8, 1),
	PK(NC_PIX_FMT_EBD8, "Embedded data 8-bit", NC_COLOR_GREY, 8, 1),
	PK(NC_PIX_FMT_SPD16, "Shield pix data 16-bit", NC_COLOR_GREY, 16, 1),
};

#undef PK
#undef SP
#undef PL
#undef BY
#undef CO

/* Default colorimetry per colour class, all four fields explicit. */
struct negcam_colorimetry {
	__u8 colorspace, ycbcr_enc, quantization, xfer_func;
};

static const struct negcam_colorimetry negcam_class_colorimetry[] = {
	/* Y'CbCr from a camera: sRGB primaries and transfer, BT.601 limited range */
	[NC_COLOR_YUV] = { V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
			   V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_SRGB },
	[NC_COLOR_RGB] = { V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
			   V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_SRGB },
	/* Luma only: what V4L2_MAP_QUANTIZATION_DEFAULT gives a non-RGB sRGB format */
	[NC_COLOR_GREY] = { V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
			    V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_SRGB },
	/* Sensor data before any processing: raw, linear, full range */
	[NC_COLOR_BAYER] = { V4L2_COLORSPACE_RAW, V4L2_YCBCR_ENC_601,
			     V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_NONE },
	/* JFIF is full-range BT.601 Y'CbCr; uvcvideo reports sRGB for it */
	[NC_COLOR_JPEG] = { V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
			    V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_SRGB },
	/* HSV: the hue encoding shares the ycbcr_enc field */
	[NC_COLOR_OTHER] = { V4L2_COLORSPACE_SRGB, V4L2_HSV_ENC_180,
			     V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_SRGB },
};

const struct negcam_fourcc_info *negcam_fourcc_lookup(__u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(negcam_fourccs); i++)
		if (negcam_fourccs[i].fourcc == fourcc)
			return &negcam_fourccs[i];
	return NULL;
}

const struct negcam_fourcc_info negcam_fourcc_opaque = {
	0, "", NC_LAYOUT_OPAQUE, NC_COLOR_YUV, 0, 1, 1
};

const struct negcam_fourcc_info *negcam_fourcc_info_of(__u32 fourcc)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourcc);
	unsigned int i;

	if (fi)
		return fi;
	for (i = 0; i < NC_ARRAY_SIZE(negcam_fourcc_layouts); i++)
		if (negcam_fourcc_layouts[i].fourcc == fourcc)
			return &negcam_fourcc_layouts[i];
	return &negcam_fourcc_opaque;
}

const struct negcam_fourcc_info *negcam_fourcc_at(unsigned int i)
{
	return i < NC_ARRAY_SIZE(negcam_fourccs) ? &negcam_fourccs[i] : NULL;
}

static __u64 nc_div_round_up(__u64 a, __u32 b)
{
	return nc_div_u64(a + b - 1, b);
}

static __u64 nc_round_up(__u64 a, __u32 align)
{
	if (align <= 1)
		return a;
	return nc_div_round_up(a, align) * align;
}

static __u32 nc_saturate_u32(__u64 v)
{
	return v > 0xffffffffull ? 0xffffffffu : (__u32)v;
}

/*
 * Compressed bound: two bytes a pixel (what an uncompressed 4:2:2 frame
 * takes, the dwMaxVideoFrameBufferSize most UVC cameras report) plus 4 KiB
 * for headers and tables, in whole 4 KiB pages. An opaque format (a
 * fourcc not in the table) gets the same bound: negcam does not know its
 * layout, and two bytes a pixel holds every depth or IR format seen.
 */
static __u64 nc_compressed_bound(__u32 width, __u32 height)
{
	return nc_round_up((__u64)width * height * 2 + 4096, 4096);
}

/*
 * H.264 as the frame generator writes it (h264.c): every macroblock
 * I_PCM, 386 bytes per 16x16 (coded sizes round up to 16), plus the
 * headers. Above the generic bound when a side is just over a multiple
 * of 16 (a 18x1000 frame codes 32x1008 pixels).
 */
static __u64 nc_h264_bound(__u32 width, __u32 height)
{
	__u64 mbs = (__u64)((width + 15ull) / 16) * ((height + 15ull) / 16);
	__u64 pcm = nc_round_up(mbs * NC_H264_MB_BYTES + NC_H264_HEADER_BYTES,
				4096);
	__u64 generic = nc_compressed_bound(width, height);

	return pcm > generic ? pcm : generic;
}

/*
 * The chroma planes of a (semi-)planar format whose luma stride is @bpl:
 * their count (0 for other layouts), stride and lines.
 */
static unsigned int nc_chroma(const struct negcam_fourcc_info *fi, __u64 bpl, __u32 height,
			      __u64 *cbpl, __u64 *clines)
{
	*clines = nc_div_round_up(height, fi->vsub);
	if (fi->layout == NC_LAYOUT_SEMIPLANAR) {
		/* One interleaved plane: two chroma samples per hsub luma */
		*cbpl = nc_div_round_up(bpl * 2, fi->hsub);
		return 1;
	}
	if (fi->layout == NC_LAYOUT_PLANAR) {
		*cbpl = nc_div_round_up(bpl, fi->hsub);
		return 2;
	}
	*cbpl = 0;
	return 0;
}

unsigned int negcam_fourcc_planes(const struct negcam_fourcc_info *fi, __u32 bytesperline,
				  __u32 height, __u32 sizeimage,
				  struct negcam_plane_size p[NC_MAX_PLANES])
{
	__u64 cbpl, clines;
	unsigned int n, i;

	p[0].bytesperline = bytesperline;
	p[0].sizeimage = sizeimage;
	if (!fi->mplanes)
		return 1;
	n = nc_chroma(fi, bytesperline, height, &cbpl, &clines);
	p[0].sizeimage = nc_saturate_u32((__u64)bytesperline * height);
	for (i = 1; i <= n; i++) {
		p[i].bytesperline = nc_saturate_u32(cbpl);
		p[i].sizeimage = nc_saturate_u32(cbpl * clines);
	}
	return n + 1;
}

void negcam_fourcc_sizes(const struct negcam_fourcc_info *fi, __u32 width,
			 __u32 height, __u32 align, __u32 *bytesperline,
			 __u32 *sizeimage)
{
	__u64 bpl, size, cbpl, clines;
	unsigned int nchroma;

	if (fi->layout == NC_LAYOUT_COMPRESSED || fi->layout == NC_LAYOUT_OPAQUE) {
		*bytesperline = 0;
		*sizeimage = nc_saturate_u32(fi->fourcc == V4L2_PIX_FMT_H264 ?
					     nc_h264_bound(width, height) :
					     nc_compressed_bound(width, height));
		return;
	}
	bpl = nc_round_up(nc_div_round_up((__u64)width * fi->bpp, 8), align);
	nchroma = nc_chroma(fi, bpl, height, &cbpl, &clines);
	size = bpl * height + nchroma * cbpl * clines;
	*bytesperline = nc_saturate_u32(bpl);
	*sizeimage = nc_saturate_u32(size);
}

void negcam_fourcc_colorimetry(const struct negcam_fourcc_info *fi,
			       __u32 *colorspace, __u32 *ycbcr_enc,
			       __u32 *quantization, __u32 *xfer_func)
{
	unsigned int c = fi ? fi->color : NC_COLOR_YUV;
	const struct negcam_colorimetry *cm;

	if (c >= NC_ARRAY_SIZE(negcam_class_colorimetry) || c == 0)
		c = NC_COLOR_YUV;
	cm = &negcam_class_colorimetry[c];
	*colorspace = cm->colorspace;
	*ycbcr_enc = cm->ycbcr_enc;
	*quantization = cm->quantization;
	*xfer_func = cm->xfer_func;
}

char *negcam_fourcc_str(__u32 fourcc, char buf[5])
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		/* bit 31 is V4L2's big-endian flag (Y16_BE), not a character */
		char c = (char)((fourcc >> (8 * i)) & (i == 3 ? 0x7f : 0xff));

		buf[i] = (c >= 0x20 && c < 0x7f) ? c : '.';
	}
	buf[4] = '\0';
	return buf;
}
