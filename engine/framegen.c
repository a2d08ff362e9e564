// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The frame generator: one picture model (scene.h), written into every
 * raw layout of the fourcc table that can be described as repeated
 * groups of bytes, or handed to the JPEG or the H.264 encoder.
 *
 * Speed comes from the picture's shape. The background does not change
 * down the frame, so a full draw builds one line per plane and copies
 * it; the moving box and the stamp are then drawn over it as rectangles
 * of identical lines. A delta draw (prev != NC_FRAME_NONE) repaints only
 * the old box with background, the new box and the stamp: a few percent
 * of a 1080p frame.
 */
#include "framegen.h"
#include "formats.h"
#include "profile.h"
#include "scene.h"
#include "jpeg.h"
#include "h264.h"

/* ------------------------------------------------------------------ */
/* Raw layouts                                                         */

/* What a byte of a pixel group holds. */
enum {
	C_Z, /* zero (X padding) */
	C_Y,
	C_U,
	C_V,
	C_R,
	C_G,
	C_B,
	C_A, /* opaque alpha */
	C_HUE, C_SAT, C_VAL, /* HSV, from R'G'B' */
	C_D,     /* depth in mm, from luma (16 bits: with C_LO or C_HI) */
	C_CONF2, /* two 4-bit confidences, from luma (CNF4) */
	C_LO = 0x10, /* low byte of a 16-bit sample of that component */
	C_HI = 0x20, /* high byte */
};

enum nc_draw_kind {
	NC_DRAW_BYTES = 1, /* one plane of byte groups (packed YUV/RGB, grey) */
	NC_DRAW_BAYER,     /* byte groups that alternate with line parity */
	NC_DRAW_RGB16,     /* 8-, 16- or 32-bit words of packed RGB bit fields */
	NC_DRAW_SEMI,      /* luma plane + interleaved chroma plane */
	NC_DRAW_PLANAR,    /* luma plane + two chroma planes */
	NC_DRAW_MIPI,      /* MIPI CSI-2: the pixels' high bytes, then their low bits */
	NC_DRAW_BITS10,    /* 10-bit samples as one big-endian bit stream */
	NC_DRAW_STEREO,    /* two views' @depth-bit samples in one little-endian word */
	NC_DRAW_INZI,      /* a Y10 infrared plane, then a 16-bit depth plane */
	NC_DRAW_HSV,       /* byte groups of hue, saturation, value */
	NC_DRAW_JPEG,
	NC_DRAW_H264,
};

struct nc_drawfmt {
	__u32 fourcc;
	__u8 kind;
	__u8 gpix;      /* pixels per group */
	__u8 gbytes;    /* bytes per group (per chroma sample pair for SEMI) */
	__u8 depth;     /* significant bits of 16-bit samples */
	__u8 map[2][4]; /* group bytes for even and odd lines; SEMI: chroma order */
	/* RGB16: field widths and shifts, alpha bits, big endian, Y'CbCr for RGB */
	__u8 rb, gb, bb, rs, gs, bs, be;
	__u16 amask;
	__u8 yuv;
	__u8 msb;       /* 16-bit samples hold @depth bits in their top bits (P010) */
};

#define BYTES(f, n, g, ...) { f, NC_DRAW_BYTES, n, g, 8, { __VA_ARGS__ } }
#define GREY16(f, d, lo, hi) { f, NC_DRAW_BYTES, 1, 2, d, { { lo, hi } } }
#define BAYER8(f, a, b, c, d) { f, NC_DRAW_BAYER, 2, 2, 8, { { a, b }, { c, d } } }
#define BAYER16(f, dp, a, b, c, d)                                        \
	{ f, NC_DRAW_BAYER, 2, 4, dp,                                     \
	  { { (a) | C_LO, (a) | C_HI, (b) | C_LO, (b) | C_HI },          \
	    { (c) | C_LO, (c) | C_HI, (d) | C_LO, (d) | C_HI } } }
#define RGB16(f, n, r, g, b, rsh, gsh, bsh, am, big)                     \
	{ f, NC_DRAW_RGB16, 1, n, 8, { { 0 } }, r, g, b, rsh, gsh, bsh, big, am }
#define YUV16(f, y, u, v, ysh, ush, vsh, am)                               \
	{ f, NC_DRAW_RGB16, 1, 2, 8, { { 0 } }, y, u, v, ysh, ush, vsh, 0, am, 1 }
#define SEMI(f, a, b) { f, NC_DRAW_SEMI, 1, 1, 8, { { a, b } } }
#define PLANAR(f, swap) { f, NC_DRAW_PLANAR, 1, 1, 8, { { swap } } }
#define Y16(f, d) GREY16(f, d, C_Y | C_LO, C_Y | C_HI)
#define PACKED(f, k, n, g, d, a, b, c, e) { f, k, n, g, d, { { a, b }, { c, e } } }
#define MIPI10(f, a, b, c, e) PACKED(f, NC_DRAW_MIPI, 4, 5, 10, a, b, c, e)
#define MIPI12(f, a, b, c, e) PACKED(f, NC_DRAW_MIPI, 2, 3, 12, a, b, c, e)
#define MIPI14(f, a, b, c, e) PACKED(f, NC_DRAW_MIPI, 4, 7, 14, a, b, c, e)
/* 8-bit samples with only the top @d bits significant (Y4, Y6) */
#define GREYN(f, d) { f, NC_DRAW_BYTES, 1, 1, d, { { C_Y } } }
#define DEPTH16(f) BYTES(f, 1, 2, { C_D | C_LO, C_D | C_HI })
#define STEREO(f, d, g) { f, NC_DRAW_STEREO, 1, g, d }

