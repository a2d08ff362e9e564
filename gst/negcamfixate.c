/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Choosing a format: fixation by the prefer property, the lazy ranking
 * that decides which frame intervals negotiation needs to ask for, and
 * the wording of negotiation errors. Pure functions over caps and the
 * format cache; the caller holds whatever lock guards the format cache.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamfixate.h"

static gboolean
is_raw (const GstStructure *s)
{
  return gst_structure_has_name (s, "video/x-raw")
      || gst_structure_has_name (s, "video/x-bayer");
}

/* The lowest rate a live picture needs under prefer=device when the
 * device's default mode is not allowed: the default rate, at least this. */
#define LIVE_MIN_FPS 15
/* The default rate assumed when G_PARM gave none. */
#define LIVE_DEFAULT_FPS 30

/* The rate prefer=device aims at when its default mode is out: the
 * device's default rate (G_PARM at open), at least LIVE_MIN_FPS. */
static void
live_rate (NegcamFormatCache *cache, gint *n, gint *d)
{
  const struct v4l2_fract *iv =
      cache ? negcam_format_cache_default_interval (cache) : NULL;

  *n = LIVE_DEFAULT_FPS, *d = 1;
  if (iv && iv->numerator && iv->denominator)
    *n = iv->denominator, *d = iv->numerator;
  if (gst_util_fraction_compare (*n, *d, LIVE_MIN_FPS, 1) < 0)
    *n = LIVE_MIN_FPS, *d = 1;
}

/* How a choice is ranked: the preference and, for prefer=device past
 * the default mode, the live rate. */
typedef struct {
  GstNegcamPrefer prefer;
  gint live_n, live_d;
} Ranking;

static void
ranking_init (Ranking *r, NegcamFormatCache *cache, GstNegcamPrefer prefer)
{
  r->prefer = prefer;
  live_rate (cache, &r->live_n, &r->live_d);
}

/* Does @rate (any framerate value) allow the live rate or more? */
static gboolean
reaches_live (const Ranking *r, const GValue *rate)
{
  GValue range = G_VALUE_INIT;
  gboolean ret;

  if (!rate)
    return FALSE;
  g_value_init (&range, GST_TYPE_FRACTION_RANGE);
  gst_value_set_fraction_range_full (&range, r->live_n, r->live_d, G_MAXINT, 1);
  ret = gst_value_intersect (NULL, rate, &range);
  g_value_unset (&range);
  return ret;
}

/* <0 when a is worse than b. Both fixed. */
static gint
compare_candidates (
    const Ranking *r, const GstStructure *a, const GstStructure *b)
{
  gint aw = 0, ah = 0, bw = 0, bh = 0, an = 0, ad = 1, bn = 0, bd = 1;
  gint64 aarea, barea;
  gint by_area, by_rate, by_raw, by_live, keys[4], i;

  gst_structure_get_int (a, "width", &aw);
  gst_structure_get_int (a, "height", &ah);
  gst_structure_get_int (b, "width", &bw);
  gst_structure_get_int (b, "height", &bh);
  gst_structure_get_fraction (a, "framerate", &an, &ad);
  gst_structure_get_fraction (b, "framerate", &bn, &bd);
  aarea = (gint64)aw * ah;
  barea = (gint64)bw * bh;
  by_area = aarea < barea ? -1 : aarea > barea;
  by_rate = gst_util_fraction_compare (an, ad, bn, bd);
  by_raw = (gint)is_raw (a) - (gint)is_raw (b);
  by_live = (gint)reaches_live (r, gst_structure_get_value (a, "framerate"))
      - (gint)reaches_live (r, gst_structure_get_value (b, "framerate"));

  keys[3] = 0;
  switch (r->prefer) {
    case GST_NEGCAM_PREFER_FRAMERATE:
      keys[0] = by_rate, keys[1] = by_area, keys[2] = by_raw;
      break;
    case GST_NEGCAM_PREFER_RAW:
      keys[0] = by_raw, keys[1] = by_area, keys[2] = by_rate;
      break;
    case GST_NEGCAM_PREFER_COMPRESSED:
      keys[0] = -by_raw, keys[1] = by_area, keys[2] = by_rate;
      break;
    case GST_NEGCAM_PREFER_DEVICE:
      /* Past the default mode: the live rate or more beats less; among
       * those, the largest frame, then the rate nearest the live rate
       * (the lower); below it, the highest rate, then the largest. */
      keys[0] = by_live;
      if (reaches_live (r, gst_structure_get_value (a, "framerate")))
        keys[1] = by_area, keys[2] = -by_rate;
      else
        keys[1] = by_rate, keys[2] = by_area;
      keys[3] = by_raw;
      break;
    default:
      keys[0] = by_area, keys[1] = by_rate, keys[2] = by_raw;
      break;
  }
  for (i = 0; i < 4; i++)
    if (keys[i])
      return keys[i];
  return 0;
}

