// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops: one output node (the producer writes frames) feeding
 * one to four capture nodes (consumers read them), separate nodes that
 * share a bus_info, platform:negcam-loop-N. docs/loopback.md is the
 * user's description; this is how it is built.
 *
 * Formats. A loop has one profile (loop_profile=, or "follow": any size
 * of a broad raw list). The capture nodes present its capture queue; the
 * output node its output queue, which, when the profile has none, is a
 * copy of the capture queue: the producer is offered exactly what the
 * consumers may ask, and converts in user space. Each node has its own
 * engine, so each consumer has its own format.
 *
 * Negotiation (all under loop->lock, which is vdev->lock and q->lock of
 * every node of the loop, so a node may read and set another's engine):
 *  - a consumer's S_FMT, and its STREAMON, become the output node's format
 *    at once when the producer has no buffers, else it is kept as "wanted"
 *    until the producer's queue is free again; either way, when it differs,
 *    the output node's controls Wanted Width/Height/Pixel Format show it
 *    and Format Requests counts one more (a V4L2_EVENT_CTRL; V4L2 has
 *    SOURCE_CHANGE for receivers only);
 *  - with a profile, while a consumer streams, the newest such consumer
 *    leads: TRY_FMT and S_FMT on the output node answer its format, as a
 *    camera's format is fixed by what is being read; in follow mode the
 *    producer always decides;
 *  - a producer's S_FMT becomes the format of every capture node that has
 *    no buffers, and of the others once they have none; every capture
 *    node whose format differs gets V4L2_EVENT_SOURCE_CHANGE;
 *  - a capture node's ENUM_FMT lists the output node's format first.
 *
 * Follow mode narrows: while the producer streams, every capture node
 * presents a one-format profile built from the producer's format and
 * rate (one fourcc, one discrete size, one interval), so ENUM_*, TRY_FMT,
 * S_FMT and S_PARM answer the producer's format, as v4l2loopback does; a
 * consumer with no format of its own (ffmpeg, v4l2src) takes it. When the
 * producer stops, the whole follow profile is back.
 *
 * Frames. The output node's buf_queue copies the producer's buffer at
 * once into the next queued buffer of every capture node streaming its
 * format (one copy per consumer, in the producer's QBUF) and hands it
 * back to the producer at its next QBUF: no thread is woken. A consumer
 * whose format differs, or whose producer is absent or silent for
 * loop_timeout_ms, gets the generated picture (the placeholder) from its
 * pacing thread at its own format and rate instead. No buffer of a wrong
 * size is ever handed to a consumer, and nothing is converted in the
 * kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/kref.h>
#include <linux/wait.h>
#include <linux/ktime.h>
#include <linux/configfs.h>
#include <linux/kstrtox.h>
#include <media/v4l2-event.h>

#include "negcam.h"
#include "profile.h"

#define NEGCAM_MAX_LOOPS 8
/* The output node's read-only controls that tell the producer (docs/loopback.md). */
#define NEGCAM_CID_FORMAT_REQUESTS (V4L2_CID_USER_BASE | 0xf100)
#define NEGCAM_CID_WANTED_WIDTH (NEGCAM_CID_FORMAT_REQUESTS + 1)
#define NEGCAM_CID_WANTED_HEIGHT (NEGCAM_CID_FORMAT_REQUESTS + 2)
#define NEGCAM_CID_WANTED_FOURCC (NEGCAM_CID_FORMAT_REQUESTS + 3)
#define NEGCAM_CID_FRAME_COPIES (NEGCAM_CID_FORMAT_REQUESTS + 4)
#define NEGCAM_CID_SHARED_FRAMES (NEGCAM_CID_FORMAT_REQUESTS + 5)
#define NEGCAM_LOOP_MAX_CAPTURES 4
#define NEGCAM_LOOP_PDEV "negcam-loop"

static unsigned int loops;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "number of loops, an output node feeding capture nodes (0-8, default 0)");

static unsigned int loop_captures = 1;
module_param(loop_captures, uint, 0444);
MODULE_PARM_DESC(loop_captures, "capture nodes per loop (1-4, default 1)");

static char *loop_profile = "webcam";
module_param(loop_profile, charp, 0444);
MODULE_PARM_DESC(loop_profile,
		 "built-in profile of the loops' capture side, or 'follow' (formats are the producer's; default webcam)");

static unsigned int loop_timeout_ms = 500;
module_param(loop_timeout_ms, uint, 0644);
MODULE_PARM_DESC(loop_timeout_ms,
		 "a producer silent this long (at least 2 of its frame intervals) is replaced by the placeholder (default 500)");

/*
 * follow: the producer may set any of these at any size; the consumers
 * see what it set first (ENUM_FMT index 0, G_FMT), as v4l2loopback does.
 */
static const char negcam_follow_text[] =
	"name follow\n"
	"card \"negcam loop\"\n"
	"adjust nearest\n"
	"default YUYV 640x480 fps 30\n"
	"format YUYV\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format UYVY\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format NV12\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format YU12\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format RGB3\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format BGR3\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format XR24\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format AR24\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format GREY\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"
	"format MJPG\n  size 16x16-3840x2160 step 2x2 fps 1-60\n";

/**
 * struct negcam_loop - an output node and the capture nodes it feeds
 * @ref: one per node struct, one for the loop's own existence
 * @index: N in negcam-loop-N
 * @pdev: platform device negcam-loop.N, parent of every node
 * @lock: vdev->lock and q->lock of every node: serialises every ioctl
 *	and file operation of the loop; guards @out, @cap, @want*, the
 *	nodes' engines, @out_count, @held and @narrow*. Never taken by the pacing
 *	threads.
 * @profile: the loop's profile (kvzalloc'd), shared by the node engines
 * @profile_name: its name as asked ("webcam", "follow")
 * @out: the output node, NULL once removed
 * @cap: the capture nodes, NULL once removed
 * @ncap: number of capture nodes
 * @want: a consumer's format waiting for the producer's queue to be free
 * @want_pending: @want is set
 * @follow: the profile is "follow": the producer decides, never a consumer
 * @starts: counts consumers' STREAMONs (negcam_dev.loop_order)
 * @out_count: sequence of the next output buffer
 * @narrow: follow mode: the one-format profile the capture nodes present
 *	while the producer streams (kvzalloc'd), else NULL
 * @narrowed: the capture nodes present @narrow now
 * @copies: producer frames copied into consumers' buffers since load
 *	(the Frame Copies control)
 * @shared: producer frames handed to capture node 0 in shared memory,
 *	with no copy (the Shared Frames control, negcam-share.c)
 * @held: the producer's buffers the loop holds: the newest, until the
 *	next QBUF or STREAMOFF, and shared ones whose consumer buffer is not
 *	back yet (negcam_loop_give_back)
 * @flock: spinlock for @cur_*; taken by the output node's queue ops and
 *	by the capture threads. Nothing sleeps, copies or calls vb2 under it.
 * @cur_on: the producer streams: @cur_* describe its newest frame
 * @cur_ns: CLOCK_MONOTONIC time that frame was queued
 * @cur_fmt: the output format it was written in
 * @cur_ival_ns: the producer's frame interval then
 */
struct negcam_loop {
	struct kref ref;
	unsigned int index;
	struct platform_device *pdev;
	struct mutex lock;
	struct negcam_profile *profile;
	char profile_name[NC_NAME_LEN];
	struct negcam_dev *out;
	struct negcam_dev *cap[NEGCAM_LOOP_MAX_CAPTURES];
	unsigned int ncap;
	struct v4l2_pix_format want;
	bool want_pending;
	bool follow;
	u64 starts;
	u32 out_count;
	struct negcam_profile *narrow;
	bool narrowed;
	atomic64_t copies;
	atomic64_t shared;
	struct list_head held;

	spinlock_t flock;
	bool cur_on;
	u64 cur_ns;
	struct v4l2_pix_format cur_fmt;
	u64 cur_ival_ns;
};

static struct negcam_loop *negcam_loops[NEGCAM_MAX_LOOPS];
/*
 * A slot stays taken while its loop is being destroyed: the loop's
 * platform device negcam-loop.N is still registered until then, and a new
 * loop taking N would fail on the duplicate sysfs name (the storm found it).
 */
static bool negcam_loops_dying[NEGCAM_MAX_LOOPS];
/* Guards negcam_loops[] and negcam_loops_dying[]: creation and removal. */
static DEFINE_MUTEX(negcam_loops_lock);

/* ---- formats ---- */

/* Same frame layout: a buffer of one fits the other byte for byte. */
static bool negcam_same_frame(const struct v4l2_pix_format *a,
			      const struct v4l2_pix_format *b)
{
	return a->pixelformat == b->pixelformat && a->width == b->width &&
	       a->height == b->height && a->field == b->field &&
	       a->bytesperline == b->bytesperline &&
	       a->sizeimage == b->sizeimage;
}

/* S_FMT on @dev's engine, as if asked on its node; 0 or -errno. */
static int negcam_loop_set(struct negcam_dev *dev,
			   const struct v4l2_pix_format *pix)
{
	struct v4l2_format f = { .fmt.pix = *pix };
	int ret;

	f.type = dev->qi == NC_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
					V4L2_BUF_TYPE_VIDEO_CAPTURE;
	negcam_engine_set_busy(&dev->engine, f.type, vb2_is_busy(&dev->queue));
	ret = negcam_engine_s_fmt(&dev->engine, &f);
	if (!ret)
		dev->fmt_gen++;
	return ret;
}

/* The streaming consumer that leads the format (profile mode), or NULL. */
static struct negcam_dev *negcam_loop_lead(struct negcam_loop *loop)
{
	struct negcam_dev *lead = NULL;
	unsigned int i;

	if (loop->follow)
		return NULL;
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i] && loop->cap[i]->loop_order &&
		    (!lead || loop->cap[i]->loop_order > lead->loop_order))
			lead = loop->cap[i];
	return lead;
}

