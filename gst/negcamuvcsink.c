/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamuvcsink
 * @title: negcamuvcsink
 * @see_also: negcamuvcconvertsink, negcamsink
 *
 * A pipeline as a USB webcam: negcamuvcsink attaches a USB Video Class
 * camera to vhci-hcd (USB/IP's virtual host controller, in every
 * distribution kernel) and the kernel's own uvcvideo driver serves it as
 * /dev/videoN. The camera advertises the formats, sizes and intervals of
 * a profile (`profile`); the host application chooses one (UVC PROBE and
 * COMMIT), and the sink asks upstream to renegotiate to it (RECONFIGURE;
 * its caps give the committed format first). The frames it receives are
 * sent as the camera's isochronous payloads. It is negcam-uvc's device
 * core, fed by the pipeline instead of the engine's generator.
 *
 * Attaching needs root and vhci-hcd loaded (`modprobe vhci-hcd uvcvideo`).
 * Use negcamuvcconvertsink to serve every format from one source.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! negcamuvcconvertsink profile=webcam
 * ]| A USB webcam whose format the host application chooses.
 * |[
 * gst-launch-1.0 -m videotestsrc is-live=true ! \
 *     video/x-raw,format=YUY2,width=640,height=480,framerate=30/1 ! \
 *     negcamuvcsink profile=vga label="Test Camera"
 * ]| One format, no conversion: the `vga` profile (YUYV 640x480 at 30 fps).
 *
 * See docs/uvc.md, "A pipeline as the camera".
 */
/*
 * negcamuvcsink: the element around uvc/'s device core (uvc-device.h).
 * It owns:
 *  - opening (NULL to READY): the profile, the device, the vhci-hcd
 *    attach (uvc/vhci-attach.h) and the device thread; closing (READY to
 *    NULL): detach, the thread joined;
 *  - the device thread: uvc/'s serving session (uvc-session.h, the loop
 *    negcam-uvc runs too), so endpoint 0 and the stream are answered
 *    whatever the pipeline does; its hooks are the sink's: stop when
 *    closing (the wake pipe), a new COMMIT becomes a RECONFIGURE
 *    upstream, frames come from the latest buffer, dev_lock around the
 *    core;
 *  - caps: the committed (else probed) format, size and rate first, then
 *    every format and frame of the descriptors in their order;
 *  - frames: render keeps the latest buffer; the session's frame source
 *    (take_frame) copies it, tightly packed as uvcvideo expects, when
 *    its caps are the committed format (else the frame is skipped).
 * What follows from a COMMIT (the caps first, the message, RECONFIGURE,
 * accept-caps, the frame checked and packed, late frames dropped) is the
 * renegotiating core shared with negcamsink and negcampwsink
 * (negcamsinkcore.c).
 * Locks: dev_lock around every call into the core (the device thread,
 * get_caps); frame_lock around the latest buffer (taken inside dev_lock by
 * the frame source, alone by render); the object lock for properties and
 * counters. No lock is held while posting messages or pushing events.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include "negcamcaps.h"
#include "negcamsinkcore.h"
#include "negcamuvcsink.h"
#include "profile-load.h"
#include "uvc-device.h"
#include "uvc-session.h"
#include "vhci-attach.h"

GST_DEBUG_CATEGORY_STATIC (negcamuvcsink_debug);
#define GST_CAT_DEFAULT negcamuvcsink_debug

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_PORT,
  PROP_LABEL,
  PROP_STATS,
};

struct _GstNegcamUvcSink {
  GstBaseSink parent;
  NegcamSinkCore core; /* commits: the core's chosen */

  /* object lock (the profile and label: the core's) */
  gint port;
  guint negotiations;
  guint64 rendered, skipped;

  /* dev_lock: the core */
  GMutex dev_lock;
  struct negcam_profile *profile;
  struct nc_uvc_dev *dev;
  struct nc_vhci vhci;
  GThread *thread;
  gint wake[2];  /* a pipe: wakes the device thread to detach */
  gint stopping; /* atomic */

  /* frame_lock: the latest buffer and its caps */
  GMutex frame_lock;
  GstBuffer *latest;
  GstCaps *caps;
  GstVideoInfo info;
  gboolean raw;
};

G_DEFINE_TYPE (GstNegcamUvcSink, gst_negcam_uvc_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (negcamuvcsink, "negcamuvcsink", GST_RANK_NONE,
    GST_TYPE_NEGCAM_UVC_SINK);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) { YUY2, UYVY, NV12, "
                     "I420, GRAY8 }; image/jpeg; video/x-h264, "
                     "stream-format = (string) byte-stream, "
                     "alignment = (string) au"));