/* Fix every field to its largest value (the pixel aspect ratio, which
 * downstream's range may bring, to the nearest to 1/1: V4L2 pixels are
 * square); under prefer=device, the rate to the lowest one at or above
 * the live rate when there is one. */
static GstStructure *
fixate_structure (const Ranking *r, const GstStructure *in)
{
  GstStructure *s = gst_structure_copy (in);
  const GValue *rate = gst_structure_get_value (s, "framerate");

  if (r && r->prefer == GST_NEGCAM_PREFER_DEVICE && reaches_live (r, rate)) {
    GValue range = G_VALUE_INIT, x = G_VALUE_INIT;

    g_value_init (&range, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (
        &range, r->live_n, r->live_d, G_MAXINT, 1);
    if (gst_value_intersect (&x, rate, &range))
      gst_structure_take_value (s, "framerate", &x);
    g_value_unset (&range);
    gst_structure_fixate_field_nearest_fraction (
        s, "framerate", r->live_n, r->live_d);
  }
  if (gst_structure_has_field (s, "width"))
    gst_structure_fixate_field_nearest_int (s, "width", G_MAXINT);
  if (gst_structure_has_field (s, "height"))
    gst_structure_fixate_field_nearest_int (s, "height", G_MAXINT);
  if (gst_structure_has_field (s, "framerate"))
    gst_structure_fixate_field_nearest_fraction (s, "framerate", G_MAXINT, 1);
  if (gst_structure_has_field (s, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (
        s, "pixel-aspect-ratio", 1, 1);
  gst_structure_fixate (s);
  return s;
}

/* @s (taken) as caps, with the caps features of structure @i of @caps
 * (format:Interlaced for interlace-mode=alternate). */
static GstCaps *
caps_like (GstStructure *s, GstCaps *caps, guint i)
{
  GstCaps *out = gst_caps_new_empty ();

  gst_caps_append_structure_full (
      out, s, gst_caps_features_copy (gst_caps_get_features (caps, i)));
  return out;
}

/* The device's default mode (G_FMT, G_PARM at open) as caps without
 * colorimetry (probed caps have none), or NULL. */
static GstCaps *
default_mode (NegcamFormatCache *cache)
{
  const struct v4l2_pix_format *def =
      negcam_format_cache_default_format (cache);
  GstCaps *caps = negcam_caps_from_format (
      def, negcam_format_cache_default_interval (cache));

  if (caps)
    gst_structure_remove_field (
        gst_caps_get_structure (caps, 0), "colorimetry");
  return caps;
}

/*
 * Fixate @caps (non-empty, already within what downstream accepts) by
 * the preference. Every structure is fixated to its best point; the best
 * of those wins, ties going to the device's enumeration order.
 * prefer=device takes the default mode when @caps allow it.
 */
GstCaps *
negcam_fixate (NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *caps)
{
  GstStructure *best = NULL;
  guint i, best_i = 0;
  Ranking r;

  ranking_init (&r, cache, prefer);
  if (prefer == GST_NEGCAM_PREFER_DEVICE && cache) {
    GstCaps *defcaps = default_mode (cache);

    if (defcaps) {
      GstStructure *d = gst_caps_get_structure (defcaps, 0);

      for (i = 0; i < gst_caps_get_size (caps) && !best; i++) {
        const GstStructure *s = gst_caps_get_structure (caps, i);

        if (gst_structure_can_intersect (s, d)) {
          GstStructure *x = gst_structure_intersect (s, d);
          best = fixate_structure (NULL, x);
          best_i = i;
          gst_structure_free (x);
        }
      }
      gst_caps_unref (defcaps);
    }
  }

  if (best)
    return caps_like (best, caps, best_i);

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = fixate_structure (&r, gst_caps_get_structure (caps, i));

    if (!best || compare_candidates (&r, s, best) > 0) {
      if (best)
        gst_structure_free (best);
      best = s;
      best_i = i;
    } else {
      gst_structure_free (s);
    }
  }
  return caps_like (best, caps, best_i);
}

/* One structure of the caps being ordered, with its best point. */
typedef struct {
  guint index;
  gboolean is_default;
  GstStructure *best;
} Ranked;

static gint
ranked_compare (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Ranked *a = pa, *b = pb;
  gint c = (gint)b->is_default - (gint)a->is_default;

  if (!c)
    c = compare_candidates (data, b->best, a->best);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}

GstCaps *
negcam_caps_by_preference (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *caps)
{
  GstCaps *defcaps = NULL, *out;
  const GstStructure *d = NULL;
  guint i, n = gst_caps_get_size (caps);
  Ranked *v;
  Ranking r;

  if (n < 2)
    return caps;
  ranking_init (&r, cache, prefer);
  if (prefer == GST_NEGCAM_PREFER_DEVICE && cache
      && (defcaps = default_mode (cache)))
    d = gst_caps_get_structure (defcaps, 0);
  v = g_new (Ranked, n);
  for (i = 0; i < n; i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);

    v[i].index = i;
    v[i].is_default = d && gst_structure_can_intersect (s, d);
    v[i].best = fixate_structure (&r, s);
  }
  g_qsort_with_data (v, n, sizeof (*v), ranked_compare, &r);
  out = gst_caps_new_empty ();
  for (i = 0; i < n; i++) {
    gst_caps_append_structure_full (out,
        gst_structure_copy (gst_caps_get_structure (caps, v[i].index)),
        gst_caps_features_copy (gst_caps_get_features (caps, v[i].index)));
    gst_structure_free (v[i].best);
  }
  g_free (v);
  if (defcaps)
    gst_caps_unref (defcaps);
  gst_caps_unref (caps);
  return out;
}

/*
 * @caps (taken) narrowed to a caps query's @filter, in the filter's order:
 * the caller's preference comes first, ours orders what each of its
 * structures leaves (GST_CAPS_INTERSECT_FIRST, as GStreamer's base classes
 * answer).
 */
GstCaps *
negcam_caps_filter_first (GstCaps *caps, GstCaps *filter)
{
  GstCaps *out;

  if (!filter)
    return caps;
  out = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  return out;
}

/* The first field in which @want and @got differ, or NULL. */
const gchar *
negcam_caps_first_difference (const GstStructure *want, const GstStructure *got,
    gchar **asked, gchar **offered)
{
  static const gchar *fields[] = { "format", "width", "height",
    "interlace-mode", "field-order", "framerate", "colorimetry" };
  guint i;

  if (!gst_structure_has_name (got, gst_structure_get_name (want))) {
    *asked = g_strdup (gst_structure_get_name (want));
    *offered = g_strdup (gst_structure_get_name (got));
    return "media type";
  }
  for (i = 0; i < G_N_ELEMENTS (fields); i++) {
    const GValue *a = gst_structure_get_value (want, fields[i]);
    const GValue *b = gst_structure_get_value (got, fields[i]);

    if (!a || !b)
      continue;
    if (gst_value_compare (a, b) != GST_VALUE_EQUAL) {
      *asked = gst_value_serialize (a);
      *offered = gst_value_serialize (b);
      return fields[i];
    }
  }
  return NULL;
}

/* Ranking key of a size-level structure (no framerate) under @prefer:
 * the keys that come before the frame rate (prefer=device past its
 * default mode: the area, see below). */
static gint64
size_key (GstNegcamPrefer prefer, const GstStructure *in)
{
  GstStructure *s = fixate_structure (NULL, in);
  gint w = 0, h = 0;
  gint64 area, raw = is_raw (s);

  gst_structure_get_int (s, "width", &w);
  gst_structure_get_int (s, "height", &h);
  gst_structure_free (s);
  area = (gint64)w * h; /* < 2^28 */
  if (prefer == GST_NEGCAM_PREFER_RAW)
    return (raw << 40) | area;
  if (prefer == GST_NEGCAM_PREFER_COMPRESSED)
    return ((1 - raw) << 40) | area;
  return area;
}

/* Does any structure of @caps allow the live rate? */
static gboolean
caps_reach_live (const Ranking *r, GstCaps *caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    if (reaches_live (r,
            gst_structure_get_value (
                gst_caps_get_structure (caps, i), "framerate")))
      return TRUE;
  return FALSE;
}

/* The not yet @used structures of @sizes with the best key, marked used;
 * NULL when none is left. */
static GstCaps *
next_group (GstCaps *sizes, const gint64 *keys, gboolean *used)
{
  guint i, n = gst_caps_get_size (sizes);
  GstCaps *group;
  gint64 best = -1;

  for (i = 0; i < n; i++)
    if (!used[i] && keys[i] > best)
      best = keys[i];
  if (best < 0)
    return NULL;
  group = gst_caps_new_empty ();
  for (i = 0; i < n; i++)
    if (!used[i] && keys[i] == best) {
      used[i] = TRUE;
      gst_caps_append_structure_full (group,
          gst_structure_copy (gst_caps_get_structure (sizes, i)),
          gst_caps_features_copy (gst_caps_get_features (sizes, i)));
    }
  return group;
}

/* The device's default mode within @filter, with rates, or NULL. */
static GstCaps *
default_candidates (NegcamFormatCache *cache, GstCaps *filter)
{
  GstCaps *defcaps = default_mode (cache), *f, *part = NULL;

  if (!defcaps)
    return NULL;
  f = filter ? gst_caps_intersect (filter, defcaps) : gst_caps_ref (defcaps);
  if (!gst_caps_is_empty (f))
    part = negcam_format_cache_caps (cache, f);
  if (part && gst_caps_is_empty (part))
    gst_clear_caps (&part);
  gst_caps_unref (f);
  gst_caps_unref (defcaps);
  return part;
}

/*
 * A filter of one structure that fixes the rate below the live rate:
 * no candidate can reach the live rate, so the highest rate wins, which
 * is that one, then the largest frame. Aiming the group walk (by area)
 * at it picks the same as walking every group, and stops at the first
 * size that has the rate instead of asking every size's intervals.
 */
static void
aim_within_filter (Ranking *r, GstCaps *filter)
{
  gint n, d;

  if (!filter || gst_caps_get_size (filter) != 1
      || !gst_structure_get_fraction (
          gst_caps_get_structure (filter, 0), "framerate", &n, &d)
      || n <= 0 || gst_util_fraction_compare (n, d, r->live_n, r->live_d) >= 0)
    return;
  r->live_n = n, r->live_d = d;
}

/*
 * The candidates within one downstream structure (@filter, NULL: any),
 * enumerating intervals only where fixation can end up: sizes are ranked
 * first (ENUM_FRAMESIZES only) and intervals are asked for the best
 * group of sizes, then the next group if no rate of the first matches
 * the filter. The fixation over the result is the same as over the full
 * caps because every key ranked before the rate is equal inside a group.
 * prefer=device past its default mode ranks "reaches the live rate"
 * first and the area next: groups are walked by area until one reaches
 * the live rate (the winner is in it); when none does, the highest rate
 * wins and every group is needed. prefer=framerate ranks by rate first,
 * so it needs every interval.
 */
static GstCaps *
candidates_within (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *filter)
{
  GstCaps *sizes, *group, *ours = NULL, *below;
  gint64 *keys;
  gboolean *used;
  guint i, n;
  Ranking r;

  if (prefer == GST_NEGCAM_PREFER_FRAMERATE)
    return negcam_format_cache_caps (cache, filter);
  if (prefer == GST_NEGCAM_PREFER_DEVICE
      && (ours = default_candidates (cache, filter)))
    return ours;

  ranking_init (&r, cache, prefer);
  aim_within_filter (&r, filter);
  below = gst_caps_new_empty ();
  sizes = negcam_format_cache_size_caps (cache, filter);
  n = gst_caps_get_size (sizes);
  keys = g_new0 (gint64, n);
  used = g_new0 (gboolean, n);
  for (i = 0; i < n; i++)
    keys[i] = size_key (prefer, gst_caps_get_structure (sizes, i));
  while (!ours && (group = next_group (sizes, keys, used))) {
    GstCaps *f =
        filter ? gst_caps_intersect (filter, group) : gst_caps_ref (group);
    GstCaps *got = negcam_format_cache_caps (cache, f);

    if (prefer == GST_NEGCAM_PREFER_DEVICE && !caps_reach_live (&r, got))
      gst_caps_append (below, got);
    else if (!gst_caps_is_empty (got))
      ours = got;
    else
      gst_caps_unref (got);
    gst_caps_unref (f);
    gst_caps_unref (group);
  }
  g_free (keys);
  g_free (used);
  gst_caps_unref (sizes);
  if (ours) {
    gst_caps_unref (below);
    return ours;
  }
  return below;
}

GstCaps *
negcam_fixate_candidates (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *peer)
{
  guint i;

  if (!peer)
    return candidates_within (cache, prefer, NULL);
  /* Downstream lists its caps by preference: the first structure any
   * mode matches decides, as v4l2src fixates from downstream's first
   * structure. */
  for (i = 0; i < gst_caps_get_size (peer); i++) {
    GstCaps *one = gst_caps_copy_nth (peer, i);
    GstCaps *ours = candidates_within (cache, prefer, one);

    gst_caps_unref (one);
    if (!gst_caps_is_empty (ours))
      return ours;
    gst_caps_unref (ours);
  }
  return gst_caps_new_empty ();
}

/* "YUY2 160x120-1920x1080, image/jpeg 160x120-1920x1080" */
gchar *
negcam_caps_offers_brief (GstCaps *caps)
{
  GString *str = g_string_new (NULL);
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    const gchar *fmt = gst_structure_get_string (s, "format");
    const gchar *name = fmt ? fmt : gst_structure_get_name (s);
    gint minw = G_MAXINT, minh = G_MAXINT, maxw = 0, maxh = 0, w, h;
    gboolean seen = FALSE;

    for (j = 0; j < i; j++) {
      const GstStructure *t = gst_caps_get_structure (caps, j);
      const gchar *tf = gst_structure_get_string (t, "format");
      seen |= !g_strcmp0 (tf ? tf : gst_structure_get_name (t), name);
    }
    if (seen)
      continue;
    /* the size span of every structure of this format */
    for (j = i; j < gst_caps_get_size (caps); j++) {
      const GstStructure *t = gst_caps_get_structure (caps, j);
      const gchar *tf = gst_structure_get_string (t, "format");
      const GValue *vw = gst_structure_get_value (t, "width");
      const GValue *vh = gst_structure_get_value (t, "height");

      if (g_strcmp0 (tf ? tf : gst_structure_get_name (t), name) || !vw || !vh)
        continue;
      if (G_VALUE_HOLDS_INT (vw) && G_VALUE_HOLDS_INT (vh)) {
        w = g_value_get_int (vw);
        h = g_value_get_int (vh);
        minw = MIN (minw, w), maxw = MAX (maxw, w);
        minh = MIN (minh, h), maxh = MAX (maxh, h);
      } else if (GST_VALUE_HOLDS_INT_RANGE (vw)
          && GST_VALUE_HOLDS_INT_RANGE (vh)) {
        minw = MIN (minw, gst_value_get_int_range_min (vw));
        maxw = MAX (maxw, gst_value_get_int_range_max (vw));
        minh = MIN (minh, gst_value_get_int_range_min (vh));
        maxh = MAX (maxh, gst_value_get_int_range_max (vh));
      }
    }
    g_string_append_printf (str, "%s%s", str->len ? ", " : "", name);
    if (maxw && (minw != maxw || minh != maxh))
      g_string_append_printf (str, " %dx%d to %dx%d", minw, minh, maxw, maxh);
    else if (maxw)
      g_string_append_printf (str, " %dx%d", maxw, maxh);
  }
  if (!str->len)
    g_string_append (str, "nothing GStreamer can carry");
  return g_string_free (str, FALSE);
}

