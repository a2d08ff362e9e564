/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc element tests: negotiation against every built-in profile and
 * a list of caps filters (expectations computed from the parsed profile,
 * not pasted), request counts, errors, renegotiation, frames read back by
 * number, the pool, timestamps, drops and latency. One TCase per concern,
 * see negcamsrc_suite() at the end.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "profile.h"
#include "framegen.h"
#include "formats.h"
#include "harness.h"

static const gchar *profiles[] = { "webcam", "vga", "stepwise", "tv-tuner" };

/* ------------------------------------------------------------------ */
/* Profile helpers: the device truth, straight from the profile data.  */

static struct negcam_profile *
load_profile (const gchar * name)
{
  const struct negcam_builtin *b = negcam_builtin_find (name);
  struct negcam_profile *p = g_malloc0 (sizeof (*p));
  struct negcam_parse_error err;

  fail_unless (b != NULL, "no built-in profile %s", name);
  fail_unless (negcam_profile_parse (p, b->text, strlen (b->text), &err) == 0,
      "%s: %u:%u %s", name, err.line, err.column, err.message);
  return p;
}

static struct negcam_profile *
load_profile_file (const gchar * path)
{
  struct negcam_profile *p = g_malloc0 (sizeof (*p));
  struct negcam_parse_error err;
  gchar *text = NULL;
  gsize len = 0;

  fail_unless (g_file_get_contents (path, &text, &len, NULL), "%s", path);
  fail_unless (negcam_profile_parse (p, text, len, &err) == 0,
      "%s: %u:%u %s", path, err.line, err.column, err.message);
  g_free (text);
  return p;
}

/* An independent, deliberately small fourcc table for what the built-in
 * profiles use. */
static GstStructure *
test_fourcc_structure (guint32 fourcc)
{
  switch (fourcc) {
    case V4L2_PIX_FMT_YUYV:
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "YUY2", NULL);
    case V4L2_PIX_FMT_UYVY:
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "UYVY", NULL);
    case V4L2_PIX_FMT_NV12:
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "NV12", NULL);
    case V4L2_PIX_FMT_YUV420:
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          "I420", NULL);
    case V4L2_PIX_FMT_MJPEG:
      return gst_structure_new_empty ("image/jpeg");
    case V4L2_PIX_FMT_H264:
      return gst_structure_new_empty ("video/x-h264");
    default:
      fail ("built-in profile uses a fourcc the test does not know: %08x",
          fourcc);
      return NULL;
  }
}

static void
set_fps_from_interval (GValue * v, const struct v4l2_fract *iv)
{
  gst_value_set_fraction (v, iv->denominator, iv->numerator);
}

/* Every mode of @p as caps: one structure per format and size entry. */
static GstCaps *
profile_modes (const struct negcam_profile *p)
{
  GstCaps *caps = gst_caps_new_empty ();
  guint i, j, k;

  for (i = 0; i < p->nformats; i++) {
    const struct negcam_format *f = &p->formats[i];

    if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
      continue;
    for (j = 0; j < f->size_count; j++) {
      const struct negcam_size *sz = &p->sizes[f->size_first + j];
      GstStructure *s = test_fourcc_structure (f->fourcc);
      GValue rate = G_VALUE_INIT;

      if (sz->max_w > sz->min_w) {
        GValue r = G_VALUE_INIT;
        g_value_init (&r, GST_TYPE_INT_RANGE);
        gst_value_set_int_range_step (&r, sz->min_w, sz->max_w, sz->step_w);
        gst_structure_set_value (s, "width", &r);
        gst_value_set_int_range_step (&r, sz->min_h, sz->max_h, sz->step_h);
        gst_structure_set_value (s, "height", &r);
        g_value_unset (&r);
      } else {
        gst_structure_set (s, "width", G_TYPE_INT, sz->min_w, "height",
            G_TYPE_INT, sz->min_h, NULL);
      }
      if (sz->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
        GValue v = G_VALUE_INIT;
        g_value_init (&rate, GST_TYPE_LIST);
        g_value_init (&v, GST_TYPE_FRACTION);
        for (k = 0; k < sz->ival_count; k++) {
          set_fps_from_interval (&v, &p->intervals[sz->ival_first + k].min);
          gst_value_list_append_value (&rate, &v);
        }
        g_value_unset (&v);
      } else {
        const struct negcam_interval *iv = &p->intervals[sz->ival_first];
        g_value_init (&rate, GST_TYPE_FRACTION_RANGE);
        gst_value_set_fraction_range_full (&rate, iv->max.denominator,
            iv->max.numerator, iv->min.denominator, iv->min.numerator);
      }
      gst_structure_take_value (s, "framerate", &rate);
      if (gst_structure_has_name (s, "video/x-raw"))
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING,
            f->fields[0] == V4L2_FIELD_NONE ? "progressive" : "interleaved",
            NULL);
      gst_caps_append_structure (caps, s);
    }
  }
  return caps;
}

/* prefer=device past the default mode aims at the "live rate": the
 * profile's default rate (30 fps when it gives none), at least 15 fps
 * (docs/negcamsrc.md, "prefer"). As num/den. */
static void
profile_live_rate (const struct negcam_profile *p, gint * n, gint * d)
{
  const struct v4l2_fract *iv = &p->def[NC_CAPTURE].interval;

  *n = iv->numerator ? (gint) iv->denominator : 30;
  *d = iv->numerator ? (gint) iv->numerator : 1;
  if (*n < 15 * *d)
    *n = 15, *d = 1;
}

/* The rates of @s at or above n/d, or FALSE when it has none. */
static gboolean
rates_from (const GstStructure * s, gint n, gint d, GValue * out)
{
  GValue from = G_VALUE_INIT;
  gboolean any;

  g_value_init (&from, GST_TYPE_FRACTION_RANGE);
  gst_value_set_fraction_range_full (&from, n, d, G_MAXINT, 1);
  any = gst_value_intersect (out, gst_structure_get_value (s, "framerate"),
      &from);
  g_value_unset (&from);
  return any;
}

/* Largest size; the highest rate, except under prefer=device past its
 * default mode where a mode reaching the live rate takes the lowest rate
 * that does. */
static GstStructure *
fixate_for (const gchar * prefer, gint live_n, gint live_d,
    const GstStructure * in)
{
  GstStructure *s = gst_structure_copy (in);
  GValue high = G_VALUE_INIT;

  if (!g_strcmp0 (prefer, "device") && rates_from (s, live_n, live_d, &high)) {
    gst_structure_take_value (s, "framerate", &high);
    gst_structure_fixate_field_nearest_fraction (s, "framerate", live_n,
        live_d);
  }
  gst_structure_fixate_field_nearest_int (s, "width", G_MAXINT);
  gst_structure_fixate_field_nearest_int (s, "height", G_MAXINT);
  gst_structure_fixate_field_nearest_fraction (s, "framerate", G_MAXINT, 1);
  gst_structure_fixate (s);
  return s;
}

/* The oracle's ranking, written from docs/negcamsrc.md ("prefer") and
 * sharing nothing with gst/negcamfixate.c: each preference is its
 * documented list of criteria, in order, each "more is better". */
typedef enum {
  BY_NONE,
  BY_AREA,                      /* larger width x height */
  BY_RATE,                      /* higher frame rate */
  BY_LOWER_RATE,                /* lower frame rate (nearest the live rate) */
  BY_RAW,                       /* uncompressed: video/x-raw, video/x-bayer */
  BY_COMPRESSED,                /* the others */
  BY_LIVE                       /* reaches the live rate */
} Criterion;

static const struct {
  const gchar *prefer;
  Criterion order[3];
} rules[] = {
  {"resolution", {BY_AREA, BY_RATE, BY_RAW}},
  {"framerate", {BY_RATE, BY_AREA, BY_RAW}},
  {"raw", {BY_RAW, BY_AREA, BY_RATE}},
  {"compressed", {BY_COMPRESSED, BY_AREA, BY_RATE}},
  /* device, past its default mode: those reaching the live rate first */
  {"device-reaching", {BY_AREA, BY_LOWER_RATE, BY_RAW}},
  {"device-below", {BY_RATE, BY_AREA, BY_RAW}},
};

typedef struct {
  gint64 area;
  gint n, d;
  gboolean uncompressed, live;
} Mode;

static Mode
mode_of (const GstStructure * s, gint live_n, gint live_d)
{
  Mode m = { 0, 0, 1, FALSE, FALSE };
  gint w = 0, h = 0;

  gst_structure_get_int (s, "width", &w);
  gst_structure_get_int (s, "height", &h);
  gst_structure_get_fraction (s, "framerate", &m.n, &m.d);
  m.area = (gint64) w * h;
  m.uncompressed = gst_structure_has_name (s, "video/x-raw")
      || gst_structure_has_name (s, "video/x-bayer");
  m.live = gst_util_fraction_compare (m.n, m.d, live_n, live_d) >= 0;
  return m;
}

static gint
by (Criterion c, const Mode * a, const Mode * b)
{
  switch (c) {
    case BY_AREA:
      return (a->area > b->area) - (a->area < b->area);
    case BY_RATE:
      return gst_util_fraction_compare (a->n, a->d, b->n, b->d);
    case BY_LOWER_RATE:
      return gst_util_fraction_compare (b->n, b->d, a->n, a->d);
    case BY_RAW:
      return a->uncompressed - b->uncompressed;
    case BY_COMPRESSED:
      return b->uncompressed - a->uncompressed;
    case BY_LIVE:
      return a->live - b->live;
    default:
      return 0;
  }
}

/* >0 when @a is to be chosen over @b under @prefer ("device": its rule
 * past the default mode, with the live rate live_n/live_d). */
static gint
better (const gchar * prefer, gint live_n, gint live_d,
    const GstStructure * a, const GstStructure * b)
{
  Mode ma = mode_of (a, live_n, live_d), mb = mode_of (b, live_n, live_d);
  const gchar *rule = prefer;
  guint i, k;
  gint r;

  if (!g_strcmp0 (prefer, "device")) {
    if ((r = by (BY_LIVE, &ma, &mb)))
      return r;
    rule = ma.live ? "device-reaching" : "device-below";
  }
  for (i = 0; i < G_N_ELEMENTS (rules); i++) {
    if (g_strcmp0 (rules[i].prefer, rule))
      continue;
    for (k = 0; k < G_N_ELEMENTS (rules[i].order); k++)
      if ((r = by (rules[i].order[k], &ma, &mb)))
        return r;
    return 0;
  }
  fail ("no rule for prefer=%s", prefer);
  return 0;
}