static const struct nc_drawfmt nc_drawfmts[] = {
	BYTES(V4L2_PIX_FMT_YUYV, 2, 4, { C_Y, C_U, C_Y, C_V }),
	BYTES(V4L2_PIX_FMT_YVYU, 2, 4, { C_Y, C_V, C_Y, C_U }),
	BYTES(V4L2_PIX_FMT_UYVY, 2, 4, { C_U, C_Y, C_V, C_Y }),
	BYTES(V4L2_PIX_FMT_VYUY, 2, 4, { C_V, C_Y, C_U, C_Y }),
	BYTES(V4L2_PIX_FMT_YUV24, 1, 3, { C_Y, C_U, C_V }),
	BYTES(V4L2_PIX_FMT_YUV32, 1, 4, { C_A, C_Y, C_U, C_V }),
	BYTES(V4L2_PIX_FMT_AYUV32, 1, 4, { C_A, C_Y, C_U, C_V }),
	BYTES(V4L2_PIX_FMT_XYUV32, 1, 4, { C_Z, C_Y, C_U, C_V }),
	BYTES(V4L2_PIX_FMT_VUYA32, 1, 4, { C_V, C_U, C_Y, C_A }),
	BYTES(V4L2_PIX_FMT_VUYX32, 1, 4, { C_V, C_U, C_Y, C_Z }),
	BYTES(V4L2_PIX_FMT_YUVA32, 1, 4, { C_Y, C_U, C_V, C_A }),
	BYTES(V4L2_PIX_FMT_YUVX32, 1, 4, { C_Y, C_U, C_V, C_Z }),
	BYTES(V4L2_PIX_FMT_GREY, 1, 1, { C_Y }),
	Y16(V4L2_PIX_FMT_Y10, 10),
	Y16(V4L2_PIX_FMT_Y12, 12),
	Y16(V4L2_PIX_FMT_Y14, 14),
	Y16(V4L2_PIX_FMT_Y16, 16),
	GREY16(V4L2_PIX_FMT_Y16_BE, 16, C_Y | C_HI, C_Y | C_LO),
	BYTES(V4L2_PIX_FMT_RGB24, 1, 3, { C_R, C_G, C_B }),
	BYTES(V4L2_PIX_FMT_BGR24, 1, 3, { C_B, C_G, C_R }),
	BYTES(V4L2_PIX_FMT_BGR32, 1, 4, { C_B, C_G, C_R, C_A }),
	BYTES(V4L2_PIX_FMT_ABGR32, 1, 4, { C_B, C_G, C_R, C_A }),
	BYTES(V4L2_PIX_FMT_XBGR32, 1, 4, { C_B, C_G, C_R, C_Z }),
	BYTES(V4L2_PIX_FMT_RGB32, 1, 4, { C_A, C_R, C_G, C_B }),
	BYTES(V4L2_PIX_FMT_ARGB32, 1, 4, { C_A, C_R, C_G, C_B }),
	BYTES(V4L2_PIX_FMT_XRGB32, 1, 4, { C_Z, C_R, C_G, C_B }),
	BYTES(V4L2_PIX_FMT_BGRA32, 1, 4, { C_A, C_B, C_G, C_R }),
	BYTES(V4L2_PIX_FMT_BGRX32, 1, 4, { C_Z, C_B, C_G, C_R }),
	BYTES(V4L2_PIX_FMT_RGBA32, 1, 4, { C_R, C_G, C_B, C_A }),
	BYTES(V4L2_PIX_FMT_RGBX32, 1, 4, { C_R, C_G, C_B, C_Z }),
	YUV16(V4L2_PIX_FMT_YUV444, 4, 4, 4, 8, 4, 0, 0xf000),
	YUV16(V4L2_PIX_FMT_YUV555, 5, 5, 5, 10, 5, 0, 0x8000),
	YUV16(V4L2_PIX_FMT_YUV565, 5, 6, 5, 11, 5, 0, 0),
	RGB16(V4L2_PIX_FMT_RGB332, 1, 3, 3, 2, 5, 2, 0, 0, 0),
	RGB16(V4L2_PIX_FMT_RGB444, 2, 4, 4, 4, 8, 4, 0, 0xf000, 0),
	RGB16(V4L2_PIX_FMT_RGB555, 2, 5, 5, 5, 10, 5, 0, 0x8000, 0),
	RGB16(V4L2_PIX_FMT_ARGB555, 2, 5, 5, 5, 10, 5, 0, 0x8000, 0),
	RGB16(V4L2_PIX_FMT_XRGB555, 2, 5, 5, 5, 10, 5, 0, 0, 0),
	RGB16(V4L2_PIX_FMT_RGB555X, 2, 5, 5, 5, 10, 5, 0, 0x8000, 1),
	RGB16(V4L2_PIX_FMT_RGB565, 2, 5, 6, 5, 11, 5, 0, 0, 0),
	RGB16(V4L2_PIX_FMT_RGB565X, 2, 5, 6, 5, 11, 5, 0, 0, 1),
	RGB16(V4L2_PIX_FMT_ARGB444, 2, 4, 4, 4, 8, 4, 0, 0xf000, 0),
	RGB16(V4L2_PIX_FMT_XRGB444, 2, 4, 4, 4, 8, 4, 0, 0, 0),
	RGB16(V4L2_PIX_FMT_RGBA444, 2, 4, 4, 4, 12, 8, 4, 0x000f, 0),
	RGB16(V4L2_PIX_FMT_RGBX444, 2, 4, 4, 4, 12, 8, 4, 0, 0),
	RGB16(V4L2_PIX_FMT_ABGR444, 2, 4, 4, 4, 0, 4, 8, 0xf000, 0),
	RGB16(V4L2_PIX_FMT_XBGR444, 2, 4, 4, 4, 0, 4, 8, 0, 0),
	RGB16(V4L2_PIX_FMT_BGRA444, 2, 4, 4, 4, 4, 8, 12, 0x000f, 0),
	RGB16(V4L2_PIX_FMT_BGRX444, 2, 4, 4, 4, 4, 8, 12, 0, 0),
	RGB16(V4L2_PIX_FMT_ABGR555, 2, 5, 5, 5, 0, 5, 10, 0x8000, 0),
	RGB16(V4L2_PIX_FMT_XBGR555, 2, 5, 5, 5, 0, 5, 10, 0, 0),
	RGB16(V4L2_PIX_FMT_RGBA555, 2, 5, 5, 5, 11, 6, 1, 0x0001, 0),
	RGB16(V4L2_PIX_FMT_RGBX555, 2, 5, 5, 5, 11, 6, 1, 0, 0),
	RGB16(V4L2_PIX_FMT_BGRA555, 2, 5, 5, 5, 1, 6, 11, 0x0001, 0),
	RGB16(V4L2_PIX_FMT_BGRX555, 2, 5, 5, 5, 1, 6, 11, 0, 0),
	RGB16(V4L2_PIX_FMT_ARGB555X, 2, 5, 5, 5, 10, 5, 0, 0x8000, 1),
	RGB16(V4L2_PIX_FMT_XRGB555X, 2, 5, 5, 5, 10, 5, 0, 0, 1),
	/* a big-endian 32-bit word: b at bits 31-26, g 25-20, r 19-14 */
	RGB16(V4L2_PIX_FMT_BGR666, 4, 6, 6, 6, 14, 20, 26, 0, 1),
	BAYER8(V4L2_PIX_FMT_SBGGR8, C_B, C_G, C_G, C_R),
	BAYER8(V4L2_PIX_FMT_SGBRG8, C_G, C_B, C_R, C_G),
	BAYER8(V4L2_PIX_FMT_SGRBG8, C_G, C_R, C_B, C_G),
	BAYER8(V4L2_PIX_FMT_SRGGB8, C_R, C_G, C_G, C_B),
	BAYER16(V4L2_PIX_FMT_SBGGR10, 10, C_B, C_G, C_G, C_R),
	BAYER16(V4L2_PIX_FMT_SGBRG10, 10, C_G, C_B, C_R, C_G),
	BAYER16(V4L2_PIX_FMT_SGRBG10, 10, C_G, C_R, C_B, C_G),
	BAYER16(V4L2_PIX_FMT_SRGGB10, 10, C_R, C_G, C_G, C_B),
	BAYER16(V4L2_PIX_FMT_SBGGR12, 12, C_B, C_G, C_G, C_R),
	BAYER16(V4L2_PIX_FMT_SGBRG12, 12, C_G, C_B, C_R, C_G),
	BAYER16(V4L2_PIX_FMT_SGRBG12, 12, C_G, C_R, C_B, C_G),
	BAYER16(V4L2_PIX_FMT_SRGGB12, 12, C_R, C_G, C_G, C_B),
	BAYER16(V4L2_PIX_FMT_SBGGR14, 14, C_B, C_G, C_G, C_R),
	BAYER16(V4L2_PIX_FMT_SGBRG14, 14, C_G, C_B, C_R, C_G),
	BAYER16(V4L2_PIX_FMT_SGRBG14, 14, C_G, C_R, C_B, C_G),
	BAYER16(V4L2_PIX_FMT_SRGGB14, 14, C_R, C_G, C_G, C_B),
	BAYER16(V4L2_PIX_FMT_SBGGR16, 16, C_B, C_G, C_G, C_R),
	BAYER16(V4L2_PIX_FMT_SGBRG16, 16, C_G, C_B, C_R, C_G),
	BAYER16(V4L2_PIX_FMT_SGRBG16, 16, C_G, C_R, C_B, C_G),
	BAYER16(V4L2_PIX_FMT_SRGGB16, 16, C_R, C_G, C_G, C_B),
	MIPI10(V4L2_PIX_FMT_SBGGR10P, C_B, C_G, C_G, C_R),
	MIPI10(V4L2_PIX_FMT_SGBRG10P, C_G, C_B, C_R, C_G),
	MIPI10(V4L2_PIX_FMT_SGRBG10P, C_G, C_R, C_B, C_G),
	MIPI10(V4L2_PIX_FMT_SRGGB10P, C_R, C_G, C_G, C_B),
	MIPI12(V4L2_PIX_FMT_SBGGR12P, C_B, C_G, C_G, C_R),
	MIPI12(V4L2_PIX_FMT_SGBRG12P, C_G, C_B, C_R, C_G),
	MIPI12(V4L2_PIX_FMT_SGRBG12P, C_G, C_R, C_B, C_G),
	MIPI12(V4L2_PIX_FMT_SRGGB12P, C_R, C_G, C_G, C_B),
	MIPI14(V4L2_PIX_FMT_SBGGR14P, C_B, C_G, C_G, C_R),
	MIPI14(V4L2_PIX_FMT_SGBRG14P, C_G, C_B, C_R, C_G),
	MIPI14(V4L2_PIX_FMT_SGRBG14P, C_G, C_R, C_B, C_G),
	MIPI14(V4L2_PIX_FMT_SRGGB14P, C_R, C_G, C_G, C_B),
	MIPI10(V4L2_PIX_FMT_Y10P, C_Y, C_Y, C_Y, C_Y),
	MIPI12(V4L2_PIX_FMT_Y12P, C_Y, C_Y, C_Y, C_Y),
	MIPI14(V4L2_PIX_FMT_Y14P, C_Y, C_Y, C_Y, C_Y),
	PACKED(V4L2_PIX_FMT_Y10BPACK, NC_DRAW_BITS10, 4, 5, 10, C_Y, C_Y, C_Y, C_Y),
	GREYN(V4L2_PIX_FMT_Y4, 4),
	GREYN(V4L2_PIX_FMT_Y6, 6),
	/* depth and infrared (docs/frames.md: depth is 16 mm a luma step away) */
	DEPTH16(V4L2_PIX_FMT_Z16),
	DEPTH16(NC_PIX_FMT_INVZ),
	DEPTH16(NC_PIX_FMT_INVR),
	BYTES(NC_PIX_FMT_INRI, 1, 3, { C_D | C_LO, C_D | C_HI, C_Y }),
	BYTES(NC_PIX_FMT_INVI, 1, 1, { C_Y }),
	BYTES(NC_PIX_FMT_RELI, 1, 1, { C_Y }),
	{ V4L2_PIX_FMT_INZI, NC_DRAW_INZI, 1, 2, 10 },
	BYTES(V4L2_PIX_FMT_CNF4, 2, 1, { C_CONF2 }),
	/* stereo pairs: left view in the low bits (pixfmt-y8i, pixfmt-y12i) */
	STEREO(V4L2_PIX_FMT_Y8I, 8, 2),
	STEREO(V4L2_PIX_FMT_Y12I, 12, 3),
	/* sensor side data: the picture's luma as 8- or 16-bit samples */
	BYTES(NC_PIX_FMT_EBD8, 1, 1, { C_Y }),
	Y16(NC_PIX_FMT_SPD16, 16),
	SEMI(V4L2_PIX_FMT_NV12, C_U, C_V),
	SEMI(V4L2_PIX_FMT_NV21, C_V, C_U),
	SEMI(V4L2_PIX_FMT_NV16, C_U, C_V),
	SEMI(V4L2_PIX_FMT_NV61, C_V, C_U),
	SEMI(V4L2_PIX_FMT_NV24, C_U, C_V),
	SEMI(V4L2_PIX_FMT_NV42, C_V, C_U),
	/* the multiplanar variants, planes one after the other in one buffer */
	SEMI(V4L2_PIX_FMT_NV12M, C_U, C_V),
	SEMI(V4L2_PIX_FMT_NV21M, C_V, C_U),
	SEMI(V4L2_PIX_FMT_NV16M, C_U, C_V),
	SEMI(V4L2_PIX_FMT_NV61M, C_V, C_U),
	PLANAR(V4L2_PIX_FMT_YUV420M, 0),
	PLANAR(V4L2_PIX_FMT_YVU420M, 1),
	PLANAR(V4L2_PIX_FMT_YUV422M, 0),
	PLANAR(V4L2_PIX_FMT_YVU422M, 1),
	PLANAR(V4L2_PIX_FMT_YUV444M, 0),
	PLANAR(V4L2_PIX_FMT_YVU444M, 1),
	{ V4L2_PIX_FMT_P010, NC_DRAW_SEMI, 1, 2, 10, { { C_U, C_V } }, .msb = 1 },
	PLANAR(V4L2_PIX_FMT_YUV420, 0),
	PLANAR(V4L2_PIX_FMT_YVU420, 1),
	PLANAR(V4L2_PIX_FMT_YUV422P, 0),
	PLANAR(V4L2_PIX_FMT_YUV411P, 0),
	PLANAR(V4L2_PIX_FMT_YUV410, 0),
	PLANAR(V4L2_PIX_FMT_YVU410, 1),
	{ V4L2_PIX_FMT_MJPEG, NC_DRAW_JPEG },
	{ V4L2_PIX_FMT_JPEG, NC_DRAW_JPEG },
	{ V4L2_PIX_FMT_H264, NC_DRAW_H264 },
	{ V4L2_PIX_FMT_HSV24, NC_DRAW_HSV, 1, 3, 8, { { C_HUE, C_SAT, C_VAL } } },
	{ V4L2_PIX_FMT_HSV32, NC_DRAW_HSV, 1, 4, 8, { { C_Z, C_HUE, C_SAT, C_VAL } } },
};

