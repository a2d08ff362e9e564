// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The one-shot faults seen from a V4L2 program, as a capture-card or
 * webcam application sees them (run under negcam-run by test_faults.sh):
 *
 *   test_fault_events source-change W H   (profile: fault source-change T WxH)
 *     streams, waits in poll() for POLLPRI, DQEVENT gives
 *     V4L2_EVENT_SOURCE_CHANGE with V4L2_EVENT_SRC_CH_RESOLUTION, G_FMT
 *     gives W x H; after STREAMOFF, REQBUFS and STREAMON the frames are
 *     W x H's size.
 *   test_fault_events unplug              (profile: fault unplug T)
 *     streams until poll() says POLLERR | POLLHUP; DQBUF and QUERYCAP then
 *     fail with ENODEV and opening the node again with ENOENT.
 *
 * Prints "test_fault_events: N passed, N failed".
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

#include "../engine/check.h"

#define DEV "/dev/video0"
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

static void start(unsigned int w, unsigned int h)
{
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	struct v4l2_requestbuffers rb = {.count = NBUF, .type = f.type,
					 .memory = V4L2_MEMORY_MMAP};
	unsigned int i;
	int type = f.type;

	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	CHECK(!xioctl(VIDIOC_S_FMT, &f), "S_FMT: %s", strerror(errno));
	CHECK(!xioctl(VIDIOC_REQBUFS, &rb), "REQBUFS: %s", strerror(errno));
	for (i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = {.index = i, .type = type, .memory = V4L2_MEMORY_MMAP};

		CHECK(!xioctl(VIDIOC_QBUF, &b), "QBUF %u: %s", i, strerror(errno));
	}
	CHECK(!xioctl(VIDIOC_STREAMON, &type), "STREAMON: %s", strerror(errno));
}

static void stop(void)
{
	struct v4l2_requestbuffers rb = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	CHECK(!xioctl(VIDIOC_STREAMOFF, &type), "STREAMOFF: %s", strerror(errno));
	CHECK(!xioctl(VIDIOC_REQBUFS, &rb), "REQBUFS 0: %s", strerror(errno));
}

/* Dequeue and requeue up to @frames frames until poll() shows one of @want in revents. */
static short stream_until(short want, unsigned int *bytes, int frames)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLPRI};
	int i;

	for (i = 0; i < frames; i++) {
		struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					.memory = V4L2_MEMORY_MMAP};

		if (poll(&p, 1, 2000) <= 0)
			return 0;
		if (p.revents & want)
			return p.revents;
		if (xioctl(VIDIOC_DQBUF, &b))
			return 0;
		if (bytes)
			*bytes = b.bytesused;
		xioctl(VIDIOC_QBUF, &b);
	}
	return 0;
}

static void source_change(unsigned int w, unsigned int h)
{
	struct v4l2_event_subscription sub = {.type = V4L2_EVENT_SOURCE_CHANGE};
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	struct v4l2_event ev;
	unsigned int bytes = 0;

	CHECK(!xioctl(VIDIOC_SUBSCRIBE_EVENT, &sub), "SUBSCRIBE_EVENT: %s", strerror(errno));
	start(320, 240);
	CHECK(stream_until(POLLPRI, &bytes, 500) & POLLPRI, "poll() shows POLLPRI");
	CHECK_EQ(bytes, 320 * 240 * 2, "frames of the first size before it");
	memset(&ev, 0, sizeof(ev));
	CHECK(!xioctl(VIDIOC_DQEVENT, &ev), "DQEVENT: %s", strerror(errno));
	CHECK_EQ(ev.type, V4L2_EVENT_SOURCE_CHANGE, "the event is SOURCE_CHANGE");
	CHECK(ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION, "a resolution change");
	CHECK(!xioctl(VIDIOC_G_FMT, &f), "G_FMT: %s", strerror(errno));
	CHECK(f.fmt.pix.width == w && f.fmt.pix.height == h, "G_FMT gives %ux%u: %ux%u", w, h,
	      f.fmt.pix.width, f.fmt.pix.height);
	stop();
	start(w, h);
	bytes = 0;
	stream_until(0, &bytes, 5);
	CHECK_EQ(bytes, w * h * 2, "after the restart the frames are the new size");
	stop();
}

static void unplug(void)
{
	struct v4l2_capability cap;
	struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
	short rev;

	start(320, 240);
	rev = stream_until(POLLERR, NULL, 500);
	CHECK((rev & POLLERR) && (rev & POLLHUP), "poll() shows POLLERR | POLLHUP (%#x)", rev);
	CHECK(xioctl(VIDIOC_DQBUF, &b) < 0 && errno == ENODEV, "DQBUF: ENODEV (%s)",
	      strerror(errno));
	CHECK(xioctl(VIDIOC_QUERYCAP, &cap) < 0 && errno == ENODEV, "QUERYCAP: ENODEV");
	CHECK(open(DEV, O_RDWR) < 0 && errno == ENOENT, "the node is gone: ENOENT (%s)",
	      strerror(errno));
}

int main(int argc, char **argv)
{
	fd = open(DEV, O_RDWR);
	CHECK(fd >= 0, "open %s: %s", DEV, strerror(errno));
	if (fd >= 0 && argc == 4 && !strcmp(argv[1], "source-change"))
		source_change((unsigned int)atoi(argv[2]), (unsigned int)atoi(argv[3]));
	else if (fd >= 0 && argc == 2 && !strcmp(argv[1], "unplug"))
		unplug();
	else
		CHECK(0, "usage: test_fault_events source-change W H | unplug");
	if (fd >= 0)
		close(fd);
	return check_done("test_fault_events");
}
