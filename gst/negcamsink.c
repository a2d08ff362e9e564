/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamsink
 * @title: negcamsink
 * @see_also: negcamconvertsink, negcamsrc
 *
 * A video sink for V4L2 output queues: the output node of a negcam.ko
 * loop, vivid's video output, any V4L2 output device, or the embedded
 * negcam engine playing a profile with an output queue. Its caps come
 * from the output queue, the device's current (or wanted) format first;
 * set_caps is TRY_FMT, then S_FMT and S_PARM. Upstream writes into the
 * device's own buffers (the pool the sink offers); a buffer from
 * anywhere else is copied and counted. When the reader on the far side
 * of a loop changes the format (V4L2_EVENT_SOURCE_CHANGE), the sink asks
 * upstream to renegotiate. At EOS it posts its statistics as a
 * `negcamsink-stats` element message.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! \
 *     video/x-raw,format=YUY2,width=640,height=480 ! \
 *     negcamsink device=/dev/video2
 * ]| The output node of a loop (after `insmod negcam.ko loops=1`), written
 * straight into the device's buffers.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=30 ! \
 *     negcamsink profile=tests/gst/output.profile sync=false
 * ]| The embedded engine with an output queue, no module needed; -m
 * prints the `negcamsink-stats` message.
 *
 * See docs/negcamsink.md.
 */
/*
 * negcamsink: a video sink for V4L2 output queues. See docs/negcamsink.md.
 *
 * - Caps come from the output queue through the format cache
 *   (negcam_format_cache_new_for_type with V4L2_BUF_TYPE_VIDEO_OUTPUT), the
 *   device's current (or wanted) format first.
 * - set_caps: TRY_FMT, refusal naming the field the device changed, then
 *   STREAMOFF, REQBUFS(0), S_FMT, S_PARM and a new pool of device buffers.
 * - propose_allocation offers that pool, so upstream writes into the
 *   device's memory; a buffer from anywhere else is copied into a device
 *   buffer, and counted ("copies", "stats").
 * - Following the consumer: V4L2_EVENT_SOURCE_CHANGE on the output queue
 *   (a reader on the far side of a loop set another format) makes the
 *   sink send RECONFIGURE upstream; get_caps then puts the device's new
 *   G_FMT answer first, and the new caps come back through set_caps.
 *
 * Locking: the object lock covers the properties, the counters and
 * sink->pool (read by "stats" from any thread); dev_lock covers sink->dev
 * and sink->cache (caps queries come from any thread). Neither is held
 * while posting a message or pushing an event.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/video/video.h>

#include "negcamsink.h"
#include "negcamformatcache.h"
#include "negcamdevice.h"
#include "negcamfixate.h"
#include "negcampool.h"

GST_DEBUG_CATEGORY_STATIC (negcamsink_debug);
#define GST_CAT_DEFAULT negcamsink_debug

#define OUTPUT V4L2_BUF_TYPE_VIDEO_OUTPUT
#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILE ""
#define DEFAULT_IO_MODE NEGCAM_POOL_MEMORY_MMAP
#define DEFAULT_QUEUE_SIZE 4
#define DEFAULT_DMABUF_IMPORT TRUE

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_PROFILE,
  PROP_DEVICE_NAME,
  PROP_IO_MODE,
  PROP_DMABUF_IMPORT,
  PROP_QUEUE_SIZE,
  PROP_COPIES,
  PROP_STATS,
  PROP_DEVICE_HANDLE,
};

struct _GstNegcamSink {
  GstBaseSink parent;

  /* properties, object lock */
  gchar *device, *profile, *card;
  NegcamPoolMemory io_mode;
  gboolean dmabuf_import;
  guint queue_size;

  /* dev_lock */
  GMutex dev_lock;
  NegcamDevice *dev;
  NegcamFormatCache *cache;
  gboolean events; /* SOURCE_CHANGE subscribed */

  /* streaming thread */
  struct v4l2_format fmt;
  GstVideoInfo info;
  gboolean is_video;
  GstCaps *configured;

  gboolean import_refused; /* the device took no dma-buf of upstream's */

  /* object lock */
  NegcamPool *pool;
  guint64 frames, copies, imports;
  guint negotiations, source_changes, reconfigures;
};