/* The profile's default mode as a structure. */
static GstStructure *
default_structure (const struct negcam_profile *p)
{
  const struct negcam_default *d = &p->def[NC_CAPTURE];
  const struct negcam_format *df = NULL;
  GstStructure *s;
  guint i;

  for (i = 0; i < p->nformats; i++)
    if (p->formats[i].fourcc == d->fourcc
        && p->formats[i].buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
      df = &p->formats[i];
  fail_unless (df != NULL);
  s = test_fourcc_structure (d->fourcc);
  gst_structure_set (s, "width", G_TYPE_INT, d->width, "height", G_TYPE_INT,
      d->height, "framerate", GST_TYPE_FRACTION, d->interval.denominator,
      d->interval.numerator, NULL);
  if (gst_structure_has_name (s, "video/x-raw"))
    gst_structure_set (s, "interlace-mode", G_TYPE_STRING,
        df->fields[0] == V4L2_FIELD_NONE ? "progressive" : "interleaved",
        NULL);
  return s;
}

/* The expected choice within one filter structure (@one), or NULL. */
static GstStructure *
expected_within (const struct negcam_profile *p, GstCaps * modes,
    GstCaps * one, const gchar * prefer)
{
  GstStructure *best = NULL;
  gint live_n, live_d;
  guint i, j;

  profile_live_rate (p, &live_n, &live_d);
  if (!g_strcmp0 (prefer, "device")) {
    GstCaps *dc = gst_caps_new_full (default_structure (p), NULL);

    if (gst_caps_can_intersect (dc, one))
      best = gst_structure_copy (gst_caps_get_structure (dc, 0));
    gst_caps_unref (dc);
    if (best)
      return best;
  }
  for (i = 0; i < gst_caps_get_size (modes); i++) {
    GstCaps *mode = gst_caps_copy_nth (modes, i);
    GstCaps *x = gst_caps_intersect (mode, one);

    for (j = 0; j < gst_caps_get_size (x); j++) {
      GstStructure *s = fixate_for (prefer, live_n, live_d,
          gst_caps_get_structure (x, j));

      if (!best || better (prefer, live_n, live_d, s, best) > 0) {
        if (best)
          gst_structure_free (best);
        best = s;
      } else {
        gst_structure_free (s);
      }
    }
    gst_caps_unref (x);
    gst_caps_unref (mode);
  }
  return best;
}

/* What negotiation must give: NULL when nothing in the profile fits.
 * Downstream's order first: the first filter structure any mode matches
 * decides, the preference applies within it. */
static GstStructure *
expected_mode (const struct negcam_profile *p, GstCaps * filter,
    const gchar * prefer)
{
  GstCaps *modes = profile_modes (p);
  GstStructure *best = NULL;
  guint i;

  for (i = 0; i < gst_caps_get_size (filter) && !best; i++) {
    GstCaps *one = gst_caps_copy_nth (filter, i);

    best = expected_within (p, modes, one, prefer);
    gst_caps_unref (one);
  }
  gst_caps_unref (modes);
  return best;
}

/* ------------------------------------------------------------------ */
/* Running a negotiation in a real pipeline                            */

static gint
count_of (const GstStructure * msg, const gchar * field)
{
  guint v = 0;

  fail_unless (gst_structure_get_uint (msg, field, &v), "no %s", field);
  return v;
}

/* negcamsrc ! capsfilter ! fakesink, non-live, until EOS or error. */
static void
run_pipeline (const gchar * profile, const gchar * filter,
    const gchar * prefer, gint nbuf, Outcome * o)
{
  gchar *props = g_strdup_printf ("profile=\"%s\" is-live=false "
      "num-buffers=%d prefer=%s", profile, nbuf, prefer);

  run_negcamsrc (props, filter, o);
  g_free (props);
}

#include "filters.h"

/* negcamsrc @profile ! @filter under @prefer negotiates @want (taken;
 * NULL: not-negotiated). */
static void
check_filter_gives (const gchar * profile, const gchar * filter,
    const gchar * prefer, GstStructure * want)
{
  GstCaps *fc = gst_caps_from_string (filter);
  Outcome o;

  run_pipeline (profile, filter, prefer, 1, &o);
  if (!want) {
    fail_unless (o.error != NULL, "%s/%s/%s: expected not-negotiated, got %"
        GST_PTR_FORMAT, profile, filter, prefer, o.msg);
  } else {
    GstCaps *got;
    const GstStructure *g;
    static const gchar *fields[] = { "format", "width", "height",
      "framerate", "interlace-mode"
    };
    guint i;

    fail_unless (o.error == NULL, "%s/%s/%s: expected %" GST_PTR_FORMAT
        ", got error %s (%s)", profile, filter, prefer, want,
        o.error ? o.error->message : "", o.debug);
    got = outcome_caps (&o);
    g = gst_caps_get_structure (got, 0);
    fail_unless (gst_structure_has_name (g, gst_structure_get_name (want)),
        "%s/%s/%s: %" GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, profile, filter,
        prefer, g, want);
    for (i = 0; i < G_N_ELEMENTS (fields); i++) {
      const GValue *a = gst_structure_get_value (want, fields[i]);
      const GValue *b = gst_structure_get_value (g, fields[i]);
      if (!a)
        continue;
      fail_unless (b && gst_value_compare (a, b) == GST_VALUE_EQUAL,
          "%s/%s/%s: field %s: expected %" GST_PTR_FORMAT ", got %"
          GST_PTR_FORMAT, profile, filter, prefer, fields[i], want, g);
    }
    /* The negotiated caps respect the filter. */
    fail_unless (gst_caps_is_subset (got, fc) || gst_caps_can_intersect (got,
            fc));
    gst_structure_free (want);
    gst_caps_unref (got);
  }
  outcome_clear (&o);
  gst_caps_unref (fc);
}

static void
check_filter (const gchar * profile, const struct negcam_profile *p,
    const gchar * filter, const gchar * prefer)
{
  GstCaps *fc = gst_caps_from_string (filter);

  check_filter_gives (profile, filter, prefer, expected_mode (p, fc, prefer));
  gst_caps_unref (fc);
}

GST_START_TEST (test_filters_every_profile)
{
  guint i, j;

  fail_unless (G_N_ELEMENTS (filters) >= 20);
  for (i = 0; i < G_N_ELEMENTS (profiles); i++) {
    struct negcam_profile *p = load_profile (profiles[i]);

    for (j = 0; j < G_N_ELEMENTS (filters); j++) {
      /* A device without ENUM_FRAMESIZES is probed with "any size": a
       * filter that constrains only the rate cannot steer the size
       * (documented limitation, docs/negcamsrc.md). */
      if ((p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES)
          && g_str_has_prefix (filters[j], "video/x-raw,framerate=")) {
        GstCaps *fc = gst_caps_from_string (filters[j]);
        GstStructure *want = expected_mode (p, fc, "device");
        gst_caps_unref (fc);
        if (want) {
          gst_structure_free (want);
          continue;
        }
      }
      check_filter (profiles[i], p, filters[j], "device");
    }
    g_free (p);
  }
}

GST_END_TEST;

GST_START_TEST (test_filters_preferences)
{
  static const gchar *prefs[] = { "resolution", "framerate", "raw",
    "compressed"
  };
  static const gchar *profs[] = { "webcam", "stepwise" };
  guint i, j, k;

  for (i = 0; i < G_N_ELEMENTS (profs); i++) {
    struct negcam_profile *p = load_profile (profs[i]);

    for (k = 0; k < G_N_ELEMENTS (prefs); k++)
      for (j = 0; j < G_N_ELEMENTS (filters); j++)
        check_filter (profs[i], p, filters[j], prefs[k]);
    g_free (p);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Request counts                                                      */

static const struct negcam_format *
profile_format (const struct negcam_profile *p, guint32 fourcc)
{
  guint i;

  for (i = 0; i < p->nformats; i++)
    if (p->formats[i].fourcc == fourcc
        && p->formats[i].buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
      return &p->formats[i];
  return NULL;
}

static guint
count_capture_formats (const struct negcam_profile *p)
{
  guint i, n = 0;

  for (i = 0; i < p->nformats; i++)
    n += p->formats[i].buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
  return n;
}

static const struct negcam_size *
profile_size (const struct negcam_profile *p, const struct negcam_format *f,
    guint w, guint h)
{
  guint j;

  for (j = 0; j < f->size_count; j++) {
    const struct negcam_size *s = &p->sizes[f->size_first + j];
    if (s->min_w == w && s->min_h == h)
      return s;
  }
  return NULL;
}

/* What full enumeration costs (what v4l2src does before any TRY_FMT):
 * every format, every size of every format, every interval of every
 * discrete size, each list with its terminating EINVAL. */
static guint
full_enumeration_cost (const struct negcam_profile *p)
{
  guint i, j, n = count_capture_formats (p) + 1;

  for (i = 0; i < p->nformats; i++) {
    const struct negcam_format *f = &p->formats[i];
    if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
      continue;
    if (p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES) {
      n += 1;                   /* ENOTTY */
      continue;
    }
    /* A stepwise/continuous size or interval is one entry, index 0,
     * with nothing to terminate. */
    n += f->size_kind == V4L2_FRMSIZE_TYPE_DISCRETE ? f->size_count + 1 : 1;
    for (j = 0; j < f->size_count; j++) {
      const struct negcam_size *sz = &p->sizes[f->size_first + j];
      n += sz->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE ?
          sz->ival_count + 1 : 1;
    }
  }
  return n;
}

/* The TRY_FMTs of an unfiltered caps query: one per raw format other
 * than the default's (its field, docs/negcamsrc.md "interlace-mode"). */
static guint
field_tries (const struct negcam_profile *p)
{
  guint i, n = 0;

  for (i = 0; i < p->nformats; i++) {
    const struct negcam_format *f = &p->formats[i];
    GstStructure *s;

    if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE
        || f->fourcc == p->def[NC_CAPTURE].fourcc)
      continue;
    s = test_fourcc_structure (f->fourcc);
    n += gst_structure_has_name (s, "video/x-raw");
    gst_structure_free (s);
  }
  return n;
}

/* Opening costs QUERYCAP, S_CTRL (pattern), G_FMT and G_PARM. */
#define OPEN_REQUESTS 4

/* ENUM_FRAMEINTERVALS of one size, terminating EINVAL included. */
static guint
ival_cost (const struct negcam_profile *p, guint32 fourcc, guint w, guint h)
{
  return profile_size (p, profile_format (p, fourcc), w, h)->ival_count + 1;
}

/* Fewest requests a negotiation needs (docs/benchmarks.md, "The minimum,
 * request by request"): QUERYCAP, TRY_FMT, S_FMT, G_PARM, S_PARM, plus
 * what the filter leaves open (@extra: the intervals of the sizes the
 * choice must see, the size walk, a fourcc to rule out, G_FMT for the
 * default mode). */
#define MIN_REQUESTS(extra) (5 + (extra))

/* At most 1.25 times the minimum (issue 33, item 4). */
static void
assert_near_minimum (const gchar * filter, guint minimum, guint * total)
{
  Outcome o;

  run_pipeline ("webcam", filter, "device", 1, &o);
  fail_unless (o.error == NULL);
  *total = count_of (o.msg, "requests");
  GST_INFO ("webcam, %s: %u requests, minimum %u", filter, *total, minimum);
  fail_unless (*total * 4 <= minimum * 5, "%s: %u requests > 1.25 x %u",
      filter, *total, minimum);
  fail_unless_equals_int (count_of (o.msg, "enum-fmt"), 0);
  outcome_clear (&o);
}

GST_START_TEST (test_request_count_webcam)
{
  struct negcam_profile *p = load_profile ("webcam");
  const struct negcam_format *yuyv = profile_format (p, V4L2_PIX_FMT_YUYV);
  guint total, full = full_enumeration_cost (p);
  Outcome o;

  /* A fixed size: its intervals alone, no ENUM_FRAMESIZES (their answer
   * says the device has the fourcc and the size). 26 before. */
  assert_near_minimum ("video/x-raw,format=YUY2,width=640,height=480",
      MIN_REQUESTS (ival_cost (p, V4L2_PIX_FMT_YUYV, 640, 480)), &total);
  fail_unless (total * 5 < full, "%u requests is not 5x below %u", total,
      full);
  /* image/jpeg is MJPG or JPEG: webcam lacks JPEG, one request says so
   * at least. 27 before. */
  fail_unless (profile_format (p, V4L2_PIX_FMT_JPEG) == NULL);
  assert_near_minimum ("image/jpeg,width=1280,height=720",
      MIN_REQUESTS (ival_cost (p, V4L2_PIX_FMT_MJPEG, 1280, 720) + 1),
      &total);
  /* Any raw video (what videoconvert asks): the default mode (G_FMT),
   * its size's intervals. 26 before. */
  assert_near_minimum ("video/x-raw",
      MIN_REQUESTS (1 + ival_cost (p, V4L2_PIX_FMT_YUYV, 640, 480)), &total);
  /* A rate below the live rate, any size: the sizes, then the largest
   * first until one has the rate (1920x1080 has not, 1280x720 has). 84
   * before (every size's intervals). */
  assert_near_minimum ("video/x-raw,format=YUY2,framerate=10/1",
      MIN_REQUESTS (yuyv->size_count + 1
          + ival_cost (p, V4L2_PIX_FMT_YUYV, 1920, 1080)
          + ival_cost (p, V4L2_PIX_FMT_YUYV, 1280, 720)), &total);

  run_pipeline ("webcam",
      "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1", "device",
      1, &o);
  fail_unless (o.error == NULL);
  fail_unless_equals_int (count_of (o.msg, "enum-framesizes"), 0);
  fail_unless_equals_int (count_of (o.msg, "enum-frameintervals"),
      ival_cost (p, V4L2_PIX_FMT_YUYV, 640, 480));
  fail_unless_equals_int (count_of (o.msg, "try-fmt"), 1);
  fail_unless_equals_int (count_of (o.msg, "s-fmt"), 1);
  /* S_FMT left 30/1, the rate asked: G_PARM says so, no S_PARM (on
   * uvcvideo each S_PARM is a PROBE round trip) */
  fail_unless_equals_int (count_of (o.msg, "s-parm"), 0);
  fail_unless_equals_int (count_of (o.msg, "g-parm"), 2);
  outcome_clear (&o);

  /* prefer=resolution, any JPEG: only the largest size's intervals. */
  run_pipeline ("webcam", "image/jpeg", "resolution", 1, &o);
  fail_unless (o.error == NULL);
  fail_unless_equals_int (count_of (o.msg, "enum-frameintervals"),
      profile_size (p, profile_format (p, V4L2_PIX_FMT_MJPEG), 1920,
          1080)->ival_count + 1);
  outcome_clear (&o);
  g_free (p);
}

GST_END_TEST;

/* A multiplanar profile (a SoC camera's) opens and streams on the
 * embedded device, which is single-planar (its YUYV: negcamsrc maps no
 * M format). */
GST_START_TEST (test_multiplanar_profile)
{
  Outcome o;

  run_pipeline (NEGCAM_SOURCE_ROOT "/tests/run/profiles/multiplanar.profile",
      "video/x-raw,format=YUY2", "device", 2, &o);
  fail_unless (o.error == NULL, "multiplanar profile: %s",
      o.error ? o.error->message : "");
  outcome_clear (&o);
}

GST_END_TEST;

static GstElement *
ready_src (const gchar * profile)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);

  g_object_set (src, "profile", profile, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  return src;
}

static guint
src_requests (GstElement * src)
{
  GstStructure *st = NULL;
  guint n = 0;

  g_object_get (src, "stats", &st, NULL);
  fail_unless (gst_structure_get_uint (st, "negotiation-requests", &n));
  gst_structure_free (st);
  return n;
}

GST_START_TEST (test_probe_lazy_and_cached)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (profiles); i++) {
    struct negcam_profile *p = load_profile (profiles[i]);
    GstElement *src = ready_src (profiles[i]);
    GstPad *pad = gst_element_get_static_pad (src, "src");
    GstCaps *all, *again;
    guint before, after;

    before = src_requests (src);
    fail_unless_equals_int (before, OPEN_REQUESTS);
    all = gst_pad_query_caps (pad, NULL);
    after = src_requests (src);
    /* Unfiltered: exactly full enumeration, plus one TRY_FMT per raw
     * format other than the default's for its field. */
    fail_unless_equals_int (after - before,
        full_enumeration_cost (p) + field_tries (p));
    /* Cached: asking again costs nothing. */
    again = gst_pad_query_caps (pad, NULL);
    fail_unless_equals_int (src_requests (src), after);
    fail_unless (gst_caps_is_equal (all, again));
    gst_caps_unref (again);
    gst_caps_unref (all);
    gst_object_unref (pad);
    gst_element_set_state (src, GST_STATE_NULL);
    gst_object_unref (src);
    g_free (p);
  }
}