/* The producer's frame interval. */
static struct v4l2_fract negcam_loop_out_ival(const struct negcam_loop *loop)
{
	return negcam_engine_interval(&loop->out->engine, NC_OUTPUT);
}

/*
 * A capture node with no buffers takes the producer's format (and in
 * follow mode its rate): what its G_FMT and G_PARM answer from now on.
 * Under loop->lock.
 */
static void negcam_loop_take(struct negcam_dev *cap)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	cap->loop_stale = false;
	negcam_loop_set(cap, negcam_engine_fmt(&cap->loop->out->engine, NC_OUTPUT));
	if (!cap->loop->follow)
		return;
	parm.parm.capture.timeperframe = negcam_loop_out_ival(cap->loop);
	negcam_engine_s_parm(&cap->engine, &parm);
}

/*
 * Follow mode, the producer streams: @n becomes a profile of one capture
 * format, the producer's, at one discrete size and one interval. The rest
 * (description, flags, colorimetry, stride) is the follow profile's.
 */
static void negcam_loop_build_narrow(struct negcam_loop *loop,
				     const struct v4l2_pix_format *pix,
				     struct v4l2_fract ival)
{
	const struct negcam_profile *p = loop->profile;
	struct negcam_profile *n = loop->narrow;
	struct negcam_format *f = &n->formats[0];
	unsigned int i;

