/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The virtual USB Video Class camera, as a library: what the device at
 * the far end of a vhci-hcd port does, with no I/O of its own. The
 * caller (the serving session, uvc-session.h, that negcam-uvc and
 * negcamuvcsink run; the host tests) feeds it the bytes the host sent,
 * calls it again at the time it asks for, and carries the bytes it hands
 * to @send back to the host. The parts, each with its own header, all
 * included here:
 *
 *  - usbip-wire.h: the host's USB/IP commands parsed, the answers packed;
 *  - uvc-descriptors.h: the descriptors built from a profile;
 *  - uvc-requests.h: endpoint 0 (standard and UVC class requests);
 *  - uvc-probe-commit.h: PROBE and COMMIT negotiated by the engine's rules;
 *  - uvc-stream.h: isochronous packets filled with payloads of frames from
 *    the engine's generator or a frame source.
 *
 * This header declares the device itself (uvc-device.c): its state, and
 * the functions that dispatch the commands, hold isochronous URBs until
 * their bus time and handle UNLINK. Callers change the device only
 * through functions; they may read its fields.
 *
 * Not thread-safe: one caller at a time.
 */
#ifndef NEGCAM_UVC_DEVICE_H
#define NEGCAM_UVC_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "usbip-wire.h"
#include "uvc-descriptors.h"
#include "uvc-probe-commit.h"
#include "uvc-requests.h"
#include "uvc-stream.h"

#define NC_UVC_MAX_URBS 32  /* isochronous URBs held at once */
#define NC_UVC_EARLY_UNLINKS 8 /* URBs unlinked before their CMD_SUBMIT came, remembered */
#define NC_UVC_MICROFRAME_NS 125000ull

/* An isochronous IN URB held until its bus time. */
struct nc_uvc_urb {
	struct nc_usbip_cmd cmd; /* cmd.data and cmd.iso are not kept */
	uint64_t start_ns, due_ns, uframe_ns;
	uint32_t offset[USBIP_MAX_ISO_PACKETS], length[USBIP_MAX_ISO_PACKETS];
};

struct nc_uvc_counts {
	uint64_t control, probe_set, probe_get, commit_set, commit_get, stalls, iso_urbs, unlinks, frames;
};

/* Where the answers go: 0, or a negative errno that ends the device. */
typedef int (*nc_uvc_send_fn)(void *ctx, const uint8_t *buf, size_t len);

struct nc_uvc_dev {
	const struct negcam_profile *profile;
	struct nc_uvc_desc desc;
	uint8_t config, vs_alt, error_code;
	int16_t pu[NC_UVC_NPU];
	struct nc_uvc_params probe, commit; /* the PROBE and COMMIT controls */
	bool committed;
	struct nc_uvc_stream stream;
	struct nc_uvc_urb urbs[NC_UVC_MAX_URBS]; /* a ring in due order */
	unsigned int urb_head, nurbs;
	uint32_t last_submit; /* the highest CMD_SUBMIT seqnum handled */
	uint32_t early[NC_UVC_EARLY_UNLINKS]; /* seqnums unlinked before submitted (0: none) */
	unsigned int early_next;
	uint64_t bus_ns;  /* the end of the last held URB's microframes */
	uint64_t now_ns;  /* the time of the command being handled */
	uint8_t *out;     /* one answer being built */
	size_t out_cap;
	nc_uvc_send_fn send;
	void *send_ctx;
	struct nc_uvc_counts counts;
	bool trace;       /* one stderr line per control request */
	nc_uvc_frame_fn frame_fn; /* NULL: the engine's generator draws frames */
	void *frame_ctx;
};

/*
 * Build the device for @p (which must outlive it) with @id (NULL: the
 * default identity). 0, -EINVAL (no format UVC carries; see
 * dev->desc.warnings), or -ENOMEM. Free with nc_uvc_dev_free().
 */
int nc_uvc_dev_init(struct nc_uvc_dev *dev, const struct negcam_profile *p,
		    const struct nc_uvc_identity *id, nc_uvc_send_fn send, void *ctx);
void nc_uvc_dev_free(struct nc_uvc_dev *dev);

/* Back to the state of a device just plugged in (descriptors kept): unconfigured, nothing held. */
void nc_uvc_dev_reset(struct nc_uvc_dev *dev);

/*
 * The host sent @len bytes at @buf (time @now_ns, CLOCK_MONOTONIC): handle
 * every whole command in them. Returns the bytes used (the rest is an
 * incomplete command, to be fed again with what follows), or -EPROTO for
 * bytes no vhci-hcd sends, or the send function's error.
 */
long nc_uvc_dev_input(struct nc_uvc_dev *dev, const uint8_t *buf, size_t len, uint64_t now_ns);

/* Answer the URBs whose bus time has come by @now_ns. 0 or the send error. */
int nc_uvc_dev_tick(struct nc_uvc_dev *dev, uint64_t now_ns);

/* When the next held URB is due (CLOCK_MONOTONIC ns), or UINT64_MAX. */
uint64_t nc_uvc_dev_next_due(const struct nc_uvc_dev *dev);

/* The COMMIT the host made, or NULL when none yet. */
const struct nc_uvc_params *nc_uvc_dev_committed(const struct nc_uvc_dev *dev);

/* Frames from @fn (with @ctx) instead of the engine's generator; NULL: the generator again. */
void nc_uvc_dev_set_frame_source(struct nc_uvc_dev *dev, nc_uvc_frame_fn fn, void *ctx);

/* One stderr line per control request (negcam-uvc --trace). */
void nc_uvc_dev_set_trace(struct nc_uvc_dev *dev, bool trace);

/*
 * The host chose the streaming alternate setting (@on) or left it, as a
 * usb_f_uvc gadget's STREAMON and STREAMOFF events tell (on vhci-hcd the
 * core sees SET_INTERFACE itself). While streaming, COMMIT is refused.
 */
void nc_uvc_dev_set_streaming(struct nc_uvc_dev *dev, bool on);

#endif /* NEGCAM_UVC_DEVICE_H */