GST_END_TEST;

/* A filter that fixes the format is probed by ENUM_FRAMESIZES of its
 * fourcc(s) without ENUM_FMT; the caps must be exactly those of the full
 * path (ENUM_FMT first), structure for structure and in the same order,
 * on every profile, for every test filter and a few more. */
GST_START_TEST (test_probe_lookup_same_caps)
{
  static const gchar *more[] = { "video/x-raw,format=BGRx",
    "video/x-raw,format=xRGB", "video/x-bayer", "video/x-h264",
    "video/x-raw,format=GRAY8,width=640,height=480",
    "image/jpeg,width=1920,height=1080,framerate=30/1",
    "video/x-raw,format=YUY2;video/x-raw,format=NV12",
    "video/x-raw,format=YUY2;image/jpeg",
  };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (profiles); i++) {
    struct negcam_profile *p = load_profile (profiles[i]);

    for (j = 0; j < G_N_ELEMENTS (filters) + G_N_ELEMENTS (more); j++) {
      const gchar *fs = j < G_N_ELEMENTS (filters) ? filters[j] :
          more[j - G_N_ELEMENTS (filters)];
      GstCaps *filter = gst_caps_from_string (fs);
      GstElement *a = ready_src (profiles[i]), *b = ready_src (profiles[i]);
      GstPad *pa = gst_element_get_static_pad (a, "src");
      GstPad *pb = gst_element_get_static_pad (b, "src");
      GstCaps *ca, *cb, *all;
      guint before = src_requests (a);

      ca = gst_pad_query_caps (pa, filter);
      /* b: everything enumerated first (ENUM_FMT), then the filter */
      all = gst_pad_query_caps (pb, NULL);
      cb = gst_pad_query_caps (pb, filter);
      fail_unless (gst_caps_is_strictly_equal (ca, cb),
          "%s, %s: looked up %" GST_PTR_FORMAT ", enumerated %"
          GST_PTR_FORMAT, profiles[i], fs, ca, cb);
      /* never more than the full enumeration */
      if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES))
        fail_unless (src_requests (a) - before <= full_enumeration_cost (p)
            + 4);
      gst_caps_unref (all);
      gst_caps_unref (ca);
      gst_caps_unref (cb);
      gst_caps_unref (filter);
      gst_object_unref (pa);
      gst_object_unref (pb);
      gst_element_set_state (a, GST_STATE_NULL);
      gst_element_set_state (b, GST_STATE_NULL);
      gst_object_unref (a);
      gst_object_unref (b);
    }
    g_free (p);
  }
}

GST_END_TEST;

GST_START_TEST (test_probe_uses_filter)
{
  struct negcam_profile *p = load_profile ("webcam");
  const struct negcam_format *mjpg = profile_format (p, V4L2_PIX_FMT_MJPEG);
  GstElement *src = ready_src ("webcam");
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *filter = gst_caps_from_string ("image/jpeg,width=1280,height=720");
  GstCaps *caps;
  guint before = src_requests (src);

  caps = gst_pad_query_caps (pad, filter);
  fail_unless (!gst_caps_is_empty (caps));
  /* MJPG's 1280x720 intervals (no size walk: the filter fixes the
   * size), JPEG's EINVAL to ENUM_FRAMEINTERVALS and ENUM_FRAMESIZES
   * (webcam has no JPEG): nothing of YUYV, and no ENUM_FMT walk. */
  fail_unless (profile_format (p, V4L2_PIX_FMT_JPEG) == NULL);
  fail_unless_equals_int (src_requests (src) - before,
      2 + profile_size (p, mjpg, 1280, 720)->ival_count + 1);
  gst_caps_unref (caps);
  gst_caps_unref (filter);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_free (p);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Downstream's order, live defaults, every format                     */

/* Does the profile offer @filter (a fixed size) exactly? */
static gboolean
profile_offers (const struct negcam_profile *p, const gchar * filter)
{
  GstCaps *modes = profile_modes (p), *f = gst_caps_from_string (filter);
  gboolean ret = gst_caps_can_intersect (modes, f);

  gst_caps_unref (f);
  gst_caps_unref (modes);
  return ret;
}

/* videoscale ! videoconvert before a 320x240 filter: downstream's first
 * structure is the 320x240 one, which the device has: no scaling. */
GST_START_TEST (test_downstream_prefers_videoscale)
{
  static const gchar *profs[] = { "stepwise", "webcam" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (profs); i++) {
    struct negcam_profile *p = load_profile (profs[i]);
    gchar *desc = g_strdup_printf ("negcamsrc name=src profile=%s "
        "is-live=false num-buffers=2 ! videoscale ! videoconvert ! "
        "video/x-raw,format=I420,width=320,height=240 ! fakesink", profs[i]);
    GstCaps *got;
    gint w = 0, h = 0;
    Outcome o;

    fail_unless (profile_offers (p, "video/x-raw,width=320,height=240"));
    run_launch (desc, &o);
    fail_unless (o.error == NULL, "%s: %s", profs[i],
        o.error ? o.error->message : "");
    got = outcome_caps (&o);
    gst_structure_get_int (gst_caps_get_structure (got, 0), "width", &w);
    gst_structure_get_int (gst_caps_get_structure (got, 0), "height", &h);
    fail_unless (w == 320 && h == 240, "%s: negotiated %dx%d", profs[i], w,
        h);
    gst_caps_unref (got);
    outcome_clear (&o);
    g_free (desc);
    g_free (p);
  }
}

GST_END_TEST;

/* A filter "A; B" gives A when the device can, "B; A" gives B. */
GST_START_TEST (test_downstream_order_two_structures)
{
  static const struct {
    const gchar *profile, *a, *b;
  } pairs[] = {
    {"webcam", "video/x-raw,width=320,height=240",
        "video/x-raw,width=640,height=480"},
    {"webcam", "image/jpeg", "video/x-raw"},
    {"stepwise", "video/x-raw,format=NV12", "video/x-raw,format=I420"},
    {"stepwise", "video/x-raw,width=320,height=240", "video/x-raw"},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (pairs); i++) {
    struct negcam_profile *p = load_profile (pairs[i].profile);

    for (k = 0; k < 2; k++) {
      const gchar *first = k ? pairs[i].b : pairs[i].a;
      const gchar *second = k ? pairs[i].a : pairs[i].b;
      gchar *filter = g_strdup_printf ("%s;%s", first, second);
      GstCaps *fc = gst_caps_from_string (first), *got;
      Outcome o;

      fail_unless (profile_offers (p, first), "%s", first);
      check_filter (pairs[i].profile, p, filter, "device");
      run_pipeline (pairs[i].profile, filter, "device", 1, &o);
      got = outcome_caps (&o);
      fail_unless (gst_caps_can_intersect (got, fc), "%s/%s: not %s",
          pairs[i].profile, filter, first);
      gst_caps_unref (got);
      outcome_clear (&o);
      gst_caps_unref (fc);
      g_free (filter);
    }
    g_free (p);
  }
}

GST_END_TEST;

/* negcamsrc's answer to a caps query (no filter) in READY, as the
 * element with @profile and @prefer. */
static GstCaps *
caps_answer (const gchar * profile, const gchar * prefer)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);

  fail_unless (src != NULL);
  gst_util_set_object_arg (G_OBJECT (src), "profile", profile);
  gst_util_set_object_arg (G_OBJECT (src), "prefer", prefer);
  return ready_caps (src);
}

/* Does structure @j of @caps hold the mode of @mode? */
static gboolean
structure_holds (GstCaps * caps, guint j, GstCaps * mode)
{
  GstCaps *one = gst_caps_copy_nth (caps, j);
  gboolean ret = gst_caps_can_intersect (one, mode);

  gst_caps_unref (one);
  return ret;
}

/* The structures of @ans after the first @from are in @prefer's order:
 * no structure's best point beats the one before it (the oracle's). */
static void
check_ranked (const gchar * name, const struct negcam_profile *p,
    const gchar * prefer, GstCaps * ans, guint from)
{
  gint n, d;
  guint j;

  profile_live_rate (p, &n, &d);
  for (j = from + 1; j < gst_caps_get_size (ans); j++) {
    GstStructure *a = fixate_for (prefer, n, d,
        gst_caps_get_structure (ans, j - 1));
    GstStructure *c = fixate_for (prefer, n, d,
        gst_caps_get_structure (ans, j));

    fail_if (better (prefer, n, d, c, a) > 0, "%s, prefer=%s: %"
        GST_PTR_FORMAT " after %" GST_PTR_FORMAT, name, prefer, c, a);
    gst_structure_free (a);
    gst_structure_free (c);
  }
}

/* GStreamer reads caps order as preference: a caps query answers in
 * negcamsrc's own order (docs/negcamsrc.md, "Caps order"). For every
 * built-in profile and preference: under prefer=device the structures
 * holding the default mode lead and no other holds it; the others follow
 * the ranking. And a peer that hands the answer back as its caps, as
 * camerabin's wrappercamerabinsrc does through a capsfilter, gets
 * negcamsrc's own choice among all the modes, not the first size the
 * device lists (webcam's 160x120 before the answer was ordered). */
GST_START_TEST (test_caps_answer_in_preference_order)
{
  static const gchar *prefs[] = { "device", "resolution", "framerate",
    "raw", "compressed"
  };
  const struct negcam_builtin *b;
  guint i, k, j, lead;

  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    struct negcam_profile *p = load_profile (b->name);
    GstCaps *dc = gst_caps_new_full (default_structure (p), NULL);
    GstCaps *modes = profile_modes (p);

    for (k = 0; k < G_N_ELEMENTS (prefs); k++) {
      GstCaps *ans = caps_answer (b->name, prefs[k]);
      gchar *filter = gst_caps_to_string (ans);

      fail_if (gst_caps_is_empty (ans), "%s: no caps", b->name);
      lead = 0;
      if (!g_strcmp0 (prefs[k], "device")) {
        while (lead < gst_caps_get_size (ans)
            && structure_holds (ans, lead, dc))
          lead++;
        fail_unless (lead > 0, "%s: %" GST_PTR_FORMAT " first, not the "
            "default mode %" GST_PTR_FORMAT, b->name,
            gst_caps_get_structure (ans, 0), dc);
        for (j = lead; j < gst_caps_get_size (ans); j++)
          fail_if (structure_holds (ans, j, dc), "%s: default mode again "
              "in structure %u", b->name, j);
      }
      check_ranked (b->name, p, prefs[k], ans, lead);
      /* Without ENUM_FRAMESIZES a format is "any size" and TRY_FMT picks
       * one: the oracle has no sizes to choose from (as in
       * test_filters_every_profile). */
      if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES))
        check_filter_gives (b->name, filter, prefs[k],
            expected_within (p, modes, ans, prefs[k]));
      g_free (filter);
      gst_caps_unref (ans);
    }
    gst_caps_unref (modes);
    gst_caps_unref (dc);
    g_free (p);
  }
}

GST_END_TEST;

/* A filtered caps query answers in the filter's order, as GStreamer's
 * base classes do (GST_CAPS_INTERSECT_FIRST): the caller's preference
 * leads, ours only orders what each filter structure leaves. Asked with
 * its own answer reversed, negcamsrc puts its least preferred structure
 * first; before, it kept its own order whatever the filter said. */
