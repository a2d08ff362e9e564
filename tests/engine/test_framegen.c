// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The frame generator: every fourcc it supports at several sizes and
 * strides; the stamp reads back; a delta draw equals a full draw byte for
 * byte; nothing is written past the buffer; JPEGs decode (libjpeg,
 * ffmpeg) to the same picture. Ends with a timing print (not asserted).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>

#include "check.h"
#include "formats.h"
#include "framegen.h"
#include "unpack.h"

#ifdef HAVE_LIBJPEG
#include <jpeglib.h>
#endif

#define GUARD 64
#define GUARD_BYTE 0xa5

static const __u32 test_frames[] = { 0, 1, 2, 1000, 0x80000005u };

/* ------------------------------------------------------------------ */
/* Expected layouts, written from the V4L2 specification               */

struct layout {
	unsigned int planes;
	__u32 bpl[3], rows[3];
	__u64 size;
};

static __u32 div_up(__u32 a, __u32 b)
{
	return (a + b - 1) / b;
}

static void expected_layout(const struct negcam_fourcc_info *fi, __u32 bpl,
			    __u32 lines, struct layout *l)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->planes = 1;
	l->bpl[0] = bpl;
	l->rows[0] = lines;
	if (fi->layout == NC_LAYOUT_SEMIPLANAR) {
		l->planes = 2;
		l->bpl[1] = div_up(bpl * 2, fi->hsub);
		l->rows[1] = div_up(lines, fi->vsub);
	} else if (fi->layout == NC_LAYOUT_PLANAR) {
		l->planes = 3;
		l->bpl[1] = l->bpl[2] = div_up(bpl, fi->hsub);
		l->rows[1] = l->rows[2] = div_up(lines, fi->vsub);
	}
	for (i = 0; i < l->planes; i++)
		l->size += (__u64)l->bpl[i] * l->rows[i];
}

/* Where the luma (or green, for RGB) byte of pixel 0 is, and the step. */
struct probe {
	__u32 fourcc;
	unsigned int offset, step;
};

static const struct probe byte_probes[] = {
	{ V4L2_PIX_FMT_YUYV, 0, 2 },   { V4L2_PIX_FMT_YVYU, 0, 2 },
	{ V4L2_PIX_FMT_UYVY, 1, 2 },   { V4L2_PIX_FMT_VYUY, 1, 2 },
	{ V4L2_PIX_FMT_YUV24, 0, 3 },  { V4L2_PIX_FMT_YUV32, 1, 4 },
	{ V4L2_PIX_FMT_AYUV32, 1, 4 }, { V4L2_PIX_FMT_XYUV32, 1, 4 },
	{ V4L2_PIX_FMT_VUYA32, 2, 4 }, { V4L2_PIX_FMT_VUYX32, 2, 4 },
	{ V4L2_PIX_FMT_GREY, 0, 1 },   { V4L2_PIX_FMT_Y16_BE, 0, 2 },
	{ V4L2_PIX_FMT_RGB24, 1, 3 },  { V4L2_PIX_FMT_BGR24, 1, 3 },
	{ V4L2_PIX_FMT_BGR32, 1, 4 },  { V4L2_PIX_FMT_ABGR32, 1, 4 },
	{ V4L2_PIX_FMT_XBGR32, 1, 4 }, { V4L2_PIX_FMT_RGB32, 2, 4 },
	{ V4L2_PIX_FMT_ARGB32, 2, 4 }, { V4L2_PIX_FMT_XRGB32, 2, 4 },
	{ V4L2_PIX_FMT_BGRA32, 2, 4 }, { V4L2_PIX_FMT_BGRX32, 2, 4 },
	{ V4L2_PIX_FMT_RGBA32, 1, 4 }, { V4L2_PIX_FMT_RGBX32, 1, 4 },
	{ V4L2_PIX_FMT_YUVA32, 0, 4 }, { V4L2_PIX_FMT_YUVX32, 0, 4 },
	{ V4L2_PIX_FMT_HSV24, 2, 3 },  { V4L2_PIX_FMT_HSV32, 3, 4 }, /* V: max(R, G, B) */
};

/* 16-bit little-endian samples of @bits significant bits. */
static const struct {
	__u32 fourcc;
	unsigned int bits;
} wide_samples[] = {
	{ V4L2_PIX_FMT_Y10, 10 },     { V4L2_PIX_FMT_Y12, 12 },
	{ V4L2_PIX_FMT_Y14, 14 },     { V4L2_PIX_FMT_Y16, 16 },
	{ V4L2_PIX_FMT_SBGGR10, 10 }, { V4L2_PIX_FMT_SGBRG10, 10 },
	{ V4L2_PIX_FMT_SGRBG10, 10 }, { V4L2_PIX_FMT_SRGGB10, 10 },
	{ V4L2_PIX_FMT_SBGGR12, 12 }, { V4L2_PIX_FMT_SGBRG12, 12 },
	{ V4L2_PIX_FMT_SGRBG12, 12 }, { V4L2_PIX_FMT_SRGGB12, 12 },
	{ V4L2_PIX_FMT_SBGGR14, 14 }, { V4L2_PIX_FMT_SGBRG14, 14 },
	{ V4L2_PIX_FMT_SGRBG14, 14 }, { V4L2_PIX_FMT_SRGGB14, 14 },
	{ V4L2_PIX_FMT_SBGGR16, 16 }, { V4L2_PIX_FMT_SGBRG16, 16 },
	{ V4L2_PIX_FMT_SGRBG16, 16 }, { V4L2_PIX_FMT_SRGGB16, 16 },
	{ V4L2_PIX_FMT_P010, 16 }, /* 10 bits in the top of 16: read the top 8 */
};

