/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The isochronous stream of the virtual camera (uvc-stream.c): the
 * picture being sent, cut into UVC payloads packet by packet, and where
 * its frames come from (the engine's generator, or a frame source).
 */
#ifndef NEGCAM_UVC_STREAM_H
#define NEGCAM_UVC_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/videodev2.h>

#include "fault.h"

struct nc_uvc_dev;

/* The picture being sent, packet by packet. */
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
	uint64_t start_ns;     /* bus time of the start: the faults' elapsed time counts from it */
	struct negcam_fault_state fstate;
	uint8_t err;           /* the current frame's header ERR bit (fault error) */
	bool unplug;           /* the fault unplug came: the caller detaches the device */
	bool lost;             /* the current frame is dropped: its first payload only */
	/* the faults in force: the profile's, or a control file's (nc_uvc_stream_set_faults) */
	struct negcam_faults faults;
	bool faults_set;       /* @faults replaces the profile's */
	bool faults_new;       /* changed: the next frame's start counts the faults' time anew */
};

/*
 * Where frames come from when not from the engine's generator (a
 * GStreamer sink's buffers): frame @frame_no of format @fmt (the committed
 * one) into @buf (@cap bytes room). Its length, or 0 to skip the frame
 * (none of that format yet). Called from nc_uvc_dev_tick/input.
 */
typedef long (*nc_uvc_frame_fn)(void *ctx, const struct v4l2_pix_format *fmt,
				uint32_t frame_no, uint8_t *buf, uint32_t cap);

/* Start the stream on the committed (else the probed) format at bus time @now_ns. 0 or -errno. */
int nc_uvc_stream_start(struct nc_uvc_dev *dev, uint64_t now_ns);
void nc_uvc_stream_stop(struct nc_uvc_dev *dev);
/* The stream's format, as nc_uvc_stream_start set it. */
const struct v4l2_pix_format *nc_uvc_stream_format(const struct nc_uvc_dev *dev);
/* Its frame interval in nanoseconds (the committed one). */
uint64_t nc_uvc_stream_interval_ns(const struct nc_uvc_dev *dev);
/*
 * Draw the stream's current frame (its number counted from the start)
 * into @buf, @cap bytes room: the frame source's when there is one, else
 * the engine's generator at scene time @t_ns. Its length, or 0 when the
 * frame is skipped. A caller that sends frames itself (the gadget's
 * output queue) then moves on with nc_uvc_stream_next_frame().
 */
long nc_uvc_stream_draw(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *buf, uint32_t cap);
/* The next frame number: the one drawn was sent or skipped. */
void nc_uvc_stream_next_frame(struct nc_uvc_dev *dev);
/*
 * Replace the profile's faults with @f (copied), or give them back (@f
 * NULL), streaming or not: the next frame that starts takes them, their
 * time counted from its start, the frame numbers going on. Kept over
 * stream restarts until the next call.
 */
void nc_uvc_stream_set_faults(struct nc_uvc_dev *dev, const struct negcam_faults *f);
/* Whether the profile's fault unplug has come (the session then detaches the port). */
bool nc_uvc_stream_unplugged(const struct nc_uvc_dev *dev);
/* Fill the packet of the microframe at bus time @t_ns into @out (@cap bytes room); its length. */
uint32_t nc_uvc_stream_packet(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *out, uint32_t cap);

#endif /* NEGCAM_UVC_STREAM_H */
