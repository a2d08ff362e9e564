/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The renegotiating core shared by negcamsink, negcamuvcsink and
 * negcampwsink (see negcamsinkcore.h). Each transport keeps what is its
 * own (V4L2 ioctls, UVC descriptors and URBs, a PipeWire node); here is
 * what follows from "the far side chose a format": the chosen caps put
 * first, RECONFIGURE upstream (negcamconvertbin.c converts and encodes
 * to it), the frames checked and packed, and two rules of a camera:
 *  - late frames are dropped, never burst: from a live source (a
 *    camera, is-live=true), basesink's QoS events upstream and a
 *    max-lateness of one frame (at least 20 ms): a frame later than that
 *    would reach the far side together with the next one. A source that
 *    is not live is paced by the sink's clock alone and every frame is
 *    delivered: its lateness only grows when it is slow, and dropping
 *    would take all of them;
 *  - producer on demand: while no one reads, the streaming thread waits
 *    (in render, or at a converting bin's entry before any conversion),
 *    so a live source stops; flushing lets it go.
 * Locks: core->lock around the demand and the pending choice; the sink's
 * object lock around the counters. Neither is held while posting a
 * message or pushing an event.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamcaps.h"
#include "negcamsinkcore.h"

GST_DEBUG_CATEGORY_STATIC (negcamsinkcore_debug);
#define GST_CAT_DEFAULT negcamsinkcore_debug

#define CORE_KEY "negcam-sink-core"
#define MIN_LATENESS (20 * GST_MSECOND)
#define DEFAULT_PROFILE "webcam"

void
negcam_sink_core_init (NegcamSinkCore *core, GstBaseSink *sink,
    const gchar *name, gboolean on_demand)
{
  if (!negcamsinkcore_debug)
    GST_DEBUG_CATEGORY_INIT (negcamsinkcore_debug, "negcamsinkcore", 0,
        "negcam sinks' renegotiating core");
  memset (core, 0, sizeof (*core));
  core->sink = sink;
  core->name = name;
  core->chose = "chosen";
  core->profile = g_strdup (DEFAULT_PROFILE);
  core->demand = !on_demand;
  g_mutex_init (&core->lock);
  g_cond_init (&core->cond);
  g_object_set_data (G_OBJECT (sink), CORE_KEY, core);
}

void
negcam_sink_core_clear (NegcamSinkCore *core)
{
  gst_clear_caps (&core->pending);
  g_clear_pointer (&core->profile, g_free);
  g_clear_pointer (&core->label, g_free);
  g_mutex_clear (&core->lock);
  g_cond_clear (&core->cond);
}

void
negcam_sink_core_install (GObjectClass *klass, guint profile_id,
    guint label_id, const gchar *profile_blurb, const gchar *label_blurb)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (klass, profile_id,
      g_param_spec_string ("profile", "Profile", profile_blurb,
          DEFAULT_PROFILE, rw));
  g_object_class_install_property (klass, label_id,
      g_param_spec_string ("label", "Label", label_blurb, NULL, rw));
}

gboolean
negcam_sink_core_set_property (
    NegcamSinkCore *core, GParamSpec *pspec, const GValue *value)
{
  gboolean profile = g_str_equal (pspec->name, "profile");

  if (!profile && !g_str_equal (pspec->name, "label"))
    return FALSE;
  GST_OBJECT_LOCK (core->sink);
  if (profile) {
    g_free (core->profile);
    core->profile = g_value_dup_string (value);
    if (!core->profile)
      core->profile = g_strdup (DEFAULT_PROFILE);
  } else {
    g_free (core->label);
    core->label = g_value_dup_string (value);
  }
  GST_OBJECT_UNLOCK (core->sink);
  return TRUE;
}

gboolean
negcam_sink_core_get_property (
    NegcamSinkCore *core, GParamSpec *pspec, GValue *value)
{
  gboolean profile = g_str_equal (pspec->name, "profile");

  if (!profile && !g_str_equal (pspec->name, "label"))
    return FALSE;
  GST_OBJECT_LOCK (core->sink);
  g_value_set_string (value, profile ? core->profile : core->label);
  GST_OBJECT_UNLOCK (core->sink);
  return TRUE;
}

void
negcam_sink_core_profile_label (
    NegcamSinkCore *core, gchar **profile, gchar **label)
{
  GST_OBJECT_LOCK (core->sink);
  *profile = g_strdup (core->profile);
  *label = g_strdup (core->label);
  GST_OBJECT_UNLOCK (core->sink);
}

