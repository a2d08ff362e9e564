// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko frame pacing: one kthread per streaming device, in the manner
 * of vivid's kthread-cap. Frame slot k of a stream ends at the absolute
 * time start + (k + 1) * interval; the thread sleeps until the next slot
 * end and then produces the newest slot that has ended. Deadlines are
 * computed from the start, never from the previous wake-up, so lateness
 * never accumulates and the rate is exact over any stretch of time.
 *
 * Two ways to lose a frame, counted apart:
 *  - dropped: a frame was produced but no buffer was queued for it. Its
 *    sequence number is used up, so the application sees the gap, as
 *    V4L2 specifies for dropped frames (sysfs dropped_frames).
 *  - skipped: the thread woke more than a slot late (a stalled machine:
 *    qemu TCG on a busy host stalls for hundreds of ms), so the slots in
 *    between were never produced, as a sensor that was not running
 *    produces nothing. They take no sequence number; the timestamps show
 *    the gap (sysfs skipped_slots).
 *
 * Faults (docs/faults.md): the profile's, copied at STREAMON, decided per
 * slot by the engine (negcam_fault_decide()) from the frame number and the
 * time since the stream started: a dropped frame uses up its sequence
 * number (counted as dropped), an ERROR frame is handed back in
 * VB2_BUF_STATE_ERROR, an MJPEG/H.264 payload is damaged after drawing,
 * the timestamp jumps forward or back (the offset is added after the
 * stamps are made to increase, so a backward jump shows in DQBUF), a stall
 * restarts the deadlines where it ends, a fault rate slower than the
 * stream's paces the slots, an unplug is the simulated unplug's, from a
 * work item (negcam_fault_unplug(); a loop's, negcam-faults.c), a source
 * change to another size is done by negcam-faults.c's work item and the
 * stream then delivers nothing until STREAMOFF. Faults written to configfs
 * while streaming (negcam-faults.c) are taken at the next slot, their time
 * counting from then, frame numbers going on.
 *
 * A capture node of a loop (negcam-loop-frames.c) is handed the producer's
 * frames by the producer's own QBUF (negcam_deliver_frame, one copy into
 * the next queued buffer); its thread only paces the generated picture
 * for the slots no producer frame of its format fills within
 * loop_timeout_ms (the placeholder). Sequence numbers and timestamps run
 * on across both kinds of frame: they are given under dev->slock, in the
 * order buffers are handed back.
 *
 * Pacing, on a loop's capture node: a camera never delivers faster than
 * its interval, so a producer frame is handed back no earlier than the
 * node's last frame plus its stream interval (less 1/64 of it, so that a
 * wait does not carry on: negcam_due_locked). One that comes sooner waits
 * in its buffer as the node's ready buffer, and the thread hands it back
 * when its time comes; a newer frame meanwhile takes its place
 * (latest-frame: a producer catching up on a backlog is never passed on
 * as a burst).
 */
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "negcam.h"
#include "fault.h"
#include "framegen.h"

/* In negcam_fault_state.fired, beside the engine's bits: this node is being
 * unplugged by a fault. */
#define NEGCAM_FAULT_GONE (1u << 31)

/* A loop's capture node paces producer frames to its interval less 1/64. */
#define NEGCAM_PACE_SLACK_SHIFT 6

/* How late the timer may fire, so wake-ups can be batched. */
#define NEGCAM_TIMER_SLACK_NS (100 * NSEC_PER_USEC)

/**
 * struct negcam_clock - a stream's time base
 * @start: CLOCK_MONOTONIC ns where slot 0 begins
 * @num: slot length is @num / @den seconds
 * @den: see @num
 */
struct negcam_clock {
	u64 start;
	u64 num;
	u64 den;
};

static void negcam_clock_set(struct negcam_clock *c, u64 start,
			     struct v4l2_fract ival, bool per_field,
			     const struct negcam_faults *f)
{
	c->start = start;
	/* a fault rate slower than the stream's: its interval instead */
	if ((f->given & (1u << NC_FAULT_RATE)) && ival.denominator &&
	    (u64)f->rate.numerator * ival.denominator >
		    (u64)ival.numerator * f->rate.denominator)
		ival = f->rate;
	if (!ival.numerator || !ival.denominator) {
		ival.numerator = 1;
		ival.denominator = 30;
	}
	c->num = ival.numerator;
	/* V4L2_FIELD_ALTERNATE: each field is a buffer, two per frame. */
	c->den = (u64)ival.denominator * (per_field ? 2 : 1);
}

