/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The one user-space model of a videobuf2 MMAP queue, shared by
 * libnegcam-preload.so (run/) and the embedded device of negcamsrc and
 * negcamsink (gst/negcamdevice-embedded.c: its capture queue and its
 * output queue, below): REQBUFS, CREATE_BUFS, QUERYBUF,
 * PREPARE_BUF, QBUF, DQBUF, EXPBUF (the buffer's memfd stands in for a
 * dma-buf), STREAMON/STREAMOFF and read(). Buffers are memfds, so an
 * application's mapping is a real shared mapping (read-only or
 * read-write) and outlives REQBUFS(0) as vb2's orphaned buffers do.
 *
 * Two clocks, one queue:
 * - paced (the preload): a thread paces the stream as negcam.ko does
 *   (kmod/negcam-thread.c): slot k ends at start + (k + 1) * interval on
 *   CLOCK_MONOTONIC; a slot with no queued buffer is dropped and uses up
 *   its sequence number; slots a late wake-up missed are skipped and take
 *   none.
 * - on demand (@on_demand, the embedded device, whose frame clock is the
 *   pipeline clock): a DQBUF is "the sensor delivered a frame now"; with
 *   nothing queued that frame is lost (its sequence number is used up)
 *   and DQBUF answers EAGAIN.
 * Either way the frames come from negcam_framegen_draw_at() with the
 * frame number = sequence and the scene at the frame's CLOCK_MONOTONIC
 * timestamp, as the module draws them; a frame the generator cannot draw
 * is delivered with V4L2_BUF_FLAG_ERROR, as negcam.ko does.
 * V4L2_FIELD_ALTERNATE: one field per slot, TOP then BOTTOM, both with the
 * frame's sequence and picture.
 *
 * A multiplanar profile (negcam_engine_buf_type() is _MPLANE) makes it a
 * multiplanar queue: the buffer ioctls take that type and struct
 * v4l2_plane arrays, an 'M' format's buffers have a memfd per plane (each
 * its own mmap offset), and there is no read(), as on negcam.ko.
 *
 * An output queue (@dir NC_OUTPUT, set after nc_vbq_init, with
 * @on_demand; single-planar: negcamsink's embedded device): the
 * application writes. QBUF takes the buffer's bytesused (0: the whole
 * buffer) and timestamp; the device consumes a queued buffer at once:
 * DQBUF returns the oldest queued one with the next sequence number and
 * QBUF's timestamp (V4L2_BUF_FLAG_TIMESTAMP_COPY), EAGAIN with none
 * queued. No read(), no frames drawn.
 *
 * Locking: every function is called with *lock (the device mutex) held;
 * the pacing thread takes it too; frames are drawn with it released.
 * @done_cond is signalled on every change a waiter may want (a buffer
 * queued or done, the stream stopped). @evfd (an EFD_SEMAPHORE eventfd,
 * or -1) counts the done buffers, so poll() on it is readable exactly
 * when DQBUF would not block.
 */
#ifndef NEGCAM_RUN_VBUF_H
#define NEGCAM_RUN_VBUF_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "fault.h"

#define NC_VB_MAX 32
#define NC_VB_MIN_BUFFERS 3 /* V4L2_CID_MIN_BUFFERS_FOR_CAPTURE, as negcam.ko (the default) */
#define NC_VB_READ_BUFFERS 2

enum nc_vb_state { NC_VB_DEQUEUED, NC_VB_QUEUED, NC_VB_ACTIVE, NC_VB_DONE };

/* A buffer's memory: one plane, or on a multiplanar queue an 'M' format's two or three. */
struct nc_vb_plane {
	int memfd;
	void *data; /* the model's own mapping, for drawing */
	uint32_t offset; /* the mmap cookie, page aligned as vb2's */
	uint32_t length, bytesused;
};

struct nc_vb {
	struct nc_vb_plane p[NC_MAX_PLANES];
	unsigned int nplanes;
	uint32_t sequence, field, prev;
	uint64_t prev_scene, ts_ns, order;
	enum nc_vb_state state;
	bool prepared, error;
};