#undef BYTES
#undef GREY16
#undef BAYER8
#undef BAYER16
#undef RGB16
#undef YUV16
#undef SEMI
#undef PLANAR
#undef Y16
#undef PACKED
#undef MIPI10
#undef MIPI12
#undef MIPI14
#undef GREYN
#undef DEPTH16
#undef STEREO

/* A fourcc of unknown layout (negcam_fourcc_opaque): an 8-bit picture. */
static const struct nc_drawfmt nc_opaque_drawfmt = { 0, NC_DRAW_BYTES, 1, 1, 8, { { C_Y } } };

static const struct nc_drawfmt *nc_drawfmt_find(__u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(nc_drawfmts); i++)
		if (nc_drawfmts[i].fourcc == fourcc)
			return &nc_drawfmts[i];
	return NULL;
}

bool negcam_framegen_supports(__u32 fourcc)
{
	return negcam_fourcc_info_of(fourcc)->layout == NC_LAYOUT_OPAQUE ||
	       nc_drawfmt_find(fourcc);
}

/* One plane of a raw buffer, as the drawing loops see it. */
struct nc_plane {
	__u8 *base;
	__u32 bpl;     /* bytes per line */
	__u32 rows;
	__u32 vshift;  /* log2 of luma lines per plane line */
	__u32 gshift;  /* log2 of luma pixels per group */
	__u32 gbytes;
	__u32 depth;
	bool msb;
	__u32 period;  /* lines before the group bytes repeat: 2 for Bayer */
	__u32 hue_scale; /* HSV: 180 (V4L2_HSV_ENC_180) or 256 */
	const struct nc_drawfmt *df; /* for RGB16 */
	__u8 map[2][4];
};