GstCaps *
negcam_sink_core_caps (GstCaps *chosen, GstCaps *all, GstCaps *filter)
{
  GstCaps *caps = chosen ? gst_caps_merge (chosen, all) : all;

  if (!filter)
    return caps;
  /* ours first: the order is the far side's preference */
  gst_caps_take (
      &caps, gst_caps_intersect_full (caps, filter, GST_CAPS_INTERSECT_FIRST));
  return caps;
}

/* Producers leave out fields ours carry (image/jpeg's parsed,
 * interlace-mode): fixed caps that intersect ours are accepted. */
gboolean
negcam_sink_core_accept_caps (NegcamSinkCore *core, GstQuery *query)
{
  GstCaps *caps, *common;
  gboolean ok;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ACCEPT_CAPS)
    return FALSE;
  gst_query_parse_accept_caps (query, &caps);
  common = gst_pad_query_caps (GST_BASE_SINK_PAD (core->sink), caps);
  ok = gst_caps_is_fixed (caps) && !gst_caps_is_empty (common);
  GST_DEBUG_OBJECT (core->sink, "%s %" GST_PTR_FORMAT,
      ok ? "accept" : "refuse", caps);
  gst_caps_unref (common);
  gst_query_set_accept_caps_result (query, ok);
  return TRUE;
}

static void
post (NegcamSinkCore *core, const gchar *what, GstCaps *caps, guint n)
{
  gchar *name = g_strdup_printf ("%s-%s", core->name, what);
  GstStructure *s = gst_structure_new (name, "caps", GST_TYPE_CAPS, caps,
      NULL);

  if (n)
    gst_structure_set (s, "negotiation", G_TYPE_UINT, n, NULL);
  g_free (name);
  gst_element_post_message (GST_ELEMENT (core->sink),
      gst_message_new_element (GST_OBJECT (core->sink), s));
}

/* Is upstream live (a latency query)? */
static gboolean
upstream_live (NegcamSinkCore *core)
{
  GstQuery *q = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (GST_BASE_SINK_PAD (core->sink), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  return live;
}

void
negcam_sink_core_set_caps (NegcamSinkCore *core, GstCaps *caps, guint n)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  GstClockTime late = MIN_LATENESS;
  gboolean live = upstream_live (core);
  gint num, den;

  if (gst_structure_get_fraction (s, "framerate", &num, &den) && num > 0)
    late = MAX (late, gst_util_uint64_scale_int (GST_SECOND, den, num));
  gst_base_sink_set_qos_enabled (core->sink, live);
  gst_base_sink_set_max_lateness (core->sink, live ? (gint64) late : -1);
  if (live)
    GST_INFO_OBJECT (core->sink, "negotiation %u: %" GST_PTR_FORMAT
        ", live: frames later than %" GST_TIME_FORMAT " dropped", n, caps,
        GST_TIME_ARGS (late));
  else
    GST_INFO_OBJECT (core->sink, "negotiation %u: %" GST_PTR_FORMAT
        ", not live: every frame delivered", n, caps);
  post (core, "caps", caps, n);
}

gboolean
negcam_sink_core_chose (NegcamSinkCore *core, GstCaps *caps)
{
  gboolean sent;

  GST_OBJECT_LOCK (core->sink);
  core->chosen++;
  GST_OBJECT_UNLOCK (core->sink);
  GST_INFO_OBJECT (core->sink, "the far side chose %" GST_PTR_FORMAT
      ": renegotiating upstream", caps);
  if (caps)
    post (core, core->chose, caps, 0);
  sent = gst_pad_push_event (GST_BASE_SINK_PAD (core->sink),
      gst_event_new_reconfigure ());
  GST_OBJECT_LOCK (core->sink);
  core->reconfigures += sent;
  GST_OBJECT_UNLOCK (core->sink);
  return sent;
}

void
negcam_sink_core_chose_later (NegcamSinkCore *core, GstCaps *caps)
{
  g_mutex_lock (&core->lock);
  gst_caps_take (&core->pending, caps);
  g_cond_broadcast (&core->cond);
  g_mutex_unlock (&core->lock);
}

gboolean
negcam_sink_core_caps_are (GstCaps *caps, const struct v4l2_pix_format *fmt)
{
  GstStructure *want = negcam_fourcc_to_structure (fmt->pixelformat);
  GstStructure *have;
  gint w = 0, h = 0;
  gboolean same;

  if (!want || !caps || gst_caps_is_empty (caps)) {
    if (want)
      gst_structure_free (want);
    return FALSE;
  }
  have = gst_caps_get_structure (caps, 0);
  same = gst_structure_can_intersect (want, have)
      && gst_structure_get_int (have, "width", &w)
      && gst_structure_get_int (have, "height", &h)
      && w == (gint) fmt->width && h == (gint) fmt->height;
  gst_structure_free (want);
  return same;
}

