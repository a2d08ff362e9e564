// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-run: libnegcam-preload.so against negcamsrc's embedded backend,
 * the same V4L2 requests through both (issue 14's benchmarks).
 *
 *   negcam-run --profile tests/bench/unthrottled.profile -- bench-run [PROFILE [FRAMES]]
 *   negcam-run --profile webcam -- bench-run webcam 0      # round trips only
 *
 * The library: ioctl() on /dev/video0, which the library serves. The
 * embedded backend: negcam_device_ioctl() on negcam_device_open(NULL,
 * PROFILE), what negcamsrc calls without a device. For each it measures
 *  - the round trip of G_FMT, TRY_FMT (NV12 1920x1080) and QUERYCAP, ns
 *    per call (the best of 5 runs of 20,000 calls);
 *  - streaming YUYV 1920x1080 with 4 MMAP buffers as fast as DQBUF/QBUF
 *    go (the profile's 100,000 fps leaves the library's pacing no wait):
 *    frames per second, CPU time per frame (the whole process: the
 *    library's pacing thread is in it), and sequence gaps.
 * With tests/bench's bench-malloc.so also preloaded, the heap allocations
 * per frame while streaming too (-1 without it).
 * Prints key=value lines and the library/embedded ratios.
 *
 *   bench-run --device /dev/videoN [NAME]
 * measures only the three round trips, on a kernel device (negcam.ko,
 * vivid) or on a node the library serves, as NAME_g_fmt_ns=... (NAME
 * "device" unless given): tests/bench/vm.sh's part "rt" runs it in the VM
 * beside the library and the embedded backend, so the three compare
 * inside one (emulated) machine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <gst/gst.h>

#include "engine.h"
#include "negcamdevice.h"

#define CALLS 20000
#define RUNS 5
#define NBUF 4

struct backend {
	const char *name;
	int fd; /* the library's node, or -1 */
	NegcamDevice *dev; /* the embedded device, or NULL */
};

static int xioctl(const struct backend *b, unsigned long req, void *arg)
{
	if (b->dev)
		return negcam_device_ioctl(b->dev, req, arg);
	return ioctl(b->fd, req, arg) < 0 ? -errno : 0;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double cpu_ns(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return ((double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + (double)u.ru_utime.tv_usec +
		(double)u.ru_stime.tv_usec) *
	       1e3;
}

/* ns per call of @req on a fresh copy of @arg (@size bytes): the best of RUNS. */
static double round_trip(const struct backend *b, unsigned long req, const void *arg, size_t size)
{
	char copy[512];
	double best = 1e18;
	int r, i;

	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns(), t;

		for (i = 0; i < CALLS; i++) {
			memcpy(copy, arg, size);
			if (xioctl(b, req, copy)) {
				fprintf(stderr, "bench-run: %s: %s failed\n", b->name,
					negcam_ioctl_name(req));
				exit(1);
			}
		}
		t = (now_ns() - t0) / CALLS;
		best = t < best ? t : best;
	}
	return best;
}

/* bench-malloc.so's counter, or NULL when it is not preloaded. */
static unsigned long (*malloc_count)(void);

struct result {
	double g_fmt, try_fmt, querycap, fps, cpu, allocs;
	unsigned int gaps;
};

/* Streams r->frames frames of YUYV 1920x1080: fps, CPU ns and allocations
 * per frame, sequence gaps. */
static void stream(const struct backend *b, unsigned int frames, struct result *r)
{
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	struct v4l2_requestbuffers rb = {
		.count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, err = 0;
	unsigned int i, last = 0;
	double t0 = 0, c0 = 0;
	unsigned long m0 = 0;

	f.fmt.pix = (struct v4l2_pix_format){
		.width = 1920, .height = 1080, .pixelformat = V4L2_PIX_FMT_YUYV};
	err |= xioctl(b, VIDIOC_S_FMT, &f) | xioctl(b, VIDIOC_REQBUFS, &rb);
	for (i = 0; !err && i < rb.count; i++) {
		struct v4l2_buffer q = {.index = i, .type = rb.type, .memory = rb.memory};

		err |= xioctl(b, VIDIOC_QBUF, &q);
	}
	err |= xioctl(b, VIDIOC_STREAMON, &type);
	r->gaps = 0;
	for (i = 0; !err && i < frames + 50; i++) { /* 50 to warm up */
		struct v4l2_buffer q = {.type = rb.type, .memory = rb.memory};

		if (i == 50) {
			t0 = now_ns();
			c0 = cpu_ns();
			m0 = malloc_count ? malloc_count() : 0;
		}
		while ((err = xioctl(b, VIDIOC_DQBUF, &q)) == -EAGAIN)
			;
		r->gaps += i > 50 && q.sequence != last + 1;
		last = q.sequence;
		err = err ? err : xioctl(b, VIDIOC_QBUF, &q);
	}
	if (err) {
		fprintf(stderr, "bench-run: %s: streaming failed: %s\n", b->name, strerror(-err));
		exit(1);
	}
	r->allocs = malloc_count ? (double)(malloc_count() - m0) / frames : -1;
	r->fps = frames / ((now_ns() - t0) / 1e9);
	r->cpu = (cpu_ns() - c0) / frames;
	xioctl(b, VIDIOC_STREAMOFF, &type);
	rb.count = 0;
	xioctl(b, VIDIOC_REQBUFS, &rb);
}

static void measure(const struct backend *b, unsigned int frames, struct result *r)
{
	struct v4l2_format g = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE}, t = g;
	struct v4l2_capability cap;

	t.fmt.pix = (struct v4l2_pix_format){
		.width = 1920, .height = 1080, .pixelformat = V4L2_PIX_FMT_NV12};
	r->g_fmt = round_trip(b, VIDIOC_G_FMT, &g, sizeof(g));
	r->try_fmt = round_trip(b, VIDIOC_TRY_FMT, &t, sizeof(t));
	r->querycap = round_trip(b, VIDIOC_QUERYCAP, &cap, sizeof(cap));
	printf("%s_g_fmt_ns=%.0f\n%s_try_fmt_ns=%.0f\n%s_querycap_ns=%.0f\n", b->name, r->g_fmt,
	       b->name, r->try_fmt, b->name, r->querycap);
	if (!frames) /* round trips only, on a profile too slow to stream from */
		return;
	stream(b, frames, r);
	printf("%s_fps_1080p=%.0f\n%s_cpu_us_per_frame=%.1f\n%s_sequence_gaps=%u\n", b->name,
	       r->fps, b->name, r->cpu / 1e3, b->name, r->gaps);
	printf("%s_allocs_per_frame=%.3f\n", b->name, r->allocs);
}

/* --device PATH [NAME]: the round trips on one device node, no embedded backend. */
static int device_only(const char *path, const char *name)
{
	struct backend dev = {name, open(path, O_RDWR), NULL};
	struct result r;

	if (dev.fd < 0) {
		fprintf(stderr, "bench-run: %s: %s\n", path, strerror(errno));
		return 1;
	}
	measure(&dev, 0, &r);
	close(dev.fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "tests/bench/unthrottled.profile";
	unsigned int frames = argc > 2 ? (unsigned int)atoi(argv[2]) : 2000;
	struct backend lib = {"library", -1, NULL};
	struct backend emb = {"embedded", -1, NULL};
	struct result l, e;
	GError *error = NULL;

	if (argc > 2 && !strcmp(argv[1], "--device"))
		return device_only(argv[2], argc > 3 ? argv[3] : "device");
	/* the library's node: /dev/video0, or BENCH_RUN_NODE where a kernel
	 * device has that number (negcam-run --node in the VM) */
	lib.fd = open(getenv("BENCH_RUN_NODE") ? getenv("BENCH_RUN_NODE") : "/dev/video0", O_RDWR);
	gst_init(&argc, &argv);
	malloc_count = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "bench_malloc_count");
	if (lib.fd < 0) {
		perror("bench-run: the library's node (run it under negcam-run)");
		return 1;
	}
	emb.dev = negcam_device_open(NULL, profile, &error);
	if (!emb.dev) {
		fprintf(stderr, "bench-run: %s: %s\n", profile, error->message);
		return 1;
	}
	measure(&lib, frames, &l);
	measure(&emb, frames, &e);
	printf("ratio_g_fmt=%.2f\nratio_try_fmt=%.2f\nratio_querycap=%.2f\n", l.g_fmt / e.g_fmt,
	       l.try_fmt / e.try_fmt, l.querycap / e.querycap);
	if (frames)
		printf("ratio_fps_1080p=%.2f\nratio_cpu_per_frame=%.2f\n", l.fps / e.fps,
		       l.cpu / e.cpu);
	negcam_device_unref(emb.dev);
	close(lib.fd);
	return 0;
}