	memset(n, 0, sizeof(*n));
	memcpy(n->name, p->name, sizeof(n->name));
	memcpy(n->card, p->card, sizeof(n->card));
	n->quirks = p->quirks;
	n->adjust = p->adjust;
	for (i = 0; i < p->nformats; i++)
		if (p->formats[i].buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE &&
		    p->formats[i].fourcc == pix->pixelformat)
			*f = p->formats[i];
	f->fourcc = pix->pixelformat;
	f->buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fields[0] = pix->field;
	f->nfields = 1;
	f->size_kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	f->size_first = 0;
	f->size_count = 1;
	n->nformats = 1;
	n->sizes[0] = (struct negcam_size){
		.min_w = pix->width, .max_w = pix->width,
		.min_h = pix->height, .max_h = pix->height,
		.ival_count = 1, .ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE,
	};
	n->nsizes = 1;
	n->intervals[0].min = ival;
	n->nintervals = 1;
	n->def[NC_CAPTURE] = (struct negcam_default){
		.fourcc = pix->pixelformat, .width = pix->width,
		.height = pix->height, .interval = ival,
	};
}

/* Every capture node presents profile @p (the engine keeps its format). */
static void negcam_loop_present(struct negcam_loop *loop,
				const struct negcam_profile *p)
{
	unsigned int i;

	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i])
			negcam_engine_present(&loop->cap[i]->engine, p);
}

/*
 * Follow mode, at each producer frame: the capture nodes present the
 * producer's format alone (rebuilt when its format or rate changed);
 * those without buffers take it, the others once they have none
 * (negcam_loop_sync). Under loop->lock.
 */
static void negcam_loop_narrow(struct negcam_loop *loop)
{
	const struct v4l2_pix_format *pix = negcam_engine_fmt(&loop->out->engine, NC_OUTPUT);
	struct v4l2_fract ival = negcam_loop_out_ival(loop);
	const struct negcam_default *d = &loop->narrow->def[NC_CAPTURE];
	unsigned int i;

	if (loop->narrowed && d->fourcc == pix->pixelformat &&
	    d->width == pix->width && d->height == pix->height &&
	    loop->narrow->formats[0].fields[0] == pix->field &&
	    d->interval.numerator == ival.numerator &&
	    d->interval.denominator == ival.denominator)
		return;
	negcam_loop_build_narrow(loop, pix, ival);
	negcam_loop_present(loop, loop->narrow);
	loop->narrowed = true;
	for (i = 0; i < loop->ncap; i++) {
		struct negcam_dev *cap = loop->cap[i];

		if (!cap)
			continue;
		if (vb2_is_busy(&cap->queue))
			cap->loop_stale = true;
		else
			negcam_loop_take(cap);
	}
}

/* Follow mode, the producer stopped: the whole profile is back. */
static void negcam_loop_widen(struct negcam_loop *loop)
{
	negcam_loop_present(loop, loop->profile);
	loop->narrowed = false;
}

/*
 * The output node: a consumer's wanted format becomes its format once
 * the producer's queue is free (no buffers).
 */
static void negcam_loop_sync_out(struct negcam_dev *out)
{
	struct negcam_loop *loop = out->loop;
	struct negcam_dev *lead;

	if (vb2_is_busy(&out->queue))
		return;
	lead = negcam_loop_lead(loop);
	if (lead && !negcam_same_frame(negcam_engine_fmt(&out->engine, NC_OUTPUT),
				       negcam_engine_fmt(&lead->engine, NC_CAPTURE)))
		negcam_loop_set(out, negcam_engine_fmt(&lead->engine, NC_CAPTURE));
	else if (!lead && loop->want_pending)
		negcam_loop_set(out, &loop->want);
	loop->want_pending = false;
}

/*
 * Before a node of a loop answers a format question (ENUM_FMT, G_FMT,
 * S_FMT): a format decided on the other side while this node had
 * buffers is taken now that it has none. Under loop->lock.
 */
void negcam_loop_sync(struct negcam_dev *dev)
{
	struct negcam_dev *out = dev->loop->out;

	if (dev->qi == NC_OUTPUT) {
		negcam_loop_sync_out(dev);
		return;
	}
	if (!dev->loop_stale || vb2_is_busy(&dev->queue) || !out)
		return;
	negcam_loop_take(dev);
}

/*
 * Frame Copies: the producer's frames copied into consumers' buffers;
 * Shared Frames: those handed over in shared memory instead.
 */
static int negcam_loop_g_volatile_ctrl(struct v4l2_ctrl *ctrl)
{
	struct negcam_dev *out =
		container_of(ctrl->handler, struct negcam_dev, ctrl_handler);

	atomic64_t *n = ctrl->id == NEGCAM_CID_FRAME_COPIES ?
			&out->loop->copies : &out->loop->shared;

	ctrl->val = atomic64_read(n) & S32_MAX;
	return 0;
}

static const struct v4l2_ctrl_ops negcam_loop_ctrl_ops = {
	.g_volatile_ctrl = negcam_loop_g_volatile_ctrl,
};

/*
 * The output node's controls that tell the producer what the consumers
 * want, whether or not its queue is busy: Format Requests counts the
 * requests (subscribe to its V4L2_EVENT_CTRL), the others hold the last
 * one. Read-only; set by the loop only. Frame Copies counts the copies
 * made of the producer's frames (one per consumer and frame at most),
 * Shared Frames the frames handed over without one.
 */
void negcam_loop_out_ctrls(struct negcam_dev *out)
{
	static const char * const names[] = {
		"Format Requests", "Wanted Width", "Wanted Height",
		"Wanted Pixel Format",
	};
	const struct v4l2_pix_format *pix = negcam_engine_fmt(&out->engine, NC_OUTPUT);
	s64 def[] = { 0, pix->width, pix->height, pix->pixelformat };
	struct v4l2_ctrl_config cfg = {
		.type = V4L2_CTRL_TYPE_INTEGER,
		.max = S32_MAX,
		.step = 1,
		.flags = V4L2_CTRL_FLAG_READ_ONLY,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(out->ctrl_want); i++) {
		cfg.id = NEGCAM_CID_FORMAT_REQUESTS + i;
		cfg.name = names[i];
		cfg.def = def[i];
		out->ctrl_want[i] = v4l2_ctrl_new_custom(&out->ctrl_handler,
							 &cfg, NULL);
	}
	cfg.id = NEGCAM_CID_FRAME_COPIES;
	cfg.name = "Frame Copies";
	cfg.def = 0;
	cfg.ops = &negcam_loop_ctrl_ops;
	cfg.flags |= V4L2_CTRL_FLAG_VOLATILE;
	v4l2_ctrl_new_custom(&out->ctrl_handler, &cfg, NULL);
	cfg.id = NEGCAM_CID_SHARED_FRAMES;
	cfg.name = "Shared Frames";
	v4l2_ctrl_new_custom(&out->ctrl_handler, &cfg, NULL);
}

