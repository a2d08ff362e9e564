/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's buffers, see negcamsrc-private.h: decide_allocation makes
 * (or keeps) our pool of device buffers (negcampool.c) and, when the
 * device can draw into any memory, takes downstream's pool so frames need
 * no copy; release_device stops the stream and frees the device's
 * buffers before a new format.
 *
 * Locking: src->pool's pointer changes under the object lock ("stats"
 * reads it from any thread); the streaming thread reads it without.
 * src->down_pool and the rest belong to the streaming thread. A pool that
 * does not start is posted with no lock held.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "negcamsrc-private.h"

#define GST_CAT_DEFAULT negcamsrc_debug

/* src->pool changes under the object lock (stats read it from any thread);
 * the streaming thread reads it without. */
static void
gst_negcam_src_set_pool (GstNegcamSrc *src, NegcamPool *pool)
{
  NegcamPool *old;

  GST_OBJECT_LOCK (src);
  old = src->pool;
  src->pool = pool ? gst_object_ref (pool) : NULL;
  GST_OBJECT_UNLOCK (src);
  if (old)
    gst_object_unref (old);
}

/* STREAMOFF and release the device's buffers (S_FMT is EBUSY before). */
void
gst_negcam_src_release_device (GstNegcamSrc *src)
{
  struct v4l2_requestbuffers req = { 0 };
  gint type = src->buf_type;

  gst_clear_object (&src->down_pool);
  if (!src->dev)
    return;
  if (src->pool)
    negcam_pool_stop_queueing (src->pool);
  if (src->streaming) {
    negcam_device_ioctl (src->dev, VIDIOC_STREAMOFF, &type);
    src->streaming = FALSE;
  }
  if (src->pool) {
    /* Buffers downstream still holds stay mapped (orphaned) until it
     * drops them; the pool itself is deactivated by GstBaseSrc. */
    req.type = src->buf_type;
    req.memory = V4L2_MEMORY_MMAP;
    req.count = 0;
    negcam_device_ioctl (src->dev, VIDIOC_REQBUFS, &req);
    gst_buffer_pool_set_active (GST_BUFFER_POOL (src->pool), FALSE);
    gst_negcam_src_set_pool (src, NULL);
  }
}

/* The pool did not start: post why, with what to do about it. No lock. */
static void
gst_negcam_src_post_pool_error (GstNegcamSrc *src)
{
  GError *err = negcam_pool_get_start_error (src->pool);
  const gchar *advice = "";
  gchar *text;

  if (!err)
    err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "%s: the buffers could not be set up", negcam_device_get_description (src->dev));
  if (err->code == GST_RESOURCE_ERROR_SETTINGS)
    advice = "; use io-mode=mmap or io-mode=auto";
  else if (err->code == GST_RESOURCE_ERROR_NO_SPACE_LEFT)
    advice = "; not enough memory for this format: choose a smaller size "
             "or fewer buffers (queue-size)";
  text = g_strconcat (err->message, advice, NULL);
  gst_element_message_full (GST_ELEMENT (src), GST_MESSAGE_ERROR, err->domain,
      err->code, text, NULL, __FILE__, GST_FUNCTION, __LINE__);
  g_error_free (err);
}

/* Can the device draw this stream into any memory, laid out as GStreamer
 * lays out the caps? (Fields of V4L2_FIELD_ALTERNATE come from the queue's
 * buffers.) */
static gboolean
gst_negcam_src_can_draw_downstream (GstNegcamSrc *src)
{
  return negcam_device_can_capture_into (src->dev) && !src->need_copy
      && !negcam_pool_needs_video_meta (src->pool)
      && src->pix.field != V4L2_FIELD_ALTERNATE;
}

/* Configure downstream's pool @pool for our caps, as videotestsrc does:
 * our size at least, downstream's counts. An active pool (a RECONFIGURE
 * that changed nothing) is taken as it is when its buffers are big enough. */
static gboolean
gst_negcam_src_configure_down_pool (
    GstNegcamSrc *src, GstBufferPool *pool, guint size, guint min, guint max)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint cur_size = 0;

  if (gst_buffer_pool_is_active (pool)) {
    gst_buffer_pool_config_get_params (config, NULL, &cur_size, NULL, NULL);
    gst_structure_free (config);
    return cur_size >= src->pix.sizeimage;
  }
  gst_buffer_pool_config_set_params (config, src->configured, size, min, max);
  if (gst_buffer_pool_set_config (pool, config))
    return TRUE;
  /* The pool may have adjusted the configuration: take it if it fits. */
  config = gst_buffer_pool_get_config (pool);
  if (gst_buffer_pool_config_validate_params (
          config, src->configured, size, min, max))
    return gst_buffer_pool_set_config (pool, config);
  gst_structure_free (config);
  return FALSE;
}

/* Use the first pool downstream offers, when the device can draw into it:
 * the frames are then made in downstream's buffers (its device buffers,
 * for negcamsink) and nobody copies them. GstBaseSrc activates the pool;
 * src->pool stays running for STREAMON and as the fallback. */
