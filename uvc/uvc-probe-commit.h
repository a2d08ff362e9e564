/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * UVC's PROBE and COMMIT controls (uvc-probe-commit.c): the 34-byte
 * control to and from its fields, and the device's negotiation of them by
 * the engine's rules. "Probe" in uvc/ always means this control.
 */
#ifndef NEGCAM_UVC_PROBE_COMMIT_H
#define NEGCAM_UVC_PROBE_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "uvc-descriptors.h"

#define NC_UVC_PROBE_LEN 34 /* the UVC 1.1 PROBE and COMMIT control */

struct nc_uvc_dev;

/* The fields of a PROBE or COMMIT control that the device negotiates. */
struct nc_uvc_params {
	uint16_t hint;
	uint8_t format, frame; /* 1-based */
	uint32_t interval;     /* 100 ns units */
	uint16_t key_frame_rate, p_frame_rate, comp_quality, comp_window, delay;
	uint32_t max_frame, max_payload;
};

void nc_uvc_params_pack(const struct nc_uvc_params *s, uint8_t out[NC_UVC_PROBE_LEN]);
void nc_uvc_params_unpack(const uint8_t in[NC_UVC_PROBE_LEN], struct nc_uvc_params *s);
/* The default parameters (GET_DEF), negotiated. */
void nc_uvc_params_default(const struct nc_uvc_dev *dev, struct nc_uvc_params *s);
/*
 * Negotiate @s as the firmware does on SET_CUR: the interval snaps to the
 * nearest the frame has (0 means the frame's default), the sizes follow.
 * With @exact (COMMIT) an interval the frame does not list is refused.
 * 0, or a UVC error code (NC_UVC_ERR_*, uvc-requests.h) for a stall.
 */
int nc_uvc_params_negotiate(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool exact);
/* What PROBE answers under the firmware bugs bandwidth-over and max-frame-small. */
#define NC_UVC_BUG_PAYLOAD 4096u
#define NC_UVC_BUG_MAX_FRAME 1024u
/* GET_MIN / GET_MAX of PROBE: the current frame at its shortest or longest interval. */
void nc_uvc_params_bound(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool max);
/* The format and the frame of @s (already negotiated). */
const struct nc_uvc_format *nc_uvc_params_format(const struct nc_uvc_dev *dev,
						 const struct nc_uvc_params *s);
const struct nc_uvc_frame *nc_uvc_params_frame(const struct nc_uvc_dev *dev,
					       const struct nc_uvc_params *s);

#endif /* NEGCAM_UVC_PROBE_COMMIT_H */
