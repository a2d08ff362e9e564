/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcampwsink
 * @title: negcampwsink
 * @see_also: negcampwconvertsink, negcamuvcsink, negcamsink
 *
 * A pipeline as a PipeWire camera: negcampwsink publishes a node with
 * media.class Video/Source and media.role Camera (what the Camera portal
 * lists), node.name `negcam.LABEL` (stable across runs) and the label as
 * its description. The node offers the formats, sizes and rates of a
 * profile (`profile`), as negcam-pw does; a consumer's Format is decided
 * by the engine (the TRY_FMT/S_FMT rules: the nearest the profile has)
 * and the sink asks upstream to renegotiate to it (RECONFIGURE; its caps
 * give that format first). Its frames are copied once into the node's
 * memfd buffers. While no consumer streams, render waits: a live source
 * stops, and nothing is made. Frames later than one frame interval are
 * dropped (QoS), so a consumer never gets a backlog in a burst.
 *
 * No root, no module: the user's PipeWire is enough. Use
 * negcampwconvertsink to serve every format from one source.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! \
 *     video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! \
 *     negcampwsink profile=vga label="Test Camera"
 * ]| One format, no conversion.
 *
 * See docs/pipewire.md, "A pipeline as the camera".
 */
/*
 * negcampwsink: the element around pw/'s node library (pw-node.h), on a
 * pw_thread_loop of its own. It owns:
 *  - opening (NULL to READY): the profile (its caps, from an embedded
 *    device's enumeration), PipeWire (thread loop, context, core), the
 *    node (ncpw_stream_start) and the links watch; closing: the reverse;
 *  - the node's hooks (PipeWire's thread): streaming and paused set the
 *    core's demand, format hands the chosen caps to the core (sent
 *    upstream by the streaming thread), failed posts an error, log goes
 *    to the debug log (a consumer's refused link: a warning too);
 *  - caps: the consumer's format (else the profile's default) first,
 *    then every format of the profile;
 *  - frames: render waits for demand (negcamsinkcore.c), then copies the
 *    buffer, packed as V4L2 lays it out, into a dequeued PipeWire buffer
 *    (one copy, timed: stats copy-ns) and queues it; the node drives the
 *    graph, so each queued frame is one cycle.
 * Locks: the thread loop's lock around the node (struct ncpw), taken by
 * the streaming thread in render and get_caps; the object lock for the
 * properties and counters; the core's for the demand.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>
#include <spa/buffer/meta.h>

#include "negcamcaps.h"
#include "negcamdevice.h"
#include "negcamformatcache.h"
#include "negcampwsink.h"
#include "negcamsinkcore.h"
#include "profile-load.h"
#include "pw-node.h"

GST_DEBUG_CATEGORY_STATIC (negcampwsink_debug);
#define GST_CAT_DEFAULT negcampwsink_debug

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_LABEL,
  PROP_STATS,
};

struct _GstNegcamPwSink {
  GstBaseSink parent;
  NegcamSinkCore core;

  /* object lock (the profile and label: the core's) */
  guint negotiations;
  guint64 sent, skipped, no_buffer, copy_ns, bytes;

  /* the thread loop's lock: the node */
  struct pw_thread_loop *tl;
  struct ncpw app;
  GstCaps *all; /* every format of the profile (set while open) */

  /* streaming thread */
  GstCaps *caps;
  GstVideoInfo info;
  gboolean raw;
};

G_DEFINE_TYPE (GstNegcamPwSink, gst_negcam_pw_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (negcampwsink, "negcampwsink", GST_RANK_NONE,
    GST_TYPE_NEGCAM_PW_SINK);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw; image/jpeg; video/x-h264, "
                     "stream-format = (string) byte-stream, "
                     "alignment = (string) au"));

/* ------------------------------------------------------------------ */
/* The node's hooks (PipeWire's thread, the thread loop's lock held)     */

static void
on_streaming (struct ncpw *app)
{
  GstNegcamPwSink *self = app->user;

  app->streaming = true;
  app->count.streams++;
  negcam_sink_core_set_demand (&self->core, TRUE);
}

