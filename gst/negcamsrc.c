/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamsrc
 * @title: negcamsrc
 * @see_also: negcamsink, negcamconvertsink, negcamdeviceprovider
 *
 * A live video source on a V4L2-like device: by default the negcam
 * engine in process, playing a *profile* (a built-in one such as
 * `webcam`, `vga`, `stepwise`, `tv-tuner`, or a profile file). Caps come
 * from the device's enumeration, probed lazily with the downstream filter;
 * negotiation is the V4L2 sequence TRY_FMT, S_FMT, G_PARM/S_PARM. Every request and
 * the device's answer are logged in the `negcamsrc` debug category, and
 * each negotiation posts a `negcam-negotiated` element message with the
 * chosen format and the number of requests it took.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m negcamsrc ! video/x-raw,width=320,height=240 ! \
 *     videoconvert ! autovideosink
 * ]| The built-in webcam profile at 320x240; -m prints the
 * negcam-negotiated message.
 * |[
 * gst-launch-1.0 negcamsrc profile=tv-tuner ! videoconvert ! autovideosink
 * ]| An interlaced TV tuner.
 * |[
 * gst-launch-1.0 negcamsrc ! image/jpeg,width=1280 ! jpegdec ! \
 *     videoconvert ! autovideosink
 * ]| Motion JPEG 1280 wide, decoded.
 * |[
 * gst-launch-1.0 negcamsrc device=/dev/video0 ! videoconvert ! autovideosink
 * ]| A real V4L2 capture node, same negotiation.
 *
 * See docs/negcamsrc.md for the negotiation rules.
 */
/*
 * The element itself: its GObject class, the properties, the URI handler
 * and the state changes (start, stop, unlock). The rest of negcamsrc
 * lives in negcamsrc-<part>.c, one concern each; negcamsrc-private.h
 * lists them and holds the instance struct with its locking rules.
 *
 * Locking: properties and statistics are read and written under the
 * object lock; the pattern is applied to the device and the request
 * counts are read under cache_lock, after the object lock is released.
 * unlock() takes the object lock to unschedule the clock wait.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamsrc-private.h"
#include "negcamiomode.h"
#include "profile.h"

GST_DEBUG_CATEGORY (negcamsrc_debug);
#define GST_CAT_DEFAULT negcamsrc_debug

#define DEFAULT_PROFILE "webcam"
#define DEFAULT_DEVICE ""
#define DEFAULT_IS_LIVE TRUE
#define DEFAULT_PATTERN GST_NEGCAM_PATTERN_BARS
#define DEFAULT_PREFER GST_NEGCAM_PREFER_DEVICE
#define DEFAULT_QUEUE_SIZE 0
#define DEFAULT_IO_MODE NEGCAM_POOL_MEMORY_AUTO
#define DEFAULT_LIBV4L2 FALSE

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
  PROP_FAULTS,
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

/* ------------------------------------------------------------------ */
/* States: the device opens on NULL->READY (negcamsrc-device.c)         */

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


static gboolean
gst_negcam_src_query (GstBaseSrc *bsrc, GstQuery *query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    return gst_negcam_src_query_latency (GST_NEGCAM_SRC (bsrc), query);
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
  g_mutex_lock (&src->cache_lock);
  if (src->dev)
    gst_structure_set (s, "requests", G_TYPE_UINT,
        negcam_device_count_total (src->dev), "negotiation-requests",
        G_TYPE_UINT, negcam_device_count_negotiation (src->dev), NULL);
  g_mutex_unlock (&src->cache_lock);
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
      g_mutex_lock (&src->cache_lock);
      if (src->dev)
        negcam_device_ioctl (src->dev, VIDIOC_S_CTRL, &ctrl);
      g_mutex_unlock (&src->cache_lock);
      break;
    }
    case PROP_FAULTS:
      gst_negcam_src_set_faults (src, g_value_get_string (value));
      break;
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
    case PROP_FAULTS:
      GST_OBJECT_LOCK (src);
      g_value_set_string (value, src->faults);
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
  g_free (src->faults);
  g_mutex_clear (&src->cache_lock);
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
  g_mutex_init (&src->cache_lock);
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
 * gst_negcam_src_may_set(), in two parts kept in the order of installing.
 * These: which device, and what it draws. */
static void
gst_negcam_src_install_device_properties (GObjectClass *gobject_class)
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
  g_object_class_install_property (gobject_class, PROP_FAULTS,
      g_param_spec_string ("faults", "Faults",
          "What the embedded device does wrong on purpose, as in "
          "\"drop 5%; seed 3\" (docs/faults.md): replaces the profile's "
          "fault lines, also while playing; NULL: the profile's. A list "
          "that does not parse is refused with a warning",
          NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_PLAYING));
}

/* How to negotiate and buffer, and what happened (copies, stats). */
static void
gst_negcam_src_install_stream_properties (GObjectClass *gobject_class)
{
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
  GST_DEBUG_CATEGORY_INIT (negcamsrc_debug, "negcamsrc", 0,
      "negcamsrc: negotiation, allocation and timing (device requests: "
      "negcamdevice)");

  gobject_class->set_property = gst_negcam_src_set_property;
  gobject_class->get_property = gst_negcam_src_get_property;
  gobject_class->finalize = gst_negcam_src_finalize;
  gst_negcam_src_install_device_properties (gobject_class);
  gst_negcam_src_install_stream_properties (gobject_class);

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
