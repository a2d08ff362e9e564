/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamsrc
 * @title: negcamsrc
 *
 * A live video source on a V4L2-like device: by default the negcam
 * engine in process, playing a *profile* (a built-in one such as
 * `webcam`, `vga`, `stepwise`, `tv-tuner`, or a profile file). Caps come
 * from the device's enumeration, probed lazily with the downstream filter;
 * negotiation is the V4L2 sequence TRY_FMT, S_FMT, S_PARM. Every request and
 * the device's answer are logged in the `negcamsrc` debug category, and
 * each negotiation posts a `negcam-negotiated` element message with the
 * chosen format and the number of requests it took.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m negcamsrc ! video/x-raw,width=320,height=240 ! videoconvert
 * ! autovideosink gst-launch-1.0 negcamsrc profile=tv-tuner ! videoconvert !
 * autovideosink gst-launch-1.0 negcamsrc ! image/jpeg,width=1280 ! jpegdec !
 * videoconvert ! autovideosink
 * ]|
 *
 * See docs/negcamsrc.md for the negotiation rules.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <time.h>
#include <gst/video/video.h>

#include "negcamsrc.h"
#include "negcamdevice.h"
#include "negcamcaps.h"
#include "negcampool.h"
#include "negcamfixate.h"
#include "profile.h"

GST_DEBUG_CATEGORY_EXTERN (negcamsrc_debug);
#define GST_CAT_DEFAULT negcamsrc_debug

#define DEFAULT_PROFILE "webcam"
#define DEFAULT_DEVICE ""
#define DEFAULT_IS_LIVE TRUE
#define DEFAULT_PATTERN GST_NEGCAM_PATTERN_BARS
#define DEFAULT_PREFER GST_NEGCAM_PREFER_DEVICE
#define DEFAULT_QUEUE_SIZE 0
#define DEFAULT_IO_MODE NEGCAM_POOL_MEMORY_AUTO
#define DEFAULT_LIBV4L2 FALSE

/* Caps of the GstReferenceTimestampMeta carrying the driver's raw
 * CLOCK_MONOTONIC buffer timestamp. */
#define NEGCAM_REFERENCE_CAPS "timestamp/x-linux-monotonic"

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_IS_LIVE,
  PROP_PATTERN,
  PROP_PREFER,
  PROP_QUEUE_SIZE,
  PROP_STATS,
  PROP_IO_MODE,
  PROP_LIBV4L2,
  PROP_COPIES,
};

struct _GstNegcamSrc {
  GstPushSrc parent;

  /* Properties, under the object lock. */
  gchar *profile;
  gchar *device;
  gboolean is_live;
  GstNegcamPattern pattern;
  GstNegcamPrefer prefer;
  guint queue_size;
  NegcamPoolMemory io_mode;
  gboolean libv4l2;

  /* The device, open from READY to NULL.
   * probe_lock guards the pointers dev and probe (set on NULL->READY,
   * cleared on READY->NULL) and the probe cache: caps queries (any
   * thread), fixate and the choose/try phases of negotiation take it.
   * The streaming thread uses dev without it between start and stop: the
   * pointer cannot change then (it is cleared only after streaming
   * stopped) and the device serialises its requests itself.
   * Never held while posting a message or calling another element (peer
   * caps query, set_caps): negotiation records an error and posts it
   * after unlocking. Take it scoped (g_autoptr (GMutexLocker)).
   * Lock order: probe_lock before the object lock, never the other way
   * round. */
  NegcamDevice *dev;
  gchar *card;
  GMutex probe_lock;
  NegcamProbe *probe;

  /* Negotiated state, streaming thread only. */
  GstCaps *configured;
  struct v4l2_format fmt; /* as asked of S_FMT */
  struct v4l2_fract interval; /* as S_PARM gave it */
  struct v4l2_fract asked; /* as asked of S_PARM (0/0: none) */
  GstVideoInfo info;
  gboolean is_video;
  NegcamPool *pool;
  /* Downstream's pool, when the device draws into its buffers
   * (negcam_device_capture_into, the embedded engine): frames go there
   * with no copy; src->pool stays the fallback. */
  GstBufferPool *down_pool;
  gboolean need_copy; /* device strides, no GstVideoMeta downstream */
  gboolean streaming;
  guint neg_mark; /* request count at the end of the last negotiation */
  gint mark_counts[NEGCAM_REQ_COUNT]; /* per type, at the same moment */

  /* Timing: running time of the next frame. clock_id (kept, re-armed each
   * frame) and clock_ids_made under the object lock. */
  GstClockTime next_time;
  gboolean stream_live; /* is-live when next_time was last anchored */
  GstClockID clock_id;
  guint clock_ids_made;
  gboolean flushing;
  guint32 expected_seq;
  gboolean have_seq;
  guint broken; /* frames with V4L2_BUF_FLAG_ERROR in a row */
  guint pool_created; /* CREATE_BUFS growth seen (latency changes) */
  GstCaps *reference_caps;
  GstClockTime first_ts; /* driver timestamp of the first frame, non-live */

  /* Statistics, under the object lock. */
  guint64 frames, drops, lost, copies;
  guint negotiations;
  guint reference_metas_added; /* GstReferenceTimestampMeta, per buffer */
};

static void gst_negcam_src_uri_handler_init (
    gpointer g_iface, gpointer iface_data);

#define gst_negcam_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstNegcamSrc, gst_negcam_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (
        GST_TYPE_URI_HANDLER, gst_negcam_src_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE (
    negcamsrc, "negcamsrc", GST_RANK_NONE, GST_TYPE_NEGCAM_SRC);

#define GST_TYPE_NEGCAM_PREFER (gst_negcam_prefer_get_type ())
static GType
gst_negcam_prefer_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { GST_NEGCAM_PREFER_DEVICE,
        "The device's default mode if allowed, else its default rate "
        "(at least 15 fps) at the largest frame",
        "device" },
    { GST_NEGCAM_PREFER_RESOLUTION,
        "Largest frame, then highest rate, then raw", "resolution" },
    { GST_NEGCAM_PREFER_FRAMERATE,
        "Highest frame rate, then largest frame, then raw", "framerate" },
    { GST_NEGCAM_PREFER_RAW, "Raw formats, then resolution, then rate", "raw" },
    { GST_NEGCAM_PREFER_COMPRESSED,
        "Compressed formats, then resolution, then rate", "compressed" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (
        &type, g_enum_register_static ("GstNegcamPrefer", values));
  return type;
}

#define GST_TYPE_NEGCAM_IO_MODE (gst_negcam_io_mode_get_type ())
static GType
gst_negcam_io_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { NEGCAM_POOL_MEMORY_AUTO,
        "dma-buf (EXPBUF) when the device exports, else MMAP", "auto" },
    { NEGCAM_POOL_MEMORY_MMAP, "The device's mmap()ed buffers", "mmap" },
    { NEGCAM_POOL_MEMORY_DMABUF,
        "Exported dma-bufs only (error when the device cannot EXPBUF)",
        "dmabuf" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (
        &type, g_enum_register_static ("GstNegcamIOMode", values));
  return type;
}

#define GST_TYPE_NEGCAM_PATTERN (gst_negcam_pattern_get_type ())
static GType
gst_negcam_pattern_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { GST_NEGCAM_PATTERN_BARS, "Colour bars with a moving box", "bars" },
    { GST_NEGCAM_PATTERN_GRADIENT, "Gradient with a moving box", "gradient" },
    { GST_NEGCAM_PATTERN_SOLID, "Mid grey, only the stamp and box change",
        "solid" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (
        &type, g_enum_register_static ("GstNegcamPattern", values));
  return type;
}

/* Buffers per frame interval: 2 when each holds one field
 * (V4L2_FIELD_ALTERNATE, interlace-mode=alternate), else 1. */
static guint
buffers_per_frame (GstNegcamSrc *src)
{
  return src->fmt.fmt.pix.field == V4L2_FIELD_ALTERNATE ? 2 : 1;
}

/* How long one buffer lasts: the negotiated frame interval, a field's
 * share of it for one field per buffer. */
static GstClockTime
buffer_duration (GstNegcamSrc *src)
{
  const struct v4l2_fract *iv = &src->interval;

  if (!iv->numerator || !iv->denominator)
    return GST_CLOCK_TIME_NONE;
  return gst_util_uint64_scale (GST_SECOND, iv->numerator,
      (guint64)iv->denominator * buffers_per_frame (src));
}

