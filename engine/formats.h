/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The pixel format table: what each fourcc looks like in memory. Pure
 * data plus two lookups; every bytesperline/sizeimage in negcam comes
 * from negcam_fourcc_sizes().
 */
#ifndef NEGCAM_FORMATS_H
#define NEGCAM_FORMATS_H

#include "compat.h"

enum negcam_layout {
	NC_LAYOUT_PACKED = 1,     /* one plane, bpp bits per pixel (YUYV, RGB3, GREY...) */
	NC_LAYOUT_SEMIPLANAR = 2, /* luma plane + one interleaved CbCr plane (NV12, NV16...) */
	NC_LAYOUT_PLANAR = 3,     /* luma plane + two chroma planes (YU12, YV12, 422P...) */
	NC_LAYOUT_COMPRESSED = 4, /* MJPG, JPEG, H264...: sizeimage is a bound */
	NC_LAYOUT_BAYER = 5,      /* one plane raw Bayer, bpp bits per pixel */
	NC_LAYOUT_OPAQUE = 6,     /* a fourcc not in the table (negcam_fourcc_opaque) */
};

enum negcam_color_class {
	NC_COLOR_YUV = 1,
	NC_COLOR_RGB = 2,
	NC_COLOR_GREY = 3,
	NC_COLOR_BAYER = 4,
	NC_COLOR_JPEG = 5, /* compressed YCbCr, full range */
	NC_COLOR_OTHER = 6,
};

struct negcam_fourcc_info {
	__u32 fourcc;
	const char *description; /* what the Linux kernel core reports (v4l_fill_fmtdesc) */
	__u8 layout;             /* enum negcam_layout */
	__u8 color;              /* enum negcam_color_class */
	__u8 bpp;                /* packed/bayer: bits per pixel; (semi)planar: bits per luma sample (8 or 16) */
	__u8 hsub;               /* chroma subsampling: width must be a multiple of hsub */
	__u8 vsub;               /* height must be a multiple of vsub */
	__u8 mplanes;            /* an 'M' variant: its planes in as many buffers; 0: one buffer */
};

/* NULL when the fourcc is not in the table. */
const struct negcam_fourcc_info *negcam_fourcc_lookup(__u32 fourcc);

/*
 * What negcam knows of a fourcc missing from the table, which a profile
 * names with 'format FOURCC opaque' (a vendor format, or one newer than
 * Linux 6.1) and whose layout negcam does not know either: nothing but
 * its name. Its description is the profile's, its ENUM_FMT flags the
 * profile's (never compressed), bytesperline 0 and sizeimage the bound
 * of a compressed format (negcam_fourcc_sizes()); the frame generator
 * fills that many bytes, an 8-bit picture first (docs/frames.md).
 */
extern const struct negcam_fourcc_info negcam_fourcc_opaque;

/*
 * Fourccs the Linux 6.1 core does not describe (so a profile still names
 * them 'opaque' and ENUM_FMT reports the profile's description) whose
 * layout is documented elsewhere: a newer kernel's pixfmt pages, a vendor
 * driver. Not part of videodev2.h on Linux 6.1.
 */
#ifndef V4L2_PIX_FMT_Y12P
#define V4L2_PIX_FMT_Y12P v4l2_fourcc('Y', '1', '2', 'P') /* newer than Linux 6.1 */
#endif
#ifndef V4L2_PIX_FMT_Y14P
#define V4L2_PIX_FMT_Y14P v4l2_fourcc('Y', '1', '4', 'P') /* newer than Linux 6.1 */
#endif
/* RealSense F200/SR300 through the depthview uvcvideo patch */
#define NC_PIX_FMT_INVZ v4l2_fourcc('I', 'N', 'V', 'Z') /* depth 16-bit */
#define NC_PIX_FMT_INVR v4l2_fourcc('I', 'N', 'V', 'R') /* depth 16-bit */
#define NC_PIX_FMT_INRI v4l2_fourcc('I', 'N', 'R', 'I') /* depth 16 + IR 8 */
#define NC_PIX_FMT_INVI v4l2_fourcc('I', 'N', 'V', 'I') /* IR 8-bit */
#define NC_PIX_FMT_RELI v4l2_fourcc('R', 'E', 'L', 'I') /* IR 8-bit */
/* Rockchip's vendor kernel (rkisp, rkcif): V4l2_PIX_FMT_EBD8 and _SPD16 */
#define NC_PIX_FMT_EBD8 v4l2_fourcc('E', 'B', 'D', '8') /* embedded data 8-bit */
#define NC_PIX_FMT_SPD16 v4l2_fourcc('S', 'P', 'D', '6') /* shield pixels 16-bit */