static gboolean
gst_negcam_src_take_down_pool (GstNegcamSrc *src, GstQuery *query)
{
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;

  gst_clear_object (&src->down_pool);
  if (gst_query_get_n_allocation_pools (query) == 0
      || !gst_negcam_src_can_draw_downstream (src))
    return FALSE;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (!pool)
    return FALSE;
  size = MAX (size, src->pix.sizeimage);
  if (!gst_negcam_src_configure_down_pool (src, pool, size, min, max)) {
    GST_INFO_OBJECT (src,
        "downstream's pool %" GST_PTR_FORMAT " does not "
        "take our caps: frames go into our own buffers",
        pool);
    gst_object_unref (pool);
    return FALSE;
  }
  GST_INFO_OBJECT (src,
      "drawing frames into downstream's pool %" GST_PTR_FORMAT " (no copy)",
      pool);
  gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  src->down_pool = pool;
  return TRUE;
}

/* How many buffers a new pool gets: queue-size when set, else the
 * device's minimum, what downstream keeps, one being pushed and one spare
 * so that a frame can be captured while another is in flight. Also gives
 * queue-size, read under the object lock. */
static guint
gst_negcam_src_pool_count (
    GstNegcamSrc *src, GstQuery *query, guint *queue_size)
{
  struct v4l2_control ctrl = { .id = V4L2_CID_MIN_BUFFERS_FOR_CAPTURE };
  guint down_min = 0, i, count, dev_min = 2;

  for (i = 0; i < gst_query_get_n_allocation_pools (query); i++) {
    guint min = 0;
    gst_query_parse_nth_allocation_pool (query, i, NULL, NULL, &min, NULL);
    down_min = MAX (down_min, min);
  }
  if (negcam_device_ioctl (src->dev, VIDIOC_G_CTRL, &ctrl) == 0
      && ctrl.value > 0)
    dev_min = ctrl.value;

  GST_OBJECT_LOCK (src);
  *queue_size = src->queue_size;
  GST_OBJECT_UNLOCK (src);
  count = *queue_size ? *queue_size : dev_min + down_min + 2;
  return CLAMP (count, 2, 32);
}

/* A new pool of @count device buffers for the negotiated format, set as
 * src->pool and started; FALSE (no pool) when it cannot start. */
static gboolean
gst_negcam_src_start_pool (
    GstNegcamSrc *src, guint count, guint queue_size, gboolean meta_ok)
{
  GstStructure *config;
  NegcamPool *pool = negcam_pool_new (
      src->dev, &src->fmt, src->is_video ? &src->info : NULL);

  gst_negcam_src_set_pool (src, pool);
  gst_object_unref (pool);
  GST_OBJECT_LOCK (src);
  negcam_pool_set_memory (src->pool, src->io_mode);
  GST_OBJECT_UNLOCK (src);
  /* A fixed queue-size means fixed; otherwise grow rather than run dry. */
  negcam_pool_set_growth (src->pool, queue_size == 0);
  src->pool_created = 0;
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (src->pool));
  gst_buffer_pool_config_set_params (
      config, src->configured, src->pix.sizeimage, count, count);
  if (meta_ok)
    gst_buffer_pool_config_add_option (
        config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL (src->pool), config)) {
    gst_negcam_src_set_pool (src, NULL);
    return FALSE;
  }
  /* Started here rather than by GstBaseSrc, so that a failure (no memory
   * for the buffers, no dma-bufs) is an error in words, not a bare
   * not-negotiated. */
  if (!gst_buffer_pool_set_active (GST_BUFFER_POOL (src->pool), TRUE)) {
    gst_negcam_src_post_pool_error (src);
    gst_negcam_src_set_pool (src, NULL);
    return FALSE;
  }
  src->need_copy = negcam_pool_needs_video_meta (src->pool) && !meta_ok;
  if (src->need_copy)
    GST_WARNING_OBJECT (src,
        "device strides differ from GStreamer's and "
        "downstream has no GstVideoMeta: frames will be copied (counted)");
  return TRUE;
}

gboolean
gst_negcam_src_decide_allocation (GstBaseSrc *bsrc, GstQuery *query)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  guint count, queue_size;
  gboolean meta_ok;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!src->configured || !src->dev)
    return FALSE;

  meta_ok =
      gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  if (src->pool && gst_buffer_pool_is_active (GST_BUFFER_POOL (src->pool))) {
    /* A RECONFIGURE without format change: keep the running pool. */
    count = negcam_pool_get_count (src->pool);
  } else {
    count = gst_negcam_src_pool_count (src, query, &queue_size);
    if (!gst_negcam_src_start_pool (src, count, queue_size, meta_ok))
      return FALSE;
  }

  if (gst_negcam_src_take_down_pool (src, query))
    return TRUE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, GST_BUFFER_POOL (src->pool),
        src->pix.sizeimage, count, count);
  else
    gst_query_add_allocation_pool (query, GST_BUFFER_POOL (src->pool),
        src->pix.sizeimage, count, count);
  return TRUE;
}
