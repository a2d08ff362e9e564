// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vm-v4l2: small V4L2 checks for the VM suites that v4l2-ctl cannot express.
 * Each subcommand prints what it checked and exits 0 on success, 1 on a
 * failed check, 2 on a usage or setup error.
 *
 *   vm-v4l2 opens DEV N          open DEV N times at once, QUERYCAP each
 *   vm-v4l2 sfmt-busy DEV        handle 1 owns buffers: S_FMT from handle 2
 *                                gives EBUSY, TRY_FMT still works, G_FMT on
 *                                handle 2 sees handle 1's format; after
 *                                REQBUFS(0) S_FMT works again
 *   vm-v4l2 shared-fmt DEV       S_FMT on handle 1 is seen by G_FMT on 2
 *   vm-v4l2 while-streaming DEV CMD
 *                                stream DEV (MMAP), run CMD with sh -c while
 *                                frames flow, stop; exit status of CMD
 *   vm-v4l2 while-open DEV CMD   hold DEV open (idle) while CMD runs
 *   vm-v4l2 gone DEV CMD [AFTER] open DEV, stream, run CMD (which unplugs
 *                                the device), then check that the handle
 *                                reports the loss: ioctls fail with ENODEV
 *                                and poll gives POLLERR; then run AFTER
 *                                (its status is printed, not judged) with
 *                                the dead handle still open, and close it
 *   vm-v4l2 event DEV CMD        subscribe to V4L2_EVENT_SOURCE_CHANGE, run
 *                                CMD, expect the event
 *   vm-v4l2 fields DEV N         stream N buffers (MMAP) and print one line
 *                                each: sequence, field (none, top, bottom,
 *                                ...) and bytesused; the caller judges them
 *
 * Loops (capture or output, from QUERYCAP's device caps):
 *   vm-v4l2 fmt DEV [WxH FOURCC] S_FMT (or G_FMT without WxH), print
 *                                "WxH FOURCC sizeimage"
 *   vm-v4l2 produce DEV N HEX [FPS]
 *                                output node: write N frames (0: until
 *                                killed) of the 4-byte pattern HEX (e.g.
 *                                515af05a, red in YUYV) through MMAP at FPS
 *                                (default 30), in the node's current format
 *   vm-v4l2 consume DEV N [HEX]  capture node: read N frames through MMAP;
 *                                fails on a bytesused that disagrees with
 *                                the format (raw: sizeimage) or a sequence
 *                                or timestamp that does not increase; prints
 *                                the kinds of frame in order, P for a frame
 *                                of HEX, g for any other (the placeholder),
 *                                and the SOURCE_CHANGE events seen
 *   vm-v4l2 write-streamon DEV N HEX
 *                                output node, as OBS Studio's virtual camera
 *                                drives it: G_FMT, S_PARM 1/30, S_FMT (the
 *                                current format), STREAMON with no buffers,
 *                                N whole frames of HEX by write() at 30 fps,
 *                                STREAMOFF; then the same again on the same
 *                                handle. Meanwhile a second handle's
 *                                STREAMON must give EBUSY, and after
 *                                REQBUFS(0) its STREAMON EINVAL (no buffers)
 *   vm-v4l2 cycle DEV N          N times: open, S_FMT (the current format),
 *                                REQBUFS, QBUF, STREAMON, close
 *   vm-v4l2 hold-fmt OUT CAP     a producer's S_FMT 640x480 YUYV holds the
 *                                output format against a consumer's S_FMT
 *                                320x240 until its REQBUFS(0) or close: its
 *                                buffers are 640x480's and take its frame;
 *                                then the consumer's wish is the format
 *   vm-v4l2 share OUT CAP N      a loop's shared buffers (docs/loopback.md):
 *                                a producer process writes a frame number
 *                                into every page of each frame at 30 fps;
 *                                CAP reads N frames and checks each: every
 *                                page the same number, numbers increasing,
 *                                bytesused right. Every 10th frame it holds
 *                                for 200 ms and checks the frame did not
 *                                change meanwhile; halfway it stops reading
 *                                for 1 s and checks the producer went on.
 *                                Prints the loop's Shared Frames and Frame
 *                                Copies over the run; fails unless at least
 *                                half of the producer's frames read were
 *                                shared, not copied
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include "vm-check.h"

static int failures;

static __u32 node_type(int fd);

static int open_dev(const char *dev)
{
	int fd = open(dev, O_RDWR | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "vm-v4l2: open %s: %s\n", dev, strerror(errno));
		exit(2);
	}
	return fd;
}

static int get_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return xioctl(fd, VIDIOC_G_FMT, f);
}

static int reqbufs(int fd, unsigned int count)
{
	struct v4l2_requestbuffers rb;

	memset(&rb, 0, sizeof(rb));
	rb.count = count;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	return xioctl(fd, VIDIOC_REQBUFS, &rb) ? -1 : (int)rb.count;
}

/* A frame size of the current pixel format other than the current one. */
static int other_size(int fd, const struct v4l2_format *cur, __u32 *w, __u32 *h)
{
	struct v4l2_frmsizeenum fs;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.index = i;
		fs.pixel_format = cur->fmt.pix.pixelformat;
		if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs))
			break;
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			if (fs.discrete.width != cur->fmt.pix.width ||
			    fs.discrete.height != cur->fmt.pix.height) {
				*w = fs.discrete.width;
				*h = fs.discrete.height;
				return 0;
			}
		} else {
			*w = fs.stepwise.min_width;
			*h = fs.stepwise.min_height;
			if (*w == cur->fmt.pix.width && *h == cur->fmt.pix.height) {
				*w = fs.stepwise.max_width;
				*h = fs.stepwise.max_height;
			}
			return (*w == cur->fmt.pix.width && *h == cur->fmt.pix.height) ? -1 : 0;
		}
	}
	return -1;
}