/*
 * The table's entry for @fourcc, else the layout of a documented fourcc
 * the core does not describe (above), else negcam_fourcc_opaque: never
 * NULL. Sizes, TRY_FMT's size steps and the frame generator use it;
 * whether a fourcc is 'opaque' in a profile is negcam_fourcc_lookup()'s
 * answer (NULL).
 */
const struct negcam_fourcc_info *negcam_fourcc_info_of(__u32 fourcc);

/* The i-th table entry, NULL past the end (for listings and tests). */
const struct negcam_fourcc_info *negcam_fourcc_at(unsigned int i);

/*
 * Minimal line stride and buffer size of a width x height image. @align
 * (a power of two, 0 or 1 for none) rounds the luma stride up; chroma
 * strides follow from it. For compressed formats bytesperline is 0 and
 * sizeimage a bound the generator never exceeds.
 */
void negcam_fourcc_sizes(const struct negcam_fourcc_info *fi, __u32 width,
			 __u32 height, __u32 align, __u32 *bytesperline,
			 __u32 *sizeimage);

/* The most buffers a frame takes: an 'M' planar format's three. */
#define NC_MAX_PLANES 3

/* One memory plane of a frame: its own buffer on a multiplanar queue. */
struct negcam_plane_size {
	__u32 bytesperline;
	__u32 sizeimage;
};

/*
 * How a frame of @height lines, luma stride @bytesperline and @sizeimage
 * bytes in all (negcam_fourcc_sizes()' answers) lies in memory on a
 * multiplanar queue: one plane of those sizes, or for an 'M' variant
 * (NV12M...: fi->mplanes) its planes one buffer each, each sized as it
 * is in the contiguous form. Returns the number of planes written to @p.
 */
unsigned int negcam_fourcc_planes(const struct negcam_fourcc_info *fi, __u32 bytesperline,
				  __u32 height, __u32 sizeimage,
				  struct negcam_plane_size p[NC_MAX_PLANES]);

/* Default colorimetry for a format class: all four fields explicit. */
void negcam_fourcc_colorimetry(const struct negcam_fourcc_info *fi,
			       __u32 *colorspace, __u32 *ycbcr_enc,
			       __u32 *quantization, __u32 *xfer_func);

/* "YUYV" style printable fourcc into buf[5]; returns buf. */
char *negcam_fourcc_str(__u32 fourcc, char buf[5]);

/*
 * The size of H.264 as the frame generator writes it (h264.c), which the
 * format table's sizeimage bound needs: every frame is one access unit of
 * I_PCM macroblocks.
 */
/*
 * Bytes of one I_PCM macroblock that starts on a byte boundary: mb_type
 * (9 bits) and pcm_alignment_zero_bits (2 bytes), 256 luma and 128
 * chroma samples. Limited-range samples are never zero, so no emulation
 * prevention byte is ever inserted inside macroblock data.
 */
#define NC_H264_MB_BYTES 386u

/*
 * Upper bound of the rest of an access unit: start codes, AUD, SPS with
 * VUI, PPS, the slice header, the first macroblock's unaligned mb_type
 * and the emulation prevention bytes the headers may need.
 */
#define NC_H264_HEADER_BYTES 160u

#endif /* NEGCAM_FORMATS_H */