static void
on_paused (struct ncpw *app)
{
  GstNegcamPwSink *self = app->user;

  if (app->streaming)
    GST_INFO_OBJECT (self, "paused after %" G_GUINT64_FORMAT " frames",
        app->count.frames);
  app->streaming = false;
  negcam_sink_core_set_demand (&self->core, FALSE);
}

/* The format first, without colorimetry (converters would keep theirs). */
static GstCaps *
node_caps (const struct ncpw *app)
{
  struct v4l2_fract ival = app->have_format
      ? app->interval
      : negcam_engine_interval (&app->engine, NC_CAPTURE);
  GstCaps *caps = negcam_caps_from_format (app->have_format
          ? &app->pix
          : negcam_engine_fmt (&app->engine, NC_CAPTURE),
      &ival);

  if (caps)
    gst_structure_remove_field (gst_caps_get_structure (caps, 0),
        "colorimetry");
  return caps;
}

static void
on_format (struct ncpw *app)
{
  GstNegcamPwSink *self = app->user;
  GstCaps *caps = node_caps (app);

  if (caps)
    negcam_sink_core_chose_later (&self->core, caps);
}

static void
post_message (GstElement * element, gpointer msg)
{
  gst_element_post_message (element, GST_MESSAGE (msg));
}

/*
 * The hooks run on PipeWire's thread with its loop lock held: an error or
 * warning is posted from GStreamer's own thread pool instead, so no lock
 * of ours is held while the bus (and an application's sync handler) runs.
 */
static void
post_later (GstNegcamPwSink * self, GQuark domain, gint code, gboolean error,
    const gchar * text)
{
  GError *err = g_error_new_literal (domain, code, text);
  GstMessage *msg = error
      ? gst_message_new_error (GST_OBJECT (self), err, NULL)
      : gst_message_new_warning (GST_OBJECT (self), err, NULL);

  g_error_free (err);
  gst_element_call_async (GST_ELEMENT (self), post_message, msg, NULL);
}

static void
on_failed (struct ncpw *app, const char *why)
{
  GstNegcamPwSink *self = app->user;
  gchar *text = g_strdup_printf ("The PipeWire camera node stopped: %s", why);

  GST_ERROR_OBJECT (self, "%s", text);
  post_later (self, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, TRUE, text);
  g_free (text);
  negcam_sink_core_unlock (&self->core, TRUE);
}

static void
on_log (struct ncpw *app, const char *msg)
{
  GstNegcamPwSink *self = app->user;

  GST_INFO_OBJECT (self, "%s", msg);
  if (g_str_has_prefix (msg, "a consumer's"))
    post_later (self, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT, FALSE, msg);
}

static const struct ncpw_hooks sink_hooks = {
  .streaming = on_streaming,
  .paused = on_paused,
  .format = on_format,
  .failed = on_failed,
  .log = on_log,
};

/* ------------------------------------------------------------------ */
/* Caps                                                                */

static GstCaps *
gst_negcam_pw_sink_get_caps (GstBaseSink *bsink, GstCaps *filter)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (bsink);
  GstCaps *chosen = NULL, *all;

  if (!self->tl)
    return negcam_sink_core_caps (NULL,
        gst_pad_get_pad_template_caps (GST_BASE_SINK_PAD (bsink)), filter);
  pw_thread_loop_lock (self->tl);
  chosen = node_caps (&self->app);
  all = gst_caps_ref (self->all);
  pw_thread_loop_unlock (self->tl);
  return negcam_sink_core_caps (chosen, all, filter);
}

static gboolean
gst_negcam_pw_sink_query (GstBaseSink *bsink, GstQuery *query)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (bsink);

  return negcam_sink_core_accept_caps (&self->core, query)
      || GST_BASE_SINK_CLASS (gst_negcam_pw_sink_parent_class)
             ->query (bsink, query);
}

