/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink's caps: what the output queue takes (the device's wanted
 * format first), and set_caps: TRY_FMT, a refusal naming the field the
 * device changed, then STREAMOFF, REQBUFS(0), S_FMT, S_PARM and a new
 * pool of device buffers. See negcamsink-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "negcamsink-private.h"
#include "negcamfixate.h"

#define GST_CAT_DEFAULT negcamsink_debug

/* ------------------------------------------------------------------ */
/* Caps                                                                */

/* What the device wants now: G_FMT of the output queue, as TRY_FMT
 * completes it (and G_PARM), as caps without colorimetry; NULL when it has
 * no format with caps. TRY_FMT of the current format answers that format
 * on any device, except where a consumer waits for another: a negcam.ko
 * loop keeps G_FMT while the producer's buffers exist and answers TRY_FMT
 * with the format its streaming consumer asked for (docs/loopback.md).
 * Call with dev_lock. */
static GstCaps *
gst_negcam_sink_wanted_caps (GstNegcamSink *sink)
{
  struct v4l2_format f = { .type = OUTPUT }, tried;
  struct v4l2_streamparm parm = { .type = OUTPUT };
  GstCaps *caps;

  if (negcam_device_ioctl (sink->dev, VIDIOC_G_FMT, &f) < 0)
    return NULL;
  tried = f;
  if (negcam_device_ioctl (sink->dev, VIDIOC_TRY_FMT, &tried) == 0)
    f = tried;
  if (negcam_device_ioctl (sink->dev, VIDIOC_G_PARM, &parm) < 0)
    memset (&parm, 0, sizeof (parm));
  caps = negcam_caps_from_format (&f.fmt.pix, &parm.parm.output.timeperframe);
  if (caps)
    gst_structure_remove_field (
        gst_caps_get_structure (caps, 0), "colorimetry");
  return caps;
}

/* Everything the output queue takes, the device's wanted format first. */
GstCaps *
gst_negcam_sink_get_caps (GstBaseSink *bsink, GstCaps *filter)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);
  GstCaps *all, *wanted, *caps;

  g_mutex_lock (&sink->dev_lock);
  if (!sink->cache) {
    g_mutex_unlock (&sink->dev_lock);
    caps = gst_pad_get_pad_template_caps (GST_BASE_SINK_PAD (bsink));
    goto filter;
  }
  all = negcam_format_cache_caps (sink->cache, NULL);
  wanted = gst_negcam_sink_wanted_caps (sink);
  g_mutex_unlock (&sink->dev_lock);
  caps = wanted
      ? gst_caps_intersect_full (wanted, all, GST_CAPS_INTERSECT_FIRST)
      : gst_caps_new_empty ();
  if (wanted && gst_caps_is_empty (caps)) {
    /* a rate the enumeration does not list: the size without it */
    gst_structure_remove_field (
        gst_caps_get_structure (wanted, 0), "framerate");
    gst_caps_unref (caps);
    caps = gst_caps_intersect_full (wanted, all, GST_CAPS_INTERSECT_FIRST);
  }
  gst_clear_caps (&wanted);
  caps = gst_caps_merge (caps, all);
  /* Square pixels, as a camera's consumers expect: a scaler in front
   * keeps the picture's shape with borders instead of a pixel aspect
   * ratio nobody reads. */
  gst_caps_set_simple (
      caps, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);

filter:
  /* ours first: the order is the device's preference */
  if (filter)
    gst_caps_take (&caps,
        gst_caps_intersect_full (caps, filter, GST_CAPS_INTERSECT_FIRST));
  return caps;
}
/* STREAMOFF, give the device's buffers back and stop @pool (if any). */
void
gst_negcam_sink_stop_pool (GstNegcamSink *sink, NegcamPool *pool)
{
  if (!pool)
    return;
  negcam_pool_stream_off (pool);
  gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), FALSE);
}

/* STREAMOFF and give the buffers back (S_FMT is EBUSY before). */
void
gst_negcam_sink_release_device (GstNegcamSink *sink)
{
  NegcamPool *pool;

  GST_OBJECT_LOCK (sink);
  pool = g_steal_pointer (&sink->pool);
  GST_OBJECT_UNLOCK (sink);
  gst_negcam_sink_stop_pool (sink, pool);
  gst_clear_object (&pool);
}

/* TRY_FMT the format @caps name; FALSE (error posted) when the device
 * would take another one, naming the field it changes. */
static gboolean
gst_negcam_sink_try (GstNegcamSink *sink, GstCaps *caps,
    struct v4l2_format *fmt, struct v4l2_fract *interval)
{
  struct v4l2_format tried;
  GstCaps *answer = NULL, *ours, *full;
  const gchar *field = NULL;
  gchar *asked = NULL, *offered = NULL;
  gboolean known;
  gint ret;