/* Absolute end of slot @k - 1, i.e. start of slot @k. */
static u64 negcam_clock_at(const struct negcam_clock *c, u64 k)
{
	return c->start + mul_u64_u64_div_u64(k, c->num * NSEC_PER_SEC, c->den);
}

/* Number of slots that have ended at @now. */
static u64 negcam_clock_ended(const struct negcam_clock *c, u64 now)
{
	if (now <= c->start)
		return 0;
	return mul_u64_u64_div_u64(now - c->start, c->den,
				   c->num * NSEC_PER_SEC);
}

/*
 * Draw frame @frame, the scene at @ts (the buffer's timestamp), into
 * @buf. The generator redraws only the changes
 * since the frame the buffer last held, when it is known: only MMAP
 * memory is known, USERPTR and DMABUF memory may have been written by
 * someone else since.
 */
static int negcam_draw(struct negcam_buffer *buf,
		       const struct v4l2_pix_format *fmt, u32 frame, u64 ts,
		       u32 pattern, u32 gen)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	void *vaddr[NC_MAX_PLANES];
	u32 size[NC_MAX_PLANES], used[NC_MAX_PLANES] = { 0 };
	unsigned int n = vb->num_planes, i;
	u32 prev = NC_FRAME_NONE;
	long ret;

	/* an 'M' format on a multiplanar queue: a buffer per plane */
	if (!n || n > NC_MAX_PLANES)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		vaddr[i] = vb2_plane_vaddr(vb, i);
		size[i] = vb2_plane_size(vb, i);
		if (!vaddr[i])
			return -EFAULT;
	}
	if (vb->memory == VB2_MEMORY_MMAP && buf->last_pattern == pattern &&
	    buf->last_gen == gen)
		prev = buf->last_frame;
	buf->last_frame = NC_FRAME_NONE;
	ret = negcam_framegen_draw_planes(fmt, pattern, frame, ts, prev,
					  buf->last_scene_ns, vaddr, size, n, used);
	for (i = 0; i < n; i++)
		vb2_set_plane_payload(vb, i, ret < 0 ? 0 : used[i]);
	if (ret < 0)
		return ret;
	buf->last_frame = frame;
	buf->last_scene_ns = ts;
	buf->last_pattern = pattern;
	buf->last_gen = gen;
	return 0;
}

/*
 * The oldest queued buffer the driver may write, taken off the list, or
 * NULL (a drop). A buffer sharing memory with the producer's is never
 * written here: it waits for the producer's frame (negcam-loop-share.c).
 */
static struct negcam_buffer *negcam_next_buffer(struct negcam_dev *dev,
						u32 *pattern)
{
	struct negcam_buffer *buf;

	spin_lock(&dev->slock);
	list_for_each_entry(buf, &dev->buf_list, list)
		if (negcam_share_writable(buf) && buf != dev->ready)
			break;
	if (list_entry_is_head(buf, &dev->buf_list, list)) {
		buf = NULL;
	} else {
		list_del(&buf->list);
		buf->in_driver = false;
	}
	*pattern = dev->pattern;
	spin_unlock(&dev->slock);
	if (!buf)
		atomic64_inc(&dev->dropped);
	return buf;
}

/*
 * Hand @buf back with sequence @seq at @ts, at least a microsecond (what
 * struct timeval shows) after the last, plus a fault's @jump (which may
 * be negative: the stamp then goes back). On a loop's capture node frames
 * come from two contexts (its thread, the producer's QBUF): the node
 * numbers them itself, in the order they are handed back, so sequence
 * and timestamps increase across both kinds. Under dev->slock so that
 * this order is vb2's done order too.
 */
static void negcam_done_jump_locked(struct negcam_dev *dev,
				    struct negcam_buffer *buf, u32 seq, u64 ts,
				    s64 jump, bool ok)
{
	if (dev->last_ts && ts < dev->last_ts + NSEC_PER_USEC)
		ts = dev->last_ts + NSEC_PER_USEC;
	dev->last_ts = ts;
	buf->vb.sequence = dev->loop ? dev->loop_seq++ : seq;
	buf->vb.vb2_buf.timestamp = jump < 0 && (u64)-jump > ts ? 0 : ts + jump;
	vb2_buffer_done(&buf->vb.vb2_buf,
			ok ? VB2_BUF_STATE_DONE : VB2_BUF_STATE_ERROR);
	atomic64_inc(&dev->frames);
}