/* Green (or Y') of 8/16-bit packed words, as the V4L2 spec lays them out. */
static int rgb_word_green(__u32 fourcc, const __u8 *p)
{
	unsigned int le = p[0] | p[1] << 8, be = p[0] << 8 | p[1];

	switch (fourcc) {
	case V4L2_PIX_FMT_YUV444: return ((le >> 8) & 15) * 255 / 15;
	case V4L2_PIX_FMT_YUV555: return ((le >> 10) & 31) * 255 / 31;
	case V4L2_PIX_FMT_YUV565: return ((le >> 11) & 31) * 255 / 31;
	case V4L2_PIX_FMT_RGB332: return ((p[0] >> 2) & 7) * 255 / 7;
	case V4L2_PIX_FMT_RGB444: return ((le >> 4) & 15) * 255 / 15;
	case V4L2_PIX_FMT_RGB555:
	case V4L2_PIX_FMT_ARGB555:
	case V4L2_PIX_FMT_XRGB555: return ((le >> 5) & 31) * 255 / 31;
	case V4L2_PIX_FMT_RGB555X: return ((be >> 5) & 31) * 255 / 31;
	case V4L2_PIX_FMT_RGB565: return ((le >> 5) & 63) * 255 / 63;
	case V4L2_PIX_FMT_RGB565X: return ((be >> 5) & 63) * 255 / 63;
	case V4L2_PIX_FMT_ARGB444:
	case V4L2_PIX_FMT_XRGB444:
	case V4L2_PIX_FMT_ABGR444:
	case V4L2_PIX_FMT_XBGR444: return ((le >> 4) & 15) * 255 / 15;
	case V4L2_PIX_FMT_RGBA444:
	case V4L2_PIX_FMT_RGBX444:
	case V4L2_PIX_FMT_BGRA444:
	case V4L2_PIX_FMT_BGRX444: return ((le >> 8) & 15) * 255 / 15;
	case V4L2_PIX_FMT_ABGR555:
	case V4L2_PIX_FMT_XBGR555: return ((le >> 5) & 31) * 255 / 31;
	case V4L2_PIX_FMT_RGBA555:
	case V4L2_PIX_FMT_RGBX555:
	case V4L2_PIX_FMT_BGRA555:
	case V4L2_PIX_FMT_BGRX555: return ((le >> 6) & 31) * 255 / 31;
	case V4L2_PIX_FMT_ARGB555X:
	case V4L2_PIX_FMT_XRGB555X: return ((be >> 5) & 31) * 255 / 31;
	/* BGR666: byte 0 b5..b0 g5 g4, byte 1 g3..g0 r5..r2 */
	case V4L2_PIX_FMT_BGR666: return ((p[0] & 3) << 4 | p[1] >> 4) * 255 / 63;
	}
	return -1;
}

/* The top 8 bits of pixel @x of a bit-packed line (MIPI CSI-2 or Y10BPACK). */
static int packed_sample(__u32 fourcc, const __u8 *line, __u32 x)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_SBGGR10P: case V4L2_PIX_FMT_SGBRG10P:
	case V4L2_PIX_FMT_SGRBG10P: case V4L2_PIX_FMT_SRGGB10P:
	case V4L2_PIX_FMT_Y10P:
		return line[x / 4 * 5 + x % 4];
	case V4L2_PIX_FMT_SBGGR12P: case V4L2_PIX_FMT_SGBRG12P:
	case V4L2_PIX_FMT_SGRBG12P: case V4L2_PIX_FMT_SRGGB12P:
		return line[x / 2 * 3 + x % 2];
	case V4L2_PIX_FMT_Y10BPACK: {
		unsigned int bit = x * 10, v;

		v = (line[bit / 8] << 8 | line[bit / 8 + 1]) >> (6 - bit % 8);
		return (v & 0x3ff) >> 2;
	}
	}
	return -1;
}

/*
 * Read the stamp of a raw image: directly from the luma/green bytes when
 * the format has them, else from an 8-bit plane converted first. Bayer
 * needs no demosaicing: the stamp is white or black in every channel.
 */
static long read_raw_stamp(const struct negcam_fourcc_info *fi, const __u8 *buf,
			   __u32 bpl, __u32 width, __u32 lines)
{
	unsigned int i, bits = 0, bytes;
	__u8 *plane;
	long v;
	__u32 x, y;

	for (i = 0; i < sizeof(byte_probes) / sizeof(byte_probes[0]); i++)
		if (byte_probes[i].fourcc == fi->fourcc)
			return negcam_stamp_read(buf + byte_probes[i].offset,
						 byte_probes[i].step, bpl, width, lines);
	for (i = 0; i < sizeof(wide_samples) / sizeof(wide_samples[0]); i++)
		if (wide_samples[i].fourcc == fi->fourcc)
			bits = wide_samples[i].bits;
	plane = malloc((size_t)width * lines);
	if (!bits && !unpack_luma8(fi->fourcc, buf, bpl, width, lines, plane)) {
		/* packed, depth, IR, stereo: tests/engine/unpack.c */
		v = negcam_stamp_read(plane, 1, width, width, lines);
		free(plane);
		return v;
	}
	free(plane);
	if (!bits && (fi->layout == NC_LAYOUT_SEMIPLANAR ||
		      fi->layout == NC_LAYOUT_PLANAR ||
		      (fi->layout == NC_LAYOUT_BAYER && fi->bpp == 8)))
		return negcam_stamp_read(buf, 1, bpl, width, lines);
	bytes = fi->bpp / 8;
	plane = malloc((size_t)width * lines);
	for (y = 0; y < lines; y++) {
		for (x = 0; x < width; x++) {
			const __u8 *p = buf + (size_t)y * bpl + (size_t)x * bytes;
			int g = bits ? (p[0] | p[1] << 8) >> (bits - 8) :
				       rgb_word_green(fi->fourcc, p);

			if (fi->bpp % 8)
				g = packed_sample(fi->fourcc, buf + (size_t)y * bpl, x);

			plane[(size_t)y * width + x] = (__u8)(g < 0 ? 0 : g);
		}
	}
	v = negcam_stamp_read(plane, 1, width, width, lines);
	free(plane);
	return v;
}

/* ------------------------------------------------------------------ */
/* Buffers with guard bytes                                            */

static __u8 *guarded(size_t size, __u8 fill)
{
	__u8 *b = malloc(size + 2 * GUARD);

	memset(b, GUARD_BYTE, GUARD);
	memset(b + GUARD, fill, size);
	memset(b + GUARD + size, GUARD_BYTE, GUARD);
	return b + GUARD;
}

static bool guards_intact(const __u8 *b, size_t size)
{
	size_t i;

	for (i = 0; i < GUARD; i++)
		if (b[-1 - (long)i] != GUARD_BYTE || b[size + i] != GUARD_BYTE)
			return false;
	return true;
}

