// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Run under negcam-run (tests/run/meson.build): the node from several
 * threads, a forked child, dup'd descriptors and poll, 1,000 iterations
 * with no deadlock (alarm() fails the test after 120 s); then MMAP
 * streaming (read-only and read-write mappings, poll, sequence numbers,
 * MONOTONIC timestamps, stamps), EXPBUF, queue ownership and read().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "framegen.h"

#define NODE "/dev/video0"
#define ITERATIONS 1000

static int checks, fails;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		checks++;                                                        \
		if (!(cond)) {                                                   \
			fails++;                                                 \
			fprintf(stderr, "test_run_threads: FAIL: " __VA_ARGS__); \
			fputc('\n', stderr);                                     \
		}                                                                \
	} while (0)

/* One open-use-dup-close round; 0 when everything answered as a device. */
static int round_trip(void)
{
	struct v4l2_capability cap;
	struct stat sb;
	int fd = open(NODE, O_RDWR | O_NONBLOCK), fd2, bad = 0;
	struct pollfd p;

	if (fd < 0)
		return 1;
	fd2 = dup(fd);
	bad |= fd2 < 0;
	bad |= ioctl(fd2, VIDIOC_QUERYCAP, &cap) != 0 || strcmp((char *)cap.driver, "negcam");
	bad |= fstat(fd, &sb) != 0 || !S_ISCHR(sb.st_mode) || major(sb.st_rdev) != 81;
	close(fd);
	/* the duplicate still names the device after the first is closed */
	bad |= ioctl(fd2, VIDIOC_QUERYCAP, &cap) != 0;
	p = (struct pollfd){.fd = fd2, .events = POLLIN};
	bad |= poll(&p, 1, 0) != 0; /* nothing streams: nothing to read */
	close(fd2);
	return bad;
}

static void *hammer(void *arg)
{
	long bad = 0;
	int i;

	for (i = 0; i < ITERATIONS; i++)
		bad += round_trip();
	return (void *)bad;
}

static void test_threads_and_fork(void)
{
	pthread_t t[2];
	void *r[2];
	int i, st, child_bad = 0;

	pthread_create(&t[0], NULL, hammer, NULL);
	pthread_create(&t[1], NULL, hammer, NULL);
	for (i = 0; i < 50; i++) { /* fork while the threads hold the lock now and then */
		pid_t pid = fork();

		if (pid == 0)
			_exit(round_trip());
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			child_bad++;
	}
	pthread_join(t[0], &r[0]);
	pthread_join(t[1], &r[1]);
	CHECK(r[0] == NULL && r[1] == NULL,
	      "%d open/dup/ioctl/fstat/poll/close rounds in each of "
	      "two threads: %ld and %ld failed",
	      ITERATIONS, (long)r[0], (long)r[1]);
	CHECK(child_bad == 0, "50 forked children open the node: %d failed", child_bad);
}

static unsigned long long mono_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000ull + (unsigned long long)t.tv_nsec / 1000;
}