static gboolean
gst_negcam_pw_sink_set_caps (GstBaseSink *bsink, GstCaps *caps)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (bsink);
  gboolean raw = gst_structure_has_name (
      gst_caps_get_structure (caps, 0), "video/x-raw");
  guint n;

  if (raw && !gst_video_info_from_caps (&self->info, caps))
    return FALSE;
  self->raw = raw;
  gst_caps_replace (&self->caps, caps);
  GST_OBJECT_LOCK (self);
  n = ++self->negotiations;
  GST_OBJECT_UNLOCK (self);
  negcam_sink_core_set_caps (&self->core, caps, n);
  return TRUE;
}

static gboolean
gst_negcam_pw_sink_propose_allocation (GstBaseSink *bsink, GstQuery *query)
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */

/* @buf into a dequeued buffer, queued; the bytes, 0: skipped. Call with
 * the thread loop's lock. */
static long
send_frame (GstNegcamPwSink *self, GstBuffer *buf, guint64 *took)
{
  struct ncpw *app = &self->app;
  struct pw_buffer *b = pw_stream_dequeue_buffer (app->stream);
  struct spa_meta_header *h;
  struct spa_data *d;
  gint64 t0;
  long len;

  if (!b)
    return -1;
  d = &b->buffer->datas[0];
  t0 = g_get_monotonic_time ();
  len = d->data ? negcam_sink_core_pack (&self->info, self->raw, buf, d->data,
                      d->maxsize)
                : 0;
  *took = (guint64) (g_get_monotonic_time () - t0) * 1000;
  d->chunk->offset = 0;
  d->chunk->size = (uint32_t) len;
  d->chunk->stride = (int32_t) app->pix.bytesperline;
  d->chunk->flags = len ? 0 : SPA_CHUNK_FLAG_CORRUPTED;
  h = spa_buffer_find_meta_data (b->buffer, SPA_META_Header, sizeof (*h));
  if (h) {
    h->pts = g_get_monotonic_time () * 1000;
    h->dts_offset = 0;
    h->seq = app->frame;
    h->flags = len ? 0 : SPA_META_HEADER_FLAG_CORRUPTED;
  }
  pw_stream_queue_buffer (app->stream, b);
  pw_stream_trigger_process (app->stream);
  if (len) {
    app->frame++;
    app->count.frames++;
  }
  return len;
}

static GstFlowReturn
gst_negcam_pw_sink_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (bsink);
  guint64 took = 0;
  long len = 0;

  if (!negcam_sink_core_wait_demand (&self->core))
    return GST_FLOW_FLUSHING;
  pw_thread_loop_lock (self->tl);
  if (self->app.streaming && self->app.have_format
      && negcam_sink_core_caps_are (self->caps, &self->app.pix))
    len = send_frame (self, buf, &took);
  pw_thread_loop_unlock (self->tl);
  GST_OBJECT_LOCK (self);
  if (len > 0) {
    self->sent++;
    self->copy_ns += took;
    self->bytes += (guint64) len;
  } else if (len < 0) {
    self->no_buffer++;
  } else {
    self->skipped++;
  }
  GST_OBJECT_UNLOCK (self);
  GST_LOG_OBJECT (self, "frame: %ld bytes", len);
  return GST_FLOW_OK;
}

static gboolean
gst_negcam_pw_sink_unlock (GstBaseSink *bsink)
{
  negcam_sink_core_unlock (&GST_NEGCAM_PW_SINK (bsink)->core, TRUE);
  return TRUE;
}

static gboolean
gst_negcam_pw_sink_unlock_stop (GstBaseSink *bsink)
{
  negcam_sink_core_unlock (&GST_NEGCAM_PW_SINK (bsink)->core, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */

/* The profile (the node's engine) and its caps; FALSE after an error. */
static gboolean
load_profile (GstNegcamPwSink *self, const gchar *spec, const gchar *label)
{
  GError *err = NULL;
  NegcamDevice *dev = negcam_device_open (NULL, spec, &err);
  NegcamFormatCache *cache;
  char msg[512];

  if (!dev) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Cannot load profile \"%s\": %s", spec, err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  cache = negcam_format_cache_new (dev);
  self->all = negcam_format_cache_caps (cache, NULL);
  negcam_format_cache_free (cache);
  negcam_device_unref (dev);
  self->app.profile = g_new0 (struct negcam_profile, 1);
  if (negcam_profile_load (spec, self->app.profile, msg, sizeof (msg)) < 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Cannot load profile \"%s\": %s", spec, msg), (NULL));
    return FALSE;
  }
  negcam_engine_init (&self->app.engine, self->app.profile);
  g_strlcpy (self->app.label, label && *label ? label : self->app.profile->name,
      sizeof (self->app.label));
  self->app.description = label && *label ? self->app.label
      : self->app.profile->card[0]        ? self->app.profile->card
                                          : self->app.profile->name;
  ncpw_name_node (&self->app);
  return TRUE;
}