/* Tell the producer: the wanted format, then one more request (its event). */
static void negcam_loop_tell(struct negcam_dev *out,
			     const struct v4l2_pix_format *want)
{
	struct v4l2_ctrl **c = out->ctrl_want;

	if (!c[0])
		return;
	v4l2_ctrl_s_ctrl(c[1], want->width);
	v4l2_ctrl_s_ctrl(c[2], want->height);
	v4l2_ctrl_s_ctrl(c[3], want->pixelformat & S32_MAX);
	v4l2_ctrl_s_ctrl(c[0], (v4l2_ctrl_g_ctrl(c[0]) + 1) & S32_MAX);
}

/*
 * TRY_FMT and S_FMT on the output node while a consumer leads: the
 * request becomes the leader's format, which the engine then answers
 * (the output queue offers every capture format). Under loop->lock.
 */
void negcam_loop_out_request(struct negcam_dev *out, struct v4l2_format *f)
{
	struct negcam_dev *lead = negcam_loop_lead(out->loop);
	const struct v4l2_pix_format *pix;

	if (!lead)
		return;
	pix = negcam_engine_fmt(&lead->engine, NC_CAPTURE);
	f->fmt.pix.pixelformat = pix->pixelformat;
	f->fmt.pix.width = pix->width;
	f->fmt.pix.height = pix->height;
	f->fmt.pix.field = pix->field;
}

/* A consumer set its format: the producer is asked for it. */
static void negcam_loop_consumer_set(struct negcam_dev *cap)
{
	struct negcam_loop *loop = cap->loop;
	const struct v4l2_pix_format *want = negcam_engine_fmt(&cap->engine, NC_CAPTURE);
	struct negcam_dev *out = loop->out;

	if (!out)
		return;
	if (!vb2_is_busy(&out->queue)) {
		loop->want_pending = false;
		if (negcam_same_frame(negcam_engine_fmt(&out->engine, NC_OUTPUT), want))
			return;
		negcam_loop_set(out, want);
	} else {
		if (negcam_same_frame(negcam_engine_fmt(&out->engine, NC_OUTPUT), want)) {
			loop->want_pending = false;
			return;
		}
		loop->want = *want;
		loop->want_pending = true;
	}
	negcam_loop_tell(out, want);
}

/* The producer set its format: free consumers take it, all are told. */
static void negcam_loop_producer_set(struct negcam_dev *out)
{
	struct negcam_loop *loop = out->loop;
	const struct v4l2_pix_format *fmt = negcam_engine_fmt(&out->engine, NC_OUTPUT);
	struct v4l2_pix_format old;
	unsigned int i;

	loop->want_pending = false;
	for (i = 0; i < loop->ncap; i++) {
		struct negcam_dev *cap = loop->cap[i];

		if (!cap)
			continue;
		old = *negcam_engine_fmt(&cap->engine, NC_CAPTURE);
		cap->loop_stale = vb2_is_busy(&cap->queue);
		if (!cap->loop_stale)
			negcam_loop_set(cap, fmt);
		if (!negcam_same_frame(&old, fmt))
			negcam_vid_source_changed(cap);
	}
}

/* S_FMT succeeded on @dev, a node of a loop. Under loop->lock. */
void negcam_loop_fmt_set(struct negcam_dev *dev)
{
	if (dev->qi == NC_OUTPUT) {
		negcam_loop_producer_set(dev);
		return;
	}
	dev->loop_stale = false;
	negcam_loop_consumer_set(dev);
}

/*
 * A consumer starts streaming: it leads from now on; the producer is asked.
 * Its first producer frame is the next one the producer queues (frames
 * are copied when queued), so a stream's first buffer is not there at
 * once, as on a plain node (a non-blocking read() right after opening
 * answers EAGAIN, which v4l2-compliance's read/write test requires of two
 * opens in a row). Its sequence numbers start from 0 (negcam_done).
 */
void negcam_loop_cap_start(struct negcam_dev *cap)
{
	struct negcam_loop *loop = cap->loop;

	cap->loop_order = ++loop->starts;
	spin_lock(&cap->slock);
	cap->loop_seq = 0;
	spin_unlock(&cap->slock);
	negcam_loop_consumer_set(cap);
}

void negcam_loop_cap_stop(struct negcam_dev *cap)
{
	unsigned int i;

	cap->loop_order = 0;
	/*
	 * Frames handed over but not dequeued are dropped with the stream: the
	 * producer's buffers they share are free again (negcam-share.c).
	 */
	spin_lock(&cap->slock);
	for (i = 0; i < cap->queue.num_buffers; i++) {
		struct vb2_buffer *vb = cap->queue.bufs[i];

		if (vb && vb->state == VB2_BUF_STATE_DONE)
			to_negcam_buffer(vb)->lent = false;
	}
	spin_unlock(&cap->slock);
}

/* Position of @fourcc in the capture list of @e, -1 if absent. */
static int negcam_loop_fmt_index(const struct negcam_engine *e, u32 fourcc)
{
	struct v4l2_fmtdesc d;
	int i;

	for (i = 0; i < NC_MAX_FORMATS; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (negcam_engine_enum_fmt(e, &d))
			return -1;
		if (d.pixelformat == fourcc)
			return i;
	}
	return -1;
}

/*
 * ENUM_FMT of a loop node. A capture node lists the output node's format
 * (what the producer set or was asked for) first, the others in profile
 * order after it. Under loop->lock.
 */