G_DEFINE_TYPE (GstNegcamSink, gst_negcam_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (
    negcamsink, "negcamsink", GST_RANK_NONE, GST_TYPE_NEGCAM_SINK);

#define GST_TYPE_NEGCAM_SINK_IO_MODE (gst_negcam_sink_io_mode_get_type ())
static GType
gst_negcam_sink_io_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { NEGCAM_POOL_MEMORY_MMAP, "Output buffers mmap()ed from the device",
        "mmap" },
    { NEGCAM_POOL_MEMORY_AUTO,
        "Output buffers exported as dma-bufs when the device can, else mmap",
        "auto" },
    { NEGCAM_POOL_MEMORY_DMABUF,
        "Output buffers exported as dma-bufs, error when EXPBUF fails",
        "dmabuf" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (
        &type, g_enum_register_static ("GstNegcamSinkIoMode", values));
  return type;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* The device answered ENODEV: say so as negcamsrc does. */
static GstFlowReturn
gst_negcam_sink_device_lost (GstNegcamSink *sink, const gchar *what)
{
  gchar *card;

  GST_OBJECT_LOCK (sink);
  card = g_strdup (sink->card ? sink->card : "");
  GST_OBJECT_UNLOCK (sink);
  GST_ELEMENT_ERROR (sink, RESOURCE, NOT_FOUND,
      ("Device %s (\"%s\") disappeared: it was unplugged or its driver "
       "removed",
          negcam_device_get_description (sink->dev), card),
      ("%s: ENODEV", what));
  g_free (card);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------------------ */
/* Device open/close (NULL <-> READY)                                  */

static NegcamDevice *
gst_negcam_sink_open_device (GstNegcamSink *sink)
{
  GError *err = NULL;
  gchar *profile, *device;
  NegcamDevice *dev;

  GST_OBJECT_LOCK (sink);
  profile = g_strdup (sink->profile);
  device = g_strdup (sink->device);
  GST_OBJECT_UNLOCK (sink);
  dev = negcam_device_open_full (
      device, profile, NEGCAM_DEVICE_OPEN_OUTPUT, &err);
  g_free (profile);
  g_free (device);
  if (dev)
    return dev;
  if (g_error_matches (err, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_PROFILE))
    GST_ELEMENT_ERROR (sink, RESOURCE, SETTINGS, ("%s", err->message),
        ("the profile language is described in docs/profiles.md"));
  else
    GST_ELEMENT_ERROR (
        sink, RESOURCE, OPEN_WRITE, ("%s", err->message), (NULL));
  g_error_free (err);
  return NULL;
}

static gboolean
gst_negcam_sink_open (GstNegcamSink *sink)
{
  struct v4l2_capability cap = { 0 };
  NegcamDevice *dev = gst_negcam_sink_open_device (sink);
  gint ret;

  if (!dev)
    return FALSE;
  ret = negcam_device_ioctl (dev, VIDIOC_QUERYCAP, &cap);
  if (ret == 0 && !(cap.capabilities & V4L2_CAP_DEVICE_CAPS))
    cap.device_caps = cap.capabilities; /* a driver older than 3.3 */
  if (ret < 0 || !(cap.device_caps & V4L2_CAP_VIDEO_OUTPUT)) {
    GST_ELEMENT_ERROR (sink, RESOURCE, SETTINGS,
        ("%s is not a video output device%s", negcam_device_get_description (dev),
            ret < 0 ? ""
                    : " (it has no V4L2_CAP_VIDEO_OUTPUT; for an embedded "
                      "profile: no \"format FOURCC output\" block)"),
        (NULL));
    negcam_device_unref (dev);
    return FALSE;
  }
  ret = negcam_device_subscribe_source_change (dev);
  sink->events = ret == 0;
  if (ret < 0)
    GST_INFO_OBJECT (sink,
        "%s has no V4L2_EVENT_SOURCE_CHANGE (%s): the sink keeps its "
        "format until upstream changes it",
        negcam_device_get_description (dev), g_strerror (-ret));

  g_mutex_lock (&sink->dev_lock);
  sink->dev = dev;
  sink->cache = negcam_format_cache_new_for_type (dev, OUTPUT);
  g_mutex_unlock (&sink->dev_lock);
  GST_OBJECT_LOCK (sink);
  g_free (sink->card);
  sink->card = g_strndup ((const gchar *)cap.card, sizeof (cap.card));
  GST_OBJECT_UNLOCK (sink);
  return TRUE;
}

static void
gst_negcam_sink_close (GstNegcamSink *sink)
{
  g_mutex_lock (&sink->dev_lock);
  g_clear_pointer (&sink->cache, negcam_format_cache_free);
  g_clear_pointer (&sink->dev, negcam_device_unref);
  g_mutex_unlock (&sink->dev_lock);
  GST_OBJECT_LOCK (sink);
  g_clear_pointer (&sink->card, g_free);
  GST_OBJECT_UNLOCK (sink);
}

static GstStateChangeReturn
gst_negcam_sink_change_state (GstElement *element, GstStateChange transition)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && !gst_negcam_sink_open (sink))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_negcam_sink_parent_class)
            ->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_negcam_sink_close (sink);
  return ret;
}

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
static GstCaps *
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

