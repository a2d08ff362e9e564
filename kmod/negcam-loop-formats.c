// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops, formats: how the nodes of a loop agree on a format and
 * a rate, and the node ops through which the video nodes reach a loop.
 * A loop is one output node (the producer writes frames) feeding one to
 * four capture nodes (consumers read them), separate nodes whose bus_info
 * names the loop: platform:negcam-loop-N on the output node and capture
 * node 0, platform:negcam-loop-N-M on capture node M from 1 (set by
 * negcam-loop-create.c, for Firefox). docs/loopback.md is the user's
 * description; this is how it is built. Loops are made and removed in
 * negcam-loop-create.c; the producer's frames are carried across in
 * negcam-loop-frames.c; whether the producer is live, negcam-loop-live.c.
 *
 * The video nodes (negcam-vid-cap.c, negcam-vid-out.c) reach all of it
 * through the node ops at the end of this file: negcam_loop_cap_ops on
 * the capture nodes, negcam_loop_out_ops on the output node (their frame
 * hooks are negcam-loop-frames.c's).
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
 *    camera's format is fixed by what is being read, and G_PARM and
 *    S_PARM there its frame interval, which the output node takes at once
 *    (a rate changes no buffer; Format Requests counts it too); in follow
 *    mode the producer always decides;
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
 * producer stops, the whole follow profile is back (negcam_loop_narrow
 * after each producer frame, negcam_loop_widen when the producer stops:
 * the output node's hooks at the end of this file).
 */
#include <linux/ktime.h>
#include <media/v4l2-event.h>

#include "negcam-loop.h"
#include "profile.h"
#include "fract.h"

/* The output node's read-only controls that tell the producer (docs/loopback.md). */
#define NEGCAM_CID_FORMAT_REQUESTS (V4L2_CID_USER_BASE | 0xf100)
#define NEGCAM_CID_WANTED_WIDTH (NEGCAM_CID_FORMAT_REQUESTS + 1)
#define NEGCAM_CID_WANTED_HEIGHT (NEGCAM_CID_FORMAT_REQUESTS + 2)
#define NEGCAM_CID_WANTED_FOURCC (NEGCAM_CID_FORMAT_REQUESTS + 3)
#define NEGCAM_CID_FRAME_COPIES (NEGCAM_CID_FORMAT_REQUESTS + 4)
#define NEGCAM_CID_SHARED_FRAMES (NEGCAM_CID_FORMAT_REQUESTS + 5)

/* ---- formats ---- */

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
 * Follow mode: the capture nodes present the producer's format alone,
 * rebuilt when its format or rate changed. False when nothing changed.
 * Under loop->lock.
 */
static bool negcam_loop_present_producer(struct negcam_loop *loop)
{
	const struct v4l2_pix_format *pix = negcam_engine_fmt(&loop->out->engine, NC_OUTPUT);
	struct v4l2_fract ival = negcam_loop_out_ival(loop);
	const struct negcam_default *d = &loop->narrow->def[NC_CAPTURE];

	if (loop->narrowed && d->fourcc == pix->pixelformat &&
	    d->width == pix->width && d->height == pix->height &&
	    loop->narrow->formats[0].fields[0] == pix->field &&
	    d->interval.numerator == ival.numerator &&
	    d->interval.denominator == ival.denominator)
		return false;
	negcam_loop_build_narrow(loop, pix, ival);
	negcam_loop_present(loop, loop->narrow);
	loop->narrowed = true;
	return true;
}

/*
 * Follow mode, at each producer frame: narrowed to the producer's format
 * (its rate may have changed since its S_FMT); capture nodes without
 * buffers take it, the others once they have none (negcam_loop_sync_cap).
 * Under loop->lock.
 */
static void negcam_loop_narrow(struct negcam_loop *loop)
{
	unsigned int i;

	if (!negcam_loop_present_producer(loop))
		return;
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

/*
 * Follow mode, the producer stopped: the whole profile is back, its
 * discrete sizes too. A capture node without buffers whose format (the
 * producer's) is not among them takes the nearest that is, and is told;
 * one streaming takes it once it has no buffers (negcam_loop_sync_cap).
 * Under loop->lock.
 */
static void negcam_loop_widen(struct negcam_loop *loop)
{
	struct v4l2_pix_format old;
	unsigned int i;

	negcam_loop_present(loop, loop->profile);
	loop->narrowed = false;
	for (i = 0; i < loop->ncap; i++) {
		struct negcam_dev *cap = loop->cap[i];

		if (!cap)
			continue;
		if (vb2_is_busy(&cap->queue)) {
			cap->loop_stale = true;
			continue;
		}
		old = *negcam_engine_fmt(&cap->engine, NC_CAPTURE);
		negcam_loop_set(cap, &old);
		if (!negcam_same_frame(&old, negcam_engine_fmt(&cap->engine, NC_CAPTURE)))
			negcam_source_changed(cap);
	}
}

/*
 * The producer holds the output node's format: it has buffers, or a file
 * handle set the format and has neither freed the buffers nor closed
 * since (its REQBUFS may come next). A consumer's format is then a wish,
 * told to the producer, never applied under its feet: buffers allocated
 * for a format the producer did not set would refuse its frames (QBUF
 * EINVAL) or cut them wrongly (write()). Under loop->lock.
 */
static bool negcam_loop_out_held(struct negcam_dev *out)
{
	return vb2_is_busy(&out->queue) || out->loop->out_setter;
}

/*
 * File handle @fh freed the output node's buffers (REQBUFS 0) or closes,
 * or (@fh NULL) a write() stream ended: the format @fh set is no longer
 * held for it. Another handle's REQBUFS(0) (a prober's) lets nothing go.
 * Under loop->lock.
 */
static void negcam_loop_out_unhold(struct negcam_dev *out, const void *fh)
{
	if (!fh || out->loop->out_setter == fh)
		out->loop->out_setter = NULL;
}

/*
 * Before the output node answers a format question (ENUM_FMT, G_FMT,
 * S_FMT): a consumer's wanted format becomes its format once the
 * producer no longer holds it. Under loop->lock.
 */
static void negcam_loop_sync_out(struct negcam_dev *out)
{
	struct negcam_loop *loop = out->loop;
	struct negcam_dev *lead;

	if (negcam_loop_out_held(out))
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
 * Before a capture node answers a format question (ENUM_FMT, G_FMT,
 * S_FMT): a format the producer set while this node had buffers is taken
 * now that it has none. Under loop->lock.
 */
static void negcam_loop_sync_cap(struct negcam_dev *cap)
{
	if (!cap->loop_stale || vb2_is_busy(&cap->queue) || !cap->loop->out)
		return;
	negcam_loop_take(cap);
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
static void negcam_loop_out_ctrls(struct negcam_dev *out)
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
static void negcam_loop_out_request(struct negcam_dev *out,
				    struct v4l2_format *f)
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

/*
 * G_PARM and S_PARM on the output node while a consumer leads (profile
 * mode): the leader's frame interval, as TRY_FMT and S_FMT there answer
 * the leader's format. Called with the request before the engine's
 * S_PARM, with the answer after its G_PARM. Under loop->lock.
 */
static void negcam_loop_out_rate(struct negcam_dev *out,
				 struct v4l2_streamparm *p)
{
	struct negcam_dev *lead = negcam_loop_lead(out->loop);

	if (lead)
		p->parm.output.timeperframe =
			negcam_engine_interval(&lead->engine, NC_CAPTURE);
}

/*
 * The leading consumer @cap (profile mode) asks the producer for its
 * frame interval. A rate changes no buffer, so the output node takes it
 * at once, its queue busy or not, where its size has it (G_PARM there
 * answers the leader's in any case). True if the producer's rate differs.
 */
static bool negcam_loop_ask_rate(struct negcam_dev *out, struct negcam_dev *cap)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct v4l2_fract want = negcam_engine_interval(&cap->engine, NC_CAPTURE);
	struct v4l2_fract had = negcam_engine_interval(&out->engine, NC_OUTPUT);

	if (negcam_loop_lead(out->loop) != cap)
		return false;
	parm.parm.output.timeperframe = want;
	negcam_engine_s_parm(&out->engine, &parm);
	return nc_fract_cmp(want, had) != 0;
}

/*
 * A consumer set its format, or starts: the producer is asked for its
 * format and (a starting consumer leads) its rate. The format becomes the output node's at once when the
 * producer does not hold it, else it is kept as wanted; the rate of the
 * leading consumer at once (negcam_loop_ask_rate). The producer is told
 * when either changed.
 */
static void negcam_loop_consumer_set(struct negcam_dev *cap)
{
	struct negcam_loop *loop = cap->loop;
	const struct v4l2_pix_format *want = negcam_engine_fmt(&cap->engine, NC_CAPTURE);
	struct negcam_dev *out = loop->out;
	bool same;

	if (!out)
		return;
	same = negcam_same_frame(negcam_engine_fmt(&out->engine, NC_OUTPUT), want);
	if (same || !negcam_loop_out_held(out)) {
		loop->want_pending = false;
		if (!same)
			negcam_loop_set(out, want);
	} else {
		loop->want = *want;
		loop->want_pending = true;
	}
	/* After the format: the interval is snapped to the size it has. */
	if (negcam_loop_ask_rate(out, cap) || !same)
		negcam_loop_tell(out, want);
}

/*
 * S_PARM succeeded on consumer @cap: the producer is asked for the rate
 * if @cap leads (its format was asked at its S_FMT). Under loop->lock.
 */
static void negcam_loop_parm_set(struct negcam_dev *cap)
{
	struct negcam_dev *out = cap->loop->out;

	if (out && negcam_loop_ask_rate(out, cap))
		negcam_loop_tell(out, negcam_engine_fmt(&cap->engine, NC_CAPTURE));
}

/*
 * S_FMT from file handle @fh of the producer succeeded: it holds the
 * format; free consumers take it, all are told. Under loop->lock.
 */
static void negcam_loop_producer_set(struct negcam_dev *out, const void *fh)
{
	struct negcam_loop *loop = out->loop;
	const struct v4l2_pix_format *fmt = negcam_engine_fmt(&out->engine, NC_OUTPUT);
	struct v4l2_pix_format old;
	unsigned int i;

	loop->out_setter = fh;
	loop->want_pending = false;
	/* Follow mode: any size the producer sets is the consumers' format. */
	if (loop->follow)
		negcam_loop_present_producer(loop);
	for (i = 0; i < loop->ncap; i++) {
		struct negcam_dev *cap = loop->cap[i];

		if (!cap)
			continue;
		old = *negcam_engine_fmt(&cap->engine, NC_CAPTURE);
		cap->loop_stale = vb2_is_busy(&cap->queue);
		if (!cap->loop_stale)
			negcam_loop_set(cap, fmt);
		if (!negcam_same_frame(&old, fmt))
			negcam_source_changed(cap);
	}
}

/* S_FMT succeeded on capture node @cap. Under loop->lock. */
static void negcam_loop_cap_fmt_set(struct negcam_dev *cap, const void *fh)
{
	cap->loop_stale = false;
	negcam_loop_consumer_set(cap);
}

/*
 * A consumer starts streaming: it leads from now on; the producer is asked.
 * Its first producer frame is the next one the producer queues (frames
 * are copied when queued), so a stream's first buffer is not there at
 * once, as on a plain node (a non-blocking read() right after opening
 * answers EAGAIN, which v4l2-compliance's read/write test requires of two
 * opens in a row). Its sequence numbers start from 0 (negcam_done_locked).
 */
static void negcam_loop_cap_start(struct negcam_dev *cap)
{
	struct negcam_loop *loop = cap->loop;

	cap->loop_order = ++loop->starts;
	cap->loop_start_ns = ktime_get_ns();
	spin_lock(&cap->slock);
	cap->loop_seq = 0;
	spin_unlock(&cap->slock);
	negcam_loop_consumer_set(cap);
}

/* A consumer stops: it leads no more; the frames it held are dropped. */
static void negcam_loop_cap_stop(struct negcam_dev *cap)
{
	cap->loop_order = 0;
	negcam_loop_cap_drop(cap);
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
 * ENUM_FMT of a capture node: the output node's format (what the producer
 * set or was asked for) first, the others in profile order after it.
 * Under loop->lock.
 */
static int negcam_loop_enum_fmt(struct negcam_dev *dev, struct v4l2_fmtdesc *f)
{
	struct negcam_loop *loop = dev->loop;
	u32 index = f->index;
	int first, ret;

	negcam_loop_sync_cap(dev);
	first = loop->out ? negcam_loop_fmt_index(&dev->engine,
				negcam_engine_fmt(&loop->out->engine, NC_OUTPUT)->pixelformat) : -1;
	if (first <= 0 || index > first)
		return negcam_engine_enum_fmt(&dev->engine, f);
	f->index = index == 0 ? first : index - 1;
	ret = negcam_engine_enum_fmt(&dev->engine, f);
	f->index = index;
	return ret;
}

/* ---- the node ops: how the video nodes reach a loop ---- */

/*
 * The output node's buf_queue: the producer's frame crosses the loop
 * (negcam-loop-frames.c), then follow mode narrows to its format.
 */
static void negcam_loop_out_frame(struct negcam_dev *out,
				  struct negcam_buffer *buf)
{
	negcam_loop_out_queue(out, buf);
	if (out->loop->follow)
		negcam_loop_narrow(out->loop);
}

/* The output node's stop_streaming: frames back, then formats widen. */
static void negcam_loop_out_end(struct negcam_dev *out)
{
	negcam_loop_out_stop(out);
	if (out->loop->follow)
		negcam_loop_widen(out->loop);
}

/* A capture node of a loop (a consumer's). */
const struct negcam_node_ops negcam_loop_cap_ops = {
	.enum_fmt = negcam_loop_enum_fmt,
	.sync = negcam_loop_sync_cap,
	.fmt_set = negcam_loop_cap_fmt_set,
	.parm_set = negcam_loop_parm_set,
	.buf_queue = negcam_loop_cap_queued,
	.start = negcam_loop_cap_start,
	.stop = negcam_loop_cap_stop,
	.live_until = negcam_loop_live_until,
};

/* The output node of a loop (the producer's). */
const struct negcam_node_ops negcam_loop_out_ops = {
	.ctrls = negcam_loop_out_ctrls,
	.sync = negcam_loop_sync_out,
	.request = negcam_loop_out_request,
	.rate = negcam_loop_out_rate,
	.fmt_set = negcam_loop_producer_set,
	.unhold = negcam_loop_out_unhold,
	.buf_queue = negcam_loop_out_frame,
	.stop = negcam_loop_out_end,
};