int negcam_loop_enum_fmt(struct negcam_dev *dev, struct v4l2_fmtdesc *f)
{
	struct negcam_loop *loop = dev->loop;
	u32 index = f->index;
	int first, ret;

	negcam_loop_sync(dev);
	if (dev->qi == NC_OUTPUT)
		return negcam_engine_enum_fmt(&dev->engine, f);
	first = loop->out ? negcam_loop_fmt_index(&dev->engine,
				negcam_engine_fmt(&loop->out->engine, NC_OUTPUT)->pixelformat) : -1;
	if (first <= 0 || index > first)
		return negcam_engine_enum_fmt(&dev->engine, f);
	f->index = index == 0 ? first : index - 1;
	ret = negcam_engine_enum_fmt(&dev->engine, f);
	f->index = index;
	return ret;
}

/* ---- frames ---- */

/* How long a producer may be silent before the placeholder takes over. */
static u64 negcam_loop_timeout_ns(const struct negcam_loop *loop)
{
	u64 t = (u64)READ_ONCE(loop_timeout_ms) * NSEC_PER_MSEC;

	return max(t, 2 * loop->cur_ival_ns);
}

/* A producer frame of @fmt fits @cap's stream byte for byte. */
static bool negcam_loop_match(const struct v4l2_pix_format *fmt,
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

/* Note the producer's frame of @fmt queued at @ts (@fmt NULL: it stopped). */
static void negcam_loop_mark(struct negcam_loop *loop,
			     const struct v4l2_pix_format *fmt, u64 ts,
			     u64 ival_ns)
{
	spin_lock(&loop->flock);
	loop->cur_on = fmt != NULL;
	if (fmt) {
		loop->cur_ns = ts;
		loop->cur_fmt = *fmt;
		loop->cur_ival_ns = ival_ns;
	}
	spin_unlock(&loop->flock);
}

/* ---- the producer's buffers ---- */

/* @dev's MMAP memory goes through negcam_share_memops. */
bool negcam_loop_shares(const struct negcam_dev *dev)
{
	return dev->loop && (dev->qi == NC_OUTPUT || dev->loop_idx == 0);
}

static void negcam_loop_slock(struct negcam_dev *lead)
{
	if (lead)
		spin_lock(&lead->slock);
}

static void negcam_loop_sunlock(struct negcam_dev *lead)
{
	if (lead)
		spin_unlock(&lead->slock);
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
 * the memory they share (negcam-share.c), when that buffer is queued and
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
 * The output node's buf_queue: @buf is the producer's newest frame. It is
 * handed at once, in the producer's QBUF, to every capture node that
 * streams its format: as the capture buffer that shares its memory when
 * that one is queued (capture node 0, negcam-share.c), else copied into
 * the next queued buffer (one copy per consumer at most, no thread
 * woken). The capture threads see that the producer is live and draw no
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
	 * can; narrowing changes no stream that is running.
	 */
	if (negcam_loop_hold(loop, buf, lead, n, now, &back))
		atomic64_inc(&loop->shared);
	else if (lead)
		negcam_loop_copy(loop, loop->cap[0], vb, n, now);
	for (i = 1; i < loop->ncap; i++)
		if (negcam_loop_feeds(loop->cap[i], fmt))
			negcam_loop_copy(loop, loop->cap[i], vb, n, now);
	if (loop->follow)
		negcam_loop_narrow(loop);
	buf->vb.sequence = loop->out_count++;
	negcam_loop_release(&back, VB2_BUF_STATE_DONE);
}

/*
 * The output node's stop_streaming: the producer is gone; every buffer the
 * loop holds goes back to vb2. Consumers fall back to the placeholder, and
 * in follow mode their formats widen again.
 */
void negcam_loop_out_stop(struct negcam_dev *out)
{
	struct negcam_loop *loop = out->loop;
	struct negcam_buffer *buf;
	unsigned int i;
	LIST_HEAD(back);

	negcam_loop_mark(loop, NULL, 0, 0);
	negcam_loop_slock(loop->cap[0]);
	list_for_each_entry(buf, &loop->held, list)
		buf->in_driver = false;
	list_splice_init(&loop->held, &back);
	negcam_loop_sunlock(loop->cap[0]);
	negcam_loop_release(&back, VB2_BUF_STATE_ERROR);
	loop->out_count = 0;
	if (loop->follow)
		negcam_loop_widen(loop);
	/* Their threads sleep while the producer is live: the placeholder now. */
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i] && loop->cap[i]->thread)
			wake_up_process(loop->cap[i]->thread);
}

/*
 * Capture thread: until when (CLOCK_MONOTONIC ns) the producer feeds this
 * stream, so the placeholder must not fill its slots, or 0 if it does not
 * now. A producer that stops before then wakes the thread
 * (negcam_loop_out_stop).
 */
u64 negcam_loop_live_until(struct negcam_dev *cap, u64 now)
{
	struct negcam_loop *loop = cap->loop;
	u64 until = 0;

	spin_lock(&loop->flock);
	if (negcam_loop_fits(loop, cap, now))
		until = loop->cur_ns + negcam_loop_timeout_ns(loop);
	spin_unlock(&loop->flock);
	return until;
}

/* ---- creation and removal ---- */

/*
 * The loop's profile: @name's text, with the capture queue copied to the
 * output queue when the profile has none (the producer is offered what
 * the consumers may ask).
 */