/* Caps a producer sends often lack fields ours carry (interlace-mode,
 * parsed, colorimetry): accept fixed caps that intersect what the device
 * takes; set_caps checks the rest with TRY_FMT. */
static gboolean
gst_negcam_sink_query (GstBaseSink *bsink, GstQuery *query)
{
  GstCaps *caps, *ours;
  gboolean ok;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ACCEPT_CAPS)
    return GST_BASE_SINK_CLASS (gst_negcam_sink_parent_class)
        ->query (bsink, query);
  gst_query_parse_accept_caps (query, &caps);
  ours = gst_negcam_sink_get_caps (bsink, NULL);
  ok = gst_caps_is_fixed (caps) && gst_caps_can_intersect (caps, ours);
  gst_caps_unref (ours);
  gst_query_set_accept_caps_result (query, ok);
  return TRUE;
}

/* STREAMOFF, give the device's buffers back and stop @pool (if any). */
static void
gst_negcam_sink_stop_pool (GstNegcamSink *sink, NegcamPool *pool)
{
  if (!pool)
    return;
  negcam_pool_stream_off (pool);
  gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), FALSE);
}

/* STREAMOFF and give the buffers back (S_FMT is EBUSY before). */
static void
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
    known = negcam_format_cache_caps_to_format (sink->cache, full, fmt, interval);
    g_mutex_unlock (&sink->dev_lock);
  }
  gst_caps_unref (full);
  if (!known) {
    GST_ELEMENT_ERROR (sink, CORE, NEGOTIATION,
        ("%s has no output format for these caps", negcam_device_get_description (sink->dev)),
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
        ("%s refused the output format: %s", negcam_device_get_description (sink->dev),
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

static gboolean
gst_negcam_sink_set_caps (GstBaseSink *bsink, GstCaps *caps)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);
  struct v4l2_format fmt;
  struct v4l2_fract interval;
  NegcamPool *pool;
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
        ("%s refused S_FMT on its output queue: %s", negcam_device_get_description (sink->dev),
            g_strerror (-ret)),
        ("asked %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  sink->fmt = fmt;
  gst_caps_replace (&sink->configured, caps);
  pool = gst_negcam_sink_new_pool (sink, caps);
  GST_OBJECT_LOCK (sink);
  sink->pool = pool;
  sink->negotiations++;
  GST_OBJECT_UNLOCK (sink);
  GST_INFO_OBJECT (sink, "output format %" GST_PTR_FORMAT ", %u bytes", caps,
      fmt.fmt.pix.sizeimage);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

/* sink->pool, referenced (NULL before caps). */
static NegcamPool *
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
static gboolean
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
  if (gst_pad_push_event (
          GST_BASE_SINK_PAD (sink), gst_event_new_reconfigure ())) {
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

/* The bytes a frame in @buf fills on the device. */
static guint32
gst_negcam_sink_bytesused (GstNegcamSink *sink, GstBuffer *buf)
{
  return sink->is_video ? sink->fmt.fmt.pix.sizeimage
                        : gst_buffer_get_size (buf);
}

/* After a QBUF (and STREAMON, by the pool) of @used bytes that gave @ret
 * (0 or -errno): the error posted, the frame counted. */
static GstFlowReturn
gst_negcam_sink_queued (GstNegcamSink *sink, gint ret, guint32 used)
{
  if (ret == -ENODEV)
    return gst_negcam_sink_device_lost (sink, "QBUF");
  if (ret < 0) {
    GST_ELEMENT_ERROR (sink, RESOURCE, WRITE,
        ("%s: cannot queue a frame: %s", negcam_device_get_description (sink->dev),
            g_strerror (-ret)),
        ("QBUF/STREAMON of %u bytes", used));
    return GST_FLOW_ERROR;
  }
  GST_OBJECT_LOCK (sink);
  sink->frames++;
  GST_OBJECT_UNLOCK (sink);
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

/* ------------------------------------------------------------------ */
/* Upstream's dma-bufs, queued as they are (DMABUF import)             */

/* @buf is one dma-buf at offset 0 laid out as the device wants it, and
 * the sink may import it (dmabuf-import, the device did not refuse). */
static gboolean
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
  GST_LOG_OBJECT (sink, "%s memory, offset %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
      " bytes, video meta %s", mem->allocator ? mem->allocator->mem_type : "?",
      offset, size, meta ? "yes" : "no");
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
static gboolean
gst_negcam_sink_start_import (GstNegcamSink *sink, NegcamPool *pool)
{
  if (negcam_pool_is_import (pool))
    return TRUE;
  if (gst_buffer_pool_is_active (GST_BUFFER_POOL (pool)))
    return FALSE; /* upstream's buffers or copies already use it */
  negcam_pool_set_memory (pool, NEGCAM_POOL_MEMORY_IMPORT);
  if (gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), TRUE)) {
    GST_INFO_OBJECT (sink, "%s: upstream's dma-bufs are queued as they are "
        "(DMABUF import, no copy)", negcam_device_get_description (sink->dev));
    return TRUE;
  }
  GST_INFO_OBJECT (sink, "%s takes no dma-buf (REQBUFS with DMABUF): "
      "frames will be copied", negcam_device_get_description (sink->dev));
  GST_OBJECT_LOCK (sink);
  negcam_pool_set_memory (pool, sink->io_mode);
  GST_OBJECT_UNLOCK (sink);
  sink->import_refused = TRUE;
  return FALSE;
}

/* Back from import to the device's own buffers (for a copy). */
static void
gst_negcam_sink_end_import (GstNegcamSink *sink, NegcamPool *pool)
{
  gst_negcam_sink_stop_pool (sink, pool);
  GST_OBJECT_LOCK (sink);
  negcam_pool_set_memory (pool, sink->io_mode);
  GST_OBJECT_UNLOCK (sink);
}

/* QBUF upstream's dma-buf @buf; GST_FLOW_CUSTOM_SUCCESS when the device
 * refused it: the sink copies from then on. */
static GstFlowReturn
gst_negcam_sink_import (GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf)
{
  guint32 used = gst_negcam_sink_bytesused (sink, buf);
  GstFlowReturn flow;
  gint err;

  flow = negcam_pool_queue_import (pool, buf, used, &err);
  if (flow == GST_FLOW_ERROR && err < 0) {
    GST_INFO_OBJECT (sink, "%s refused upstream's dma-buf (QBUF: %s): "
        "frames will be copied", negcam_device_get_description (sink->dev),
        g_strerror (-err));
    sink->import_refused = TRUE;
    gst_negcam_sink_end_import (sink, pool);
    return GST_FLOW_CUSTOM_SUCCESS;
  }
  if (flow == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (sink, RESOURCE, WRITE,
        ("%s: waiting for the device to give a buffer back failed",
            negcam_device_get_description (sink->dev)), (NULL));
  if (flow != GST_FLOW_OK)
    return flow;
  GST_OBJECT_LOCK (sink);
  sink->imports++;
  GST_OBJECT_UNLOCK (sink);
  return gst_negcam_sink_queued (sink, 0, used);
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

static GstFlowReturn
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

static GstStructure *gst_negcam_sink_stats (GstNegcamSink *sink);

/* At EOS the counters go on the bus ("negcamsink-stats", gst-launch -m
 * prints it): what a run cost, copies included. */
static gboolean
gst_negcam_sink_event (GstBaseSink *bsink, GstEvent *event)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS)
    gst_element_post_message (GST_ELEMENT (sink),
        gst_message_new_element (
            GST_OBJECT (sink), gst_negcam_sink_stats (sink)));
  return GST_BASE_SINK_CLASS (gst_negcam_sink_parent_class)
      ->event (bsink, event);
}

/* ------------------------------------------------------------------ */
/* Flushing and stopping                                               */

/* unlock / unlock_stop: wake (or stop waking) a wait on the device,
 * ours or upstream's in the pool. */
static gboolean
gst_negcam_sink_set_flushing (GstBaseSink *bsink, gboolean flushing)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);

  if (sink->dev)
    negcam_device_set_flushing (sink->dev, flushing);
  return TRUE;
}

static gboolean
gst_negcam_sink_unlock (GstBaseSink *bsink)
{
  return gst_negcam_sink_set_flushing (bsink, TRUE);
}

static gboolean
gst_negcam_sink_unlock_stop (GstBaseSink *bsink)
{
  return gst_negcam_sink_set_flushing (bsink, FALSE);
}

static gboolean
gst_negcam_sink_stop (GstBaseSink *bsink)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);

  if (sink->dev)
    gst_negcam_sink_release_device (sink);
  gst_clear_caps (&sink->configured);
  return TRUE;
}