/* A raw frame packed as V4L2 lays it out (each plane's rows with no
 * padding, one plane after the other); its length, 0 when too large. */
static long
pack_raw (const GstVideoInfo *info, GstBuffer *buf, guint8 *out, guint32 cap)
{
  GstVideoFrame vf;
  const GstVideoFormatInfo *fi = info->finfo;
  guint p, row, len = 0;
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  if (!gst_video_frame_map (&vf, (GstVideoInfo *) info, buf, GST_MAP_READ))
    return 0;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&vf); p++) {
    guint rows, bytes;
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);

    gst_video_format_info_component (fi, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&vf, comp[0]);
    bytes = GST_VIDEO_FRAME_COMP_WIDTH (&vf, comp[0])
        * GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, comp[0]);
    if (len + (gsize) rows * bytes > cap) {
      len = 0;
      break;
    }
    if (bytes == (guint) GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p)) {
      memcpy (out + len, src, (gsize) rows * bytes); /* one block */
      len += rows * bytes;
      continue;
    }
    for (row = 0; row < rows; row++, len += bytes)
      memcpy (out + len, src + row * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p),
          bytes);
  }
  gst_video_frame_unmap (&vf);
  return len;
}

long
negcam_sink_core_pack (const GstVideoInfo *info, gboolean raw, GstBuffer *buf,
    guint8 *out, guint32 cap)
{
  GstMapInfo map;
  long len = 0;

  if (raw)
    return pack_raw (info, buf, out, cap);
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return 0;
  if (map.size <= cap) {
    memcpy (out, map.data, map.size);
    len = (long) map.size;
  }
  gst_buffer_unmap (buf, &map);
  return len;
}

void
negcam_sink_core_set_demand (NegcamSinkCore *core, gboolean demand)
{
  g_mutex_lock (&core->lock);
  core->demand = demand;
  g_cond_broadcast (&core->cond);
  g_mutex_unlock (&core->lock);
  GST_INFO_OBJECT (core->sink, "%s", demand
      ? "a consumer streams: the pipeline runs"
      : "no consumer streams: the pipeline waits (nothing converted)");
}

/* Wait for demand (@idle: counts the buffer in hand), then send what was
 * chosen meanwhile. */
static gboolean
wait_demand (NegcamSinkCore *core, gboolean idle)
{
  GstCaps *pending;
  gboolean ok, waited = FALSE;

  g_mutex_lock (&core->lock);
  while (!core->demand && !core->flushing) {
    if (!waited && idle)
      core->idle++;
    waited = TRUE;
    g_cond_wait (&core->cond, &core->lock);
  }
  ok = !core->flushing;
  pending = g_steal_pointer (&core->pending);
  g_mutex_unlock (&core->lock);
  if (pending) {
    negcam_sink_core_chose (core, pending);
    gst_caps_unref (pending);
  }
  return ok;
}

gboolean
negcam_sink_core_wait_demand (NegcamSinkCore *core)
{
  return wait_demand (core, TRUE);
}

NegcamSinkCore *
negcam_sink_core_of (GstElement *sink)
{
  return g_object_get_data (G_OBJECT (sink), CORE_KEY);
}

gboolean
negcam_sink_core_hold (NegcamSinkCore *core)
{
  return wait_demand (core, FALSE);
}

void
negcam_sink_core_unlock (NegcamSinkCore *core, gboolean flushing)
{
  g_mutex_lock (&core->lock);
  core->flushing = flushing;
  g_cond_broadcast (&core->cond);
  g_mutex_unlock (&core->lock);
}

void
negcam_sink_core_stats (NegcamSinkCore *core, GstStructure *s)
{
  GstStructure *bs = gst_base_sink_get_stats (core->sink);
  guint64 dropped = 0, idle;

  gst_structure_get_uint64 (bs, "dropped", &dropped);
  gst_structure_free (bs);
  g_mutex_lock (&core->lock);
  idle = core->idle;
  g_mutex_unlock (&core->lock);
  GST_OBJECT_LOCK (core->sink);
  gst_structure_set (s, "chosen", G_TYPE_UINT, core->chosen, "reconfigures",
      G_TYPE_UINT, core->reconfigures, "late-dropped", G_TYPE_UINT64, dropped,
      "idle", G_TYPE_UINT64, idle, NULL);
  GST_OBJECT_UNLOCK (core->sink);
}