static int negcam_loop_profile(struct negcam_loop *loop, const char *name)
{
	const struct negcam_builtin *b = NULL;
	struct negcam_parse_error *err;
	struct negcam_profile *p;
	const char *text;
	unsigned int i, n;
	int ret;

	if (strcmp(name, "follow")) {
		b = negcam_builtin_find(name);
		if (!b) {
			pr_err("loop %u: no built-in profile '%s'\n",
			       loop->index, name);
			return -EINVAL;
		}
	}
	text = b ? b->text : negcam_follow_text;
	p = kvzalloc(sizeof(*p), GFP_KERNEL);
	err = kzalloc(sizeof(*err), GFP_KERNEL);
	ret = -ENOMEM;
	if (!p || !err)
		goto out;
	ret = negcam_profile_parse(p, text, strlen(text), err);
	if (ret) {
		pr_err("loop %u: profile '%s': line %u, column %u: %s\n",
		       loop->index, name, err->line, err->column, err->message);
		goto out;
	}
	ret = -EINVAL;
	n = p->nformats;
	if (!p->def[NC_CAPTURE].fourcc) {
		pr_err("loop %u: profile '%s' has no capture format\n",
		       loop->index, name);
		goto out;
	}
	if (!p->def[NC_OUTPUT].fourcc) {
		if (2 * n > NC_MAX_FORMATS) {
			pr_err("loop %u: profile '%s': too many formats to offer them on the output node\n",
			       loop->index, name);
			goto out;
		}
		for (i = 0; i < n; i++) {
			struct negcam_format *f = &p->formats[p->nformats];

			if (p->formats[i].buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
				continue;
			*f = p->formats[i];
			f->buf_type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
			f->flags &= ~(V4L2_FMT_FLAG_CSC_COLORSPACE |
				      V4L2_FMT_FLAG_CSC_YCBCR_ENC |
				      V4L2_FMT_FLAG_CSC_QUANTIZATION |
				      V4L2_FMT_FLAG_CSC_XFER_FUNC);
			p->nformats++;
		}
		p->def[NC_OUTPUT] = p->def[NC_CAPTURE];
	}
	if (!b) {
		loop->narrow = kvzalloc(sizeof(*loop->narrow), GFP_KERNEL);
		ret = -ENOMEM;
		if (!loop->narrow)
			goto out;
	}
	strscpy(loop->profile_name, name, sizeof(loop->profile_name));
	loop->follow = !b;
	loop->profile = p;
	p = NULL;
	ret = 0;
out:
	kfree(err);
	kvfree(p);
	return ret;
}

static void negcam_loop_free(struct kref *ref)
{
	struct negcam_loop *loop = container_of(ref, struct negcam_loop, ref);

	kvfree(loop->profile);
	kvfree(loop->narrow);
	mutex_destroy(&loop->lock);
	kfree(loop);
}

/* Last reference to a node gone (its last file handle closed). */
static void negcam_loop_node_release(struct v4l2_device *v4l2_dev)
{
	struct negcam_dev *dev =
		container_of(v4l2_dev, struct negcam_dev, v4l2_dev);
	struct negcam_loop *loop = dev->loop;

	negcam_vid_free(dev);
	v4l2_device_unregister(&dev->v4l2_dev);
	mutex_destroy(&dev->lock);
	kfree(dev);
	kref_put(&loop->ref, negcam_loop_free);
}

/* Create and register a node of @loop: output (@qi NC_OUTPUT) or capture @m. */
static struct negcam_dev *negcam_loop_node(struct negcam_loop *loop, int qi,
					   unsigned int m)
{
	struct negcam_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->index = loop->index;
	dev->loop = loop;
	dev->loop_idx = m;
	dev->qi = qi;
	mutex_init(&dev->lock);
	dev->vlock = &loop->lock;
	spin_lock_init(&dev->slock);
	INIT_LIST_HEAD(&dev->buf_list);
	if (qi == NC_OUTPUT)
		snprintf(dev->card, sizeof(dev->card), "negcam loop %u output",
			 loop->index);
	else
		snprintf(dev->card, sizeof(dev->card),
			 "negcam loop %u capture %u", loop->index, m);
	snprintf(dev->v4l2_dev.name, sizeof(dev->v4l2_dev.name),
		 "negcam-loop-%u-%s%u", loop->index,
		 qi == NC_OUTPUT ? "out" : "cap", m);
	ret = v4l2_device_register(&loop->pdev->dev, &dev->v4l2_dev);
	if (ret) {
		mutex_destroy(&dev->lock);
		kfree(dev);
		return ERR_PTR(ret);
	}
	/* From here on the release callback frees the node. */
	kref_get(&loop->ref);
	dev->v4l2_dev.release = negcam_loop_node_release;
	negcam_engine_init(&dev->engine, loop->profile);
	negcam_engine_set_readbuffers(&dev->engine, NEGCAM_READ_BUFFERS);
	ret = negcam_vid_register(dev);
	if (ret) {
		negcam_vid_unregister(dev);
		v4l2_device_put(&dev->v4l2_dev);
		return ERR_PTR(ret);
	}
	return dev;
}

/*
 * Remove a loop: every node vanishes (open handles get ENODEV, streams
 * stop), then the loop's own reference goes; the last closed handle
 * frees what is left.
 */
static void negcam_loop_destroy(struct negcam_loop *loop)
{
	struct negcam_dev *nodes[1 + NEGCAM_LOOP_MAX_CAPTURES];
	unsigned int i, n = 0;

	mutex_lock(&loop->lock);
	if (loop->out)
		nodes[n++] = loop->out;
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i])
			nodes[n++] = loop->cap[i];
	mutex_unlock(&loop->lock);
	/* vb2_video_unregister_device takes loop->lock itself. */
	for (i = 0; i < n; i++)
		negcam_vid_unregister(nodes[i]);
	mutex_lock(&loop->lock);
	for (i = 0; i < n; i++)
		nodes[i]->share_node = NULL;
	loop->out = NULL;
	memset(loop->cap, 0, sizeof(loop->cap));
	mutex_unlock(&loop->lock);
	for (i = 0; i < n; i++)
		v4l2_device_put(&nodes[i]->v4l2_dev);
	if (loop->pdev)
		platform_device_unregister(loop->pdev);
	kref_put(&loop->ref, negcam_loop_free);
}