/* The same with no fault's jump: the producer's frames of a loop. */
static void negcam_done_locked(struct negcam_dev *dev,
			       struct negcam_buffer *buf, u32 seq, u64 ts,
			       bool ok)
{
	negcam_done_jump_locked(dev, buf, seq, ts, 0, ok);
}

/*
 * Under dev->slock: the earliest time a loop's capture node may hand back
 * its next producer frame: one stream interval after the last frame it
 * handed back, less 1/64 of it (0.5 ms at 30 fps); 0 for at once (no frame
 * yet, or no interval). The 1/64: a producer at the node's own rate whose
 * frame came late once would otherwise keep every later frame waiting by
 * as much (each waits for the one before plus the interval); with it that
 * wait shrinks by 1/64 of an interval a frame, and a producer can never
 * go faster than 64/63 of the node's rate.
 */
static u64 negcam_due_locked(const struct negcam_dev *dev)
{
	struct v4l2_fract iv = dev->stream_ival;
	u64 ns;

	if (!dev->last_ts || !iv.denominator)
		return 0;
	ns = div_u64((u64)iv.numerator * NSEC_PER_SEC, iv.denominator);
	return dev->last_ts + ns - (ns >> NEGCAM_PACE_SLACK_SHIFT);
}

/*
 * Under dev->slock: the node has no ready buffer any more; the one it had
 * stays queued, and memory it shared with a producer's buffer is free for
 * the producer again (negcam-loop-share.c). A newer frame replaced it, or
 * (@dev stops, or its producer's buffers go) nobody will hand it back.
 */
void negcam_ready_drop_locked(struct negcam_dev *dev)
{
	if (!dev->ready)
		return;
	dev->ready->lent = false;
	dev->ready = NULL;
}

/*
 * Under dev->slock: @buf, off the list, holds the producer's newest frame,
 * queued at @ts. It goes back to the consumer now if its time has come
 * (stamped no earlier than that time), else it waits as the node's ready
 * buffer and the thread is woken to hand it back then. Either way it
 * replaces the ready buffer there was.
 */
static void negcam_hand_back_locked(struct negcam_dev *dev,
				    struct negcam_buffer *buf, u64 ts, bool ok)
{
	u64 due = negcam_due_locked(dev);

	dev->fed++;
	negcam_ready_drop_locked(dev);
	if (!ok || ktime_get_ns() >= due) {
		negcam_done_locked(dev, buf, 0, max(ts, due), ok);
		return;
	}
	list_add(&buf->list, &dev->buf_list);
	buf->in_driver = true;
	buf->lent = !negcam_share_writable(buf);
	dev->ready = buf;
	if (dev->thread)
		wake_up_process(dev->thread);
}

/*
 * The node's ready buffer, taken off the list for the newest frame to be
 * copied over it, if its memory is its own; or NULL.
 */
static struct negcam_buffer *negcam_ready_claim(struct negcam_dev *dev)
{
	struct negcam_buffer *buf = NULL;

	spin_lock(&dev->slock);
	if (dev->ready && negcam_share_writable(dev->ready)) {
		buf = dev->ready;
		dev->ready = NULL;
		list_del(&buf->list);
		buf->in_driver = false;
	}
	spin_unlock(&dev->slock);
	return buf;
}

/*
 * The thread: the ready buffer goes back to the consumer, stamped now, if
 * its time has come (it sleeps until then: negcam_ready_deadline).
 */
static void negcam_ready_flush(struct negcam_dev *dev)
{
	struct negcam_buffer *buf;
	u64 now;

	spin_lock(&dev->slock);
	buf = dev->ready;
	now = ktime_get_ns();
	if (buf && now >= negcam_due_locked(dev)) {
		dev->ready = NULL;
		list_del(&buf->list);
		buf->in_driver = false;
		negcam_done_locked(dev, buf, 0, now, true);
	}
	spin_unlock(&dev->slock);
}

/*
 * The thread, about to sleep until @deadline (its state set): sooner if a
 * ready buffer is due then, also one a producer frame made ready since
 * the thread last looked (that producer's wake-up found it awake).
 */
