/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's negotiation, see negcamsrc-private.h: the caps query
 * (get_caps, in our order of preference), fixate, and negotiate(), the
 * V4L2 sequence TRY_FMT, S_FMT, G_PARM (S_PARM when the rate differs)
 * run in phases, then the negcam-negotiated message. Choosing among caps
 * is negcamfixate.c's; this file asks the device and applies the answer.
 *
 * Locking: caps queries, fixate and the choose and try phases hold
 * cache_lock (scoped); apply runs in the streaming thread with no lock
 * (src->dev cannot change while streaming); report posts with no lock
 * held. The negotiation counter is under the object lock.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "negcamsrc-private.h"

#define GST_CAT_DEFAULT negcamsrc_debug

static GstNegcamPrefer
gst_negcam_src_get_prefer (GstNegcamSrc *src)
{
  GstNegcamPrefer prefer;

  GST_OBJECT_LOCK (src);
  prefer = src->prefer;
  GST_OBJECT_UNLOCK (src);
  return prefer;
}

GstCaps *
gst_negcam_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  GstNegcamPrefer prefer = gst_negcam_src_get_prefer (src);
  GstCaps *caps = NULL;

  {
    g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->cache_lock);

    /* In our order of preference (docs/negcamsrc.md, "Caps order"). */
    if (src->cache)
      caps = negcam_caps_by_preference (
          src->cache, prefer, negcam_format_cache_caps (src->cache, filter));
  }
  if (!caps)
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));
  return negcam_caps_filter_first (caps, filter);
}

/* GstBaseSrc's fixate (negotiate() fixates by itself): cache_lock. */
GstCaps *
gst_negcam_src_fixate (GstBaseSrc *bsrc, GstCaps *caps)
{
  GstNegcamSrc *src = GST_NEGCAM_SRC (bsrc);
  GstNegcamPrefer prefer = gst_negcam_src_get_prefer (src);
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->cache_lock);
  GstCaps *fixed = negcam_fixate (src->cache, prefer, caps);

  gst_caps_unref (caps);
  return fixed;
}

static gboolean
same_interval (const struct v4l2_fract *a, const struct v4l2_fract *b)
{
  return a->denominator && b->denominator
      && (guint64)a->numerator * b->denominator
      == (guint64)b->numerator * a->denominator;
}

/* S_FMT (after stopping the stream), then G_PARM: what we really get;
 * S_PARM only when the rate S_FMT left is not the one asked (on uvcvideo
 * S_PARM is a PROBE round trip to the camera, G_PARM reads what it
 * holds). */