/* ------------------------------------------------------------------ */
/* Caps                                                                */

/* The rate of an interval in 100 ns units: the profile's own fraction
 * when one gives that interval (30/1, not 10000000/333333). */
static void
interval_rate (const struct negcam_profile *p, const struct nc_uvc_frame *fr,
    guint32 v, gint *n, gint *d)
{
  const struct negcam_size *sz = &p->sizes[fr->size_index];
  guint i, gcd;

  for (i = sz->ival_first; i < (guint) sz->ival_first + sz->ival_count; i++) {
    const struct v4l2_fract *f = &p->intervals[i].min;

    if (f->numerator && nc_uvc_fract_to_100ns (*f) == v) {
      *n = f->denominator;
      *d = f->numerator;
      return;
    }
  }
  v = MAX (v, 1);
  gcd = gst_util_greatest_common_divisor (10000000, v);
  *n = 10000000 / gcd;
  *d = v / gcd;
}

/* The caps of frame @fr of format @uf: at @interval (100 ns) when not 0,
 * else at every rate the frame lists. */
static GstStructure *
frame_structure (const struct nc_uvc_dev *dev, const struct nc_uvc_format *uf,
    const struct nc_uvc_frame *fr, guint32 interval)
{
  GstStructure *s = negcam_fourcc_to_structure (uf->fourcc);
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  gint n, d, n2, d2;
  guint i;

  if (!s)
    return NULL;
  gst_structure_set (s, "width", G_TYPE_INT, (gint) fr->width, "height",
      G_TYPE_INT, (gint) fr->height, "pixel-aspect-ratio", GST_TYPE_FRACTION,
      1, 1, NULL);
  if (gst_structure_has_name (s, "video/x-raw"))
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
        NULL);
  if (interval || fr->nintervals == 1) {
    interval_rate (dev->profile, fr, interval ? interval : fr->interval[0],
        &n, &d);
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, n, d, NULL);
  } else if (!fr->nintervals) { /* continuous: [max interval, min interval] */
    interval_rate (dev->profile, fr, fr->interval[1], &n, &d);
    interval_rate (dev->profile, fr, fr->interval[0], &n2, &d2);
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION_RANGE, n, d, n2, d2,
        NULL);
  } else {
    g_value_init (&list, GST_TYPE_LIST);
    g_value_init (&v, GST_TYPE_FRACTION);
    for (i = 0; i < fr->nintervals; i++) {
      interval_rate (dev->profile, fr, fr->interval[i], &n, &d);
      gst_value_set_fraction (&v, n, d);
      gst_value_list_append_value (&list, &v);
    }
    gst_structure_take_value (s, "framerate", &list);
    g_value_unset (&v);
  }
  return s;
}

/* What the host chose (COMMIT, else its last PROBE) first, then every
 * format and frame in descriptor order. Call with dev_lock. */
static GstCaps *
device_caps (const struct nc_uvc_dev *dev)
{
  const struct nc_uvc_params *c = dev->committed ? &dev->commit : &dev->probe;
  GstCaps *caps = gst_caps_new_empty ();
  GstStructure *s;
  guint f, i;

  s = frame_structure (dev, nc_uvc_params_format (dev, c),
      nc_uvc_params_frame (dev, c), c->interval);
  if (s)
    gst_caps_append_structure (caps, s);
  for (f = 0; f < dev->desc.nformats; f++) {
    const struct nc_uvc_format *uf = &dev->desc.formats[f];

    for (i = 0; i < uf->nframes; i++) {
      s = frame_structure (dev, uf, &uf->frames[i], 0);
      if (s)
        gst_caps_append_structure (caps, s);
    }
  }
  return caps;
}

static GstCaps *
gst_negcam_uvc_sink_get_caps (GstBaseSink *bsink, GstCaps *filter)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (bsink);
  GstCaps *caps;

  g_mutex_lock (&self->dev_lock);
  caps = self->dev ? device_caps (self->dev)
                   : gst_pad_get_pad_template_caps (GST_BASE_SINK_PAD (bsink));
  g_mutex_unlock (&self->dev_lock);
  return negcam_sink_core_caps (NULL, caps, filter);
}

