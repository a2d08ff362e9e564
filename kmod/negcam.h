/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * negcam.ko: V4L2 capture devices whose format negotiation is the shared
 * negcam engine (engine/), streaming frames of the shared generator.
 *
 * Files, each calling only the ones below it (tests/check-layers.py):
 *   negcam-core.c      module parameters, platform devices, sysfs,
 *                      simulated unplug
 *   negcam-configfs.c  /sys/kernel/config/negcam: devices' profiles,
 *                      loop directories
 *   negcam-loop-create.c  loops made and removed (loops=, and for
 *                      negcam-configfs.c)
 *   negcam-profile.c   a profile parsed, checked and swapped in
 *   negcam-vid-cap.c   a capture node's ioctls and vb2 ops
 *   negcam-vid-out.c   an output node's ioctls and vb2 ops
 *   negcam-vid.c       what both share: fops, vb2 common, controls,
 *                      node registration
 *   negcam-loop-formats.c  negotiation across a loop: the node ops of
 *                      its nodes (docs/loopback.md)
 *   negcam-loop-frames.c  the producer's buffers: its frames handed to
 *                      the consumers in its QBUF
 *   negcam-thread.c    frame pacing and hand-back of capture buffers
 *   negcam-faults.c    faults switched while streaming (configfs faults),
 *                      a fault's source change, a loop's unplug
 *   negcam-loop-sysfs.c  a loop's state in sysfs (negcam-loop.N)
 *   negcam-loop-live.c  is a loop's producer live for a capture node
 *   negcam-loop-share.c  memory a producer and a consumer share
 *
 * A node is a device's capture node, a loop's capture node or a loop's
 * output node. negcam-vid-cap.c or negcam-vid-out.c serves it by its
 * direction; what a loop adds is reached only through its
 * struct negcam_node_ops (negcam_dev.ops, NULL for a device's node).
 */
#ifndef NEGCAM_KMOD_H
#define NEGCAM_KMOD_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <media/v4l2-device.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-ctrls.h>
#include <media/videobuf2-v4l2.h>
#include <media/v4l2-event.h>

#include "engine.h"

#define NEGCAM_DRV_NAME "negcam"
#define NEGCAM_MAX_DEVICES 32
/* Largest profile text accepted through configfs. */
#define NEGCAM_PROFILE_TEXT_MAX (1024 * 1024)
/* Buffers vb2 needs before streaming starts; MIN_BUFFERS_FOR_CAPTURE. */
#define NEGCAM_MIN_BUFFERS 3
/*
 * Buffers REQBUFS allocates at least: two more than streaming needs, so an
 * application that stalls for up to two frame intervals does not lose a
 * frame (vivid allocates at least 2, uvcvideo what it is asked).
 */
#define NEGCAM_ALLOC_BUFFERS (NEGCAM_MIN_BUFFERS + 2)
/* Largest CREATE_BUFS buffer beyond twice the current frame (64 MiB). */
#define NEGCAM_CREATE_MAX (64UL << 20)
/* Output buffers a loop's producer needs: the loop keeps its newest one. */
#define NEGCAM_OUT_MIN_BUFFERS 2
/*
 * Producer buffers a loop may hold besides the newest while capture node 0
 * reads the frames in them (negcam-loop-share.c): a producer that waits for a
 * buffer back once V4L2_CID_MIN_BUFFERS_FOR_OUTPUT are queued (v4l2sink)
 * never waits on a consumer that stopped reading.
 */
#define NEGCAM_LOOP_MAX_PENDING 2
/* V4L2_CID_MIN_BUFFERS_FOR_OUTPUT: one more than the loop may hold. */
#define NEGCAM_OUT_QUEUED (NEGCAM_OUT_MIN_BUFFERS + NEGCAM_LOOP_MAX_PENDING)
/*
 * Capture node 0's buffers 0 and 1 never share memory with the producer's
 * (negcam-loop-share.c): its buffer k + 2 shares the producer's buffer k.
 */
#define NEGCAM_LOOP_OWN_BUFFERS 2
/* read() depth reported by G_PARM (vb2's file I/O emulation). */
#define NEGCAM_READ_BUFFERS 2
/* Capture nodes a loop may have (loop_captures=, configfs captures). */
#define NEGCAM_LOOP_MAX_CAPTURES 4
#define NEGCAM_LOOP_MAX_NODES (1 + NEGCAM_LOOP_MAX_CAPTURES) /* the output node and its captures */
/* A loop's label: its capture node 0's card name; 31 bytes with " (output)". */
#define NEGCAM_LABEL_MAX 22

struct negcam_cfs;
struct negcam_loop;

/**
 * struct negcam_kfaults - a node's faults beyond its profile's lines
 *	(negcam-faults.c, docs/faults.md)
 * @set: the list written to configfs 'faults', in force while @own
 * @own: @set replaces the profile's faults (until an empty write)
 * @live: the faults in force for a running stream, when @fresh
 * @fresh: @live changed while streaming: the thread takes it at its next
 *	slot, its fault time counting from then
 * @todo: NC_DO_SOURCE_CHANGE, NC_DO_UNPLUG: what @work is to do
 * @width: the source change's new size
 * @height: see @width
 * @streams: STREAMONs so far; @asked: which stream asked for @todo (a
 *	source change asked by a stream that ended is not done on the next)
 * @asked: see @streams
 * @held: the source changed under the stream: it delivers nothing more
 *	until STREAMOFF
 * @work: a source change or a loop's unplug, done under the node's lock
 *	(the thread cannot take it: STREAMOFF waits for the thread)
 *
 * All under negcam_dev.slock; @set and @own also under negcam_dev.vlock.
 */
struct negcam_kfaults {
	struct negcam_faults set;
	bool own;
	struct negcam_faults live;
	bool fresh;
	u32 todo;
	u32 width;
	u32 height;
	u32 streams;
	u32 asked;
	bool held;
	struct work_struct work;
};
struct negcam_dev;
struct negcam_buffer;

/**
 * struct negcam_node_ops - what a loop adds to one of its nodes
 *	(negcam-loop-formats.c: negcam_loop_cap_ops, negcam_loop_out_ops); a
 *	device's node has none. Each hook may be NULL (nothing to add); all
 *	run under negcam_dev.vlock except @live_until.
 * @ctrls: registration: add the node's own controls
 * @enum_fmt: ENUM_FMT, answered instead of the engine's list
 * @sync: before a format question (ENUM_FMT, G_FMT, S_FMT): take what the
 *	other side decided meanwhile
 * @request: TRY_FMT and S_FMT: rewrite the request before the engine
 * @rate: G_PARM's answer after the engine, S_PARM's request before it
 * @fmt_set: S_FMT from file handle @fh succeeded
 * @parm_set: S_PARM succeeded
 * @unhold: file handle @fh freed its buffers (REQBUFS 0) or closes, or
 *	(@fh NULL) its write() stream ended
 * @buf_queue: vb2's buf_queue, instead of the pacing thread's list
 * @start: start_streaming, before the pacing thread starts
 * @stop: stop_streaming, after the pacing thread stopped; also when the
 *	thread failed to start
 * @live_until: the pacing thread (no lock): a producer feeds the node
 *	until this CLOCK_MONOTONIC time, so draw nothing; 0 if none
 */
struct negcam_node_ops {
	void (*ctrls)(struct negcam_dev *dev);
	int (*enum_fmt)(struct negcam_dev *dev, struct v4l2_fmtdesc *f);
	void (*sync)(struct negcam_dev *dev);
	void (*request)(struct negcam_dev *dev, struct v4l2_format *f);
	void (*rate)(struct negcam_dev *dev, struct v4l2_streamparm *p);
	void (*fmt_set)(struct negcam_dev *dev, const void *fh);
	void (*parm_set)(struct negcam_dev *dev);
	void (*unhold)(struct negcam_dev *dev, const void *fh);
	void (*buf_queue)(struct negcam_dev *dev, struct negcam_buffer *buf);
	void (*start)(struct negcam_dev *dev);
	void (*stop)(struct negcam_dev *dev);
	u64 (*live_until)(struct negcam_dev *dev, u64 now);
};

/* @dev's hook @op, when its node ops have one (a void hook). */
#define negcam_node_call(dev, op, ...)					\
	do {								\
		if ((dev)->ops && (dev)->ops->op)			\
			(dev)->ops->op((dev), ##__VA_ARGS__);		\
	} while (0)

/* @dev's node ops have hook @op. */
#define negcam_node_has(dev, op) ((dev)->ops && (dev)->ops->op)

/**
 * struct negcam_buffer - a node's buffer and what it last held
 * @vb: the vb2 buffer, first so container_of works both ways
 * @list: capture: entry in negcam_dev.buf_list while queued to the
 *	driver; output of a loop: entry in the loop's held list
 * @last_frame: frame number drawn into this memory, NC_FRAME_NONE if none
 * @last_scene_ns: scene time of that frame (its timestamp)
 * @last_pattern: pattern of that frame
 * @last_gen: format generation of that frame (negcam_dev.fmt_gen)
 * @peer: a loop's buffer of the other side sharing this memory, or NULL
 *	(negcam-loop-share.c; under the loop's lock and capture node 0's slock)
 * @in_driver: capture: on negcam_dev.buf_list; output: held by the loop
 *	(under the same slock for a buffer that has or may get a @peer)
 * @lent: capture: holds a producer frame in memory shared with @peer, from
 *	its hand-over until its next QBUF (under the same slock)
 *
 * The generator redraws only what changed since @last_frame, so it is
 * kept only for MMAP memory, which nobody but this driver writes to.
 */
struct negcam_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
	u32 last_frame;
	u64 last_scene_ns;
	u32 last_pattern;
	u32 last_gen;
	struct negcam_buffer *peer;
	bool in_driver;
	bool lent;
};

/**
 * struct negcam_dev - one negcam video node: a capture device, or one
 *	node of a loop (its output node or one of its capture nodes)
 * @v4l2_dev: top-level V4L2 device; its release frees this struct
 * @vdev: the video node
 * @queue: the vb2 queue
 * @lock: serialises ioctls, the queue and the engine of a device
 * @vlock: the lock of vdev and queue: @lock, or for a loop node the
 *	loop's lock, which serialises every node of the loop
 * @qi: NC_CAPTURE or NC_OUTPUT: the engine queue this node presents,
 *	and whether negcam-vid-cap.c or negcam-vid-out.c serves it
 * @ops: what its loop adds to the node, NULL for a device's node
 * @loop: the loop this node belongs to, NULL for a plain device
 * @loop_idx: M in "negcam loop N capture M"
 * @card: card name of a loop node, empty for a device's (its profile's)
 * @bus_info: QUERYCAP's bus_info, set by whoever made the node
 * @shares: its MMAP memory goes through negcam_share_memops: a loop's
 *	output node and its capture node 0 (negcam-loop-share.c)
 * @share_node: a loop's output node and its capture node 0: the other
 *	one, whose buffers may share memory with this one's (negcam-loop-share.c);
 *	NULL otherwise and once the loop is removed (under the loop's lock)
 * @ctrl_want: output node of a loop: the controls that tell the producer
 *	what the consumers want (negcam-loop-formats.c)
 * @loop_stale: capture node of a loop: the producer changed the format
 *	while this node was busy; it takes the new one once free
 * @loop_order: capture node of a loop: which STREAMON of the loop started
 *	its stream (the newest streaming consumer leads), 0 when stopped
 * @loop_start_ns: capture node of a loop: when its stream started
 *	(CLOCK_MONOTONIC; the producer's time to catch up counts from it)
 * @loop_seq: capture node of a loop: sequence of the next buffer handed
 *	back, from the thread or the producer's QBUF (under @slock)
 * @fed: capture node of a loop: producer frames handed to it, shared or
 *	copied (under @slock; the thread drops a placeholder drawn meanwhile)
 * @last_ts: timestamp of the last frame delivered (under @slock)
 * @ready: capture node of a loop: a queued buffer holding the producer's
 *	newest frame, which the node hands back no earlier than @last_ts
 *	plus its frame interval less 1/64 (by its thread, negcam_ready_flush); a newer
 *	frame replaces it. Stays on @buf_list, never written by the
 *	placeholder. NULL if none (under @slock)
 * @ctrl_handler: controls (min buffers, test pattern)
 * @ctrl_pattern: the test pattern control
 * @index: N in negcam-N, platform:negcam-N
 * @node_name: "videoM", kept: the node's own name goes with it
 * @registered: the video node is registered (cleared once, on unregister)
 * @engine: the negotiation engine; the format belongs to the device
 * @profile: the engine's profile (kvzalloc'd, replaced whole)
 * @profile_text: the text @profile was parsed from (kvmalloc'd)
 * @profile_len: its length
 * @fmt_gen: incremented whenever the format or profile may have changed
 * @cfs: this device's configfs group, NULL once removed
 * @slock: protects @buf_list and the stream_* fields shared with the thread
 * @buf_list: buffers queued by vb2, waiting to be filled
 * @thread: the frame pacing thread while streaming
 * @stream_fmt: format being streamed (fixed while streaming)
 * @stream_ival: frame interval being streamed (S_PARM may change it)
 * @stream_resync: the thread must restart its deadlines (@stream_ival changed)
 * @stream_gen: @fmt_gen when streaming started
 * @stream_faults: the faults when streaming started (docs/faults.md), the
 *	thread's own copy: a profile swapped meanwhile does not touch it; a
 *	write to configfs 'faults' reaches it through @kf
 * @kf: faults written while streaming, and the work a fault asks for
 * @pattern: test pattern (V4L2_CID_TEST_PATTERN)
 * @frames: frames delivered since module load
 * @dropped: frames produced with no buffer queued (a sequence gap)
 * @skipped: frame slots not produced because the thread woke late
 */
struct negcam_dev {
	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct vb2_queue queue;
	struct mutex lock;
	struct mutex *vlock;
	int qi;
	const struct negcam_node_ops *ops;
	struct negcam_loop *loop;
	unsigned int loop_idx;
	char card[32];
	char bus_info[32];
	bool shares;
	struct negcam_dev *share_node;
	struct v4l2_ctrl *ctrl_want[4];
	bool loop_stale;
	u64 loop_order;
	u64 loop_start_ns;
	u32 loop_seq;
	u32 fed;
	u64 last_ts;
	struct negcam_buffer *ready;
	struct v4l2_ctrl_handler ctrl_handler;
	struct v4l2_ctrl *ctrl_pattern;
	unsigned int index;
	char node_name[32];
	atomic_t registered;

	struct negcam_engine engine;
	struct negcam_profile *profile;
	char *profile_text;
	size_t profile_len;
	u32 fmt_gen;
	struct negcam_cfs *cfs;

	spinlock_t slock;
	struct list_head buf_list;
	struct task_struct *thread;
	struct v4l2_pix_format stream_fmt;
	struct v4l2_fract stream_ival;
	bool stream_resync;
	u32 stream_gen;
	struct negcam_faults stream_faults;
	struct negcam_kfaults kf;
	u32 pattern;
	atomic64_t frames;
	atomic64_t dropped;
	atomic64_t skipped;
};

static inline struct negcam_buffer *to_negcam_buffer(struct vb2_buffer *vb)
{
	return container_of(to_vb2_v4l2_buffer(vb), struct negcam_buffer, vb);
}

/* negcam-core.c: a fault's unplug (docs/faults.md), done by a work item;
 * false for a loop's node, which has no platform device of its own (its
 * loop's unplug is negcam_faults_ask()'s). */
bool negcam_fault_unplug(struct negcam_dev *dev);

/* negcam-profile.c */
struct negcam_builtin;
struct negcam_profile;
int negcam_profile_from_text(const char *text, size_t len,
			     struct negcam_profile **pp, char **textp,
			     char *why, size_t why_len);
int negcam_profile_initial(struct negcam_dev *dev,
			   const struct negcam_builtin *b);
int negcam_apply_profile_text(struct negcam_dev *dev, const char *text,
			      size_t len, char *status, size_t status_len);
int negcam_apply_builtin(struct negcam_dev *dev, const char *name,
			 char *status, size_t status_len);

/* negcam-vid.c */
int negcam_vid_register(struct negcam_dev *dev);
void negcam_vid_unregister(struct negcam_dev *dev);
void negcam_vid_follow_profile(struct negcam_dev *dev);
void negcam_vid_free(struct negcam_dev *dev);

/* A node's format changed under it: V4L2_EVENT_SOURCE_CHANGE, if registered. */
static inline void negcam_source_changed(struct negcam_dev *dev)
{
	static const struct v4l2_event ev = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
		.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION,
	};

	if (atomic_read(&dev->registered))
		v4l2_event_queue(&dev->vdev, &ev);
}