static gboolean
gst_negcam_sink_start (GstBaseSink *bsink)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (bsink);

  GST_OBJECT_LOCK (sink);
  sink->frames = sink->copies = sink->imports = 0;
  sink->import_refused = FALSE;
  sink->negotiations = sink->source_changes = sink->reconfigures = 0;
  GST_OBJECT_UNLOCK (sink);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

static GstStructure *
gst_negcam_sink_stats (GstNegcamSink *sink)
{
  GstStructure *s;
  NegcamPool *pool = NULL;

  GST_OBJECT_LOCK (sink);
  s = gst_structure_new ("negcamsink-stats", "frames", G_TYPE_UINT64,
      sink->frames, "copies", G_TYPE_UINT64, sink->copies, "imports",
      G_TYPE_UINT64, sink->imports, "negotiations",
      G_TYPE_UINT, sink->negotiations, "source-changes", G_TYPE_UINT,
      sink->source_changes, "reconfigures", G_TYPE_UINT, sink->reconfigures,
      NULL);
  GST_OBJECT_UNLOCK (sink);
  pool = gst_negcam_sink_ref_pool (sink);
  if (pool) {
    gst_structure_set (s, "buffers", G_TYPE_UINT, negcam_pool_get_count (pool),
        "dmabuf", G_TYPE_BOOLEAN, negcam_pool_is_dmabuf (pool),
        "dmabuf-import", G_TYPE_BOOLEAN, negcam_pool_is_import (pool), NULL);
    gst_object_unref (pool);
  }
  g_mutex_lock (&sink->dev_lock);
  if (sink->dev)
    gst_structure_set (s, "requests", G_TYPE_UINT,
        negcam_device_count_total (sink->dev), "negotiation-requests",
        G_TYPE_UINT, negcam_device_count_negotiation (sink->dev), NULL);
  g_mutex_unlock (&sink->dev_lock);
  return s;
}