static void unguard(__u8 *b)
{
	free(b - GUARD);
}

static void make_fmt(struct v4l2_pix_format *f, __u32 fourcc, __u32 w, __u32 h,
		     __u32 extra, __u32 field)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_info_of(fourcc);
	__u32 bpl, size;

	memset(f, 0, sizeof(*f));
	f->pixelformat = fourcc;
	f->width = w;
	f->height = h;
	f->field = field;
	negcam_fourcc_sizes(fi, w, h, 1, &bpl, &size); /* h: lines of a buffer, as G_FMT */
	f->bytesperline = bpl ? bpl + extra : 0;
	f->sizeimage = size;
}

/* ------------------------------------------------------------------ */
/* Raw formats                                                         */

struct size_case {
	__u32 w, h, extra, field;
};

static const struct size_case raw_sizes[] = {
	{ 640, 480, 0, V4L2_FIELD_NONE },
	{ 320, 240, 64, V4L2_FIELD_NONE },
	{ 176, 144, 3, V4L2_FIELD_NONE },   /* odd stride */
	{ 160, 120, 0, V4L2_FIELD_NONE },
	{ 144, 8, 1, V4L2_FIELD_NONE },     /* smallest stamp: 4-pixel blocks */
	{ 720, 288, 0, V4L2_FIELD_ALTERNATE }, /* height: one field's lines */
	{ 48, 32, 0, V4L2_FIELD_NONE },     /* too small for a stamp */
	{ 1280, 720, 32, V4L2_FIELD_NONE },
};

static void test_raw_format(const struct negcam_fourcc_info *fi)
{
	char name[5];
	unsigned int si, fi_, p;

	negcam_fourcc_str(fi->fourcc, name);
	for (si = 0; si < sizeof(raw_sizes) / sizeof(raw_sizes[0]); si++) {
		const struct size_case *sc = &raw_sizes[si];
		struct v4l2_pix_format f;
		struct layout l;
		__u32 lines;
		__u8 *a, *b;
		long r;

		if (sc->w % fi->hsub || sc->h % fi->vsub)
			continue;
		make_fmt(&f, fi->fourcc, sc->w, sc->h, sc->extra, sc->field);
		lines = sc->h; /* whatever the field, a buffer holds fmt.height lines */
		expected_layout(fi, f.bytesperline, lines, &l);
		a = guarded(l.size, 0x11);
		b = guarded(l.size, 0xee);

		for (p = 0; p < NC_PATTERN_COUNT; p++) {
			for (fi_ = 0; fi_ < sizeof(test_frames) / sizeof(test_frames[0]); fi_++) {
				__u32 frame = test_frames[fi_];
				long v;

				r = negcam_framegen_draw(&f, p, frame, NC_FRAME_NONE, a, l.size);
				CHECK_EQ(r, (long)l.size, "%s %ux%u+%u pattern %u frame %u: size",
					 name, sc->w, sc->h, sc->extra, p, frame);
				CHECK(guards_intact(a, l.size), "%s %ux%u: wrote past the buffer",
				      name, sc->w, sc->h);
				v = read_raw_stamp(fi, a, f.bytesperline, sc->w, lines);
				if (sc->w >= 140)
					CHECK_EQ(v, (long)frame, "%s %ux%u+%u pattern %u: stamp",
						 name, sc->w, sc->h, sc->extra, p);
				else
					CHECK_EQ(v, -1, "%s %ux%u: no stamp expected", name,
						 sc->w, sc->h);
				/* Every byte is written: same result from other garbage. */
				negcam_framegen_draw(&f, p, frame, NC_FRAME_NONE, b, l.size);
				CHECK(!memcmp(a, b, l.size), "%s %ux%u+%u frame %u: bytes left unwritten",
				      name, sc->w, sc->h, sc->extra, frame);
			}
		}

		/* Delta draws equal full draws, for many (prev, frame) pairs. */
		{
			static const __u32 pairs[][2] = {
				{ 0, 1 }, { 1, 2 }, { 2, 1000 }, { 1000, 999 },
				{ 0x80000005u, 7 }, { 17, 17 }, { 123456, 123460 },
				{ 5, 0xfffffffeu }, { 99, 100 }, { 4000, 3 },
			};
			unsigned int k;

			for (k = 0; k < 30; k++) {
				__u32 prev = k < 10 ? pairs[k][0] : (__u32)rand();
				__u32 frame = k < 10 ? pairs[k][1] : prev + (__u32)(rand() % 50);
				__u32 pat = k % NC_PATTERN_COUNT;

				negcam_framegen_draw(&f, pat, prev, NC_FRAME_NONE, a, l.size);
				r = negcam_framegen_draw(&f, pat, frame, prev, a, l.size);
				CHECK_EQ(r, (long)l.size, "%s delta size", name);
				negcam_framegen_draw(&f, pat, frame, NC_FRAME_NONE, b, l.size);
				CHECK(!memcmp(a, b, l.size),
				      "%s %ux%u+%u pattern %u: delta %u->%u differs from a full draw",
				      name, sc->w, sc->h, sc->extra, pat, prev, frame);
				CHECK(guards_intact(a, l.size), "%s delta wrote past the buffer", name);
			}
		}

		/* One byte short: -ENOSPC and nothing written. */
		memset(a, 0x11, l.size);
		r = negcam_framegen_draw(&f, 0, 3, NC_FRAME_NONE, a, l.size - 1);
		CHECK_EQ(r, -ENOSPC, "%s %ux%u: short buffer", name, sc->w, sc->h);
		CHECK(a[0] == 0x11 && a[l.size - 1] == 0x11 && guards_intact(a, l.size),
		      "%s: short buffer was written", name);

		unguard(a);
		unguard(b);
	}
}

