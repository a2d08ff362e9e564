/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * One serving session of the virtual camera on vhci-hcd (uvc-session.c):
 * the loop both front ends run, the program negcam-uvc (negcam-uvc.c) and
 * the GStreamer sink negcamuvcsink (gst/negcamuvcsink.c). It owns the I/O
 * between the attached port's socket (vhci-attach.h) and the device core
 * (uvc-device.h): it reads what the host sent and feeds the whole commands
 * to the core, answers the held isochronous URBs when they fall due and
 * sleeps until the next one, and, once told to stop, detaches the port and
 * waits for the host to let go. What differs between the front ends comes
 * through hooks: when to stop, what to do on a new COMMIT, where frames
 * come from, and a lock around the core when other threads use it.
 */
#ifndef NEGCAM_UVC_SESSION_H
#define NEGCAM_UVC_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvc-device.h"
#include "vhci-attach.h"

/* What a front end adds to the session. Every member but ctx may be NULL (or wake_fd -1). */
struct nc_uvc_session_hooks {
	void *ctx; /* the first argument of every hook */
	/*
	 * Asked once a round, before the wait, until it first says true:
	 * true to detach the camera. The front end's own periodic work can go
	 * here (negcam-uvc prints the counts on SIGUSR1). No lock held.
	 */
	bool (*stop)(void *ctx);
	/* The host committed other parameters (format, frame or interval): @c. No lock held. */
	void (*commit)(void *ctx, const struct nc_uvc_params *c);
	/* The frame source while the session runs (NULL: the engine's generator). */
	nc_uvc_frame_fn frame;
	/* Taken around every call into the core, when another thread calls it too. */
	void (*lock)(void *ctx);
	void (*unlock)(void *ctx);
	/* Readable when the front end wants the stop hook asked now (drained), or -1. */
	int wake_fd;
};

/* How a session ended, when not by an error. */
enum nc_uvc_session_end {
	NC_UVC_SESSION_DETACHED = 0,  /* the stop hook asked; the port is detached */
	NC_UVC_SESSION_HOST_LEFT = 1, /* the host closed the connection unasked */
};

/*
 * Serve @dev on the attached port @v (the core built with
 * nc_uvc_send_fd and &v->fd) until the stop hook asks, then detach and
 * wait up to 3 s for the host to close its end. An enum
 * nc_uvc_session_end, or a negative errno (the socket failed, or the host
 * sent bytes no vhci-hcd sends: -EPROTO).
 */
int nc_uvc_session_run(struct nc_uvc_dev *dev, const struct nc_vhci *v,
		       const struct nc_uvc_session_hooks *h);

/* The core's send function (nc_uvc_send_fn) on a socket: @ctx points at its descriptor (an int). */
int nc_uvc_send_fd(void *ctx, const uint8_t *buf, size_t len);

/* CLOCK_MONOTONIC in nanoseconds: the time the session gives the core. */
uint64_t nc_uvc_now_ns(void);

#endif /* NEGCAM_UVC_SESSION_H */