/* ------------------------------------------------------------------ */
/* Device open/close (NULL <-> READY)                                  */

/* Settings the embedded device (no @device) can never honour, in words:
 * said at NULL->READY rather than ignored or failing later under a name
 * that hides the cause. NULL when there is none. */
static const gchar *
gst_negcam_src_embedded_refuses (const gchar *device,
    NegcamDeviceOpenFlags flags, NegcamPoolMemory io_mode)
{
  if (device && device[0])
    return NULL;
  if (flags & NEGCAM_DEVICE_OPEN_LIBV4L2)
    return "libv4l2=true needs device=/dev/videoN: the embedded device "
           "does not go through libv4l2";
  if (io_mode == NEGCAM_POOL_MEMORY_DMABUF)
    return "the embedded device cannot export dma-bufs; use io-mode=mmap "
           "(or auto) or a device";
  return NULL;
}

static gboolean
gst_negcam_src_open (GstNegcamSrc *src)
{
  GError *err = NULL;
  struct v4l2_capability cap = { 0 };
  struct v4l2_control ctrl = { 0 };
  gchar *profile, *device;
  NegcamDevice *dev;
  NegcamDeviceOpenFlags flags = 0;
  NegcamPoolMemory io_mode;
  const gchar *why;

  GST_OBJECT_LOCK (src);
  profile = g_strdup (src->profile);
  device = g_strdup (src->device);
  ctrl.value = src->pattern;
  if (src->libv4l2)
    flags |= NEGCAM_DEVICE_OPEN_LIBV4L2;
  io_mode = src->io_mode;
  GST_OBJECT_UNLOCK (src);

  why = gst_negcam_src_embedded_refuses (device, flags, io_mode);
  if (why) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", why), (NULL));
    g_free (profile);
    g_free (device);
    return FALSE;
  }

  dev = negcam_device_open_full (device, profile, flags, &err);
  g_free (profile);
  g_free (device);
  if (!dev) {
    if (g_error_matches (err, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_PROFILE))
      GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
          ("the profile language is described in docs/profiles.md"));
    else
      GST_ELEMENT_ERROR (
          src, RESOURCE, OPEN_READ, ("%s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }

  if (negcam_device_ioctl (dev, VIDIOC_QUERYCAP, &cap) < 0
      || !(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE)) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
        ("%s is not a video capture device", negcam_device_get_description (dev)), (NULL));
    negcam_device_unref (dev);
    return FALSE;
  }
  ctrl.id = V4L2_CID_TEST_PATTERN;
  if (negcam_device_ioctl (dev, VIDIOC_S_CTRL, &ctrl) < 0)
    GST_INFO_OBJECT (src, "device has no test pattern control");

  g_mutex_lock (&src->probe_lock);
  src->dev = dev;
  src->probe = negcam_probe_new (dev);
  /* A filter that fixes the format is probed with ENUM_FRAMESIZES of its
   * fourcc alone (EINVAL: the device lacks it), without ENUM_FMT, unless
   * that answer could include formats ENUM_FMT does not list: an output
   * queue on the same node, libv4l2's emulated formats. */
  negcam_probe_set_size_lookup (src->probe,
      !(cap.device_caps
          & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE
              | V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE))
          && !(flags & NEGCAM_DEVICE_OPEN_LIBV4L2));
  g_mutex_unlock (&src->probe_lock);
  GST_OBJECT_LOCK (src);
  g_free (src->card);
  src->card = g_strndup ((const gchar *)cap.card, sizeof (cap.card));
  GST_OBJECT_UNLOCK (src);
  src->neg_mark = 0;
  memset (src->mark_counts, 0, sizeof (src->mark_counts));
  return TRUE;
}

static void
gst_negcam_src_close (GstNegcamSrc *src)
{
  g_mutex_lock (&src->probe_lock);
  negcam_probe_free (src->probe);
  src->probe = NULL;
  g_clear_pointer (&src->dev, negcam_device_unref);
  g_mutex_unlock (&src->probe_lock);
  GST_OBJECT_LOCK (src);
  g_clear_pointer (&src->card, g_free);
  GST_OBJECT_UNLOCK (src);
}

static GstStateChangeReturn
gst_negcam_src_change_state (GstElement *element, GstStateChange transition)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (element);
  GstStateChangeReturn ret;

  /* Open on NULL->READY so that a bad profile is an error on the bus
   * before PAUSED. */
  if (transition == GST_STATE_CHANGE_NULL_TO_READY
      && !gst_negcam_src_open (src))
    return GST_STATE_CHANGE_FAILURE;

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_negcam_src_close (src);
  return ret;
}

/* ------------------------------------------------------------------ */
/* Streaming control                                                   */

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
static void
gst_negcam_src_release_device (GstNegcamSrc *src)
{
  struct v4l2_requestbuffers req = { 0 };
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

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
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    req.count = 0;
    negcam_device_ioctl (src->dev, VIDIOC_REQBUFS, &req);
    gst_buffer_pool_set_active (GST_BUFFER_POOL (src->pool), FALSE);
    gst_negcam_src_set_pool (src, NULL);
  }
}

static gboolean
gst_negcam_src_start (GstBaseSrc *bsrc)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  GST_OBJECT_LOCK (src);
  src->frames = src->drops = src->lost = src->copies = 0;
  src->clock_ids_made = src->reference_metas_added = 0;
  src->flushing = FALSE;
  GST_OBJECT_UNLOCK (src);
  src->next_time = GST_CLOCK_TIME_NONE;
  src->have_seq = FALSE;
  gst_clear_caps (&src->configured);
  return TRUE;
}

static gboolean
gst_negcam_src_stop (GstBaseSrc *bsrc)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  gst_negcam_src_release_device (src);
  gst_clear_caps (&src->configured);
  GST_OBJECT_LOCK (src);
  g_clear_pointer (&src->clock_id, gst_clock_id_unref);
  GST_OBJECT_UNLOCK (src);
  return TRUE;
}

static gboolean
gst_negcam_src_unlock (GstBaseSrc *bsrc)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  GST_OBJECT_LOCK (src);
  src->flushing = TRUE;
  if (src->clock_id)
    gst_clock_id_unschedule (src->clock_id);
  GST_OBJECT_UNLOCK (src);
  if (src->dev)
    negcam_device_set_flushing (src->dev, TRUE);
  return TRUE;
}

static gboolean
gst_negcam_src_unlock_stop (GstBaseSrc *bsrc)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  GST_OBJECT_LOCK (src);
  src->flushing = FALSE;
  GST_OBJECT_UNLOCK (src);
  if (src->dev)
    negcam_device_set_flushing (src->dev, FALSE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Caps                                                                */

static GstNegcamPrefer
gst_negcam_src_get_prefer (GstNegcamSrc *src)
{
  GstNegcamPrefer prefer;

  GST_OBJECT_LOCK (src);
  prefer = src->prefer;
  GST_OBJECT_UNLOCK (src);
  return prefer;
}

static GstCaps *
gst_negcam_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  GstNegcamPrefer prefer = gst_negcam_src_get_prefer (src);
  GstCaps *caps = NULL;

  {
    g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->probe_lock);

    /* In our order of preference (docs/negcamsrc.md, "Caps order"). */
    if (src->probe)
      caps = negcam_caps_by_preference (
          src->probe, prefer, negcam_probe_caps (src->probe, filter));
  }
  if (!caps)
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));
  return negcam_caps_filter_first (caps, filter);
}

/* GstBaseSrc's fixate (negotiate() fixates by itself): probe_lock. */
static GstCaps *
gst_negcam_src_fixate (GstBaseSrc *bsrc, GstCaps *caps)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  GstNegcamPrefer prefer = gst_negcam_src_get_prefer (src);
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->probe_lock);
  GstCaps *fixed = negcam_fixate (src->probe, prefer, caps);

  gst_caps_unref (caps);
  return fixed;
}

/* S_FMT (after stopping the stream), S_PARM, G_PARM: what we really get. */
static GstCaps *
gst_negcam_src_configure (GstNegcamSrc *src, struct v4l2_format *fmt,
    const struct v4l2_fract *want, struct v4l2_fract *got, gint *err)
{
  struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  gint ret;

  gst_negcam_src_release_device (src);
  ret = negcam_device_ioctl (src->dev, VIDIOC_S_FMT, fmt);
  if (ret < 0) {
    *err = ret;
    return NULL;
  }
  *got = *want;
  if (want->numerator && negcam_probe_can_set_rate (src->probe)) {
    parm.parm.capture.timeperframe = *want;
    if (negcam_device_ioctl (src->dev, VIDIOC_S_PARM, &parm) == 0)
      *got = parm.parm.capture.timeperframe;
  } else if (negcam_device_ioctl (src->dev, VIDIOC_G_PARM, &parm) == 0) {
    *got = parm.parm.capture.timeperframe;
  }
  return negcam_caps_from_format (&fmt->fmt.pix, got);
}