static void
gst_negcam_sink_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (object);

  GST_OBJECT_LOCK (sink);
  switch (prop_id) {
    case PROP_DEVICE:
      g_free (sink->device);
      sink->device = g_value_dup_string (value);
      break;
    case PROP_PROFILE:
      g_free (sink->profile);
      sink->profile = g_value_dup_string (value);
      break;
    case PROP_IO_MODE:
      sink->io_mode = g_value_get_enum (value);
      break;
    case PROP_DMABUF_IMPORT:
      sink->dmabuf_import = g_value_get_boolean (value);
      break;
    case PROP_QUEUE_SIZE:
      sink->queue_size = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (sink);
}

static void
gst_negcam_sink_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_negcam_sink_stats (sink));
    return;
  }
  if (prop_id == PROP_DEVICE_HANDLE) {
    g_mutex_lock (&sink->dev_lock);
    g_value_set_pointer (value, sink->dev);
    g_mutex_unlock (&sink->dev_lock);
    return;
  }
  GST_OBJECT_LOCK (sink);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, sink->device);
      break;
    case PROP_PROFILE:
      g_value_set_string (value, sink->profile);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, sink->card);
      break;
    case PROP_IO_MODE:
      g_value_set_enum (value, sink->io_mode);
      break;
    case PROP_DMABUF_IMPORT:
      g_value_set_boolean (value, sink->dmabuf_import);
      break;
    case PROP_QUEUE_SIZE:
      g_value_set_uint (value, sink->queue_size);
      break;
    case PROP_COPIES:
      g_value_set_uint64 (value, sink->copies);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (sink);
}

