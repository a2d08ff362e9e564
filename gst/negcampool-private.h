/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool's private header: the instance struct and what its two files
 * share. negcampool.c is the pool and its capture side; negcampool-output.c
 * its output side (negcamsink), which uses the pool's functions and sets
 * pool->acquire_output; negcampool.c calls nothing of it by name.
 *
 * Ownership: pool->bufs[i] owns buffer i while it is in the pool (queued
 * in the device or idle); acquire hands that reference to the caller, and
 * GstBufferPool gives it back through release_buffer when downstream
 * drops the last ref. The memory of each buffer is the device's mapping;
 * the mapping is undone when the GstMemory is freed, so frames may outlive
 * the pool and a REQBUFS(0) (the device orphans mapped buffers).
 *
 * Locking: pool->lock covers queueing and the outstanding flags; it is
 * taken around QBUF in release so that negcam_pool_stop_queueing() and a
 * concurrent release cannot queue into a stopped device.
 */
#ifndef __NEGCAM_POOL_PRIVATE_H__
#define __NEGCAM_POOL_PRIVATE_H__

#include "negcampool.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (negcamdevice_debug);

#define NEGCAM_POOL_MAX 32

struct _NegcamPool {
  GstBufferPool parent;

  NegcamDevice *dev;
  struct v4l2_format fmt; /* as S_FMT answered; its type is the queue's */
  struct v4l2_pix_format pix; /* fmt, single-planar (negcam_format_get_pix) */
  guint n_planes; /* memory planes: a GstMemory each per buffer */
  GstVideoInfo dev_info; /* device layout */
  gboolean is_video;
  gboolean needs_meta;
  guint32 type; /* VIDEO_CAPTURE(_MPLANE), or OUTPUT for negcamsink */
  GWeakRef owner; /* output: the element that reports device loss */

  NegcamPoolMemory memory;
  gboolean grow;
  GstAllocator *dmabuf_alloc; /* non-NULL: buffers are exported dma-bufs */
  gboolean video_meta; /* from the config, at start */

  GMutex lock;
  GstBuffer *bufs[NEGCAM_POOL_MAX];
  gboolean outstanding[NEGCAM_POOL_MAX];
  gboolean in_device[NEGCAM_POOL_MAX];
  guint count;
  guint created; /* with CREATE_BUFS */
  guint32 last_flags; /* of the last DQBUF, streaming thread */
  struct timeval last_timestamp;
  gboolean cannot_grow;
  gboolean queueing;
  gboolean streaming; /* output: STREAMON done by negcam_pool_queue_* */
  GError *start_error; /* why the last start failed, in words */
  /* An output pool's acquire_buffer (set by negcam_pool_new_output): an
   * empty buffer to write into. NULL for a capture pool. */
  GstFlowReturn (*acquire_output) (
      NegcamPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *params);
};

/* The V4L2 memory of the pool's buffers. */
static inline guint32
negcam_pool_v4l2_memory (NegcamPool *pool)
{
  return negcam_pool_is_import (pool) ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
}

/* Buffers in the device now. Call with the lock held. */
static inline guint
negcam_pool_count_in_device (NegcamPool *pool)
{
  guint i, n = 0;

  for (i = 0; i < pool->count; i++)
    n += pool->in_device[i];
  return n;
}

G_END_DECLS

#endif /* __NEGCAM_POOL_PRIVATE_H__ */
