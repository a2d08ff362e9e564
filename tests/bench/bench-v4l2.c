// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-v4l2: streams N frames from a V4L2 capture node at the fastest
 * frame interval it allows for one format and size, and measures the CPU
 * time of the driver's frame thread (tests/bench/, item 3).
 *
 *   bench-v4l2 DEVICE FOURCC WIDTH HEIGHT THREAD-COMM [FRAMES [WARMUP]]
 *
 * THREAD-COMM is the start of the driver thread's name ("negcam-0",
 * "vivid-000-vid-c"). Prints key=value lines: the interval chosen, the
 * frames dequeued, fps, sequence gaps, and the thread's CPU time per frame
 * from /proc/PID/schedstat (ns) and from /proc/PID/stat (utime+stime, in
 * clock ticks: coarse). The application side (this process) is reported
 * too, so user+sys of the whole capture can be compared.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define NBUF 4

static int fd;

static int xioctl(unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static int read_small(const char *path, char *buf, size_t size)
{
	int f = open(path, O_RDONLY), n;

	if (f < 0)
		return -1;
	n = read(f, buf, size - 1);
	close(f);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

static int find_thread(const char *prefix)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], comm[64];
	int pid = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (read_small(path, comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, prefix, strlen(prefix))) {
			pid = atoi(e->d_name);
			break;
		}
	}
	closedir(d);
	return pid;
}

static void thread_cpu(int pid, unsigned long long *ns,
		       unsigned long long *tick_ns)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	int i;

	*ns = *tick_ns = 0;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (read_small(path, buf, sizeof(buf)) > 0)
		*ns = strtoull(buf, NULL, 10);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return;
	p = strrchr(buf, ')');
	for (i = 3; p && i < 15; i++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p + 1, "%lu %lu", &ut, &st) == 2)
		*tick_ns = (unsigned long long)(ut + st) *
			   (1000000000ULL / sysconf(_SC_CLK_TCK));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dq(struct v4l2_buffer *b)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		memset(b, 0, sizeof(*b));
		b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b->memory = V4L2_MEMORY_MMAP;
		if (!xioctl(VIDIOC_DQBUF, b))
			return 0;
		if (errno != EAGAIN)
			return -1;
		if (poll(&p, 1, 5000) <= 0)
			return -1;
	}
}

/* S_FMT @fcc @w x @h, progressive, into *@f; prints the format set. */
static int set_format(const char *fcc, const char *w, const char *h, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = v4l2_fourcc(fcc[0], fcc[1], fcc[2], fcc[3]);
	f->fmt.pix.width = atoi(w);
	f->fmt.pix.height = atoi(h);
	f->fmt.pix.field = V4L2_FIELD_NONE;
	if (xioctl(VIDIOC_S_FMT, f)) {
		perror("VIDIOC_S_FMT");
		return -1;
	}
	printf("format=%.4s %ux%u\n", (char *)&f->fmt.pix.pixelformat,
	       f->fmt.pix.width, f->fmt.pix.height);
	return 0;
}

/* S_PARM the fastest interval of @f's size (the smallest fraction); prints G_PARM's. */
static void set_fastest_interval(const struct v4l2_format *f)
{
	struct v4l2_frmivalenum iv = { 0 };
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_fract best = { 0, 0 };

	iv.pixel_format = f->fmt.pix.pixelformat;
	iv.width = f->fmt.pix.width;
	iv.height = f->fmt.pix.height;
	for (iv.index = 0; !xioctl(VIDIOC_ENUM_FRAMEINTERVALS, &iv);
	     iv.index++) {
		struct v4l2_fract v = iv.type == V4L2_FRMIVAL_TYPE_DISCRETE ?
					      iv.discrete : iv.stepwise.min;

		if (!best.denominator ||
		    (unsigned long long)v.numerator * best.denominator <
			    (unsigned long long)best.numerator * v.denominator)
			best = v;
		if (iv.type != V4L2_FRMIVAL_TYPE_DISCRETE)
			break;
	}
	if (best.denominator) {
		parm.parm.capture.timeperframe = best;
		if (xioctl(VIDIOC_S_PARM, &parm))
			perror("VIDIOC_S_PARM");
	}
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	xioctl(VIDIOC_G_PARM, &parm);
	printf("interval=%u/%u\n", parm.parm.capture.timeperframe.numerator,
	       parm.parm.capture.timeperframe.denominator);
}

