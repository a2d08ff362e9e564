// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Unpacking tests (issue 40): every format unpack.c reads (packed and
 * wide Bayer, packed and wide grey, depth, infrared, stereo, confidence,
 * sensor side data) is drawn by the generator, unpacked sample by sample
 * as the kernel's pixfmt pages lay it out, and compared with the scene:
 * the GREY draw's luma and the RGB24 draw's colours of the same frame.
 * A wrong bit order, packing, Bayer order or view order fails. Then a
 * fourcc of unknown layout (opaque): its 8-bit picture, zeros after it,
 * as many bytes as the sizeimage the format reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats.h"
#include "framegen.h"
#include "unpack.h"

/* The scene as the references draw it: GREY luma and RGB24 colours. */
struct scene_ref {
	uint32_t w, h;
	uint8_t *grey, *rgb;
};

static uint8_t *draw(uint32_t fourcc, uint32_t w, uint32_t h, uint32_t extra,
		     uint32_t pattern, uint32_t frame, struct v4l2_pix_format *f)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_info_of(fourcc);
	uint32_t bpl, size;
	uint8_t *buf;
	long r;

	memset(f, 0, sizeof(*f));
	negcam_fourcc_sizes(fi, w, h, 1, &bpl, &size);
	f->pixelformat = fourcc;
	f->width = w;
	f->height = h;
	f->field = V4L2_FIELD_NONE;
	f->bytesperline = bpl ? bpl + extra : 0;
	f->sizeimage = bpl ? f->bytesperline * h : size;
	buf = malloc(f->sizeimage);
	memset(buf, 0x5a, f->sizeimage);
	r = negcam_framegen_draw(f, pattern, frame, NC_FRAME_NONE, buf, f->sizeimage);
	CHECK_EQ(r, (long)f->sizeimage, "%.4s %ux%u: draw size", (char *)&fourcc, w, h);
	return buf;
}

static void scene_ref(struct scene_ref *s, uint32_t w, uint32_t h, uint32_t pattern,
		      uint32_t frame)
{
	struct v4l2_pix_format f;

	s->w = w;
	s->h = h;
	s->grey = draw(V4L2_PIX_FMT_GREY, w, h, 0, pattern, frame, &f);
	s->rgb = draw(V4L2_PIX_FMT_RGB24, w, h, 0, pattern, frame, &f);
}

/* An 8-bit value at @bits bits, as docs/frames.md says: top bits repeated below. */
static uint32_t widen(uint32_t v, unsigned int bits)
{
	if (bits <= 8)
		return v >> (8 - bits);
	return (v << (bits - 8)) | (v >> (16 - bits));
}

static uint32_t grey_at(const struct scene_ref *s, uint32_t x, uint32_t y)
{
	return s->grey[(size_t)y * s->w + x];
}

/* The colour the Bayer pattern @order puts at (x, y), from the RGB24 draw. */
static uint32_t bayer_at(const struct scene_ref *s, const char *order, uint32_t x, uint32_t y)
{
	const uint8_t *p = s->rgb + ((size_t)y * s->w + x) * 3;
	char c = order[(y % 2) * 2 + x % 2];

	return c == 'R' ? p[0] : c == 'G' ? p[1] : p[2];
}

static uint32_t depth_of(uint32_t luma)
{
	return (255 - luma) * 16; /* docs/frames.md: 16 mm nearer a luma step */
}

/* What unpack_pixel() must read at (x, y) when the generator is right. */
static void expected(const struct unpack_info *u, const struct scene_ref *s, uint32_t x,
		     uint32_t y, uint32_t e[2])
{
	uint32_t g = grey_at(s, x, y), xr = x + 8 < s->w ? x + 8 : s->w - 1;

	e[1] = 0;
	switch (u->kind) {
	case UNPACK_GREY:
		e[0] = widen(g, u->bits);
		break;
	case UNPACK_BAYER:
		e[0] = widen(bayer_at(s, u->order, x, y), u->bits);
		break;
	case UNPACK_DEPTH:
		e[0] = depth_of(g);
		break;
	case UNPACK_DEPTH_IR:
		e[0] = depth_of(g);
		e[1] = widen(g, u->bits);
		break;
	case UNPACK_STEREO: /* the right view: the left one 8 pixels further right */
		e[0] = widen(g, u->bits);
		e[1] = widen(grey_at(s, xr, y), u->bits);
		break;
	case UNPACK_CONFIDENCE:
		e[0] = g >> 4;
		break;
	}
}