struct nc_vbq {
	pthread_mutex_t *lock;
	pthread_cond_t done_cond; /* a buffer is done, or the stream stopped */
	pthread_cond_t tick_cond; /* wakes the pacing thread early (STREAMOFF) */
	struct negcam_engine *engine;
	struct nc_vb bufs[NC_VB_MAX];
	unsigned int nbufs, ndone;
	const void *owner; /* the file that allocated, as vb2's owner */
	bool streaming, thread_alive, reading;
	bool resync; /* S_PARM while streaming */
	bool on_demand; /* no pacing thread: DQBUF captures (see above) */
	unsigned int min_buffers; /* REQBUFS allocates at least this many */
	int dir; /* NC_CAPTURE (nc_vbq_init's), or NC_OUTPUT: see above */
	uint32_t offset_base; /* the first mmap offset: two queues on one device */
	unsigned int drawing; /* deliveries drawing with the lock released */
	pthread_t thread;
	struct v4l2_pix_format fmt; /* the stream's format, fixed at STREAMON */
	uint32_t count, pattern; /* slots since STREAMON (fields for ALTERNATE) */
	uint64_t order;
	uint64_t dropped, skipped;
	int evfd;
	/* Faults (user/vbuf-fault.c, docs/faults.md): */
	struct negcam_faults faults;      /* nc_vbq_set_faults() */
	struct negcam_fault_state fstate;
	uint64_t fault_t0;     /* CLOCK_MONOTONIC ns of the first slot since the faults were set */
	uint64_t last_ts;      /* on demand: the last frame's time, for the rate fault */
	uint64_t fault_lost;   /* frames the drop fault took */
	bool source_changed;   /* the source changed: no frames until STREAMOFF */
	bool unplugged;        /* gone: every call ENODEV */
	/* told NC_DO_SOURCE_CHANGE or NC_DO_UNPLUG when it happens, lock held */
	void (*on_fault)(void *ctx, uint32_t what);
	void *fault_ctx;
};

/* @evfd (or -1) is owned by the caller. Paced, NC_VB_MIN_BUFFERS. */
void nc_vbq_init(struct nc_vbq *q, pthread_mutex_t *lock, struct negcam_engine *e, int evfd);

/* A new memfd of @size bytes (page aligned), or -1 with errno set. */
int nc_vb_memfd(size_t size);

/* V4L2_CID_TEST_PATTERN: frames from now on draw @pattern whole. */
void nc_vbq_set_pattern(struct nc_vbq *q, uint32_t pattern);

/* True when a DQBUF would deliver a frame now (a done buffer, or on
 * demand a queued one). */
bool nc_vbq_ready(const struct nc_vbq *q);

/*
 * On demand: capture the next frame, as a DQBUF would (the frame number,
 * timestamp and field it would get, into @v; @v->index and the memory are
 * left 0), but into @dst of @size bytes, the application's memory rather
 * than a queue buffer, drawn whole (nothing is known of what @dst held)
 * with the lock released. 0, or -EINVAL when the queue does not stream on
 * demand; a frame the generator cannot draw has V4L2_BUF_FLAG_ERROR.
 */
int nc_vbq_capture_into(struct nc_vbq *q, void *dst, uint32_t size, struct v4l2_buffer *v);

/* The buffer ioctls for @file; -ENOTTY for any other request. */
int nc_vbq_ioctl(struct nc_vbq *q, const void *file, bool nonblock, unsigned long request,
		 void *arg);

/* read(): one frame, at most @count bytes; allocates and streams on first use. */
long nc_vbq_read(struct nc_vbq *q, const void *file, bool nonblock, void *dst, size_t count);

/* The memfd behind mmap offset @offset (@len bytes), or -EINVAL. */
int nc_vbq_mmap_fd(const struct nc_vbq *q, uint64_t offset, size_t len);

/*
 * The faults from now on (a profile's, or switched while streaming):
 * their times count from now when streaming, else from the next
 * STREAMON; an unplug already happened stays.
 */
void nc_vbq_set_faults(struct nc_vbq *q, const struct negcam_faults *f);

/* @file's last descriptor closed: stop and free what it owns. */
void nc_vbq_release(struct nc_vbq *q, const void *file);

/* In a forked child: the pacing thread does not exist there. */
void nc_vbq_forget_thread(struct nc_vbq *q);

#endif /* NEGCAM_RUN_VBUF_H */