static int cmd_opens(const char *dev, int n)
{
	int *fds = calloc(n, sizeof(*fds));
	int i, opened = 0, answered = 0;

	for (i = 0; i < n; i++) {
		fds[i] = open(dev, O_RDWR);
		if (fds[i] >= 0)
			opened++;
		else
			printf("  open #%d: %s\n", i, strerror(errno));
	}
	for (i = 0; i < n; i++) {
		struct v4l2_capability cap;

		if (fds[i] >= 0 && !xioctl(fds[i], VIDIOC_QUERYCAP, &cap))
			answered++;
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	CHECK(opened == n, "%d of %d simultaneous opens of %s succeeded", opened, n, dev);
	CHECK(answered == n, "%d of %d handles answered VIDIOC_QUERYCAP", answered, n);
	return failures ? 1 : 0;
}

static int cmd_sfmt_busy(const char *dev)
{
	int a = open_dev(dev), b = open_dev(dev);
	struct v4l2_format fa, fb, orig;
	__u32 w, h;
	int r;

	if (get_fmt(a, &orig)) {
		printf("  FAIL: G_FMT: %s\n", strerror(errno));
		return 1;
	}
	if (other_size(a, &orig, &w, &h)) {
		printf("  FAIL: %s has a single frame size; cannot test a change\n", dev);
		return 1;
	}
	r = reqbufs(a, 2);
	CHECK(r > 0, "handle 1: REQBUFS(MMAP, 2) gave %d buffers", r);

	fb = orig;
	fb.fmt.pix.width = w;
	fb.fmt.pix.height = h;
	r = xioctl(b, VIDIOC_S_FMT, &fb);
	CHECK(r == -EBUSY, "handle 2: S_FMT %ux%u while handle 1 owns buffers: %s (want EBUSY)",
	      w, h, r ? strerror(-r) : "success");

	fb = orig;
	fb.fmt.pix.width = w;
	fb.fmt.pix.height = h;
	r = xioctl(b, VIDIOC_TRY_FMT, &fb);
	CHECK(r == 0, "handle 2: TRY_FMT while busy: %s (want success, never EBUSY)",
	      r ? strerror(-r) : "success");

	fa = orig;
	fa.fmt.pix.width = w;
	fa.fmt.pix.height = h;
	r = xioctl(a, VIDIOC_S_FMT, &fa);
	CHECK(r == -EBUSY, "handle 1 (owner): S_FMT to another size while it has buffers: %s (want EBUSY)",
	      r ? strerror(-r) : "success");

	r = get_fmt(b, &fb);
	CHECK(r == 0 && fb.fmt.pix.width == orig.fmt.pix.width &&
	      fb.fmt.pix.height == orig.fmt.pix.height,
	      "G_FMT unchanged after the refused S_FMT: %ux%u", fb.fmt.pix.width, fb.fmt.pix.height);

	r = reqbufs(b, 2);
	CHECK(r < 0 && errno == EBUSY, "handle 2: REQBUFS while handle 1 owns the queue: %s (want EBUSY)",
	      r < 0 ? strerror(errno) : "success");

	r = reqbufs(a, 0);
	CHECK(r == 0, "handle 1: REQBUFS(0) frees the buffers");
	fb = orig;
	fb.fmt.pix.width = w;
	fb.fmt.pix.height = h;
	r = xioctl(b, VIDIOC_S_FMT, &fb);
	CHECK(r == 0, "handle 2: S_FMT %ux%u once the queue is free: %s", w, h,
	      r ? strerror(-r) : "success");
	r = get_fmt(a, &fa);
	CHECK(r == 0 && fa.fmt.pix.width == fb.fmt.pix.width && fa.fmt.pix.height == fb.fmt.pix.height,
	      "handle 1 sees handle 2's format: %ux%u", fa.fmt.pix.width, fa.fmt.pix.height);
	/* Put the original format back for the next test. */
	xioctl(b, VIDIOC_S_FMT, &orig);
	close(a);
	close(b);
	return failures ? 1 : 0;
}

static int cmd_shared_fmt(const char *dev)
{
	int a = open_dev(dev), b = open_dev(dev);
	struct v4l2_format orig, f;
	__u32 w, h;
	int r;

	if (get_fmt(a, &orig) || other_size(a, &orig, &w, &h)) {
		printf("  FAIL: cannot find a second frame size on %s\n", dev);
		return 1;
	}
	f = orig;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	r = xioctl(a, VIDIOC_S_FMT, &f);
	CHECK(r == 0, "handle 1: S_FMT %ux%u", w, h);
	r = get_fmt(b, &f);
	CHECK(r == 0 && f.fmt.pix.width == w && f.fmt.pix.height == h,
	      "handle 2: G_FMT gives %ux%u", f.fmt.pix.width, f.fmt.pix.height);
	xioctl(a, VIDIOC_S_FMT, &orig);
	close(a);
	close(b);
	return failures ? 1 : 0;
}

static int run_shell(const char *cmd)
{
	int st;

	fflush(stdout);
	st = system(cmd);
	if (st == -1)
		return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct stream {
	int fd;
	unsigned int nbufs;
	void *mem[8];
	size_t len[8];
};

static int stream_start(struct stream *s, const char *dev)
{
	unsigned int i;
	int r;

	s->fd = open_dev(dev);
	r = reqbufs(s->fd, 4);
	if (r <= 0) {
		printf("  FAIL: REQBUFS: %s\n", strerror(errno));
		return -1;
	}
	s->nbufs = r > 8 ? 8 : r;
	for (i = 0; i < s->nbufs; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (xioctl(s->fd, VIDIOC_QUERYBUF, &b))
			return -1;
		s->len[i] = b.length;
		s->mem[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, s->fd, b.m.offset);
		if (s->mem[i] == MAP_FAILED)
			return -1;
		if (xioctl(s->fd, VIDIOC_QBUF, &b))
			return -1;
	}
	{
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

		r = xioctl(s->fd, VIDIOC_STREAMON, &type);
	}
	CHECK(r == 0, "STREAMON on %s", dev);
	return r;
}

/* Dequeue and requeue frames for about @ms milliseconds; returns frames seen. */
static int stream_pump(struct stream *s, int ms)
{
	struct timespec t0, t;
	int frames = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		struct v4l2_buffer b;
		long el;

		clock_gettime(CLOCK_MONOTONIC, &t);
		el = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (el >= ms)
			break;
		if (poll(&p, 1, ms - el) <= 0)
			continue;
		if (p.revents & POLLERR)
			break;
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		if (xioctl(s->fd, VIDIOC_DQBUF, &b))
			continue;
		frames++;
		xioctl(s->fd, VIDIOC_QBUF, &b);
	}
	return frames;
}

static void stream_stop(struct stream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	xioctl(s->fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < s->nbufs; i++)
		if (s->mem[i] && s->mem[i] != MAP_FAILED)
			munmap(s->mem[i], s->len[i]);
	close(s->fd);
}

static int cmd_fields(const char *dev, int n)
{
	static const char *const names[] = { "any", "none", "top", "bottom", "interlaced",
					     "seq-tb", "seq-bt", "alternate", "interlaced-tb",
					     "interlaced-bt" };
	struct stream s = { 0 };
	int got = 0;

	if (stream_start(&s, dev))
		return 1;
	while (got < n) {
		struct pollfd p = { .fd = s.fd, .events = POLLIN };
		struct v4l2_buffer b;

		if (poll(&p, 1, 5000) <= 0 || (p.revents & POLLERR))
			break;
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		if (xioctl(s.fd, VIDIOC_DQBUF, &b))
			continue;
		printf("%u %s %u\n", b.sequence,
		       b.field < sizeof(names) / sizeof(names[0]) ? names[b.field] : "?", b.bytesused);
		got++;
		xioctl(s.fd, VIDIOC_QBUF, &b);
	}
	stream_stop(&s);
	return got == n ? 0 : 1;
}

static int cmd_while_streaming(const char *dev, const char *cmd)
{
	struct stream s;
	int frames, st;

	memset(&s, 0, sizeof(s));
	if (stream_start(&s, dev))
		return 2;
	frames = stream_pump(&s, 1500);
	CHECK(frames > 0, "%d frames in 1.5 s before running the command", frames);
	st = run_shell(cmd);
	frames = stream_pump(&s, 1000);
	CHECK(frames > 0, "still streaming after the command: %d frames in 1 s", frames);
	stream_stop(&s);
	if (failures)
		return 2;
	return st;
}

static int cmd_while_open(const char *dev, const char *cmd)
{
	int fd = open_dev(dev), st;

	st = run_shell(cmd);
	close(fd);
	return st;
}

static int cmd_gone(const char *dev, const char *cmd, const char *after)
{
	struct stream s;
	struct v4l2_capability cap;
	struct v4l2_format f;
	struct pollfd p;
	int r, st, frames;

	memset(&s, 0, sizeof(s));
	if (stream_start(&s, dev))
		return 2;
	frames = stream_pump(&s, 1000);
	CHECK(frames > 0, "%d frames before the unplug", frames);
	st = run_shell(cmd);
	CHECK(st == 0, "unplug command exit status %d", st);
	r = xioctl(s.fd, VIDIOC_QUERYCAP, &cap);
	CHECK(r == -ENODEV, "QUERYCAP on the old handle: %s (want ENODEV)", r ? strerror(-r) : "success");
	r = get_fmt(s.fd, &f);
	CHECK(r == -ENODEV, "G_FMT on the old handle: %s (want ENODEV)", r ? strerror(-r) : "success");
	p.fd = s.fd;
	p.events = POLLIN;
	p.revents = 0;
	r = poll(&p, 1, 2000);
	CHECK(r == 1 && (p.revents & (POLLERR | POLLHUP)), "poll on the old handle: revents 0x%x (want POLLERR)",
	      r == 1 ? p.revents : 0);
	if (after)
		printf("  with the dead handle open, '%s' exited with %d\n", after, run_shell(after));
	stream_stop(&s);
	printf("  handle closed\n");
	return failures ? 1 : 0;
}

/* The id of the control named @name, 0 if none. */
static __u32 ctrl_by_name(int fd, const char *name)
{
	struct v4l2_query_ext_ctrl q;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	while (!xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q)) {
		if (!strcmp(q.name, name))
			return q.id;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	return 0;
}

/*
 * A capture node: V4L2_EVENT_SOURCE_CHANGE. A loop's output node (which
 * V4L2 gives no SOURCE_CHANGE): the V4L2_EVENT_CTRL of its "Format
 * Requests" control (docs/loopback.md).
 */
static int cmd_event(const char *dev, const char *cmd)
{
	int fd = open_dev(dev), st, r;
	bool out = node_type(fd) == V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_event_subscription sub;
	struct v4l2_event ev;
	struct pollfd p = { .fd = fd, .events = POLLPRI };

	memset(&sub, 0, sizeof(sub));
	sub.type = out ? V4L2_EVENT_CTRL : V4L2_EVENT_SOURCE_CHANGE;
	sub.id = out ? ctrl_by_name(fd, "Format Requests") : 0;
	r = xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
	CHECK(r == 0, "SUBSCRIBE_EVENT(%s): %s", out ? "CTRL 'Format Requests'" : "SOURCE_CHANGE",
	      r ? strerror(-r) : "success");
	st = run_shell(cmd);
	r = poll(&p, 1, 2000);
	memset(&ev, 0, sizeof(ev));
	if (r == 1)
		r = xioctl(fd, VIDIOC_DQEVENT, &ev);
	else
		r = -ETIMEDOUT;
	if (out)
		CHECK(r == 0 && ev.type == V4L2_EVENT_CTRL && ev.id == sub.id &&
		      (ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE),
		      "control event of 'Format Requests' after the command: %s",
		      r ? strerror(-r) : "received");
	else
		CHECK(r == 0 && ev.type == V4L2_EVENT_SOURCE_CHANGE &&
		      (ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION),
		      "SOURCE_CHANGE event with V4L2_EVENT_SRC_CH_RESOLUTION after the command: %s",
		      r ? strerror(-r) : "received");
	close(fd);
	return failures ? 1 : st;
}

/* ---- loops: commands on either side, the buffer type from QUERYCAP ---- */

static __u32 node_type(int fd)
{
	struct v4l2_capability cap;

	memset(&cap, 0, sizeof(cap));
	if (xioctl(fd, VIDIOC_QUERYCAP, &cap))
		return 0;
	return (cap.device_caps & V4L2_CAP_VIDEO_OUTPUT) ? V4L2_BUF_TYPE_VIDEO_OUTPUT
							  : V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

static void fourcc_str(__u32 f, char s[5])
{
	s[0] = f & 0xff;
	s[1] = (f >> 8) & 0xff;
	s[2] = (f >> 16) & 0xff;
	s[3] = (f >> 24) & 0xff;
	s[4] = 0;
}

static void print_fmt(const struct v4l2_format *f)
{
	char s[5];

	fourcc_str(f->fmt.pix.pixelformat, s);
	printf("%ux%u %s %u\n", f->fmt.pix.width, f->fmt.pix.height, s, f->fmt.pix.sizeimage);
}

/* G_FMT, or S_FMT to WxH FOURCC when @size is given. */
static int cmd_fmt(const char *dev, const char *size, const char *fourcc)
{
	int fd = open_dev(dev), r;
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = node_type(fd);
	r = xioctl(fd, VIDIOC_G_FMT, &f);
	if (!r && size) {
		if (sscanf(size, "%ux%u", &f.fmt.pix.width, &f.fmt.pix.height) != 2 ||
		    strlen(fourcc) != 4) {
			fprintf(stderr, "vm-v4l2: fmt: WxH FOURCC expected\n");
			return 2;
		}
		f.fmt.pix.pixelformat = v4l2_fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
		f.fmt.pix.bytesperline = 0;
		f.fmt.pix.sizeimage = 0;
		f.fmt.pix.field = V4L2_FIELD_ANY;
		r = xioctl(fd, VIDIOC_S_FMT, &f);
	}
	if (r) {
		printf("%s: %s\n", size ? "S_FMT" : "G_FMT", strerror(-r));
		return 1;
	}
	print_fmt(&f);
	close(fd);
	return 0;
}

/* S_FMT WxH YUYV on @fd (either direction); the answer in @f. */
static int set_yuyv(int fd, unsigned int w, unsigned int h, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = node_type(fd);
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	return xioctl(fd, VIDIOC_S_FMT, f);
}

/* G_FMT on @fd is WxH. */
static bool fmt_is(int fd, unsigned int w, unsigned int h, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = node_type(fd);
	return !xioctl(fd, VIDIOC_G_FMT, f) && f->fmt.pix.width == w &&
	       f->fmt.pix.height == h;
}

/* A consumer's S_FMT of WxH YUYV on @cap, from a handle of its own. */
static void consumer_asks(const char *cap, unsigned int w, unsigned int h)
{
	struct v4l2_format f;
	int fd = open_dev(cap);

	CHECK(!set_yuyv(fd, w, h, &f) && f.fmt.pix.width == w,
	      "consumer S_FMT %ux%u: %ux%u", w, h, f.fmt.pix.width, f.fmt.pix.height);
	close(fd);
}

/*
 * A producer that set the output node's format holds it until it frees
 * its buffers or closes: a consumer's S_FMT meanwhile is a wish, never
 * the format its REQBUFS allocates for (camerabin's size switches made
 * negcamsink's QBUF fail with EINVAL).
 */
static int cmd_hold_fmt(const char *out, const char *cap)
{
	struct v4l2_requestbuffers rb = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					  .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer vb = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
				  .memory = V4L2_MEMORY_MMAP };
	struct v4l2_format f;
	int o = open_dev(out), p, r;

	CHECK(!set_yuyv(o, 640, 480, &f) && f.fmt.pix.width == 640,
	      "producer S_FMT 640x480: %ux%u", f.fmt.pix.width, f.fmt.pix.height);
	consumer_asks(cap, 320, 240);
	CHECK(fmt_is(o, 640, 480, &f), "producer's G_FMT before its REQBUFS: %ux%u (its own)",
	      f.fmt.pix.width, f.fmt.pix.height);
	/* A prober (GStreamer's v4l2 allocator probe, v4l2-compliance) frees
	 * buffers it never had: the producer's hold stays. */
	p = open_dev(out);
	rb.count = 0;
	r = xioctl(p, VIDIOC_REQBUFS, &rb);
	close(p);
	consumer_asks(cap, 320, 240);
	CHECK(fmt_is(o, 640, 480, &f), "another handle's REQBUFS(0) (%s) releases nothing: %ux%u",
	      strerror(-r), f.fmt.pix.width, f.fmt.pix.height);
	rb.count = 2;
	r = xioctl(o, VIDIOC_REQBUFS, &rb);
	vb.index = 0;
	if (!r)
		r = xioctl(o, VIDIOC_QUERYBUF, &vb);
	CHECK(!r && vb.length == 640 * 480 * 2, "REQBUFS: %s, buffers of %u bytes (640x480 YUYV: %u)",
	      strerror(-r), vb.length, 640 * 480 * 2);
	vb.bytesused = 640 * 480 * 2;
	vb.field = V4L2_FIELD_NONE;
	r = xioctl(o, VIDIOC_QBUF, &vb);
	CHECK(!r, "QBUF of a 640x480 frame: %s", strerror(-r));
	rb.count = 0;
	xioctl(o, VIDIOC_REQBUFS, &rb);
	CHECK(fmt_is(o, 320, 240, &f), "after REQBUFS(0) the consumer's wish is the format: %ux%u",
	      f.fmt.pix.width, f.fmt.pix.height);
	/* Closing lets go too. */
	CHECK(!set_yuyv(o, 640, 480, &f), "producer S_FMT 640x480 again");
	close(o);
	consumer_asks(cap, 320, 240);
	o = open_dev(out);
	CHECK(fmt_is(o, 320, 240, &f), "a closed producer holds nothing: G_FMT %ux%u",
	      f.fmt.pix.width, f.fmt.pix.height);
	close(o);
	printf("hold-fmt: %d failed\n", failures);
	return failures ? 1 : 0;
}

struct lbuf {
	void *mem;
	size_t len;
};

/* REQBUFS @n MMAP buffers and map them; returns the count or -1. */
static int map_bufs(int fd, __u32 type, struct lbuf *b, int n)
{
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer vb;
	int i;

	memset(&rb, 0, sizeof(rb));
	rb.count = n;
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	if (xioctl(fd, VIDIOC_REQBUFS, &rb) || !rb.count)
		return -1;
	n = rb.count > 8 ? 8 : rb.count;
	for (i = 0; i < n; i++) {
		memset(&vb, 0, sizeof(vb));
		vb.type = type;
		vb.memory = V4L2_MEMORY_MMAP;
		vb.index = i;
		if (xioctl(fd, VIDIOC_QUERYBUF, &vb))
			return -1;
		b[i].len = vb.length;
		b[i].mem = mmap(NULL, vb.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				vb.m.offset);
		if (b[i].mem == MAP_FAILED)
			return -1;
	}
	return n;
}

static int qbuf(int fd, __u32 type, int index, __u32 bytesused)
{
	struct v4l2_buffer vb;

	memset(&vb, 0, sizeof(vb));
	vb.type = type;
	vb.memory = V4L2_MEMORY_MMAP;
	vb.index = index;
	vb.bytesused = bytesused;
	return xioctl(fd, VIDIOC_QBUF, &vb);
}

/* Wait up to @ms for a buffer and dequeue it into @vb. */
static int dqbuf(int fd, __u32 type, struct v4l2_buffer *vb, int ms)
{
	struct pollfd p = { .fd = fd, .events = type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? POLLOUT : POLLIN };

	if (poll(&p, 1, ms) <= 0)
		return -ETIMEDOUT;
	if (p.revents & POLLERR)
		return -EIO;
	memset(vb, 0, sizeof(*vb));
	vb->type = type;
	vb->memory = V4L2_MEMORY_MMAP;
	return xioctl(fd, VIDIOC_DQBUF, vb);
}

static int parse_hex4(const char *hex, unsigned char pat[4])
{
	unsigned long v;
	char *end;

	v = strtoul(hex, &end, 16);
	if (*end || strlen(hex) != 8)
		return -1;
	pat[0] = v >> 24;
	pat[1] = v >> 16;
	pat[2] = v >> 8;
	pat[3] = v;
	return 0;
}

static volatile sig_atomic_t stop_now;

static void on_term(int sig)
{
	stop_now = 1;
}

static int cmd_produce(const char *dev, int n, const char *hex, int fps)
{
	int fd = open_dev(dev), nb, i, sent = 0, r;
	__u32 type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	unsigned char pat[4];
	struct lbuf b[8];
	struct v4l2_format f;
	struct timespec t0, next;

	if (parse_hex4(hex, pat) || fps <= 0) {
		fprintf(stderr, "vm-v4l2: produce: HEX is 8 hex digits, FPS > 0\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	memset(&f, 0, sizeof(f));
	f.type = type;
	if (xioctl(fd, VIDIOC_G_FMT, &f)) {
		printf("produce: G_FMT failed: %s\n", strerror(errno));
		return 1;
	}
	nb = map_bufs(fd, type, b, 4);
	if (nb <= 0) {
		printf("produce: REQBUFS/mmap failed: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < nb; i++) {
		size_t k;

		for (k = 0; k + 4 <= f.fmt.pix.sizeimage; k += 4)
			memcpy((char *)b[i].mem + k, pat, 4);
	}
	printf("produce: %s ", dev);
	print_fmt(&f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	for (i = 0; i < nb && (n == 0 || sent < n); i++, sent++)
		if ((r = qbuf(fd, type, i, f.fmt.pix.sizeimage))) {
			printf("produce: QBUF: %s\n", strerror(-r));
			return 1;
		}
	r = xioctl(fd, VIDIOC_STREAMON, &type);
	if (r) {
		printf("produce: STREAMON: %s\n", strerror(-r));
		return 1;
	}
	while (!stop_now && (n == 0 || sent < n)) {
		struct v4l2_buffer vb;

		next.tv_nsec += 1000000000L / fps;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		r = dqbuf(fd, type, &vb, 2000);
		if (r) {
			printf("produce: DQBUF after %d frames: %s\n", sent, strerror(-r));
			return 1;
		}
		r = qbuf(fd, type, vb.index, f.fmt.pix.sizeimage);
		if (r) {
			printf("produce: QBUF: %s\n", strerror(-r));
			return 1;
		}
		sent++;
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	printf("produce: %d frames queued\n", sent);
	close(fd);
	return 0;
}

/* N frames of @pat written whole at 30 fps; the number written, or -1. */
static int write_frames(int fd, const struct v4l2_format *f, const unsigned char *pat, int n)
{
	size_t size = f->fmt.pix.sizeimage, k;
	struct timespec next;
	char *frame = malloc(size);
	int sent;

	if (!frame)
		return -1;
	for (k = 0; k + 4 <= size; k += 4)
		memcpy(frame + k, pat, 4);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (sent = 0; sent < n && !stop_now; sent++) {
		if (write(fd, frame, size) != (ssize_t)size) {
			printf("write-streamon: write %d: %s\n", sent, strerror(errno));
			sent = -1;
			break;
		}
		next.tv_nsec += 1000000000L / 30;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	free(frame);
	return sent;
}

/* A second handle: STREAMON is EBUSY while @dev's first handle streams. */
static int other_handle_busy(const char *dev)
{
	__u32 type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	int fd = open_dev(dev), r = xioctl(fd, VIDIOC_STREAMON, &type);

	close(fd);
	printf("write-streamon: a second handle's STREAMON: %s\n", r ? strerror(-r) : "ok");
	return r == -EBUSY ? 0 : -1;
}

/* What videobuf2 says still holds for a handle that asked for buffers. */
static int reqbufs0_streamon_einval(const char *dev)
{
	__u32 type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_requestbuffers rb;
	int fd = open_dev(dev), r;

	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	r = xioctl(fd, VIDIOC_REQBUFS, &rb);
	if (!r)
		r = xioctl(fd, VIDIOC_STREAMON, &type);
	close(fd);
	printf("write-streamon: REQBUFS(0), then STREAMON: %s\n", r ? strerror(-r) : "ok");
	return r == -EINVAL ? 0 : -1;
}

static int cmd_write_streamon(const char *dev, int n, const char *hex)
{
	int fd = open_dev(dev), round, r, bad = 0;
	__u32 type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_streamparm parm;
	unsigned char pat[4];
	struct v4l2_format f;

	if (parse_hex4(hex, pat) || n <= 0) {
		fprintf(stderr, "vm-v4l2: write-streamon: N > 0, HEX is 8 hex digits\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	memset(&f, 0, sizeof(f));
	f.type = type;
	memset(&parm, 0, sizeof(parm));
	parm.type = type;
	parm.parm.output.timeperframe.numerator = 1;
	parm.parm.output.timeperframe.denominator = 30;
	if (xioctl(fd, VIDIOC_G_FMT, &f) || xioctl(fd, VIDIOC_S_PARM, &parm) ||
	    xioctl(fd, VIDIOC_S_FMT, &f)) {
		printf("write-streamon: G_FMT, S_PARM or S_FMT failed: %s\n", strerror(errno));
		return 1;
	}
	printf("write-streamon: %s ", dev);
	print_fmt(&f);
	for (round = 1; round <= 2 && !stop_now; round++) {
		r = xioctl(fd, VIDIOC_STREAMON, &type);
		printf("write-streamon: round %d: STREAMON with no buffers: %s\n", round,
		       r ? strerror(-r) : "ok");
		if (r)
			return 1;
		if (round == 1 && other_handle_busy(dev))
			bad++;
		r = write_frames(fd, &f, pat, n);
		printf("write-streamon: round %d: %d frames written\n", round, r);
		bad += r != n;
		r = xioctl(fd, VIDIOC_STREAMOFF, &type);
		printf("write-streamon: round %d: STREAMOFF: %s\n", round, r ? strerror(-r) : "ok");
		bad += r != 0;
	}
	close(fd);
	if (reqbufs0_streamon_einval(dev))
		bad++;
	return bad ? 1 : 0;
}

/* One frame judged: its bytesused against the format, its kind. */
static int judge_frame(const struct v4l2_format *f, const struct v4l2_buffer *vb,
		       const unsigned char *mem, const unsigned char *pat, char *kind)
{
	bool compressed = f->fmt.pix.pixelformat == V4L2_PIX_FMT_MJPEG ||
			  f->fmt.pix.pixelformat == V4L2_PIX_FMT_JPEG;
	bool ok = compressed ? vb->bytesused > 0 && vb->bytesused <= f->fmt.pix.sizeimage
			     : vb->bytesused == f->fmt.pix.sizeimage;
	size_t k, last = vb->bytesused >= 4 ? vb->bytesused - 4 : 0;

	*kind = 'g';
	if (pat && vb->bytesused >= 4 && !memcmp(mem, pat, 4) &&
	    !memcmp(mem + (last & ~3u), pat, 4)) {
		*kind = 'P';
		for (k = 0; k + 4 <= vb->bytesused; k += 4096)
			if (memcmp(mem + k, pat, 4))
				*kind = 'g';
	}
	return ok ? 0 : -1;
}

static int cmd_consume(const char *dev, int n, const char *hex)
{
	int fd = open_dev(dev), nb, i, got = 0, bad = 0, order = 0, events = 0, r;
	__u32 type = V4L2_BUF_TYPE_VIDEO_CAPTURE, prev_seq = 0;
	unsigned char pat[4];
	struct v4l2_event_subscription sub;
	struct lbuf b[8];
	struct v4l2_format f;
	long long prev_ts = -1;
	char *kinds = calloc(n + 1, 1);

	if ((hex && parse_hex4(hex, pat)) || n <= 0 || !kinds) {
		fprintf(stderr, "vm-v4l2: consume: N > 0, HEX is 8 hex digits\n");
		return 2;
	}
	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_SOURCE_CHANGE;
	xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
	memset(&f, 0, sizeof(f));
	f.type = type;
	xioctl(fd, VIDIOC_G_FMT, &f);
	nb = map_bufs(fd, type, b, 4);
	if (nb <= 0) {
		printf("consume: REQBUFS/mmap failed: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < nb; i++)
		qbuf(fd, type, i, 0);
	r = xioctl(fd, VIDIOC_STREAMON, &type);
	if (r) {
		printf("consume: STREAMON: %s\n", strerror(-r));
		return 1;
	}
	printf("consume: %s ", dev);
	print_fmt(&f);
	while (got < n) {
		struct v4l2_buffer vb;
		struct v4l2_event ev;
		long long ts;

		r = dqbuf(fd, type, &vb, 5000);
		if (r) {
			printf("consume: DQBUF after %d frames: %s\n", got, strerror(-r));
			break;
		}
		while (!xioctl(fd, VIDIOC_DQEVENT, &ev))
			events++;
		ts = vb.timestamp.tv_sec * 1000000LL + vb.timestamp.tv_usec;
		if (judge_frame(&f, &vb, b[vb.index].mem, hex ? pat : NULL, &kinds[got])) {
			if (bad++ < 5)
				printf("  FAIL: frame %d: bytesused %u, format says %u\n", got,
				       vb.bytesused, f.fmt.pix.sizeimage);
		}
		if ((got && vb.sequence <= prev_seq) || ts <= prev_ts) {
			if (order++ < 5)
				printf("  FAIL: frame %d: sequence %u after %u, timestamp %lld us after %lld\n",
				       got, vb.sequence, prev_seq, ts, prev_ts);
		}
		prev_seq = vb.sequence;
		prev_ts = ts;
		got++;
		qbuf(fd, type, vb.index, 0);
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	close(fd);
	printf("consume: %d of %d frames, %d with a wrong bytesused, %d out of order, %d events\n",
	       got, n, bad, order, events);
	printf("kinds: %s\n", kinds);
	return got == n && !bad && !order ? 0 : 1;
}

/* ---- share ---- */

#define SHARE_MAGIC 0x4e43534800000000ULL	/* "NCSH" */
#define SHARE_PAGE 4096
#define CID_FRAME_COPIES (V4L2_CID_USER_BASE | 0xf104)
#define CID_SHARED_FRAMES (V4L2_CID_USER_BASE | 0xf105)

static long long loop_ctrl(const char *out, unsigned int id)
{
	struct v4l2_control c = { .id = id };
	int fd = open(out, O_RDWR | O_NONBLOCK);
	long long v = -1;

	if (fd >= 0 && !xioctl(fd, VIDIOC_G_CTRL, &c))
		v = c.value;
	if (fd >= 0)
		close(fd);
	return v;
}

/* Producer (a child process): frame k+1 in every page, 30 fps, until killed. */
static int share_produce(const char *out, volatile long *count)
{
	int fd = open_dev(out), nb, r;
	__u32 type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct lbuf b[8];
	struct v4l2_format f;
	struct timespec next;
	uint64_t frame = 0;

	signal(SIGTERM, SIG_DFL);
	memset(&f, 0, sizeof(f));
	f.type = type;
	if (xioctl(fd, VIDIOC_G_FMT, &f) || (nb = map_bufs(fd, type, b, 4)) <= 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct v4l2_buffer vb = { .index = frame < (uint64_t)nb ? frame : 0 };
		size_t k;

		if (frame >= (uint64_t)nb && (r = dqbuf(fd, type, &vb, 3000))) {
			printf("share: producer DQBUF after %llu frames: %s\n",
			       (unsigned long long)frame, strerror(-r));
			return 1;
		}
		for (k = 0; k + 8 <= f.fmt.pix.sizeimage; k += SHARE_PAGE)
			*(volatile uint64_t *)((char *)b[vb.index].mem + k) =
				SHARE_MAGIC | (frame + 1);
		if (qbuf(fd, type, vb.index, f.fmt.pix.sizeimage))
			return 1;
		if (++frame == 1 && xioctl(fd, VIDIOC_STREAMON, &type))
			return 1;
		*count = frame;
		next.tv_nsec += 1000000000L / 30;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

/* The frame number every page of @mem carries, 0 for none, -1 if they differ. */
static long long share_stamp(const unsigned char *mem, size_t used)
{
	uint64_t first = *(const volatile uint64_t *)mem;
	size_t k;

	if ((first & ~0xffffffffULL) != SHARE_MAGIC)
		return 0;
	for (k = SHARE_PAGE; k + 8 <= used; k += SHARE_PAGE)
		if (*(const volatile uint64_t *)(mem + k) != first)
			return -1;
	return first & 0xffffffffULL;
}

struct share_tally {
	int got, stamped, torn, changed, backwards, wrong;
	long long last;
};

/* One frame read: judged, and every 10th held 200 ms and judged again. */
static void share_judge(struct share_tally *t, const struct v4l2_format *f,
			const struct v4l2_buffer *vb, const unsigned char *mem)
{
	long long s = share_stamp(mem, vb->bytesused);

	if (vb->bytesused != f->fmt.pix.sizeimage)
		t->wrong++;
	if (s < 0)
		t->torn++;
	if (s > 0) {
		t->stamped++;
		if (s <= t->last)
			t->backwards++;
		t->last = s;
	}
	if (s > 0 && t->got % 10 == 9) {
		usleep(200000);
		if (share_stamp(mem, vb->bytesused) != s)
			t->changed++;
	}
	t->got++;
}

static int cmd_share(const char *out, const char *cap, int n)
{
	volatile long *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	__u32 type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct share_tally t = { 0 };
	long long sh0, cp0, sh1, cp1;
	long before = 0, during = 0;
	struct lbuf b[8];
	struct v4l2_format f;
	int fd, nb, i, r, status;
	pid_t pid;

	if (count == MAP_FAILED || n <= 0)
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(share_produce(out, count));
	for (i = 0; i < 500 && *count < 5; i++)
		usleep(10000);
	fd = open_dev(cap);
	get_fmt(fd, &f);
	nb = map_bufs(fd, type, b, 4);
	for (i = 0; i < nb; i++)
		qbuf(fd, type, i, 0);
	sh0 = loop_ctrl(out, CID_SHARED_FRAMES);
	cp0 = loop_ctrl(out, CID_FRAME_COPIES);
	if (nb <= 0 || xioctl(fd, VIDIOC_STREAMON, &type)) {
		printf("share: consumer setup failed: %s\n", strerror(errno));
		kill(pid, SIGTERM);
		return 1;
	}
	while (t.got < n) {
		struct v4l2_buffer vb;

		if (t.got == n / 2) {
			before = *count;
			sleep(1);
			during = *count - before;
		}
		r = dqbuf(fd, type, &vb, 5000);
		if (r) {
			printf("share: DQBUF after %d frames: %s\n", t.got, strerror(-r));
			break;
		}
		share_judge(&t, &f, &vb, b[vb.index].mem);
		qbuf(fd, type, vb.index, 0);
	}
	sh1 = loop_ctrl(out, CID_SHARED_FRAMES);
	cp1 = loop_ctrl(out, CID_FRAME_COPIES);
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	close(fd);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	printf("share: %d of %d frames, %d the producer's, %d torn, %d changed while held, "
	       "%d out of order, %d wrong-sized; producer: %ld frames in the 1 s the consumer "
	       "stopped, %ld in all, %s; shared %lld, copied %lld\n",
	       t.got, n, t.stamped, t.torn, t.changed, t.backwards, t.wrong, during,
	       *count, WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? "ran until stopped" :
	       "stopped by itself", sh1 - sh0, cp1 - cp0);
	return t.got == n && t.stamped >= n / 2 && !t.torn && !t.changed &&
	       !t.backwards && !t.wrong && during >= 10 &&
	       WIFSIGNALED(status) && sh0 >= 0 && 2 * (sh1 - sh0) >= t.stamped ? 0 : 1;
}

/* Open, set the current format, allocate, queue, stream, close: @n times. */
static int cmd_cycle(const char *dev, int n)
{
	int i, errs = 0;

	for (i = 0; i < n; i++) {
		int fd = open_dev(dev), nb, k, r;
		__u32 type = node_type(fd);
		struct v4l2_format f;
		struct lbuf b[8];

		memset(&f, 0, sizeof(f));
		f.type = type;
		r = xioctl(fd, VIDIOC_G_FMT, &f);
		if (!r)
			r = xioctl(fd, VIDIOC_S_FMT, &f);
		nb = r ? -1 : map_bufs(fd, type, b, 3);
		for (k = 0; k < nb; k++)
			qbuf(fd, type, k, f.fmt.pix.sizeimage);
		if (nb <= 0 || xioctl(fd, VIDIOC_STREAMON, &type)) {
			if (errs++ < 5)
				printf("  cycle %d: %s\n", i, strerror(errno));
		}
		/* A mapping keeps the file, so the queue, alive: unmap first. */
		for (k = 0; k < nb; k++)
			munmap(b[k].mem, b[k].len);
		close(fd);
	}
	printf("cycle: %d of %d cycles without an error on %s\n", n - errs, n, dev);
	return errs ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "opens"))
		return cmd_opens(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "sfmt-busy"))
		return cmd_sfmt_busy(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "shared-fmt"))
		return cmd_shared_fmt(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "while-streaming"))
		return cmd_while_streaming(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "while-open"))
		return cmd_while_open(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "gone"))
		return cmd_gone(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc == 4 && !strcmp(argv[1], "event"))
		return cmd_event(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "fields"))
		return cmd_fields(argv[2], atoi(argv[3]));
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "fmt"))
		return cmd_fmt(argv[2], argc == 5 ? argv[3] : NULL, argc == 5 ? argv[4] : NULL);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "produce"))
		return cmd_produce(argv[2], atoi(argv[3]), argv[4], argc == 6 ? atoi(argv[5]) : 30);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "consume"))
		return cmd_consume(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if (argc == 5 && !strcmp(argv[1], "share"))
		return cmd_share(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "write-streamon"))
		return cmd_write_streamon(argv[2], atoi(argv[3]), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "cycle"))
		return cmd_cycle(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "hold-fmt"))
		return cmd_hold_fmt(argv[2], argv[3]);
	fprintf(stderr, "usage: vm-v4l2 opens DEV N | sfmt-busy DEV | shared-fmt DEV |\n"
			"       while-streaming DEV CMD | while-open DEV CMD | gone DEV CMD [AFTER] | event DEV CMD |\n"
			"       fields DEV N | fmt DEV [WxH FOURCC] | produce DEV N HEX [FPS] |\n"
			"       consume DEV N [HEX] | write-streamon DEV N HEX | cycle DEV N |\n"
			"       hold-fmt OUT CAP\n");
	return 2;
}