/* @caps without interlace-mode, field-order and caps features. */
static GstCaps *
strip_interlacing (GstCaps *caps)
{
  GstCaps *out = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (out); i++) {
    gst_structure_remove_fields (
        gst_caps_get_structure (out, i), "interlace-mode", "field-order", NULL);
    gst_caps_set_features (out, i, NULL);
  }
  return out;
}

/* The distinct interlace-mode values of @caps, "a, b", into @str;
 * FALSE when none is given. */
static gboolean
append_modes (GString *str, GstCaps *caps)
{
  gsize start = str->len;
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GValue *v = gst_structure_get_value (
        gst_caps_get_structure (caps, i), "interlace-mode");
    gchar *m = v ? gst_value_serialize (v) : NULL;

    if (m && !strstr (str->str + start, m))
      g_string_append_printf (str, "%s%s", str->len > start ? ", " : "", m);
    g_free (m);
  }
  return str->len > start;
}

gchar *
negcam_caps_interlace_refusal (GstCaps *offers, GstCaps *accepts)
{
  GstCaps *o, *a;
  GString *str;
  gboolean only_interlacing;

  if (!accepts)
    return NULL;
  o = strip_interlacing (offers);
  a = strip_interlacing (accepts);
  only_interlacing = gst_caps_can_intersect (o, a);
  gst_caps_unref (o);
  gst_caps_unref (a);
  if (!only_interlacing)
    return NULL;
  str = g_string_new ("only the field arrangement differs: the device "
                      "delivers interlace-mode ");
  if (!append_modes (str, offers))
    g_string_append (str, "unknown");
  if (strstr (str->str, "alternate"))
    g_string_append (str,
        " (V4L2_FIELD_ALTERNATE: one field per buffer, "
        "caps feature " GST_CAPS_FEATURE_FORMAT_INTERLACED ")");
  g_string_append (str, ", downstream accepts ");
  if (append_modes (str, accepts))
    g_string_append (str, " only");
  else
    g_string_append (str, "none of it");
  return g_string_free (str, FALSE);
}