/* Every pixel of one draw against the scene; returns the mismatches. */
static unsigned long compare(const struct unpack_info *u, const struct scene_ref *s,
			     const uint8_t *buf, uint32_t bpl)
{
	unsigned long bad = 0;
	uint32_t x, y, got[2], want[2] = { 0, 0 };

	for (y = 0; y < s->h; y++) {
		for (x = 0; x < s->w; x++) {
			unpack_pixel(u, buf, bpl, s->w, s->h, x, y, got);
			expected(u, s, x, y, want);
			if (got[0] == want[0] && got[1] == want[1])
				continue;
			if (!bad++)
				fprintf(stderr, "  %.4s %ux%u (%u,%u): read %u/%u, scene %u/%u\n",
					(const char *)&u->fourcc, s->w, s->h, x, y, got[0],
					got[1], want[0], want[1]);
		}
	}
	return bad;
}

static void test_format(const struct unpack_info *u)
{
	static const struct { uint32_t w, h, extra; } sizes[] = {
		{ 640, 480, 0 }, { 176, 144, 12 }, { 144, 8, 0 },
	};
	static const uint32_t frames[] = { 0, 1, 0x80000005u };
	const struct negcam_fourcc_info *fi = negcam_fourcc_info_of(u->fourcc);
	struct v4l2_pix_format f;
	struct scene_ref s;
	unsigned int i, j, p;
	uint8_t *buf;

	CHECK(negcam_framegen_supports(u->fourcc), "%.4s drawn", (const char *)&u->fourcc);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (sizes[i].w % fi->hsub || sizes[i].h % fi->vsub)
			continue;
		for (j = 0; j < sizeof(frames) / sizeof(frames[0]); j++) {
			for (p = 0; p < NC_PATTERN_COUNT; p++) {
				scene_ref(&s, sizes[i].w, sizes[i].h, p, frames[j]);
				buf = draw(u->fourcc, sizes[i].w, sizes[i].h, sizes[i].extra, p,
					   frames[j], &f);
				CHECK_EQ(compare(u, &s, buf, f.bytesperline), 0,
					 "%.4s %ux%u+%u pattern %u frame %u: unpacked samples "
					 "are the scene's", (const char *)&u->fourcc, sizes[i].w,
					 sizes[i].h, sizes[i].extra, p, frames[j]);
				free(buf);
				free(s.grey);
				free(s.rgb);
			}
		}
	}
}

/*
 * A fourcc of unknown layout streams: sizeimage bytes, the picture's
 * luma first (its stamp reads back), zeros after, whatever the buffer
 * held; a smaller buffer is refused and left alone.
 */
static void test_opaque(void)
{
	const uint32_t fcc = v4l2_fourcc('N', 'C', 'Q', 'X'), w = 320, h = 240;
	const struct negcam_fourcc_info *fi = negcam_fourcc_info_of(fcc);
	struct v4l2_pix_format f;
	uint32_t bpl, size, i;
	uint8_t *buf, *grey;
	long r;

	CHECK(fi->layout == NC_LAYOUT_OPAQUE, "an unknown fourcc is opaque");
	CHECK(negcam_framegen_supports(fcc), "an opaque fourcc is drawn");
	negcam_fourcc_sizes(fi, w, h, 1, &bpl, &size);
	memset(&f, 0, sizeof(f));
	f.pixelformat = fcc;
	f.width = w;
	f.height = h;
	f.sizeimage = size;
	buf = malloc(size);
	memset(buf, 0x77, size);
	r = negcam_framegen_draw(&f, NC_PATTERN_BARS, 41, NC_FRAME_NONE, buf, size);
	CHECK_EQ(r, (long)size, "opaque: bytesused is the sizeimage");
	grey = draw(V4L2_PIX_FMT_GREY, w, h, 0, NC_PATTERN_BARS, 41, &f);
	CHECK(!memcmp(buf, grey, (size_t)w * h), "opaque: an 8-bit picture first");
	for (i = w * h; i < size && !buf[i]; i++)
		;
	CHECK_EQ(i, size, "opaque: zeros after the picture");
	CHECK_EQ(negcam_stamp_read(buf, 1, w, w, h), 41, "opaque: the stamp reads back");
	f.pixelformat = fcc;
	f.bytesperline = 0;
	f.sizeimage = size;
	memset(buf, 0x77, size);
	r = negcam_framegen_draw(&f, NC_PATTERN_BARS, 41, NC_FRAME_NONE, buf, size - 1);
	CHECK_EQ(r, -ENOSPC, "opaque: a buffer below sizeimage is refused");
	CHECK(buf[0] == 0x77 && buf[size - 1] == 0x77, "opaque: nothing written then");
	free(grey);
	free(buf);
}

int main(void)
{
	const struct unpack_info *u;
	unsigned int i;

	for (i = 0; (u = unpack_at(i)); i++)
		test_format(u);
	printf("%u formats unpacked and compared with the scene\n", i);
	test_opaque();
	return check_done("test_unpack");
}
