/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamconvertsink
 * @title: negcamconvertsink
 * @see_also: negcamsink
 *
 * negcamsink behind videorate, videoconvert, videoscale and, when the
 * device wants Motion JPEG, jpegenc: a producer written once serves
 * whatever format the device (on a loop: its consumer) asks for, and
 * follows it when the consumer changes format while playing. The
 * read-only `encoding` property says whether jpegenc is in the chain.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! negcamconvertsink device=/dev/video2
 * ]| Feeds a loop's output node in every format its consumer may choose.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=30 ! \
 *     negcamconvertsink profile=tests/gst/output.profile
 * ]| The embedded engine with an output queue, no module needed.
 *
 * See docs/negcamsink.md, "negcamconvertsink".
 */
/*
 * negcamconvertsink: negcamsink behind the conversion a producer needs to
 * serve whatever the device asks for, so that a pipeline written once
 * (`SRC ! negcamconvertsink device=/dev/videoN`) serves every format of
 * a loop's profile:
 *
 *   videorate ! videoconvert ! videoscale ! [capsfilter ! jpegenc] ! capsfilter ! negcamsink
 *
 * The capsfilter holds the format the device wants now (the first
 * structure of negcamsink's caps: G_FMT of the output queue, the
 * consumer's format on a loop), reduced to media type, format, size, rate
 * and pixel aspect ratio: converters would rather pass their input
 * through, and the producer must make what the consumer asked.
 * videorate comes first: it pushes copies of the buffers it keeps, which
 * would lose the device buffers (negcamsink's pool) videoscale or
 * videoconvert write into when they are last. Frames go around it unless
 * they must be repeated (see "Rate" below).
 * jpegenc is in the chain exactly when the device's preferred format (the
 * first structure negcamsink's caps give: the consumer's format on a
 * loop) is image/jpeg. It is chosen when the bin goes to READY (the
 * device is open then) and again whenever negcamsink asks upstream to
 * renegotiate (RECONFIGURE after a source change): the chain is re-linked
 * from an idle probe on videoscale's source pad, between two buffers, and
 * upstream renegotiates through the new chain. See docs/negcamsink.md.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>

#include "negcamsink.h"

GST_DEBUG_CATEGORY_STATIC (negcamconvertsink_debug);
#define GST_CAT_DEFAULT negcamconvertsink_debug

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_PROFILE,
  PROP_ENCODING,
};

struct _GstNegcamConvertSink {
  GstBin parent;

  GstElement *convert, *scale, *rate, *filter, *sink;
  GstPad *rate_src; /* videorate's source pad, borrowed (static) */
  GstElement *encoder; /* jpegenc, or NULL (raw) */
  GstElement *range;   /* capsfilter: RGB before jpegenc (JFIF colours) */
  gint swap_pending; /* atomic: an idle probe is installed */

  /* object lock: the rate stage (see "Rate") */
  gboolean pass;           /* frames go around videorate, dropped to rate */
  gboolean rate_flushed;   /* videorate let go of its frame since @pass */
  GstClockTime period;     /* the device's frame period, 0: none */
  GstClockTime next;       /* when the next frame is due (pass) */
};

G_DEFINE_TYPE (GstNegcamConvertSink, gst_negcam_convert_sink, GST_TYPE_BIN);
GST_ELEMENT_REGISTER_DEFINE (negcamconvertsink, "negcamconvertsink",
    GST_RANK_NONE, GST_TYPE_NEGCAM_CONVERT_SINK);

static gboolean
keep_field (GQuark field, GValue *value, gpointer data)
{
  return g_strv_contains (data, g_quark_to_string (field));
}

/* What the device wants now: the first structure negcamsink offers, with
 * only the fields a converter sets; NULL when there is none. */
static GstCaps *
wanted_caps (GstNegcamConvertSink *self)
{
  static const gchar *keep[] = { "format", "width", "height", "framerate",
    "pixel-aspect-ratio", NULL };
  GstPad *pad = gst_element_get_static_pad (self->sink, "sink");
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  GstCaps *want = NULL;

  if (!gst_caps_is_empty (caps) && !gst_caps_is_any (caps)) {
    want = gst_caps_copy_nth (caps, 0);
    gst_structure_filter_and_map_in_place (
        gst_caps_get_structure (want, 0), keep_field, keep);
  }
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return want;
}

static gboolean
is_jpeg (GstCaps *want)
{
  return want
      && gst_structure_has_name (
          gst_caps_get_structure (want, 0), "image/jpeg");
}