/* PipeWire, the node published; FALSE after an error. */
static gboolean
publish (GstNegcamPwSink *self)
{
  struct ncpw *app = &self->app;
  gboolean ok;

  self->tl = pw_thread_loop_new ("negcampwsink", NULL);
  app->context = pw_context_new (pw_thread_loop_get_loop (self->tl), NULL, 0);
  if (!app->context || pw_thread_loop_start (self->tl) < 0)
    return FALSE;
  pw_thread_loop_lock (self->tl);
  app->core = pw_context_connect (app->context, NULL, 0);
  app->hooks = &sink_hooks;
  app->user = self;
  ok = app->core && ncpw_stream_start (app) == 0 && ncpw_links_watch (app) == 0;
  app->published = ok;
  pw_thread_loop_unlock (self->tl);
  if (!app->core)
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("PipeWire is not running: cannot connect to it (%s); start it "
         "with 'systemctl --user start pipewire wireplumber'",
            g_strerror (errno)),
        (NULL));
  else if (!ok)
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot publish the PipeWire node of profile %s",
            app->profile->name),
        (NULL));
  return ok;
}

static void
gst_negcam_pw_sink_close (GstNegcamPwSink *self)
{
  struct ncpw *app = &self->app;

  if (self->tl) {
    pw_thread_loop_lock (self->tl);
    app->quitting = true;
    ncpw_links_stop (app);
    ncpw_stream_stop (app);
    if (app->core)
      pw_core_disconnect (app->core);
    pw_thread_loop_unlock (self->tl);
    pw_thread_loop_stop (self->tl);
    if (app->context)
      pw_context_destroy (app->context);
    pw_thread_loop_destroy (self->tl);
    self->tl = NULL;
  }
  g_free (app->profile);
  memset (app, 0, sizeof (*app));
  gst_clear_caps (&self->all);
  gst_clear_caps (&self->caps);
}

static gboolean
gst_negcam_pw_sink_open (GstNegcamPwSink *self)
{
  gchar *spec, *label;
  gboolean ok = FALSE;

  negcam_sink_core_profile_label (&self->core, &spec, &label);
  GST_OBJECT_LOCK (self);
  self->negotiations = 0;
  self->sent = self->skipped = self->no_buffer = self->copy_ns = 0;
  self->bytes = 0;
  GST_OBJECT_UNLOCK (self);
  if (label && strlen (label) > NCPW_LABEL_MAX)
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("The label is %zu characters; it must have at most %d",
            strlen (label), NCPW_LABEL_MAX),
        (NULL));
  else
    ok = load_profile (self, spec, label) && publish (self);
  if (!ok)
    gst_negcam_pw_sink_close (self);
  g_free (spec);
  g_free (label);
  return ok;
}

static GstStateChangeReturn
gst_negcam_pw_sink_change_state (GstElement *element,
    GstStateChange transition)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && !gst_negcam_pw_sink_open (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_negcam_pw_sink_parent_class)
            ->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_negcam_pw_sink_close (self);
  return ret;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

