// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * sweep-stamp: the frame numbers of a file of raw frames of any fourcc
 * negcam draws, as v4l2-ctl --stream-to writes them (test_run_sweep.sh).
 *
 *   sweep-stamp FOURCC WIDTH HEIGHT BYTESPERLINE FRAMEBYTES FILE
 *
 * FOURCC as v4l2-ctl prints it ('Z16 ' with its space). A format that
 * tests/engine/unpack.c reads (Bayer, packed and wide grey, depth, IR,
 * stereo) is unpacked to 8-bit luma and its stamp read with
 * negcam_stamp_read(); an opaque fourcc's frame starts with an 8-bit
 * picture; any other raw format is identified by its stamp band (lines
 * 0 to B-1 of its first plane, which the moving box never enters) equal
 * to the engine's draw of frame N, N searched upwards from the last one.
 * Prints "frame I: stamp N" per frame, then a summary; exits 0 when every
 * frame has a stamp and the stamps strictly increase.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "framegen.h"
#include "unpack.h"

#define SEARCH 256 /* frames a stream may skip between two captured ones */

struct sweep {
	struct v4l2_pix_format fmt;
	size_t frame_bytes;
	unsigned char *luma, *redraw;
};

/* Stamp block size for a width (docs/frames.md), 0: none. */
static unsigned int block_of(unsigned int w, unsigned int h)
{
	unsigned int b;

	for (b = 16; b >= 4; b /= 2)
		if (35 * b <= w && b <= h)
			return b;
	return 0;
}

/* The frame number whose stamp band equals @buf's, from @from on; -1: none. */
static long by_redraw(struct sweep *s, const unsigned char *buf, long from)
{
	size_t band = (size_t)block_of(s->fmt.width, s->fmt.height) * s->fmt.bytesperline;
	long n;

	if (!band || band > s->frame_bytes)
		return -1;
	for (n = from; n < from + SEARCH; n++) {
		if (negcam_framegen_draw(&s->fmt, NC_PATTERN_BARS, (__u32)n, NC_FRAME_NONE,
					 s->redraw, (__u32)s->frame_bytes) <= 0)
			return -1;
		if (!memcmp(buf, s->redraw, band))
			return n;
	}
	return -1;
}

static long stamp_of(struct sweep *s, const unsigned char *buf, long from)
{
	const struct v4l2_pix_format *f = &s->fmt;

	if (!unpack_luma8(f->pixelformat, buf, f->bytesperline, f->width, f->height, s->luma))
		return negcam_stamp_read(s->luma, 1, f->width, f->width, f->height);
	if (negcam_fourcc_info_of(f->pixelformat)->layout == NC_LAYOUT_OPAQUE)
		return negcam_stamp_read(buf, 1, f->width, f->width, f->height);
	return by_redraw(s, buf, from);
}

int main(int argc, char **argv)
{
	struct sweep s;
	unsigned char *buf;
	long prev = -1, v;
	int frames = 0, stamped = 0, increasing = 1;
	FILE *fp;

	if (argc != 7 || strlen(argv[1]) != 4) {
		fprintf(stderr, "usage: sweep-stamp FOURCC WIDTH HEIGHT BYTESPERLINE FRAMEBYTES FILE\n");
		return 2;
	}
	memset(&s, 0, sizeof(s));
	s.fmt.pixelformat = v4l2_fourcc(argv[1][0], argv[1][1], argv[1][2], argv[1][3]);
	s.fmt.width = (unsigned int)strtoul(argv[2], NULL, 0);
	s.fmt.height = (unsigned int)strtoul(argv[3], NULL, 0);
	s.fmt.bytesperline = (unsigned int)strtoul(argv[4], NULL, 0);
	s.frame_bytes = strtoul(argv[5], NULL, 0);
	s.fmt.sizeimage = (unsigned int)s.frame_bytes;
	s.fmt.field = V4L2_FIELD_NONE;
	fp = fopen(argv[6], "rb");
	if (!fp || !s.fmt.width || !s.fmt.height || !s.frame_bytes) {
		fprintf(stderr, "sweep-stamp: cannot read %s or a zero size\n", argv[6]);
		return 2;
	}
	buf = malloc(s.frame_bytes);
	s.redraw = malloc(s.frame_bytes);
	s.luma = malloc((size_t)s.fmt.width * s.fmt.height);
	while (fread(buf, 1, s.frame_bytes, fp) == s.frame_bytes) {
		v = stamp_of(&s, buf, prev + 1);
		if (v < 0) {
			printf("frame %d: no stamp\n", frames);
		} else {
			printf("frame %d: stamp %ld\n", frames, v);
			stamped++;
			if (prev >= 0 && v <= prev)
				increasing = 0;
			prev = v;
		}
		frames++;
	}
	fclose(fp);
	printf("sweep-stamp: %d frames, %d stamped, stamps %s\n", frames, stamped,
	       increasing ? "strictly increasing" : "NOT increasing");
	free(buf);
	free(s.redraw);
	free(s.luma);
	return frames > 0 && stamped == frames && increasing ? 0 : 1;
}