/* Create loop @index with @ncap capture nodes on profile @name. */
static struct negcam_loop *negcam_loop_create(unsigned int index,
					      const char *name,
					      unsigned int ncap)
{
	struct negcam_loop *loop;
	struct negcam_dev *dev;
	unsigned int i;
	int ret;

	loop = kzalloc(sizeof(*loop), GFP_KERNEL);
	if (!loop)
		return ERR_PTR(-ENOMEM);
	kref_init(&loop->ref);
	mutex_init(&loop->lock);
	spin_lock_init(&loop->flock);
	INIT_LIST_HEAD(&loop->held);
	atomic64_set(&loop->copies, 0);
	atomic64_set(&loop->shared, 0);
	loop->index = index;
	ret = negcam_loop_profile(loop, name);
	if (ret) {
		kref_put(&loop->ref, negcam_loop_free);
		return ERR_PTR(ret);
	}
	loop->pdev = platform_device_register_simple(NEGCAM_LOOP_PDEV, index,
						     NULL, 0);
	if (IS_ERR(loop->pdev)) {
		ret = PTR_ERR(loop->pdev);
		loop->pdev = NULL;
		goto fail;
	}
	for (i = 0; i <= ncap; i++) {
		dev = negcam_loop_node(loop, i ? NC_CAPTURE : NC_OUTPUT,
				       i ? i - 1 : 0);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto fail;
		}
		mutex_lock(&loop->lock);
		if (i)
			loop->cap[loop->ncap++] = dev;
		else
			loop->out = dev;
		if (i == 1) {
			/* The producer and the first consumer share frames. */
			loop->out->share_node = dev;
			dev->share_node = loop->out;
		}
		mutex_unlock(&loop->lock);
	}
	pr_info("loop %u: output /dev/%s, %u capture node(s) from /dev/%s, profile '%s'\n",
		index, loop->out->node_name, ncap, loop->cap[0]->node_name,
		loop->profile_name);
	return loop;

fail:
	pr_err("loop %u: cannot create it: %d\n", index, ret);
	negcam_loop_destroy(loop);
	return ERR_PTR(ret);
}

/*
 * Create a loop in the first free slot (its N). Under negcam_loops_lock,
 * so two creations never take one slot.
 */
static struct negcam_loop *negcam_loop_add(const char *name,
					   unsigned int ncap)
{
	struct negcam_loop *loop;
	unsigned int i;

	lockdep_assert_held(&negcam_loops_lock);
	for (i = 0; i < NEGCAM_MAX_LOOPS; i++)
		if (!negcam_loops[i] && !negcam_loops_dying[i])
			break;
	if (i == NEGCAM_MAX_LOOPS)
		return ERR_PTR(-ENOSPC);
	loop = negcam_loop_create(i, name, ncap);
	if (!IS_ERR(loop))
		negcam_loops[i] = loop;
	return loop;
}

/* Take @loop out of its slot and remove it; the slot is free again after. */
static void negcam_loop_remove(struct negcam_loop *loop)
{
	unsigned int index = loop->index;
	bool owned;

	mutex_lock(&negcam_loops_lock);
	owned = negcam_loops[index] == loop;
	if (owned) {
		negcam_loops[index] = NULL;
		negcam_loops_dying[index] = true;
	}
	mutex_unlock(&negcam_loops_lock);
	negcam_loop_destroy(loop);
	if (!owned)
		return;
	mutex_lock(&negcam_loops_lock);
	negcam_loops_dying[index] = false;
	mutex_unlock(&negcam_loops_lock);
}

/* Remove the loops of the module parameter; module exit. */
void negcam_loops_exit(void)
{
	struct negcam_loop *loop;
	unsigned int i;

	for (i = 0; i < NEGCAM_MAX_LOOPS; i++) {
		mutex_lock(&negcam_loops_lock);
		loop = negcam_loops[i];
		mutex_unlock(&negcam_loops_lock);
		if (loop)
			negcam_loop_remove(loop);
	}
}

/* Module load: the loops= loops. */
int negcam_loops_init(void)
{
	struct negcam_loop *loop;
	unsigned int i;

	if (loops > NEGCAM_MAX_LOOPS) {
		pr_err("loops=%u: must be 0 to %u\n", loops, NEGCAM_MAX_LOOPS);
		return -EINVAL;
	}
	if (loop_captures < 1 || loop_captures > NEGCAM_LOOP_MAX_CAPTURES) {
		pr_err("loop_captures=%u: must be 1 to %u\n", loop_captures,
		       NEGCAM_LOOP_MAX_CAPTURES);
		return -EINVAL;
	}
	for (i = 0; i < loops; i++) {
		mutex_lock(&negcam_loops_lock);
		loop = negcam_loop_add(loop_profile, loop_captures);
		mutex_unlock(&negcam_loops_lock);
		if (IS_ERR(loop)) {
			negcam_loops_exit();
			return PTR_ERR(loop);
		}
	}
	return 0;
}

/* ---- configfs: /sys/kernel/config/negcam/loops/NAME ---- */

/**
 * struct negcam_loop_cfs - a loop directory, made by mkdir
 * @item: its configfs item
 * @profile: profile of the loop to create (default loop_profile=)
 * @captures: its capture nodes (default loop_captures=)
 * @loop: the loop while enabled, else NULL
 *
 * @profile, @captures and @loop are under negcam_loops_lock.
 */
struct negcam_loop_cfs {
	struct config_item item;
	char profile[NC_NAME_LEN];
	unsigned int captures;
	struct negcam_loop *loop;
};

static struct negcam_loop_cfs *to_loop_cfs(struct config_item *item)
{
	return container_of(item, struct negcam_loop_cfs, item);
}

enum { NEGCAM_LCFS_PROFILE, NEGCAM_LCFS_CAPTURES, NEGCAM_LCFS_ENABLE };

