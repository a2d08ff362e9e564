/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool: the device's MMAP buffers as GstBuffers, allocated once per
 * negotiation (REQBUFS/QUERYBUF/mmap when the pool starts) and recycled:
 * acquiring a buffer is a DQBUF, releasing it (downstream dropping its
 * last ref) is a QBUF. No per-frame allocation or copy.
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

/*
 * @pix: the format set with S_FMT. @info: GStreamer's layout of the same
 * caps (NULL for compressed formats); when the device's strides differ,
 * buffers carry a GstVideoMeta describing the device layout.
 */
NegcamPool *negcam_pool_new (NegcamDevice *dev,
    const struct v4l2_pix_format *pix, const GstVideoInfo *info);

/* TRUE when the device layout differs from GStreamer's default one. */
gboolean negcam_pool_needs_video_meta (NegcamPool *pool);

/* Stop handing released buffers back to the device (before STREAMOFF). */
void negcam_pool_stop_queueing (NegcamPool *pool);

/* Buffers the device really has (REQBUFS answer), 0 before start. */
guint negcam_pool_get_count (NegcamPool *pool);
/* Buffers currently queued in the device (frames it could capture). */
guint negcam_pool_get_queued (NegcamPool *pool);

/* Compute the device layout of @pix into @info (which holds the caps). */
void negcam_video_info_apply_format (
    GstVideoInfo *info, const struct v4l2_pix_format *pix);

G_END_DECLS

#endif /* __NEGCAM_POOL_H__ */