static void
gst_negcam_src_post_negotiated (
    GstNegcamSrc *src, GstCaps *caps, guint requests, const gchar *adjusted)
{
  GstStructure *s;
  gchar fcc[5];
  GString *summary = g_string_new (NULL);
  gchar *capsstr = gst_caps_to_string (caps);
  gint i;

  negcam_fourcc_to_string (src->fmt.fmt.pix.pixelformat, fcc);
  g_string_append_printf (summary, "%s %ux%u at %u/%u fps in %u requests (",
      fcc, src->fmt.fmt.pix.width, src->fmt.fmt.pix.height,
      src->interval.denominator, src->interval.numerator, requests);
  s = gst_structure_new ("negcam-negotiated", "caps", GST_TYPE_CAPS, caps,
      "fourcc", G_TYPE_STRING, fcc, "width", G_TYPE_UINT,
      src->fmt.fmt.pix.width, "height", G_TYPE_UINT, src->fmt.fmt.pix.height,
      "field", G_TYPE_UINT, src->fmt.fmt.pix.field, "bytesperline", G_TYPE_UINT,
      src->fmt.fmt.pix.bytesperline, "sizeimage", G_TYPE_UINT,
      src->fmt.fmt.pix.sizeimage, "interval", GST_TYPE_FRACTION,
      (gint)src->interval.numerator, (gint)src->interval.denominator,
      "framerate", GST_TYPE_FRACTION, (gint)src->interval.denominator,
      (gint)src->interval.numerator, "requests", G_TYPE_UINT, requests,
      "requests-total", G_TYPE_UINT, negcam_device_count_total (src->dev),
      "adjusted", G_TYPE_STRING, adjusted, NULL);
  /* Per type: what this negotiation cost (since the previous one ended,
   * so caps queries in between count too). Streaming requests are not
   * part of a negotiation's cost and are left out. */
  for (i = 0; i <= NEGCAM_REQ_CTRL; i++) {
    gint n = negcam_device_count (src->dev, i) - src->mark_counts[i];
    if (n)
      g_string_append_printf (summary, "%s%s %d",
          summary->str[summary->len - 1] == '(' ? "" : ", ",
          negcam_request_type_name (i), n);
    gst_structure_set (
        s, negcam_request_type_name (i), G_TYPE_UINT, (guint)n, NULL);
  }
  for (i = 0; i < NEGCAM_REQ_COUNT; i++)
    src->mark_counts[i] = negcam_device_count (src->dev, i);
  g_string_append (summary, ")");
  gst_structure_set (s, "summary", G_TYPE_STRING, summary->str, NULL);
  GST_INFO_OBJECT (src, "negotiated %s: %s", capsstr, summary->str);
  g_free (capsstr);
  g_string_free (summary, TRUE);
  gst_element_post_message (
      GST_ELEMENT (src), gst_message_new_element (GST_OBJECT (src), s));
}

static GstFlowReturn gst_negcam_src_device_lost (
    GstNegcamSrc *src, const gchar *what);

/*
 * Negotiation (gst_negcam_src_negotiate) runs in phases, each naming its
 * lock:
 *   choose  probe_lock   candidates within downstream's preferred
 *                        structure, fixated (negcamfixate.c)
 *   try     probe_lock   TRY_FMT; re-fixate to an adjusted answer
 *   apply   none         S_FMT, S_PARM (the streaming thread owns the
 *                        device's format), checked against downstream
 *   report  none         the error, or the message and the caps
 * A phase that fails records why in the Negotiation; only report posts,
 * with no lock held (a synchronous bus handler may query our caps).
 */
typedef struct {
  GstNegcamPrefer prefer;
  GstCaps *peer; /* what downstream accepts; NULL: anything */
  GstCaps *ours; /* candidates (choose) */
  GstCaps *fixed; /* the choice (choose, try) */
  struct v4l2_format fmt; /* the choice as a format (choose, try) */
  struct v4l2_fract want; /* its interval, 0/0: none asked */
  GstCaps *final; /* what the device was set to (apply) */
  struct v4l2_fract got; /* its interval */
  gboolean unchanged; /* same format as now: nothing to apply */
  gchar *adjusted; /* what TRY_FMT changed, or NULL */
  /* Failure: the device went away in request @lost, or an error with
   * @message (NULL: GStreamer's default text) and @debug. */
  const gchar *lost;
  gchar *message, *debug;
} Negotiation;

static void
negotiation_clear (Negotiation *n)
{
  gst_clear_caps (&n->peer);
  gst_clear_caps (&n->ours);
  gst_clear_caps (&n->fixed);
  gst_clear_caps (&n->final);
  g_free (n->adjusted);
  g_free (n->message);
  g_free (n->debug);
}

/* Record a failure (takes both strings); FALSE, for "return fail(...)". */
static gboolean
negotiation_fail (Negotiation *n, gchar *message, gchar *debug)
{
  n->message = message;
  n->debug = debug;
  return FALSE;
}

static gboolean
negotiation_lost (Negotiation *n, const gchar *request)
{
  n->lost = request;
  return FALSE;
}

/* Nothing the device offers fits downstream: say what it offers, from
 * formats and sizes only (no ENUM_FRAMEINTERVALS just for a message). */
static gboolean
negotiation_refuse (GstNegcamSrc *src, Negotiation *n)
{
  g_autoptr (GstCaps) all = negcam_probe_size_caps (src->probe, NULL);
  g_autofree gchar *brief = negcam_caps_offers_brief (all);
  g_autofree gchar *why = negcam_caps_interlace_refusal (all, n->peer);

  return negotiation_fail (n,
      gst_info_strdup_printf (
          "%s cannot produce any format downstream accepts; it "
          "offers %s%s%s",
          negcam_device_get_description (src->dev), brief, why ? "; " : "", why ? why : ""),
      gst_info_strdup_printf ("downstream accepts %" GST_PTR_FORMAT
                              "; the device offers %" GST_PTR_FORMAT,
          n->peer, all));
}

/* Phase choose, probe_lock held. */
static gboolean
negotiation_choose (GstNegcamSrc *src, Negotiation *n)
{
  n->ours = negcam_fixate_candidates (src->probe, n->prefer, n->peer);
  if (gst_caps_is_empty (n->ours)) {
    /* nothing enumerated because the device went away, not because
     * nothing fits? */
    if (negcam_device_is_gone (src->dev))
      return negotiation_lost (n, "enumeration");
    return negotiation_refuse (src, n);
  }
  n->fixed = negcam_fixate (src->probe, n->prefer, n->ours);
  if (!negcam_probe_caps_to_format (src->probe, n->fixed, &n->fmt, &n->want))
    return negotiation_fail (n, NULL,
        gst_info_strdup_printf (
            "caps %" GST_PTR_FORMAT " name no device format", n->fixed));
  return TRUE;
}

/* TRY_FMT answered @tried, which differs from the choice in some field:
 * follow it when downstream accepts the answer, else refuse. probe_lock
 * held. */
static gboolean
negotiation_follow (GstNegcamSrc *src, Negotiation *n, GstCaps *answer)
{
  g_autofree gchar *asked = NULL, *offered = NULL;
  g_autoptr (GstCaps) x = NULL;
  const gchar *field =
      negcam_caps_first_difference (gst_caps_get_structure (n->fixed, 0),
          gst_caps_get_structure (answer, 0), &asked, &offered);

  if (!field)
    return TRUE;
  x = gst_caps_intersect (n->ours, answer);
  if (gst_caps_is_empty (x)) {
    /* The answer may lie outside the group ranked first. */
    g_autoptr (GstCaps) all = negcam_probe_caps (src->probe, n->peer);

    gst_caps_unref (x);
    x = gst_caps_intersect (all, answer);
  }
  if (gst_caps_is_empty (x))
    return negotiation_fail (n,
        gst_info_strdup_printf ("%s adjusted %s: asked %s, offered %s, which "
                                "downstream does not accept",
            negcam_device_get_description (src->dev), field, asked, offered),
        gst_info_strdup_printf ("asked %" GST_PTR_FORMAT
                                ", device answered %" GST_PTR_FORMAT
                                ", downstream accepts %" GST_PTR_FORMAT,
            n->fixed, answer, n->peer));
  n->adjusted = gst_info_strdup_printf (
      "%s: asked %s, device offered %s", field, asked, offered);
  GST_INFO_OBJECT (
      src, "TRY_FMT adjusted %s; re-fixating to the answer", n->adjusted);
  gst_caps_unref (n->fixed);
  n->fixed = negcam_fixate (src->probe, n->prefer, x);
  negcam_probe_caps_to_format (src->probe, n->fixed, &n->fmt, &n->want);
  return TRUE;
}

