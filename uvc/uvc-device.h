/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The virtual USB Video Class camera, as a library: what the device at
 * the far end of a vhci-hcd port does, with no I/O of its own. The
 * caller (negcam-uvc's loop, a GStreamer sink later) feeds it the bytes
 * the host sent, calls it again at the time it asks for, and carries the
 * bytes it hands to @send back to the host.
 *
 *  - usbip-wire.c parses the host's USB/IP commands;
 *  - uvc-descriptors.c builds the descriptors from a profile;
 *  - uvc-requests.c answers endpoint 0 (standard and UVC class requests);
 *  - uvc-probe.c negotiates PROBE and COMMIT by the engine's rules;
 *  - uvc-stream.c fills isochronous packets with payloads of frames from
 *    the engine's generator;
 *  - uvc-device.c (this header's functions) dispatches the commands,
 *    holds isochronous URBs until their bus time and handles UNLINK.
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

#define NC_UVC_PROBE_LEN 34 /* the UVC 1.1 probe and commit control */
#define NC_UVC_MAX_URBS 32  /* isochronous URBs held at once */
#define NC_UVC_NPU 4        /* processing-unit controls */
#define NC_UVC_MICROFRAME_NS 125000ull

/* UVC request error codes (VC_REQUEST_ERROR_CODE_CONTROL, UVC 1.1 4.2.1.2). */
enum nc_uvc_error {
	NC_UVC_ERR_NONE = 0,
	NC_UVC_ERR_WRONG_STATE = 2,
	NC_UVC_ERR_OUT_OF_RANGE = 4,
	NC_UVC_ERR_INVALID_UNIT = 5,
	NC_UVC_ERR_INVALID_CONTROL = 6,
	NC_UVC_ERR_INVALID_REQUEST = 7,
	NC_UVC_ERR_INVALID_VALUE = 8,
};

/* The fields of a probe or commit control that the device negotiates. */
struct nc_uvc_params {
	uint16_t hint;
	uint8_t format, frame; /* 1-based */
	uint32_t interval;     /* 100 ns units */
	uint16_t key_frame_rate, p_frame_rate, comp_quality, comp_window, delay;
	uint32_t max_frame, max_payload;
};

/* The picture being sent, packet by packet (uvc-stream.c). */
struct nc_uvc_stream {
	bool on, active;
	uint32_t psize;        /* bytes a microframe carries on the chosen alt */
	struct v4l2_pix_format fmt;
	uint8_t *frame;        /* the drawn frame */
	uint32_t frame_cap, frame_len, off;
	uint8_t fid;
	uint32_t frame_no, prev;
	uint64_t prev_scene, interval_ns, next_ns, pts_ns;
	uint64_t frames;       /* frames completed since the stream started */
};

/* An isochronous IN URB held until its bus time. */
struct nc_uvc_urb {
	struct usbip_cmd cmd; /* cmd.data and cmd.iso are not kept */
	uint64_t start_ns, due_ns, uframe_ns;
	uint32_t offset[USBIP_MAX_ISO_PACKETS], length[USBIP_MAX_ISO_PACKETS];
};

struct nc_uvc_counts {
	uint64_t control, probe_set, probe_get, commit_set, commit_get, stalls, iso_urbs, unlinks, frames;
};

/* Where the answers go: 0, or a negative errno that ends the device. */
typedef int (*nc_uvc_send_fn)(void *ctx, const uint8_t *buf, size_t len);

/*
 * Where frames come from when not from the engine's generator (a
 * GStreamer sink's buffers): frame @frame_no of format @fmt (the committed
 * one) into @buf (@cap bytes room). Its length, or 0 to skip the frame
 * (none of that format yet). Called from nc_uvc_dev_tick/input.
 */
typedef long (*nc_uvc_frame_fn)(void *ctx, const struct v4l2_pix_format *fmt,
				uint32_t frame_no, uint8_t *buf, uint32_t cap);

struct nc_uvc_dev {
	const struct negcam_profile *profile;
	struct nc_uvc_desc desc;
	uint8_t config, vs_alt, error_code;
	int16_t pu[NC_UVC_NPU];
	struct nc_uvc_params probe, commit;
	bool committed;
	struct nc_uvc_stream stream;
	struct nc_uvc_urb urbs[NC_UVC_MAX_URBS]; /* a ring in due order */
	unsigned int urb_head, nurbs;
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

/*
 * Endpoint 0 (uvc-requests.c): answer the request @setup with OUT data
 * @data (@len bytes, wLength of them) or IN data into @in (wLength bytes
 * room). Returns the IN bytes (0 for OUT), or -EPIPE: a stall.
 */
int nc_uvc_control(struct nc_uvc_dev *dev, const uint8_t setup[8], const uint8_t *data,
		   uint32_t len, uint8_t *in);

/* PROBE and COMMIT (uvc-probe.c). */
void nc_uvc_params_pack(const struct nc_uvc_params *s, uint8_t out[NC_UVC_PROBE_LEN]);
void nc_uvc_params_unpack(const uint8_t in[NC_UVC_PROBE_LEN], struct nc_uvc_params *s);
/* The default parameters (GET_DEF), negotiated. */
void nc_uvc_params_default(const struct nc_uvc_dev *dev, struct nc_uvc_params *s);
/*
 * Negotiate @s as the firmware does on SET_CUR: the interval snaps to the
 * nearest the frame has (0 means the frame's default), the sizes follow.
 * With @exact (COMMIT) an interval the frame does not list is refused.
 * 0, or a UVC error code (NC_UVC_ERR_*) for a stall.
 */
int nc_uvc_params_negotiate(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool exact);
/* GET_MIN / GET_MAX of the probe: the current frame at its shortest or longest interval. */
void nc_uvc_params_bound(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool max);
/* The frame of @s (already negotiated). */
const struct nc_uvc_frame *nc_uvc_params_frame(const struct nc_uvc_dev *dev,
					       const struct nc_uvc_params *s);

/* The stream (uvc-stream.c). */
int nc_uvc_stream_start(struct nc_uvc_dev *dev, uint64_t now_ns);
void nc_uvc_stream_stop(struct nc_uvc_dev *dev);
/*
 * Draw frame stream.frame_no of the stream's format (set by
 * nc_uvc_stream_start) into @buf, @cap bytes room: the frame source's
 * when there is one, else the engine's generator at scene time @t_ns.
 * Its length, or 0 when the frame is skipped. The caller advances frame_no.
 */
long nc_uvc_stream_draw(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *buf, uint32_t cap);
/* Fill the packet of the microframe at bus time @t_ns into @out (@cap bytes room); its length. */
uint32_t nc_uvc_stream_packet(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *out, uint32_t cap);

#endif /* NEGCAM_UVC_DEVICE_H */
