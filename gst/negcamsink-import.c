/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink's queueing of a frame: what a queued buffer fills and counts
 * (for the device's own buffers too), and upstream's dma-bufs queued as
 * they are (V4L2_MEMORY_DMABUF import) when the device takes them,
 * instead of a copy; back to the device's own buffers when it refuses.
 * See negcamsink-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <gst/allocators/gstdmabuf.h>

#include "negcamsink-private.h"

#define GST_CAT_DEFAULT negcamsink_debug

/* The bytes a frame in @buf fills on the device. */
guint32
gst_negcam_sink_bytesused (GstNegcamSink *sink, GstBuffer *buf)
{
  return sink->is_video ? sink->fmt.fmt.pix.sizeimage
                        : gst_buffer_get_size (buf);
}

/* After a QBUF (and STREAMON, by the pool) of @used bytes that gave @ret
 * (0 or -errno): the error posted, the frame counted. */
GstFlowReturn
gst_negcam_sink_queued (GstNegcamSink *sink, gint ret, guint32 used)
{
  if (ret == -ENODEV)
    return gst_negcam_sink_device_lost (sink, "QBUF");
  if (ret < 0) {
    GST_ELEMENT_ERROR (sink, RESOURCE, WRITE,
        ("%s: cannot queue a frame: %s",
            negcam_device_get_description (sink->dev), g_strerror (-ret)),
        ("QBUF/STREAMON of %u bytes", used));
    return GST_FLOW_ERROR;
  }
  GST_OBJECT_LOCK (sink);
  sink->frames++;
  GST_OBJECT_UNLOCK (sink);
  return GST_FLOW_OK;
}

/* ------------------------------------------------------------------ */
/* Upstream's dma-bufs, queued as they are (DMABUF import)             */

/* @buf is one dma-buf at offset 0 laid out as the device wants it, and
 * the sink may import it (dmabuf-import, the device did not refuse). */
gboolean
gst_negcam_sink_importable (
    GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gboolean allowed;
  GstMemory *mem;
  gsize offset, size;
  guint i;

  GST_OBJECT_LOCK (sink);
  allowed = sink->dmabuf_import;
  GST_OBJECT_UNLOCK (sink);
  if (!allowed || sink->import_refused || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  size = gst_memory_get_sizes (mem, &offset, NULL);
  GST_LOG_OBJECT (sink,
      "%s memory, offset %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
      " bytes, video meta %s",
      mem->allocator ? mem->allocator->mem_type : "?", offset, size,
      meta ? "yes" : "no");
  if (!gst_is_dmabuf_memory (mem) || offset != 0)
    return FALSE;
  if (!sink->is_video)
    return TRUE;
  if (size < sink->fmt.fmt.pix.sizeimage || negcam_pool_needs_video_meta (pool))
    return FALSE;
  for (i = 0; meta && i < meta->n_planes; i++)
    if (meta->stride[i] != GST_VIDEO_INFO_PLANE_STRIDE (&sink->info, i)
        || meta->offset[i] != GST_VIDEO_INFO_PLANE_OFFSET (&sink->info, i))
      return FALSE;
  return TRUE;
}

/* Turn the idle @pool into an import pool (REQBUFS with DMABUF); FALSE
 * when it already holds buffers of its own or the device refuses. */
gboolean
gst_negcam_sink_start_import (GstNegcamSink *sink, NegcamPool *pool)
{
  if (negcam_pool_is_import (pool))
    return TRUE;
  if (gst_buffer_pool_is_active (GST_BUFFER_POOL (pool)))
    return FALSE; /* upstream's buffers or copies already use it */
  negcam_pool_set_memory (pool, NEGCAM_POOL_MEMORY_IMPORT);
  if (gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), TRUE)) {
    GST_INFO_OBJECT (sink,
        "%s: upstream's dma-bufs are queued as they are "
        "(DMABUF import, no copy)",
        negcam_device_get_description (sink->dev));
    return TRUE;
  }
  GST_INFO_OBJECT (sink,
      "%s takes no dma-buf (REQBUFS with DMABUF): "
      "frames will be copied",
      negcam_device_get_description (sink->dev));
  GST_OBJECT_LOCK (sink);
  negcam_pool_set_memory (pool, sink->io_mode);
  GST_OBJECT_UNLOCK (sink);
  sink->import_refused = TRUE;
  return FALSE;
}

/* Back from import to the device's own buffers (for a copy). */
void
gst_negcam_sink_end_import (GstNegcamSink *sink, NegcamPool *pool)
{
  gst_negcam_sink_stop_pool (sink, pool);
  GST_OBJECT_LOCK (sink);
  negcam_pool_set_memory (pool, sink->io_mode);
  GST_OBJECT_UNLOCK (sink);
}

/* QBUF upstream's dma-buf @buf; GST_FLOW_CUSTOM_SUCCESS when the device
 * refused it: the sink copies from then on. */
GstFlowReturn
gst_negcam_sink_import (GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf)
{
  guint32 used = gst_negcam_sink_bytesused (sink, buf);
  GstFlowReturn flow;
  gint err;

  flow = negcam_pool_queue_import (pool, buf, used, &err);
  if (flow == GST_FLOW_ERROR && err < 0) {
    GST_INFO_OBJECT (sink,
        "%s refused upstream's dma-buf (QBUF: %s): "
        "frames will be copied",
        negcam_device_get_description (sink->dev), g_strerror (-err));
    sink->import_refused = TRUE;
    gst_negcam_sink_end_import (sink, pool);
    return GST_FLOW_CUSTOM_SUCCESS;
  }
  if (flow == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (sink, RESOURCE, WRITE,
        ("%s: waiting for the device to give a buffer back failed",
            negcam_device_get_description (sink->dev)),
        (NULL));
  if (flow != GST_FLOW_OK)
    return flow;
  GST_OBJECT_LOCK (sink);
  sink->imports++;
  GST_OBJECT_UNLOCK (sink);
  return gst_negcam_sink_queued (sink, 0, used);
}