static void
gst_negcam_sink_finalize (GObject *object)
{
  GstNegcamSink *sink = GST_NEGCAM_SINK (object);

  g_free (sink->device);
  g_free (sink->profile);
  g_free (sink->card);
  gst_clear_caps (&sink->configured);
  g_mutex_clear (&sink->dev_lock);
  G_OBJECT_CLASS (gst_negcam_sink_parent_class)->finalize (object);
}

static void
gst_negcam_sink_init (GstNegcamSink *sink)
{
  sink->device = g_strdup (DEFAULT_DEVICE);
  sink->profile = g_strdup (DEFAULT_PROFILE);
  sink->io_mode = DEFAULT_IO_MODE;
  sink->dmabuf_import = DEFAULT_DMABUF_IMPORT;
  sink->queue_size = DEFAULT_QUEUE_SIZE;
  g_mutex_init (&sink->dev_lock);
  /* last-sample would keep a device buffer out of the queue */
  gst_base_sink_set_last_sample_enabled (GST_BASE_SINK (sink), FALSE);
}

#define READY_PROP                                                             \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)
#define READ_PROP (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

static void
gst_negcam_sink_install_properties (GObjectClass *gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "A V4L2 output node (/dev/videoN: a negcam.ko loop's output side, "
          "vivid's video output, ...). Empty: the embedded negcam engine "
          "playing 'profile'. Read when going from NULL to READY",
          DEFAULT_DEVICE, READY_PROP));
  g_object_class_install_property (gobject_class, PROP_PROFILE,
      g_param_spec_string ("profile", "Profile",
          "Built-in profile name or profile file with an output queue "
          "(\"format FOURCC output\" blocks) for the embedded device",
          DEFAULT_PROFILE, READY_PROP));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Card name the device reports (VIDIOC_QUERYCAP), once open", NULL,
          READ_PROP));
  g_object_class_install_property (gobject_class, PROP_IO_MODE,
      g_param_spec_enum ("io-mode", "I/O mode",
          "Memory of the device buffers offered to upstream",
          GST_TYPE_NEGCAM_SINK_IO_MODE, DEFAULT_IO_MODE, READY_PROP));
  g_object_class_install_property (gobject_class, PROP_DMABUF_IMPORT,
      g_param_spec_boolean ("dmabuf-import", "DMABUF import",
          "Queue upstream's dma-bufs on the device as they are (V4L2 DMABUF "
          "import) when their layout is the device's, instead of copying "
          "them into the device's buffers; a device that refuses them gets "
          "copies from then on",
          DEFAULT_DMABUF_IMPORT, READY_PROP));
  g_object_class_install_property (gobject_class, PROP_QUEUE_SIZE,
      g_param_spec_uint ("queue-size", "Queue size",
          "Number of device buffers (REQBUFS)", 2, 32, DEFAULT_QUEUE_SIZE,
          READY_PROP));
  g_object_class_install_property (gobject_class, PROP_COPIES,
      g_param_spec_uint64 ("copies", "Copies",
          "Buffers copied since start: those that were not the device's own "
          "(upstream did not take the offered pool); each is logged at INFO",
          0, G_MAXUINT64, 0, READ_PROP));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "frames (queued to the device), copies, imports (upstream's "
          "dma-bufs queued as they are), negotiations, "
          "source-changes (V4L2_EVENT_SOURCE_CHANGE seen), reconfigures "
          "(RECONFIGURE sent upstream), buffers, requests",
          GST_TYPE_STRUCTURE, READ_PROP));
  g_object_class_install_property (gobject_class, PROP_DEVICE_HANDLE,
      g_param_spec_pointer ("device-handle", "Device handle",
          "The NegcamDevice (negcamdevice.h) while READY or above, borrowed: "
          "for tests linking negcam's core library",
          READ_PROP));
}