  /* With the fields producers leave out (image/jpeg's parsed) filled in
   * from ours, so the format cache recognises the format. */
  ours = gst_negcam_sink_get_caps (GST_BASE_SINK (sink), NULL);
  full = gst_caps_intersect (caps, ours);
  gst_caps_unref (ours);
  known = !gst_caps_is_empty (full);
  if (known) {
    full = gst_caps_fixate (full);
    g_mutex_lock (&sink->dev_lock);
    known =
        negcam_format_cache_caps_to_format (sink->cache, full, fmt, interval);
    g_mutex_unlock (&sink->dev_lock);
  }
  gst_caps_unref (full);
  if (!known) {
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION,
        ("%s has no output format for these caps",
            negcam_device_get_description (sink->dev)),
        ("caps %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  tried = *fmt;
  ret = negcam_device_ioctl (sink->dev, VIDIOC_TRY_FMT, &tried);
  if (ret == -ENODEV) {
    gst_negcam_sink_device_lost (sink, "TRY_FMT");
    return FALSE;
  }
  if (ret == 0)
    answer = negcam_caps_from_format (&tried.fmt.pix, NULL);
  if (answer)
    field = negcam_caps_first_difference (gst_caps_get_structure (caps, 0),
        gst_caps_get_structure (answer, 0), &asked, &offered);
  if (ret == 0 && answer && !field) {
    gst_caps_unref (answer);
    return TRUE;
  }
  if (field)
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION,
        ("%s refused the output format: it changes the %s from %s to %s "
         "(negcamconvertsink converts to what the device wants)",
            negcam_device_get_description (sink->dev), field, asked, offered),
        ("asked %" GST_PTR_FORMAT ", TRY_FMT answered %" GST_PTR_FORMAT, caps,
            answer));
  else
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION,
        ("%s refused the output format: %s",
            negcam_device_get_description (sink->dev),
            ret < 0 ? g_strerror (-ret) : "its answer has no caps"),
        ("asked %" GST_PTR_FORMAT, caps));
  gst_clear_caps (&answer);
  g_free (asked);
  g_free (offered);
  return FALSE;
}

/* S_FMT (and S_PARM) after the device's buffers are released. */
static gint
gst_negcam_sink_set_format (GstNegcamSink *sink, struct v4l2_format *fmt,
    const struct v4l2_fract *interval)
{
  struct v4l2_streamparm parm = { .type = OUTPUT };
  gint ret;

  gst_negcam_sink_release_device (sink);
  ret = negcam_device_ioctl (sink->dev, VIDIOC_S_FMT, fmt);
  if (ret < 0)
    return ret;
  if (interval->numerator && interval->denominator) {
    parm.parm.output.timeperframe = *interval;
    if (negcam_device_ioctl (sink->dev, VIDIOC_S_PARM, &parm) < 0)
      GST_INFO_OBJECT (sink, "%s keeps its frame interval (no S_PARM)",
          negcam_device_get_description (sink->dev));
  }
  return 0;
}

/* A pool of @sink->fmt buffers, configured for @caps. */
static NegcamPool *
gst_negcam_sink_new_pool (GstNegcamSink *sink, GstCaps *caps)
{
  NegcamPool *pool = negcam_pool_new_output (GST_ELEMENT (sink), sink->dev,
      &sink->fmt.fmt.pix, sink->is_video ? &sink->info : NULL);
  GstStructure *config;
  guint queue_size;

  GST_OBJECT_LOCK (sink);
  negcam_pool_set_memory (pool, sink->io_mode);
  queue_size = sink->queue_size;
  GST_OBJECT_UNLOCK (sink);
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (
      config, caps, sink->fmt.fmt.pix.sizeimage, queue_size, queue_size);
  if (sink->is_video)
    gst_buffer_pool_config_add_option (
        config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config);
  return pool;
}

gboolean
gst_negcam_sink_set_caps (GstBaseSink *bsink, GstCaps *caps)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);
  struct v4l2_format fmt;
  struct v4l2_fract interval;
  NegcamPool *pool;
  guint n;
  gint ret;

  if (!sink->dev)
    return FALSE;
  if (sink->configured && gst_caps_is_equal (caps, sink->configured))
    return TRUE;
  if (!gst_negcam_sink_try (sink, caps, &fmt, &interval))
    return FALSE;
  sink->is_video =
      gst_structure_has_name (gst_caps_get_structure (caps, 0), "video/x-raw");
  if (sink->is_video && !gst_video_info_from_caps (&sink->info, caps))
    return FALSE;
  ret = gst_negcam_sink_set_format (sink, &fmt, &interval);
  if (ret == -ENODEV)
    return gst_negcam_sink_device_lost (sink, "S_FMT") == GST_FLOW_OK;
  if (ret < 0) {
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION,
        ("%s refused S_FMT on its output queue: %s",
            negcam_device_get_description (sink->dev), g_strerror (-ret)),
        ("asked %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  sink->fmt = fmt;
  gst_caps_replace (&sink->configured, caps);
  pool = gst_negcam_sink_new_pool (sink, caps);
  GST_OBJECT_LOCK (sink);
  sink->pool = pool;
  n = ++sink->negotiations;
  GST_OBJECT_UNLOCK (sink);
  negcam_sink_core_set_caps (&sink->core, caps, n);
  GST_INFO_OBJECT (sink, "output format %" GST_PTR_FORMAT ", %u bytes", caps,
      fmt.fmt.pix.sizeimage);
  return TRUE;
}
