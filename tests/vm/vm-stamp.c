// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vm-stamp: read the frame number stamps (docs/frames.md) back from a file
 * of raw frames, e.g. what `ffmpeg -f v4l2 ... -f rawvideo` wrote, using the
 * engine's own reader negcam_stamp_read().
 *
 *   vm-stamp [--split] FORMAT WIDTH HEIGHT FILE
 *
 * FORMAT: yuyv422, uyvy422, gray, yuv420p, nv12, rgb24, bgr24. Prints one
 * line per frame: "frame I: stamp N" (or "no stamp"), then a summary; exits
 * 0 when every frame has a stamp and the stamps strictly increase, else 1.
 *
 * --split: the file mixes two sources, told apart by the luma-like sample
 * at the top right corner (line 1, 4 pixels from the right edge): dark
 * (below 64) is a loop's placeholder, whose colour bars end in black, light
 * is a producer drawing the solid grey pattern. Each frame line ends with
 * its kind (g or P), a "kinds: gg..PP.." line follows, and only the light
 * frames are judged: exit 0 when there is at least one, all have stamps
 * and their stamps never decrease (the producer's videorate repeats
 * frames). The producer's negcamsrc keeps its format while the loop's
 * consumers change theirs (negcamconvertsink converts), so its numbers
 * never start again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framegen.h"

struct layout {
	const char *name;
	unsigned int bytes_num, bytes_den; /* frame bytes = w * h * num / den */
	unsigned int first, step;         /* luma-like samples: offset and step */
	unsigned int stride_num;          /* line stride = w * stride_num */
};

static const struct layout layouts[] = {
	{ "yuyv422", 2, 1, 0, 2, 2 },
	{ "uyvy422", 2, 1, 1, 2, 2 },
	{ "gray", 1, 1, 0, 1, 1 },
	{ "yuv420p", 3, 2, 0, 1, 1 },
	{ "nv12", 3, 2, 0, 1, 1 },
	{ "rgb24", 3, 1, 1, 3, 3 }, /* green carries most of the luma */
	{ "bgr24", 3, 1, 1, 3, 3 },
};

int main(int argc, char **argv)
{
	const struct layout *l = NULL;
	unsigned int w, h, i;
	size_t frame_bytes;
	unsigned char *buf;
	long prev = -1;
	int frames = 0, judged = 0, stamped = 0, increasing = 1, split = 0;
	char kinds[4096] = "";
	FILE *f;

	if (argc == 6 && !strcmp(argv[1], "--split")) {
		split = 1;
		argc--;
		argv++;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: vm-stamp [--split] FORMAT WIDTH HEIGHT FILE\n");
		return 2;
	}
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (!strcmp(argv[1], layouts[i].name))
			l = &layouts[i];
	w = (unsigned int)atoi(argv[2]);
	h = (unsigned int)atoi(argv[3]);
	if (!l || !w || !h) {
		fprintf(stderr, "vm-stamp: unknown format '%s' or bad size\n", argv[1]);
		return 2;
	}
	f = fopen(argv[4], "rb");
	if (!f) {
		perror(argv[4]);
		return 2;
	}
	frame_bytes = (size_t)w * h * l->bytes_num / l->bytes_den;
	buf = malloc(frame_bytes);
	if (!buf)
		return 2;
	while (fread(buf, 1, frame_bytes, f) == frame_bytes) {
		const unsigned char *luma = buf + l->first;
		long n = negcam_stamp_read(luma, l->step, w * l->stride_num, w, h);
		int light = !split ||
			luma[w * l->stride_num + (w > 4 ? w - 4 : 0) * l->step] >= 64;

		if (split && frames < (int)sizeof(kinds) - 1)
			kinds[frames] = light ? 'P' : 'g';
		if (n < 0)
			printf("frame %d: no stamp%s\n", frames, split ? (light ? " P" : " g") : "");
		else
			printf("frame %d: stamp %ld%s\n", frames, n, split ? (light ? " P" : " g") : "");
		frames++;
		if (!light)
			continue;
		judged++;
		if (n < 0)
			continue;
		stamped++;
		/* --split judges a producer pipeline's frames: videorate repeats a
		 * frame to keep the rate */
		if (prev >= 0 && (split ? n < prev : n <= prev))
			increasing = 0;
		prev = n;
	}
	fclose(f);
	free(buf);
	if (split)
		printf("kinds: %s\n", kinds);
	/* The summary without --split is the one the suites have always read. */
	printf("vm-stamp: %d frames, ", frames);
	if (split)
		printf("%d judged, %d stamped, stamps %s\n", judged, stamped,
		       increasing ? "in order" : "NOT in order");
	else
		printf("%d stamped, stamps %s\n", stamped,
		       increasing ? "strictly increasing" : "NOT increasing");
	return (judged > 0 && stamped == judged && increasing) ? 0 : 1;
}