static void test_streaming(void)
{
	struct v4l2_requestbuffers rb = {
		.count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd = open(NODE, O_RDWR), other, dfd;
	unsigned long long prev_us = 0, t0;
	unsigned char *map[8];
	long prev_seq = -1;
	int i, good = 0, stamps = 0;

	CHECK(fd >= 0, "open " NODE ": %s", strerror(errno));
	if (fd < 0)
		return;
	CHECK(ioctl(fd, VIDIOC_G_FMT, &f) == 0, "G_FMT");
	CHECK(ioctl(fd, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 4, "REQBUFS 4 (got %u)", rb.count);
	other = open(NODE, O_RDWR);
	CHECK(ioctl(other, VIDIOC_REQBUFS, &rb) == -1 && errno == EBUSY,
	      "REQBUFS from a second file while the first owns the queue is EBUSY");
	CHECK(ioctl(other, VIDIOC_S_FMT, &f) == -1 && errno == EBUSY,
	      "S_FMT while buffers exist is EBUSY");
	close(other);
	for (i = 0; i < (int)rb.count; i++) {
		struct v4l2_buffer b = {.index = (unsigned)i, .type = rb.type, .memory = rb.memory};

		ioctl(fd, VIDIOC_QUERYBUF, &b);
		/* even buffers mapped read-only, as OpenCV does */
		map[i] = mmap(NULL, b.length, i % 2 ? PROT_READ | PROT_WRITE : PROT_READ,
			      MAP_SHARED, fd, b.m.offset);
		CHECK(map[i] != MAP_FAILED, "mmap buffer %d (%s)", i, i % 2 ? "rw" : "ro");
		CHECK(ioctl(fd, VIDIOC_QBUF, &b) == 0, "QBUF %d", i);
	}
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED, "MAP_PRIVATE refused");
	dfd = dup(fd);
	CHECK(ioctl(fd, VIDIOC_STREAMON, &type) == 0, "STREAMON");
	t0 = mono_us();
	for (i = 0; i < 20; i++) {
		struct v4l2_buffer b = {.type = rb.type, .memory = rb.memory};
		struct pollfd p = {.fd = dfd, .events = POLLIN};
		unsigned long long now;

		if (poll(&p, 1, 2000) != 1 || ioctl(dfd, VIDIOC_DQBUF, &b))
			break;
		now = mono_us();
		b.timestamp.tv_usec += b.timestamp.tv_sec * 1000000;
		good += (long)b.sequence > prev_seq &&
			(unsigned long long)b.timestamp.tv_usec > prev_us &&
			(unsigned long long)b.timestamp.tv_usec <= now &&
			(b.flags & V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) &&
			b.bytesused == f.fmt.pix.sizeimage;
		stamps += negcam_stamp_read(map[b.index], 2, f.fmt.pix.bytesperline,
					    f.fmt.pix.width, f.fmt.pix.height) == (long)b.sequence;
		prev_seq = b.sequence;
		prev_us = (unsigned long long)b.timestamp.tv_usec;
		ioctl(dfd, VIDIOC_QBUF, &b);
	}
	CHECK(good == 20,
	      "20 frames by poll+DQBUF on a dup: sequence and MONOTONIC timestamps "
	      "increase, bytesused = sizeimage (%d good)",
	      good);
	CHECK(stamps == 20, "each frame's stamp is its sequence number (%d of 20)", stamps);
	t0 = mono_us() - t0;
	CHECK(t0 > 19 * 30000 && t0 < 20 * 200000,
	      "20 frames at 30 fps took %llu ms (paced, a loaded host may be late)", t0 / 1000);
	{
		struct v4l2_exportbuffer e = {.type = rb.type, .index = 1, .flags = O_CLOEXEC};

		CHECK(ioctl(fd, VIDIOC_EXPBUF, &e) == 0 && e.fd >= 0, "EXPBUF gives a descriptor");
		CHECK(e.fd >= 0 && mmap(NULL, 4096, PROT_READ, MAP_SHARED, e.fd, 0) != MAP_FAILED,
		      "the exported buffer maps");
		close(e.fd);
	}
	CHECK(ioctl(fd, VIDIOC_STREAMOFF, &type) == 0, "STREAMOFF");
	rb.count = 0;
	CHECK(ioctl(fd, VIDIOC_REQBUFS, &rb) == 0, "REQBUFS 0");
	CHECK(map[0][0] == map[0][0], "a mapping outlives REQBUFS 0 (orphaned buffer)");
	close(dfd);
	close(fd);
}

static void test_read(void)
{
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	int fd = open(NODE, O_RDWR), i, ok = 0;
	unsigned char *buf;

	ioctl(fd, VIDIOC_G_FMT, &f);
	buf = malloc(f.fmt.pix.sizeimage);
	for (i = 0; i < 3; i++)
		ok += read(fd, buf, f.fmt.pix.sizeimage) == (ssize_t)f.fmt.pix.sizeimage &&
		      negcam_stamp_read(buf, 2, f.fmt.pix.bytesperline, f.fmt.pix.width,
					f.fmt.pix.height) >= i;
	CHECK(ok == 3, "read() gives 3 whole stamped frames (%d)", ok);
	free(buf);
	close(fd);
}

int main(void)
{
	alarm(120); /* a deadlock fails the test instead of hanging it */
	test_threads_and_fork();
	test_streaming();
	test_read();
	printf("test_run_threads: %d passed, %d failed\n", checks - fails, fails);
	return fails != 0;
}
