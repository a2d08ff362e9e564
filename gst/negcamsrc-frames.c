/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's frame path, see negcamsrc-private.h: create() and its
 * phases: STREAMON, waiting for and taking the next good frame (from our
 * pool or drawn straight into downstream's buffer), stamping it
 * (negcamsrc-timing.c) and, only when downstream cannot read the device's
 * strides, copying it.
 *
 * Locking: streaming thread only, see "create() and its phases" below.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>

#include "negcamsrc-private.h"

#define GST_CAT_DEFAULT negcamsrc_debug

/*
 * create() and its phases. All run in the streaming thread (GstBaseSrc
 * holds its live lock around create); none holds a lock of ours while
 * posting a message or waiting: the object lock is taken only to update
 * counters, and released before anything is posted.
 */

/* Phase 1: STREAMON before the first frame of a negotiation. No lock. */
static GstFlowReturn
gst_negcam_src_stream_on (GstNegcamSrc *src, gboolean live)
{
  gint type = src->buf_type;
  gint err;

  if (src->streaming)
    return GST_FLOW_OK;
  err = negcam_device_ioctl (src->dev, VIDIOC_STREAMON, &type);
  if (err == -ENODEV)
    return gst_negcam_src_device_lost (src, "STREAMON");
  if (err < 0) {
    GST_ELEMENT_ERROR (src, RESOURCE, READ,
        ("STREAMON failed on %s: %s", negcam_device_get_description (src->dev),
            g_strerror (-err)),
        (NULL));
    return GST_FLOW_ERROR;
  }
  src->streaming = TRUE;
  src->have_seq = FALSE;
  src->first_ts = GST_CLOCK_TIME_NONE;
  if (!GST_CLOCK_TIME_IS_VALID (src->next_time)) {
    src->next_time = live ? gst_negcam_src_running_time_now (src) : 0;
    src->stream_live = live;
  }
  return GST_FLOW_OK;
}

/* gst_negcam_src_draw_downstream(): downstream's pool cannot take this
 * frame; use our own buffers from now on. */
#define NEGCAM_SRC_FLOW_OWN_POOL GST_FLOW_CUSTOM_SUCCESS_1
/* gst_negcam_src_next_frame(): the source changed, negotiate again. */
#define NEGCAM_SRC_FLOW_SOURCE_CHANGE GST_FLOW_CUSTOM_SUCCESS_2

/* A buffer of downstream's pool we can draw into as it is: big enough,
 * laid out as our caps say (no GstVideoMeta, or one that agrees). */
static gboolean
gst_negcam_src_fits_buffer (GstNegcamSrc *src, GstBuffer *buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize maxsize = 0;
  guint i;

  gst_buffer_get_sizes (buf, NULL, &maxsize);
  if (maxsize < src->pix.sizeimage)
    return FALSE;
  if (!meta)
    return TRUE;
  if (!src->is_video || meta->n_planes != GST_VIDEO_INFO_N_PLANES (&src->info))
    return FALSE;
  for (i = 0; i < meta->n_planes; i++)
    if (meta->offset[i] != GST_VIDEO_INFO_PLANE_OFFSET (&src->info, i)
        || meta->stride[i] != GST_VIDEO_INFO_PLANE_STRIDE (&src->info, i))
      return FALSE;
  return TRUE;
}

/* The next frame, drawn by the device straight into a buffer of
 * downstream's pool (no copy anywhere). Acquiring may wait for
 * downstream, as a buffer of ours may; an inactive pool (downstream
 * renegotiated and dropped it) or a buffer that does not fit gives
 * NEGCAM_SRC_FLOW_OWN_POOL. No lock held. */
static GstFlowReturn
gst_negcam_src_draw_downstream (GstNegcamSrc *src, GstBuffer **out)
{
  struct v4l2_buffer v;
  GstBuffer *buf = NULL;
  GstFlowReturn ret;
  GstMapInfo map;
  gint err;

  ret = gst_buffer_pool_acquire_buffer (src->down_pool, &buf, NULL);
  if (ret == GST_FLOW_FLUSHING && !gst_buffer_pool_is_active (src->down_pool))
    return NEGCAM_SRC_FLOW_OWN_POOL;
  if (ret != GST_FLOW_OK)
    return ret;
  if (!gst_negcam_src_fits_buffer (src, buf)
      || !gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return NEGCAM_SRC_FLOW_OWN_POOL;
  }
  err = negcam_device_capture_into (src->dev, map.data, map.maxsize, &v);
  gst_buffer_unmap (buf, &map);
  if (err == -EAGAIN) { /* a fault held or dropped the frame (docs/faults.md) */
    gst_buffer_unref (buf);
    return NEGCAM_FLOW_EMPTY;
  }
  if (err < 0) {
    gst_buffer_unref (buf);
    GST_ERROR_OBJECT (
        src, "capturing into downstream's buffer: %s", g_strerror (-err));
    return err == -ENODEV ? NEGCAM_FLOW_GONE : GST_FLOW_ERROR;
  }
  negcam_buffer_set_capture (
      buf, src->is_video ? src->pix.sizeimage : v.bytesused, &v);
  *out = buf;
  return GST_FLOW_OK;
}

/* A frame in downstream's buffer when we may, else in ours (a DQBUF
 * through src->pool). No lock held. */
static GstFlowReturn
gst_negcam_src_acquire (GstNegcamSrc *src, GstBuffer **buf)
{
  if (src->down_pool) {
    GstFlowReturn ret = gst_negcam_src_draw_downstream (src, buf);

    if (ret != NEGCAM_SRC_FLOW_OWN_POOL)
      return ret;
    GST_INFO_OBJECT (src,
        "downstream's pool no longer takes our frames: "
        "back to our own buffers");
    gst_clear_object (&src->down_pool);
  }
  return gst_buffer_pool_acquire_buffer (
      GST_BUFFER_POOL (src->pool), buf, NULL);
}

/* Phase 3a: wait until a frame can be taken, then take it (a DQBUF
 * through the pool). Embedded and live: on the pipeline clock, a frame
 * with no free buffer is dropped (counted under the object lock). Else on
 * the device. NEGCAM_FLOW_EMPTY: nothing yet, ask again. No lock held
 * while waiting. */
static GstFlowReturn
gst_negcam_src_take_frame (GstNegcamSrc *src, gboolean live, GstBuffer **buf)
{
  GstFlowReturn ret;
  gint w;

  if (live && !negcam_device_is_self_paced (src->dev)) {
    /* The embedded device captures when asked: the pipeline clock is its
     * frame clock. */
    ret = gst_negcam_src_wait_clock (src, src->next_time);
    if (ret != GST_FLOW_OK)
      return ret;
    ret = gst_negcam_src_acquire (src, buf);
    if (ret == NEGCAM_FLOW_EMPTY) {
      /* Downstream holds every buffer: the device drops this frame (no
       * copy); the sequence gap is reported with the next frame. */
      GST_OBJECT_LOCK (src);
      src->drops++;
      GST_OBJECT_UNLOCK (src);
      GST_DEBUG_OBJECT (src,
          "no free buffer at %" GST_TIME_FORMAT ": frame dropped",
          GST_TIME_ARGS (src->next_time));
      src->next_time += gst_negcam_src_buffer_duration (src);
    }
    return ret;
  }
  w = negcam_device_wait (src->dev, -1);
  if (w == -EINTR)
    return GST_FLOW_FLUSHING;
  if (w == -ENODEV || negcam_device_is_gone (src->dev))
    return gst_negcam_src_device_lost (src, "poll");
  if (w < 0) {
    GST_ELEMENT_ERROR (src, RESOURCE, READ,
        ("%s stopped streaming", negcam_device_get_description (src->dev)),
        ("wait: %s", g_strerror (-w)));
    return GST_FLOW_ERROR;
  }
  return gst_negcam_src_acquire (src, buf);
}

/* A JPEG frame cut short: no EOI marker (FF D9) in its last bytes, where
 * an encoder puts it (a camera may pad after it). Truncated MJPEG is what
 * a USB camera loses most (docs/faults.md): such a frame is dropped. */
static gboolean
gst_negcam_src_jpeg_cut (GstNegcamSrc *src, GstBuffer *buf)
{
  gsize size = gst_buffer_get_size (buf), n = MIN (size, 64), i;
  guint8 tail[64];

  if (src->pix.pixelformat != V4L2_PIX_FMT_MJPEG && src->pix.pixelformat != V4L2_PIX_FMT_JPEG)
    return FALSE;
  gst_buffer_extract (buf, size - n, tail, n);
  for (i = n; i >= 2; i--)
    if (tail[i - 2] == 0xff && tail[i - 1] == 0xd9)
      return FALSE;
  return TRUE;
}

/* A source change (a fault of the embedded device, or the driver's
 * V4L2_EVENT_SOURCE_CHANGE): note the new size (G_FMT) for the next
 * negotiation and ask for one. */
static gboolean
gst_negcam_src_source_changed (GstNegcamSrc *src)
{
  struct v4l2_format f = { .type = src->buf_type };
  struct v4l2_pix_format pix;

  if (!negcam_device_take_source_change (src->dev)
      || negcam_device_ioctl (src->dev, VIDIOC_G_FMT, &f) < 0)
    return FALSE;
  negcam_format_get_pix (&f, &pix);
  GST_INFO_OBJECT (src, "source changed to %ux%u: renegotiating", pix.width, pix.height);
  src->source_width = pix.width;
  src->source_height = pix.height;
  gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (src));
  return TRUE;
}

