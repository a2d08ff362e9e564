// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * userptr-tail: what a capture driver writes past bytesused in USERPTR
 * buffers, measured as v4l2-compliance's USERPTR test measures it, but per
 * frame (docs/cameras.md, the elp-stereo-3d-usb warning of issue 40).
 *
 *   userptr-tail DEVICE FRAMES
 *
 * On DEVICE's current format: 4 USERPTR buffers filled with 0xdeadbeef
 * words, STREAMON, FRAMES frames dequeued; each dequeued buffer is checked
 * for words changed between bytesused (rounded up to 4, as v4l2-compliance
 * rounds it) and its length, then filled again and queued again. After
 * STREAMOFF, each buffer that was filled after its last dequeue (a frame
 * the driver delivered, or was writing, when streaming stopped) is
 * measured: how far it is written, and whether that is a whole JPEG
 * (SOI first, EOI last). v4l2-compliance's "data from max bytesused ...
 * was touched" warning is one such buffer written past the largest
 * bytesused dequeued. Prints one line per finding and a summary:
 *   userptr-tail: N frames, M past bytesused, K filled at STREAMOFF
 *   (J whole JPEG frames), L beyond the largest dequeued bytesused U
 * Exit status: 0 when no dequeued frame was written past its bytesused,
 * 1 when one was, 2 on a setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define NBUF 4
#define FILLER 0xdeadbeefu

struct probe {
	int fd;
	uint32_t len;	/* the buffer length, rounded up to 4 */
	uint32_t *mem[NBUF];
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static void fill(struct probe *p, int i)
{
	uint32_t k;

	for (k = 0; k < p->len / 4; k++)
		p->mem[i][k] = FILLER;
}

static int queue(struct probe *p, int i)
{
	struct v4l2_buffer b;

	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_USERPTR;
	b.index = (uint32_t)i;
	b.m.userptr = (unsigned long)p->mem[i];
	b.length = p->len;
	return xioctl(p->fd, VIDIOC_QBUF, &b);
}

/* The byte offset just past the last word that is not FILLER. */
static uint32_t extent(const struct probe *p, int i)
{
	uint32_t k = p->len / 4;

	while (k && p->mem[i][k - 1] == FILLER)
		k--;
	return k * 4;
}

/* True when buffer @i holds a whole JPEG ending within 4 bytes of @end. */
static int whole_jpeg(const struct probe *p, int i, uint32_t end)
{
	const uint8_t *d = (const uint8_t *)p->mem[i];
	uint32_t k;

	if (end < 4 || d[0] != 0xff || d[1] != 0xd8)
		return 0;
	for (k = end - 1; k + 4 >= end && k >= 1; k--)
		if (d[k - 1] == 0xff && d[k] == 0xd9)
			return 1;
	return 0;
}

static int setup(struct probe *p, const char *dev)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers rb = { .count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  .memory = V4L2_MEMORY_USERPTR };
	int i;

	p->fd = open(dev, O_RDWR);
	if (p->fd < 0 || xioctl(p->fd, VIDIOC_G_FMT, &f) || xioctl(p->fd, VIDIOC_REQBUFS, &rb) ||
	    rb.count < NBUF) {
		fprintf(stderr, "userptr-tail: %s: cannot open, G_FMT or REQBUFS %d USERPTR: %s\n",
			dev, NBUF, strerror(errno));
		return -1;
	}
	p->len = (f.fmt.pix.sizeimage + 3u) & ~3u;
	printf("userptr-tail: %s %.4s %ux%u sizeimage %u\n", dev, (const char *)&f.fmt.pix.pixelformat,
	       f.fmt.pix.width, f.fmt.pix.height, f.fmt.pix.sizeimage);
	for (i = 0; i < NBUF; i++) {
		if (posix_memalign((void **)&p->mem[i], 4096, p->len))
			return -1;
		fill(p, i);
		if (queue(p, i))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, frames, n, past = 0, left = 0, whole = 0, beyond = 0, i;
	uint32_t max = 0, used, e;
	struct probe p;
	struct v4l2_buffer b;

	if (argc != 3 || (frames = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: userptr-tail DEVICE FRAMES\n");
		return 2;
	}
	memset(&p, 0, sizeof(p));
	if (setup(&p, argv[1]) || xioctl(p.fd, VIDIOC_STREAMON, &type))
		return 2;
	for (n = 0; n < frames; n++) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_USERPTR;
		if (xioctl(p.fd, VIDIOC_DQBUF, &b)) {
			fprintf(stderr, "userptr-tail: DQBUF: %s\n", strerror(errno));
			return 2;
		}
		used = (b.bytesused + 3u) & ~3u;
		e = extent(&p, (int)b.index);
		if (e > used) {
			printf("frame %u (buffer %u): bytesused %u, written to %u\n", b.sequence, b.index,
			       b.bytesused, e);
			past++;
		}
		if (b.bytesused > max)
			max = b.bytesused;
		fill(&p, (int)b.index);
		if (queue(&p, (int)b.index))
			return 2;
	}
	xioctl(p.fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < NBUF; i++) {
		e = extent(&p, i);
		if (!e)
			continue;
		left++;
		whole += whole_jpeg(&p, i, e);
		if (e > ((max + 3u) & ~3u)) {
			beyond++;
			printf("at STREAMOFF: buffer %d written to %u (%s), past the largest dequeued bytesused %u\n",
			       i, e, whole_jpeg(&p, i, e) ? "a whole JPEG frame" : "not a whole JPEG frame", max);
		}
	}
	printf("userptr-tail: %d frames, %d past bytesused, %d filled at STREAMOFF (%d whole JPEG frames), "
	       "%d beyond the largest dequeued bytesused %u\n", frames, past, left, whole, beyond, max);
	close(p.fd);
	return past ? 1 : 0;
}