GST_START_TEST (test_filtered_caps_keep_filter_order)
{
  const struct negcam_builtin *b;
  guint i, j, n, disjoint = 0;

  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    GstCaps *ans = caps_answer (b->name, "device");
    GstCaps *rev = gst_caps_new_empty ();
    GstCaps *got, *head, *want;
    GstElement *src;

    n = gst_caps_get_size (ans);
    if (n < 2) {
      gst_caps_unref (ans);
      gst_caps_unref (rev);
      continue;
    }
    for (j = n; j-- > 0;)
      gst_caps_append (rev, gst_caps_copy_nth (ans, j));
    src = gst_element_factory_make ("negcamsrc", NULL);
    g_object_set (src, "profile", b->name, NULL);
    got = ready_caps_filtered (src, rev);
    fail_if (gst_caps_is_empty (got), "%s: nothing within its own caps",
        b->name);
    head = gst_caps_copy_nth (got, 0);
    want = gst_caps_copy_nth (rev, 0);
    if (!gst_caps_is_subset (head, want)) {
      gchar *h = gst_caps_to_string (head), *w = gst_caps_to_string (want);

      fail ("%s: %s first, not within the filter's first %s", b->name, h, w);
    }
    /* Where our first and last structures share no mode, the old answer
     * (ours first) cannot pass the check above. */
    if (!structure_holds (ans, 0, want))
      disjoint++;
    fail_unless (gst_caps_is_equal (got, ans), "%s: the filter lost modes",
        b->name);
    gst_caps_unref (head);
    gst_caps_unref (want);
    gst_caps_unref (got);
    gst_caps_unref (rev);
    gst_caps_unref (ans);
  }
  fail_unless (disjoint > 0, "no profile tells the two orders apart");
}

GST_END_TEST;

/* The highest rate any raw mode of @p has, as a fraction; FALSE: none. */
static gboolean
max_raw_rate (const struct negcam_profile *p, gint * n, gint * d)
{
  GstCaps *modes = profile_modes (p);
  GstCaps *raw_only = gst_caps_from_string ("video/x-raw");
  GstCaps *raw = gst_caps_intersect (modes, raw_only);
  guint i;

  *n = 0, *d = 1;
  for (i = 0; i < gst_caps_get_size (raw); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (raw, i));
    gint sn, sd;

    gst_structure_fixate_field_nearest_fraction (s, "framerate", G_MAXINT, 1);
    gst_structure_get_fraction (s, "framerate", &sn, &sd);
    if (gst_util_fraction_compare (sn, sd, *n, *d) > 0)
      *n = sn, *d = sd;
    gst_structure_free (s);
  }
  i = gst_caps_get_size (raw);
  gst_caps_unref (raw);
  gst_caps_unref (raw_only);
  gst_caps_unref (modes);
  return i > 0;
}

/* What a camera app does (videoconvert, any raw size): every built-in
 * profile streams at 15 fps or more wherever it has such a raw mode (at
 * its best raw rate otherwise), and at the documented choice. */
GST_START_TEST (test_raw_only_live_rate)
{
  const struct negcam_builtin *b;
  guint i;

  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    struct negcam_profile *p = load_profile (b->name);
    gchar *desc = g_strdup_printf ("negcamsrc name=src profile=%s "
        "is-live=false num-buffers=2 ! videoconvert ! fakesink", b->name);
    GstCaps *rawf = gst_caps_from_string ("video/x-raw");
    GstStructure *want = expected_mode (p, rawf, "device");
    gint mn, md, n = 0, d = 1, fn = 15, fd = 1;
    GstCaps *got;
    Outcome o;

    run_launch (desc, &o);
    if (!max_raw_rate (p, &mn, &md)) {
      fail_unless (o.error != NULL, "%s has no raw mode", b->name);
      fail_unless (want == NULL);
    } else {
      fail_unless (o.error == NULL, "%s: %s", b->name, o.error->message);
      got = outcome_caps (&o);
      gst_structure_get_fraction (gst_caps_get_structure (got, 0),
          "framerate", &n, &d);
      if (gst_util_fraction_compare (mn, md, fn, fd) < 0)
        fn = mn, fd = md;
      GST_INFO ("%s, raw-only downstream: %" GST_PTR_FORMAT, b->name, got);
      fail_unless (gst_util_fraction_compare (n, d, fn, fd) >= 0,
          "%s: %d/%d fps, below %d/%d although a raw mode has %d/%d",
          b->name, n, d, fn, fd, mn, md);
      gst_caps_unref (got);
      outcome_clear (&o);
      gst_structure_free (want);
      /* and exactly the documented choice */
      check_filter (b->name, p, "video/x-raw", "device");
    }
    outcome_clear (&o);
    gst_caps_unref (rawf);
    g_free (desc);
    g_free (p);
  }
}

GST_END_TEST;

/* Negotiate every capture format of @p (profile @name) with a filter that
 * names only that format. */
static void
check_every_format (const gchar * name, const struct negcam_profile *p)
{
  guint i;

  for (i = 0; i < p->nformats; i++) {
    const struct negcam_format *f = &p->formats[i];
    GstStructure *s;
    gchar *filter, fcc[5];
    const gchar *got;
    Outcome o;

    if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
      continue;
    s = test_fourcc_structure (f->fourcc);
    filter = gst_structure_to_string (s);
    run_pipeline (name, filter, "device", 1, &o);
    fail_unless (o.error == NULL, "%s, %s: %s", name, filter,
        o.error ? o.error->message : "");
    got = gst_structure_get_string (o.msg, "fourcc");
    negcam_fourcc_str (f->fourcc, fcc);
    fail_unless (!g_strcmp0 (got, fcc), "%s, %s: got %s", name, filter, got);
    outcome_clear (&o);
    g_free (filter);
    gst_structure_free (s);
  }
}

/* Every format negotiates when the filter names only it: every built-in
 * profile, and the example profile, whose UYVY is interlaced while the
 * default (YUYV) is progressive (the field is probed per format). */
GST_START_TEST (test_every_format_negotiates)
{
  const gchar *example = NEGCAM_SOURCE_ROOT "/tests/engine/profiles/example.profile";
  const struct negcam_builtin *b;
  struct negcam_profile *p;
  guint i;

  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    p = load_profile (b->name);
    check_every_format (b->name, p);
    g_free (p);
  }
  p = load_profile_file (example);
  check_every_format (example, p);
  g_free (p);
}

GST_END_TEST;

/* Errors name fields in words: a field the device refuses (example.profile
 * is legacy-einval: EINVAL for an impossible field). */
GST_START_TEST (test_field_error_in_words)
{
  const gchar *example = NEGCAM_SOURCE_ROOT "/tests/engine/profiles/example.profile";
  Outcome o;

  run_pipeline (example, "video/x-raw,format=UYVY,interlace-mode=interleaved,"
      "field-order=top-field-first", "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (strstr (o.error->message, "interlaced-tb")
      && !strstr (o.error->message, "field 8"), "%s", o.error->message);
  outcome_clear (&o);
}

GST_END_TEST;

/* A profile shaped like vivid's webcam input: many formats, six sizes,
 * up to twelve rates per size. */
static gchar *
write_many_formats_profile (void)
{
  static const gchar *fourccs[] = { "YUYV", "UYVY", "YVYU", "VYUY", "NV12",
    "NV21", "NV16", "NV61", "YU12", "YV12", "RGB3", "BGR3", "GREY", "422P"
  };
  static const gchar *sizes[] = { "320x180", "640x360", "640x480",
    "1280x720", "1920x1080", "3840x2160"
  };
  static const gchar *rates = "60 50 40 30 25 20 15 10 5 4 2 1";
  GString *t = g_string_new ("name many\ndefault YUYV 640x480 fps 30\n");
  gchar *path = NULL;
  guint i, j;
  gint fd = g_file_open_tmp ("negcam-many-XXXXXX.profile", &path, NULL);

  for (i = 0; i < G_N_ELEMENTS (fourccs); i++) {
    g_string_append_printf (t, "format %s\n", fourccs[i]);
    for (j = 0; j < G_N_ELEMENTS (sizes); j++)
      /* the larger, the fewer rates: 12, 10, ... 2 */
      g_string_append_printf (t, "  size %s fps %.*s\n", sizes[j],
          (gint) (strlen (rates) - 6 * j), rates);
  }
  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, t->str, -1, NULL));
  g_string_free (t, TRUE);
  return path;
}

/* A filter nothing matches costs formats and sizes for the error
 * message, not intervals: at most a fifth of full enumeration. */
GST_START_TEST (test_unmatched_filter_cost)
{
  gchar *path = write_many_formats_profile ();
  GstElement *src = ready_src (path);
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *all;
  guint before = src_requests (src), full;
  Outcome o;

  all = gst_pad_query_caps (pad, NULL);
  full = src_requests (src) - before;
  gst_caps_unref (all);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);

  run_pipeline (path, "image/jpeg", "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (strstr (o.error->message, "YUY2 320x180 to 3840x2160"), "%s",
      o.error->message);
  GST_INFO ("unmatched filter: %u requests; full enumeration %u", o.requests,
      full);
  fail_unless (o.requests * 5 <= full, "%u requests, more than a fifth of "
      "full enumeration (%u)", o.requests, full);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Errors                                                              */

GST_START_TEST (test_impossible_caps_lists_offers)
{
  Outcome o;

  run_pipeline ("webcam", "video/x-raw,format=RGB", "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (o.debug && strstr (o.debug, "offers"), "%s", o.debug);
  fail_unless (strstr (o.debug, "YUY2") && strstr (o.debug, "image/jpeg"),
      "%s", o.debug);
  outcome_clear (&o);
}

GST_END_TEST;

static GstMessage *
error_at_ready (GstElement * src)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *m;

  gst_element_set_bus (src, bus);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error on the bus before PAUSED");
  gst_element_set_bus (src, NULL);
  gst_object_unref (bus);
  return m;
}

GST_START_TEST (test_malformed_profile)
{
  /* Line 3 has a bad size; the expected place comes from the parser. */
  const gchar *text = "name broken\nformat YUYV\n  size 640xfoo fps 30\n";
  struct negcam_profile *p = g_malloc0 (sizeof (*p));
  struct negcam_parse_error perr;
  gchar *path = NULL, *where;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);
  GstMessage *m;
  GError *err = NULL;

  fail_unless (fd >= 0);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  close (fd);
  fail_unless (negcam_profile_parse (p, text, strlen (text), &perr) < 0);
  fail_unless_equals_int (perr.line, 3);

  g_object_set (src, "profile", path, NULL);
  m = error_at_ready (src);
  gst_message_parse_error (m, &err, NULL);
  where = g_strdup_printf ("%s:%u:%u: ", path, perr.line, perr.column);
  fail_unless (strstr (err->message, where), "'%s' lacks '%s'", err->message,
      where);
  fail_unless (strstr (err->message, perr.message), "%s", err->message);
  g_free (where);
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_unlink (path);
  g_free (path);
  g_free (p);
}

GST_END_TEST;

GST_START_TEST (test_missing_profile)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);
  GstMessage *m;
  GError *err = NULL;

  g_object_set (src, "profile", "/nonexistent/cam.profile", NULL);
  m = error_at_ready (src);
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, "/nonexistent/cam.profile"), "%s",
      err->message);
  fail_unless (strstr (err->message, "webcam"), "built-ins not listed: %s",
      err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_device_path_missing)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);
  GstMessage *m;
  GError *err = NULL;

  g_object_set (src, "device", "/nonexistent/video9", NULL);
  m = error_at_ready (src);
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, "/nonexistent/video9")
      && strstr (err->message, "cannot open"), "%s", err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_adjust_refused_names_field)
{
  Outcome o;

  /* tv-tuner cannot enumerate sizes: 400x296 is asked, TRY_FMT answers
   * 720x480 (the smallest), which the filter excludes. */
  run_pipeline ("tv-tuner", "video/x-raw,width=[100,400],height=[100,300]",
      "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (g_error_matches (o.error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", o.error->message);
  fail_unless (strstr (o.error->message, "width")
      && strstr (o.error->message, "asked 400")
      && strstr (o.error->message, "offered 720"), "%s", o.error->message);
  outcome_clear (&o);
}

GST_END_TEST;

GST_START_TEST (test_adjust_refixates)
{
  Outcome o;
  gchar *adjusted = NULL;

  /* prefer=resolution on tv-tuner: the largest size is asked, the
   * device answers 720x576, the caps allow it: re-fixated. */
  run_pipeline ("tv-tuner", "video/x-raw", "resolution", 1, &o);
  fail_unless (o.error == NULL, "%s", o.error ? o.error->message : "");
  fail_unless_equals_int (count_of (o.msg, "width"), 720);
  fail_unless_equals_int (count_of (o.msg, "height"), 576);
  adjusted = g_strdup (gst_structure_get_string (o.msg, "adjusted"));
  fail_unless (adjusted && strstr (adjusted, "width"), "%s", adjusted);
  g_free (adjusted);
  outcome_clear (&o);
}

GST_END_TEST;