/* The moving box really moves, and only a small part changes per frame. */
static void test_motion(void)
{
	struct v4l2_pix_format f;
	__u8 *a, *b;
	size_t i, diff = 0;

	make_fmt(&f, V4L2_PIX_FMT_YUYV, 640, 480, 0, V4L2_FIELD_NONE);
	a = guarded(f.sizeimage, 0);
	b = guarded(f.sizeimage, 0);
	negcam_framegen_draw(&f, NC_PATTERN_BARS, 10, NC_FRAME_NONE, a, f.sizeimage);
	negcam_framegen_draw(&f, NC_PATTERN_BARS, 11, NC_FRAME_NONE, b, f.sizeimage);
	for (i = 0; i < f.sizeimage; i++)
		diff += a[i] != b[i];
	CHECK(diff > 0, "frames 10 and 11 are identical");
	/* below the stamp band (16 lines), the box must have moved */
	diff = 0;
	for (i = 32 * f.bytesperline; i < f.sizeimage; i++)
		diff += a[i] != b[i];
	CHECK(diff > 0, "the box did not move between frames 10 and 11");
	CHECK(diff < f.sizeimage / 10, "too much changed between frames: %zu bytes", diff);
	unguard(a);
	unguard(b);
}

static void test_errors(void)
{
	struct v4l2_pix_format f;
	__u8 buf[64];

	make_fmt(&f, V4L2_PIX_FMT_YUYV, 16, 16, 0, V4L2_FIELD_NONE);
	CHECK_EQ(negcam_framegen_draw(&f, NC_PATTERN_COUNT, 0, NC_FRAME_NONE, buf, sizeof(buf)),
		 -EINVAL, "unknown pattern");
	/* H264 is drawn (test_h264.c); HEVC is in the table but not drawn */
	f.pixelformat = V4L2_PIX_FMT_HEVC;
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, sizeof(buf)), -EINVAL,
		 "HEVC cannot be drawn");
	CHECK(!negcam_framegen_supports(V4L2_PIX_FMT_HEVC), "HEVC supported?");
	CHECK(negcam_framegen_supports(V4L2_PIX_FMT_H264), "H264 not drawn");
	f.pixelformat = V4L2_PIX_FMT_YUYV;
	f.width = 15;
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, sizeof(buf)), -EINVAL,
		 "odd YUYV width");
	f.width = 16;
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, sizeof(buf)), -ENOSPC,
		 "YUYV 16x16 in 64 bytes");
	f.bytesperline = 31; /* shorter than a line */
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, sizeof(buf)), -EINVAL,
		 "bytesperline too small");
	make_fmt(&f, V4L2_PIX_FMT_GREY, 70000, 1, 0, V4L2_FIELD_NONE);
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, sizeof(buf)), -EINVAL,
		 "70000 pixels wide");
	CHECK_EQ(negcam_stamp_read(NULL, 1, 100, 200, 100), -1, "stamp of nothing");
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(negcam_stamp_read(buf, 1, 0, 64, 1), -1, "too small for a stamp");
}

/* ------------------------------------------------------------------ */
/* JPEG                                                                */

#ifdef HAVE_LIBJPEG
struct jerr {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
};

static void jerr_exit(j_common_ptr cinfo)
{
	struct jerr *e = (struct jerr *)cinfo->err;

	e->mgr.format_message(cinfo, e->msg);
	longjmp(e->jump, 1);
}

static void jerr_silent(j_common_ptr cinfo, int level)
{
	struct jerr *e = (struct jerr *)cinfo->err;

	if (level < 0) /* a warning: corrupt data */
		e->mgr.format_message(cinfo, e->msg), e->mgr.num_warnings++;
}

/* Decode to 8-bit grey (the JPEG's Y) or RGB; returns malloc'd pixels. */
static __u8 *jpeg_decode(const __u8 *data, unsigned long len, bool rgb,
			 __u32 *w, __u32 *h, int *warnings, char *msg)
{
	struct jpeg_decompress_struct d;
	struct jerr e;
	__u8 *volatile out = NULL;
	size_t stride;

	memset(&e, 0, sizeof(e));
	d.err = jpeg_std_error(&e.mgr);
	e.mgr.error_exit = jerr_exit;
	e.mgr.emit_message = jerr_silent;
	if (setjmp(e.jump)) {
		strcpy(msg, e.msg);
		jpeg_destroy_decompress(&d);
		free(out);
		return NULL;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, (unsigned char *)data, len);
	jpeg_read_header(&d, TRUE);
	d.out_color_space = rgb ? JCS_RGB : JCS_GRAYSCALE;
	jpeg_start_decompress(&d);
	*w = d.output_width;
	*h = d.output_height;
	stride = (size_t)d.output_width * d.output_components;
	out = malloc(stride * d.output_height);
	while (d.output_scanline < d.output_height) {
		JSAMPROW row = out + stride * d.output_scanline;

		jpeg_read_scanlines(&d, &row, 1);
	}
	jpeg_finish_decompress(&d);
	*warnings = (int)e.mgr.num_warnings;
	strcpy(msg, e.msg);
	jpeg_destroy_decompress(&d);
	return out;
}
#endif

static bool have_ffmpeg(void)
{
	return system("ffmpeg -version >/dev/null 2>&1") == 0;
}

/* A decoder outside the process must accept the file without a word. */
static void external_decode(const char *what, const char *cmd_fmt, const __u8 *data,
			    long len, __u32 w, __u32 h)
{
	char path[] = "/tmp/negcam-framegen-XXXXXX.jpg", cmd[512];
	FILE *f;
	int fd = mkstemps(path, 4), rc;

	CHECK(fd >= 0, "mkstemps");
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	fwrite(data, 1, (size_t)len, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), cmd_fmt, path);
	rc = system(cmd);
	CHECK_EQ(rc, 0, "%s rejects the %ux%u JPEG (%s)", what, w, h, cmd);
	unlink(path);
}

/*
 * GStreamer's jpegdec, then videoconvert to GRAY8 as an application
 * would: the picture has the right size and the stamp reads back.
 */
