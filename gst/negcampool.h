/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool: the device's MMAP buffers as GstBuffers, allocated once per
 * negotiation (REQBUFS/QUERYBUF/mmap when the pool starts) and recycled:
 * acquiring a buffer is a DQBUF, releasing it (downstream dropping its
 * last ref) is a QBUF. No per-frame allocation or copy.
 *
 * Memory: each buffer is either the device's mmap()ed buffer, or (when the
 * device can EXPBUF and the mode allows it) a dma-buf fd exported from it
 * and wrapped by a GstDmaBufAllocator, so that downstream that imports
 * dma-bufs gets the fd and everyone else maps the same pages.
 *
 * Growth: when downstream holds so many buffers that fewer than two are
 * left queued in the device after a DQBUF, the pool adds one with
 * CREATE_BUFS (if the device has it, up to 32 buffers) instead of
 * letting the device run dry; never a copy.
 */
#ifndef __NEGCAM_POOL_H__
#define __NEGCAM_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "negcamdevice.h"

G_BEGIN_DECLS

#define NEGCAM_TYPE_POOL (negcam_pool_get_type ())
G_DECLARE_FINAL_TYPE (NegcamPool, negcam_pool, NEGCAM, POOL, GstBufferPool)

/* acquire_buffer result when the device has no frame for us (EAGAIN). */
#define NEGCAM_FLOW_EMPTY GST_FLOW_CUSTOM_SUCCESS
/* acquire_buffer result when the device went away (ENODEV). */
#define NEGCAM_FLOW_GONE GST_FLOW_CUSTOM_ERROR

/**
 * NegcamPoolMemory:
 * @NEGCAM_POOL_MEMORY_AUTO: dma-buf (EXPBUF) when the device exports,
 *   else MMAP
 * @NEGCAM_POOL_MEMORY_MMAP: the device's mmap()ed buffers
 * @NEGCAM_POOL_MEMORY_DMABUF: dma-buf only; the pool fails to start when
 *   the device cannot EXPBUF
 * @NEGCAM_POOL_MEMORY_IMPORT: output pools only: no buffers of its own;
 *   upstream's dma-bufs are queued as they are (V4L2_MEMORY_DMABUF,
 *   negcam_pool_queue_import); never set as an element's io-mode
 */
typedef enum {
  NEGCAM_POOL_MEMORY_AUTO,
  NEGCAM_POOL_MEMORY_MMAP,
  NEGCAM_POOL_MEMORY_DMABUF,
  NEGCAM_POOL_MEMORY_IMPORT,
} NegcamPoolMemory;

/*
 * @fmt: the format S_FMT answered; its type is the queue's
 * (V4L2_BUF_TYPE_VIDEO_CAPTURE or _MPLANE; with one buffer per plane,
 * NV12M, each buffer holds a GstMemory per plane). @info: GStreamer's
 * layout of the same caps (NULL for compressed formats); when the
 * device's layout differs, or a buffer has several memories, buffers
 * carry a GstVideoMeta describing the device layout.
 */
NegcamPool *negcam_pool_new (NegcamDevice *dev,
    const struct v4l2_format *fmt, const GstVideoInfo *info);

/*
 * A pool of the device's output buffers (negcamsink): they start empty
 * with the application; acquiring gives an idle one, or one the device is
 * done with (DQBUF), waiting for it when the device holds them all;
 * negcam_pool_queue_output() hands a written buffer to the device (QBUF).
 * Releasing a buffer never queues it. When the device goes away while
 * upstream waits, the pool posts the error on @owner (weak reference).
 */
NegcamPool *negcam_pool_new_output (GstElement *owner, NegcamDevice *dev,
    const struct v4l2_pix_format *pix, const GstVideoInfo *info);
/* QBUF @buf (acquired from @pool) with @bytesused and its PTS as the
 * buffer timestamp, and STREAMON after the first since the pool started;
 * 0 or -errno. The caller keeps its reference. */