static GstStructure *
gst_negcam_pw_sink_stats (GstNegcamPwSink *self)
{
  GstStructure *s = gst_structure_new_empty ("negcampwsink-stats");
  guint64 frames = 0, streams = 0, formats = 0, refused = 0;
  gboolean streaming = FALSE;

  if (self->tl) {
    pw_thread_loop_lock (self->tl);
    frames = self->app.count.frames;
    streams = self->app.count.streams;
    formats = self->app.count.formats;
    refused = self->app.count.refused;
    streaming = self->app.streaming;
    pw_thread_loop_unlock (self->tl);
  }
  negcam_sink_core_stats (&self->core, s);
  GST_OBJECT_LOCK (self);
  gst_structure_set (s, "negotiations", G_TYPE_UINT, self->negotiations,
      "sent", G_TYPE_UINT64, self->sent, "skipped", G_TYPE_UINT64,
      self->skipped, "no-buffer", G_TYPE_UINT64, self->no_buffer, "copies",
      G_TYPE_UINT64, self->sent, "copy-ns", G_TYPE_UINT64, self->copy_ns,
      "copied-bytes", G_TYPE_UINT64, self->bytes, "frames", G_TYPE_UINT64,
      frames, "streams", G_TYPE_UINT64, streams, "formats", G_TYPE_UINT64,
      formats, "refused", G_TYPE_UINT64, refused, "streaming",
      G_TYPE_BOOLEAN, streaming, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_negcam_pw_sink_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (object);

  if (!negcam_sink_core_set_property (&self->core, pspec, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_negcam_pw_sink_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (object);

  if (prop_id == PROP_STATS)
    g_value_take_boxed (value, gst_negcam_pw_sink_stats (self));
  else if (!negcam_sink_core_get_property (&self->core, pspec, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

void
gst_negcam_pw_sink_install_properties (GObjectClass *klass, guint first_id)
{
  negcam_sink_core_install (klass, first_id, first_id + 1,
      "What the camera node offers: a built-in profile's name or a "
      "profile file (docs/profiles.md); the formats SPA carries",
      "The node's description (node.name is negcam.LABEL, at most 63 "
      "characters); empty for the profile's card and name");
}

static void
gst_negcam_pw_sink_init (GstNegcamPwSink *self)
{
  negcam_sink_core_init (&self->core, GST_BASE_SINK (self), "negcampwsink",
      TRUE);
  gst_video_info_init (&self->info);
}

static void
gst_negcam_pw_sink_finalize (GObject *object)
{
  GstNegcamPwSink *self = GST_NEGCAM_PW_SINK (object);

  negcam_sink_core_clear (&self->core);
  G_OBJECT_CLASS (gst_negcam_pw_sink_parent_class)->finalize (object);
}

static void
gst_negcam_pw_sink_class_init (GstNegcamPwSinkClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (negcampwsink_debug, "negcampwsink", 0,
      "negcampwsink: a pipeline as a PipeWire camera");
  pw_init (NULL, NULL);
  gobject_class->set_property = gst_negcam_pw_sink_set_property;
  gobject_class->get_property = gst_negcam_pw_sink_get_property;
  gobject_class->finalize = gst_negcam_pw_sink_finalize;
  gst_negcam_pw_sink_install_properties (gobject_class, PROP_PROFILE);
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "negotiations, chosen (consumers' Formats), reconfigures (sent "
          "upstream), sent (frames queued to PipeWire), copies and copy-ns "
          "(one copy a frame, its time), skipped (not the consumer's "
          "format), no-buffer, idle (buffers that reached render with no "
          "consumer), late-dropped (QoS), streams, formats, refused",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_element_class_set_static_metadata (element_class,
      "Negcam PipeWire camera sink", "Sink/Video",
      "A pipeline as a PipeWire camera node (media.role Camera); each "
      "consumer's Format renegotiates upstream",
      "negcam developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  element_class->change_state = gst_negcam_pw_sink_change_state;
  basesink_class->get_caps = gst_negcam_pw_sink_get_caps;
  basesink_class->set_caps = gst_negcam_pw_sink_set_caps;
  basesink_class->query = gst_negcam_pw_sink_query;
  basesink_class->propose_allocation = gst_negcam_pw_sink_propose_allocation;
  basesink_class->render = gst_negcam_pw_sink_render;
  basesink_class->unlock = gst_negcam_pw_sink_unlock;
  basesink_class->unlock_stop = gst_negcam_pw_sink_unlock_stop;
}
