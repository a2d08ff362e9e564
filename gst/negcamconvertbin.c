/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstNegcamConvertBin: the conversion a producer needs to serve whatever
 * the device at the end of the chain asks for, shared by negcamconvertsink
 * (negcamsink: a loop's output node or the embedded engine) and
 * negcamuvcconvertsink (negcamuvcsink: a USB camera whose host commits
 * the format). A subclass names its sink (the class's sink_factory) and
 * installs that sink's properties, which this bin forwards by name, so
 * that a pipeline written once (`SRC ! negcamconvertsink device=/dev/videoN`,
 * `SRC ! negcamuvcconvertsink profile=webcam`) serves every format:
 *
 *   videorate ! videoconvert ! videoscale ! [encoding stage] ! capsfilter ! SINK
 *
 * The capsfilter holds the format the device wants now (the first
 * structure of the sink's caps: G_FMT of the output queue, the
 * consumer's format on a loop, the host's COMMIT on a USB camera),
 * reduced to media type, format, size, rate and pixel aspect ratio:
 * converters would rather pass their input through, and the producer
 * must make what the consumer asked.
 * videorate comes first: it pushes copies of the buffers it keeps, which
 * would lose the device buffers (negcamsink's pool) videoscale or
 * videoconvert write into when they are last. Frames go around it unless
 * they must be repeated (see "Rate" below).
 * An encoding stage (see "Encodings": JFIF colours and jpegenc for
 * image/jpeg, an H.264 encoder for video/x-h264) is in the chain exactly
 * when the device's preferred format (the first structure the sink's caps
 * give) is compressed. It is chosen when
 * the bin goes to READY (the device is open then) and again whenever the
 * sink asks upstream to renegotiate (RECONFIGURE after a source change or
 * a COMMIT): the chain is re-linked from an idle probe on videoscale's
 * source pad, between two buffers, and upstream renegotiates through the
 * new chain. See docs/negcamsink.md and docs/uvc.md.
 * Producer on demand: when the sink's renegotiating core
 * (negcamsinkcore.c) says no one reads (negcampwsink with no consumer
 * streaming), the source's buffers wait at the bin's entry, before any
 * conversion or encoding.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>

#include "negcamconvertbin.h"
#include "negcamsinkcore.h"

GST_DEBUG_CATEGORY_STATIC (negcamconvertbin_debug);
#define GST_CAT_DEFAULT negcamconvertbin_debug

enum {
  PROP_0,
  PROP_ENCODING,
};

struct _GstNegcamConvertBin {
  GstBin parent;

  GstElement *convert, *scale, *rate, *filter, *sink;
  GstPad *rate_src; /* videorate's source pad, borrowed (static) */
  const struct encoding *encoding; /* what the chain feeds the sink */
  GstElement *stage;   /* the encoding's bin, or NULL (raw) */
  gint swap_pending; /* atomic: an idle probe is installed */

  /* object lock: the rate stage (see "Rate") */
  gboolean pass;           /* frames go around videorate, dropped to rate */
  gboolean rate_flushed;   /* videorate let go of its frame since @pass */
  GstClockTime period;     /* the device's frame period, 0: none */
  GstClockTime next;       /* when the next frame is due (pass) */
};

G_DEFINE_ABSTRACT_TYPE (GstNegcamConvertBin, gst_negcam_convert_bin, GST_TYPE_BIN);

static gboolean
keep_field (GQuark field, GValue *value, gpointer data)
{
  return g_strv_contains (data, g_quark_to_string (field));
}

/* What the device wants now: the first structure the sink offers, with
 * only the fields a converter sets; NULL when there is none. */
static GstCaps *
wanted_caps (GstNegcamConvertBin *self)
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

/* ---- Encodings ----
 * What the chain can feed the sink, as data: the media type the device
 * asks, and the stage that makes it from raw video (a bin description;
 * the first whose elements exist is used). Raw needs none. */
struct encoding {
  const gchar *name;       /* the "encoding" property */
  const gchar *media;      /* the sink caps' structure name */
  const gchar *stages[3];  /* tried in order; NULL-terminated */
  const gchar *missing;    /* the error when no stage can be made */
};

/* JFIF (what every decoder assumes of a JPEG without other markers) is
 * full-range BT.601 YCbCr, and jpegenc encodes the YUV samples it is
 * given as they are: limited-range or BT.709 input (videotestsrc's and
 * most cameras') decodes with shifted colours. GStreamer 1.22's
 * videoconvert cannot make full range from limited BT.601 (its converter
 * changes range only along with the matrix), and jpegenc given RGB writes
 * an RGB JPEG (Adobe marker, no colour transform) that libyuv, hence
 * Chromium, cannot decode. So the stage goes through RGB, then makes
 * full-range BT.601 I420 from it (a matrix change, which videoconvert
 * does): a JFIF 4:2:0 JPEG, right for every input colorimetry
 * (docs/negcamsink.md, "MJPG colours", has the cost). */
#define NEGCAM_JFIF_STAGE \
  "capsfilter caps=\"video/x-raw,format=(string){ BGRx, RGBx, xRGB, xBGR, " \
  "RGB, BGR }\" ! videoconvert ! capsfilter caps=\"video/x-raw," \
  "format=(string)I420,colorimetry=(string)1:4:0:0\" ! jpegenc"

/* H.264 as a camera sends it (UVC frame-based, a loop's consumer):
 * Annex B, one access unit a buffer, parameter sets with every IDR and an
 * IDR every second at 30 fps, no B-frames, no encoder latency. x264
 * (gst-plugins-ugly) first, else OpenH264 (gst-plugins-bad). */
#define NEGCAM_H264_TAIL \
  " ! h264parse config-interval=-1 ! capsfilter caps=\"video/x-h264," \
  "stream-format=(string)byte-stream,alignment=(string)au\""

static const struct encoding encodings[] = {
  { "raw", "video/x-raw", { NULL }, NULL },
  { "jpeg", "image/jpeg", { NEGCAM_JFIF_STAGE, NULL },
    "The device wants JPEG, but there is no jpegenc element "
    "(gst-plugins-good)" },
  { "h264", "video/x-h264",
    { "videoconvert ! x264enc tune=zerolatency speed-preset=ultrafast "
      "key-int-max=30 bframes=0" NEGCAM_H264_TAIL,
      "videoconvert ! openh264enc gop-size=30 complexity=low "
      "usage-type=camera" NEGCAM_H264_TAIL, NULL },
    "The device wants H.264, but there is no x264enc (gst-plugins-ugly) "
    "or openh264enc (gst-plugins-bad) element" },
};

/* The encoding for what the device wants (raw when it wants nothing or
 * a media type we cannot make, which the filter then refuses). */
static const struct encoding *
encoding_for (GstCaps *want)
{
  guint i;

  for (i = 1; want && i < G_N_ELEMENTS (encodings); i++)
    if (gst_structure_has_name (gst_caps_get_structure (want, 0),
            encodings[i].media))
      return &encodings[i];
  return &encodings[0];
}

/* The first of @enc's stages whose elements exist, or NULL. */
static GstElement *
make_stage (const struct encoding *enc)
{
  const gchar *const *d;

  for (d = enc->stages; *d; d++) {
    GstElement *stage = gst_parse_bin_from_description_full (*d, TRUE, NULL,
        GST_PARSE_FLAG_FATAL_ERRORS | GST_PARSE_FLAG_NO_SINGLE_ELEMENT_BINS,
        NULL);

    if (stage)
      return stage;
  }
  return NULL;
}

static void
remove_stage (GstNegcamConvertBin *self)
{
  gst_element_unlink_many (self->scale, self->stage, self->filter, NULL);
  gst_element_set_state (self->stage, GST_STATE_NULL);
  gst_bin_remove (GST_BIN (self), self->stage);
  self->stage = NULL;
}

/* Link videoscale to the filter, through @enc's stage if it has one. */
static gboolean
link_tail (GstNegcamConvertBin *self, const struct encoding *enc)
{
  if (self->stage)
    remove_stage (self);
  else
    gst_element_unlink (self->scale, self->filter);
  self->encoding = enc;
  if (!enc->stages[0])
    return gst_element_link (self->scale, self->filter);
  self->stage = make_stage (enc);
  if (!self->stage) {
    GST_ELEMENT_ERROR (self, CORE, MISSING_PLUGIN, ("%s", enc->missing),
        (NULL));
    return FALSE;
  }
  gst_object_set_name (GST_OBJECT (self->stage), enc->name);
  gst_bin_add (GST_BIN (self), self->stage);
  if (!gst_element_link_many (self->scale, self->stage, self->filter, NULL)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("cannot link videoscale ! %s stage ! capsfilter", enc->name));
    return FALSE;
  }
  return gst_element_sync_state_with_parent (self->stage);
}

static void choose_rate (GstNegcamConvertBin *self, GstCaps *in);

/* Make what the device wants now: the encoder in or out, the filter set
 * to it, videorate used or not. */
static gboolean
follow (GstNegcamConvertBin *self)
{
  GstCaps *want = wanted_caps (self);
  GstPad *pad = gst_element_get_static_pad (self->rate, "sink");
  GstCaps *in = gst_pad_get_current_caps (pad);
  gboolean ok = TRUE;

  GST_INFO_OBJECT (self, "the device wants %" GST_PTR_FORMAT, want);
  if (encoding_for (want) != self->encoding) {
    /* linking checks caps: the old format must not be in the way */
    g_object_set (self->filter, "caps", NULL, NULL);
    ok = link_tail (self, encoding_for (want));
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
  GstNegcamConvertBin *self = data;

  follow (self);
  g_atomic_int_set (&self->swap_pending, 0);
  return GST_PAD_PROBE_REMOVE;
}

/* The sink sends RECONFIGURE after a source change or a COMMIT: follow the new
 * format; when the media type changes, swap the encoder between two
 * buffers (an idle probe on videoscale's source pad). */
static GstPadProbeReturn
on_upstream_event (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertBin *self = data;
  GstCaps *want;
  GstPad *tail;
  gboolean swap;

  if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) != GST_EVENT_RECONFIGURE)
    return GST_PAD_PROBE_OK;
  want = wanted_caps (self);
  swap = encoding_for (want) != self->encoding;
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
choose_rate (GstNegcamConvertBin *self, GstCaps *in)
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
too_early (GstNegcamConvertBin *self, GstClockTime pts)
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

/* The source's frames: held while no one reads (a sink that knows
 * whether anyone does: negcampwsink), before any conversion; then
 * around videorate in pass mode. */
static GstPadProbeReturn
on_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstNegcamConvertBin *self = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  NegcamSinkCore *core = negcam_sink_core_of (self->sink);
  gboolean around, drop = FALSE;

  if (core && !negcam_sink_core_hold (core)) {
    info->data = NULL;
    gst_buffer_unref (buf);
    GST_PAD_PROBE_INFO_FLOW_RETURN (info) = GST_FLOW_FLUSHING;
    return GST_PAD_PROBE_HANDLED;
  }
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
  GstNegcamConvertBin *self = data;
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
gst_negcam_convert_bin_change_state (
    GstElement *element, GstStateChange transition)
{
  GstNegcamConvertBin *self = GST_NEGCAM_CONVERT_BIN (element);
  GstStateChangeReturn ret;

  /* Before negotiation: the device may want another format by now. */
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED && !follow (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_negcam_convert_bin_parent_class)
            ->change_state (element, transition);
  /* The sink opened its device on NULL to READY: now its caps say
   * what the device wants. */
  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && ret != GST_STATE_CHANGE_FAILURE && !follow (self))
    return GST_STATE_CHANGE_FAILURE;
  return ret;
}