/* Phase try, probe_lock held: what would S_FMT make of the choice? */
static gboolean
negotiation_try (GstNegcamSrc *src, Negotiation *n)
{
  struct v4l2_format tried = n->fmt;
  struct v4l2_pix_format *pix = &n->fmt.fmt.pix;
  g_autoptr (GstCaps) answer = NULL;
  gchar fcc[5];
  gint ret = negcam_device_ioctl (src->dev, VIDIOC_TRY_FMT, &tried);

  if (ret == -ENOTTY)
    return TRUE; /* a device without TRY_FMT: S_FMT tells */
  if (ret == -ENODEV)
    return negotiation_lost (n, "TRY_FMT");
  if (ret < 0)
    return negotiation_fail (n,
        gst_info_strdup_printf ("%s refused the format %s %ux%u %s: %s",
            negcam_device_get_description (src->dev),
            negcam_fourcc_to_string (pix->pixelformat, fcc), pix->width,
            pix->height, negcam_field_words (pix->field), g_strerror (-ret)),
        gst_info_strdup_printf ("asked for %" GST_PTR_FORMAT, n->fixed));
  if (tried.fmt.pix.field == V4L2_FIELD_TOP
      || tried.fmt.pix.field == V4L2_FIELD_BOTTOM)
    return negotiation_fail (n,
        gst_info_strdup_printf (
            "%s delivers only the %s field of each frame "
            "(V4L2_FIELD_%s), which GStreamer has no caps for",
            negcam_device_get_description (src->dev), negcam_field_words (tried.fmt.pix.field),
            tried.fmt.pix.field == V4L2_FIELD_TOP ? "TOP" : "BOTTOM"),
        gst_info_strdup_printf ("asked for %" GST_PTR_FORMAT, n->fixed));
  answer = negcam_caps_from_format (&tried.fmt.pix, &n->want);
  if (!answer)
    return negotiation_fail (n, NULL,
        gst_info_strdup_printf (
            "device answered %s %ux%u %s, which has no caps",
            negcam_fourcc_to_string (tried.fmt.pix.pixelformat, fcc),
            tried.fmt.pix.width, tried.fmt.pix.height,
            negcam_field_words (tried.fmt.pix.field)));
  gst_structure_remove_field (
      gst_caps_get_structure (answer, 0), "colorimetry");
  return negotiation_follow (src, n, answer);
}

/* Phases choose and try under one scoped probe_lock. */
static gboolean
negotiation_choose_and_try (GstNegcamSrc *src, Negotiation *n)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->probe_lock);

  if (!src->probe)
    return negotiation_fail (n, NULL, g_strdup ("the device is not open"));
  return negotiation_choose (src, n) && negotiation_try (src, n);
}

/* Is the choice what the device runs already (a RECONFIGURE that
 * changes nothing)? What was asked of the device decides (fourcc, size,
 * field, interval), not the caps, which carry fields the device has no
 * say in, nor its answers (a device that rounds the interval would be
 * set again every time). */
static gboolean
negotiation_unchanged (GstNegcamSrc *src, Negotiation *n)
{
  const struct v4l2_pix_format *a = &src->fmt.fmt.pix, *b = &n->fmt.fmt.pix;

  if (!src->configured || !src->pool)
    return FALSE;
  return a->pixelformat == b->pixelformat && a->width == b->width
      && a->height == b->height && a->field == b->field
      && n->want.numerator == src->asked.numerator
      && n->want.denominator == src->asked.denominator;
}

/* Phase apply, no lock (streaming thread; src->dev cannot change while
 * the element streams, see the lock rules): S_FMT, S_PARM, and the
 * device's answers checked against downstream once more. */
static gboolean
negotiation_apply (GstNegcamSrc *src, Negotiation *n)
{
  g_autofree gchar *asked = NULL, *offered = NULL;
  const gchar *field;
  gint ret = 0;

  if ((n->unchanged = negotiation_unchanged (src, n)))
    return TRUE;
  n->final = gst_negcam_src_configure (src, &n->fmt, &n->want, &n->got, &ret);
  if (!n->final && ret == -ENODEV)
    return negotiation_lost (n, "S_FMT");
  if (!n->final)
    return negotiation_fail (n,
        gst_info_strdup_printf (
            "%s refused S_FMT: %s", negcam_device_get_description (src->dev), g_strerror (-ret)),
        gst_info_strdup_printf ("asked %" GST_PTR_FORMAT, n->fixed));
  if (n->peer && !gst_caps_can_intersect (n->final, n->peer)) {
    field = negcam_caps_first_difference (gst_caps_get_structure (n->fixed, 0),
        gst_caps_get_structure (n->final, 0), &asked, &offered);
    return negotiation_fail (n,
        gst_info_strdup_printf ("%s set %s to %s where %s was asked, which "
                                "downstream does not accept",
            negcam_device_get_description (src->dev), field ? field : "the format",
            offered ? offered : "?", asked ? asked : "?"),
        gst_info_strdup_printf ("set %" GST_PTR_FORMAT
                                ", downstream accepts %" GST_PTR_FORMAT,
            n->final, n->peer));
  }
  src->fmt = n->fmt;
  src->interval = n->got;
  src->asked = n->want;
  src->is_video = gst_structure_has_name (
      gst_caps_get_structure (n->final, 0), "video/x-raw");
  if (src->is_video && !gst_video_info_from_caps (&src->info, n->final))
    return negotiation_fail (n, NULL,
        gst_info_strdup_printf ("invalid caps %" GST_PTR_FORMAT, n->final));
  gst_caps_replace (&src->configured, n->final);
  return TRUE;
}

/* Phase report, no lock held: post the failure, or the message and the
 * caps. */
static gboolean
negotiation_report (GstNegcamSrc *src, Negotiation *n, gboolean ok)
{
  guint now;

  if (!ok && n->lost) {
    gst_negcam_src_device_lost (src, n->lost);
    return FALSE;
  }
  if (!ok && n->message) {
    GST_ELEMENT_ERROR (
        src, CORE, NEGOTIATION, ("%s", n->message), ("%s", n->debug));
    return FALSE;
  }
  if (!ok) {
    GST_ELEMENT_ERROR (src, CORE, NEGOTIATION, (NULL), ("%s", n->debug));
    return FALSE;
  }
  if (n->unchanged)
    return TRUE;
  GST_OBJECT_LOCK (src);
  src->negotiations++;
  GST_OBJECT_UNLOCK (src);
  now = negcam_device_count_negotiation (src->dev);
  gst_negcam_src_post_negotiated (
      src, n->final, now - src->neg_mark, n->adjusted);
  src->neg_mark = now;
  return gst_base_src_set_caps (GST_BASE_SRC (src), n->final);
}

static gboolean
gst_negcam_src_negotiate (GstBaseSrc *bsrc)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  Negotiation n = { 0 };
  gboolean ok;

  if (!src->dev)
    return FALSE;
  n.prefer = gst_negcam_src_get_prefer (src);
  /* No lock while asking another element. */
  n.peer = gst_pad_peer_query_caps (GST_BASE_SRC_PAD (bsrc), NULL);
  if (n.peer && gst_caps_is_any (n.peer))
    gst_clear_caps (&n.peer);
  ok = negotiation_choose_and_try (src, &n) && negotiation_apply (src, &n);
  ok = negotiation_report (src, &n, ok);
  negotiation_clear (&n);
  return ok;
}

static gboolean
gst_negcam_src_set_caps (GstBaseSrc *bsrc, GstCaps *caps)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  /* negotiate() configured the device already; anything else calling
   * set_caps with other caps is refused rather than half applied. */
  if (src->configured && gst_caps_is_equal (caps, src->configured))
    return TRUE;
  GST_WARNING_OBJECT (src,
      "set_caps %" GST_PTR_FORMAT " not negotiated by "
      "negcamsrc",
      caps);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

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
      && src->fmt.fmt.pix.field != V4L2_FIELD_ALTERNATE;
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
    return cur_size >= src->fmt.fmt.pix.sizeimage;
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
  size = MAX (size, src->fmt.fmt.pix.sizeimage);
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

