// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops, frames: the producer's buffers and how its frames
 * cross the loop. The output node's buf_queue (negcam_loop_out_queue)
 * hands the producer's buffer at once, in its QBUF, to every capture node
 * streaming its format: to capture node 0 as the capture buffer that
 * shares its memory when that one is queued (negcam-loop-share.c), else
 * as one copy into the next queued buffer (one copy per consumer, no
 * thread woken), and holds it until the producer's next QBUF. A consumer
 * whose format differs, or whose producer is absent or silent for
 * loop_timeout_ms, gets the generated picture (the placeholder) from its
 * pacing thread at its own format and rate instead (negcam-loop-live.c,
 * negcam-thread.c). No buffer of a wrong size is ever handed to a
 * consumer, and nothing is converted in the kernel. A consumer never gets
 * frames faster than its own interval: one that comes sooner waits for its
 * time and a newer one replaces it (negcam-thread.c, "Pacing"), so a
 * producer catching up on a backlog is not passed on as a burst.
 *
 * This is the loop's frame path, run in every producer QBUF: the
 * producer-live mark (negcam-loop-live.c), the hand-over with capture
 * node 0's spinlock taken once, then the copies for the other consumers;
 * follow mode's narrowing comes after it returns (negcam-loop-formats.c).
 * tests/bench/loop-ab.sh measures a change here against another build
 * (docs/benchmarks.md, section 7).
 */
#include <linux/ktime.h>

#include "negcam-loop.h"

/* Capture node 0's slock, if it still exists (none to exclude if not). */
static void negcam_loop_slock(struct negcam_dev *lead)
	__acquires(&lead->slock)
{
	if (lead)
		spin_lock(&lead->slock);
	else
		__acquire(&lead->slock);	/* for sparse: balanced either way */
}

static void negcam_loop_sunlock(struct negcam_dev *lead)
	__releases(&lead->slock)
{
	if (lead)
		spin_unlock(&lead->slock);
	else
		__release(&lead->slock);
}

/*
 * The loop may hand @buf back to the producer now: its memory is its own,
 * or the consumer's buffer sharing it holds no frame the consumer may be
 * reading. Under capture node 0's slock.
 */
static bool negcam_loop_returnable(const struct negcam_buffer *buf)
{
	return !buf->peer || !buf->peer->lent;
}

/*
 * Producer buffers the loop holds only because the consumer is reading
 * the frame in them (at most NEGCAM_LOOP_MAX_PENDING besides the newest).
 * Under capture node 0's slock.
 */
static unsigned int negcam_loop_pending(struct negcam_loop *loop)
{
	const struct negcam_buffer *buf;
	unsigned int n = 0;

	list_for_each_entry(buf, &loop->held, list)
		n += !negcam_loop_returnable(buf);
	return n;
}

static void negcam_loop_release(struct list_head *back,
				enum vb2_buffer_state state)
{
	struct negcam_buffer *buf, *tmp;

