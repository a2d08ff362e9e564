// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-loop: the loopback benchmark (issue 12), generic over node paths so
 * that one program measures v4l2loopback (OUT = CAP) and a negcam loop.
 *
 *   bench-loop run OUT CAP WIDTH HEIGHT [FRAMES [WARMUP]]
 *   bench-loop produce OUT WIDTH HEIGHT SECONDS
 *
 * run: a producer thread sets YUYV WIDTHxHEIGHT on OUT and writes 30
 * frames/s by MMAP QBUF; each frame carries, in its first bytes, a magic,
 * its frame number and the CLOCK_MONOTONIC time taken just before its QBUF.
 * The main thread is a consumer with no format of its own: it takes CAP's
 * G_FMT, streams it by MMAP and, for each DQBUF, measures the delay from
 * the producer's QBUF (median, 99th percentile), frames lost (gaps in the
 * frame numbers), buffers without the magic (placeholders, or frames
 * from before the producer), and wrong-sized buffers (bytesused differs
 * from the consumer's sizeimage). CPU per frame over the measured frames:
 * the producer thread and the consumer thread (getrusage RUSAGE_THREAD),
 * and the whole machine (busy jiffies of /proc/stat, which catches kernel
 * threads and work done in interrupts). Copies per frame: the negcam
 * loop's Frame Copies control on OUT (docs/loopback.md) over the producer's
 * frames, and shared per frame its Shared Frames control (frames handed
 * over with no copy); absent for a loopback without them.
 * Calls: the median time of the producer's DQBUF and QBUF and of the
 * consumer's DQBUF (the call that succeeded) and QBUF; wake: the producer's
 * QBUF to the consumer's poll() returning. Prints key=value lines.
 *
 * produce: the producer alone for SECONDS (for the ioctl count of a
 * v4l2src consumer, taken by strace around gst-launch-1.0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

/* Buffers asked for; all the driver allocates (up to MAXBUF) are used,
 * as v4l2src and ffmpeg use them. */
#define NBUF 4
#define MAXBUF 8
/* Calls timed per side (QBUF, DQBUF): more than a run's frames. */
#define MAXCALLS 4096
#define FPS 30
#define MAGIC 0x6e65676c6f6f7021ULL /* "neglop!" */
/* negcam loop output node: copies made of the producer's frames, and
 * frames handed over in shared memory instead. */
#define CID_FRAME_COPIES (V4L2_CID_USER_BASE | 0xf104)
#define CID_SHARED_FRAMES (V4L2_CID_USER_BASE | 0xf105)

/* What the producer writes at the start of each frame. */
struct stamp {
	uint64_t magic;
	uint64_t frame;
	uint64_t qbuf_ns;
};

struct node {
	int fd;
	enum v4l2_buf_type type;
	void *mem[MAXBUF];
	unsigned int nbuf;
	struct v4l2_pix_format pix;
	uint64_t polled_ns;	/* when poll() last returned ready, 0: none */
};

struct producer {
	const char *dev;
	unsigned int width, height;
	double seconds;		/* stop after this long (0: when told) */
	volatile int stop;
	volatile int streaming; /* 1 after STREAMON, -1 on a setup error */
	uint64_t frames;
	struct rusage ru_start, ru_end;
	uint64_t ru_frames_start, ru_frames_end;
	volatile int mark;	/* 1: consumer asks for ru_start, 2: ru_end */
	volatile int done;	/* the producer thread has left its loop */
	int measuring;		/* between marks 1 and 2 */
	uint64_t qbuf_ns[MAXCALLS];	/* its QBUF calls while measuring */
	unsigned int nqbuf;
	uint64_t dqbuf_ns[MAXCALLS];	/* its DQBUF calls (the one that succeeded) */
	unsigned int ndqbuf, polls;	/* ...and how many had to wait in poll() */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static double rusage_us(const struct rusage *a, const struct rusage *b)
{
	return (b->ru_utime.tv_sec - a->ru_utime.tv_sec) * 1e6 +
	       (b->ru_utime.tv_usec - a->ru_utime.tv_usec) +
	       (b->ru_stime.tv_sec - a->ru_stime.tv_sec) * 1e6 +
	       (b->ru_stime.tv_usec - a->ru_stime.tv_usec);
}

/* Busy jiffies of all CPUs (user nice system irq softirq steal). */
static unsigned long long machine_busy(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		v[0] = v[1] = v[2] = v[5] = v[6] = v[7] = 0;
	fclose(f);
	return v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
}

/* On N's open handle: G_FMT, request NBUF MMAP buffers and map them. */
static int node_setup(struct node *n, const char *dev)
{
	struct v4l2_requestbuffers rb = { .count = NBUF, .type = n->type,
					  .memory = V4L2_MEMORY_MMAP };
	struct v4l2_format f = { .type = n->type };
	enum v4l2_buf_type type = n->type;
	unsigned int i;

	if (xioctl(n->fd, VIDIOC_G_FMT, &f)) {
		fprintf(stderr, "bench-loop: %s: G_FMT: %s\n", dev, strerror(errno));
		return -1;
	}
	n->pix = f.fmt.pix;
	if (xioctl(n->fd, VIDIOC_REQBUFS, &rb) || !rb.count) {
		fprintf(stderr, "bench-loop: %s: REQBUFS: %s\n", dev, strerror(errno));
		return -1;
	}
	n->nbuf = rb.count < MAXBUF ? rb.count : MAXBUF;
	for (i = 0; i < n->nbuf; i++) {
		struct v4l2_buffer b = { .index = i, .type = type, .memory = V4L2_MEMORY_MMAP };

		if (xioctl(n->fd, VIDIOC_QUERYBUF, &b))
			return -1;
		n->mem[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED,
				 n->fd, b.m.offset);
		if (n->mem[i] == MAP_FAILED) {
			fprintf(stderr, "bench-loop: %s: mmap of %s buffer %u (length %u): %s\n",
				dev, type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? "output" : "capture",
				i, b.length, strerror(errno));
			return -1;
		}
		if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
			memset(n->mem[i], 0x80, b.length); /* grey */
	}
	return 0;
}

/* DQBUF, waiting up to TIMEOUT_MS for POLLIN/POLLOUT; *CALL_NS gets the
 * time the successful DQBUF call itself took. */
static int node_dqbuf_timed(struct node *n, struct v4l2_buffer *b, int timeout_ms,
			    uint64_t *call_ns)
{
	struct pollfd p = { .fd = n->fd,
			    .events = n->type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? POLLOUT : POLLIN };

	for (;;) {
		uint64_t t0 = now_ns();

		memset(b, 0, sizeof(*b));
		b->type = n->type;
		b->memory = V4L2_MEMORY_MMAP;
		if (!xioctl(n->fd, VIDIOC_DQBUF, b)) {
			*call_ns = now_ns() - t0;
			return 0;
		}
		if (errno != EAGAIN || poll(&p, 1, timeout_ms) <= 0)
			return -1;
		n->polled_ns = now_ns();
	}
}

/* One handle from S_FMT to the end: v4l2loopback frees its buffers when its
 * last handle closes. */
static int producer_open(struct producer *p, struct node *n)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	int fd = open(p->dev, O_RDWR | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "bench-loop: %s: %s\n", p->dev, strerror(errno));
		return -1;
	}
	f.fmt.pix.width = p->width;
	f.fmt.pix.height = p->height;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	f.fmt.pix.bytesperline = p->width * 2;
	f.fmt.pix.sizeimage = p->width * p->height * 2;
	n->fd = fd;
	n->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if (xioctl(fd, VIDIOC_S_FMT, &f)) {
		fprintf(stderr, "bench-loop: %s: S_FMT output: %s\n", p->dev, strerror(errno));
		return -1;
	}
	parm.parm.output.timeperframe = (struct v4l2_fract){ 1, FPS };
	xioctl(fd, VIDIOC_S_PARM, &parm); /* optional: pacing is ours */
	return node_setup(n, p->dev);
}

/* The producer's DQBUF of a buffer to write, timed while measuring. */
static int producer_dqbuf(struct producer *p, struct node *n, struct v4l2_buffer *b)
{
	uint64_t ns;

	n->polled_ns = 0;
	if (node_dqbuf_timed(n, b, 1000, &ns)) {
		fprintf(stderr, "bench-loop: producer DQBUF: %s\n", strerror(errno));
		return -1;
	}
	if (p->measuring && p->ndqbuf < MAXCALLS) {
		p->dqbuf_ns[p->ndqbuf++] = ns;
		p->polls += n->polled_ns != 0;
	}
	return 0;
}

/* Writes frames at FPS against absolute deadlines until told to stop. */
static void *producer_run(void *arg)
{
	struct producer *p = arg;
	struct node n = { 0 };
	struct timespec next;
	uint64_t start = now_ns();
	unsigned int queued = 0;
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;

	if (producer_open(p, &n)) {
		p->streaming = -1;
		p->done = 1;
		if (n.fd > 0)
			close(n.fd);
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!p->stop && (!p->seconds || now_ns() - start < p->seconds * 1e9)) {
		struct v4l2_buffer b = { .type = n.type, .memory = V4L2_MEMORY_MMAP,
					 .index = queued };
		struct stamp *s;

		if (queued >= n.nbuf && producer_dqbuf(p, &n, &b))
			break;
		s = n.mem[b.index];
		b.bytesused = n.pix.sizeimage;
		b.field = V4L2_FIELD_NONE;
		s->magic = MAGIC;
		s->frame = p->frames;
		s->qbuf_ns = now_ns();
		if (xioctl(n.fd, VIDIOC_QBUF, &b)) {
			fprintf(stderr, "bench-loop: producer QBUF: %s\n", strerror(errno));
			break;
		}
		if (p->measuring && p->nqbuf < MAXCALLS)
			p->qbuf_ns[p->nqbuf++] = now_ns() - s->qbuf_ns;
		p->frames++;
		if (queued < n.nbuf && ++queued == 1) {
			if (xioctl(n.fd, VIDIOC_STREAMON, &type)) {
				fprintf(stderr, "bench-loop: producer STREAMON: %s\n", strerror(errno));
				break;
			}
			p->streaming = 1;
		}
		if (p->mark == 1) {
			getrusage(RUSAGE_THREAD, &p->ru_start);
			p->ru_frames_start = p->frames;
			p->measuring = 1;
			p->mark = 0;
		} else if (p->mark == 2) {
			getrusage(RUSAGE_THREAD, &p->ru_end);
			p->ru_frames_end = p->frames;
			p->measuring = 0;
			p->mark = 0;
		}
		next.tv_nsec += 1000000000 / FPS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	if (p->streaming != 1)
		p->streaming = -1;
	p->done = 1;
	close(n.fd);
	return NULL;
}

/* Control @id of OUT (a handle of its own), -1 without it. */
static long long loop_count(int fd, unsigned int id)
{
	struct v4l2_control c = { .id = id };

	return fd >= 0 && !xioctl(fd, VIDIOC_G_CTRL, &c) ? c.value : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The consumer's counts over the measured frames. */
struct tally {
	uint64_t *lat_ns;
	uint64_t *dqbuf_ns, *qbuf_ns;	/* the consumer's calls, ncalls of each */
	uint64_t *wake_ns;		/* producer QBUF to the consumer's poll() return */
	unsigned int nwake;
	unsigned int ncalls;
	unsigned int n, placeholders, wrong_size, lost, backwards;
	uint64_t last_frame;
	int have_last;
};

static void tally_buffer(struct tally *t, const struct node *n,
			 const struct v4l2_buffer *b, uint64_t dq_ns)
{
	const struct stamp *s = n->mem[b->index];

	if (b->bytesused != n->pix.sizeimage)
		t->wrong_size++;
	if (s->magic != MAGIC) {
		t->placeholders++;
		return;
	}
	if (t->have_last && s->frame > t->last_frame + 1)
		t->lost += s->frame - t->last_frame - 1;
	if (t->have_last && s->frame <= t->last_frame)
		t->backwards++;
	t->last_frame = s->frame;
	t->have_last = 1;
	t->lat_ns[t->n++] = dq_ns - s->qbuf_ns;
	if (n->polled_ns > s->qbuf_ns)
		t->wake_ns[t->nwake++] = n->polled_ns - s->qbuf_ns;
}

static int consumer_start(struct node *c, const char *dev)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	c->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	c->fd = open(dev, O_RDWR | O_NONBLOCK);
	if (c->fd < 0) {
		fprintf(stderr, "bench-loop: %s: %s\n", dev, strerror(errno));
		return -1;
	}
	if (node_setup(c, dev))
		return -1;
	for (i = 0; i < c->nbuf; i++) {
		struct v4l2_buffer b = { .index = i, .type = c->type,
					 .memory = V4L2_MEMORY_MMAP };

		if (xioctl(c->fd, VIDIOC_QBUF, &b))
			return -1;
	}
	if (xioctl(c->fd, VIDIOC_STREAMON, &type)) {
		fprintf(stderr, "bench-loop: %s: consumer STREAMON: %s\n", dev, strerror(errno));
		return -1;
	}
	return 0;
}

/* KEY=median of the N call times in NS (sorted in place), in µs. */
static void print_median(const char *key, uint64_t *ns, unsigned int n)
{
	if (!n)
		return;
	qsort(ns, n, sizeof(*ns), cmp_u64);
	printf("%s=%.1f\n", key, ns[n / 2] / 1e3);
}

static void report(const struct producer *p, const struct node *c, struct tally *t,
		   const struct rusage *cons, unsigned long long busy, unsigned int dq,
		   const long long copies[2], const long long shared[2],
		   const uint64_t pframes[2])
{
	double pf = p->ru_frames_end - p->ru_frames_start;
	double tick_us = 1e6 / sysconf(_SC_CLK_TCK);

	printf("producer_format=YUYV %ux%u\n", p->width, p->height);
	printf("consumer_format=%.4s %ux%u sizeimage=%u\n", (const char *)&c->pix.pixelformat,
	       c->pix.width, c->pix.height, c->pix.sizeimage);
	printf("frames=%u\nstamped=%u\nplaceholders=%u\nlost=%u\nbackwards=%u\nwrong_size=%u\n",
	       dq, t->n, t->placeholders, t->lost, t->backwards, t->wrong_size);
	if (t->n) {
		qsort(t->lat_ns, t->n, sizeof(*t->lat_ns), cmp_u64);
		printf("lat_median_us=%.1f\n", t->lat_ns[t->n / 2] / 1e3);
		printf("lat_p99_us=%.1f\n", t->lat_ns[(t->n * 99) / 100] / 1e3);
		printf("lat_max_us=%.1f\n", t->lat_ns[t->n - 1] / 1e3);
	}
	if (pf > 0)
		printf("producer_us_per_frame=%.1f\n", rusage_us(&p->ru_start, &p->ru_end) / pf);
	print_median("producer_qbuf_us", (uint64_t *)p->qbuf_ns, p->nqbuf);
	print_median("producer_dqbuf_us", (uint64_t *)p->dqbuf_ns, p->ndqbuf);
	printf("producer_dqbuf_polls=%u\n", p->polls);
	print_median("consumer_dqbuf_us", t->dqbuf_ns, t->ncalls);
	print_median("consumer_qbuf_us", t->qbuf_ns, t->ncalls);
	print_median("wake_us", t->wake_ns, t->nwake);
	if (dq) {
		printf("consumer_us_per_frame=%.1f\n", rusage_us(&cons[0], &cons[1]) / dq);
		printf("machine_us_per_frame=%.1f\n", busy * tick_us / dq);
	}
	if (copies[0] >= 0 && copies[1] >= copies[0] && pframes[1] > pframes[0])
		printf("copies_per_frame=%.2f\n",
		       (double)(copies[1] - copies[0]) / (pframes[1] - pframes[0]));
	if (shared[0] >= 0 && shared[1] >= shared[0] && pframes[1] > pframes[0])
		printf("shared_per_frame=%.2f\n",
		       (double)(shared[1] - shared[0]) / (pframes[1] - pframes[0]));
}

static int cmd_run(const char *out, const char *cap, unsigned int w, unsigned int h,
		   unsigned int frames, unsigned int warm)
{
	struct producer p = { .dev = out, .width = w, .height = h };
	struct tally t = { .lat_ns = calloc(frames, sizeof(uint64_t)),
			   .dqbuf_ns = calloc(frames, sizeof(uint64_t)),
			   .qbuf_ns = calloc(frames, sizeof(uint64_t)),
			   .wake_ns = calloc(frames, sizeof(uint64_t)) };
	struct node c = { 0 };
	struct rusage cons[2];
	long long copies[2] = { -1, -1 }, shared[2] = { -1, -1 };
	uint64_t pframes[2] = { 0, 0 };
	int ctl = open(out, O_RDWR | O_NONBLOCK);
	unsigned long long busy0 = 0;
	unsigned int dq = 0, i;
	pthread_t th;
	int rc = 1;

	pthread_create(&th, NULL, producer_run, &p);
	while (!p.streaming)
		usleep(10000);
	usleep(300000); /* a few frames in, as a user starts a camera app */
	if (p.streaming < 0 || consumer_start(&c, cap))
		goto out;
	for (i = 0; i < warm + frames; i++) {
		struct v4l2_buffer b;
		uint64_t t_dq, call_ns;

		if (i == warm) {
			p.mark = 1;
			getrusage(RUSAGE_THREAD, &cons[0]);
			busy0 = machine_busy();
			copies[0] = loop_count(ctl, CID_FRAME_COPIES);
			shared[0] = loop_count(ctl, CID_SHARED_FRAMES);
			pframes[0] = p.frames;
		}
		c.polled_ns = 0;
		if (node_dqbuf_timed(&c, &b, 2000, &call_ns)) {
			fprintf(stderr, "bench-loop: consumer DQBUF after %u: %s\n", i, strerror(errno));
			break;
		}
		t_dq = now_ns();
		if (i >= warm) {
			tally_buffer(&t, &c, &b, t_dq);
			dq++;
		}
		t_dq = now_ns();
		xioctl(c.fd, VIDIOC_QBUF, &b);
		if (i >= warm) {
			t.dqbuf_ns[t.ncalls] = call_ns;
			t.qbuf_ns[t.ncalls++] = now_ns() - t_dq;
		}
	}
	getrusage(RUSAGE_THREAD, &cons[1]);
	busy0 = machine_busy() - busy0;
	copies[1] = loop_count(ctl, CID_FRAME_COPIES);
	shared[1] = loop_count(ctl, CID_SHARED_FRAMES);
	pframes[1] = p.frames;
	p.mark = 2;
	while (p.mark && !p.done)
		usleep(10000);
	report(&p, &c, &t, cons, busy0, dq, copies, shared, pframes);
	rc = dq == frames ? 0 : 1;
out:
	p.stop = 1;
	pthread_join(th, NULL);
	if (ctl >= 0)
		close(ctl);
	free(t.lat_ns);
	free(t.dqbuf_ns);
	free(t.qbuf_ns);
	free(t.wake_ns);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]),
			       argc > 6 ? atoi(argv[6]) : 300, argc > 7 ? atoi(argv[7]) : 30);
	if (argc == 6 && !strcmp(argv[1], "produce")) {
		struct producer p = { .dev = argv[2], .width = atoi(argv[3]),
				      .height = atoi(argv[4]), .seconds = atof(argv[5]) };

		producer_run(&p);
		printf("frames=%llu\n", (unsigned long long)p.frames);
		return p.streaming == 1 ? 0 : 1;
	}
	fprintf(stderr, "usage: bench-loop run OUT CAP WIDTH HEIGHT [FRAMES [WARMUP]]\n"
			"       bench-loop produce OUT WIDTH HEIGHT SECONDS\n");
	return 2;
}