/* Phase 3: the next good frame. Frames the device flags broken
 * (V4L2_BUF_FLAG_ERROR) are dropped, the sequence gap shows; five in a
 * row mean it cannot make this format at all. A JPEG cut short is dropped
 * too (not counted among those). A source change ends the wait with
 * NEGCAM_SRC_FLOW_SOURCE_CHANGE. No lock held. */
static GstFlowReturn
gst_negcam_src_next_frame (GstNegcamSrc *src, gboolean live, GstBuffer **buf)
{
  GstFlowReturn ret;
  gchar fcc[5];

  for (;;) {
    ret = gst_negcam_src_take_frame (src, live, buf);
    if (ret == NEGCAM_FLOW_EMPTY && gst_negcam_src_source_changed (src))
      return NEGCAM_SRC_FLOW_SOURCE_CHANGE;
    if (ret == NEGCAM_FLOW_EMPTY)
      continue;
    if (ret == NEGCAM_FLOW_GONE)
      return gst_negcam_src_device_lost (src, "DQBUF");
    if (ret != GST_FLOW_OK)
      return ret;
    if (!GST_BUFFER_FLAG_IS_SET (*buf, GST_BUFFER_FLAG_CORRUPTED)
        && gst_negcam_src_jpeg_cut (src, *buf)) {
      GST_DEBUG_OBJECT (src, "JPEG frame without its end (EOI): dropped");
      gst_clear_buffer (buf);
      continue;
    }
    if (!GST_BUFFER_FLAG_IS_SET (*buf, GST_BUFFER_FLAG_CORRUPTED)) {
      src->broken = 0;
      return GST_FLOW_OK;
    }
    gst_clear_buffer (buf);
    if (++src->broken >= 5)
      break;
  }
  GST_ELEMENT_ERROR (src, STREAM, FAILED,
      ("%s delivers only broken frames for %s %ux%u", negcam_device_get_description (src->dev),
          negcam_fourcc_to_string (src->pix.pixelformat, fcc),
          src->pix.width, src->pix.height),
      ("V4L2_BUF_FLAG_ERROR on %u frames in a row", src->broken));
  return GST_FLOW_ERROR;
}

