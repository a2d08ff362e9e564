// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc: a profile as a USB webcam that the kernel's own uvcvideo
 * driver serves, with no out-of-tree module. The device (uvc-device.h)
 * is attached to vhci-hcd through sysfs with a socket pair
 * (vhci-attach.h); this file is the program around it: the command line,
 * the loop that feeds the host's bytes to the device and sleeps until the
 * next held URB is due, and the signals (SIGINT or SIGTERM detach, and
 * the program ends when the kernel closes the socket; SIGUSR1 prints the
 * request counts, which are printed at exit too). With --gadget UDC the
 * same device core answers a usb_f_uvc gadget's requests instead
 * (negcam-uvc-gadget.c).
 *
 *   negcam-uvc --profile NAME|FILE [--port N] [--trace]
 *   negcam-uvc --profile NAME|FILE --gadget UDC [--trace]
 *   negcam-uvc --gadget UDC --remove
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "negcam-uvc.h"
#include "profile-load.h"
#include "uvc-device.h"
#include "vhci-attach.h"

#define IN_CAP (USBIP_HDR_LEN + USBIP_MAX_OUT_DATA + USBIP_MAX_ISO_PACKETS * USBIP_ISO_DESC_LEN)

static int send_all(void *ctx, const uint8_t *buf, size_t len)
{
	int fd = *(int *)ctx;
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read what the host sent and hand the whole commands to the device. 1 on EOF, <0 on error. */
static int read_input(struct nc_uvc_dev *dev, int fd, uint8_t *buf, size_t *have)
{
	ssize_t n = read(fd, buf + *have, IN_CAP - *have);
	long used;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 1;
	*have += (size_t)n;
	used = nc_uvc_dev_input(dev, buf, *have, now_ns());
	if (used < 0)
		return (int)used;
	memmove(buf, buf + used, *have - (size_t)used);
	*have -= (size_t)used;
	return *have == IN_CAP ? -EPROTO : 0;
}

/* How long to sleep: until the next held URB, 100 ms at most while detaching; NULL: until input. */
static struct timespec *sleep_time(const struct nc_uvc_dev *dev, bool detaching, struct timespec *ts)
{
	uint64_t due = nc_uvc_dev_next_due(dev), now = now_ns(), wait;

	if (due == UINT64_MAX && !detaching)
		return NULL;
	wait = due <= now ? 0 : due - now;
	if (detaching && wait > 100000000u)
		wait = 100000000u;
	ts->tv_sec = (time_t)(wait / 1000000000u);
	ts->tv_nsec = (long)(wait % 1000000000u);
	return ts;
}

/* The loop: 0 when the host or a signal ended it cleanly, else a negative errno. */
static int run(struct nc_uvc_dev *dev, const struct nc_vhci *v)
{
	uint8_t *buf = malloc(IN_CAP);
	size_t have = 0;
	bool detaching = false;
	uint64_t deadline = 0;
	struct pollfd pfd = { .fd = v->fd, .events = POLLIN };
	struct timespec ts;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err) {
		if (counts_asked) {
			counts_asked = 0;
			print_counts(dev, "counts");
		}
		if (stop_signal && !detaching) {
			fprintf(stderr, "negcam-uvc: signal %d: detaching port %d\n", (int)stop_signal, v->port);
			if (nc_vhci_detach(v))
				break;
			detaching = true;
			deadline = now_ns() + 3000000000ull;
		}
		if (detaching && now_ns() > deadline)
			break;
		if (ppoll(&pfd, 1, sleep_time(dev, detaching, &ts), NULL) > 0)
			err = read_input(dev, v->fd, buf, &have);
		if (!err)
			err = nc_uvc_dev_tick(dev, now_ns());
	}
	free(buf);
	return err == 1 ? 0 : err;
}

static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "negcam-uvc: %s\n", why);
	fprintf(stderr, "usage: negcam-uvc --profile NAME|FILE [--port N] [--trace]\n"
		"       negcam-uvc --profile NAME|FILE --gadget UDC [--trace]\n"
		"       negcam-uvc --gadget UDC --remove\n"
		"Serves the profile as a USB Video Class camera on vhci-hcd (root; modprobe vhci-hcd),\n"
		"or as a usb_f_uvc gadget bound to the device controller UDC (root; modprobe\n"
		"libcomposite usb_f_uvc); --remove takes down a gadget a killed run left.\n"
		"SIGINT or SIGTERM detaches it; SIGUSR1 prints the request counts.\n");
	return 2;
}

static void print_attached(const struct nc_uvc_dev *dev, const struct nc_vhci *v)
{
	unsigned int i;

	fprintf(stderr, "negcam-uvc: \"%s\" (%04x:%04x) attached on vhci-hcd port %d, formats",
		dev->desc.id.name, dev->desc.id.vendor, dev->desc.id.product, v->port);
	for (i = 0; i < dev->desc.nformats; i++)
		fprintf(stderr, " %.4s", (const char *)&dev->desc.formats[i].fourcc);
	fprintf(stderr, "\n");
}

/* Load the profile and build the device; 0 or the exit status. */
static int setup(struct nc_uvc_dev *dev, struct negcam_profile *p, const char *spec, int *fd)
{
	char msg[512];

	if (negcam_profile_load(spec, p, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		return 1;
	}
	p->multiplanar = 0; /* UVC has no multiplanar formats: uvcvideo's node is single-planar */
	int err = nc_uvc_dev_init(dev, p, NULL, send_all, fd);
	const char *w = dev->desc.warnings, *nl;

	for (; *w && (nl = strchr(w, '\n')); w = nl + 1)
		fprintf(stderr, "negcam-uvc: warning: %.*s\n", (int)(nl - w), w);
	if (err) {
		fprintf(stderr, "negcam-uvc: profile %s: %s\n", spec,
			err == -EINVAL ? "no format UVC carries" : strerror(-err));
		return 1;
	}
	return 0;
}

/* Attach to vhci-hcd and serve until the host or a signal ends it; the exit status. */
static int vhci_main(struct nc_uvc_dev *dev, int port, int *fd)
{
	struct nc_vhci v;
	char msg[512];
	int err;

	if (nc_vhci_attach(&v, port, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		return 1;
	}
	*fd = v.fd;
	print_attached(dev, &v);
	err = run(dev, &v);
	print_counts(dev, err ? strerror(-err) : "detached");
	close(*fd);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *spec = NULL, *udc = NULL;
	int port = -1, i, err, fd = -1;
	bool trace = false, remove = false;
	struct negcam_profile *p = calloc(1, sizeof(*p));
	struct nc_uvc_dev *dev = calloc(1, sizeof(*dev));

	if (!p || !dev)
		return 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--profile") && i + 1 < argc)
			spec = argv[++i];
		else if (!strcmp(argv[i], "--port") && i + 1 < argc)
			port = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--gadget") && i + 1 < argc)
			udc = argv[++i];
		else if (!strcmp(argv[i], "--remove"))
			remove = true;
		else if (!strcmp(argv[i], "--trace"))
			trace = true;
		else
			return usage(strcmp(argv[i], "--help") ? "unknown argument" : NULL);
	}
	if (remove)
		return udc ? gadget_remove_main(udc) : usage("--remove needs --gadget UDC");
	if (!spec)
		return usage("--profile is required");
	if ((err = setup(dev, p, spec, &fd)))
		return err;
	dev->trace = trace;
	install_signals();
	err = udc ? gadget_main(dev, udc, trace) : vhci_main(dev, port, &fd);
	nc_uvc_dev_free(dev);
	return err;
}