static gboolean
gst_negcam_src_decide_allocation (GstBaseSrc *bsrc, GstQuery *query)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  GstStructure *config;
  struct v4l2_control ctrl = { .id = V4L2_CID_MIN_BUFFERS_FOR_CAPTURE };
  guint down_min = 0, i, count, queue_size, dev_min = 2;
  gboolean meta_ok;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!src->configured || !src->dev)
    return FALSE;

  meta_ok =
      gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  /* A RECONFIGURE without format change: keep the running pool. */
  if (src->pool && gst_buffer_pool_is_active (GST_BUFFER_POOL (src->pool))) {
    count = negcam_pool_get_count (src->pool);
    goto set;
  }

  for (i = 0; i < gst_query_get_n_allocation_pools (query); i++) {
    guint min = 0;
    gst_query_parse_nth_allocation_pool (query, i, NULL, NULL, &min, NULL);
    down_min = MAX (down_min, min);
  }
  if (negcam_device_ioctl (src->dev, VIDIOC_G_CTRL, &ctrl) == 0
      && ctrl.value > 0)
    dev_min = ctrl.value;

  GST_OBJECT_LOCK (src);
  queue_size = src->queue_size;
  GST_OBJECT_UNLOCK (src);
  /* The device's minimum, what downstream keeps, one being pushed and one
   * spare so that a frame can be captured while another is in flight. */
  count = queue_size ? queue_size : dev_min + down_min + 2;
  count = CLAMP (count, 2, 32);

  {
    NegcamPool *pool = negcam_pool_new (
        src->dev, &src->fmt.fmt.pix, src->is_video ? &src->info : NULL);

    gst_negcam_src_set_pool (src, pool);
    gst_object_unref (pool);
  }
  GST_OBJECT_LOCK (src);
  negcam_pool_set_memory (src->pool, src->io_mode);
  GST_OBJECT_UNLOCK (src);
  /* A fixed queue-size means fixed; otherwise grow rather than run dry. */
  negcam_pool_set_growth (src->pool, queue_size == 0);
  src->pool_created = 0;
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (src->pool));
  gst_buffer_pool_config_set_params (
      config, src->configured, src->fmt.fmt.pix.sizeimage, count, count);
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

set:
  if (gst_negcam_src_take_down_pool (src, query))
    return TRUE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, GST_BUFFER_POOL (src->pool),
        src->fmt.fmt.pix.sizeimage, count, count);
  else
    gst_query_add_allocation_pool (query, GST_BUFFER_POOL (src->pool),
        src->fmt.fmt.pix.sizeimage, count, count);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */

/* Waits on one GstClockID kept for the life of the stream and re-armed
 * every frame (gst_clock_single_shot_id_reinit): no allocation per frame.
 * A new id only when the pipeline clock changes. unlock() unschedules it;
 * the flushing check and the re-arm happen under the object lock, so an
 * unlock either is seen before the wait or wakes it. */
static GstFlowReturn
gst_negcam_src_wait_clock (GstNegcamSrc *src, GstClockTime running_time)
{
  GstClock *clock;
  GstClockID id;
  GstClockReturn cret;
  GstClockTime base_time, t;

  clock = gst_element_get_clock (GST_ELEMENT (src));
  if (!clock)
    return GST_FLOW_OK;
  base_time = gst_element_get_base_time (GST_ELEMENT (src));
  t = base_time + running_time;
  GST_OBJECT_LOCK (src);
  if (src->flushing) {
    GST_OBJECT_UNLOCK (src);
    gst_object_unref (clock);
    return GST_FLOW_FLUSHING;
  }
  if (src->clock_id
      && (!gst_clock_id_uses_clock (src->clock_id, clock)
          || !gst_clock_single_shot_id_reinit (clock, src->clock_id, t)))
    g_clear_pointer (&src->clock_id, gst_clock_id_unref);
  if (!src->clock_id) {
    src->clock_id = gst_clock_new_single_shot_id (clock, t);
    src->clock_ids_made++;
  }
  id = gst_clock_id_ref (src->clock_id);
  GST_OBJECT_UNLOCK (src);

  cret = gst_clock_id_wait (id, NULL);

  gst_clock_id_unref (id);
  gst_object_unref (clock);
  return cret == GST_CLOCK_UNSCHEDULED ? GST_FLOW_FLUSHING : GST_FLOW_OK;
}

static GstClockTime
current_running_time (GstNegcamSrc *src)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (src));
  GstClockTime now, base;

  if (!clock)
    return 0;
  now = gst_clock_get_time (clock);
  base = gst_element_get_base_time (GST_ELEMENT (src));
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

static void
gst_negcam_src_report_gap (GstNegcamSrc *src, guint32 expected, guint32 got,
    GstClockTime pts, GstClockTime duration)
{
  guint32 lost = got - expected;
  guint64 frames, total_lost;
  GstMessage *msg;

  GST_OBJECT_LOCK (src);
  src->lost += lost;
  frames = src->frames;
  total_lost = src->lost;
  GST_OBJECT_UNLOCK (src);
  GST_INFO_OBJECT (src,
      "sequence gap: expected %s %u, got %u (%u lost, "
      "%" G_GUINT64_FORMAT " in total)",
      buffers_per_frame (src) == 2 ? "field" : "frame", expected, got, lost,
      total_lost);
  msg = gst_message_new_qos (GST_OBJECT (src),
      gst_base_src_is_live (GST_BASE_SRC (src)), pts, GST_CLOCK_TIME_NONE, pts,
      duration);
  gst_message_set_qos_values (msg, (gint64)(lost * duration), 1.0, 1000000);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, frames, total_lost);
  gst_element_post_message (GST_ELEMENT (src), msg);
}

/* The device answered ENODEV: it was unplugged (or its driver removed).
 * Say so, and which one; the pipeline then stops as on any error. */
static GstFlowReturn
gst_negcam_src_device_lost (GstNegcamSrc *src, const gchar *what)
{
  gchar *card;

  GST_OBJECT_LOCK (src);
  card = g_strdup (src->card ? src->card : "");
  GST_OBJECT_UNLOCK (src);
  GST_ELEMENT_ERROR (src, RESOURCE, NOT_FOUND,
      ("Device %s (\"%s\") disappeared: it was unplugged or its driver "
       "removed",
          negcam_device_get_description (src->dev), card),
      ("%s: ENODEV", what));
  g_free (card);
  return GST_FLOW_ERROR;
}

static GstClockTime
monotonic_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (GstClockTime)ts.tv_sec * GST_SECOND + ts.tv_nsec;
}

/* The driver-timestamp meta this element put on @buf in an earlier
 * frame, if any (matched by our caps object, no allocation). */
static GstReferenceTimestampMeta *
gst_negcam_src_reference_meta (GstNegcamSrc *src, GstBuffer *buf)
{
  gpointer state = NULL;
  GstMeta *m;

  while ((m = gst_buffer_iterate_meta_filtered (
              buf, &state, GST_REFERENCE_TIMESTAMP_META_API_TYPE))) {
    GstReferenceTimestampMeta *r = (GstReferenceTimestampMeta *)m;

    if (r->reference == src->reference_caps)
      return r;
  }
  return NULL;
}

/* Running time at which the frame in @buf started, from the driver's
 * CLOCK_MONOTONIC timestamp: how long ago the driver stamped it, taken
 * from the running time now (so any pipeline clock works). The raw
 * timestamp goes along as a GstReferenceTimestampMeta. Returns
 * GST_CLOCK_TIME_NONE when the driver gives no monotonic timestamp. */