/* JFIF (what every decoder assumes of a JPEG without other markers) is
 * full-range BT.601 YCbCr, and jpegenc encodes the YUV samples it is
 * given as they are: limited-range or BT.709 input (videotestsrc's and
 * most cameras') decodes with shifted colours. GStreamer 1.22's
 * videoconvert cannot make full range from limited BT.601 (its converter
 * changes range only along with the matrix), so jpegenc is given RGB and
 * libjpeg makes JFIF's YCbCr itself, right for every input colorimetry
 * (docs/negcamsink.md, "MJPG colours", has the cost). */
#define NEGCAM_JFIF_CAPS \
  "video/x-raw,format=(string){ BGRx, RGBx, xRGB, xBGR, RGB, BGR }"

static void
remove_encoder (GstNegcamConvertSink *self)
{
  gst_element_unlink_many (self->scale, self->range, self->encoder,
      self->filter, NULL);
  gst_element_set_state (self->encoder, GST_STATE_NULL);
  gst_element_set_state (self->range, GST_STATE_NULL);
  gst_bin_remove_many (GST_BIN (self), self->range, self->encoder, NULL);
  self->encoder = self->range = NULL;
}

/* Link videoscale to the filter, through JFIF's colours and jpegenc when
 * @jpeg. */
static gboolean
link_tail (GstNegcamConvertSink *self, gboolean jpeg)
{
  GstCaps *jfif;

  if (self->encoder)
    remove_encoder (self);
  else
    gst_element_unlink (self->scale, self->filter);
  if (!jpeg)
    return gst_element_link (self->scale, self->filter);
  self->encoder = gst_element_factory_make ("jpegenc", "encoder");
  if (!self->encoder) {
    GST_ELEMENT_ERROR (self, CORE, MISSING_PLUGIN,
        ("The device wants JPEG, but there is no jpegenc element "
         "(gst-plugins-good)"),
        (NULL));
    return FALSE;
  }
  jfif = gst_caps_from_string (NEGCAM_JFIF_CAPS);
  self->range = gst_element_factory_make ("capsfilter", "jfif-range");
  g_object_set (self->range, "caps", jfif, NULL);
  gst_caps_unref (jfif);
  gst_bin_add_many (GST_BIN (self), self->range, self->encoder, NULL);
  if (!gst_element_link_many (self->scale, self->range, self->encoder,
          self->filter, NULL)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("cannot link videoscale ! capsfilter ! jpegenc ! capsfilter"));
    return FALSE;
  }
  return gst_element_sync_state_with_parent (self->range)
      && gst_element_sync_state_with_parent (self->encoder);
}

static void choose_rate (GstNegcamConvertSink *self, GstCaps *in);

/* Make what the device wants now: the encoder in or out, the filter set
 * to it, videorate used or not. */
static gboolean
follow (GstNegcamConvertSink *self)
{
  GstCaps *want = wanted_caps (self);
  GstPad *pad = gst_element_get_static_pad (self->rate, "sink");
  GstCaps *in = gst_pad_get_current_caps (pad);
  gboolean ok = TRUE;

  GST_INFO_OBJECT (self, "the device wants %" GST_PTR_FORMAT, want);
  if (is_jpeg (want) != (self->encoder != NULL)) {
    /* linking checks caps: the old format must not be in the way */
    g_object_set (self->filter, "caps", NULL, NULL);
    ok = link_tail (self, is_jpeg (want));
  }
  g_object_set (self->filter, "caps", want, NULL);
  choose_rate (self, in);
  gst_clear_caps (&in);
  gst_object_unref (pad);
  gst_clear_caps (&want);
  return ok;
}

static GstPadProbeReturn
swap_when_idle (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertSink *self = data;

  follow (self);
  g_atomic_int_set (&self->swap_pending, 0);
  return GST_PAD_PROBE_REMOVE;
}

/* negcamsink sends RECONFIGURE after a source change: follow the new
 * format; when the media type changes, swap the encoder between two
 * buffers (an idle probe on videoscale's source pad). */
static GstPadProbeReturn
on_upstream_event (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertSink *self = data;
  GstCaps *want;
  GstPad *tail;
  gboolean swap;

  if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) != GST_EVENT_RECONFIGURE)
    return GST_PAD_PROBE_OK;
  want = wanted_caps (self);
  swap = is_jpeg (want) != (self->encoder != NULL);
  gst_clear_caps (&want);
  if (!swap) {
    follow (self);
    return GST_PAD_PROBE_OK;
  }
  if (!g_atomic_int_compare_and_exchange (&self->swap_pending, 0, 1))
    return GST_PAD_PROBE_OK;
  tail = gst_element_get_static_pad (self->scale, "src");
  gst_pad_add_probe (tail, GST_PAD_PROBE_TYPE_IDLE, swap_when_idle, self, NULL);
  gst_object_unref (tail);
  return GST_PAD_PROBE_OK;
}