/* One of the settings of a loop directory, as its file shows it. */
static ssize_t negcam_lcfs_show(struct config_item *item, char *page,
				int what)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	ssize_t n;

	mutex_lock(&negcam_loops_lock);
	if (what == NEGCAM_LCFS_PROFILE)
		n = sysfs_emit(page, "%s\n", lc->profile);
	else if (what == NEGCAM_LCFS_CAPTURES)
		n = sysfs_emit(page, "%u\n", lc->captures);
	else
		n = sysfs_emit(page, "%d\n", !!lc->loop);
	mutex_unlock(&negcam_loops_lock);
	return n;
}

static ssize_t negcam_lcfs_profile_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_PROFILE);
}

/* Settings are fixed while the loop exists: EBUSY. */
static ssize_t negcam_lcfs_profile_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	char name[NC_NAME_LEN];
	int ret = count;

	if (count >= sizeof(name))
		return -EINVAL;
	memcpy(name, page, count);
	name[count] = '\0';
	strim(name);
	if (strcmp(name, "follow") && !negcam_builtin_find(name))
		return -EINVAL;
	mutex_lock(&negcam_loops_lock);
	if (lc->loop)
		ret = -EBUSY;
	else
		strscpy(lc->profile, name, sizeof(lc->profile));
	mutex_unlock(&negcam_loops_lock);
	return ret;
}

CONFIGFS_ATTR(negcam_lcfs_, profile);

static ssize_t negcam_lcfs_captures_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_CAPTURES);
}

static ssize_t negcam_lcfs_captures_store(struct config_item *item,
					  const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	unsigned int n;
	int ret;

	ret = kstrtouint(page, 0, &n);
	if (ret)
		return ret;
	if (n < 1 || n > NEGCAM_LOOP_MAX_CAPTURES)
		return -ERANGE;
	mutex_lock(&negcam_loops_lock);
	ret = lc->loop ? -EBUSY : count;
	if (!lc->loop)
		lc->captures = n;
	mutex_unlock(&negcam_loops_lock);
	return ret;
}

CONFIGFS_ATTR(negcam_lcfs_, captures);

static ssize_t negcam_lcfs_enable_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_ENABLE);
}

/* 1 creates the loop's nodes, 0 removes them (handles get ENODEV). */
static ssize_t negcam_lcfs_enable_store(struct config_item *item,
					const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	struct negcam_loop *loop = NULL;
	bool on;
	int ret;

	ret = kstrtobool(page, &on);
	if (ret)
		return ret;
	mutex_lock(&negcam_loops_lock);
	if (on && !lc->loop) {
		loop = negcam_loop_add(lc->profile, lc->captures);
		if (IS_ERR(loop))
			ret = PTR_ERR(loop);
		else
			lc->loop = loop;
		loop = NULL;
	} else if (!on) {
		loop = lc->loop;
		lc->loop = NULL;
	}
	mutex_unlock(&negcam_loops_lock);
	if (loop)
		negcam_loop_remove(loop);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_lcfs_, enable);

/* "output videoN capture videoM ..." while enabled, else empty. */
static ssize_t negcam_lcfs_nodes_show(struct config_item *item, char *page)
{
	struct negcam_loop *loop;
	unsigned int i;
	ssize_t n = 0;

	mutex_lock(&negcam_loops_lock);
	loop = to_loop_cfs(item)->loop;
	if (loop) {
		n = sysfs_emit_at(page, n, "output %s", loop->out->node_name);
		for (i = 0; i < loop->ncap; i++)
			n += sysfs_emit_at(page, n, " capture %s",
					   loop->cap[i]->node_name);
	}
	n += sysfs_emit_at(page, n, "\n");
	mutex_unlock(&negcam_loops_lock);
	return n;
}

CONFIGFS_ATTR_RO(negcam_lcfs_, nodes);

static struct configfs_attribute *negcam_lcfs_attrs[] = {
	&negcam_lcfs_attr_profile,
	&negcam_lcfs_attr_captures,
	&negcam_lcfs_attr_enable,
	&negcam_lcfs_attr_nodes,
	NULL,
};

static void negcam_lcfs_release(struct config_item *item)
{
	kfree(to_loop_cfs(item));
}

static struct configfs_item_operations negcam_lcfs_item_ops = {
	.release = negcam_lcfs_release,
};

static const struct config_item_type negcam_lcfs_type = {
	.ct_item_ops = &negcam_lcfs_item_ops,
	.ct_attrs = negcam_lcfs_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_item *negcam_lcfs_make(struct config_group *group,
					    const char *name)
{
	struct negcam_loop_cfs *lc = kzalloc(sizeof(*lc), GFP_KERNEL);

	if (!lc)
		return ERR_PTR(-ENOMEM);
	strscpy(lc->profile, loop_profile, sizeof(lc->profile));
	lc->captures = clamp(loop_captures, 1u, NEGCAM_LOOP_MAX_CAPTURES);
	config_item_init_type_name(&lc->item, name, &negcam_lcfs_type);
	return &lc->item;
}

/* rmdir: the loop goes with its directory. */
static void negcam_lcfs_drop(struct config_group *group,
			     struct config_item *item)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	struct negcam_loop *loop;

	mutex_lock(&negcam_loops_lock);
	loop = lc->loop;
	lc->loop = NULL;
	mutex_unlock(&negcam_loops_lock);
	if (loop)
		negcam_loop_remove(loop);
	config_item_put(item);
}

static struct configfs_group_operations negcam_loops_group_ops = {
	.make_item = negcam_lcfs_make,
	.drop_item = negcam_lcfs_drop,
};

static const struct config_item_type negcam_loops_group_type = {
	.ct_group_ops = &negcam_loops_group_ops,
	.ct_owner = THIS_MODULE,
};

static struct config_group negcam_loops_group;

/* /sys/kernel/config/negcam/loops, under the subsystem's group @parent. */
int negcam_loops_cfs_register(struct config_group *parent)
{
	config_group_init_type_name(&negcam_loops_group, "loops",
				    &negcam_loops_group_type);
	return configfs_register_group(parent, &negcam_loops_group);
}

void negcam_loops_cfs_unregister(void)
{
	configfs_unregister_group(&negcam_loops_group);
}
