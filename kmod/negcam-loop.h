/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * negcam.ko loops, inside: the loop's state shared by the files that make
 * it (negcam-loop-create.c), negotiate its formats (negcam-loop-formats.c,
 * whose node ops the video nodes call), carry the producer's frames across
 * it (negcam-loop-frames.c), tell the capture threads whether its producer
 * is live (negcam-loop-live.c) and show its state in sysfs
 * (negcam-loop-sysfs.c). docs/loopback.md is the user's description.
 */
#ifndef NEGCAM_LOOP_H
#define NEGCAM_LOOP_H

#include <linux/kref.h>

#include "negcam.h"

/**
 * struct negcam_loop - an output node and the capture nodes it feeds
 * @ref: one per node struct, one for the loop's own existence
 * @index: N in negcam-loop-N
 * @label: its name (loop_labels=, configfs label), empty for none: the
 *	nodes' card names (negcam_loop_card)
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
 * @out_setter: the output node's file handle whose S_FMT holds its format
 *	until the queue's buffers are freed or that handle closes, NULL for
 *	none (negcam_loop_out_held); compared, never dereferenced
 * @follow: the profile is "follow": the producer decides, never a consumer
 * @starts: counts consumers' STREAMONs (negcam_dev.loop_order)
 * @out_count: sequence of the next output buffer
 * @narrow: follow mode: the one-format profile the capture nodes present
 *	while the producer streams (kvzalloc'd), else NULL
 * @narrowed: the capture nodes present @narrow now
 * @copies: producer frames copied into consumers' buffers since load
 *	(the Frame Copies control)
 * @shared: producer frames handed to capture node 0 in shared memory,
 *	with no copy (the Shared Frames control, negcam-loop-share.c)
 * @held: the producer's buffers the loop holds: the newest, until the
 *	next QBUF or STREAMOFF, and shared ones whose consumer buffer is not
 *	back yet (negcam_loop_cap_queued)
 * @flock: spinlock for @cur_*; taken by the output node's queue ops and
 *	by the capture threads. Nothing sleeps, copies or calls vb2 under it.
 * @cur_on: the producer streams: @cur_* describe its newest frame
 * @cur_ns: CLOCK_MONOTONIC time that frame was queued, or the producer
 *	stopped (@cur_on false); 0 before any producer
 * @cur_fmt: the output format it was written in
 * @cur_ival_ns: the producer's frame interval then
 */
struct negcam_loop {
	struct kref ref;
	unsigned int index;
	char label[NEGCAM_LABEL_MAX + 1];
	struct platform_device *pdev;
	struct mutex lock;
	struct negcam_profile *profile;
	char profile_name[NC_NAME_LEN];
	struct negcam_dev *out;
	struct negcam_dev *cap[NEGCAM_LOOP_MAX_CAPTURES];
	unsigned int ncap;
	struct v4l2_pix_format want;
	bool want_pending;
	const void *out_setter;
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

/* Same frame layout: a buffer of one fits the other byte for byte. */
static inline bool negcam_same_frame(const struct v4l2_pix_format *a,
			      const struct v4l2_pix_format *b)
{
	return a->pixelformat == b->pixelformat && a->width == b->width &&
	       a->height == b->height && a->field == b->field &&
	       a->bytesperline == b->bytesperline &&
	       a->sizeimage == b->sizeimage;
}

/* negcam-loop-formats.c: the node ops of a loop's nodes */
extern const struct negcam_node_ops negcam_loop_cap_ops;
extern const struct negcam_node_ops negcam_loop_out_ops;

/* negcam-loop-frames.c: the frame hooks those node ops call */
void negcam_loop_out_queue(struct negcam_dev *out, struct negcam_buffer *buf);
void negcam_loop_out_stop(struct negcam_dev *out);
void negcam_loop_cap_queued(struct negcam_dev *cap, struct negcam_buffer *buf);
void negcam_loop_cap_drop(struct negcam_dev *cap);

/* negcam-loop-live.c */
u64 negcam_loop_live_until(struct negcam_dev *cap, u64 now);
bool negcam_loop_producer_live(struct negcam_loop *loop, u64 now);
bool negcam_loop_match(const struct v4l2_pix_format *fmt,
		       const struct negcam_dev *cap);
void negcam_loop_mark(struct negcam_loop *loop,
		      const struct v4l2_pix_format *fmt, u64 ts, u64 ival_ns);

/* negcam-loop-sysfs.c: the loop's state on its platform device */
unsigned int negcam_loop_nodes(struct negcam_loop *loop, struct negcam_dev **nodes, bool ref);
int negcam_loop_sysfs_add(struct negcam_loop *loop);
void negcam_loop_sysfs_remove(struct negcam_loop *loop);

#endif /* NEGCAM_LOOP_H */