/* ---- Rate ----
 * videorate repeats frames when the source is slower than the device (or
 * has no fixed rate): it then keeps each frame until the next one comes
 * (one frame of latency) and pushes (shallow) copies, which reach
 * negcamsink as foreign buffers and are copied. So it is used only then
 * ("fill"). Otherwise ("pass": the source's fixed rate is at least the
 * device's, or the device has none) frames go around it, the ones above
 * the device's rate dropped here, with no latency and no copy, and the
 * ALLOCATION query goes past it too (videorate would remove negcamsink's
 * fixed-size pool from it): a source whose frames need no conversion
 * writes straight into the device's buffers. videorate is then in its
 * averaging mode (average-period), which holds no frame and adds no
 * latency; the first frame after the switch goes through it so that it
 * lets go of the one it kept. */
#define PASS_AVERAGE_PERIOD GST_SECOND

static gboolean
caps_rate (GstCaps *caps, gint *n, gint *d)
{
  *n = 0;
  *d = 1;
  return caps && gst_caps_is_fixed (caps)
      && gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", n, d)
      && *n > 0 && *d > 0;
}

/* Choose fill or pass for the source's caps @in and the device's wanted
 * caps in the filter. */
static void
choose_rate (GstNegcamConvertSink *self, GstCaps *in)
{
  GstCaps *want = NULL;
  gint in_n, in_d, out_n, out_d;
  gboolean pass, changed;

  g_object_get (self->filter, "caps", &want, NULL);
  pass = !caps_rate (want, &out_n, &out_d)
      || (caps_rate (in, &in_n, &in_d)
          && (gint64) in_n * out_d >= (gint64) out_n * in_d);
  gst_clear_caps (&want);
  GST_OBJECT_LOCK (self);
  changed = pass != self->pass;
  self->pass = pass;
  self->period = out_n > 0
      ? gst_util_uint64_scale_int (GST_SECOND, out_d, out_n) : 0;
  self->next = GST_CLOCK_TIME_NONE;
  if (changed)
    self->rate_flushed = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (!changed)
    return;
  GST_INFO_OBJECT (self, "frame rate: %s", pass
      ? "the source's is enough: frames go around videorate (no copy)"
      : "frames are repeated by videorate (copied)");
  g_object_set (self->rate, "average-period",
      (guint64) (pass ? PASS_AVERAGE_PERIOD : 0), NULL);
}

/* pass: TRUE to drop a frame at @pts, which comes before the next one
 * is due (a quarter period of jitter allowed). Object lock held. */
static gboolean
too_early (GstNegcamConvertSink *self, GstClockTime pts)
{
  GstClockTime tol = self->period / 4;

  if (!self->period || !GST_CLOCK_TIME_IS_VALID (pts))
    return FALSE;
  if (GST_CLOCK_TIME_IS_VALID (self->next) && pts + tol < self->next
      && pts + tol + self->period >= self->next)
    return TRUE;
  if (GST_CLOCK_TIME_IS_VALID (self->next) && pts + tol >= self->next
      && pts < self->next + self->period)
    self->next += self->period;
  else
    self->next = pts + self->period; /* first, late or back in time */
  return FALSE;
}

/* The source's frames: around videorate in pass mode. */
static GstPadProbeReturn
on_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertSink *self = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gboolean around, drop = FALSE;

  GST_OBJECT_LOCK (self);
  around = self->pass && self->rate_flushed;
  if (self->pass) {
    drop = too_early (self, GST_BUFFER_PTS (buf));
    self->rate_flushed = TRUE; /* the first goes through videorate */
  }
  GST_OBJECT_UNLOCK (self);
  if (!around)
    return GST_PAD_PROBE_OK;
  info->data = NULL;
  if (drop) {
    gst_buffer_unref (buf);
    return GST_PAD_PROBE_HANDLED;
  }
  GST_PAD_PROBE_INFO_FLOW_RETURN (info) = gst_pad_push (self->rate_src, buf);
  return GST_PAD_PROBE_HANDLED;
}

/* The source's caps: fill or pass. */
static GstPadProbeReturn
on_caps (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    choose_rate (data, caps);
  }
  return GST_PAD_PROBE_OK;
}

/* An ALLOCATION query entering the bin: in fill mode answered here with
 * no pool (device buffers given upstream of videorate would reach
 * negcamsink copied all the same, while upstream held buffers the
 * converters inside need: they ask for themselves); in pass mode sent on
 * past videorate. */