static __u32 nc_log2(__u32 v)
{
	__u32 i;

	for (i = 0; v >> i > 1; i++)
		;
	return i;
}

/* An 8-bit sample widened to @d bits (or cut to its top @d): white stays all ones. */
static __u32 nc_widen(__u32 v, __u32 d)
{
	if (d <= 8)
		return v >> (8 - d);
	return (v << (d - 8)) | (v >> (16 - d));
}

/*
 * Depth in millimetres (Z16 and kin): the scene seen as a relief, 16 mm
 * nearer for every step of luma: white (Y' 235) at 320 mm, black (16) at
 * 3824 mm; never 0, which depth cameras use for "no data".
 */
static __u32 nc_depth_mm(const struct nc_color *c)
{
	return (255u - c->y) * 16u;
}

static __u8 nc_component(const struct nc_color *c, __u8 m, __u32 depth,
			 bool msb)
{
	__u8 v;
	__u32 w;

	if ((m & 0xf) == C_D) {
		w = nc_depth_mm(c);
		return m & C_HI ? (__u8)(w >> 8) : (__u8)w;
	}
	switch (m & 0xf) {
	case C_Y: v = c->y; break;
	case C_U: v = c->cb; break;
	case C_V: v = c->cr; break;
	case C_R: v = c->r; break;
	case C_G: v = c->g; break;
	case C_B: v = c->b; break;
	case C_A: v = 0xff; break;
	case C_CONF2: v = (__u8)((c->y >> 4) * 0x11); break;
	default: v = 0; break;
	}
	if (!(m & (C_LO | C_HI)))
		return depth < 8 ? (__u8)(nc_widen(v, depth) << (8 - depth)) : v;
	/* Widen to @depth bits, repeating the top bits so white is all ones. */
	w = ((__u32)v << (depth - 8)) | ((__u32)v >> (16 - depth));
	if (msb)
		w <<= 16 - depth;
	return m & C_HI ? (__u8)(w >> 8) : (__u8)w;
}