static GstClockTime
gst_negcam_src_driver_time (
    GstNegcamSrc *src, GstBuffer *buf, GstClockTime duration, gboolean live)
{
  guint32 flags;
  GstClockTime ts, age, now_rt, start;
  GstReferenceTimestampMeta *meta;

  negcam_pool_get_last_timestamp (src->pool, &flags, &ts);
  meta = gst_negcam_src_reference_meta (src, buf);
  if ((flags & V4L2_BUF_FLAG_TIMESTAMP_MASK)
          != V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC
      || ts == 0) {
    if (meta)
      gst_buffer_remove_meta (buf, (GstMeta *)meta);
    return GST_CLOCK_TIME_NONE;
  }
  if (!meta) {
    /* Once per pool buffer: POOLED keeps it through the pool's reset, and
     * every later frame in this buffer only updates it. */
    meta = gst_buffer_add_reference_timestamp_meta (
        buf, src->reference_caps, ts, GST_CLOCK_TIME_NONE);
    GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
    GST_OBJECT_LOCK (src);
    src->reference_metas_added++;
    GST_OBJECT_UNLOCK (src);
  }
  meta->timestamp = ts;
  meta->duration =
      GST_CLOCK_TIME_IS_VALID (duration) ? duration : GST_CLOCK_TIME_NONE;
  /* End-of-frame stamps: the frame began one interval earlier. */
  start = ts;
  if ((flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == V4L2_BUF_FLAG_TSTAMP_SRC_EOF
      && GST_CLOCK_TIME_IS_VALID (duration) && start >= duration)
    start -= duration;
  if (!live) {
    /* No clock to relate to: the stream starts at 0. */
    if (!GST_CLOCK_TIME_IS_VALID (src->first_ts))
      src->first_ts = start;
    return start >= src->first_ts ? start - src->first_ts : 0;
  }
  now_rt = current_running_time (src);
  age = monotonic_now ();
  age = age > start ? age - start : 0;
  return now_rt > age ? now_rt - age : 0;
}

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
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
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
    src->next_time = live ? current_running_time (src) : 0;
    src->stream_live = live;
  }
  return GST_FLOW_OK;
}

/* Phase 2: is-live may change while PLAYING. Non-live frames run ahead of
 * the clock (their times are as fast as downstream takes them), so on
 * becoming live the frame clock restarts at the running time now instead
 * of waiting for a due time far ahead; becoming non-live just continues.
 * The latency changes either way. No lock held; returns TRUE on a change
 * (the next buffer is a discontinuity). */
static gboolean
gst_negcam_src_follow_liveness (GstNegcamSrc *src, gboolean live)
{
  if (live == src->stream_live)
    return FALSE;
  GST_INFO_OBJECT (src, "is-live changed to %s while streaming",
      live ? "true" : "false");
  src->stream_live = live;
  if (live)
    src->next_time = current_running_time (src);
  gst_element_post_message (
      GST_ELEMENT (src), gst_message_new_latency (GST_OBJECT (src)));
  return TRUE;
}

/* gst_negcam_src_draw_downstream(): downstream's pool cannot take this
 * frame; use our own buffers from now on. */
#define NEGCAM_SRC_FLOW_OWN_POOL GST_FLOW_CUSTOM_SUCCESS_1

/* A buffer of downstream's pool we can draw into as it is: big enough,
 * laid out as our caps say (no GstVideoMeta, or one that agrees). */
static gboolean
gst_negcam_src_fits_buffer (GstNegcamSrc *src, GstBuffer *buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize maxsize = 0;
  guint i;

  gst_buffer_get_sizes (buf, NULL, &maxsize);
  if (maxsize < src->fmt.fmt.pix.sizeimage)
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
  if (err < 0) {
    gst_buffer_unref (buf);
    GST_ERROR_OBJECT (
        src, "capturing into downstream's buffer: %s", g_strerror (-err));
    return err == -ENODEV ? NEGCAM_FLOW_GONE : GST_FLOW_ERROR;
  }
  negcam_buffer_set_capture (
      buf, src->is_video ? src->fmt.fmt.pix.sizeimage : v.bytesused, &v);
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
      src->next_time += buffer_duration (src);
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

/* Phase 3: the next good frame. Frames the device flags broken
 * (V4L2_BUF_FLAG_ERROR) are dropped, the sequence gap shows; five in a
 * row mean it cannot make this format at all. No lock held. */
static GstFlowReturn
gst_negcam_src_next_frame (GstNegcamSrc *src, gboolean live, GstBuffer **buf)
{
  GstFlowReturn ret;
  gchar fcc[5];

  for (;;) {
    ret = gst_negcam_src_take_frame (src, live, buf);
    if (ret == NEGCAM_FLOW_EMPTY)
      continue;
    if (ret == NEGCAM_FLOW_GONE)
      return gst_negcam_src_device_lost (src, "DQBUF");
    if (ret != GST_FLOW_OK)
      return ret;
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
          negcam_fourcc_to_string (src->fmt.fmt.pix.pixelformat, fcc),
          src->fmt.fmt.pix.width, src->fmt.fmt.pix.height),
      ("V4L2_BUF_FLAG_ERROR on %u frames in a row", src->broken));
  return GST_FLOW_ERROR;
}

/* Phase 4: PTS, DURATION and DISCONT of @buf; a sequence gap posts QoS,
 * a grown pool posts LATENCY. Counters under the object lock, messages
 * after it. Returns the buffer's position in the stream (in buffers). */