GST_START_TEST (test_colorimetry_from_device)
{
  static const struct
  {
    const gchar *profile;
    GstVideoColorPrimaries primaries;
    GstVideoTransferFunction transfer;
  } cases[] = {
    {"webcam", GST_VIDEO_COLOR_PRIMARIES_BT709, GST_VIDEO_TRANSFER_SRGB},
    {"stepwise", GST_VIDEO_COLOR_PRIMARIES_BT709, GST_VIDEO_TRANSFER_BT709},
    {"tv-tuner", GST_VIDEO_COLOR_PRIMARIES_SMPTE170M,
        GST_VIDEO_TRANSFER_BT709},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    Outcome o;
    GstCaps *caps;
    GstVideoColorimetry c;
    const gchar *str;

    run_pipeline (cases[i].profile, "video/x-raw", "device", 1, &o);
    fail_unless (o.error == NULL);
    caps = outcome_caps (&o);
    str = gst_structure_get_string (gst_caps_get_structure (caps, 0),
        "colorimetry");
    fail_unless (str && gst_video_colorimetry_from_string (&c, str), "%s",
        str);
    fail_unless_equals_int (c.primaries, cases[i].primaries);
    fail_unless_equals_int (c.transfer, cases[i].transfer);
    fail_unless_equals_int (c.range, GST_VIDEO_COLOR_RANGE_16_235);
    gst_caps_unref (caps);
    outcome_clear (&o);
  }
}

GST_END_TEST;

GST_START_TEST (test_undrawable_format_is_an_error)
{
  /* H.264 at an odd size negotiates (the engine knows it) but the frame
   * generator cannot draw it (4:2:0 H.264 cannot crop to an odd size):
   * the device flags every buffer; the element says so instead of
   * pushing garbage forever. */
  const gchar *text = "name h264\nformat H264\n  size 321x241 fps 30\n";
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);
  Outcome o;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  run_pipeline (path, "video/x-h264", "device", 10, &o);
  fail_unless (o.msg != NULL, "negotiation should succeed");
  fail_unless (o.error != NULL);
  fail_unless (g_error_matches (o.error, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FAILED), "%s", o.error->message);
  fail_unless (strstr (o.error->message, "H264"), "%s", o.error->message);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_colorimetry_refused_names_field)
{
  Outcome o;

  /* webcam YUYV is sRGB (bt709 primaries, sRGB transfer), not bt601 */
  run_pipeline ("webcam", "video/x-raw,colorimetry=bt601", "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (strstr (o.error->message, "colorimetry"), "%s",
      o.error->message);
  fail_unless (strstr (o.error->message, "bt601"), "%s", o.error->message);
  outcome_clear (&o);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Frames                                                              */

/* Pull @n frames through videoconvert to GRAY8 and read the stamps. */
static void
check_stamps (const gchar * profile, const gchar * filter, gboolean jpeg,
    guint n)
{
  gchar *desc = g_strdup_printf ("negcamsrc profile=%s is-live=false "
      "num-buffers=%u ! %s ! %s videoconvert ! video/x-raw,format=GRAY8 ! "
      "appsink name=sink sync=false", profile, n, filter,
      jpeg ? "jpegdec !" : "");
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink;
  guint i;

  fail_unless (pipe != NULL, "%s", desc);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < n; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    GstVideoInfo info;
    GstVideoFrame f;
    GstBuffer *b;
    long stamp;

    fail_unless (s != NULL, "%s: frame %u missing", desc, i);
    b = gst_sample_get_buffer (s);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
    fail_unless (gst_video_frame_map (&f, &info, b, GST_MAP_READ));
    stamp = negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA (&f, 0), 1,
        GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), GST_VIDEO_FRAME_WIDTH (&f),
        GST_VIDEO_FRAME_HEIGHT (&f));
    gst_video_frame_unmap (&f);
    /* Non-live, nothing dropped: frame i is device frame i (decoders do
     * not keep buffer offsets, so compare with the count). */
    if (!jpeg)
      fail_unless_equals_int64 (GST_BUFFER_OFFSET (b), i);
    fail_unless_equals_int64 (stamp, i);
    gst_sample_unref (s);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_START_TEST (test_frames_stamped_raw)
{
  check_stamps ("webcam", "video/x-raw,format=YUY2,width=320,height=240",
      FALSE, 12);
  check_stamps ("vga", "video/x-raw", FALSE, 6);
  check_stamps ("stepwise", "video/x-raw,format=NV12,width=640,height=480",
      FALSE, 6);
  check_stamps ("stepwise", "video/x-raw,format=I420,width=320,height=240",
      FALSE, 6);
  check_stamps ("tv-tuner", "video/x-raw", FALSE, 6);
}

GST_END_TEST;

/* The first frame of one NULL->PLAYING run, copied out. */
static GstBuffer *
first_frame (const gchar * caps)
{
  gchar *desc = g_strdup_printf ("negcamsrc profile=webcam is-live=false "
      "num-buffers=1 ! %s ! appsink name=sink sync=false", caps);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstSample *s;
  GstBuffer *b;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  fail_unless (s != NULL, "%s: no frame", desc);
  b = gst_buffer_copy_deep (gst_sample_get_buffer (s));
  gst_sample_unref (s);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  return b;
}

/* A downstream that offers its own pool in the ALLOCATION query (as
 * negcamsink offers its device buffers): a probe on the harness's sink
 * pad adds @data, a GstVideoBufferPool, before the harness answers. */
static GstPadProbeReturn
offer_pool_probe (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);
  GstVideoInfo vinfo;
  GstCaps *caps = NULL;

  if (GST_QUERY_TYPE (q) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (q, &caps, NULL);
  fail_unless (caps && gst_video_info_from_caps (&vinfo, caps));
  gst_query_add_allocation_pool (q, data, vinfo.size, 4, 4);
  return GST_PAD_PROBE_OK;
}

/* A non-live negcamsrc playing 320x240 YUY2 into a harness whose sink
 * pad offers @pool (offer_pool_probe). */
static GstHarness *
harness_offering (GstBufferPool *pool)
{
  GstHarness *h = gst_harness_new ("negcamsrc");

  g_object_set (h->element, "is-live", FALSE, "pattern", 2 /* solid */,
      NULL);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      offer_pool_probe, pool, NULL);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1");
  gst_harness_play (h);
  return h;
}

/* Issue 12: with downstream's pool offered, the embedded device draws
 * each frame straight into downstream's buffers: no copy in user space
 * (negcamsrc's copies stay 0, the buffers are the offered pool's, which
 * negcamsink would queue as they are), and each buffer holds the frame
 * its offset names, stamp read back (docs/frames.md). */
GST_START_TEST (test_draws_into_downstream_pool)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstHarness *h = harness_offering (pool);
  guint64 copies = 1;
  guint i;

  for (i = 0; i < 10; i++) {
    GstBuffer *b = gst_harness_pull (h);
    GstMapInfo m;

    fail_unless (b != NULL);
    fail_unless (b->pool == pool, "frame %u is not in downstream's pool", i);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (b), i);
    fail_unless (gst_buffer_map (b, &m, GST_MAP_READ));
    fail_unless_equals_uint64 (m.size, 320 * 240 * 2);
    fail_unless_equals_int64 (negcam_stamp_read (m.data, 2, 640, 320, 240), i);
    gst_buffer_unmap (b, &m);
    gst_buffer_unref (b);
  }
  g_object_get (h->element, "copies", &copies, NULL);
  fail_unless_equals_uint64 (copies, 0);
  gst_harness_teardown (h);
  gst_object_unref (pool);
}

GST_END_TEST;

/* Downstream's pool goes away (downstream renegotiated and deactivated
 * it): the frames continue in negcamsrc's own buffers, numbers in order. */
GST_START_TEST (test_downstream_pool_deactivated)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstHarness *h = harness_offering (pool);
  GstBuffer *buf0 = gst_harness_pull (h);
  gboolean own = FALSE;
  guint i;

  /* negotiated, the pool active: now take it away (the source may wait in
   * acquire, the harness holding the pool's 4 buffers) */
  fail_unless (buf0->pool == pool);
  gst_buffer_unref (buf0);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  for (i = 1; i < 20; i++) {
    GstBuffer *b = gst_harness_pull (h);

    fail_unless (b != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (b), i);
    if (b->pool != pool)
      own = TRUE;
    else
      fail_if (own, "frame %u back in the inactive pool", i);
    gst_buffer_unref (b);
  }
  fail_unless (own, "still drawing into an inactive pool");
  gst_harness_teardown (h);
  gst_object_unref (pool);
}

GST_END_TEST;

/* Issue 16 item 4: the scene follows device time, so two streams (two
 * stills of a camera app) are different pictures, while each stream's
 * first frame is still stamped 0. */
GST_START_TEST (test_frames_scene_moves_across_streams)
{
  GstBuffer *a, *b;
  GstMapInfo ma, mb;

  a = first_frame ("video/x-raw,format=YUY2,width=320,height=240");
  g_usleep (200 * G_TIME_SPAN_MILLISECOND);  /* 6 scene ticks */
  b = first_frame ("video/x-raw,format=YUY2,width=320,height=240");
  fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
  fail_unless_equals_int64 (negcam_stamp_read (ma.data, 2, 640, 320, 240), 0);
  fail_unless_equals_int64 (negcam_stamp_read (mb.data, 2, 640, 320, 240), 0);
  fail_unless_equals_uint64 (ma.size, mb.size);
  fail_unless (memcmp (ma.data, mb.data, ma.size) != 0,
      "two streams start with the same picture");
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
}

GST_END_TEST;

GST_START_TEST (test_frames_mjpg_decode)
{
  check_stamps ("webcam", "image/jpeg,width=640,height=480", TRUE, 8);
  check_stamps ("webcam", "image/jpeg,width=1280,height=720", TRUE, 3);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Renegotiation                                                       */

typedef struct {
  GMutex lock;
  GstVideoInfo info;
  gboolean have_caps, is_jpeg;
  guint caps_events, buffers, bad;
} OrderLog;

static GstPadProbeReturn
order_probe (GstPad * pad, GstPadProbeInfo * pi, gpointer data)
{
  OrderLog *log = data;

  g_mutex_lock (&log->lock);
  if (GST_PAD_PROBE_INFO_TYPE (pi) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER (pi);
    gsize size = gst_buffer_get_size (b);

    log->buffers++;
    if (!log->have_caps)
      log->bad++;
    else if (log->is_jpeg) {
      guint8 head[2] = { 0, };
      gst_buffer_extract (b, 0, head, 2);
      if (head[0] != 0xff || head[1] != 0xd8)
        log->bad++;
    } else if (size < log->info.size
        && !gst_buffer_get_video_meta (b)) {
      log->bad++;
    } else {
      GstVideoMeta *m = gst_buffer_get_video_meta (b);
      if (m && (m->width != (guint) GST_VIDEO_INFO_WIDTH (&log->info)
              || m->height != (guint) GST_VIDEO_INFO_HEIGHT (&log->info)))
        log->bad++;
      if (!m && size != log->info.size)
        log->bad++;
    }
  } else {
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT (pi);
    if (GST_EVENT_TYPE (e) == GST_EVENT_CAPS) {
      GstCaps *caps;
      gst_event_parse_caps (e, &caps);
      log->caps_events++;
      log->have_caps = TRUE;
      log->is_jpeg = gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "image/jpeg");
      if (!log->is_jpeg)
        fail_unless (gst_video_info_from_caps (&log->info, caps));
    }
  }
  g_mutex_unlock (&log->lock);
  return GST_PAD_PROBE_OK;
}

static gboolean
buffer_fits (GstBuffer * b, GstCaps * caps)
{
  GstVideoInfo info;
  GstVideoMeta *m = gst_buffer_get_video_meta (b);

  if (gst_structure_has_name (gst_caps_get_structure (caps, 0), "image/jpeg"))
    return TRUE;
  gst_video_info_from_caps (&info, caps);
  if (m)
    return m->width == (guint) info.width && m->height == (guint) info.height;
  return gst_buffer_get_size (b) == info.size;
}

GST_START_TEST (test_renegotiate_harness)
{
  static const gchar *seq[] = {
    "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1",
    "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1",
    "image/jpeg,width=640,height=360,framerate=30/1",
    "video/x-raw,format=YUY2,width=160,height=120,framerate=5/1",
    "image/jpeg,width=1280,height=720,framerate=24/1",
    "video/x-raw,format=YUY2,width=176,height=144,framerate=10/1",
  };
  GstHarness *h = gst_harness_new ("negcamsrc");
  OrderLog log = { 0, };
  GstStructure *st = NULL;
  guint i, negotiations = 0;

  g_object_set (h->element, "is-live", FALSE, NULL);
  g_mutex_init (&log.lock);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, order_probe, &log, NULL);
  gst_harness_set_sink_caps_str (h, seq[0]);
  gst_harness_play (h);
  for (i = 0; i < 24; i++) {
    const gchar *want = seq[i % G_N_ELEMENTS (seq)];
    GstCaps *wcaps = gst_caps_from_string (want);
    guint pulls = 0;

    gst_harness_set_sink_caps_str (h, want);
    /* Buffers of the old format may still be queued in the harness; the
     * probe checks they came before the new caps event. */
    for (;;) {
      GstBuffer *b = gst_harness_pull (h);
      GstCaps *cur = gst_pad_get_current_caps (h->sinkpad);
      gboolean now = cur && gst_caps_is_subset (cur, wcaps);

      fail_unless (b != NULL);
      pulls++;
      if (now && buffer_fits (b, cur)) {
        gst_buffer_unref (b);
        gst_caps_unref (cur);
        break;
      }
      gst_buffer_unref (b);
      if (cur)
        gst_caps_unref (cur);
      fail_unless (pulls < 64, "never got %s", want);
    }
    gst_caps_unref (wcaps);
  }
  g_object_get (h->element, "stats", &st, NULL);
  gst_structure_get_uint (st, "negotiations", &negotiations);
  fail_unless (negotiations >= 24, "%u negotiations", negotiations);
  gst_structure_free (st);
  gst_harness_teardown (h);

  fail_unless (log.caps_events >= 24);
  fail_unless (log.buffers > 0);
  fail_unless_equals_int (log.bad, 0);
  g_mutex_clear (&log.lock);
}

