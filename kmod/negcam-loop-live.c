// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops: is a loop's producer live for a capture node? The
 * output node's QBUF marks each producer frame (negcam_loop_mark); a
 * capture node's pacing thread asks until when the producer feeds its
 * stream (negcam_loop_live_until) and draws the placeholder for the slots
 * it leaves. The record (loop->cur_*) is under the loop's flock, a
 * spinlock: nothing here sleeps.
 */
#include <linux/module.h>
#include <linux/ktime.h>

#include "negcam-loop.h"

static unsigned int loop_timeout_ms = 500;
module_param(loop_timeout_ms, uint, 0644);
MODULE_PARM_DESC(loop_timeout_ms,
		 "a producer silent this long (at least 2 of its frame intervals) is replaced by the placeholder (default 500)");

/* How long a producer may be silent before the placeholder takes over. */
static u64 negcam_loop_timeout_ns(const struct negcam_loop *loop)
{
	u64 t = (u64)READ_ONCE(loop_timeout_ms) * NSEC_PER_MSEC;

	return max(t, 2 * loop->cur_ival_ns);
}

/* A producer frame of @fmt fits @cap's stream byte for byte. */
bool negcam_loop_match(const struct v4l2_pix_format *fmt,
		       const struct negcam_dev *cap)
{
	return cap->stream_fmt.field != V4L2_FIELD_ALTERNATE &&
	       negcam_same_frame(fmt, &cap->stream_fmt);
}

/* Under flock: the producer's last frame is recent and of @cap's format. */
static bool negcam_loop_fits(const struct negcam_loop *loop,
			     const struct negcam_dev *cap, u64 now)
{
	return loop->cur_on && now - loop->cur_ns < negcam_loop_timeout_ns(loop) &&
	       negcam_loop_match(&loop->cur_fmt, cap);
}

/*
 * Under flock: @cap started streaming less than the timeout ago, and the
 * producer wrote a frame, or stopped, less than the timeout ago, but not
 * in @cap's format. It was asked for that format (negcam-loop-formats.c) and
 * gets that long to catch up, restart included (STREAMOFF, S_FMT,
 * STREAMON), as a silent producer does, before the placeholder takes the
 * slots: a consumer that switches format (camerabin's photo at its own
 * size, a call adapting its size) pauses rather than shows the test
 * pattern. Until when, or 0.
 */
static u64 negcam_loop_catch_up(const struct negcam_loop *loop,
				const struct negcam_dev *cap, u64 now)
{
	u64 t = negcam_loop_timeout_ns(loop);

	if (!loop->cur_ns || now - loop->cur_ns >= t ||
	    now - cap->loop_start_ns >= t)
		return 0;
	return min(loop->cur_ns, cap->loop_start_ns) + t;
}

/* Note the producer's frame of @fmt queued at @ts (@fmt NULL: it stopped then). */
void negcam_loop_mark(struct negcam_loop *loop,
		      const struct v4l2_pix_format *fmt, u64 ts, u64 ival_ns)
{
	spin_lock(&loop->flock);
	loop->cur_on = fmt != NULL;
	loop->cur_ns = ts;
	if (fmt) {
		loop->cur_fmt = *fmt;
		loop->cur_ival_ns = ival_ns;
	}
	spin_unlock(&loop->flock);
}

/*
 * Capture thread: until when (CLOCK_MONOTONIC ns) the producer feeds this
 * stream, or may still catch up with it, so the placeholder must not fill
 * its slots, or 0 if neither. A producer that stops before then wakes the
 * thread (negcam_loop_out_stop).
 */
u64 negcam_loop_live_until(struct negcam_dev *cap, u64 now)
{
	struct negcam_loop *loop = cap->loop;
	u64 until = 0;

	spin_lock(&loop->flock);
	if (negcam_loop_fits(loop, cap, now))
		until = loop->cur_ns + negcam_loop_timeout_ns(loop);
	else
		until = negcam_loop_catch_up(loop, cap, now);
	spin_unlock(&loop->flock);
	return until;
}

/* A producer streams and its last frame came less than the timeout ago. */
bool negcam_loop_producer_live(struct negcam_loop *loop, u64 now)
{
	bool live;

	spin_lock(&loop->flock);
	live = loop->cur_on && now - loop->cur_ns < negcam_loop_timeout_ns(loop);
	spin_unlock(&loop->flock);
	return live;
}