/*
 * HSV of an R'G'B' colour as V4L2 defines it (pixfmt-packed-hsv): value
 * the largest channel, saturation 255 * (max - min) / max, hue the angle
 * scaled so a full turn is @scale (180 or 256), rounded.
 */
static void nc_hsv(const struct nc_color *c, __u32 scale, __u8 hsv[3])
{
	int r = c->r, g = c->g, b = c->b, max, min, d, deg;

	max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	min = r < g ? (r < b ? r : b) : (g < b ? g : b);
	d = max - min;
	hsv[2] = (__u8)max;
	hsv[1] = max ? (__u8)((255 * d + max / 2) / max) : 0;
	if (!d) {
		hsv[0] = 0;
		return;
	}
	/* the angle in degrees times d: sector base plus 60 * the difference */
	if (max == r)
		deg = 60 * (g - b) + (g < b ? 360 * d : 0);
	else if (max == g)
		deg = 120 * d + 60 * (b - r);
	else
		deg = 240 * d + 60 * (r - g);
	deg = (int)(((__u32)deg * scale + 180u * d) / (360u * d));
	hsv[0] = (__u8)(deg >= (int)scale ? deg - (int)scale : deg);
}

static void nc_put_le(__u8 *g, __u32 v, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		g[i] = (__u8)(v >> (8 * i));
}

static __u32 nc_get_le(const __u8 *g, __u32 n)
{
	__u32 i, v = 0;

	for (i = 0; i < n; i++)
		v |= (__u32)g[i] << (8 * i);
	return v;
}

/*
 * Bit-packed groups. MIPI CSI-2 (pixfmt-srggb10p, -12p, -14p and the
 * packed greys of pixfmt-yuv-luma): the top 8 bits of each pixel in a
 * byte of its own, then the low bits of all as one little-endian bit
 * stream, pixel 0's first. Y10BPACK: the whole group as one big-endian
 * bit stream, pixel 0's 10 bits first.
 */
static void nc_group_bits(const struct nc_plane *p, __u32 parity,
			  const struct nc_color *c, __u8 *g)
{
	__u32 d = p->depth, low = d - 8, n = 1u << p->gshift, i, v;
	__u64 lows = 0, all = 0;

	for (i = 0; i < n; i++) {
		v = nc_widen(nc_component(c, p->map[parity][i & 1], 8, false), d);
		g[i] = (__u8)(v >> low);
		lows |= (__u64)(v & ((1u << low) - 1)) << (low * i);
		all = (all << d) | v;
	}
	for (i = n; i < p->gbytes; i++)
		g[i] = (__u8)(lows >> (8 * (i - n)));
	if (p->df->kind == NC_DRAW_BITS10)
		for (i = 0; i < p->gbytes; i++)
			g[i] = (__u8)(all >> (8 * (p->gbytes - 1 - i)));
}

static void nc_group(const struct nc_plane *p, __u32 parity,
		     const struct nc_color *c, __u8 *g)
{
	const struct nc_drawfmt *df = p->df;
	__u32 i, v;

	if (df && df->kind == NC_DRAW_HSV) {
		__u8 hsv[3];

		nc_hsv(c, p->hue_scale, hsv);
		for (i = 0; i < p->gbytes; i++)
			g[i] = p->map[0][i] >= C_HUE ? hsv[p->map[0][i] - C_HUE] : 0;
		return;
	}

	if (df && df->kind == NC_DRAW_RGB16) {
		__u8 r = df->yuv ? c->y : c->r, gr = df->yuv ? c->cb : c->g;
		__u8 b = df->yuv ? c->cr : c->b;

		v = ((__u32)(r >> (8 - df->rb)) << df->rs) |
		    ((__u32)(gr >> (8 - df->gb)) << df->gs) |
		    ((__u32)(b >> (8 - df->bb)) << df->bs) | df->amask;
		if (p->gbytes == 1) {
			g[0] = (__u8)v;
		} else if (p->gbytes == 4) {
			for (i = 0; i < 4; i++)
				g[df->be ? 3 - i : i] = (__u8)(v >> (8 * i));
		} else {
			g[df->be ? 1 : 0] = (__u8)v;
			g[df->be ? 0 : 1] = (__u8)(v >> 8);
		}
		return;
	}
	if (df && (df->kind == NC_DRAW_MIPI || df->kind == NC_DRAW_BITS10)) {
		nc_group_bits(p, parity, c, g);
		return;
	}
	if (df && df->kind == NC_DRAW_STEREO) {
		/* both views alike here; nc_stereo_right() then shifts the right one */
		v = nc_widen(c->y, df->depth);
		nc_put_le(g, v | v << df->depth, p->gbytes);
		return;
	}
	for (i = 0; i < p->gbytes; i++)
		g[i] = nc_component(c, p->map[parity][i], p->depth, p->msb);
}