/* negcam-faults.c */
int negcam_faults_init(void);
void negcam_faults_exit(void);
void negcam_faults_stream_start(struct negcam_dev *dev);
bool negcam_faults_take(struct negcam_dev *dev);
bool negcam_faults_ask(struct negcam_dev *dev, u32 what);
int negcam_faults_store(struct negcam_dev *dev, const char *text, size_t len,
			char *status, size_t status_len);
ssize_t negcam_faults_show(struct negcam_dev *dev, char *page);
int negcam_faults_loop_store(struct negcam_loop *loop, const char *text,
			     size_t len, char *status, size_t status_len);
ssize_t negcam_faults_loop_show(struct negcam_loop *loop, char *page);

/* negcam-thread.c */
int negcam_thread_start(struct negcam_dev *dev);
void negcam_thread_stop(struct negcam_dev *dev);
bool negcam_deliver_frame(struct negcam_dev *dev, const void *src,
			  unsigned long n, u64 ts);
bool negcam_deliver_shared_locked(struct negcam_dev *dev,
				  struct negcam_buffer *buf, unsigned long n,
				  u64 ts);
void negcam_ready_drop_locked(struct negcam_dev *dev);

/* negcam-loop-create.c */
int negcam_loops_init(void);
void negcam_loops_exit(void);
struct negcam_loop *negcam_loop_new(const char *profile, unsigned int ncap,
				    const char *label);
void negcam_loop_remove(struct negcam_loop *loop);
bool negcam_loop_label_ok(const char *s);
void negcam_loop_defaults(char *profile, size_t len, unsigned int *captures);
ssize_t negcam_loop_nodes_show(const struct negcam_loop *loop, char *page);

/* negcam-loop-share.c */
extern struct vb2_mem_ops negcam_share_memops;
void negcam_share_init(void);

/*
 * The driver may write @buf, a capture buffer queued to it: its memory is
 * its own, not the producer's too (negcam-loop-share.c). Under its slock.
 */
static inline bool negcam_share_writable(const struct negcam_buffer *buf)
{
	return !buf->peer;
}

/* A capture buffer vb2 queued goes on @dev's list. Under its slock. */
static inline void negcam_buf_enlist(struct negcam_dev *dev,
				     struct negcam_buffer *buf)
{
	list_add_tail(&buf->list, &dev->buf_list);
	buf->in_driver = true;
	buf->lent = false;
}

/* negcam-configfs.c */
int negcam_configfs_init(void);
void negcam_configfs_exit(void);
int negcam_configfs_add(struct negcam_dev *dev);
void negcam_configfs_remove(struct negcam_dev *dev);

#endif /* NEGCAM_KMOD_H */
