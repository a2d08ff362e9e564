/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink's frames: propose_allocation offers the pool of device
 * buffers, so upstream writes into the device's memory; render() queues
 * such a buffer as it is (or upstream's dma-buf, negcamsink-import.c),
 * copies anything else into a device buffer and counts it, and first
 * follows the consumer (V4L2_EVENT_SOURCE_CHANGE: RECONFIGURE upstream).
 * See negcamsink-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "negcamsink-private.h"

#define GST_CAT_DEFAULT negcamsink_debug

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

/* sink->pool, referenced (NULL before caps). */
NegcamPool *
gst_negcam_sink_ref_pool (GstNegcamSink *sink)
{
  NegcamPool *pool = NULL;

  GST_OBJECT_LOCK (sink);
  if (sink->pool)
    pool = gst_object_ref (sink->pool);
  GST_OBJECT_UNLOCK (sink);
  return pool;
}

/* Buffers of @caps (an allocation query's) fit the configured format:
 * the same caps, or for raw video the same format, size and layout; the
 * fields a producer leaves out (pixel-aspect-ratio, interlace-mode) or
 * colorimetry do not change the memory. */
static gboolean
gst_negcam_sink_fits_configured (GstNegcamSink *sink, GstCaps *caps)
{
  GstVideoInfo info;

  if (!caps || !sink->configured)
    return FALSE;
  if (gst_caps_is_equal (caps, sink->configured))
    return TRUE;
  if (!sink->is_video || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  return GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_INFO_FORMAT (&sink->info)
      && GST_VIDEO_INFO_WIDTH (&info) == GST_VIDEO_INFO_WIDTH (&sink->info)
      && GST_VIDEO_INFO_HEIGHT (&info) == GST_VIDEO_INFO_HEIGHT (&sink->info)
      && GST_VIDEO_INFO_SIZE (&info) == GST_VIDEO_INFO_SIZE (&sink->info);
}

/* The device buffers, for upstream to write into. Offered only when
 * GStreamer's default layout of the caps is the device's (else upstream
 * would need GstVideoMeta to write there; it gets its own buffers and the
 * sink copies, counted). */
gboolean
gst_negcam_sink_propose_allocation (GstBaseSink *bsink, GstQuery *query)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);
  NegcamPool *pool = gst_negcam_sink_ref_pool (sink);
  GstCaps *caps = NULL;
  guint queue_size;

  gst_query_parse_allocation (query, &caps, NULL);
  GST_DEBUG_OBJECT (sink, "allocation query for %" GST_PTR_FORMAT, caps);
  GST_OBJECT_LOCK (sink);
  queue_size = sink->queue_size;
  GST_OBJECT_UNLOCK (sink);
  if (pool && negcam_pool_is_import (pool)) {
    GST_INFO_OBJECT (sink, "importing upstream's dma-bufs: no pool offered");
  } else if (pool && gst_negcam_sink_fits_configured (sink, caps)
      && !negcam_pool_needs_video_meta (pool)) {
    gst_query_add_allocation_pool (query, GST_BUFFER_POOL (pool),
        sink->fmt.fmt.pix.sizeimage, queue_size, queue_size);
  } else if (pool) {
    GST_INFO_OBJECT (sink,
        "device layout differs from GStreamer's: "
        "no pool offered, frames will be copied");
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_clear_object (&pool);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

/* The consumer changed the format: ask upstream to renegotiate. */
static void
gst_negcam_sink_follow_consumer (GstNegcamSink *sink)
{
  if (!sink->events || !negcam_device_take_source_change (sink->dev))
    return;
  GST_OBJECT_LOCK (sink);
  sink->source_changes++;
  GST_OBJECT_UNLOCK (sink);
  GST_INFO_OBJECT (sink, "%s: source change: renegotiating upstream",
      negcam_device_get_description (sink->dev));
  if (negcam_sink_core_chose (&sink->core, NULL)) {
    GST_OBJECT_LOCK (sink);
    sink->reconfigures++;
    GST_OBJECT_UNLOCK (sink);
  }
}

/* Copy the frame of @in into @out, a device buffer. */
static gboolean
gst_negcam_sink_fill (GstNegcamSink *sink, GstBuffer *in, GstBuffer *out)
{
  GstVideoFrame src, dst;
  GstMapInfo map;
  gsize n;
  gboolean ok;

  if (sink->is_video) {
    /* device buffers carry a GstVideoMeta with the device layout */
    if (!gst_video_frame_map (&src, &sink->info, in, GST_MAP_READ))
      return FALSE;
    ok = gst_video_frame_map (&dst, &sink->info, out, GST_MAP_WRITE);
    if (ok) {
      ok = gst_video_frame_copy (&dst, &src);
      gst_video_frame_unmap (&dst);
    }
    gst_video_frame_unmap (&src);
    return ok;
  }
  n = gst_buffer_get_size (in);
  if (n > gst_buffer_get_size (out)
      || !gst_buffer_map (out, &map, GST_MAP_WRITE))
    return FALSE;
  gst_buffer_extract (in, 0, map.data, n);
  gst_buffer_unmap (out, &map);
  gst_buffer_set_size (out, n);
  return TRUE;
}

/* A device buffer holding a copy of @in (*@out); counted. */
static GstFlowReturn
gst_negcam_sink_copy (
    GstNegcamSink *sink, NegcamPool *pool, GstBuffer *in, GstBuffer **out)
{
  GstFlowReturn ret;
  guint64 copies;

  /* Upstream may have taken the pool and stopped it again (it
   * renegotiated): it starts anew (negcam_pool_stream_off). */
  if (!gst_buffer_pool_is_active (GST_BUFFER_POOL (pool))
      && !gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), TRUE)) {
    GST_ELEMENT_ERROR (sink, RESOURCE, NO_SPACE_LEFT,
        ("%s: cannot allocate output buffers (REQBUFS)",
            negcam_device_get_description (sink->dev)),
        (NULL));
    return GST_FLOW_ERROR;
  }
  ret = gst_buffer_pool_acquire_buffer (GST_BUFFER_POOL (pool), out, NULL);
  if (ret != GST_FLOW_OK)
    return ret;
  if (!gst_negcam_sink_fill (sink, in, *out)) {
    gst_clear_buffer (out);
    GST_ELEMENT_ERROR (sink, STREAM, FAILED, (NULL),
        ("cannot copy a %" G_GSIZE_FORMAT "-byte buffer into a %u-byte "
         "device buffer",
            gst_buffer_get_size (in), sink->fmt.fmt.pix.sizeimage));
    return GST_FLOW_ERROR;
  }
  gst_buffer_copy_into (*out, in, GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  GST_OBJECT_LOCK (sink);
  copies = ++sink->copies;
  GST_OBJECT_UNLOCK (sink);
  GST_INFO_OBJECT (sink,
      "buffer copied: it is not one of the device's (%" G_GUINT64_FORMAT
      " copies so far)",
      copies);
  return GST_FLOW_OK;
}

/* QBUF @buf (a device buffer) and STREAMON on the first one. */
static GstFlowReturn
gst_negcam_sink_queue (GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf)
{
  guint32 used = gst_negcam_sink_bytesused (sink, buf);

  return gst_negcam_sink_queued (
      sink, negcam_pool_queue_output (pool, buf, used), used);
}

/* @buf queued without a copy when it can be: the device's own buffer, or
 * upstream's dma-buf imported; GST_FLOW_CUSTOM_SUCCESS when it must be
 * copied. */
static GstFlowReturn
gst_negcam_sink_queue_as_is (
    GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf)
{
  if (buf->pool == GST_BUFFER_POOL (pool))
    return gst_negcam_sink_queue (sink, pool, buf);
  if (gst_negcam_sink_importable (sink, pool, buf)
      && gst_negcam_sink_start_import (sink, pool))
    return gst_negcam_sink_import (sink, pool, buf);
  if (negcam_pool_is_import (pool))
    gst_negcam_sink_end_import (sink, pool); /* a buffer it cannot import */
  return GST_FLOW_CUSTOM_SUCCESS;
}

GstFlowReturn
gst_negcam_sink_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);
  NegcamPool *pool = gst_negcam_sink_ref_pool (sink);
  GstBuffer *copy = NULL;
  GstFlowReturn ret;

  if (!pool) {
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION, (NULL), ("buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  gst_negcam_sink_follow_consumer (sink);
  ret = gst_negcam_sink_queue_as_is (sink, pool, buf); /* zero copy */
  if (ret == GST_FLOW_CUSTOM_SUCCESS) {
    ret = gst_negcam_sink_copy (sink, pool, buf, &copy);
    if (ret == GST_FLOW_OK)
      ret = gst_negcam_sink_queue (sink, pool, copy);
    gst_clear_buffer (&copy);
  }
  if (ret == NEGCAM_FLOW_GONE)
    ret = GST_FLOW_ERROR; /* the pool said so (negcam_pool_new_output) */
  gst_object_unref (pool);
  return ret;
}
