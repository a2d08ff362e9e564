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
 * This file is the element itself; its parts and its locks are listed
 * in negcamsink-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <gst/video/video.h>

#include "negcamsink-private.h"
#include "negcamiomode.h"

GST_DEBUG_CATEGORY (negcamsink_debug);
#define GST_CAT_DEFAULT negcamsink_debug

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

G_DEFINE_TYPE (GstNegcamSink, gst_negcam_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (
    negcamsink, "negcamsink", GST_RANK_NONE, GST_TYPE_NEGCAM_SINK);

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
  negcam_sink_core_clear (&sink->core);
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
  negcam_sink_core_init (&sink->core, GST_BASE_SINK (sink), "negcamsink",
      FALSE);
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
