// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc --gadget UDC: the same camera on a board with a USB device
 * controller ("a board as a USB webcam"). The kernel's usb_f_uvc does the
 * USB side; this file is the program around it:
 *
 *  - make the gadget in configfs from the profile (uvc-gadget-fit.c,
 *    uvc-gadget-configfs.c) and bind it to UDC;
 *  - find the gadget's V4L2 output node, open it (usb_f_uvc connects to
 *    the host only then) and subscribe to its UVC events;
 *  - answer each class request through the device core (nc_uvc_ep0_event
 *    in uvc-gadget-ep0.c: the PROBE/COMMIT and processing-unit handling
 *    of uvc-requests.c);
 *  - on STREAMON (the host chose a streaming alternate setting) set the
 *    output queue to the committed format and feed it the engine's frames
 *    at the committed interval; the queue's own STREAMON completes the
 *    host's SET_INTERFACE; STREAMOFF or a disconnect stops it;
 *  - SIGINT or SIGTERM: unbind and remove the gadget; SIGUSR1 prints the
 *    core's counts and the gadget's (events, frames queued and returned,
 *    the committed format).
 *
 * Only the control plane is tested (through usbip-vudc, which has no
 * isochronous transfers; docs/uvc.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "negcam-uvc.h"
#include "uvc-gadget.h"
#include "uvc-session.h"

#define NBUFS 4

/* The output queue while the host streams. */
struct gstream {
	bool on;
	unsigned int nbufs;
	void *mem[NBUFS];
	uint32_t len[NBUFS];
	bool queued[NBUFS];
	uint64_t next_ns, interval_ns;
	uint64_t frames_queued, frames_done, frames_failed;
};

struct gadget {
	char name[128], node[64];
	int fd;
	bool trace;
	struct nc_uvc_ep0 ep0;
	struct gstream st;
};

static void gadget_name(const char *udc, char *out, size_t len)
{
	snprintf(out, len, "negcam-%s", udc);
}

/* The gadget's video node: the one whose device is a child of the UDC's controller. */
static bool find_node(const char *udc, char *out, size_t len)
{
	char path[PATH_MAX], ctrl[PATH_MAX], dev[PATH_MAX], *slash;
	glob_t gl;
	size_t i;
	bool found = false;

	snprintf(path, sizeof(path), "/sys/class/udc/%s/device", udc);
	if (!realpath(path, ctrl) || glob("/sys/class/video4linux/video*", 0, NULL, &gl))
		return false;
	for (i = 0; i < gl.gl_pathc && !found; i++) {
		snprintf(path, sizeof(path), "%s/device", gl.gl_pathv[i]);
		if (!realpath(path, dev) || !(slash = strrchr(dev, '/')))
			continue;
		*slash = 0;
		if (!strcmp(dev, ctrl)) {
			snprintf(out, len, "/dev/%s", strrchr(gl.gl_pathv[i], '/') + 1);
			found = true;
		}
	}
	globfree(&gl);
	return found;
}

/* An interface number the kernel gave the function (functions/uvc.0/SUB/bInterfaceNumber). */
static uint8_t interface_number(const char *name, const char *sub, uint8_t dflt)
{
	char path[PATH_MAX], rel[64];
	FILE *f;
	unsigned int v;

	snprintf(rel, sizeof(rel), "functions/uvc.0/%s/bInterfaceNumber", sub);
	nc_uvc_gadget_path(NC_GADGET_CONFIGFS, name, rel, path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%u", &v) != 1 || v > 255)
		v = dflt;
	fclose(f);
	return (uint8_t)v;
}

static void print_gadget(const struct gadget *g, const struct nc_uvc_dev *dev)
{
	const struct nc_uvc_gadget_counts *c = &g->ep0.counts;
	const struct nc_uvc_params *p = nc_uvc_dev_committed(dev);
	const struct nc_uvc_format *uf = p ? nc_uvc_params_format(dev, p) : NULL;
	const struct nc_uvc_frame *fr = p ? nc_uvc_params_frame(dev, p) : NULL;

	fprintf(stderr, "negcam-uvc: gadget: %llu setup, %llu data, %llu stalled, %llu connect, "
		"%llu disconnect, %llu streamon, %llu streamoff, %llu frames queued, %llu returned "
		"(%llu with an error); committed: ",
		(unsigned long long)c->setup, (unsigned long long)c->data,
		(unsigned long long)c->stalled, (unsigned long long)c->connect,
		(unsigned long long)c->disconnect, (unsigned long long)c->streamon,
		(unsigned long long)c->streamoff, (unsigned long long)g->st.frames_queued,
		(unsigned long long)g->st.frames_done, (unsigned long long)g->st.frames_failed);
	if (p)
		fprintf(stderr, "%.4s %ux%u interval %u\n", (const char *)&uf->fourcc, fr->width,
			fr->height, p->interval);
	else
		fprintf(stderr, "none\n");
}

static void stream_off(struct gadget *g, struct nc_uvc_dev *dev)
{
	struct gstream *st = &g->st;
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct v4l2_requestbuffers rb = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
	unsigned int i;

	if (st->on)
		ioctl(g->fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < st->nbufs; i++)
		munmap(st->mem[i], st->len[i]);
	if (st->nbufs)
		ioctl(g->fd, VIDIOC_REQBUFS, &rb);
	st->nbufs = 0;
	st->on = false;
	nc_uvc_stream_stop(dev);
}

/* Queue the frames that are due into free buffers. */
static void queue_due(struct gadget *g, struct nc_uvc_dev *dev)
{
	struct gstream *st = &g->st;
	struct v4l2_buffer b;
	uint64_t now = nc_uvc_now_ns();
	unsigned int i;
	long n;

	for (i = 0; i < st->nbufs && now >= st->next_ns; i++) {
		if (st->queued[i])
			continue;
		n = nc_uvc_stream_draw(dev, now, st->mem[i], st->len[i]);
		nc_uvc_stream_next_frame(dev);
		st->next_ns += st->interval_ns;
		if (st->next_ns < now)
			st->next_ns = now + st->interval_ns;
		if (n <= 0)
			continue;
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		b.bytesused = (uint32_t)n;
		if (ioctl(g->fd, VIDIOC_QBUF, &b) < 0) {
			fprintf(stderr, "negcam-uvc: gadget QBUF: %s\n", strerror(errno));
			continue;
		}
		st->queued[i] = true;
		st->frames_queued++;
	}
}

static void dequeue(struct gadget *g)
{
	struct v4l2_buffer b;

	for (;;) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		b.memory = V4L2_MEMORY_MMAP;
		if (ioctl(g->fd, VIDIOC_DQBUF, &b) || b.index >= g->st.nbufs)
			return;
		g->st.queued[b.index] = false;
		g->st.frames_done++;
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			g->st.frames_failed++;
	}
}

/* Set the output queue to the committed format, map its buffers; NULL or the step that failed (errno set). */
static const char *stream_setup(struct gadget *g, struct nc_uvc_dev *dev)
{
	struct gstream *st = &g->st;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct v4l2_requestbuffers rb = { .count = NBUFS, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					  .memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer b;
	unsigned int i;

	/* usb_f_uvc's REQBUFS returns the count (> 0): only a negative answer fails */
	errno = EINVAL;
	if (nc_uvc_stream_start(dev, nc_uvc_now_ns()))
		return "the committed format";
	f.fmt.pix = *nc_uvc_stream_format(dev);
	if (ioctl(g->fd, VIDIOC_S_FMT, &f) < 0)
		return "VIDIOC_S_FMT";
	if (ioctl(g->fd, VIDIOC_REQBUFS, &rb) < 0)
		return "VIDIOC_REQBUFS";
	for (i = 0; i < rb.count && i < NBUFS; i++) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (ioctl(g->fd, VIDIOC_QUERYBUF, &b) < 0)
			return "VIDIOC_QUERYBUF";
		st->mem[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, b.m.offset);
		if (st->mem[i] == MAP_FAILED)
			return "mmap";
		st->len[i] = b.length;
		st->queued[i] = false;
		st->nbufs = i + 1;
	}
	st->interval_ns = nc_uvc_stream_interval_ns(dev);
	st->next_ns = nc_uvc_now_ns();
	return NULL;
}

/* The host chose a streaming alternate setting: feed the output queue, start it. */
static void stream_on(struct gadget *g, struct nc_uvc_dev *dev)
{
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	const struct v4l2_pix_format *fmt = nc_uvc_stream_format(dev);
	const char *failed;

	stream_off(g, dev);
	failed = stream_setup(g, dev);
	if (!failed) {
		queue_due(g, dev);
		if (ioctl(g->fd, VIDIOC_STREAMON, &type) < 0)
			failed = "VIDIOC_STREAMON";
	}
	if (failed) {
		fprintf(stderr, "negcam-uvc: gadget: starting the output queue %.4s %ux%u: %s: %s\n",
			(const char *)&fmt->pixelformat, fmt->width, fmt->height, failed, strerror(errno));
		stream_off(g, dev);
		nc_uvc_dev_set_streaming(dev, false); /* no STREAMOFF event will come, the next COMMIT must pass */
		return;
	}
	g->st.on = true;
	fprintf(stderr, "negcam-uvc: gadget: streaming %.4s %ux%u\n",
		(const char *)&fmt->pixelformat, fmt->width, fmt->height);
}

/* Every pending event: answered, or the stream started or stopped. 0 or -errno. */
static int handle_events(struct gadget *g, struct nc_uvc_dev *dev)
{
	struct v4l2_event ev;
	struct uvc_request_data resp;

	while (!ioctl(g->fd, VIDIOC_DQEVENT, &ev)) {
		switch (nc_uvc_ep0_event(&g->ep0, dev, ev.type, (const struct uvc_event *)ev.u.data, &resp)) {
		case NC_EP0_RESPOND:
			if (ioctl(g->fd, UVCIOC_SEND_RESPONSE, &resp))
				fprintf(stderr, "negcam-uvc: UVCIOC_SEND_RESPONSE: %s\n", strerror(errno));
			break;
		case NC_EP0_STREAMON:
			stream_on(g, dev);
			break;
		case NC_EP0_STREAMOFF:
			stream_off(g, dev);
			break;
		case NC_EP0_NONE:
			break;
		}
		if (g->trace)
			fprintf(stderr, "negcam-uvc: gadget event %u\n", ev.type - UVC_EVENT_FIRST);
	}
	return errno == ENOENT || errno == EAGAIN ? 0 : -errno;
}

/* Open the gadget's node and subscribe to its UVC events; 0 or -1 with a message. */
static int open_node(struct gadget *g, const char *udc)
{
	struct v4l2_event_subscription sub;
	unsigned int t, i;

	for (i = 0; i < 50 && !find_node(udc, g->node, sizeof(g->node)); i++)
		usleep(100000);
	if (i == 50) {
		fprintf(stderr, "negcam-uvc: no video node of the gadget on %s\n", udc);
		return -1;
	}
	g->fd = open(g->node, O_RDWR | O_NONBLOCK);
	if (g->fd < 0) {
		fprintf(stderr, "negcam-uvc: %s: %s\n", g->node, strerror(errno));
		return -1;
	}
	for (t = UVC_EVENT_FIRST; t <= UVC_EVENT_LAST; t++) {
		memset(&sub, 0, sizeof(sub));
		sub.type = t;
		if (ioctl(g->fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0) {
			fprintf(stderr, "negcam-uvc: %s: VIDIOC_SUBSCRIBE_EVENT: %s\n", g->node, strerror(errno));
			return -1;
		}
	}
	g->ep0.vc_intf = interface_number(g->name, "control", 0);
	g->ep0.vs_intf = interface_number(g->name, "streaming", 1);
	return 0;
}

/* The loop: events, the output queue, signals. 0 or -errno. */
static int serve(struct gadget *g, struct nc_uvc_dev *dev)
{
	struct pollfd pfd = { .fd = g->fd };
	struct timespec ts, *tsp;
	uint64_t now, wait;
	int err = 0;

	while (!err && !nc_uvc_stop_signal) {
		if (nc_uvc_counts_asked) {
			nc_uvc_counts_asked = 0;
			nc_uvc_print_counts(dev, "counts");
			print_gadget(g, dev);
		}
		pfd.events = POLLPRI | (g->st.on ? POLLOUT : 0);
		tsp = NULL;
		if (g->st.on) {
			now = nc_uvc_now_ns();
			wait = g->st.next_ns > now ? g->st.next_ns - now : 0;
			ts.tv_sec = (time_t)(wait / 1000000000u);
			ts.tv_nsec = (long)(wait % 1000000000u);
			tsp = &ts;
		}
		if (ppoll(&pfd, 1, tsp, NULL) < 0)
			continue; /* EINTR: a signal */
		if (pfd.revents & POLLPRI)
			err = handle_events(g, dev);
		if (g->st.on && (pfd.revents & POLLOUT))
			dequeue(g);
		if (g->st.on)
			queue_due(g, dev);
	}
	return err;
}

int nc_uvc_gadget_main(struct nc_uvc_dev *dev, const char *udc, bool trace)
{
	struct gadget *g = calloc(1, sizeof(*g));
	char msg[PATH_MAX + 256];
	size_t printed = strlen(dev->desc.warnings); /* main printed the profile's warnings */
	const char *w, *nl;
	int err, ret = 1;

	if (!g)
		return 1;
	g->fd = -1;
	g->trace = trace;
	gadget_name(udc, g->name, sizeof(g->name));
	err = nc_uvc_gadget_fit(dev);
	for (w = dev->desc.warnings + printed; *w && (nl = strchr(w, '\n')); w = nl + 1)
		fprintf(stderr, "negcam-uvc: warning: %.*s\n", (int)(nl - w), w);
	if (err) {
		fprintf(stderr, "negcam-uvc: no format usb_f_uvc carries\n");
		goto out;
	}
	if (nc_uvc_gadget_create(&dev->desc, NC_GADGET_CONFIGFS, g->name, udc, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		if (!strstr(msg, " exists: ") && !nc_uvc_gadget_remove(NC_GADGET_CONFIGFS, g->name, msg, sizeof(msg)))
			fprintf(stderr, "negcam-uvc: the half-made gadget is removed\n");
		goto out;
	}
	if (!open_node(g, udc)) {
		fprintf(stderr, "negcam-uvc: \"%s\" (%04x:%04x) is gadget %s on %s, node %s\n",
			dev->desc.id.name, dev->desc.id.vendor, dev->desc.id.product, g->name, udc, g->node);
		err = serve(g, dev);
		ret = err ? 1 : 0;
		nc_uvc_print_counts(dev, err ? strerror(-err) : "removed");
		print_gadget(g, dev);
	}
	stream_off(g, dev);
	if (g->fd >= 0)
		close(g->fd);
	if (nc_uvc_gadget_remove(NC_GADGET_CONFIGFS, g->name, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		ret = 1;
	}
out:
	free(g);
	return ret;
}

int nc_uvc_gadget_remove_main(const char *udc)
{
	char name[128], msg[PATH_MAX + 256];

	gadget_name(udc, name, sizeof(name));
	if (nc_uvc_gadget_remove(NC_GADGET_CONFIGFS, name, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		return 1;
	}
	fprintf(stderr, "negcam-uvc: gadget %s removed\n", name);
	return 0;
}