static gboolean
gst_negcam_uvc_sink_query (GstBaseSink *bsink, GstQuery *query)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (bsink);

  return negcam_sink_core_accept_caps (&self->core, query)
      || GST_BASE_SINK_CLASS (gst_negcam_uvc_sink_parent_class)
             ->query (bsink, query);
}

static void
post_structure (GstNegcamUvcSink *self, GstStructure *s)
{
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static gboolean
gst_negcam_uvc_sink_set_caps (GstBaseSink *bsink, GstCaps *caps)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (bsink);
  GstVideoInfo info;
  gboolean raw = gst_structure_has_name (
      gst_caps_get_structure (caps, 0), "video/x-raw");
  guint n;

  if (raw && !gst_video_info_from_caps (&info, caps))
    return FALSE;
  g_mutex_lock (&self->frame_lock);
  gst_caps_replace (&self->caps, caps);
  self->raw = raw;
  if (raw)
    self->info = info;
  gst_clear_buffer (&self->latest);
  g_mutex_unlock (&self->frame_lock);
  GST_OBJECT_LOCK (self);
  n = ++self->negotiations;
  GST_OBJECT_UNLOCK (self);
  negcam_sink_core_set_caps (&self->core, caps, n);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */

static GstFlowReturn
gst_negcam_uvc_sink_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (bsink);

  g_mutex_lock (&self->frame_lock);
  gst_buffer_replace (&self->latest, buf);
  g_mutex_unlock (&self->frame_lock);
  GST_OBJECT_LOCK (self);
  self->rendered++;
  GST_OBJECT_UNLOCK (self);
  return GST_FLOW_OK;
}

/* The core's frame source (device thread, dev_lock held). */
static long
take_frame (void *ctx, const struct v4l2_pix_format *fmt, uint32_t frame_no,
    uint8_t *out, uint32_t cap)
{
  GstNegcamUvcSink *self = ctx;
  GstBuffer *buf = NULL;
  GstVideoInfo info;
  gboolean raw = FALSE;
  long len = 0;

  g_mutex_lock (&self->frame_lock);
  if (self->latest && negcam_sink_core_caps_are (self->caps, fmt)) {
    buf = gst_buffer_ref (self->latest);
    raw = self->raw;
    info = self->info;
  }
  g_mutex_unlock (&self->frame_lock);
  if (buf)
    len = negcam_sink_core_pack (&info, raw, buf, out, cap);
  gst_clear_buffer (&buf);
  if (!len) {
    GST_OBJECT_LOCK (self);
    self->skipped++;
    GST_OBJECT_UNLOCK (self);
  }
  GST_LOG_OBJECT (self, "frame %u: %ld bytes", frame_no, len);
  return len;
}

/* ------------------------------------------------------------------ */
/* The device thread: uvc/'s serving session, with the sink's hooks     */

/* Asked once a round: has the sink asked to detach? */
static bool
stop_asked (void *ctx)
{
  GstNegcamUvcSink *self = ctx;

  if (!g_atomic_int_get (&self->stopping))
    return false;
  GST_INFO_OBJECT (self, "detaching vhci-hcd port %d", self->vhci.port);
  return true;
}

static void
lock_device (void *ctx)
{
  g_mutex_lock (&((GstNegcamUvcSink *) ctx)->dev_lock);
}

static void
unlock_device (void *ctx)
{
  g_mutex_unlock (&((GstNegcamUvcSink *) ctx)->dev_lock);
}

/* The host committed @c: the core tells the application and asks
 * upstream to renegotiate. No lock held. */
static void
follow_commit (void *ctx, const struct nc_uvc_params *c)
{
  GstNegcamUvcSink *self = ctx;
  GstCaps *caps;

  g_mutex_lock (&self->dev_lock);
  caps = gst_caps_new_full (frame_structure (self->dev,
          nc_uvc_params_format (self->dev, c),
          nc_uvc_params_frame (self->dev, c), c->interval), NULL);
  g_mutex_unlock (&self->dev_lock);
  negcam_sink_core_chose (&self->core, caps);
  gst_caps_unref (caps);
}

/* The device thread: serve the host until it detaches (the sink asked,
 * or the host went away). */
static gpointer
device_thread (gpointer data)
{
  GstNegcamUvcSink *self = data;
  const struct nc_uvc_session_hooks hooks = {
    .ctx = self,
    .stop = stop_asked,
    .commit = follow_commit,
    .frame = take_frame,
    .lock = lock_device,
    .unlock = unlock_device,
    .wake_fd = self->wake[0],
  };
  gint end = nc_uvc_session_run (self->dev, &self->vhci, &hooks);

  if (end < 0)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("The USB camera stopped: %s", g_strerror (-end)), (NULL));
  else if (end == NC_UVC_SESSION_HOST_LEFT)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("The host detached the USB camera (vhci-hcd port %d)",
            self->vhci.port),
        (NULL));
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */

/* The profile and the device; FALSE after posting an error. */
static gboolean
make_device (GstNegcamUvcSink *self, const gchar *spec, const gchar *label)
{
  struct nc_uvc_identity id;
  char msg[512];
  gint err;

  self->profile = g_new0 (struct negcam_profile, 1);
  if (negcam_profile_load (spec, self->profile, msg, sizeof (msg))) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Cannot load profile \"%s\"", spec), ("%s", msg));
    return FALSE;
  }
  nc_uvc_profile_identity (self->profile, &id);
  if (label && *label)
    g_strlcpy (id.name, label, sizeof (id.name));
  self->dev = g_new0 (struct nc_uvc_dev, 1);
  err = nc_uvc_dev_init (self->dev, self->profile, &id, nc_uvc_send_fd,
      &self->vhci.fd);
  if (self->dev->desc.warnings[0])
    GST_WARNING_OBJECT (self, "profile %s: %s", spec,
        self->dev->desc.warnings);
  if (err) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Profile \"%s\" has no format a USB camera can carry", spec),
        ("%s", self->dev->desc.warnings));
    return FALSE;
  }
  return TRUE;
}

static void
free_device (GstNegcamUvcSink *self)
{
  g_mutex_lock (&self->dev_lock);
  if (self->dev)
    nc_uvc_dev_free (self->dev);
  g_clear_pointer (&self->dev, g_free);
  g_clear_pointer (&self->profile, g_free);
  g_mutex_unlock (&self->dev_lock);
}

/* Attach to vhci-hcd and start serving; FALSE after posting an error. */
static gboolean
attach (GstNegcamUvcSink *self, gint port)
{
  char msg[512];

  if (nc_vhci_attach (&self->vhci, port, msg, sizeof (msg))) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot attach the USB camera: %s", msg), (NULL));
    return FALSE;
  }
  if (pipe2 (self->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, (NULL),
        ("pipe2: %s", g_strerror (errno)));
    nc_vhci_detach (&self->vhci);
    close (self->vhci.fd);
    return FALSE;
  }
  g_atomic_int_set (&self->stopping, 0);
  self->thread = g_thread_new ("negcamuvcsink", device_thread, self);
  return TRUE;
}

static gboolean
gst_negcam_uvc_sink_open (GstNegcamUvcSink *self)
{
  gchar *spec, *label;
  gint port;
  gboolean ok;

  negcam_sink_core_profile_label (&self->core, &spec, &label);
  GST_OBJECT_LOCK (self);
  port = self->port;
  self->negotiations = 0;
  self->core.chosen = self->core.reconfigures = 0;
  self->rendered = self->skipped = 0;
  GST_OBJECT_UNLOCK (self);
  ok = make_device (self, spec, label) && attach (self, port);
  if (ok)
    post_structure (self, gst_structure_new ("negcamuvcsink-attached",
        "port", G_TYPE_INT, self->vhci.port, "card", G_TYPE_STRING,
        self->dev->desc.id.name, NULL));
  else
    free_device (self);
  g_free (spec);
  g_free (label);
  return ok;
}

static void
gst_negcam_uvc_sink_close (GstNegcamUvcSink *self)
{
  if (self->thread) {
    g_atomic_int_set (&self->stopping, 1);
    if (write (self->wake[1], "x", 1) < 0)
      GST_DEBUG_OBJECT (self, "wake pipe: %s", g_strerror (errno));
    g_thread_join (self->thread);
    self->thread = NULL;
    close (self->wake[0]);
    close (self->wake[1]);
    close (self->vhci.fd);
  }
  free_device (self);
  g_mutex_lock (&self->frame_lock);
  gst_clear_buffer (&self->latest);
  gst_clear_caps (&self->caps);
  g_mutex_unlock (&self->frame_lock);
}

static GstStateChangeReturn
gst_negcam_uvc_sink_change_state (GstElement *element,
    GstStateChange transition)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && !gst_negcam_uvc_sink_open (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_negcam_uvc_sink_parent_class)
            ->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_negcam_uvc_sink_close (self);
  return ret;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