static void
gst_negcam_sink_class_init (GstNegcamSinkClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);
  GstCaps *templ;

  negcam_device_debug_init ();
  GST_DEBUG_CATEGORY_INIT (
      negcamsink_debug, "negcamsink", 0, "negcamsink: V4L2 output");

  gobject_class->set_property = gst_negcam_sink_set_property;
  gobject_class->get_property = gst_negcam_sink_get_property;
  gobject_class->finalize = gst_negcam_sink_finalize;
  gst_negcam_sink_install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class, "Negcam video sink",
      "Sink/Video",
      "Writes video into a V4L2 output queue (a negcam.ko loop, vivid, the "
      "embedded engine) through the device's own buffers, following the "
      "consumer's format",
      "negcam developers");
  templ = negcam_caps_template ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, templ));
  gst_caps_unref (templ);

  element_class->change_state = gst_negcam_sink_change_state;
  basesink_class->get_caps = gst_negcam_sink_get_caps;
  basesink_class->set_caps = gst_negcam_sink_set_caps;
  basesink_class->query = gst_negcam_sink_query;
  basesink_class->event = gst_negcam_sink_event;
  basesink_class->propose_allocation = gst_negcam_sink_propose_allocation;
  basesink_class->render = gst_negcam_sink_render;
  basesink_class->start = gst_negcam_sink_start;
  basesink_class->stop = gst_negcam_sink_stop;
  basesink_class->unlock = gst_negcam_sink_unlock;
  basesink_class->unlock_stop = gst_negcam_sink_unlock_stop;
  gst_type_mark_as_plugin_api (GST_TYPE_NEGCAM_SINK_IO_MODE, 0);
}