static u64 negcam_ready_deadline(struct negcam_dev *dev, u64 deadline)
{
	u64 due = 0;

	spin_lock(&dev->slock);
	if (dev->ready)
		due = negcam_due_locked(dev);
	spin_unlock(&dev->slock);
	return due && due < deadline ? due : deadline;
}

/*
 * Copy @n bytes of a frame. Whole pages go through copy_page() when both
 * ends are page-aligned (vmalloc'd MMAP buffers always are): the kernel's
 * memcpy() is "rep movsb" on CPUs that report ERMS, and an emulated CPU
 * (qemu TCG, where the loop benchmarks run) executes that one byte per
 * step, several times slower than copy_page()'s 8-byte steps. On real
 * hardware both run at memory speed.
 */
static void negcam_copy(void *to, const void *from, unsigned long n)
{
	unsigned long done = 0;

	if (PAGE_ALIGNED(to) && PAGE_ALIGNED(from))
		for (; done + PAGE_SIZE <= n; done += PAGE_SIZE)
			copy_page(to + done, (void *)from + done);
	memcpy(to + done, from + done, n - done);
}

/*
 * A loop's producer frame @src, @n bytes of the stream's format (checked
 * by the caller), queued at @ts: copied into the ready buffer (replacing
 * the older frame there) or else the next queued buffer, the one copy a
 * consumer costs, and handed back when its time comes (see the head).
 * Called from the output node's buf_queue, under the loop's lock but no
 * spinlock. False when no buffer was queued (a drop, counted as on a
 * plain device).
 */
bool negcam_deliver_frame(struct negcam_dev *dev, const void *src,
			  unsigned long n, u64 ts)
{
	struct negcam_buffer *buf;
	u32 pattern;
	void *to;

	buf = negcam_ready_claim(dev);
	if (!buf)
		buf = negcam_next_buffer(dev, &pattern);
	if (!buf)
		return false;
	to = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);
	n = min_t(unsigned long, n, dev->stream_fmt.sizeimage);
	if (to)
		negcam_copy(to, src, n);
	/* Not the generator's picture any more. */
	buf->last_frame = NC_FRAME_NONE;
	vb2_set_plane_payload(&buf->vb.vb2_buf, 0, to ? n : 0);
	buf->vb.field = dev->stream_fmt.field;
	spin_lock(&dev->slock);
	negcam_hand_back_locked(dev, buf, ts, to != NULL);
	spin_unlock(&dev->slock);
	return to != NULL;
}

/*
 * Hand @buf back as the producer's frame of @n bytes queued at @ts, when
 * its time comes (see the head): its memory is the producer's buffer
 * (negcam-loop-share.c), so nothing is copied. False if @buf is not queued
 * to the driver now (the consumer holds it). Under dev->slock: the loop
 * decides and hands over in one hold of it.
 */
bool negcam_deliver_shared_locked(struct negcam_dev *dev,
				  struct negcam_buffer *buf, unsigned long n,
				  u64 ts)
{
	if (!buf->in_driver || buf == dev->ready)
		return false;
	list_del(&buf->list);
	buf->in_driver = false;
	buf->lent = true;
	buf->last_frame = NC_FRAME_NONE;
	n = min_t(unsigned long, n, dev->stream_fmt.sizeimage);
	vb2_set_plane_payload(&buf->vb.vb2_buf, 0, n);
	buf->vb.field = dev->stream_fmt.field;
	negcam_hand_back_locked(dev, buf, ts, true);
	return true;
}

/*
 * Produce frame @count of the stream (fields for V4L2_FIELD_ALTERNATE),
 * which ended at @ts, into the oldest queued buffer, if any. @fed: the
 * node's count of producer frames (negcam_dev.fed) before the thread saw
 * no producer live. One handed over since is the newer picture: the
 * placeholder then goes back to the queue unseen, so that a consumer
 * never gets one after the producer's frames began.
 */
/* An encoded payload damaged as the faults' @d says. */
static void negcam_fault_apply(struct negcam_dev *dev, struct negcam_buffer *buf,
			       const struct negcam_fault_frame *d)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	void *vaddr = vb2_plane_vaddr(vb, 0);

	if ((d->what & (NC_DO_CORRUPT | NC_DO_TRUNCATE)) && vaddr && vb->num_planes == 1) {
		vb2_set_plane_payload(vb, 0,
				      negcam_fault_damage(d, dev->stream_fmt.pixelformat, vaddr,
							  vb2_get_plane_payload(vb, 0)));
		buf->last_frame = NC_FRAME_NONE; /* not the generator's picture */
	}
}