static GstStructure *
gst_negcam_uvc_sink_stats (GstNegcamUvcSink *self)
{
  struct nc_uvc_counts c = { 0 };
  GstStructure *s;

  g_mutex_lock (&self->dev_lock);
  if (self->dev)
    c = self->dev->counts;
  g_mutex_unlock (&self->dev_lock);
  GST_OBJECT_LOCK (self);
  s = gst_structure_new ("negcamuvcsink-stats", "commits", G_TYPE_UINT,
      self->core.chosen, "negotiations", G_TYPE_UINT, self->negotiations,
      "reconfigures", G_TYPE_UINT, self->core.reconfigures, "rendered",
      G_TYPE_UINT64, self->rendered, "skipped", G_TYPE_UINT64, self->skipped,
      "sent", G_TYPE_UINT64, (guint64) c.frames, "probe-set", G_TYPE_UINT64,
      (guint64) c.probe_set, "commit-set", G_TYPE_UINT64,
      (guint64) c.commit_set, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_negcam_uvc_sink_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (object);

  if (negcam_sink_core_set_property (&self->core, pspec, value))
    return;
  if (prop_id != PROP_PORT) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  GST_OBJECT_LOCK (self);
  self->port = g_value_get_int (value);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_negcam_uvc_sink_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_negcam_uvc_sink_stats (self));
  } else if (prop_id == PROP_PORT) {
    GST_OBJECT_LOCK (self);
    g_value_set_int (value, self->port);
    GST_OBJECT_UNLOCK (self);
  } else if (!negcam_sink_core_get_property (&self->core, pspec, value)) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

void
gst_negcam_uvc_sink_install_properties (GObjectClass *klass, guint first_id)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_READY;

  negcam_sink_core_install (klass, first_id, first_id + 2,
      "What the USB camera advertises: a built-in profile's name or a "
      "profile file (docs/profiles.md); its formats UVC carries",
      "The camera's USB product name (uvcvideo's card name); empty for "
      "the profile's card or name");
  g_object_class_install_property (klass, first_id + 1,
      g_param_spec_int ("port", "Port",
          "The vhci-hcd port to attach to, -1 for the first free high-speed "
          "one",
          -1, 255, -1, rw));
}

static void
gst_negcam_uvc_sink_init (GstNegcamUvcSink *self)
{
  g_mutex_init (&self->dev_lock);
  g_mutex_init (&self->frame_lock);
  negcam_sink_core_init (&self->core, GST_BASE_SINK (self), "negcamuvcsink",
      FALSE);
  self->core.chose = "commit";
  self->port = -1;
  self->vhci.fd = -1;
  gst_video_info_init (&self->info);

}

static void
gst_negcam_uvc_sink_finalize (GObject *object)
{
  GstNegcamUvcSink *self = GST_NEGCAM_UVC_SINK (object);

  g_mutex_clear (&self->dev_lock);
  g_mutex_clear (&self->frame_lock);
  negcam_sink_core_clear (&self->core);
  G_OBJECT_CLASS (gst_negcam_uvc_sink_parent_class)->finalize (object);
}

static void
gst_negcam_uvc_sink_class_init (GstNegcamUvcSinkClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *basesink_class = GST_BASE_SINK_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (negcamuvcsink_debug, "negcamuvcsink", 0,
      "negcamuvcsink: a pipeline as a USB camera");
  gobject_class->set_property = gst_negcam_uvc_sink_set_property;
  gobject_class->get_property = gst_negcam_uvc_sink_get_property;
  gobject_class->finalize = gst_negcam_uvc_sink_finalize;
  gst_negcam_uvc_sink_install_properties (gobject_class, PROP_PROFILE);
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "commits (new host COMMITs), negotiations, reconfigures (sent "
          "upstream), rendered, skipped (frames the host wanted with no "
          "buffer of its format yet), sent, probe-set, commit-set",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  gst_element_class_set_static_metadata (element_class,
      "Negcam USB camera sink", "Sink/Video",
      "A pipeline as a USB Video Class camera on vhci-hcd, served by "
      "uvcvideo; the host's COMMIT renegotiates upstream",
      "negcam developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  element_class->change_state = gst_negcam_uvc_sink_change_state;
  basesink_class->get_caps = gst_negcam_uvc_sink_get_caps;
  basesink_class->set_caps = gst_negcam_uvc_sink_set_caps;
  basesink_class->query = gst_negcam_uvc_sink_query;
  basesink_class->render = gst_negcam_uvc_sink_render;
}