/* Fill @n bytes at @d with copies of the @gb-byte group @g. */
static void nc_fill(__u8 *d, const __u8 *g, __u32 gb, size_t n)
{
	size_t done, chunk;

	if (!n)
		return;
	if (gb == 1) {
		memset(d, g[0], n);
		return;
	}
	memcpy(d, g, gb < n ? gb : n);
	for (done = gb; done < n; done += chunk) {
		chunk = done < n - done ? done : n - done;
		memcpy(d + done, d, chunk);
	}
}

static __u8 *nc_row(const struct nc_plane *p, __u32 r)
{
	return p->base + (size_t)r * p->bpl;
}

static size_t nc_xbytes(const struct nc_plane *p, __u32 x)
{
	return (size_t)(x >> p->gshift) * p->gbytes;
}

/* Draw luma columns [x0, x1) of plane line @r. */
static void nc_draw_line(const struct nc_scene *s, const struct nc_plane *p,
			 __u32 layers, __u32 r, __u32 x0, __u32 x1)
{
	__u32 y = r << p->vshift, x, e;
	struct nc_color c;
	__u8 g[8];

	for (x = x0; x < x1; x = e) {
		nc_scene_run(s, layers, y, x, &c, &e);
		if (e > x1)
			e = x1;
		nc_group(p, r & 1, &c, g);
		nc_fill(nc_row(p, r) + nc_xbytes(p, x), g, p->gbytes,
			nc_xbytes(p, e) - nc_xbytes(p, x));
	}
}

/*
 * Draw the rectangle of luma lines [y0, y1) and columns [x0, x1), whose
 * lines all look alike: draw the first line (two for Bayer), copy it.
 */
static void nc_draw_rect(const struct nc_scene *s, const struct nc_plane *p,
			 __u32 layers, __u32 y0, __u32 y1, __u32 x0, __u32 x1)
{
	__u32 r0 = y0 >> p->vshift;
	__u32 r1 = (y1 + (1u << p->vshift) - 1) >> p->vshift;
	size_t off = nc_xbytes(p, x0), len = nc_xbytes(p, x1) - off;
	__u32 r;

	if (r1 > p->rows)
		r1 = p->rows;
	for (r = r0; r < r1; r++) {
		if (r - r0 < p->period)
			nc_draw_line(s, p, layers, r, x0, x1);
		else
			memcpy(nc_row(p, r) + off, nc_row(p, r - p->period) + off, len);
	}
}

/* The whole plane: background lines with zeroed padding, then stamp and box. */
static void nc_draw_plane(const struct nc_scene *s, const struct nc_plane *p)
{
	size_t used = nc_xbytes(p, s->width);
	__u32 r;

	for (r = 0; r < p->rows; r++) {
		if (r < p->period) {
			nc_draw_line(s, p, NC_LAYER_BG, r, 0, s->width);
			memset(nc_row(p, r) + used, 0, p->bpl - used);
		} else {
			memcpy(nc_row(p, r), nc_row(p, r - p->period), p->bpl);
		}
	}
	if (s->block)
		nc_draw_rect(s, p, NC_LAYER_ALL, 0, s->block, 0,
			     NC_STAMP_BLOCKS * s->block);
	if (s->box_size)
		nc_draw_rect(s, p, NC_LAYER_ALL, s->box_y, s->box_y + s->box_size,
			     s->box_x, s->box_x + s->box_size);
}

/*
 * Only what differs from @old: the box where the scene time moved it
 * (old and new place), the stamp where the frame number changed.
 */
static void nc_update_plane(const struct nc_scene *s, const struct nc_scene *old,
			    const struct nc_plane *p)
{
	if (s->box_size &&
	    (old->box_x != s->box_x || old->box_y != s->box_y)) {
		nc_draw_rect(s, p, NC_LAYER_BG, old->box_y,
			     old->box_y + old->box_size, old->box_x,
			     old->box_x + old->box_size);
		nc_draw_rect(s, p, NC_LAYER_ALL, s->box_y, s->box_y + s->box_size,
			     s->box_x, s->box_x + s->box_size);
	}
	if (s->block && old->frame != s->frame)
		nc_draw_rect(s, p, NC_LAYER_ALL, 0, s->block, 0,
			     NC_STAMP_BLOCKS * s->block);
}

static void nc_plane_init(struct nc_plane *p, const struct nc_drawfmt *df,
			  __u32 bpl, __u32 rows, __u32 vsub, __u32 gpix,
			  __u32 gbytes, __u8 b0, __u8 b1)
{
	memset(p, 0, sizeof(*p));
	p->bpl = bpl;
	p->rows = rows;
	p->vshift = nc_log2(vsub);
	p->gshift = nc_log2(gpix);
	p->gbytes = gbytes;
	p->depth = df->depth;
	p->msb = df->msb;
	p->period = df->kind == NC_DRAW_BAYER ? 2 : 1;
	p->map[0][0] = p->map[1][0] = b0;
	p->map[0][1] = p->map[1][1] = b1;
}