static void jpegdec_check(const __u8 *data, long len, __u32 w, __u32 h, __u32 frame)
{
	char in[] = "/tmp/negcam-framegen-XXXXXX.jpg", out[64], cmd[512];
	__u32 stride = (w + 3) & ~3u; /* GStreamer pads GRAY8 lines to 4 bytes */
	size_t want = (size_t)stride * h, got;
	__u8 *gray = malloc(want + 1);
	FILE *f;
	int fd = mkstemps(in, 4);

	CHECK(fd >= 0, "mkstemps");
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	fwrite(data, 1, (size_t)len, f);
	fclose(f);
	snprintf(out, sizeof(out), "%s.gray", in);
	snprintf(cmd, sizeof(cmd), "gst-launch-1.0 -q filesrc location=%s ! jpegdec ! "
		 "videoconvert ! video/x-raw,format=GRAY8 ! filesink location=%s "
		 ">/dev/null 2>&1", in, out);
	CHECK_EQ(system(cmd), 0, "%s", cmd);
	f = fopen(out, "rb");
	got = f ? fread(gray, 1, want + 1, f) : 0;
	if (f)
		fclose(f);
	CHECK_EQ(got, want, "jpegdec %ux%u: GRAY8 bytes", w, h);
	if (got == want)
		CHECK_EQ(negcam_stamp_read(gray, 1, stride, w, h), (long)frame,
			 "jpegdec %ux%u: stamp", w, h);
	free(gray);
	unlink(in);
	unlink(out);
}

static void test_jpeg(void)
{
	static const struct { __u32 w, h, field; } sizes[] = {
		{ 1920, 1080 }, { 640, 480 }, { 160, 120 }, { 176, 144 }, { 161, 121 },
		{ 352, 288 }, { 144, 4 }, { 40, 30 }, { 1280, 720 },
		{ 720, 288, V4L2_FIELD_ALTERNATE }, /* one field of a 720x576 frame */
	};
	bool ffmpeg = have_ffmpeg();
	bool gst = system("gst-inspect-1.0 jpegdec >/dev/null 2>&1") == 0;
	unsigned int si, k, p;

	if (!ffmpeg)
		printf("SKIP: ffmpeg not found, JPEGs not checked with ffmpeg\n");
	if (!gst)
		printf("SKIP: gst-inspect-1.0 jpegdec failed, JPEGs not checked with jpegdec\n");
#ifndef HAVE_LIBJPEG
	printf("SKIP: built without libjpeg, JPEGs only checked for markers\n");
#endif
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		__u32 w = sizes[si].w, h = sizes[si].h;
		struct v4l2_pix_format f;
		__u8 *j;
		long len;

		make_fmt(&f, V4L2_PIX_FMT_MJPEG, w, h, 0, sizes[si].field);
		j = guarded(f.sizeimage, 0);
		for (p = 0; p < NC_PATTERN_COUNT; p++) {
			for (k = 0; k < sizeof(test_frames) / sizeof(test_frames[0]); k++) {
				__u32 frame = test_frames[k];

				len = negcam_framegen_draw(&f, p, frame, NC_FRAME_NONE, j,
							   f.sizeimage);
				CHECK(len > 0 && len <= (long)f.sizeimage,
				      "MJPG %ux%u: length %ld", w, h, len);
				CHECK(guards_intact(j, f.sizeimage), "MJPG wrote past the buffer");
				if (len <= 0)
					continue;
				CHECK(j[0] == 0xff && j[1] == 0xd8 && j[len - 2] == 0xff &&
				      j[len - 1] == 0xd9, "MJPG %ux%u: SOI/EOI", w, h);
#ifdef HAVE_LIBJPEG
				{
					__u32 dw = 0, dh = 0;
					int warn = 0;
					char msg[JMSG_LENGTH_MAX] = "";
					__u8 *y = jpeg_decode(j, (unsigned long)len, false, &dw,
							      &dh, &warn, msg);

					CHECK(y != NULL, "libjpeg fails on %ux%u: %s", w, h, msg);
					if (!y)
						continue;
					CHECK(dw == w && dh == h, "decoded %ux%u, drew %ux%u",
					      dw, dh, w, h);
					CHECK_EQ(warn, 0, "libjpeg warns on %ux%u: %s", w, h, msg);
					CHECK_EQ(negcam_stamp_read(y, 1, dw, dw, dh),
						 w >= 140 && h >= 4 ? (long)frame : -1,
						 "MJPG %ux%u pattern %u: stamp after decoding", w, h, p);
					free(y);
				}
#endif
			}
		}
		if (ffmpeg && (si == 0 || si == 4 || si == 6))
			external_decode("ffmpeg", "ffmpeg -nostdin -v error -xerror -i %s -f null - 2>&1 | "
				       "grep . && exit 1 || exit 0", j, len, w, h);
		if (gst && (si == 1 || si == 4) && len > 0)
			jpegdec_check(j, len, w, h, test_frames[k - 1]);

		/* Too small a buffer: -ENOSPC and nothing past it. */
		len = negcam_framegen_draw(&f, 0, 1, NC_FRAME_NONE, j, 300);
		CHECK_EQ(len, -ENOSPC, "MJPG %ux%u into 300 bytes", w, h);
		CHECK(guards_intact(j, f.sizeimage), "MJPG wrote past the buffer");
		memset(j + 300, GUARD_BYTE, GUARD);
		len = negcam_framegen_draw(&f, 0, 1, NC_FRAME_NONE, j, 300);
		for (k = 0; k < GUARD; k++)
			if (j[300 + k] != GUARD_BYTE)
				break;
		CHECK_EQ(k, GUARD, "MJPG wrote past a 300-byte dst_size");
		unguard(j);
	}
}

#ifdef HAVE_LIBJPEG
/*
 * The JPEG shows the raw formats' picture: its Y against GREY's luma
 * (limited range stretched to full) and its colours against RGB24.
 */