gint negcam_pool_queue_output (
    NegcamPool *pool, GstBuffer *buf, guint32 bytesused);

/*
 * An output pool in NEGCAM_POOL_MEMORY_IMPORT mode, active: QBUF @buf's
 * dma-buf (one memory, at offset 0) with @bytesused and its PTS, waiting
 * for a free slot when the device holds them all. The pool keeps a
 * reference to @buf until the device is done with it (DQBUF), and keeps
 * at most two such buffers in the device, so upstream's own pool never
 * runs dry for it. GST_FLOW_OK; GST_FLOW_FLUSHING; NEGCAM_FLOW_GONE (the
 * error posted on the owner); GST_FLOW_ERROR with -errno in @err (a QBUF
 * the device refused: EINVAL when it cannot use that dma-buf).
 */
GstFlowReturn negcam_pool_queue_import (
    NegcamPool *pool, GstBuffer *buf, guint32 bytesused, gint *err);

/* Before activation: which memory to hand out, whether to grow. */
void negcam_pool_set_memory (NegcamPool *pool, NegcamPoolMemory memory);
/* TRUE in NEGCAM_POOL_MEMORY_IMPORT mode. */
gboolean negcam_pool_is_import (NegcamPool *pool);
void negcam_pool_set_growth (NegcamPool *pool, gboolean grow);

/* A captured frame's place in the stream on @buf, as a DQBUF @v gave it:
 * size @size, OFFSET/OFFSET_END from the sequence, CORRUPTED from
 * V4L2_BUF_FLAG_ERROR. For the pool's buffers and for downstream's
 * buffers the device drew into (negcam_device_capture_into). */
void negcam_buffer_set_capture (
    GstBuffer *buf, gsize size, const struct v4l2_buffer *v);

/* TRUE when the buffers are dma-buf memory (EXPBUF worked). */
gboolean negcam_pool_is_dmabuf (NegcamPool *pool);
/* Flags and timestamp (ns) the driver gave the buffer the last acquire
 * returned (streaming thread only, right after acquiring). */
void negcam_pool_get_last_timestamp (
    NegcamPool *pool, guint32 *flags, GstClockTime *ts);
/* Buffers added with CREATE_BUFS since the pool started. */
guint negcam_pool_get_created (NegcamPool *pool);

/* TRUE when the device layout differs from GStreamer's default one. */
gboolean negcam_pool_needs_video_meta (NegcamPool *pool);

/* Stop handing released buffers back to the device (before STREAMOFF). */
void negcam_pool_stop_queueing (NegcamPool *pool);
/*
 * An output pool's stream ends: STREAMOFF and REQBUFS(0), so that S_FMT
 * may follow. The pool does the same itself when it is started again
 * while the device still streams its buffers (upstream stopped it and
 * starts it again): whoever activates an output pool gets it.
 */
void negcam_pool_stream_off (NegcamPool *pool);

/* Why the last start (activation) failed, as a GST_RESOURCE_ERROR in
 * words (NO_SPACE_LEFT: REQBUFS ENOMEM; SETTINGS: no EXPBUF for
 * io-mode=dmabuf; FAILED: anything else), or NULL. Free with
 * g_error_free. */
GError *negcam_pool_get_start_error (NegcamPool *pool);

/* Buffers the device really has (REQBUFS answer), 0 before start. */
guint negcam_pool_get_count (NegcamPool *pool);
/* Buffers currently queued in the device (frames it could capture). */
guint negcam_pool_get_queued (NegcamPool *pool);

/* Compute the device layout of @fmt into @info (which holds the caps):
 * one buffer per plane (NV12M) puts plane i after plane i-1's sizeimage
 * with its own bytesperline; otherwise the planes follow plane 0's
 * bytesperline. */
void negcam_video_info_apply_format (
    GstVideoInfo *info, const struct v4l2_format *fmt);

G_END_DECLS

#endif /* __NEGCAM_POOL_H__ */
