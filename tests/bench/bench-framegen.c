// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-framegen: the frame generator alone (engine/framegen.c), the code
 * both negcamsrc and negcam.ko run per frame (tests/bench/, item 2):
 * frames per second of a full draw (prev = NC_FRAME_NONE) and of a delta
 * draw (prev = the frame the buffer held, as the element and the module
 * pass it, cycling through NBUF buffers), one thread.
 *
 *   bench-framegen FOURCC WIDTH HEIGHT [SECONDS]
 *
 * Prints full_fps=, delta_fps=, size=.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats.h"
#include "framegen.h"

#define NBUF 4

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double run(const struct v4l2_pix_format *f, unsigned char **buf,
		  int delta, double secs)
{
	__u32 held[NBUF], frame = 0;
	double t0 = now_s(), t;
	int i;

	for (i = 0; i < NBUF; i++) {
		held[i] = NC_FRAME_NONE;
		if (negcam_framegen_draw(f, NC_PATTERN_BARS, 0, NC_FRAME_NONE,
					 buf[i], f->sizeimage) < 0)
			return -1;
		if (delta)
			held[i] = 0;
	}
	do {
		for (i = 0; i < 64; i++, frame++) {
			unsigned int b = frame % NBUF;

			negcam_framegen_draw(f, NC_PATTERN_BARS, frame,
					     delta ? held[b] : NC_FRAME_NONE,
					     buf[b], f->sizeimage);
			held[b] = frame;
		}
		t = now_s();
	} while (t - t0 < secs);
	return frame / (t - t0);
}

int main(int argc, char **argv)
{
	struct v4l2_pix_format f = { 0 };
	const struct negcam_fourcc_info *fi;
	unsigned char *buf[NBUF];
	double secs = argc > 4 ? atof(argv[4]) : 1.0;
	int i;

	if (argc < 4 || strlen(argv[1]) != 4) {
		fprintf(stderr, "usage: bench-framegen FOURCC WIDTH HEIGHT [SECONDS]\n");
		return 2;
	}
	f.pixelformat = v4l2_fourcc(argv[1][0], argv[1][1], argv[1][2],
				    argv[1][3]);
	f.width = atoi(argv[2]);
	f.height = atoi(argv[3]);
	f.field = V4L2_FIELD_NONE;
	fi = negcam_fourcc_lookup(f.pixelformat);
	if (!fi || !negcam_framegen_supports(f.pixelformat)) {
		fprintf(stderr, "bench-framegen: cannot draw %s\n", argv[1]);
		return 1;
	}
	negcam_fourcc_sizes(fi, f.width, f.height, 0, &f.bytesperline,
			    &f.sizeimage);
	negcam_fourcc_colorimetry(fi, &f.colorspace, &f.ycbcr_enc,
				  &f.quantization, &f.xfer_func);
	for (i = 0; i < NBUF; i++)
		buf[i] = malloc(f.sizeimage);
	printf("size=%u\n", f.sizeimage);
	printf("full_fps=%.1f\n", run(&f, buf, 0, secs));
	printf("delta_fps=%.1f\n", run(&f, buf, 1, secs));
	return 0;
}