static void negcam_deliver(struct negcam_dev *dev, u64 count, u64 ts, u32 fed,
			   const struct negcam_fault_frame *d)
{
	const struct v4l2_pix_format *fmt = &dev->stream_fmt;
	bool alternate = fmt->field == V4L2_FIELD_ALTERNATE;
	struct negcam_buffer *buf;
	u32 pattern, seq;
	int ret;

	buf = negcam_next_buffer(dev, &pattern);
	if (!buf)
		return;

	seq = alternate ? (u32)(count / 2) : (u32)count;
	ret = negcam_draw(buf, fmt, seq, ts, pattern, dev->stream_gen);
	if (ret)
		dev_warn_ratelimited(dev->v4l2_dev.dev,
				     "negcam-%u: cannot draw %ux%u %p4cc: %d\n",
				     dev->index, fmt->width, fmt->height,
				     &fmt->pixelformat, ret);
	if (alternate)
		buf->vb.field = (count & 1) ? V4L2_FIELD_BOTTOM : V4L2_FIELD_TOP;
	else
		buf->vb.field = fmt->field;
	negcam_fault_apply(dev, buf, d);
	spin_lock(&dev->slock);
	if (dev->fed == fed) {
		negcam_done_jump_locked(dev, buf, seq, ts, d->ts_offset_ns,
					!ret && !(d->what & NC_DO_ERROR));
	} else {
		list_add(&buf->list, &dev->buf_list);
		buf->in_driver = true;
	}
	spin_unlock(&dev->slock);
}

/* A fault's source change names another size than the stream's. */
static bool negcam_fault_resizes(const struct negcam_dev *dev)
{
	const struct negcam_faults *f = &dev->stream_faults;
	u32 fields = dev->stream_fmt.field == V4L2_FIELD_ALTERNATE ? 2 : 1;

	return f->source_width != dev->stream_fmt.width ||
	       f->source_height != dev->stream_fmt.height * fields;
}

/*
 * While a loop's producer feeds the node no slot is decided, but its
 * unplug comes all the same, at @elapsed_ns.
 */
static void negcam_fault_live(struct negcam_dev *dev, struct negcam_fault_state *st,
			      u64 elapsed_ns)
{
	const struct negcam_faults *f = &dev->stream_faults;

	if ((f->given & (1u << NC_FAULT_UNPLUG)) && elapsed_ns >= f->unplug_ns &&
	    !(st->fired & NEGCAM_FAULT_GONE) && negcam_faults_ask(dev, NC_DO_UNPLUG))
		st->fired |= NEGCAM_FAULT_GONE;
}

/*
 * Slot @ended of the stream: frame *@count delivered, or what the faults
 * decide for it (see the head). True when a stall moved the clock: the
 * next slot ends one interval after the stall. After a fault's unplug
 * (@st says it fired) nothing more is delivered.
 */
static bool negcam_slot(struct negcam_dev *dev, struct negcam_clock *clk, u64 *count,
			u64 ended, u32 fed, struct negcam_fault_state *st, u64 t0,
			struct v4l2_fract ival, bool per_field)
{
	u64 ts = negcam_clock_at(clk, ended);
	u32 frame = per_field ? (u32)(*count / 2) : (u32)*count;
	struct negcam_fault_frame d;

	/* going; or the source changed (negcam-faults.c): held until STREAMOFF */
	if ((st->fired & NEGCAM_FAULT_GONE) || READ_ONCE(dev->kf.held))
		return false;
	negcam_fault_decide(&dev->stream_faults, st, frame, ts - t0, &d);
	if ((d.what & NC_DO_UNPLUG) &&
	    (negcam_fault_unplug(dev) || negcam_faults_ask(dev, NC_DO_UNPLUG))) {
		st->fired |= NEGCAM_FAULT_GONE;
		return false;
	}
	/* another size than the stream's: the format changes, the stream is held */
	if ((d.what & NC_DO_SOURCE_CHANGE) && negcam_fault_resizes(dev) &&
	    negcam_faults_ask(dev, NC_DO_SOURCE_CHANGE))
		return false;
	if (d.what & NC_DO_STALL) {
		negcam_clock_set(clk, t0 + d.stall_until_ns, ival, per_field,
				 &dev->stream_faults);
		return true;
	}
	if (d.what & NC_DO_SKIP) { /* lost: its sequence number is used up */
		(*count)++;
		atomic64_inc(&dev->dropped);
		return false;
	}
	negcam_deliver(dev, (*count)++, ts, fed, &d);
	return false;
}

