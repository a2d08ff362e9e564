/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Choosing a format: fixation by the prefer property, the lazy ranking
 * that decides which frame intervals negotiation needs to ask for, and
 * the wording of negotiation errors. Pure functions over caps and the
 * probe cache; the caller holds whatever lock guards the probe.
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

/* <0 when a is worse than b under @prefer. Both fixed. */
static gint
compare_candidates (
    GstNegcamPrefer prefer, const GstStructure *a, const GstStructure *b)
{
  gint aw = 0, ah = 0, bw = 0, bh = 0, an = 0, ad = 1, bn = 0, bd = 1;
  gint64 aarea, barea;
  gint by_area, by_rate, by_raw, keys[3], i;

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

  switch (prefer) {
    case GST_NEGCAM_PREFER_FRAMERATE:
      keys[0] = by_rate, keys[1] = by_area, keys[2] = by_raw;
      break;
    case GST_NEGCAM_PREFER_RAW:
      keys[0] = by_raw, keys[1] = by_area, keys[2] = by_rate;
      break;
    case GST_NEGCAM_PREFER_COMPRESSED:
      keys[0] = -by_raw, keys[1] = by_area, keys[2] = by_rate;
      break;
    default:
      keys[0] = by_area, keys[1] = by_rate, keys[2] = by_raw;
      break;
  }
  for (i = 0; i < 3; i++)
    if (keys[i])
      return keys[i];
  return 0;
}

static GstStructure *
fixate_structure_max (const GstStructure *in)
{
  GstStructure *s = gst_structure_copy (in);

  if (gst_structure_has_field (s, "width"))
    gst_structure_fixate_field_nearest_int (s, "width", G_MAXINT);
  if (gst_structure_has_field (s, "height"))
    gst_structure_fixate_field_nearest_int (s, "height", G_MAXINT);
  if (gst_structure_has_field (s, "framerate"))
    gst_structure_fixate_field_nearest_fraction (s, "framerate", G_MAXINT, 1);
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

/*
 * Fixate @caps (non-empty, already within what downstream accepts) by
 * the preference. Every structure is fixated to its best point; the best
 * of those wins, ties going to the device's enumeration order.
 */
GstCaps *
negcam_fixate (NegcamProbe *probe, GstNegcamPrefer prefer, GstCaps *caps)
{
  GstStructure *best = NULL;
  guint i, best_i = 0;

  if (prefer == GST_NEGCAM_PREFER_DEVICE && probe) {
    const struct v4l2_format *def = negcam_probe_default_format (probe);
    GstCaps *defcaps = negcam_caps_from_format (
        &def->fmt.pix, negcam_probe_default_interval (probe));

    if (defcaps) {
      GstStructure *d = gst_caps_get_structure (defcaps, 0);

      gst_structure_remove_field (d, "colorimetry");
      for (i = 0; i < gst_caps_get_size (caps) && !best; i++) {
        const GstStructure *s = gst_caps_get_structure (caps, i);

        if (gst_structure_can_intersect (s, d)) {
          GstStructure *x = gst_structure_intersect (s, d);
          best = fixate_structure_max (x);
          best_i = i;
          gst_structure_free (x);
        }
      }
      gst_caps_unref (defcaps);
    }
    prefer = GST_NEGCAM_PREFER_RESOLUTION;
  }

  if (best)
    return caps_like (best, caps, best_i);

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = fixate_structure_max (gst_caps_get_structure (caps, i));

    if (!best || compare_candidates (prefer, s, best) > 0) {
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
 * the keys that come before the frame rate. */
static gint64
size_key (GstNegcamPrefer prefer, const GstStructure *in)
{
  GstStructure *s = fixate_structure_max (in);
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

/*
 * What the device offers that downstream accepts, with frame rates, but
 * enumerating intervals only where fixation can end up: sizes are ranked
 * first (ENUM_FRAMESIZES only) and intervals are asked for the best
 * group of sizes, then the next group if no rate of the first matches
 * the filter. The fixation over the result is the same as over the full
 * caps because every key ranked before the rate is equal inside a group.
 * prefer=framerate ranks by rate first, so it needs every interval.
 */
GstCaps *
negcam_fixate_candidates (
    NegcamProbe *probe, GstNegcamPrefer prefer, GstCaps *peer)
{
  GstCaps *sizes, *ours = NULL;
  gint64 *keys;
  gboolean *used;
  guint i, n;

  if (prefer == GST_NEGCAM_PREFER_FRAMERATE)
    return negcam_probe_caps (probe, peer);

  sizes = negcam_probe_size_caps (probe, peer);
  n = gst_caps_get_size (sizes);

  if (prefer == GST_NEGCAM_PREFER_DEVICE) {
    const struct v4l2_format *def = negcam_probe_default_format (probe);
    GstCaps *defcaps = negcam_caps_from_format (
        &def->fmt.pix, negcam_probe_default_interval (probe));

    if (defcaps) {
      GstCaps *f, *part;

      gst_structure_remove_field (
          gst_caps_get_structure (defcaps, 0), "colorimetry");
      f = peer ? gst_caps_intersect (peer, defcaps) : gst_caps_ref (defcaps);
      part = gst_caps_is_empty (f) ? gst_caps_new_empty ()
                                   : negcam_probe_caps (probe, f);
      if (!gst_caps_is_empty (part))
        ours = part;
      else
        gst_caps_unref (part);
      gst_caps_unref (f);
      gst_caps_unref (defcaps);
    }
    prefer = GST_NEGCAM_PREFER_RESOLUTION;
  }

  keys = g_new0 (gint64, n);
  used = g_new0 (gboolean, n);
  for (i = 0; i < n; i++)
    keys[i] = size_key (prefer, gst_caps_get_structure (sizes, i));
  while (!ours) {
    GstCaps *group = gst_caps_new_empty (), *f;
    gint64 best = -1;

    for (i = 0; i < n; i++)
      if (!used[i] && keys[i] > best)
        best = keys[i];
    if (best < 0) {
      gst_caps_unref (group);
      break;
    }
    for (i = 0; i < n; i++)
      if (!used[i] && keys[i] == best) {
        used[i] = TRUE;
        gst_caps_append_structure_full (group,
            gst_structure_copy (gst_caps_get_structure (sizes, i)),
            gst_caps_features_copy (gst_caps_get_features (sizes, i)));
      }
    f = peer ? gst_caps_intersect (peer, group) : gst_caps_ref (group);
    ours = negcam_probe_caps (probe, f);
    if (gst_caps_is_empty (ours))
      gst_clear_caps (&ours);
    gst_caps_unref (f);
    gst_caps_unref (group);
  }
  g_free (keys);
  g_free (used);
  gst_caps_unref (sizes);
  return ours ? ours : gst_caps_new_empty ();
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