static void test_jpeg_same_picture(void)
{
	const __u32 w = 640, h = 480;
	struct v4l2_pix_format fj, fg, fr;
	__u8 *j, *grey, *rgb, *dy, *drgb;
	__u32 dw, dh, x, y;
	int warn;
	char msg[JMSG_LENGTH_MAX];
	long len, sum = 0, big = 0, n = 0;
	unsigned int p;

	make_fmt(&fj, V4L2_PIX_FMT_MJPEG, w, h, 0, V4L2_FIELD_NONE);
	make_fmt(&fg, V4L2_PIX_FMT_GREY, w, h, 0, V4L2_FIELD_NONE);
	make_fmt(&fr, V4L2_PIX_FMT_RGB24, w, h, 0, V4L2_FIELD_NONE);
	j = malloc(fj.sizeimage);
	grey = malloc(fg.sizeimage);
	rgb = malloc(fr.sizeimage);
	for (p = 0; p < NC_PATTERN_COUNT; p++) {
		len = negcam_framegen_draw(&fj, p, 77, NC_FRAME_NONE, j, fj.sizeimage);
		negcam_framegen_draw(&fg, p, 77, NC_FRAME_NONE, grey, fg.sizeimage);
		negcam_framegen_draw(&fr, p, 77, NC_FRAME_NONE, rgb, fr.sizeimage);
		dy = jpeg_decode(j, (unsigned long)len, false, &dw, &dh, &warn, msg);
		drgb = jpeg_decode(j, (unsigned long)len, true, &dw, &dh, &warn, msg);
		CHECK(dy && drgb, "decode");
		if (!dy || !drgb)
			break;
		sum = big = n = 0;
		for (y = 0; y < h; y++) {
			for (x = 0; x < w; x++) {
				int ref = (grey[y * w + x] - 16) * 255 / 219;
				int d = abs(dy[y * w + x] - ref), c;

				sum += d;
				big += d > 48;
				for (c = 0; c < 3; c++)
					sum += abs(drgb[(y * w + x) * 3 + c] - rgb[(y * w + x) * 3 + c]);
				n += 4;
			}
		}
		CHECK(sum < 3 * n, "pattern %u: JPEG differs from the raw picture by %ld/sample",
		      p, sum / n);
		CHECK(big < (long)(w * h / 100), "pattern %u: %ld JPEG pixels far off", p, big);
		printf("pattern %u: JPEG %ld bytes, mean |error| %.2f per sample\n", p, len,
		       (double)sum / n);
		free(dy);
		free(drgb);
	}
	free(j);
	free(grey);
	free(rgb);
}
#endif

/* ------------------------------------------------------------------ */
/* Timing (printed, not asserted)                                      */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void timing(__u32 fourcc, __u32 w, __u32 h)
{
	struct v4l2_pix_format f;
	__u8 *a, *b;
	double t, full, delta, mc;
	unsigned int i, n;
	char name[5];

	make_fmt(&f, fourcc, w, h, 0, V4L2_FIELD_NONE);
	a = malloc(f.sizeimage);
	b = malloc(f.sizeimage);
	memset(b, 1, f.sizeimage);
	negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, a, f.sizeimage);

	n = fourcc == V4L2_PIX_FMT_MJPEG ? 100 : 200;
	t = now();
	for (i = 0; i < n; i++)
		negcam_framegen_draw(&f, 0, i, NC_FRAME_NONE, a, f.sizeimage);
	full = n / (now() - t);
	t = now();
	for (i = 0; i < n * 10; i++)
		negcam_framegen_draw(&f, 0, i + 1, i, a, f.sizeimage);
	delta = n * 10 / (now() - t);
	t = now();
	for (i = 0; i < n; i++) {
		memcpy(a, b, f.sizeimage);
		__asm__ volatile("" : : "r"(a) : "memory");
	}
	mc = n / (now() - t);
	printf("timing %s %ux%u (%u bytes): full %.0f/s, delta %.0f/s (JPEG: full again), memcpy %.0f/s "
	       "(full %.2fx, delta %.1fx the memcpy ceiling)\n",
	       negcam_fourcc_str(fourcc, name), w, h, f.sizeimage, full, delta, mc,
	       full / mc, delta / mc);
	free(a);
	free(b);
}

/*
 * The packed RGB words vivid added to the table, as the V4L2 spec lays
 * them out (pixfmt-rgb.rst): bytes per pixel, big endian, bit position
 * and width of R, G, B and alpha (width 0: X padding, must be zero).
 */
static const struct rgb_word {
	__u32 fourcc;
	unsigned int bytes, be, rs, gs, bs, w, as, aw;
} rgb_words[] = {
	{ V4L2_PIX_FMT_ARGB444, 2, 0, 8, 4, 0, 4, 12, 4 },
	{ V4L2_PIX_FMT_XRGB444, 2, 0, 8, 4, 0, 4, 12, 0 },
	{ V4L2_PIX_FMT_RGBA444, 2, 0, 12, 8, 4, 4, 0, 4 },
	{ V4L2_PIX_FMT_RGBX444, 2, 0, 12, 8, 4, 4, 0, 0 },
	{ V4L2_PIX_FMT_ABGR444, 2, 0, 0, 4, 8, 4, 12, 4 },
	{ V4L2_PIX_FMT_XBGR444, 2, 0, 0, 4, 8, 4, 12, 0 },
	{ V4L2_PIX_FMT_BGRA444, 2, 0, 4, 8, 12, 4, 0, 4 },
	{ V4L2_PIX_FMT_BGRX444, 2, 0, 4, 8, 12, 4, 0, 0 },
	{ V4L2_PIX_FMT_ABGR555, 2, 0, 0, 5, 10, 5, 15, 1 },
	{ V4L2_PIX_FMT_XBGR555, 2, 0, 0, 5, 10, 5, 15, 0 },
	{ V4L2_PIX_FMT_RGBA555, 2, 0, 11, 6, 1, 5, 0, 1 },
	{ V4L2_PIX_FMT_RGBX555, 2, 0, 11, 6, 1, 5, 0, 0 },
	{ V4L2_PIX_FMT_BGRA555, 2, 0, 1, 6, 11, 5, 0, 1 },
	{ V4L2_PIX_FMT_BGRX555, 2, 0, 1, 6, 11, 5, 0, 0 },
	{ V4L2_PIX_FMT_ARGB555X, 2, 1, 10, 5, 0, 5, 15, 1 },
	{ V4L2_PIX_FMT_XRGB555X, 2, 1, 10, 5, 0, 5, 15, 0 },
	{ V4L2_PIX_FMT_BGR666, 4, 1, 14, 20, 26, 6, 0, 0 },
};

/*
 * The bars pattern read back from the new packed RGB and YUVA/YUVX
 * formats: the yellow and cyan bars on the bottom line have the right
 * channels, alpha is opaque and X padding zero.
 */