/* NBUF mmap buffers, all queued, and STREAMON. */
static int start_streaming(void)
{
	struct v4l2_requestbuffers rb = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	rb.count = NBUF;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	if (xioctl(VIDIOC_REQBUFS, &rb)) {
		perror("VIDIOC_REQBUFS");
		return -1;
	}
	for (i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = { .index = i,
					 .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (xioctl(VIDIOC_QUERYBUF, &b) ||
		    mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			 b.m.offset) == MAP_FAILED || xioctl(VIDIOC_QBUF, &b)) {
			perror("buffer setup");
			return -1;
		}
	}
	if (xioctl(VIDIOC_STREAMON, &type)) {
		perror("VIDIOC_STREAMON");
		return -1;
	}
	return 0;
}

/*
 * Dequeue and requeue @n frames; *@last is the last sequence number, and
 * the numbers skipped are added to *@gaps (unless NULL). @what names the
 * failure.
 */
static int capture(unsigned int n, unsigned int *last, unsigned int *gaps, const char *what)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct v4l2_buffer b;

		if (dq(&b) || xioctl(VIDIOC_QBUF, &b)) {
			perror(what);
			return -1;
		}
		if (gaps && b.sequence > *last + 1)
			*gaps += b.sequence - *last - 1;
		*last = b.sequence;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct v4l2_format f;
	struct rusage ra, rbu;
	unsigned long long t0ns, t0tick, t1ns, t1tick;
	unsigned int frames, warm, gaps = 0, last = 0;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, pid;
	double ta, tb;

	if (argc < 6) {
		fprintf(stderr, "usage: bench-v4l2 DEVICE FOURCC WIDTH HEIGHT "
				"THREAD-COMM [FRAMES [WARMUP]]\n");
		return 2;
	}
	frames = argc > 6 ? atoi(argv[6]) : 300;
	warm = argc > 7 ? atoi(argv[7]) : 10;
	fd = open(argv[1], O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (set_format(argv[2], argv[3], argv[4], &f))
		return 1;
	set_fastest_interval(&f);
	if (start_streaming() || capture(warm, &last, NULL, "DQBUF (warm-up)"))
		return 1;
	pid = find_thread(argv[5]);
	if (pid < 0) {
		fprintf(stderr, "bench-v4l2: no thread named %s*\n", argv[5]);
		return 1;
	}
	thread_cpu(pid, &t0ns, &t0tick);
	getrusage(RUSAGE_SELF, &ra);
	ta = now_s();
	if (capture(frames, &last, &gaps, "DQBUF"))
		return 1;
	tb = now_s();
	thread_cpu(pid, &t1ns, &t1tick);
	getrusage(RUSAGE_SELF, &rbu);
	xioctl(VIDIOC_STREAMOFF, &type);
	printf("frames=%u\nfps=%.2f\nsequence_gaps=%u\n", frames,
	       frames / (tb - ta), gaps);
	printf("thread_pid=%d\nthread_us_per_frame=%.1f\n"
	       "thread_tick_us_per_frame=%.1f\n",
	       pid, (t1ns - t0ns) / 1e3 / frames,
	       (t1tick - t0tick) / 1e3 / frames);
	printf("app_us_per_frame=%.1f\n",
	       ((rbu.ru_utime.tv_sec - ra.ru_utime.tv_sec) * 1e6 +
		(rbu.ru_utime.tv_usec - ra.ru_utime.tv_usec) +
		(rbu.ru_stime.tv_sec - ra.ru_stime.tv_sec) * 1e6 +
		(rbu.ru_stime.tv_usec - ra.ru_stime.tv_usec)) / frames);
	return 0;
}