GST_END_TEST;

GST_START_TEST (test_renegotiate_harness_live)
{
  /* The same in live mode on a test clock: each frame is released by a
   * crank, no sleeping. */
  static const gchar *seq[] = {
    "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1",
    "image/jpeg,width=640,height=480,framerate=15/1",
    "video/x-raw,format=YUY2,width=160,height=120,framerate=10/1",
  };
  GstHarness *h = gst_harness_new ("negcamsrc");
  OrderLog log = { 0, };
  guint i;

  g_mutex_init (&log.lock);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, order_probe, &log, NULL);
  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h, seq[0]);
  gst_harness_play (h);
  for (i = 0; i < 21; i++) {
    const gchar *want = seq[i % G_N_ELEMENTS (seq)];
    GstCaps *wcaps = gst_caps_from_string (want);
    guint pulls = 0;

    gst_harness_set_sink_caps_str (h, want);
    for (;;) {
      GstBuffer *b;
      GstCaps *cur;
      gboolean now;

      fail_unless (gst_harness_crank_single_clock_wait (h));
      b = gst_harness_pull (h);
      fail_unless (b != NULL);
      cur = gst_pad_get_current_caps (h->sinkpad);
      now = cur && gst_caps_is_subset (cur, wcaps) && buffer_fits (b, cur);
      gst_buffer_unref (b);
      gst_clear_caps (&cur);
      if (now)
        break;
      fail_unless (++pulls < 16, "never got %s", want);
    }
    gst_caps_unref (wcaps);
  }
  gst_harness_teardown (h);
  fail_unless (log.caps_events >= 21);
  fail_unless_equals_int (log.bad, 0);
  g_mutex_clear (&log.lock);
}

GST_END_TEST;

GST_START_TEST (test_renegotiate_pipeline_stamps)
{
  /* Change a capsfilter 20 times while PLAYING; every frame after a caps
   * change has the new size and a readable frame number. */
  static const gchar *sizes[] = { "320,height=240", "640,height=480",
    "160,height=120", "352,height=288", "640,height=360"
  };
  GstElement *pipe = gst_parse_launch ("negcamsrc is-live=false ! "
      "capsfilter name=cf caps=video/x-raw,format=YUY2,width=320,height=240 ! "
      "videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink "
      "sync=false max-buffers=2", NULL);
  GstElement *cf = gst_bin_get_by_name (GST_BIN (pipe), "cf");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  guint i;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 20; i++) {
    gchar *str = g_strdup_printf ("video/x-raw,format=YUY2,width=%s",
        sizes[i % G_N_ELEMENTS (sizes)]);
    GstCaps *c = gst_caps_from_string (str);
    gint w, h, tries = 0;

    gst_structure_get_int (gst_caps_get_structure (c, 0), "width", &w);
    gst_structure_get_int (gst_caps_get_structure (c, 0), "height", &h);
    g_object_set (cf, "caps", c, NULL);
    for (;;) {
      GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          20 * GST_SECOND);
      GstVideoInfo info;
      GstVideoFrame f;
      long stamp;
      gboolean match;

      fail_unless (s != NULL);
      gst_video_info_from_caps (&info, gst_sample_get_caps (s));
      fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
              GST_MAP_READ));
      stamp = negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA (&f, 0), 1,
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), info.width, info.height);
      fail_unless_equals_int64 (stamp,
          (long) GST_BUFFER_OFFSET (gst_sample_get_buffer (s)));
      gst_video_frame_unmap (&f);
      match = info.width == (gint) w && info.height == (gint) h;
      gst_sample_unref (s);
      if (match)
        break;
      fail_unless (++tries < 32);
    }
    gst_caps_unref (c);
    g_free (str);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (cf);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Live mode, timestamps, drops, latency, pool                         */

#define FRAME_30 (GST_SECOND / 30)

GST_START_TEST (test_live_timestamps_testclock)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstClockTime pts0 = GST_CLOCK_TIME_NONE;
  guint i;

  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=YUY2,width=160,height=120,framerate=30/1");
  gst_harness_play (h);
  for (i = 0; i < 10; i++) {
    GstBuffer *b;

    /* The test clock releases every frame time, the first one too. */
    fail_unless (gst_harness_crank_single_clock_wait (h));
    b = gst_harness_pull (h);
    fail_unless (b != NULL);
    if (i == 0)
      pts0 = GST_BUFFER_PTS (b);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b),
        pts0 + i * gst_util_uint64_scale (GST_SECOND, 1, 30));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b),
        gst_util_uint64_scale (GST_SECOND, 1, 30));
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (b), i);
    gst_buffer_unref (b);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Live mode allocates nothing per frame: the clock wait re-arms one
 * GstClockID (counted in stats as clock-ids) instead of making one per
 * frame. Frames are released by the test clock, so no timing is assumed. */
GST_START_TEST (test_live_one_clock_id)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstStructure *st = NULL;
  guint i, ids = 0, metas = 1;
  guint64 frames = 0;

  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=YUY2,width=160,height=120,framerate=30/1");
  gst_harness_play (h);
  for (i = 0; i < 200; i++) {
    fail_unless (gst_harness_crank_single_clock_wait (h));
    gst_buffer_unref (gst_harness_pull (h));
  }
  g_object_get (h->element, "stats", &st, NULL);
  fail_unless (gst_structure_get_uint64 (st, "frames", &frames));
  fail_unless (gst_structure_get_uint (st, "clock-ids", &ids));
  fail_unless (gst_structure_get_uint (st, "reference-metas", &metas));
  fail_unless (frames >= 200);
  /* one id for the stream (at most one more if the clock changed) */
  fail_unless (ids >= 1 && ids <= 2, "%u clock ids for %" G_GUINT64_FORMAT
      " frames", ids, frames);
  /* the embedded device gives no driver timestamp */
  fail_unless_equals_int (metas, 0);
  gst_structure_free (st);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_live_drop_not_copy)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstBus *bus = gst_bus_new ();
  GstBuffer *held[3];
  GstStructure *st = NULL;
  GstMessage *m;
  guint64 drops = 0, lost = 0, copies = 1, processed = 0, dropped = 0;
  GstFormat fmt;
  GstBuffer *b;
  guint i;

  g_object_set (h->element, "queue-size", 3, NULL);
  gst_element_set_bus (h->element, bus);
  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=YUY2,width=160,height=120,framerate=30/1");
  gst_harness_play (h);
  /* Downstream keeps every buffer of the pool. */
  for (i = 0; i < 3; i++) {
    fail_unless (gst_harness_crank_single_clock_wait (h));
    held[i] = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (held[i]), i);
  }
  /* Two more frame times with no free buffer: two frames dropped. */
  fail_unless (gst_harness_crank_single_clock_wait (h));
  fail_unless (gst_harness_crank_single_clock_wait (h));
  /* the source waits for frame 5 before downstream lets go */
  fail_unless (gst_harness_wait_for_clock_id_waits (h, 1, 10));
  for (i = 0; i < 3; i++)
    gst_buffer_unref (held[i]);
  fail_unless (gst_harness_crank_single_clock_wait (h));
  b = gst_harness_pull (h);
  /* frames 3 and 4 were lost; this is 5 */
  fail_unless (GST_BUFFER_OFFSET (b) >= 5, "offset %" G_GUINT64_FORMAT,
      GST_BUFFER_OFFSET (b));
  fail_unless (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DISCONT));
  gst_buffer_unref (b);

  g_object_get (h->element, "stats", &st, NULL);
  gst_structure_get_uint64 (st, "drops", &drops);
  gst_structure_get_uint64 (st, "lost", &lost);
  gst_structure_get_uint64 (st, "copies", &copies);
  gst_structure_free (st);
  fail_unless (drops >= 2, "drops %" G_GUINT64_FORMAT, drops);
  fail_unless_equals_uint64 (lost, drops);
  fail_unless_equals_uint64 (copies, 0);

  m = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS);
  fail_unless (m != NULL, "no QoS message for the gap");
  gst_message_parse_qos_stats (m, &fmt, &processed, &dropped);
  fail_unless_equals_int (fmt, GST_FORMAT_BUFFERS);
  fail_unless_equals_uint64 (dropped, lost);
  gst_message_unref (m);

  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_latency)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstQuery *q;
  GstClockTime min, max;
  gboolean live;
  GstBuffer *b;

  g_object_set (h->element, "queue-size", 4, NULL);
  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=YUY2,width=160,height=120,framerate=15/1");
  gst_harness_play (h);
  fail_unless (gst_harness_crank_single_clock_wait (h));
  b = gst_harness_pull (h);
  fail_unless (b != NULL);
  gst_buffer_unref (b);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, gst_util_uint64_scale (GST_SECOND, 1, 15));
  fail_unless_equals_uint64 (max, 4 * min);
  gst_query_unref (q);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pool_recycles_without_copy)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src is-live=false "
      "num-buffers=120 ! video/x-raw,width=320,height=240 ! "
      "appsink name=sink sync=false", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GHashTable *seen = g_hash_table_new (NULL, NULL);
  GstStructure *st = NULL;
  guint64 copies = 1, frames = 0;
  guint i;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 120; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    GstMapInfo map;

    fail_unless (s != NULL);
    fail_unless (gst_buffer_map (gst_sample_get_buffer (s), &map,
            GST_MAP_READ));
    g_hash_table_add (seen, map.data);
    gst_buffer_unmap (gst_sample_get_buffer (s), &map);
    gst_sample_unref (s);
  }
  /* 120 frames from a handful of device buffers: recycled, never
   * reallocated or copied. */
  fail_unless (g_hash_table_size (seen) <= 8, "%u distinct buffers",
      g_hash_table_size (seen));
  g_object_get (src, "stats", &st, NULL);
  gst_structure_get_uint64 (st, "copies", &copies);
  gst_structure_get_uint64 (st, "frames", &frames);
  fail_unless_equals_uint64 (copies, 0);
  fail_unless_equals_uint64 (frames, 120);
  gst_structure_free (st);
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_hash_table_unref (seen);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* A profile whose lines are padded: GStreamer's default stride differs. */
static gchar *
write_padded_profile (void)
{
  const gchar *text = "name padded\nstride-align 256\n"
      "default YUYV 200x100 fps 30\nformat YUYV\n  size 200x100 fps 30\n";
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  return path;
}

GST_START_TEST (test_video_meta_when_strides_differ)
{
  gchar *path = write_padded_profile ();
  gchar *desc = g_strdup_printf ("negcamsrc name=src profile=%s "
      "is-live=false num-buffers=5 ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink sync=false", path);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstStructure *st = NULL;
  guint64 copies = 1;
  guint i;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 5; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    GstVideoInfo info;
    GstVideoFrame f;

    fail_unless (s != NULL);
    gst_video_info_from_caps (&info, gst_sample_get_caps (s));
    fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
            GST_MAP_READ));
    /* The stamp survives only if videoconvert read the padded lines
     * through the GstVideoMeta. */
    fail_unless_equals_int64 (negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA
            (&f, 0), 1, GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), info.width,
            info.height), i);
    gst_video_frame_unmap (&f);
    gst_sample_unref (s);
  }
  g_object_get (src, "stats", &st, NULL);
  gst_structure_get_uint64 (st, "copies", &copies);
  fail_unless_equals_uint64 (copies, 0);
  gst_structure_free (st);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_copy_counted_without_video_meta)
{
  gchar *path = write_padded_profile ();
  Outcome o;
  GstElement *pipe, *src;
  gchar *desc = g_strdup_printf ("negcamsrc name=src profile=%s "
      "is-live=false num-buffers=4 ! fakesink", path);
  GstStructure *st = NULL;
  guint64 copies = 0;
  GstBus *bus;
  GstMessage *m;

  (void) o;
  pipe = gst_parse_launch (desc, NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  /* fakesink does not announce GstVideoMeta: the only copies negcamsrc
   * ever makes, and they are counted. */
  g_object_get (src, "stats", &st, NULL);
  gst_structure_get_uint64 (st, "copies", &copies);
  fail_unless_equals_uint64 (copies, 4);
  gst_structure_free (st);
  /* the same count as a property of its own */
  copies = 0;
  g_object_get (src, "copies", &copies, NULL);
  fail_unless_equals_uint64 (copies, 4);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipe);
  g_free (desc);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_not_live_is_fast)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc is-live=false "
      "num-buffers=150 ! video/x-raw,width=160,height=120,framerate=5/1 ! "
      "fakesink sync=false", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 start = g_get_monotonic_time ();
  GstMessage *m;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  /* 150 frames at 5 fps are 30 s of video: non-live does not pace. */
  fail_unless (g_get_monotonic_time () - start < 10 * G_USEC_PER_SEC);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