/*
 * Lay the planes of a raw format out as formats.c sizes them: chroma
 * lines follow from the luma stride. Returns the bytes the image takes.
 */
static __u64 nc_planes(const struct negcam_fourcc_info *fi,
		       const struct nc_drawfmt *df, __u32 lines, __u32 bpl,
		       struct nc_plane *p, unsigned int *np)
{
	__u32 cbpl, crows = (lines + fi->vsub - 1) / fi->vsub;
	__u64 size = 0;
	unsigned int i;

	switch (df->kind) {
	case NC_DRAW_SEMI:
		nc_plane_init(&p[0], df, bpl, lines, 1, 1, 1, C_Y, 0);
		cbpl = (bpl * 2 + fi->hsub - 1) / fi->hsub;
		nc_plane_init(&p[1], df, cbpl, crows, fi->vsub, fi->hsub, 2,
			      df->map[0][0], df->map[0][1]);
		if (fi->bpp == 16) {
			/* little-endian 16-bit samples: twice the bytes */
			static const __u8 lo_hi[] = { C_LO, C_HI };

			p[0].gbytes = 2;
			p[1].gbytes = 4;
			for (i = 0; i < 4; i++) {
				p[0].map[0][i] = p[0].map[1][i] = C_Y | lo_hi[i & 1];
				p[1].map[0][i] = p[1].map[1][i] =
					df->map[0][i >> 1] | lo_hi[i & 1];
			}
		}
		*np = 2;
		break;
	case NC_DRAW_PLANAR:
		nc_plane_init(&p[0], df, bpl, lines, 1, 1, 1, C_Y, 0);
		cbpl = (bpl + fi->hsub - 1) / fi->hsub;
		nc_plane_init(&p[1], df, cbpl, crows, fi->vsub, fi->hsub, 1,
			      df->map[0][0] ? C_V : C_U, 0);
		nc_plane_init(&p[2], df, cbpl, crows, fi->vsub, fi->hsub, 1,
			      df->map[0][0] ? C_U : C_V, 0);
		*np = 3;
		break;
	case NC_DRAW_INZI:
		/* pixfmt-inzi: the planes one after the other, half a line each */
		nc_plane_init(&p[0], df, bpl / 2, lines, 1, 1, 2, C_Y | C_LO, C_Y | C_HI);
		nc_plane_init(&p[1], df, bpl - bpl / 2, lines, 1, 1, 2, C_D | C_LO,
			      C_D | C_HI);
		*np = 2;
		break;
	default:
		nc_plane_init(&p[0], df, bpl, lines, 1, df->gpix, df->gbytes, 0, 0);
		memcpy(p[0].map, df->map, sizeof(p[0].map));
		p[0].df = df;
		if (df->kind == NC_DRAW_MIPI || df->kind == NC_DRAW_BITS10)
			p[0].period = df->map[0][0] == df->map[1][0] &&
				      df->map[0][1] == df->map[1][1] ? 1 : 2;
		else if (df->kind != NC_DRAW_BAYER)
			memcpy(p[0].map[1], p[0].map[0], sizeof(p[0].map[0]));
		*np = 1;
		break;
	}
	for (i = 0; i < *np; i++)
		size += (__u64)p[i].bpl * p[i].rows;
	return size;
}

/* NC_MAX_DIM (profile.h): no profile names more, far below JPEG's 65535. */
#define NC_MAX_STRIDE (1u << 24)

/*
 * Point the @np planes at their memory: one after the other in @dst[0],
 * or (@nbufs > 1, an 'M' format on a multiplanar queue) each in its own
 * buffer. Returns the bytes of the whole image, or a negative errno.
 */
static long nc_place_planes(struct nc_plane *p, unsigned int np, void *const dst[],
			    const __u32 dst_size[], unsigned int nbufs, __u32 used[])
{
	__u64 off = 0, n;
	unsigned int i;

	if (nbufs != 1 && nbufs != np)
		return -EINVAL;
	for (i = 0; i < np; i++) {
		n = (__u64)p[i].bpl * p[i].rows;
		if (nbufs > 1) {
			if (!dst[i] || n > dst_size[i])
				return dst[i] ? -ENOSPC : -EINVAL;
			p[i].base = dst[i];
			used[i] = (__u32)n;
		} else {
			p[i].base = (__u8 *)dst[0] + off;
		}
		off += n;
	}
	if (nbufs == 1 && off > dst_size[0])
		return -ENOSPC;
	if (nbufs == 1)
		used[0] = (__u32)off;
	return (long)off;
}

long negcam_framegen_draw_at(const struct v4l2_pix_format *fmt, __u32 pattern,
			     __u32 frame, __u64 scene_ns, __u32 prev,
			     __u64 prev_scene_ns, void *dst, __u32 dst_size)
{
	__u32 used;

	return negcam_framegen_draw_planes(fmt, pattern, frame, scene_ns, prev, prev_scene_ns,
					   &dst, &dst_size, 1, &used);
}

/*
 * The stereo formats' right view (Y8I, Y12I): what the left sensor sees
 * NC_STEREO_DISPARITY pixels further right (the last column repeats), as
 * a camera sees a scene at the distance of that disparity. Rewritten
 * after every draw from the left samples, which it never changes.
 */
#define NC_STEREO_DISPARITY 8u

static void nc_stereo_right(const struct nc_plane *p, __u32 width)
{
	__u32 d = p->depth, gb = p->gbytes, mask = (1u << d) - 1, r, x, xs, left;
	__u8 *line;

	for (r = 0; r < p->rows; r++) {
		line = nc_row(p, r);
		for (x = 0; x < width; x++) {
			xs = x + NC_STEREO_DISPARITY < width ? x + NC_STEREO_DISPARITY :
							       width - 1;
			left = nc_get_le(line + (size_t)xs * gb, gb) & mask;
			nc_put_le(line + (size_t)x * gb,
				  (nc_get_le(line + (size_t)x * gb, gb) & mask) | left << d, gb);
		}
	}
}