static GstPadProbeReturn
answer_allocation (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertSink *self = data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  gboolean pass;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  GST_OBJECT_LOCK (self);
  pass = self->pass;
  GST_OBJECT_UNLOCK (self);
  if (pass)
    gst_pad_peer_query (self->rate_src, query);
  else
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return GST_PAD_PROBE_HANDLED;
}

static GstStateChangeReturn
gst_negcam_convert_sink_change_state (
    GstElement *element, GstStateChange transition)
{
  GstNegcamConvertSink *self = GST_NEGCAM_CONVERT_SINK (element);
  GstStateChangeReturn ret;

  /* Before negotiation: the device may want another format by now. */
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED && !follow (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_negcam_convert_sink_parent_class)
            ->change_state (element, transition);
  /* negcamsink opened its device on NULL to READY: now its caps say
   * what the device wants. */
  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && ret != GST_STATE_CHANGE_FAILURE && !follow (self))
    return GST_STATE_CHANGE_FAILURE;
  return ret;
}

static GstElement *
make (GstNegcamConvertSink *self, const gchar *factory, const gchar *name)
{
  GstElement *e = gst_element_factory_make (factory, name);

  if (e)
    gst_bin_add (GST_BIN (self), e);
  else
    g_warning ("negcamconvertsink: no %s element", factory);
  return e;
}

static void
gst_negcam_convert_sink_init (GstNegcamConvertSink *self)
{
  GstPad *pad, *ghost;

  self->convert = make (self, "videoconvert", "convert");
  self->scale = make (self, "videoscale", "scale");
  self->rate = make (self, "videorate", "rate");
  self->filter = make (self, "capsfilter", "filter");
  self->next = GST_CLOCK_TIME_NONE;
  self->sink = make (self, "negcamsink", "sink");
  if (!self->convert || !self->scale || !self->rate || !self->filter
      || !self->sink)
    return;
  /* raw until the device says otherwise (follow) */
  gst_element_link_many (
      self->rate, self->convert, self->scale, self->filter, self->sink, NULL);
  pad = gst_element_get_static_pad (self->sink, "sink");
  gst_pad_add_probe (
      pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_upstream_event, self, NULL);
  gst_object_unref (pad);
  /* the bin holds videorate, videorate its pads */
  self->rate_src = gst_element_get_static_pad (self->rate, "src");
  gst_object_unref (self->rate_src);
  pad = gst_element_get_static_pad (self->rate, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      answer_allocation, self, NULL);
  gst_pad_add_probe (
      pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_caps, self, NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, self, NULL);
  ghost = gst_ghost_pad_new ("sink", pad);
  gst_element_add_pad (GST_ELEMENT (self), ghost);
  gst_object_unref (pad);
}

static void
gst_negcam_convert_sink_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamConvertSink *self = GST_NEGCAM_CONVERT_SINK (object);

  if (prop_id == PROP_DEVICE || prop_id == PROP_PROFILE)
    g_object_set_property (G_OBJECT (self->sink), pspec->name, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_negcam_convert_sink_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamConvertSink *self = GST_NEGCAM_CONVERT_SINK (object);

  if (prop_id == PROP_DEVICE || prop_id == PROP_PROFILE)
    g_object_get_property (G_OBJECT (self->sink), pspec->name, value);
  else if (prop_id == PROP_ENCODING)
    g_value_set_string (value, self->encoder ? "jpeg" : "raw");
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_negcam_convert_sink_class_init (GstNegcamConvertSinkClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps = gst_caps_new_any ();

  GST_DEBUG_CATEGORY_INIT (negcamconvertsink_debug, "negcamconvertsink", 0,
      "negcamconvertsink: conversion in front of negcamsink");
  gobject_class->set_property = gst_negcam_convert_sink_set_property;
  gobject_class->get_property = gst_negcam_convert_sink_get_property;
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "negcamsink's device: a V4L2 output node, empty for the embedded "
          "engine",
          "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PROFILE,
      g_param_spec_string ("profile", "Profile",
          "negcamsink's profile for the embedded engine", "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_ENCODING,
      g_param_spec_string ("encoding", "Encoding",
          "What the chain feeds negcamsink: \"raw\" or \"jpeg\" (jpegenc in "
          "the chain)",
          "raw", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_element_class_set_static_metadata (element_class,
      "Negcam converting video sink", "Sink/Video/Converter",
      "negcamsink behind videoconvert, videoscale, videorate and, when the "
      "device wants JPEG, jpegenc: one producer for every format a loop "
      "offers",
      "negcam developers");
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  element_class->change_state = gst_negcam_convert_sink_change_state;
}