static void test_new_packed_bars(void)
{
	static const struct { unsigned int x, r, g, b; } bars[] = {
		{ 60, 191, 191, 0 }, { 100, 0, 191, 191 }, { 220, 191, 0, 0 },
	};
	struct v4l2_pix_format f;
	unsigned int i, k, bits, mask, word, j;
	char name[5];
	__u8 *buf;

	for (i = 0; i < sizeof(rgb_words) / sizeof(rgb_words[0]); i++) {
		const struct rgb_word *w = &rgb_words[i];

		negcam_fourcc_str(w->fourcc, name);
		make_fmt(&f, w->fourcc, 320, 240, 0, V4L2_FIELD_NONE);
		CHECK_EQ(f.bytesperline, 320 * w->bytes, "%s bytesperline", name);
		buf = calloc(1, f.sizeimage);
		CHECK_EQ(negcam_framegen_draw(&f, NC_PATTERN_BARS, 0, NC_FRAME_NONE,
					      buf, f.sizeimage), (long)f.sizeimage, "%s draw", name);
		for (k = 0; k < sizeof(bars) / sizeof(bars[0]); k++) {
			const __u8 *px = buf + 239 * f.bytesperline + bars[k].x * w->bytes;

			for (word = 0, j = 0; j < w->bytes; j++)
				word |= (unsigned int)px[w->be ? j : w->bytes - 1 - j]
					<< (8 * (w->bytes - 1 - j));
			bits = w->w;
			mask = (1u << bits) - 1;
			CHECK_EQ((word >> w->rs) & mask, bars[k].r >> (8 - bits),
				 "%s bar %u red", name, k);
			CHECK_EQ((word >> w->gs) & mask, bars[k].g >> (8 - bits),
				 "%s bar %u green", name, k);
			CHECK_EQ((word >> w->bs) & mask, bars[k].b >> (8 - bits),
				 "%s bar %u blue", name, k);
			if (w->aw)
				CHECK_EQ((word >> w->as) & ((1u << w->aw) - 1),
					 (1u << w->aw) - 1, "%s alpha opaque", name);
			/* nothing outside the channels (X padding is zero) */
			mask = (((1u << bits) - 1) << w->rs) | (((1u << bits) - 1) << w->gs) |
			       (((1u << bits) - 1) << w->bs) |
			       (((1u << w->aw) - 1) << w->as);
			CHECK_EQ(word & ~mask, 0u, "%s padding bits set", name);
		}
		free(buf);
	}
	/* YUVA/YUVX: Y, Cb, Cr bytes in order, then A = 255 or X = 0 */
	for (i = 0; i < 2; i++) {
		__u32 fcc = i ? V4L2_PIX_FMT_YUVX32 : V4L2_PIX_FMT_YUVA32;
		const __u8 *px;

		make_fmt(&f, fcc, 320, 240, 0, V4L2_FIELD_NONE);
		buf = calloc(1, f.sizeimage);
		negcam_framegen_draw(&f, NC_PATTERN_BARS, 0, NC_FRAME_NONE, buf, f.sizeimage);
		px = buf + 239 * f.bytesperline + 60 * 4; /* yellow: high Y, low Cb, Cr ~ 138 */
		CHECK(px[0] > 150 && px[1] < 60 && px[2] > 128 && px[2] < 150,
		      "YUV%c yellow bar: %u %u %u", i ? 'X' : 'A', px[0], px[1], px[2]);
		CHECK_EQ(px[3], i ? 0 : 255, "YUV%c fourth byte", i ? 'X' : 'A');
		free(buf);
	}
}

/*
 * HSV (pixfmt-packed-hsv): hue, saturation, value bytes of the bars, with
 * both hue encodings: yellow 60 degrees, cyan 180, red 0; saturation full;
 * value the 75% bar level. HSV32 starts with a padding byte.
 */
static void test_hsv(void)
{
	static const struct { unsigned int x, h180, h256; } bars[] = {
		{ 60, 30, 43 }, { 100, 90, 128 }, { 220, 0, 0 },
	};
	struct v4l2_pix_format f;
	unsigned int i, k, enc, off;
	__u8 *buf;

	for (i = 0; i < 2; i++) {
		__u32 fcc = i ? V4L2_PIX_FMT_HSV32 : V4L2_PIX_FMT_HSV24;

		for (enc = 0; enc < 2; enc++) {
			make_fmt(&f, fcc, 320, 240, 0, V4L2_FIELD_NONE);
			f.hsv_enc = enc ? V4L2_HSV_ENC_256 : V4L2_HSV_ENC_180;
			buf = calloc(1, f.sizeimage);
			CHECK_EQ(negcam_framegen_draw(&f, NC_PATTERN_BARS, 0, NC_FRAME_NONE, buf,
						      f.sizeimage), (long)f.sizeimage, "HSV draw");
			for (k = 0; k < sizeof(bars) / sizeof(bars[0]); k++) {
				const __u8 *px = buf + 239 * f.bytesperline + bars[k].x * (3 + i);

				off = i; /* HSV32: X H S V */
				if (i)
					CHECK_EQ(px[0], 0, "HSV4 padding byte");
				CHECK_EQ(px[off], enc ? bars[k].h256 : bars[k].h180,
					 "HSV%u bar %u hue (enc %u)", 3 + i, k, enc);
				CHECK_EQ(px[off + 1], 255, "HSV%u bar %u saturation", 3 + i, k);
				CHECK_EQ(px[off + 2], 191, "HSV%u bar %u value", 3 + i, k);
			}
			free(buf);
		}
	}
}

/*
 * Raw fourccs of the table the generator does not draw yet: companded
 * or DPCM Bayer, M420's interleaved lines and Y41P. Anything else raw
 * must be drawable (all of vivid's formats are).
 */
static bool known_undrawn(__u32 fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_Y41P: case V4L2_PIX_FMT_M420:
	case V4L2_PIX_FMT_SBGGR10ALAW8: case V4L2_PIX_FMT_SGBRG10ALAW8:
	case V4L2_PIX_FMT_SGRBG10ALAW8: case V4L2_PIX_FMT_SRGGB10ALAW8:
	case V4L2_PIX_FMT_SBGGR10DPCM8: case V4L2_PIX_FMT_SGBRG10DPCM8:
	case V4L2_PIX_FMT_SGRBG10DPCM8: case V4L2_PIX_FMT_SRGGB10DPCM8:
	/* added for the camera shelf (issue 35), on no shelf camera: not drawn yet */
	case V4L2_PIX_FMT_YYUV: case V4L2_PIX_FMT_UV8:
	case V4L2_PIX_FMT_PAL8: case V4L2_PIX_FMT_HI240:
		return true;
	}
	return false;
}