static GstCaps *
gst_negcam_src_configure (GstNegcamSrc *src, struct v4l2_format *fmt,
    const struct v4l2_fract *want, struct v4l2_fract *got, gint *err)
{
  struct v4l2_streamparm parm = { .type = src->buf_type };
  struct v4l2_pix_format pix;
  gboolean have;
  gint ret;

  gst_negcam_src_release_device (src);
  ret = negcam_device_ioctl (src->dev, VIDIOC_S_FMT, fmt);
  if (ret < 0) {
    *err = ret;
    return NULL;
  }
  *got = *want;
  have = negcam_device_ioctl (src->dev, VIDIOC_G_PARM, &parm) == 0;
  if (have)
    *got = parm.parm.capture.timeperframe;
  if (want->numerator && negcam_format_cache_can_set_rate (src->cache)
      && !(have && same_interval (&parm.parm.capture.timeperframe, want))) {
    memset (&parm, 0, sizeof (parm));
    parm.type = src->buf_type;
    parm.parm.capture.timeperframe = *want;
    *got = *want;
    if (negcam_device_ioctl (src->dev, VIDIOC_S_PARM, &parm) == 0)
      *got = parm.parm.capture.timeperframe;
  }
  negcam_format_get_pix (fmt, &pix);
  return negcam_caps_from_format (&pix, got);
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

  negcam_fourcc_to_string (src->pix.pixelformat, fcc);
  g_string_append_printf (summary, "%s %ux%u at %u/%u fps in %u requests (",
      fcc, src->pix.width, src->pix.height,
      src->interval.denominator, src->interval.numerator, requests);
  s = gst_structure_new ("negcam-negotiated", "caps", GST_TYPE_CAPS, caps,
      "fourcc", G_TYPE_STRING, fcc, "width", G_TYPE_UINT, src->pix.width,
      "height", G_TYPE_UINT, src->pix.height, "field", G_TYPE_UINT,
      src->pix.field, "bytesperline", G_TYPE_UINT, src->pix.bytesperline,
      "sizeimage", G_TYPE_UINT, src->pix.sizeimage, "planes", G_TYPE_UINT,
      negcam_format_n_planes (&src->fmt), "interval", GST_TYPE_FRACTION,
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

/*
 * Negotiation (gst_negcam_src_negotiate) runs in phases, each naming its
 * lock:
 *   choose  cache_lock   candidates within downstream's preferred
 *                        structure, fixated (negcamfixate.c)
 *   try     cache_lock   TRY_FMT; re-fixate to an adjusted answer
 *   apply   none         S_FMT, G_PARM, S_PARM (the streaming thread owns the
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
  g_autoptr (GstCaps) all = negcam_format_cache_size_caps (src->cache, NULL);
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

/* Phase choose, cache_lock held. */
static gboolean
negotiation_choose (GstNegcamSrc *src, Negotiation *n)
{
  n->ours = negcam_fixate_candidates (src->cache, n->prefer, n->peer);
  if (gst_caps_is_empty (n->ours)) {
    /* nothing enumerated because the device went away, not because
     * nothing fits? */
    if (negcam_device_is_gone (src->dev))
      return negotiation_lost (n, "enumeration");
    return negotiation_refuse (src, n);
  }
  n->fixed = negcam_fixate (src->cache, n->prefer, n->ours);
  if (!negcam_format_cache_caps_to_format (
          src->cache, n->fixed, &n->fmt, &n->want))
    return negotiation_fail (n, NULL,
        gst_info_strdup_printf (
            "caps %" GST_PTR_FORMAT " name no device format", n->fixed));
  return TRUE;
}

/* TRY_FMT answered @tried, which differs from the choice in some field:
 * follow it when downstream accepts the answer, else refuse. cache_lock
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
    g_autoptr (GstCaps) all = negcam_format_cache_caps (src->cache, n->peer);

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
  n->fixed = negcam_fixate (src->cache, n->prefer, x);
  negcam_format_cache_caps_to_format (src->cache, n->fixed, &n->fmt, &n->want);
  return TRUE;
}

/* Phase try, cache_lock held: what would S_FMT make of the choice? */
static gboolean
negotiation_try (GstNegcamSrc *src, Negotiation *n)
{
  struct v4l2_format tried = n->fmt;
  struct v4l2_pix_format asked, pix;
  g_autoptr (GstCaps) answer = NULL;
  gchar fcc[5];
  gint ret = negcam_device_ioctl (src->dev, VIDIOC_TRY_FMT, &tried);

  negcam_format_get_pix (&n->fmt, &asked);
  negcam_format_get_pix (&tried, &pix);

  if (ret == -ENOTTY)
    return TRUE; /* a device without TRY_FMT: S_FMT tells */
  if (ret == -ENODEV)
    return negotiation_lost (n, "TRY_FMT");
  if (ret < 0)
    return negotiation_fail (n,
        gst_info_strdup_printf ("%s refused the format %s %ux%u %s: %s",
            negcam_device_get_description (src->dev),
            negcam_fourcc_to_string (asked.pixelformat, fcc), asked.width,
            asked.height, negcam_field_words (asked.field), g_strerror (-ret)),
        gst_info_strdup_printf ("asked for %" GST_PTR_FORMAT, n->fixed));
  if (pix.field == V4L2_FIELD_TOP || pix.field == V4L2_FIELD_BOTTOM)
    return negotiation_fail (n,
        gst_info_strdup_printf (
            "%s delivers only the %s field of each frame "
            "(V4L2_FIELD_%s), which GStreamer has no caps for",
            negcam_device_get_description (src->dev),
            negcam_field_words (pix.field),
            pix.field == V4L2_FIELD_TOP ? "TOP" : "BOTTOM"),
        gst_info_strdup_printf ("asked for %" GST_PTR_FORMAT, n->fixed));
  answer = negcam_caps_from_format (&pix, &n->want);
  if (!answer)
    return negotiation_fail (n, NULL,
        gst_info_strdup_printf (
            "device answered %s %ux%u %s, which has no caps",
            negcam_fourcc_to_string (pix.pixelformat, fcc), pix.width,
            pix.height, negcam_field_words (pix.field)));
  gst_structure_remove_field (
      gst_caps_get_structure (answer, 0), "colorimetry");
  return negotiation_follow (src, n, answer);
}

/* Phases choose and try under one scoped cache_lock. */
static gboolean
negotiation_choose_and_try (GstNegcamSrc *src, Negotiation *n)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&src->cache_lock);

  if (!src->cache)
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
  struct v4l2_pix_format b;

  if (!src->configured || !src->pool)
    return FALSE;
  negcam_format_get_pix (&n->fmt, &b);
  return src->pix.pixelformat == b.pixelformat && src->pix.width == b.width
      && src->pix.height == b.height && src->pix.field == b.field
      && n->want.numerator == src->asked.numerator
      && n->want.denominator == src->asked.denominator;
}

/* Phase apply, no lock (streaming thread; src->dev cannot change while
 * the element streams, see the lock rules): S_FMT, G_PARM, S_PARM, and the
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
  negcam_format_get_pix (&src->fmt, &src->pix);
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

/* After a source change (docs/faults.md): downstream's caps, or the
 * device's, at the source's new size only, so the choice takes it; none
 * when downstream cannot take that size (then not-negotiated). */
static void
negotiation_source_size (GstNegcamSrc *src, Negotiation *n)
{
  GstCaps *sized, *both;

  if (!n->peer) {
    g_mutex_lock (&src->cache_lock);
    n->peer = src->cache ? negcam_format_cache_caps (src->cache, NULL) : gst_caps_new_any ();
    g_mutex_unlock (&src->cache_lock);
  }
  sized = gst_caps_copy (n->peer);
  gst_caps_set_simple (sized, "width", G_TYPE_INT, (gint) src->source_width, "height",
      G_TYPE_INT, (gint) src->source_height, NULL);
  both = gst_caps_intersect (n->peer, sized);
  gst_caps_unref (sized);
  gst_caps_unref (n->peer);
  n->peer = both;
  src->source_width = src->source_height = 0;
}

gboolean
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
  if (src->source_width)
    negotiation_source_size (src, &n);
  ok = negotiation_choose_and_try (src, &n) && negotiation_apply (src, &n);
  ok = negotiation_report (src, &n, ok);
  negotiation_clear (&n);
  return ok;
}

gboolean
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
