// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vm-faults: negcam.ko's one-shot faults seen from a V4L2 program, as a
 * capture-card or webcam application sees them (tests/vm/kmod-faults.sh).
 * Each subcommand prints "  ok: ..." or "  FAIL: ..." per check and exits
 * 0 on success, 1 on a failed check, 2 on a usage or setup error.
 *
 *   vm-faults source-change DEV W H
 *       subscribe to V4L2_EVENT_SOURCE_CHANGE, stream (MMAP, the current
 *       format) until poll() gives POLLPRI; DQEVENT gives SOURCE_CHANGE
 *       with V4L2_EVENT_SRC_CH_RESOLUTION, G_FMT W x H; no frame comes
 *       after it; after STREAMOFF, REQBUFS(0), REQBUFS and STREAMON the
 *       frames are the new size
 *   vm-faults unplug DEV
 *       stream until poll() gives POLLERR (the queue in error), then
 *       POLLERR | POLLHUP within 2 s (the node gone); DQBUF and QUERYCAP
 *       then fail with ENODEV, and opening DEV again with ENOENT (or
 *       ENODEV, the file not yet removed)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include "vm-check.h"

#define NBUF 4
#define TYPE V4L2_BUF_TYPE_VIDEO_CAPTURE

static int failures;

static int get_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = TYPE;
	return xioctl(fd, VIDIOC_G_FMT, f);
}

/* REQBUFS NBUF, QBUF each, STREAMON: 0 or the first error. */
static int start(int fd)
{
	struct v4l2_requestbuffers rb = { .count = NBUF, .type = TYPE, .memory = V4L2_MEMORY_MMAP };
	int type = TYPE, r;
	unsigned int i;

	r = xioctl(fd, VIDIOC_REQBUFS, &rb);
	for (i = 0; !r && i < rb.count; i++) {
		struct v4l2_buffer b = { .index = i, .type = TYPE, .memory = V4L2_MEMORY_MMAP };

		r = xioctl(fd, VIDIOC_QBUF, &b);
	}
	return r ? r : xioctl(fd, VIDIOC_STREAMON, &type);
}

static void stop(int fd)
{
	struct v4l2_requestbuffers rb = { .type = TYPE, .memory = V4L2_MEMORY_MMAP };
	int type = TYPE;

	CHECK(!xioctl(fd, VIDIOC_STREAMOFF, &type), "STREAMOFF");
	CHECK(!xioctl(fd, VIDIOC_REQBUFS, &rb), "REQBUFS(0)");
}

/*
 * Dequeue and requeue up to @frames frames until poll() shows one of @want;
 * the revents, or 0 after @frames frames or a 3 s silence. @bytes: the
 * last frame's bytesused; @n: frames dequeued.
 */
static short pump(int fd, short want, int frames, unsigned int *bytes, int *n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

	for (*n = 0; *n < frames;) {
		struct v4l2_buffer b = { .type = TYPE, .memory = V4L2_MEMORY_MMAP };

		if (poll(&p, 1, 3000) <= 0)
			return 0;
		if (p.revents & want)
			return p.revents;
		if (xioctl(fd, VIDIOC_DQBUF, &b))
			return 0;
		(*n)++;
		*bytes = b.bytesused;
		xioctl(fd, VIDIOC_QBUF, &b);
	}
	return 0;
}

static void after_change(int fd, unsigned int w, unsigned int h)
{
	struct v4l2_format f;
	unsigned int bytes = 0;
	int n, r;

	r = pump(fd, 0, 3, &bytes, &n);
	CHECK(n == 0, "no frame after the change until the restart (%d came)", n);
	stop(fd);
	CHECK(!get_fmt(fd, &f) && f.fmt.pix.width == w && f.fmt.pix.height == h,
	      "G_FMT after REQBUFS(0): %ux%u", f.fmt.pix.width, f.fmt.pix.height);
	r = start(fd);
	CHECK(!r, "restart at the new size: %s", r ? strerror(-r) : "streaming");
	pump(fd, 0, 5, &bytes, &n);
	CHECK(n == 5 && bytes == f.fmt.pix.sizeimage, "%d frames of %u bytes after the restart (want %u)",
	      n, bytes, f.fmt.pix.sizeimage);
	stop(fd);
}