static void negcam_sleep_until(u64 ns)
{
	ktime_t deadline = ns_to_ktime(ns);

	schedule_hrtimeout_range(&deadline, NEGCAM_TIMER_SLACK_NS,
				 HRTIMER_MODE_ABS);
}

/*
 * A new interval (S_PARM: @resync) or faults switched through configfs
 * since the last turn: the clock goes on from the last slot boundary,
 * *@next counting from it; switched faults' time counts from there too
 * (*@t0), their one-shot faults to come again.
 */
static void negcam_thread_renew(struct negcam_dev *dev, struct negcam_clock *clk, u64 *next,
				struct v4l2_fract ival, bool per_field, bool resync,
				struct negcam_fault_state *st, u64 *t0)
{
	bool refault = negcam_faults_take(dev);

	if (!resync && !refault)
		return;
	negcam_clock_set(clk, negcam_clock_at(clk, *next), ival, per_field,
			 &dev->stream_faults);
	*next = 0;
	if (refault) {
		st->fired &= NEGCAM_FAULT_GONE;
		*t0 = clk->start;
	}
}

static int negcam_thread_fn(void *data)
{
	struct negcam_dev *dev = data;
	bool per_field = dev->stream_fmt.field == V4L2_FIELD_ALTERNATE;
	struct negcam_clock clk;
	struct v4l2_fract ival;
	u64 next = 0;	/* slots up to next - 1 are dealt with */
	u64 count = 0;	/* frames produced: the sequence */
	bool was_live = false;	/* the slots before next were the producer's */
	struct negcam_fault_state st = { 0 };
	u64 t0;

	spin_lock(&dev->slock);
	ival = dev->stream_ival;
	dev->stream_resync = false;
	spin_unlock(&dev->slock);
	negcam_clock_set(&clk, ktime_get_ns(), ival, per_field, &dev->stream_faults);
	t0 = clk.start;
	set_freezable();

	for (;;) {
		u64 ended, now, live_until = 0, deadline;
		bool resync;
		u32 fed;

		try_to_freeze();
		if (kthread_should_stop())
			break;

		spin_lock(&dev->slock);
		resync = dev->stream_resync;
		dev->stream_resync = false;
		ival = dev->stream_ival;
		fed = dev->fed;	/* before the producer check below */
		spin_unlock(&dev->slock);
		negcam_thread_renew(dev, &clk, &next, ival, per_field, resync, &st, &t0);

		negcam_ready_flush(dev);
		now = ktime_get_ns();
		ended = negcam_clock_ended(&clk, now);
		if (negcam_node_has(dev, live_until))
			live_until = dev->ops->live_until(dev, now);
		if (live_until)
			negcam_fault_live(dev, &st, now - t0);
		if (ended > next) {
			/* The placeholder fills the slots a producer leaves. */
			if (!live_until) {
				if (ended - 1 > next && !was_live)
					atomic64_add(ended - 1 - next,
						     &dev->skipped);
				if (negcam_slot(dev, &clk, &count, ended, fed, &st, t0,
						ival, per_field)) {
					next = 0;
					continue;
				}
			}
			next = ended;
		}
		was_live = live_until;

		/* While a producer feeds the node, sleep until it would be late. */
		deadline = max(negcam_clock_at(&clk, next + 1), live_until);
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		/* A producer that stopped since found this thread awake. */
		if (live_until && !dev->ops->live_until(dev, ktime_get_ns()))
			deadline = negcam_clock_at(&clk, next + 1);
		negcam_sleep_until(negcam_ready_deadline(dev, deadline));
	}
	return 0;
}

int negcam_thread_start(struct negcam_dev *dev)
{
	struct task_struct *t;

	if (dev->loop)
		t = kthread_run(negcam_thread_fn, dev, "negcam-l%u-%u",
				dev->index, dev->loop_idx);
	else
		t = kthread_run(negcam_thread_fn, dev, "negcam-%u", dev->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	dev->thread = t;
	return 0;
}

void negcam_thread_stop(struct negcam_dev *dev)
{
	if (dev->thread) {
		kthread_stop(dev->thread);
		dev->thread = NULL;
	}
}