static GstElement *
make (GstNegcamConvertBin *self, const gchar *factory, const gchar *name)
{
  GstElement *e = gst_element_factory_make (factory, name);

  if (e)
    gst_bin_add (GST_BIN (self), e);
  else
    g_warning ("%s: no %s element", GST_OBJECT_NAME (self), factory);
  return e;
}

static void
gst_negcam_convert_bin_init (GstNegcamConvertBin *self)
{
  self->next = GST_CLOCK_TIME_NONE;
  self->encoding = &encodings[0];
}

/* The chain, once the subclass (hence the sink) is known. */
static void
gst_negcam_convert_bin_constructed (GObject *object)
{
  GstNegcamConvertBin *self = GST_NEGCAM_CONVERT_BIN (object);
  GstPad *pad, *ghost;

  self->convert = make (self, "videoconvert", "convert");
  self->scale = make (self, "videoscale", "scale");
  self->rate = make (self, "videorate", "rate");
  self->filter = make (self, "capsfilter", "filter");
  self->sink = make (self,
      GST_NEGCAM_CONVERT_BIN_GET_CLASS (self)->sink_factory, "sink");
  G_OBJECT_CLASS (gst_negcam_convert_bin_parent_class)->constructed (object);
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

/* Properties a subclass installs are the sink's: forwarded by name. */
static void
gst_negcam_convert_bin_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamConvertBin *self = GST_NEGCAM_CONVERT_BIN (object);

  if (pspec->owner_type != GST_TYPE_NEGCAM_CONVERT_BIN && self->sink)
    g_object_set_property (G_OBJECT (self->sink), pspec->name, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_negcam_convert_bin_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamConvertBin *self = GST_NEGCAM_CONVERT_BIN (object);

  if (pspec->owner_type != GST_TYPE_NEGCAM_CONVERT_BIN && self->sink)
    g_object_get_property (G_OBJECT (self->sink), pspec->name, value);
  else if (prop_id == PROP_ENCODING)
    g_value_set_string (value, self->encoding->name);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_negcam_convert_bin_class_init (GstNegcamConvertBinClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps = gst_caps_new_any ();

  GST_DEBUG_CATEGORY_INIT (negcamconvertbin_debug, "negcamconvertsink", 0,
      "negcamconvertsink, negcamuvcconvertsink: conversion in front of a "
      "negcam sink");
  gobject_class->constructed = gst_negcam_convert_bin_constructed;
  gobject_class->set_property = gst_negcam_convert_bin_set_property;
  gobject_class->get_property = gst_negcam_convert_bin_get_property;
  g_object_class_install_property (gobject_class, PROP_ENCODING,
      g_param_spec_string ("encoding", "Encoding",
          "What the chain feeds the sink: \"raw\", \"jpeg\" (jpegenc in "
          "the chain) or \"h264\" (an H.264 encoder in the chain)",
          "raw", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  element_class->change_state = gst_negcam_convert_bin_change_state;
}

/* A subclass's class_init: the forwarding property functions (a GObject
 * class does not inherit them), then the subclass's own (@data). */
static void
subclass_init (gpointer klass, gpointer data)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GClassInitFunc class_init = (GClassInitFunc) data;

  gobject_class->set_property = gst_negcam_convert_bin_set_property;
  gobject_class->get_property = gst_negcam_convert_bin_get_property;
  class_init (klass, NULL);
}

GType
gst_negcam_convert_bin_subclass (
    gsize *type, const gchar *name, GClassInitFunc class_init)
{
  GTypeQuery q;
  GTypeInfo info = { 0 };

  if (g_once_init_enter (type)) {
    g_type_query (GST_TYPE_NEGCAM_CONVERT_BIN, &q);
    info.class_size = q.class_size;
    info.class_init = subclass_init;
    info.class_data = (gconstpointer) class_init;
    info.instance_size = q.instance_size;
    g_once_init_leave (type, g_type_register_static (
        GST_TYPE_NEGCAM_CONVERT_BIN, g_intern_static_string (name), &info, 0));
  }
  return *type;
}