static int source_change(int fd, unsigned int w, unsigned int h)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_SOURCE_CHANGE };
	struct v4l2_format f0, f;
	struct v4l2_event ev;
	unsigned int bytes = 0;
	short rev;
	int n, r;

	r = xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
	CHECK(!r, "SUBSCRIBE_EVENT(SOURCE_CHANGE): %s", r ? strerror(-r) : "success");
	if (get_fmt(fd, &f0) || start(fd))
		return 2;
	rev = pump(fd, POLLPRI, 600, &bytes, &n);
	CHECK(rev & POLLPRI, "poll() gives POLLPRI after %d frames", n);
	CHECK(n > 0 && bytes == f0.fmt.pix.sizeimage, "frames of %ux%u before it (%u bytes)",
	      f0.fmt.pix.width, f0.fmt.pix.height, bytes);
	memset(&ev, 0, sizeof(ev));
	r = xioctl(fd, VIDIOC_DQEVENT, &ev);
	CHECK(!r && ev.type == V4L2_EVENT_SOURCE_CHANGE &&
	      (ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION),
	      "DQEVENT: SOURCE_CHANGE, V4L2_EVENT_SRC_CH_RESOLUTION (type %u changes %#x)", ev.type,
	      ev.u.src_change.changes);
	CHECK(!get_fmt(fd, &f) && f.fmt.pix.width == w && f.fmt.pix.height == h,
	      "G_FMT while still streaming: %ux%u (want %ux%u)", f.fmt.pix.width, f.fmt.pix.height,
	      w, h);
	after_change(fd, w, h);
	return failures ? 1 : 0;
}

static int unplug(int fd, const char *dev)
{
	struct v4l2_buffer b = { .type = TYPE, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_capability cap;
	unsigned int bytes;
	short rev;
	int n, r, i;

	r = start(fd);
	if (r) {
		printf("  cannot stream: %s\n", strerror(-r));
		return 2;
	}
	rev = pump(fd, POLLERR, 600, &bytes, &n);
	CHECK(rev & POLLERR, "poll() gives POLLERR (%#x) after %d frames", rev, n);
	for (i = 0; i < 20 && !(rev & POLLHUP); i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

		usleep(100000);
		rev = poll(&p, 1, 0) == 1 ? p.revents : 0;
	}
	CHECK((rev & POLLERR) && (rev & POLLHUP), "then POLLERR | POLLHUP (%#x): the node gone", rev);
	r = xioctl(fd, VIDIOC_DQBUF, &b);
	CHECK(r == -ENODEV, "DQBUF: %s (want ENODEV)", r ? strerror(-r) : "success");
	r = xioctl(fd, VIDIOC_QUERYCAP, &cap);
	CHECK(r == -ENODEV, "QUERYCAP: %s (want ENODEV)", r ? strerror(-r) : "success");
	r = open(dev, O_RDWR);
	/* ENODEV while devtmpfs has not yet removed the file (it does a moment later) */
	CHECK(r < 0 && (errno == ENOENT || errno == ENODEV), "open %s again: %s (want ENOENT or ENODEV)",
	      dev, r < 0 ? strerror(errno) : "opened");
	if (r >= 0)
		close(r);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int fd, ret = 2;

	if (argc < 3) {
		fprintf(stderr, "usage: vm-faults source-change DEV W H | unplug DEV\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "vm-faults: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (argc == 5 && !strcmp(argv[1], "source-change"))
		ret = source_change(fd, (unsigned int)atoi(argv[3]), (unsigned int)atoi(argv[4]));
	else if (argc == 3 && !strcmp(argv[1], "unplug"))
		ret = unplug(fd, argv[2]);
	else
		fprintf(stderr, "usage: vm-faults source-change DEV W H | unplug DEV\n");
	close(fd);
	return ret;
}