static guint32
gst_negcam_src_stamp (GstNegcamSrc *src, GstBuffer *buf, gboolean live)
{
  GstClockTime duration = buffer_duration (src);
  guint created;
  guint32 seq;

  /* Both fields of a frame carry the frame's sequence number, the field
   * tells them apart. */
  seq = GST_BUFFER_OFFSET (buf) * buffers_per_frame (src)
      + (GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (buf) ? 1 : 0);
  /* A device with its own frame clock: the driver's timestamp says when
   * the frame was taken (arrival time only if it gives none). */
  if (negcam_device_is_self_paced (src->dev)) {
    GstClockTime t = gst_negcam_src_driver_time (src, buf, duration, live);

    if (GST_CLOCK_TIME_IS_VALID (t))
      src->next_time = t;
    else if (live)
      src->next_time = current_running_time (src);
  }
  /* The pool grew (CREATE_BUFS): the device can now hold more frames, so
   * the maximum latency changed. */
  created = negcam_pool_get_created (src->pool);
  if (created != src->pool_created) {
    src->pool_created = created;
    gst_element_post_message (
        GST_ELEMENT (src), gst_message_new_latency (GST_OBJECT (src)));
  }
  GST_BUFFER_PTS (buf) = src->next_time;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = duration;
  src->next_time += duration;
  GST_OBJECT_LOCK (src);
  src->frames++;
  GST_OBJECT_UNLOCK (src);

  if (!src->have_seq || seq != src->expected_seq)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  if (src->have_seq && (gint32)(seq - src->expected_seq) > 0) {
    gst_negcam_src_report_gap (
        src, src->expected_seq, seq, GST_BUFFER_PTS (buf), duration);
  } else if (src->have_seq && seq != src->expected_seq) {
    /* Backwards: the driver restarted its count (or repeats a number);
     * nothing was lost that we can tell. */
    GST_INFO_OBJECT (src, "sequence went back: expected frame %u, got %u",
        src->expected_seq, seq);
  }
  src->have_seq = TRUE;
  src->expected_seq = seq + 1;
  return seq;
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

  negcam_video_info_apply_format (&dev_info, &src->fmt.fmt.pix);
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

static GstFlowReturn
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

static gboolean
gst_negcam_src_query (GstBaseSrc *bsrc, GstQuery *query)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime frame = buffer_duration (src), max;
    guint held;

    if (!src->configured || !GST_CLOCK_TIME_IS_VALID (frame))
      return FALSE;
    if (!gst_base_src_is_live (bsrc)) {
      gst_query_set_latency (query, FALSE, 0, 0);
      return TRUE;
    }
    /* A frame is complete one interval after it began (PTS is its start);
     * the device can hold as many frames as buffers really queued in it
     * before we read (while not streaming yet: all the pool's). With one
     * field per buffer, "frame" is a field and its interval half. */
    held = 1;
    if (src->pool) {
      held = src->streaming ? negcam_pool_get_queued (src->pool)
                            : negcam_pool_get_count (src->pool);
    }
    max = frame * MAX (held, 1);
    gst_query_set_latency (query, TRUE, frame, max);
    GST_DEBUG_OBJECT (src,
        "latency min %" GST_TIME_FORMAT " max %" GST_TIME_FORMAT,
        GST_TIME_ARGS (frame), GST_TIME_ARGS (max));
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

static GstStructure *
gst_negcam_src_stats (GstNegcamSrc *src)
{
  GstStructure *s;

  GST_OBJECT_LOCK (src);
  s = gst_structure_new ("negcam-stats", "frames", G_TYPE_UINT64, src->frames,
      "drops", G_TYPE_UINT64, src->drops, "lost", G_TYPE_UINT64, src->lost,
      "copies", G_TYPE_UINT64, src->copies, "negotiations", G_TYPE_UINT,
      src->negotiations, "clock-ids", G_TYPE_UINT, src->clock_ids_made,
      "reference-metas", G_TYPE_UINT, src->reference_metas_added, NULL);
  GST_OBJECT_UNLOCK (src);
  {
    NegcamPool *pool = NULL;

    GST_OBJECT_LOCK (src);
    if (src->pool)
      pool = gst_object_ref (src->pool);
    GST_OBJECT_UNLOCK (src);
    if (pool) {
      gst_structure_set (s, "buffers", G_TYPE_UINT,
          negcam_pool_get_count (pool), "created", G_TYPE_UINT,
          negcam_pool_get_created (pool), "dmabuf", G_TYPE_BOOLEAN,
          negcam_pool_is_dmabuf (pool), NULL);
      gst_object_unref (pool);
    }
  }
  g_mutex_lock (&src->probe_lock);
  if (src->dev)
    gst_structure_set (s, "requests", G_TYPE_UINT,
        negcam_device_count_total (src->dev), "negotiation-requests",
        G_TYPE_UINT, negcam_device_count_negotiation (src->dev), NULL);
  g_mutex_unlock (&src->probe_lock);
  return s;
}

/*
 * GStreamer's mutability rule, from the flags of @pspec: no flag means
 * NULL only (the device is opened on NULL->READY with profile, device and
 * libv4l2), GST_PARAM_MUTABLE_READY up to READY (read when buffers are
 * made), GST_PARAM_MUTABLE_PLAYING always (applied at once). A change in
 * a later state is refused with a warning naming the property and the
 * state, and the old value stays, as filesrc does for its location.
 */
static gboolean
gst_negcam_src_may_set (GstNegcamSrc *src, GParamSpec *pspec)
{
  GstState state, pending, latest;
  GstState allowed = GST_STATE_NULL;

  GST_OBJECT_LOCK (src);
  state = GST_STATE (src);
  pending = GST_STATE_PENDING (src);
  GST_OBJECT_UNLOCK (src);
  /* During NULL->READY the open reads the properties: that counts. */
  latest = MAX (state, pending);
  if (pspec->flags & GST_PARAM_MUTABLE_PLAYING)
    allowed = GST_STATE_PLAYING;
  else if (pspec->flags & GST_PARAM_MUTABLE_PAUSED)
    allowed = GST_STATE_PAUSED;
  else if (pspec->flags & GST_PARAM_MUTABLE_READY)
    allowed = GST_STATE_READY;
  if (latest <= allowed)
    return TRUE;
  g_warning ("%s: property '%s' cannot change in state %s (only up to %s); "
             "keeping the old value",
      GST_OBJECT_NAME (src), pspec->name, gst_element_state_get_name (latest),
      gst_element_state_get_name (allowed));
  return FALSE;
}

/* is-live, also while PLAYING: create() re-anchors the frame clock on the
 * next frame. GstBaseSrc lets a live source run only once it went
 * PAUSED->PLAYING live, so a source becoming live while PLAYING is let
 * run here (live_running, a protected field under the live lock, which
 * create() holds at most one frame interval) or it would wait forever. */
static void
gst_negcam_src_set_live (GstNegcamSrc *src, gboolean live)
{
  GstBaseSrc *bsrc = GST_BASE_SRC (src);
  gboolean playing;

  GST_OBJECT_LOCK (src);
  src->is_live = live;
  playing = GST_STATE (src) == GST_STATE_PLAYING;
  GST_OBJECT_UNLOCK (src);
  gst_base_src_set_live (bsrc, live);
  if (live && playing) {
    g_mutex_lock (&bsrc->live_lock);
    bsrc->live_running = TRUE;
    g_cond_broadcast (&bsrc->live_cond);
    g_mutex_unlock (&bsrc->live_lock);
  }
}

static void
gst_negcam_src_set_property (
    GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (object);

  if (!gst_negcam_src_may_set (src, pspec))
    return;
  switch (prop_id) {
    case PROP_PROFILE:
      GST_OBJECT_LOCK (src);
      g_free (src->profile);
      /* NULL resets to the default; "" stays, and NULL->READY refuses it */
      src->profile = g_value_dup_string (value);
      if (!src->profile)
        src->profile = g_strdup (DEFAULT_PROFILE);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_DEVICE:
      GST_OBJECT_LOCK (src);
      g_free (src->device);
      src->device = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_IS_LIVE:
      gst_negcam_src_set_live (src, g_value_get_boolean (value));
      break;
    case PROP_PATTERN: {
      struct v4l2_control ctrl = { .id = V4L2_CID_TEST_PATTERN };

      GST_OBJECT_LOCK (src);
      src->pattern = g_value_get_enum (value);
      ctrl.value = src->pattern;
      GST_OBJECT_UNLOCK (src);
      g_mutex_lock (&src->probe_lock);
      if (src->dev)
        negcam_device_ioctl (src->dev, VIDIOC_S_CTRL, &ctrl);
      g_mutex_unlock (&src->probe_lock);
      break;
    }
    case PROP_PREFER:
      GST_OBJECT_LOCK (src);
      src->prefer = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (src);
      /* Applied by the next negotiation: ask for one now. */
      gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (src));
      break;
    case PROP_QUEUE_SIZE:
      GST_OBJECT_LOCK (src);
      src->queue_size = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_IO_MODE:
      GST_OBJECT_LOCK (src);
      src->io_mode = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_LIBV4L2:
      GST_OBJECT_LOCK (src);
      src->libv4l2 = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (src);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_negcam_src_get_property (
    GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (object);

  switch (prop_id) {
    case PROP_PROFILE:
      GST_OBJECT_LOCK (src);
      g_value_set_string (value, src->profile);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_DEVICE:
      GST_OBJECT_LOCK (src);
      g_value_set_string (value, src->device);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_DEVICE_NAME:
      GST_OBJECT_LOCK (src);
      g_value_set_string (value, src->card);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_LOCK (src);
      g_value_set_boolean (value, src->is_live);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_PATTERN:
      GST_OBJECT_LOCK (src);
      g_value_set_enum (value, src->pattern);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_PREFER:
      GST_OBJECT_LOCK (src);
      g_value_set_enum (value, src->prefer);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_QUEUE_SIZE:
      GST_OBJECT_LOCK (src);
      g_value_set_uint (value, src->queue_size);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_negcam_src_stats (src));
      break;
    case PROP_IO_MODE:
      GST_OBJECT_LOCK (src);
      g_value_set_enum (value, src->io_mode);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_LIBV4L2:
      GST_OBJECT_LOCK (src);
      g_value_set_boolean (value, src->libv4l2);
      GST_OBJECT_UNLOCK (src);
      break;
    case PROP_COPIES:
      GST_OBJECT_LOCK (src);
      g_value_set_uint64 (value, src->copies);
      GST_OBJECT_UNLOCK (src);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_negcam_src_finalize (GObject *object)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (object);

  gst_negcam_src_close (src);
  gst_clear_caps (&src->configured);
  gst_clear_caps (&src->reference_caps);
  gst_clear_object (&src->down_pool);
  g_clear_pointer (&src->clock_id, gst_clock_id_unref);
  g_free (src->profile);
  g_free (src->device);
  g_mutex_clear (&src->probe_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_negcam_src_init (GstNegcamSrc *src)
{
  src->profile = g_strdup (DEFAULT_PROFILE);
  src->device = g_strdup (DEFAULT_DEVICE);
  src->is_live = DEFAULT_IS_LIVE;
  src->pattern = DEFAULT_PATTERN;
  src->prefer = DEFAULT_PREFER;
  src->queue_size = DEFAULT_QUEUE_SIZE;
  src->io_mode = DEFAULT_IO_MODE;
  src->libv4l2 = DEFAULT_LIBV4L2;
  src->reference_caps = gst_caps_new_empty_simple (NEGCAM_REFERENCE_CAPS);
  src->next_time = GST_CLOCK_TIME_NONE;
  src->first_ts = GST_CLOCK_TIME_NONE;
  g_mutex_init (&src->probe_lock);
  gst_base_src_set_format (GST_BASE_SRC (src), GST_FORMAT_TIME);
  gst_base_src_set_live (GST_BASE_SRC (src), DEFAULT_IS_LIVE);
}

/*
 * "webcam, vga, ...": the engine's built-in profiles, for the texts that
 * name them (the profile blurb, the URI error), so they never drift.
 * Built once and kept: the blurb is a static string.
 */
static const gchar *
builtin_profile_names (void)
{
  static gchar *names;

  if (g_once_init_enter (&names)) {
    GString *str = g_string_new (NULL);
    const struct negcam_builtin *b;
    guint i;

    for (i = 0; (b = negcam_builtin_at (i)); i++)
      g_string_append_printf (str, "%s%s", i ? ", " : "", b->name);
    g_once_init_leave (&names, g_string_free (str, FALSE));
  }
  return names;
}

static const gchar *
profile_blurb (void)
{
  gchar *text = g_strdup_printf ("Built-in profile name (%s) or path of a "
      "profile file for the embedded device; read when going from NULL to "
      "READY", builtin_profile_names ());
  const gchar *blurb = g_intern_string (text);

  g_free (text);
  return blurb;
}

/* Each property with its GST_PARAM_MUTABLE_* flag (none: NULL only), see
 * gst_negcam_src_may_set(). */
static void
gst_negcam_src_install_properties (GObjectClass *gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_PROFILE,
      g_param_spec_string ("profile", "Profile",
          profile_blurb (),
          DEFAULT_PROFILE,
          /* NULL only (no GST_PARAM_MUTABLE_*) */
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "Empty: the embedded negcam engine playing 'profile'. A path: a "
          "V4L2 capture node (/dev/videoN) through the kernel backend, same "
          "negotiation",
          DEFAULT_DEVICE,
          /* NULL only (no GST_PARAM_MUTABLE_*) */
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Card name the device reports (VIDIOC_QUERYCAP), once open", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "TRUE: frames paced on the pipeline clock at the negotiated frame "
          "interval, dropped when downstream holds every buffer. FALSE: as "
          "fast as downstream takes them, never dropped",
          DEFAULT_IS_LIVE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_PATTERN,
      g_param_spec_enum ("pattern", "Pattern",
          "Test picture drawn by the device (every frame also carries its "
          "frame number, see docs/frames.md)",
          GST_TYPE_NEGCAM_PATTERN, DEFAULT_PATTERN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_PREFER,
      g_param_spec_enum ("prefer", "Prefer",
          "What to favour within downstream's first caps structure that "
          "the device can do. Default 'device': the mode the device comes "
          "up in (its driver's choice, usually a sensible size at full rate) "
          "when allowed, else the largest frame at the device's default "
          "rate (at least 15 fps, or the highest below)",
          GST_TYPE_NEGCAM_PREFER, DEFAULT_PREFER,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_QUEUE_SIZE,
      g_param_spec_uint ("queue-size", "Queue size",
          "Number of device buffers (0 = the device minimum + what "
          "downstream keeps + 2)",
          0, 32, DEFAULT_QUEUE_SIZE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_IO_MODE,
      g_param_spec_enum ("io-mode", "I/O mode",
          "Memory of the buffers: 'auto' exports dma-bufs (EXPBUF, "
          "GstDmaBufAllocator) when the device can, else MMAP; downstream "
          "that imports dma-bufs takes the fd, anyone else maps it. Never "
          "a copy",
          GST_TYPE_NEGCAM_IO_MODE, DEFAULT_IO_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_LIBV4L2,
      g_param_spec_boolean ("libv4l2", "libv4l2",
          "Talk to 'device' through libv4l2 (v4l2_ioctl, v4l2_mmap), for "
          "formats only libv4l2 converts. Off: raw ioctls (libv4l2 hides "
          "CREATE_BUFS, EXPBUF and DMABUF, so no dma-buf and no growth "
          "then); read on NULL to READY",
          DEFAULT_LIBV4L2,
          /* NULL only (no GST_PARAM_MUTABLE_*) */
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_COPIES,
      g_param_spec_uint64 ("copies", "Copies",
          "Frames copied since start (only when downstream cannot read the "
          "device's strides; each one is logged at INFO)",
          0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "frames, drops (no free buffer: frame dropped, never copied), lost "
          "(sequence gaps), copies (only when downstream cannot read the "
          "device's strides), negotiations, requests, clock-ids and "
          "reference-metas (allocations: per stream and per buffer, never per "
          "frame)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_negcam_src_class_init (GstNegcamSrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);
  GstCaps *templ;

  negcam_device_debug_init ();

  gobject_class->set_property = gst_negcam_src_set_property;
  gobject_class->get_property = gst_negcam_src_get_property;
  gobject_class->finalize = gst_negcam_src_finalize;
  gst_negcam_src_install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class, "Negcam video source",
      "Source/Video",
      "Captures from a V4L2-like device (by default the in-process negcam "
      "engine) with lazy, filter-aware format negotiation",
      "negcam developers");
  templ = negcam_caps_template ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, templ));
  gst_caps_unref (templ);

  element_class->change_state = gst_negcam_src_change_state;

  basesrc_class->start = gst_negcam_src_start;
  basesrc_class->stop = gst_negcam_src_stop;
  basesrc_class->get_caps = gst_negcam_src_get_caps;
  basesrc_class->negotiate = gst_negcam_src_negotiate;
  basesrc_class->fixate = gst_negcam_src_fixate;
  basesrc_class->set_caps = gst_negcam_src_set_caps;
  basesrc_class->decide_allocation = gst_negcam_src_decide_allocation;
  basesrc_class->unlock = gst_negcam_src_unlock;
  basesrc_class->unlock_stop = gst_negcam_src_unlock_stop;
  basesrc_class->query = gst_negcam_src_query;

  pushsrc_class->create = gst_negcam_src_create;

  gst_type_mark_as_plugin_api (GST_TYPE_NEGCAM_PREFER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_NEGCAM_PATTERN, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_NEGCAM_IO_MODE, 0);
}

/* ------------------------------------------------------------------ */
/* URI handler: negcam://PROFILE, negcam:///dev/videoN, negcam:///FILE  */

static GstURIType
gst_negcam_src_uri_get_type (GType type)
{
  return GST_URI_SRC;
}

static const gchar *const *
gst_negcam_src_uri_get_protocols (GType type)
{
  static const gchar *protocols[] = { "negcam", NULL };

  return protocols;
}

static gchar *
gst_negcam_src_uri_get_uri (GstURIHandler *handler)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (handler);
  gchar *uri;

  GST_OBJECT_LOCK (src);
  if (src->device && src->device[0])
    uri = g_strconcat ("negcam://", src->device, NULL);
  else
    uri = g_strconcat ("negcam://", src->profile, NULL);
  GST_OBJECT_UNLOCK (src);
  return uri;
}

/*
 * negcam://NAME          the embedded engine with built-in profile NAME
 * negcam:///dev/videoN   a V4L2 device node (anything under /dev/)
 * negcam:///path/FILE    the embedded engine with a profile file
 */
static gboolean
gst_negcam_src_uri_set_uri (
    GstURIHandler *handler, const gchar *uri, GError **error)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (handler);
  gchar *location, *device = NULL, *profile = NULL;
  GstState state;

  GST_OBJECT_LOCK (src);
  state = GST_STATE (src);
  GST_OBJECT_UNLOCK (src);
  if (state != GST_STATE_NULL) {
    /* like device and profile, which it sets */
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        "negcamsrc: the URI can only change in NULL");
    return FALSE;
  }
  if (!gst_uri_has_protocol (uri, "negcam")) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_UNSUPPORTED_PROTOCOL,
        "negcamsrc: \"%s\" is not a negcam:// URI", uri);
    return FALSE;
  }
  location = g_uri_unescape_string (uri + strlen ("negcam://"), NULL);
  if (!location || !location[0] || strchr (location, '?')
      || (location[0] != '/' && strchr (location, '/'))) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        "negcamsrc: bad URI \"%s\": use negcam://PROFILE (%s), "
        "negcam:///dev/videoN or negcam:///path/to/profile-file",
        uri, builtin_profile_names ());
    g_free (location);
    return FALSE;
  }
  if (g_str_has_prefix (location, "/dev/"))
    device = location;
  else
    profile = location;
  g_object_set (src, "device", device ? device : "", NULL);
  if (profile)
    g_object_set (src, "profile", profile, NULL);
  g_free (location);
  return TRUE;
}

static void
gst_negcam_src_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = g_iface;

  iface->get_type = gst_negcam_src_uri_get_type;
  iface->get_protocols = gst_negcam_src_uri_get_protocols;
  iface->get_uri = gst_negcam_src_uri_get_uri;
  iface->set_uri = gst_negcam_src_uri_set_uri;
}
