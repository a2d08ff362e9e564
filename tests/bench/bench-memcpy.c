// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-memcpy: the one-core memcpy ceiling for a frame size
 * (tests/bench/, item 2): how many frames of SIZE bytes one thread can
 * copy per second, between two buffers larger than the caches' working
 * set would favour (two source and two destination frames, alternated).
 *
 *   bench-memcpy SIZE [SECONDS]      prints fps=... and gbps=...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t size = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
	double secs = argc > 2 ? atof(argv[2]) : 1.0, t0, t;
	unsigned char *src[2], *dst[2];
	unsigned long n = 0;
	int i;

	if (!size) {
		fprintf(stderr, "usage: bench-memcpy SIZE [SECONDS]\n");
		return 2;
	}
	for (i = 0; i < 2; i++) {
		src[i] = malloc(size);
		dst[i] = malloc(size);
		if (!src[i] || !dst[i])
			return 1;
		memset(src[i], i + 1, size);
		memset(dst[i], 0, size);
	}
	t0 = now_s();
	do {
		memcpy(dst[n & 1], src[(n >> 1) & 1], size);
		n++;
		t = now_s();
	} while (t - t0 < secs);
	printf("fps=%.1f\ngbps=%.2f\nchecksum=%d\n", n / (t - t0),
	       n * (double)size / (t - t0) / 1e9, dst[0][size / 2] + dst[1][0]);
	return 0;
}