GST_START_TEST (test_live_paces_on_clock)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc num-buffers=10 ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 start = g_get_monotonic_time (), took;
  GstMessage *m;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  took = g_get_monotonic_time () - start;
  /* 10 frames at 30 fps: 9 intervals of 33 ms at least */
  fail_unless (took >= 9 * G_USEC_PER_SEC / 30, "%" G_GINT64_FORMAT, took);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

GST_START_TEST (test_state_cycles)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc ! "
      "video/x-raw,width=160,height=120 ! fakesink", NULL);
  guint i;

  for (i = 0; i < 50; i++) {
    fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    if (i % 2)
      gst_element_get_state (pipe, NULL, NULL, GST_CLOCK_TIME_NONE);
    fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (pipe);
}

GST_END_TEST;

typedef struct {
  GMutex lock;
  GString *text;
  guint requests;
} LogCapture;

static void
capture_log (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer data)
{
  LogCapture *lc = data;
  const gchar *msg;

  if (g_strcmp0 (gst_debug_category_get_name (cat), "negcamdevice"))
    return;
  msg = gst_debug_message_get (message);
  g_mutex_lock (&lc->lock);
  g_string_append_printf (lc->text, "%s\n", msg);
  if (level == GST_LEVEL_DEBUG && g_str_has_prefix (msg, "embedded:")
      && strstr (msg, " VIDIOC_"))
    lc->requests++;
  g_mutex_unlock (&lc->lock);
}

GST_START_TEST (test_debug_log_every_request)
{
  LogCapture lc = { 0, };
  static const gchar *names[] = { "VIDIOC_QUERYCAP", "VIDIOC_G_FMT",
    "VIDIOC_ENUM_FMT", "VIDIOC_ENUM_FRAMESIZES", "VIDIOC_ENUM_FRAMEINTERVALS",
    "VIDIOC_TRY_FMT", "VIDIOC_S_FMT", "VIDIOC_S_PARM", "VIDIOC_REQBUFS"
  };
  Outcome o;
  guint i;

  g_mutex_init (&lc.lock);
  lc.text = g_string_new (NULL);
  gst_debug_set_threshold_for_name ("negcamdevice", GST_LEVEL_DEBUG);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (capture_log, &lc, NULL);
  /* height only: a fixed size would skip ENUM_FRAMESIZES; 15 fps: S_FMT
   * leaves 30, so S_PARM is asked */
  run_pipeline ("webcam", "video/x-raw,height=240,framerate=15/1", "device",
      1, &o);
  gst_debug_remove_log_function (capture_log);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  gst_debug_unset_threshold_for_name ("negcamdevice");

  fail_unless (o.error == NULL);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    fail_unless (strstr (lc.text->str, names[i]), "%s not logged", names[i]);
  /* answers are logged, not only requests */
  fail_unless (strstr (lc.text->str, "VIDIOC_S_FMT: ok YUYV 320x240"), "%s",
      lc.text->str);
  fail_unless (strstr (lc.text->str, "VIDIOC_ENUM_FMT: Invalid argument"));
  /* one line per format request: at least as many as the message counts */
  fail_unless (lc.requests >= (guint) count_of (o.msg, "requests"),
      "%u lines for %d requests", lc.requests, count_of (o.msg, "requests"));
  outcome_clear (&o);
  g_string_free (lc.text, TRUE);
  g_mutex_clear (&lc.lock);
}

GST_END_TEST;

/* The pattern changes the picture, not the stamp. */
static guint64
grey_sum_and_check_stamp (const gchar * pattern)
{
  gchar *desc = g_strdup_printf ("negcamsrc is-live=false num-buffers=1 "
      "pattern=%s ! video/x-raw,width=320,height=240 ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink sync=false", pattern);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstSample *s;
  GstVideoInfo info;
  GstVideoFrame f;
  guint64 sum = 0;
  gint x, y;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  fail_unless (s != NULL);
  gst_video_info_from_caps (&info, gst_sample_get_caps (s));
  fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
          GST_MAP_READ));
  fail_unless_equals_int64 (negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA (&f,
              0), 1, GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), info.width,
          info.height), 0);
  for (y = info.height / 2; y < info.height; y++)
    for (x = 0; x < info.width; x++)
      sum += ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + x];
  gst_video_frame_unmap (&f);
  gst_sample_unref (s);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  return sum;
}

GST_START_TEST (test_pattern_property)
{
  guint64 bars = grey_sum_and_check_stamp ("bars");
  guint64 solid = grey_sum_and_check_stamp ("solid");
  guint64 gradient = grey_sum_and_check_stamp ("gradient");

  fail_unless (bars != solid && solid != gradient && bars != gradient);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* URI handler                                                         */

/* Issue 16 item 9: the texts that name the built-in profiles name all. */
GST_START_TEST (test_texts_name_every_builtin)
{
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "profile");
  const gchar *blurb = g_param_spec_get_blurb (ps);
  const struct negcam_builtin *b;
  GError *err = NULL;
  guint i;

  fail_if (gst_uri_handler_set_uri (GST_URI_HANDLER (e), "negcam://a/b", &err));
  fail_unless (err != NULL);
  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    gchar *word = g_strdup_printf ("%s%s", b->name,
        negcam_builtin_at (i + 1) ? "," : ")");

    fail_unless (strstr (blurb, word), "blurb lacks %s: %s", b->name, blurb);
    fail_unless (strstr (err->message, word), "URI error lacks %s: %s",
        b->name, err->message);
    g_free (word);
  }
  fail_unless (i >= 10, "%u built-in profiles", i);
  g_clear_error (&err);
  gst_object_unref (e);
}

GST_END_TEST;

/* The errors table's HEVC row (docs/negcamsrc.md): a profile whose only
 * format GStreamer has no caps for fails negotiation and says so. */
GST_START_TEST (test_hevc_only_profile_error)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-hevc-XXXXXX.profile", &path, NULL);
  Outcome o;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path,
          "name hevc\nformat HEVC\n  size 640x480 fps 30\n", -1, NULL));
  run_pipeline (path, "ANY", "device", 1, &o);
  fail_unless (o.error != NULL, "HEVC-only profile negotiated");
  fail_unless (g_error_matches (o.error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", o.error->message);
  fail_unless (strstr (o.error->message, "nothing GStreamer can carry"),
      "%s", o.error->message);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_uri_handler)
{
  static const gchar *bad[] = { "negcam://", "negcam://web/cam",
    "negcam://webcam?x=1", "file:///dev/video0" };
  GstElement *e;
  GstHarness *h;
  GstBuffer *b;
  gchar *s = NULL, *uri;
  GError *err = NULL;
  guint i;

  /* a built-in profile: the embedded engine, frames flow */
  e = gst_element_make_from_uri (GST_URI_SRC, "negcam://vga", NULL, &err);
  fail_unless (e != NULL, "%s", err ? err->message : "");
  g_object_get (e, "profile", &s, NULL);
  fail_unless_equals_string (s, "vga");
  g_free (s);
  g_object_get (e, "device", &s, NULL);
  fail_unless_equals_string (s, "");
  g_free (s);
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (e));
  fail_unless_equals_string (uri, "negcam://vga");
  g_free (uri);
  g_object_set (e, "is-live", FALSE, NULL);
  h = gst_harness_new_with_element (e, NULL, "src");
  gst_harness_play (h);
  b = gst_harness_pull (h);
  fail_unless (b != NULL);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
  gst_object_unref (e);

  /* a device node */
  e = gst_element_make_from_uri (GST_URI_SRC, "negcam:///dev/video7", NULL,
      &err);
  fail_unless (e != NULL);
  g_object_get (e, "device", &s, NULL);
  fail_unless_equals_string (s, "/dev/video7");
  g_free (s);
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (e));
  fail_unless_equals_string (uri, "negcam:///dev/video7");
  g_free (uri);
  /* a profile file; setting it again clears the device */
  fail_unless (gst_uri_handler_set_uri (GST_URI_HANDLER (e),
          "negcam:///tmp/my%20cam.profile", NULL));
  g_object_get (e, "profile", &s, NULL);
  fail_unless_equals_string (s, "/tmp/my cam.profile");
  g_free (s);
  g_object_get (e, "device", &s, NULL);
  fail_unless_equals_string (s, "");
  g_free (s);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    fail_if (gst_uri_handler_set_uri (GST_URI_HANDLER (e), bad[i], &err),
        "%s accepted", bad[i]);
    fail_unless (err != NULL);
    g_clear_error (&err);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* The io-mode and libv4l2 properties; the embedded device cannot EXPBUF,
 * so io-mode=auto falls back to its MMAP buffers and dmabuf refuses. */
GST_START_TEST (test_io_mode_embedded)
{
  GstHarness *h;
  GstElement *e;
  GstStructure *st = NULL;
  gboolean dmabuf = TRUE;
  GstBuffer *b;

  e = gst_element_factory_make ("negcamsrc", NULL);
  g_object_set (e, "is-live", FALSE, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "io-mode", "auto");
  h = gst_harness_new_with_element (e, NULL, "src");
  gst_harness_play (h);
  b = gst_harness_pull (h);
  fail_unless (b != NULL);
  fail_if (gst_is_dmabuf_memory (gst_buffer_peek_memory (b, 0)));
  gst_buffer_unref (b);
  g_object_get (e, "stats", &st, NULL);
  fail_unless (gst_structure_get_boolean (st, "dmabuf", &dmabuf));
  fail_if (dmabuf);
  gst_structure_free (st);
  gst_harness_teardown (h);
  gst_object_unref (e);

  /* io-mode=dmabuf on a device without EXPBUF: an error, not a crash */
  {
    GstElement *pipe = gst_parse_launch ("negcamsrc io-mode=dmabuf "
        "is-live=false num-buffers=2 ! fakesink", NULL);
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *m;

    gst_element_set_state (pipe, GST_STATE_PLAYING);
    m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR);
    gst_message_unref (m);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* One field per buffer: V4L2_FIELD_ALTERNATE                          */

#define ALT_FILTER "video/x-raw(format:Interlaced),interlace-mode=alternate," \
    "width=320,height=240"

static gchar *
write_profile_text (const gchar * text)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* ENUM_FRAMESIZES gives frames; G/TRY/S_FMT count one field's lines. */
static gchar *
write_alternate_profile (void)
{
  return write_profile_text ("name alt\nfield alternate\nformat YUYV\n"
      "  size 640x480 fps 25\n  size 320x240 fps 25\n");
}

static GstCaps *
element_caps (const gchar * profile)
{
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  GstPad *pad = gst_element_get_static_pad (e, "src");
  GstCaps *caps;

  g_object_set (e, "profile", profile, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  caps = gst_pad_query_caps (pad, NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
  return caps;
}

GST_START_TEST (test_alternate_caps)
{
  gchar *path = write_alternate_profile ();
  GstCaps *caps = element_caps (path), *templ;
  GstElementFactory *f;
  gboolean seen480 = FALSE, seen240 = FALSE;
  const GList *l;
  guint i;

  /* interlace-mode=alternate under format:Interlaced, frame heights */
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    gint h = 0;

    fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, i),
            GST_CAPS_FEATURE_FORMAT_INTERLACED), "%" GST_PTR_FORMAT, caps);
    fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
        "alternate");
    fail_unless (gst_structure_get_int (s, "height", &h));
    seen480 |= h == 480;
    seen240 |= h == 240;
  }
  fail_unless (seen480 && seen240, "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  /* the pad template allows it */
  f = gst_element_factory_find ("negcamsrc");
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstCaps *alt = gst_caps_from_string ("video/x-raw(format:Interlaced),"
        "format=YUY2,width=320,height=240,interlace-mode=alternate");

    templ = gst_static_pad_template_get_caps (l->data);
    fail_unless (gst_caps_can_intersect (alt, templ));
    gst_caps_unref (alt);
    gst_caps_unref (templ);
  }
  gst_object_unref (f);

  /* a progressive device's caps keep plain system memory */
  caps = element_caps ("webcam");
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);

    fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps, i),
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY), "%" GST_PTR_FORMAT, caps);
    if (gst_structure_has_name (s, "video/x-raw"))
      fail_unless_equals_string (gst_structure_get_string (s,
              "interlace-mode"), "progressive");
  }
  gst_caps_unref (caps);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* The negotiated V4L2 format counts one field, the caps the frame. */