/*
 * Line stride and size of a raw image: @fmt's bytesperline (0: the
 * minimal one), and for an opaque fourcc (no stride) a line of one byte
 * a pixel in a buffer of @fmt's sizeimage: *@total, else 0.
 */
static int nc_raw_stride(const struct v4l2_pix_format *fmt,
			 const struct negcam_fourcc_info *fi, __u32 *bpl, __u32 *total)
{
	__u32 minsize;

	negcam_fourcc_sizes(fi, fmt->width, fmt->height, 1, bpl, &minsize);
	*total = 0;
	if (fi->layout == NC_LAYOUT_OPAQUE) {
		*bpl = fmt->width;
		*total = fmt->sizeimage ? fmt->sizeimage : minsize;
		return 0;
	}
	/* a shorter stride cannot hold a line */
	if (fmt->bytesperline) {
		if (fmt->bytesperline < *bpl || fmt->bytesperline > NC_MAX_STRIDE)
			return -EINVAL;
		*bpl = fmt->bytesperline;
	}
	return 0;
}

/* The raw layouts: planes laid out, then drawn whole or where they changed. */
static long nc_draw_raw(const struct v4l2_pix_format *fmt, const struct negcam_fourcc_info *fi,
			const struct nc_drawfmt *df, __u32 pattern, __u32 frame,
			__u64 scene_ns, __u32 prev, __u64 prev_scene_ns, void *const dst[],
			const __u32 dst_size[], unsigned int nbufs, __u32 used[])
{
	struct nc_scene s, old;
	struct nc_plane p[3];
	unsigned int np, i;
	__u32 bpl, total;
	long size;

	if (nc_raw_stride(fmt, fi, &bpl, &total))
		return -EINVAL;
	nc_planes(fi, df, fmt->height, bpl, p, &np);
	if (nbufs > 1 && fi->mplanes != nbufs)
		return -EINVAL; /* only an 'M' format has a buffer per plane */
	size = nc_place_planes(p, np, dst, dst_size, nbufs, used);
	if (size < 0)
		return size;
	if ((long)total > size && (nbufs != 1 || total > dst_size[0]))
		return -ENOSPC;
	/* the hue encoding follows the format (SET_CSC may have chosen 256) */
	p[0].hue_scale = fmt->hsv_enc == V4L2_HSV_ENC_256 ? 256 : 180;

	nc_scene_init(&s, fmt->width, fmt->height, pattern, frame, scene_ns, false);
	if (prev == NC_FRAME_NONE || df->kind == NC_DRAW_STEREO) {
		for (i = 0; i < np; i++)
			nc_draw_plane(&s, &p[i]);
		if (df->kind == NC_DRAW_STEREO)
			nc_stereo_right(&p[0], fmt->width);
		if ((long)total > size)
			memset(p[0].base + size, 0, total - (__u32)size);
	} else {
		nc_scene_init(&old, fmt->width, fmt->height, pattern, prev,
			      prev_scene_ns, false);
		for (i = 0; i < np; i++)
			nc_update_plane(&s, &old, &p[i]);
	}
	if ((long)total <= size)
		return size;
	used[0] = total;
	return total;
}

long negcam_framegen_draw_planes(const struct v4l2_pix_format *fmt, __u32 pattern,
				 __u32 frame, __u64 scene_ns, __u32 prev,
				 __u64 prev_scene_ns, void *const dst[],
				 const __u32 dst_size[], unsigned int nbufs, __u32 used[])
{
	const struct negcam_fourcc_info *fi;
	const struct nc_drawfmt *df;
	struct nc_scene s;
	long size;

	if (!fmt || !dst || !dst[0] || !nbufs || pattern >= NC_PATTERN_COUNT)
		return -EINVAL;
	fi = negcam_fourcc_info_of(fmt->pixelformat);
	df = fi->layout == NC_LAYOUT_OPAQUE ? &nc_opaque_drawfmt :
					      nc_drawfmt_find(fmt->pixelformat);
	/* a buffer holds fmt->height lines, one field of them for ALTERNATE/TOP/BOTTOM */
	if (!df || !fmt->width || !fmt->height || fmt->width > NC_MAX_DIM ||
	    fmt->height > NC_MAX_DIM || fmt->width % fi->hsub || fmt->height % fi->vsub)
		return -EINVAL;

	if (df->kind != NC_DRAW_JPEG && df->kind != NC_DRAW_H264)
		return nc_draw_raw(fmt, fi, df, pattern, frame, scene_ns, prev, prev_scene_ns,
				   dst, dst_size, nbufs, used);
	if (nbufs != 1)
		return -EINVAL;
	/* H.264: limited range, the very samples of the YU12 path */
	nc_scene_init(&s, fmt->width, fmt->height, pattern, frame, scene_ns,
		      df->kind == NC_DRAW_JPEG);
	size = df->kind == NC_DRAW_JPEG ? nc_jpeg_encode(&s, dst[0], dst_size[0]) :
					  nc_h264_encode(&s, dst[0], dst_size[0]);
	used[0] = size < 0 ? 0 : (__u32)size;
	return size;
}

long negcam_framegen_draw(const struct v4l2_pix_format *fmt, __u32 pattern,
			  __u32 frame, __u32 prev, void *dst, __u32 dst_size)
{
	return negcam_framegen_draw_at(fmt, pattern, frame,
				       frame * NC_SCENE_TICK_NS, prev,
				       prev * NC_SCENE_TICK_NS, dst, dst_size);
}