/*
 * Scene time (issue 16 item 4): one frame number at two device times
 * gives two pictures (the box moved), both stamped with that number; a
 * buffer redrawn from (frame, time) to (the same frame, a later time)
 * equals a full draw, so the scene time decides the redraw too.
 */
static void test_scene_time(void)
{
	static const __u32 fourccs[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12,
					 V4L2_PIX_FMT_MJPEG };
	const __u64 t0 = 3600ull * 1000000000ull, t1 = t0 + 7 * NC_SCENE_TICK_NS;
	struct v4l2_pix_format f;
	unsigned int i;
	long la, lb;
	__u8 *a, *b;
	char name[5];

	for (i = 0; i < NC_ARRAY_SIZE(fourccs); i++) {
		const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourccs[i]);
		__u32 size;

		make_fmt(&f, fourccs[i], 640, 480, 0, V4L2_FIELD_NONE);
		size = f.sizeimage ? f.sizeimage : 1u << 20;
		f.sizeimage = size;
		negcam_fourcc_str(fourccs[i], name);
		a = guarded(size, 0);
		b = guarded(size, 0);
		la = negcam_framegen_draw_at(&f, NC_PATTERN_BARS, 42, t0, NC_FRAME_NONE,
					     0, a, size);
		lb = negcam_framegen_draw_at(&f, NC_PATTERN_BARS, 42, t1, NC_FRAME_NONE,
					     0, b, size);
		CHECK(la > 0 && lb > 0, "%s: scene draws %ld %ld", name, la, lb);
		CHECK(la != lb || memcmp(a, b, (size_t)la) != 0,
		      "%s: frame 42 at two scene times is the same picture", name);
		if (fi->layout == NC_LAYOUT_COMPRESSED) {
			jpegdec_check(a, la, 640, 480, 42);
			jpegdec_check(b, lb, 640, 480, 42);
		} else {
			CHECK_EQ(read_raw_stamp(fi, a, f.bytesperline, 640, 480), 42,
				 "%s: stamp at t0", name);
			CHECK_EQ(read_raw_stamp(fi, b, f.bytesperline, 640, 480), 42,
				 "%s: stamp at t1", name);
			/* a: (42, t0) redrawn as (42, t1) must equal b */
			negcam_framegen_draw_at(&f, NC_PATTERN_BARS, 42, t1, 42, t0, a, size);
			CHECK(memcmp(a, b, size) == 0,
			      "%s: delta draw to a later scene time differs from a full draw",
			      name);
		}
		/* the frame-number API is the scene at frame ticks */
		negcam_framegen_draw(&f, NC_PATTERN_BARS, 9, NC_FRAME_NONE, a, size);
		negcam_framegen_draw_at(&f, NC_PATTERN_BARS, 9, 9 * NC_SCENE_TICK_NS,
					NC_FRAME_NONE, 0, b, size);
		CHECK(memcmp(a, b, size) == 0, "%s: draw() is draw_at(frame ticks)", name);
		CHECK(guards_intact(a, size) && guards_intact(b, size), "%s: guards", name);
		unguard(a);
		unguard(b);
	}
}

int main(void)
{
	const struct negcam_fourcc_info *fi;
	unsigned int i, drawn = 0;
	char name[5];
	static const __u32 required[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_NV12,
		V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_JPEG,
		V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_NV21,
		V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_NV61, V4L2_PIX_FMT_NV24,
		V4L2_PIX_FMT_NV42, V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUV422P,
		V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_Y16, V4L2_PIX_FMT_RGB24,
		V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_RGB565,
		V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_SRGGB10, V4L2_PIX_FMT_P010,
		V4L2_PIX_FMT_YUV565, V4L2_PIX_FMT_YUV32, V4L2_PIX_FMT_Y10,
		V4L2_PIX_FMT_SRGGB10P, V4L2_PIX_FMT_SGRBG12P, V4L2_PIX_FMT_Y10P,
		V4L2_PIX_FMT_Y10BPACK,
	};
	static const __u32 outside[] = {
		V4L2_PIX_FMT_Y12P, V4L2_PIX_FMT_Y14P, NC_PIX_FMT_INVZ, NC_PIX_FMT_INVR,
		NC_PIX_FMT_INRI, NC_PIX_FMT_INVI, NC_PIX_FMT_RELI, NC_PIX_FMT_EBD8,
		NC_PIX_FMT_SPD16,
	};

	srand(1);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		CHECK(negcam_framegen_supports(required[i]), "fourcc %08x not drawn",
		      required[i]);
	for (i = 0; (fi = negcam_fourcc_at(i)); i++) {
		if (fi->layout == NC_LAYOUT_COMPRESSED)
			continue;
		/* every raw fourcc of the table must be drawable (known gaps aside) */
		CHECK(negcam_framegen_supports(fi->fourcc) || known_undrawn(fi->fourcc),
		      "raw fourcc %s not drawn", negcam_fourcc_str(fi->fourcc, name));
		if (!negcam_framegen_supports(fi->fourcc))
			continue;
		test_raw_format(fi);
		drawn++;
	}
	/* the documented layouts outside the table (formats.h), as opaque formats */
	for (i = 0; i < NC_ARRAY_SIZE(outside); i++) {
		fi = negcam_fourcc_info_of(outside[i]);
		CHECK(fi->fourcc == outside[i] && !negcam_fourcc_lookup(outside[i]),
		      "%s: a layout outside the table", negcam_fourcc_str(outside[i], name));
		test_raw_format(fi);
		drawn++;
	}
	printf("%u raw fourccs drawn\n", drawn);
	test_new_packed_bars();
	test_hsv();
	test_motion();
	test_scene_time();
	test_errors();
	test_jpeg();
#ifdef HAVE_LIBJPEG
	test_jpeg_same_picture();
#endif
	if (getenv("NEGCAM_NO_TIMING")) /* e.g. under valgrind */
		return check_done("test_framegen");
	timing(V4L2_PIX_FMT_YUYV, 1920, 1080);
	timing(V4L2_PIX_FMT_NV12, 1920, 1080);
	timing(V4L2_PIX_FMT_MJPEG, 1920, 1080);
	timing(V4L2_PIX_FMT_YUYV, 3840, 2160);
	return check_done("test_framegen");
}