	list_for_each_entry_safe(buf, tmp, back, list) {
		list_del(&buf->list);
		buf->vb.vb2_buf.timestamp = ktime_get_ns();
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

/*
 * The loop takes @newest, the producer's newest frame of @n bytes queued
 * at @now, and holds it. If @share, the frame goes to capture node 0 in
 * the memory they share (negcam-loop-share.c), when that buffer is queued and
 * the loop holds fewer than NEGCAM_LOOP_MAX_PENDING producer buffers for
 * the consumer already. Every other buffer the loop may hand back moves
 * to @back (negcam_loop_returnable); those the consumer still reads
 * follow when it queues them again (negcam_loop_cap_queued). Never
 * @newest itself: a buffer done before its QBUF returns is one
 * v4l2-compliance warns about ("QBUF returned the buffer as DONE").
 * One hold of capture node 0's slock: this is the producer's QBUF, and
 * the consumer wakes inside it. True if the frame went over shared.
 * Under loop->lock.
 */
static bool negcam_loop_hold(struct negcam_loop *loop,
			     struct negcam_buffer *newest, bool share,
			     unsigned long n, u64 now, struct list_head *back)
{
	struct negcam_dev *lead = loop->cap[0];
	struct negcam_buffer *buf, *tmp;
	bool shared = false;

	negcam_loop_slock(lead);
	newest->in_driver = true;
	if (share && newest->peer &&
	    negcam_loop_pending(loop) < NEGCAM_LOOP_MAX_PENDING)
		shared = negcam_deliver_shared_locked(lead, newest->peer, n, now);
	list_for_each_entry_safe(buf, tmp, &loop->held, list) {
		if (negcam_loop_returnable(buf)) {
			buf->in_driver = false;
			list_move_tail(&buf->list, back);
		}
	}
	list_add_tail(&newest->list, &loop->held);
	negcam_loop_sunlock(lead);
	return shared;
}

/*
 * A capture node of the loop was queued @buf (vb2's buf_queue): the driver
 * has it. On capture node 0, the producer's buffer sharing its memory, if
 * any, goes back to the producer in the same hold of the slock when the
 * loop holds it for no other reason (it is not the newest).
 * Under loop->lock.
 */
void negcam_loop_cap_queued(struct negcam_dev *cap, struct negcam_buffer *buf)
{
	struct negcam_loop *loop = cap->loop;
	struct negcam_buffer *o = buf->peer;
	LIST_HEAD(back);

	spin_lock(&cap->slock);
	negcam_buf_enlist(cap, buf);
	if (o && o->in_driver && !list_is_last(&o->list, &loop->held)) {
		o->in_driver = false;
		list_move_tail(&o->list, &back);
	}
	spin_unlock(&cap->slock);
	negcam_loop_release(&back, VB2_BUF_STATE_DONE);
}

/* The producer's frame interval in ns, 0 if it has none. */
static u64 negcam_loop_ival_ns(struct negcam_dev *out)
{
	struct v4l2_fract ival = negcam_engine_interval(&out->engine, NC_OUTPUT);

	if (!ival.denominator)
		return 0;
	return div_u64((u64)ival.numerator * NSEC_PER_SEC, ival.denominator);
}

/* @cap streams frames of @fmt, the producer's format. */
static bool negcam_loop_feeds(struct negcam_dev *cap,
			      const struct v4l2_pix_format *fmt)
{
	return cap && vb2_start_streaming_called(&cap->queue) &&
	       negcam_loop_match(fmt, cap);
}

/* The producer's frame in @vb, @n bytes, copied to @cap: the one copy. */
static void negcam_loop_copy(struct negcam_loop *loop, struct negcam_dev *cap,
			     struct vb2_buffer *vb, unsigned long n, u64 now)
{
	const void *src = vb2_plane_vaddr(vb, 0);

	if (src && negcam_deliver_frame(cap, src, n, now))
		atomic64_inc(&loop->copies);
}

/*
 * The output node's buf_queue, before follow mode narrows to the frame's
 * format (negcam-loop-formats.c): @buf is the producer's newest frame. It is
 * handed at once, in the producer's QBUF, to every capture node that
 * streams its format: as the capture buffer that shares its memory when
 * that one is queued (capture node 0, negcam-loop-share.c), else copied into
 * the next queued buffer (one copy per consumer at most, no thread
 * woken), and done at once unless it comes sooner than that consumer's
 * interval (then its thread hands it back at its time, negcam-thread.c).
 * The capture threads see that the producer is live and draw no
 * placeholder. Under loop->lock (vb2 calls buf_queue with q->lock held),
 * which keeps every capture queue from starting or stopping meanwhile; no
 * spinlock is held across a copy.
 */
void negcam_loop_out_queue(struct negcam_dev *out, struct negcam_buffer *buf)
{
	struct negcam_loop *loop = out->loop;
	const struct v4l2_pix_format *fmt = negcam_engine_fmt(&out->engine, NC_OUTPUT);
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	unsigned long n = vb2_get_plane_payload(vb, 0);
	u64 now = ktime_get_ns();
	bool lead = negcam_loop_feeds(loop->cap[0], fmt);
	unsigned int i;
	LIST_HEAD(back);

	/* Live from now on: the capture threads draw no placeholder. */
	negcam_loop_mark(loop, fmt, now, negcam_loop_ival_ns(out));
	/*
	 * The loop holds @buf from here on: its shared memory is frozen.
	 * Frames before the rest, so that the consumer wakes as early as it
	 * can; narrowing, after, changes no stream that is running.
	 */
	if (negcam_loop_hold(loop, buf, lead, n, now, &back))
		atomic64_inc(&loop->shared);
	else if (lead)
		negcam_loop_copy(loop, loop->cap[0], vb, n, now);
	for (i = 1; i < loop->ncap; i++)
		if (negcam_loop_feeds(loop->cap[i], fmt))
			negcam_loop_copy(loop, loop->cap[i], vb, n, now);
	buf->vb.sequence = loop->out_count++;
	negcam_loop_release(&back, VB2_BUF_STATE_DONE);
}

/*
 * The output node's stop_streaming: the producer is gone; every buffer the
 * loop holds goes back to vb2. Consumers fall back to the placeholder (one
 * that has just started waits for a restart first, negcam-loop-live.c); in
 * follow mode their formats widen again after (negcam-loop-formats.c).
 * Under loop->lock.
 */
void negcam_loop_out_stop(struct negcam_dev *out)
{
	struct negcam_loop *loop = out->loop;
	struct negcam_buffer *buf;
	unsigned int i;
	LIST_HEAD(back);

	negcam_loop_mark(loop, NULL, ktime_get_ns(), 0);
	negcam_loop_slock(loop->cap[0]);
	/* A frame waiting for its time in shared memory goes with it. */
	if (loop->cap[0])
		negcam_ready_drop_locked(loop->cap[0]);
	list_for_each_entry(buf, &loop->held, list)
		buf->in_driver = false;
	list_splice_init(&loop->held, &back);
	negcam_loop_sunlock(loop->cap[0]);
	negcam_loop_release(&back, VB2_BUF_STATE_ERROR);
	loop->out_count = 0;
	/* Their threads sleep while the producer is live: the placeholder now. */
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i] && loop->cap[i]->thread)
			wake_up_process(loop->cap[i]->thread);
}

/*
 * Capture node @cap stops streaming: frames handed over but not dequeued
 * are dropped with the stream, so the producer's buffers they share are
 * free again (negcam-loop-share.c). Under loop->lock.
 */
void negcam_loop_cap_drop(struct negcam_dev *cap)
{
	unsigned int i;

	spin_lock(&cap->slock);
	for (i = 0; i < cap->queue.num_buffers; i++) {
		struct vb2_buffer *vb = cap->queue.bufs[i];

		if (vb && vb->state == VB2_BUF_STATE_DONE)
			to_negcam_buffer(vb)->lent = false;
	}
	spin_unlock(&cap->slock);
}