/* Phase 5: downstream cannot read the device layout: the one case where a
 * frame is copied, counted (object lock) and logged. Takes @buf. */
static GstBuffer *
gst_negcam_src_copy_frame (GstNegcamSrc *src, GstBuffer *buf, guint32 seq)
{
  GstVideoInfo dev_info = src->info;
  GstVideoFrame in, out;
  GstBuffer *copy = gst_buffer_new_allocate (NULL, src->info.size, NULL);
  guint64 copies;

  negcam_video_info_apply_format (&dev_info, &src->fmt);
  if (gst_video_frame_map (&in, &dev_info, buf, GST_MAP_READ)) {
    if (gst_video_frame_map (&out, &src->info, copy, GST_MAP_WRITE)) {
      gst_video_frame_copy (&out, &in);
      gst_video_frame_unmap (&out);
    }
    gst_video_frame_unmap (&in);
  }
  gst_buffer_copy_into (copy, buf, GST_BUFFER_COPY_METADATA, 0, -1);
  gst_buffer_unref (buf);
  GST_OBJECT_LOCK (src);
  copies = ++src->copies;
  GST_OBJECT_UNLOCK (src);
  GST_INFO_OBJECT (src,
      "frame %u copied: device strides differ and downstream has no "
      "GstVideoMeta (%" G_GUINT64_FORMAT " copies so far)",
      seq, copies);
  return copy;
}

GstFlowReturn
gst_negcam_src_create (GstPushSrc *psrc, GstBuffer **outbuf)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (psrc);
  gboolean live = gst_base_src_is_live (GST_BASE_SRC (src));
  gboolean changed;
  GstBuffer *buf = NULL;
  GstFlowReturn ret;
  guint32 seq;

  if (!src->pool)
    return GST_FLOW_NOT_NEGOTIATED;
  ret = gst_negcam_src_stream_on (src, live);
  if (ret != GST_FLOW_OK)
    return ret;
  changed = gst_negcam_src_follow_liveness (src, live);
  ret = gst_negcam_src_next_frame (src, live, &buf);
  if (ret == NEGCAM_SRC_FLOW_SOURCE_CHANGE) {
    if (!gst_base_src_negotiate (GST_BASE_SRC (src)))
      return GST_FLOW_NOT_NEGOTIATED;
    return gst_negcam_src_create (psrc, outbuf);
  }
  if (ret != GST_FLOW_OK)
    return ret;
  seq = gst_negcam_src_stamp (src, buf, live);
  if (changed)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  if (src->need_copy)
    buf = gst_negcam_src_copy_frame (src, buf, seq);
  *outbuf = buf;
  return GST_FLOW_OK;
}
