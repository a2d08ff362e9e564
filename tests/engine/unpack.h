/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test-side unpackers of the raw formats whose samples are not whole
 * bytes of one component: packed and wide Bayer, packed and wide grey,
 * depth, infrared and stereo, written from the kernel's pixfmt pages
 * (Documentation/userspace-api/media/v4l/pixfmt-*.rst) and the vendor
 * sources docs/frames.md cites, independently of engine/framegen.c. The
 * unpack tests compare what they read with the scene; the stamp readers
 * of test_framegen and of the shelf sweep (tests/run/sweep-stamp.c) use
 * unpack_luma8().
 */
#ifndef NEGCAM_TEST_UNPACK_H
#define NEGCAM_TEST_UNPACK_H

#include <stdint.h>
#include <linux/videodev2.h>

/* What a format's samples are, for the caller to know what to expect. */
enum unpack_kind {
	UNPACK_GREY = 1,   /* s[0]: luma of @bits bits */
	UNPACK_BAYER,      /* s[0]: the colour of the pattern at (x, y), @bits bits */
	UNPACK_DEPTH,      /* s[0]: depth in mm */
	UNPACK_DEPTH_IR,   /* s[0]: depth in mm, s[1]: IR of @bits bits (INRI, INZI) */
	UNPACK_STEREO,     /* s[0]: left view, s[1]: right view, @bits bits each */
	UNPACK_CONFIDENCE, /* s[0]: 0..15 */
};

struct unpack_info {
	uint32_t fourcc;
	enum unpack_kind kind;
	unsigned int bits;  /* of s[0] (GREY, BAYER, STEREO) or s[1] (DEPTH_IR) */
	char order[5];      /* BAYER: the 2x2 pattern, "BGGR", "GBRG", "GRBG", "RGGB" */
};

/* The entry for @fourcc, NULL when this file does not unpack it. */
const struct unpack_info *unpack_find(uint32_t fourcc);

/* The i-th format this file unpacks (NULL past the end). */
const struct unpack_info *unpack_at(unsigned int i);

/*
 * The samples of pixel (@x, @y) of a @w x @h image of @u's format with a
 * line stride of @bpl bytes, starting at @buf, into s[0] (and s[1]).
 */
void unpack_pixel(const struct unpack_info *u, const uint8_t *buf, uint32_t bpl,
		  uint32_t w, uint32_t h, uint32_t x, uint32_t y, uint32_t s[2]);

/*
 * An 8-bit plane of @w x @h (stride @w) that reads like luma: grey and
 * Bayer scaled to 8 bits, depth mapped back (255 - mm / 16, docs/frames.md),
 * the left view of a stereo pair, the IR of INRI/INZI, confidence * 17.
 * Returns 0, or -1 when @fourcc is not unpacked here.
 */
int unpack_luma8(uint32_t fourcc, const uint8_t *buf, uint32_t bpl, uint32_t w,
		 uint32_t h, uint8_t *out);

#endif