GST_START_TEST (test_alternate_negotiates)
{
  gchar *path = write_alternate_profile ();
  Outcome o;
  GstCaps *caps, *want = gst_caps_from_string (ALT_FILTER);
  gint h = 0;

  run_pipeline (path, ALT_FILTER, "device", 4, &o);
  fail_unless (o.error == NULL, "%s", o.error ? o.error->message : "");
  caps = outcome_caps (&o);
  fail_unless (gst_caps_is_subset (caps, want), "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
          "height", &h));
  fail_unless_equals_int (h, 240);
  fail_unless_equals_int (count_of (o.msg, "field"), V4L2_FIELD_ALTERNATE);
  fail_unless_equals_int (count_of (o.msg, "width"), 320);
  fail_unless_equals_int (count_of (o.msg, "height"), 120);
  gst_caps_unref (caps);
  gst_caps_unref (want);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* Pull 8 buffers of @filter (a @w x @frame_h frame, lines of @bpl bytes
 * on the device): each is one field of @frame_h / 2 lines, TOP, BOTTOM,
 * TOP, ...; both fields of frame n carry sequence n and its stamp; 25 fps
 * gives a buffer every 20 ms. Downstream takes GstVideoMeta if @meta,
 * else padded lines are copied to GStreamer's layout. */
static void
check_fields (const gchar * profile, const gchar * filter, gint w,
    gint frame_h, gint bpl, gboolean meta_ok)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstStructure *st = NULL;
  guint64 copies = 0, lost = 1;
  GstClockTime field = gst_util_uint64_scale (GST_SECOND, 1, 50);
  GstVideoInfo info;
  GstCaps *caps;
  guint i;

  g_object_set (h->element, "profile", profile, "is-live", FALSE, NULL);
  if (meta_ok)
    gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE,
        NULL);
  gst_harness_set_sink_caps_str (h, filter);
  gst_harness_play (h);
  for (i = 0; i < 8; i++) {
    GstBuffer *b = gst_harness_pull (h);
    GstVideoMeta *meta;
    GstVideoFrame f;
    gboolean top = i % 2 == 0;

    fail_unless (b != NULL);
    if (i == 0) {
      caps = gst_pad_get_current_caps (h->sinkpad);
      fail_unless (gst_video_info_from_caps (&info, caps));
      fail_unless_equals_int (GST_VIDEO_INFO_INTERLACE_MODE (&info),
          GST_VIDEO_INTERLACE_MODE_ALTERNATE);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), frame_h);
      gst_caps_unref (caps);
    }
    fail_unless_equals_int (gst_buffer_get_size (b),
        (meta_ok ? bpl : w * 2) * frame_h / 2);
    fail_unless (GST_BUFFER_FLAG_IS_SET (b, GST_VIDEO_BUFFER_FLAG_INTERLACED));
    fail_unless (top ? GST_VIDEO_BUFFER_IS_TOP_FIELD (b) :
        GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (b), "buffer %u: flags %x", i,
        GST_BUFFER_FLAGS (b));
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (b), i / 2);
    /* the second field's repeated sequence number is no gap, no restart */
    fail_unless (i == 0 || !GST_BUFFER_FLAG_IS_SET (b,
            GST_BUFFER_FLAG_DISCONT), "buffer %u DISCONT", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), i * field);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), field);
    /* A GstVideoMeta (padded lines) has the caps' frame height, as
     * gst_video_frame_map() requires; the field flag halves it. */
    meta = gst_buffer_get_video_meta (b);
    fail_unless (!meta_ok || bpl == w * 2 || meta != NULL);
    if (meta) {
      fail_unless_equals_int (meta->height, frame_h);
      fail_unless_equals_int (meta->stride[0], bpl);
    }
    fail_unless (gst_video_frame_map (&f, &info, b, GST_MAP_READ));
    fail_unless_equals_int (GST_VIDEO_FRAME_COMP_HEIGHT (&f, 0), frame_h / 2);
    fail_unless_equals_int (GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0),
        meta_ok ? bpl : w * 2);
    fail_unless (GST_VIDEO_FRAME_FLAG_IS_SET (&f,
            GST_VIDEO_FRAME_FLAG_INTERLACED));
    fail_unless_equals_int64 (negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA
            (&f, 0), 2, GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), w,
            frame_h / 2), i / 2);
    gst_video_frame_unmap (&f);
    gst_buffer_unref (b);
  }
  g_object_get (h->element, "stats", &st, NULL);
  gst_structure_get_uint64 (st, "copies", &copies);
  gst_structure_get_uint64 (st, "lost", &lost);
  fail_unless_equals_uint64 (lost, 0);
  /* (non-live: the source may be a few buffers ahead) */
  if (meta_ok || bpl == w * 2) {
    fail_unless_equals_uint64 (copies, 0);
  } else {
    fail_unless (copies >= 8, "%" G_GUINT64_FORMAT " copies", copies);
  }
  gst_structure_free (st);
  gst_harness_teardown (h);
}

GST_START_TEST (test_alternate_fields)
{
  gchar *path = write_alternate_profile ();
  gchar *padded = write_profile_text ("name padded-alt\nstride-align 256\n"
      "field alternate\nformat YUYV\n  size 200x240 fps 25\n");

  check_fields (path, ALT_FILTER, 320, 240, 320 * 2, FALSE);
  check_fields (padded, "video/x-raw(format:Interlaced)", 200, 240, 512,
      TRUE);
  check_fields (padded, "video/x-raw(format:Interlaced)", 200, 240, 512,
      FALSE);
  g_unlink (padded);
  g_unlink (path);
  g_free (padded);
  g_free (path);
}

GST_END_TEST;

/* Live: the clock paces fields, and latency counts one field, not two
 * frames' worth. */
GST_START_TEST (test_alternate_live_latency)
{
  gchar *path = write_alternate_profile ();
  GstHarness *h = gst_harness_new ("negcamsrc");
  GstClockTime field = gst_util_uint64_scale (GST_SECOND, 1, 50);
  GstClockTime pts0 = GST_CLOCK_TIME_NONE, min, max;
  GstQuery *q;
  gboolean live;
  guint i;

  g_object_set (h->element, "profile", path, "queue-size", 4, NULL);
  gst_harness_use_testclock (h);
  gst_harness_set_sink_caps_str (h, ALT_FILTER);
  gst_harness_play (h);
  for (i = 0; i < 6; i++) {
    GstBuffer *b;

    fail_unless (gst_harness_crank_single_clock_wait (h));
    b = gst_harness_pull (h);
    fail_unless (b != NULL);
    if (i == 0)
      pts0 = GST_BUFFER_PTS (b);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), pts0 + i * field);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), field);
    fail_unless (i % 2 ? GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (b) :
        GST_VIDEO_BUFFER_IS_TOP_FIELD (b));
    gst_buffer_unref (b);
  }
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, field);
  fail_unless_equals_uint64 (max, 4 * field);
  gst_query_unref (q);
  gst_harness_teardown (h);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* Progressive downstream, alternate-only device: not negotiated, and the
 * message says the field arrangement is why. */
GST_START_TEST (test_alternate_progressive_refused)
{
  gchar *path = write_alternate_profile ();
  Outcome o;

  run_pipeline (path, "video/x-raw,interlace-mode=progressive", "device", 1,
      &o);
  fail_unless (o.error != NULL);
  fail_unless (g_error_matches (o.error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", o.error->message);
  fail_unless (strstr (o.error->message, "interlace-mode alternate")
      && strstr (o.error->message, "V4L2_FIELD_ALTERNATE")
      && strstr (o.error->message, "accepts progressive"), "%s",
      o.error->message);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* V4L2_FIELD_TOP has no caps in GStreamer: a clear error, no crash. */
GST_START_TEST (test_field_top_refused)
{
  gchar *path = write_profile_text ("name top\nfield top\nformat YUYV\n"
      "  size 640x480 fps 25\n");
  Outcome o;

  run_pipeline (path, "video/x-raw", "device", 1, &o);
  fail_unless (o.error != NULL);
  fail_unless (g_error_matches (o.error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", o.error->message);
  fail_unless (strstr (o.error->message, "V4L2_FIELD_TOP"), "%s",
      o.error->message);
  outcome_clear (&o);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* A TCase per concern, named for the feature it tests: a failure names
 * its group, and CK_RUN_CASE=<name> runs one group (GST_CHECKS=<test>
 * one test). */
static TCase *
negcamsrc_tcase (Suite *s, const gchar *name)
{
  TCase *tc = tcase_create (name);

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  return tc;
}

static Suite *
negcamsrc_suite (void)
{
  Suite *s = suite_create ("negcamsrc");
  TCase *tc;

  /* what opening and probing cost: lazy, cached, filtered */
  tc = negcamsrc_tcase (s, "probe");
  tcase_add_test (tc, test_request_count_webcam);
  tcase_add_test (tc, test_multiplanar_profile);
  tcase_add_test (tc, test_probe_lazy_and_cached);
  tcase_add_test (tc, test_probe_uses_filter);
  tcase_add_test (tc, test_probe_lookup_same_caps);
  tcase_add_test (tc, test_unmatched_filter_cost);

  /* caps filters, downstream's order, prefer, TRY_FMT adjustments */
  tc = negcamsrc_tcase (s, "negotiation");
  tcase_add_test (tc, test_filters_every_profile);
  tcase_add_test (tc, test_filters_preferences);
  tcase_add_test (tc, test_downstream_prefers_videoscale);
  tcase_add_test (tc, test_downstream_order_two_structures);
  tcase_add_test (tc, test_caps_answer_in_preference_order);
  tcase_add_test (tc, test_filtered_caps_keep_filter_order);
  tcase_add_test (tc, test_raw_only_live_rate);
  tcase_add_test (tc, test_every_format_negotiates);
  tcase_add_test (tc, test_adjust_refixates);
  tcase_add_test (tc, test_colorimetry_from_device);

  /* refusals and bad input, said in words */
  tc = negcamsrc_tcase (s, "errors");
  tcase_add_test (tc, test_field_error_in_words);
  tcase_add_test (tc, test_impossible_caps_lists_offers);
  tcase_add_test (tc, test_malformed_profile);
  tcase_add_test (tc, test_missing_profile);
  tcase_add_test (tc, test_device_path_missing);
  tcase_add_test (tc, test_adjust_refused_names_field);
  tcase_add_test (tc, test_colorimetry_refused_names_field);
  tcase_add_test (tc, test_undrawable_format_is_an_error);
  tcase_add_test (tc, test_hevc_only_profile_error);

  /* frames read back by number, raw and MJPG */
  tc = negcamsrc_tcase (s, "frames");
  tcase_add_test (tc, test_frames_stamped_raw);
  tcase_add_test (tc, test_frames_mjpg_decode);
  tcase_add_test (tc, test_frames_scene_moves_across_streams);

  /* a new format while playing */
  tc = negcamsrc_tcase (s, "renegotiation");
  tcase_add_test (tc, test_renegotiate_harness);
  tcase_add_test (tc, test_renegotiate_harness_live);
  tcase_add_test (tc, test_renegotiate_pipeline_stamps);

  /* live pacing, timestamps, drops, latency */
  tc = negcamsrc_tcase (s, "timing");
  tcase_add_test (tc, test_live_timestamps_testclock);
  tcase_add_test (tc, test_live_one_clock_id);
  tcase_add_test (tc, test_live_drop_not_copy);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_not_live_is_fast);
  tcase_add_test (tc, test_live_paces_on_clock);

  /* buffers: no copy, GstVideoMeta, io-mode, downstream's pool */
  tc = negcamsrc_tcase (s, "pool");
  tcase_add_test (tc, test_pool_recycles_without_copy);
  tcase_add_test (tc, test_video_meta_when_strides_differ);
  tcase_add_test (tc, test_copy_counted_without_video_meta);
  tcase_add_test (tc, test_io_mode_embedded);
  tcase_add_test (tc, test_draws_into_downstream_pool);
  tcase_add_test (tc, test_downstream_pool_deactivated);

  /* states, debug log, pattern, URI handler, texts */
  tc = negcamsrc_tcase (s, "element");
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_debug_log_every_request);
  tcase_add_test (tc, test_pattern_property);
  tcase_add_test (tc, test_uri_handler);
  tcase_add_test (tc, test_texts_name_every_builtin);

  /* one field per buffer (V4L2_FIELD_ALTERNATE), TOP refused */
  tc = negcamsrc_tcase (s, "fields");
  tcase_add_test (tc, test_alternate_caps);
  tcase_add_test (tc, test_alternate_negotiates);
  tcase_add_test (tc, test_alternate_fields);
  tcase_add_test (tc, test_alternate_live_latency);
  tcase_add_test (tc, test_alternate_progressive_refused);
  tcase_add_test (tc, test_field_top_refused);
  return s;
}

GST_CHECK_MAIN (negcamsrc);
