// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc: a profile as a USB webcam that the kernel's own uvcvideo
 * driver serves, with no out-of-tree module. The device (uvc-device.h)
 * is attached to vhci-hcd through sysfs with a socket pair
 * (vhci-attach.h) and served by a serving session (uvc-session.h, the
 * loop that feeds the host's bytes to the device and sleeps until the
 * next held URB is due); this file is the program around it: the command
 * line, and the signals, told to the session through its stop hook
 * (SIGINT or SIGTERM detach, and the program ends when the kernel closes
 * the socket; SIGUSR1 prints the request counts, which are printed at
 * exit too; with --faults FILE it also looks at the faults control file,
 * uvc-fault-watch.h, woken every 100 ms by a timer). With --gadget UDC the
 * same device core answers a usb_f_uvc gadget's requests instead
 * (negcam-uvc-gadget.c).
 *
 *   negcam-uvc --profile NAME|FILE [--port N] [--faults FILE] [--trace]
 *   negcam-uvc --profile NAME|FILE --gadget UDC [--trace]
 *   negcam-uvc --gadget UDC --remove
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "negcam-uvc.h"
#include "profile-load.h"
#include "uvc-device.h"
#include "uvc-fault-watch.h"
#include "uvc-session.h"
#include "vhci-attach.h"

/* What the session's stop hook needs. */
struct serving {
	const struct nc_uvc_dev *dev;
	const struct nc_vhci *v;
	struct nc_uvc_fault_watch *watch; /* --faults FILE, or NULL */
};

/* The faults control file looked at (at most every 100 ms); what changed said. */
static void check_faults(const struct serving *s)
{
	char msg[512];
	int r;

	if (!s->watch)
		return;
	r = nc_uvc_fault_watch_poll(s->watch, (struct nc_uvc_dev *)s->dev, nc_uvc_now_ns(),
				    msg, sizeof(msg));
	if (r)
		fprintf(stderr, "negcam-uvc: %s%s\n", msg, r < 0 ? " (faults unchanged)" : "");
}

/*
 * The session's stop hook, once a round: the faults control file; the
 * counts when SIGUSR1 asked for them; true after SIGINT or SIGTERM.
 */
static bool stop_asked(void *ctx)
{
	const struct serving *s = ctx;

	check_faults(s);
	if (nc_uvc_counts_asked) {
		nc_uvc_counts_asked = 0;
		nc_uvc_print_counts(s->dev, "counts");
	}
	if (!nc_uvc_stop_signal)
		return false;
	fprintf(stderr, "negcam-uvc: signal %d: detaching port %d\n", (int)nc_uvc_stop_signal, s->v->port);
	return true;
}

static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "negcam-uvc: %s\n", why);
	fprintf(stderr, "usage: negcam-uvc --profile NAME|FILE [--port N] [--faults FILE] [--trace]\n"
		"       negcam-uvc --profile NAME|FILE --gadget UDC [--trace]\n"
		"       negcam-uvc --gadget UDC --remove\n"
		"Serves the profile as a USB Video Class camera on vhci-hcd (root; modprobe vhci-hcd),\n"
		"or as a usb_f_uvc gadget bound to the device controller UDC (root; modprobe\n"
		"libcomposite usb_f_uvc); --remove takes down a gadget a killed run left.\n"
		"--faults FILE: while FILE exists, its list of faults replaces the profile's\n"
		"(looked at every 100 ms, taken at the next frame; docs/faults.md).\n"
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
	int err = nc_uvc_dev_init(dev, p, NULL, nc_uvc_send_fd, fd);
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

/* With a control file: a timer that wakes the session every 100 ms (its descriptor), else -1. */
static int faults_timer(const struct nc_uvc_fault_watch *watch)
{
	struct itimerspec every = { { 0, NC_UVC_FAULTS_CHECK_NS }, { 0, NC_UVC_FAULTS_CHECK_NS } };
	int fd;

	if (!watch)
		return -1;
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd >= 0 && timerfd_settime(fd, 0, &every, NULL)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		fprintf(stderr, "negcam-uvc: timerfd: %s (the faults file is looked at only "
			"when the host sends)\n", strerror(errno));
	return fd;
}

/* Attach to vhci-hcd and serve until the host or a signal ends it; the exit status. */
static int vhci_main(struct nc_uvc_dev *dev, int port, int *fd, struct nc_uvc_fault_watch *watch)
{
	struct nc_vhci v;
	struct serving s = { dev, &v, watch };
	struct nc_uvc_session_hooks h = { .ctx = &s, .stop = stop_asked, .wake_fd = -1 };
	char msg[512];
	int err;

	if (nc_vhci_attach(&v, port, msg, sizeof(msg))) {
		fprintf(stderr, "negcam-uvc: %s\n", msg);
		return 1;
	}
	*fd = v.fd;
	print_attached(dev, &v);
	h.wake_fd = faults_timer(watch);
	err = nc_uvc_session_run(dev, &v, &h);
	if (h.wake_fd >= 0)
		close(h.wake_fd);
	if (err > 0)
		err = 0; /* the host left: as detached */
	nc_uvc_print_counts(dev, err < 0 ? strerror(-err) :
			    nc_uvc_stream_unplugged(dev) ? "unplugged (fault unplug)" : "detached");
	close(*fd);
	return err ? 1 : 0;
}

/* --faults FILE: watched from now on, its list in force; 0, or 2 when it does not parse (said). */
static int start_watch(struct nc_uvc_fault_watch *w, const char *path, struct nc_uvc_dev *dev)
{
	char msg[512];

	if (!nc_uvc_fault_watch_init(w, path, dev, nc_uvc_now_ns(), msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "negcam-uvc: %s\n", msg);
	return 2;
}

int main(int argc, char **argv)
{
	static struct nc_uvc_fault_watch watch;
	const char *spec = NULL, *udc = NULL, *faults = NULL;
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
		else if (!strcmp(argv[i], "--faults") && i + 1 < argc)
			faults = argv[++i];
		else if (!strcmp(argv[i], "--remove"))
			remove = true;
		else if (!strcmp(argv[i], "--trace"))
			trace = true;
		else
			return usage(strcmp(argv[i], "--help") ? "unknown argument" : NULL);
	}
	if (remove)
		return udc ? nc_uvc_gadget_remove_main(udc) : usage("--remove needs --gadget UDC");
	if (!spec)
		return usage("--profile is required");
	if (faults && udc)
		return usage("--faults is for vhci-hcd: the gadget's stream applies no faults");
	if ((err = setup(dev, p, spec, &fd)))
		return err;
	if (faults && (err = start_watch(&watch, faults, dev)))
		return err;
	nc_uvc_dev_set_trace(dev, trace);
	nc_uvc_install_signals();
	err = udc ? nc_uvc_gadget_main(dev, udc, trace) : vhci_main(dev, port, &fd, faults ? &watch : NULL);
	nc_uvc_dev_free(dev);
	return err;
}
