/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamFormatCache: what a device enumerates, asked lazily and kept.
 * See negcamformatcache.h and docs/negcamsrc.md ("How caps are probed").
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "negcamformatcache.h"
#include "profile.h"

GST_DEBUG_CATEGORY_EXTERN (negcamdevice_debug);
#define GST_CAT_DEFAULT negcamdevice_debug

typedef struct {
  guint32 fourcc;
  GstStructure *base; /* media type + format, or NULL */
  gboolean sizes_known;
  gboolean sizes_unsupported; /* ENUM_FRAMESIZES not implemented */
  gint sizes_error; /* answer to index 0 when it failed (-EINVAL: absent) */
  gboolean present; /* a size of it answered ENUM_FRAMEINTERVALS */
  GArray *sizes; /* struct v4l2_frmsizeenum */
  gboolean field_known;
  guint32 field; /* enum v4l2_field this format delivers */
} CachedFormat;

struct _NegcamFormatCache {
  NegcamDevice *dev;
  gboolean formats_known;
  GPtrArray *entries; /* CachedFormat, owned: every fourcc asked about */
  GPtrArray *formats; /* CachedFormat of entries, in ENUM_FMT order */
  GHashTable *rates; /* (fourcc<<32|w<<16|h) -> GValue framerate */
  struct v4l2_format def_fmt;
  struct v4l2_pix_format def_pix; /* def_fmt, single-planar */
  struct v4l2_fract def_interval;
  gboolean can_set_rate;
  gboolean size_lookup; /* presence by ENUM_FRAMESIZES allowed */
  guint32 type; /* the queue probed: VIDEO_CAPTURE(_MPLANE) or OUTPUT */
};

static void
free_rate (gpointer v)
{
  g_value_unset (v);
  g_free (v);
}

static void
cached_format_free (gpointer data)
{
  CachedFormat *f = data;

  if (f->base)
    gst_structure_free (f->base);
  if (f->sizes)
    g_array_unref (f->sizes);
  g_free (f);
}

NegcamFormatCache *
negcam_format_cache_new (NegcamDevice *dev)
{
  return negcam_format_cache_new_for_type (dev, V4L2_BUF_TYPE_VIDEO_CAPTURE);
}

NegcamFormatCache *
negcam_format_cache_new_for_type (NegcamDevice *dev, guint32 type)
{
  NegcamFormatCache *p = g_new0 (NegcamFormatCache, 1);
  /* capture and output parm share their layout (capability,
   * timeperframe): parm.capture reads both. */
  struct v4l2_streamparm parm = { .type = type };

  p->dev = negcam_device_ref (dev);
  p->type = type;
  p->entries = g_ptr_array_new_with_free_func (cached_format_free);
  p->formats = g_ptr_array_new ();
  p->rates =
      g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, free_rate);
  p->def_fmt.type = type;
  if (negcam_device_ioctl (dev, VIDIOC_G_FMT, &p->def_fmt) < 0)
    memset (&p->def_fmt.fmt, 0, sizeof (p->def_fmt.fmt));
  negcam_format_get_pix (&p->def_fmt, &p->def_pix);
  if (negcam_device_ioctl (dev, VIDIOC_G_PARM, &parm) == 0) {
    p->def_interval = parm.parm.capture.timeperframe;
    p->can_set_rate =
        (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) != 0;
  }
  return p;
}

void
negcam_format_cache_set_size_lookup (NegcamFormatCache *p, gboolean allow)
{
  p->size_lookup = allow;
}

void
negcam_format_cache_free (NegcamFormatCache *p)
{
  if (!p)
    return;
  g_ptr_array_unref (p->formats);
  g_ptr_array_unref (p->entries);
  g_hash_table_unref (p->rates);
  negcam_device_unref (p->dev);
  g_free (p);
}

const struct v4l2_pix_format *
negcam_format_cache_default_format (NegcamFormatCache *p)
{
  return &p->def_pix;
}

const struct v4l2_fract *
negcam_format_cache_default_interval (NegcamFormatCache *p)
{
  return &p->def_interval;
}

gboolean
negcam_format_cache_can_set_rate (NegcamFormatCache *p)
{
  return p->can_set_rate;
}

/* The cache entry of @fourcc, made on first use (no request). */
static CachedFormat *
cached_format (NegcamFormatCache *p, guint32 fourcc)
{
  CachedFormat *f;
  guint i;

  for (i = 0; i < p->entries->len; i++) {
    f = g_ptr_array_index (p->entries, i);
    if (f->fourcc == fourcc)
      return f;
  }
  f = g_new0 (CachedFormat, 1);
  f->fourcc = fourcc;
  f->base = negcam_fourcc_to_structure (fourcc);
  g_ptr_array_add (p->entries, f);
  return f;
}

static void
ensure_formats (NegcamFormatCache *p)
{
  struct v4l2_fmtdesc d;
  guint i;

  if (p->formats_known)
    return;
  for (i = 0; i < 256; i++) {
    CachedFormat *f;

    memset (&d, 0, sizeof (d));
    d.index = i;
    d.type = p->type;
    if (negcam_device_ioctl (p->dev, VIDIOC_ENUM_FMT, &d) < 0)
      break;
    /* Only the fourcc is kept: the caps follow from it (the compressed
     * flag and the description add nothing the table does not know). */
    f = cached_format (p, d.pixelformat);
    if (!f->base) {
      gchar s[5];
      GST_INFO ("%s: format %s has no GStreamer caps, ignored",
          negcam_device_get_description (p->dev),
          negcam_fourcc_to_string (d.pixelformat, s));
    }
    g_ptr_array_add (p->formats, f);
  }
  p->formats_known = TRUE;
}

static void
ensure_sizes (NegcamFormatCache *p, CachedFormat *f)
{
  struct v4l2_frmsizeenum fs;
  guint i;
  gint ret;

  if (f->sizes_known)
    return;
  f->sizes = g_array_new (FALSE, TRUE, sizeof (struct v4l2_frmsizeenum));
  for (i = 0; i < 4096; i++) {
    memset (&fs, 0, sizeof (fs));
    fs.index = i;
    fs.pixel_format = f->fourcc;
    ret = negcam_device_ioctl (p->dev, VIDIOC_ENUM_FRAMESIZES, &fs);
    if (ret == -ENOTTY && i == 0)
      f->sizes_unsupported = TRUE;
    if (ret < 0 && i == 0)
      f->sizes_error = ret;
    if (ret < 0)
      break;
    g_array_append_val (f->sizes, fs);
    if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE)
      break; /* stepwise/continuous: one entry only */
  }
  f->sizes_known = TRUE;
}

/*
 * Can @filter match the media type and format @base (subset: does every
 * structure of @filter lie within it)? Caps features are left to the
 * structures with sizes, which carry them (format:Interlaced), and to
 * the final intersection with the filter.
 */
static gboolean
base_matches (GstCaps *filter, const GstStructure *base, gboolean subset)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (filter); i++) {
    const GstStructure *s = gst_caps_get_structure (filter, i);

    if (subset && !gst_structure_is_subset (s, base))
      return FALSE;
    if (!subset && gst_structure_can_intersect (s, base))
      return TRUE;
  }
  return subset;
}

static const GValue *rates_at (
    NegcamFormatCache *p, CachedFormat *f, guint32 w, guint32 h);
static gboolean fixed_int (GstCaps *filter, const gchar *field, guint32 *out);

/* Did ENUM_FRAMEINTERVALS answer at least one interval (rates_at's "any
 * rate" stands for none)? */
static gboolean
rates_answered (const GValue *v)
{
  const GValue *lo, *hi;

  if (!GST_VALUE_HOLDS_FRACTION_RANGE (v))
    return TRUE;
  lo = gst_value_get_fraction_range_min (v);
  hi = gst_value_get_fraction_range_max (v);
  return gst_value_get_fraction_numerator (lo) != 0
      || gst_value_get_fraction_numerator (hi) != G_MAXINT;
}

/*
 * The lazy presence test: when @filter fixes the frame size, ask that
 * size's intervals (needed anyway for the rate) instead of walking every
 * size with ENUM_FRAMESIZES. A spec-conforming driver answers EINVAL for
 * a fourcc or size it lacks (uvcvideo, vivid, negcam.ko, the embedded
 * device) and the intervals otherwise, so an answer proves both; no
 * answer proves nothing (a driver without interval enumeration), and the
 * caller walks the sizes as before. Only where the fourcc lookup is
 * allowed (negcam_format_cache_set_size_lookup). Marks @f present.
 */
static gboolean
size_answers (NegcamFormatCache *p, CachedFormat *f, GstCaps *filter)
{
  guint32 w, h;

  if (!p->size_lookup || f->sizes_known || !f->base || !filter
      || gst_caps_is_any (filter) || !fixed_int (filter, "width", &w)
      || !fixed_int (filter, "height", &h))
    return FALSE;
  if (!rates_answered (rates_at (p, f, w, h)))
    return FALSE;
  f->present = TRUE;
  return TRUE;
}

/* Can a queue of the format cache's type have @fourcc? The M formats (one
 * buffer per plane) exist on multiplanar queues only. */
static gboolean
type_has_fourcc (NegcamFormatCache *p, guint32 fourcc)
{
  return negcam_buf_type_is_mplane (p->type)
      || !negcam_fourcc_is_multibuffer (fourcc);
}

/*
 * On a multiplanar queue a format with one buffer per plane (NV12M) is
 * preferred to its contiguous twin with the same caps (NV12), as v4l2src
 * does: is @f such a twin of a format in @others (@n of them)?
 */
static gboolean
is_shadowed (
    NegcamFormatCache *p, CachedFormat *f, CachedFormat **others, guint n)
{
  guint i;

  if (!negcam_buf_type_is_mplane (p->type) || !f->base
      || negcam_fourcc_is_multibuffer (f->fourcc))
    return FALSE;
  for (i = 0; i < n; i++)
    if (others[i] != f && others[i]->base
        && negcam_fourcc_is_multibuffer (others[i]->fourcc)
        && gst_structure_is_equal (others[i]->base, f->base))
      return TRUE;
  return FALSE;
}

/* The candidates @cand (@n) with the one-buffer-per-plane formats first,
 * so that a contiguous twin is not asked once its M format answered. */
static void
m_formats_first (CachedFormat **cand, guint n)
{
  guint i, k = 0;

  for (i = 0; i < n; i++) {
    CachedFormat *m = cand[i];

    if (!negcam_fourcc_is_multibuffer (m->fourcc))
      continue;
    memmove (cand + k + 1, cand + k, (i - k) * sizeof (*cand));
    cand[k++] = m;
  }
}

/* At most this many fourccs are looked up one by one; a filter that
 * leaves more (plain "video/x-raw") costs one ENUM_FMT walk instead. */
#define MAX_LOOKUP 4

/*
 * Which format of the device @filter can match, found without ENUM_FMT:
 * when the filter leaves only a few fourccs (its structures fix the
 * format, or image/jpeg, video/x-h264), ENUM_FRAMESIZES is asked for each
 * of them, and a spec-conforming device answers EINVAL at index 0 for a
 * fourcc it does not have, sizes otherwise. The sizes are needed anyway,
 * so a fourcc the device has costs nothing extra, one it lacks costs one
 * request; ENUM_FMT (a request per format, 84 on vivid) is skipped.
 * @subset: the fourcc's caps must contain @filter (a fixed format), else
 * just intersect it. Sets *@found to the one format present. Returns
 * FALSE when ENUM_FMT is needed after all: lookups not allowed, ENUM_FMT
 * already done, too many candidates, ENUM_FRAMESIZES not implemented or
 * failing otherwise, several candidates present (then the device's
 * ENUM_FMT order decides which comes first), or none: some drivers answer
 * EINVAL for every fourcc when they cannot enumerate sizes (vivid on a
 * TV input without scaler), so only ENUM_FMT can tell "absent" from "any
 * size" (what the full path offers for such a format).
 */
static gboolean
lookup_formats (NegcamFormatCache *p, GstCaps *filter, gboolean subset,
    CachedFormat **found)
{
  CachedFormat *cand[MAX_LOOKUP], *have[MAX_LOOKUP];
  guint i, n = 0, present = 0;
  guint32 fourcc;

  *found = NULL;
  if (!p->size_lookup || p->formats_known || !filter
      || gst_caps_is_any (filter))
    return FALSE;
  for (i = 0; (fourcc = negcam_fourcc_by_index (i)); i++) {
    CachedFormat *f = cached_format (p, fourcc);

    if (!base_matches (filter, f->base, subset) || !type_has_fourcc (p, fourcc))
      continue;
    if (n == MAX_LOOKUP)
      return FALSE;
    cand[n++] = f;
  }
  m_formats_first (cand, n);
  for (i = 0; i < n; i++) {
    if (is_shadowed (p, cand[i], have, present))
      continue;
    if (cand[i]->present || size_answers (p, cand[i], filter)) {
      have[present++] = cand[i];
      continue;
    }
    ensure_sizes (p, cand[i]);
    if (cand[i]->sizes->len > 0) {
      have[present++] = cand[i];
    } else if (cand[i]->sizes_error != -EINVAL) {
      /* ENOTTY (a 2007 driver) or anything else: presence unknown. */
      p->size_lookup = cand[i]->sizes_unsupported ? FALSE : p->size_lookup;
      return FALSE;
    }
  }
  if (present != 1)
    return FALSE;
  *found = have[0];
  return TRUE;
}

static void
set_int_range (
    GstStructure *s, const gchar *field, guint min, guint max, guint step)
{
  GValue v = G_VALUE_INIT;

  min = MAX (min, 1);
  max = MIN (max, NEGCAM_MAX_DIM);
  if (min >= max) {
    gst_structure_set (s, field, G_TYPE_INT, (gint)min, NULL);
    return;
  }
  g_value_init (&v, GST_TYPE_INT_RANGE);
  /* GStreamer stepped ranges need both ends on the step grid. */
  if (step > 1 && min % step == 0 && max % step == 0)
    gst_value_set_int_range_step (&v, min, max, step);
  else
    gst_value_set_int_range (&v, min, max);
  gst_structure_take_value (s, field, &v);
}

/*
 * The field arrangement @f delivers, asked once per format: for the
 * fourcc of the default format, G_FMT's at open; for any other, TRY_FMT
 * with V4L2_FIELD_ANY (the driver answers its field for that format) at
 * the size of entry @fs (NULL: the default size). Per format, because a
 * device may mix them (a grabber with progressive YUYV next to interlaced
 * UYVY). Not per size: the field of a format does not depend on the size
 * in practice, and negotiation checks TRY_FMT's answer anyway. A device
 * that refuses the TRY keeps the default's field.
 */
static guint32
format_field (
    NegcamFormatCache *p, CachedFormat *f, const struct v4l2_frmsizeenum *fs)
{
  struct v4l2_format t = { .type = p->type };
  struct v4l2_pix_format pix = { 0 };

  if (f->field_known)
    return f->field;
  f->field_known = TRUE;
  f->field = p->def_pix.field;
  if (f->fourcc == p->def_pix.pixelformat)
    return f->field;
  pix.pixelformat = f->fourcc;
  pix.field = V4L2_FIELD_ANY;
  pix.width = p->def_pix.width;
  pix.height = p->def_pix.height;
  if (fs && fs->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
    pix.width = fs->discrete.width;
    pix.height = fs->discrete.height;
  } else if (fs) {
    pix.width = fs->stepwise.max_width;
    pix.height = fs->stepwise.max_height;
  }
  negcam_format_set_pix (&t, &pix);
  if (negcam_device_ioctl (p->dev, VIDIOC_TRY_FMT, &t) == 0) {
    negcam_format_get_pix (&t, &pix);
    if (pix.pixelformat == f->fourcc && pix.field != V4L2_FIELD_ANY)
      f->field = pix.field;
  }
  return f->field;
}

/* The structure for one frame size entry, without framerate. */
static GstStructure *
size_structure (
    NegcamFormatCache *p, CachedFormat *f, const struct v4l2_frmsizeenum *fs)
{
  GstStructure *s = gst_structure_copy (f->base);

  if (!fs) {
    set_int_range (s, "width", 1, NEGCAM_MAX_DIM, 1);
    set_int_range (s, "height", 1, NEGCAM_MAX_DIM, 1);
  } else if (fs->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
    gst_structure_set (s, "width", G_TYPE_INT, (gint)fs->discrete.width,
        "height", G_TYPE_INT, (gint)fs->discrete.height, NULL);
  } else {
    set_int_range (s, "width", fs->stepwise.min_width, fs->stepwise.max_width,
        fs->type == V4L2_FRMSIZE_TYPE_STEPWISE ? fs->stepwise.step_width : 1);
    set_int_range (s, "height", fs->stepwise.min_height,
        fs->stepwise.max_height,
        fs->type == V4L2_FRMSIZE_TYPE_STEPWISE ? fs->stepwise.step_height : 1);
  }
  if (gst_structure_has_name (s, "video/x-raw"))
    negcam_structure_set_interlace (s, format_field (p, f, fs));
  return s;
}

static gint
fps_num (const struct v4l2_fract *iv)
{
  return iv->denominator;
}

static gint
fps_den (const struct v4l2_fract *iv)
{
  return iv->numerator;
}

/* ENUM_FRAMEINTERVALS at @w x @h, as a framerate GValue; cached. */
static const GValue *
rates_at (NegcamFormatCache *p, CachedFormat *f, guint32 w, guint32 h)
{
  /* Unsigned: a fourcc with bit 31 set (V4L2's big-endian flag, Y16-BE)
   * must not overflow a signed shift. */
  guint64 key =
      ((guint64)f->fourcc << 32) | ((guint64)(w & 0xffff) << 16) | (h & 0xffff);
  GValue *val = g_hash_table_lookup (p->rates, &key);
  struct v4l2_frmivalenum fi;
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;
  gint ret;

  if (val)
    return val;

  val = g_new0 (GValue, 1);
  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, GST_TYPE_FRACTION);
  for (i = 0; i < 1024; i++) {
    memset (&fi, 0, sizeof (fi));
    fi.index = i;
    fi.pixel_format = f->fourcc;
    fi.width = w;
    fi.height = h;
    ret = negcam_device_ioctl (p->dev, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
    if (ret < 0)
      break;
    if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      if (!fi.discrete.numerator || !fi.discrete.denominator)
        continue;
      gst_value_set_fraction (
          &v, fps_num (&fi.discrete), fps_den (&fi.discrete));
      gst_value_list_append_value (&list, &v);
    } else {
      /* Continuous or stepwise: a fraction range. Stepwise intervals are
       * not equidistant in frame rate, so the steps are left to TRY/S_PARM
       * to snap (set_caps reads the rate back with G_PARM). */
      g_value_unset (&list);
      g_value_init (val, GST_TYPE_FRACTION_RANGE);
      gst_value_set_fraction_range_full (val, fps_num (&fi.stepwise.max),
          fps_den (&fi.stepwise.max), fps_num (&fi.stepwise.min),
          fps_den (&fi.stepwise.min));
      break;
    }
  }
  g_value_unset (&v);
  if (!G_IS_VALUE (val)) {
    if (gst_value_list_get_size (&list) == 1) {
      g_value_init (val, GST_TYPE_FRACTION);
      g_value_copy (gst_value_list_get_value (&list, 0), val);
      g_value_unset (&list);
    } else if (gst_value_list_get_size (&list) > 1) {
      *val = list;
    } else {
      /* No interval enumeration: any rate; negotiation learns the real one
       * from S_PARM/G_PARM after S_FMT. */
      g_value_unset (&list);
      g_value_init (val, GST_TYPE_FRACTION_RANGE);
      gst_value_set_fraction_range_full (val, 0, 1, G_MAXINT, 1);
    }
  }
  g_hash_table_insert (p->rates, g_memdup2 (&key, sizeof (key)), val);
  return val;
}

static gboolean
fixed_int (GstCaps *filter, const gchar *field, guint32 *out)
{
  guint i;
  gint v = -1;

  /* Fixed only when every filter structure fixes it to the same value. */
  for (i = 0; i < gst_caps_get_size (filter); i++) {
    const GstStructure *s = gst_caps_get_structure (filter, i);
    gint x;

    if (!gst_structure_get_int (s, field, &x))
      return FALSE;
    if (v >= 0 && x != v)
      return FALSE;
    v = x;
  }
  if (v <= 0)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
structure_contains (const GstStructure *s, GstCaps *sub)
{
  GstCaps *one = gst_caps_new_full (gst_structure_copy (s), NULL);
  gboolean ret = gst_caps_is_subset (sub, one);

  gst_caps_unref (one);
  return ret;
}

static GstCaps *cache_caps_full (
    NegcamFormatCache *p, GstCaps *filter, gboolean with_rates);

GstCaps *
negcam_format_cache_caps (NegcamFormatCache *p, GstCaps *filter)
{
  return cache_caps_full (p, filter, TRUE);
}

GstCaps *
negcam_format_cache_size_caps (NegcamFormatCache *p, GstCaps *filter)
{
  return cache_caps_full (p, filter, FALSE);
}

/*
 * The size @filter fixes, when ENUM_FRAMEINTERVALS there answers
 * (size_answers): appended as the device's only size, without the
 * ENUM_FRAMESIZES walk, and not cached as @f's sizes (another filter
 * walks them). FALSE: walk the sizes. An alternate-field answer is left
 * to the walk too (the caps height is the frame's, V4L2's the field's).
 */
static gboolean
append_fixed_size (NegcamFormatCache *p, CachedFormat *f, GstCaps *filter,
    gboolean with_rates, GstCaps *caps)
{
  struct v4l2_frmsizeenum fs = { .type = V4L2_FRMSIZE_TYPE_DISCRETE };
  GstStructure *s;

  if (!size_answers (p, f, filter))
    return FALSE;
  fixed_int (filter, "width", &fs.discrete.width);
  fixed_int (filter, "height", &fs.discrete.height);
  s = size_structure (p, f, &fs);
  if (negcam_structure_is_alternate (s)) {
    gst_structure_free (s);
    return FALSE;
  }
  if (with_rates)
    gst_structure_set_value (
        s, "framerate", rates_at (p, f, fs.discrete.width, fs.discrete.height));
  negcam_caps_append_structure (caps, s);
  return TRUE;
}

/* Did ENUM_FMT list a one-buffer-per-plane twin that @f gives way to
 * (is_shadowed)? */
static gboolean
enumerated_twin (NegcamFormatCache *p, CachedFormat *f)
{
  return p->formats_known
      && is_shadowed (
          p, f, (CachedFormat **)p->formats->pdata, p->formats->len);
}

/* Append what @f offers within @filter (NULL: everything) to @caps. */
static void
append_format (NegcamFormatCache *p, CachedFormat *f, GstCaps *filter,
    gboolean with_rates, GstCaps *caps)
{
  guint j;

  if (!f->base || enumerated_twin (p, f))
    return;
  if (filter && !base_matches (filter, f->base, FALSE))
    return;
  if (append_fixed_size (p, f, filter, with_rates, caps))
    return;
  ensure_sizes (p, f);
  if (f->sizes_unsupported || f->sizes->len == 0) {
    GstStructure *s = size_structure (p, f, NULL);
    GValue any = G_VALUE_INIT;

    /* No ENUM_FRAMESIZES (a 2007 driver): any size, any rate. TRY_FMT
     * in set_caps tells what the device really makes of the request. */
    g_value_init (&any, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (&any, 0, 1, G_MAXINT, 1);
    gst_structure_take_value (s, "framerate", &any);
    negcam_caps_append_structure (caps, s);
    return;
  }
  for (j = 0; j < f->sizes->len; j++) {
    const struct v4l2_frmsizeenum *fs =
        &g_array_index (f->sizes, struct v4l2_frmsizeenum, j);
    GstCaps *one = negcam_caps_new_structure (size_structure (p, f, fs));
    guint32 w, h;

    if (filter && !gst_caps_can_intersect (filter, one)) {
      gst_caps_unref (one);
      continue;
    }
    if (!with_rates) {
      gst_caps_append (caps, one);
      continue;
    }
    if (fs->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      w = fs->discrete.width;
      h = fs->discrete.height;
    } else {
      /* Intervals of a stepwise size are asked at one size: the one
       * the filter fixes, else the largest (where the rate limit is
       * strictest). */
      if (!filter || !fixed_int (filter, "width", &w))
        w = fs->stepwise.max_width;
      if (!filter || !fixed_int (filter, "height", &h))
        h = fs->stepwise.max_height;
    }
    one = gst_caps_make_writable (one);
    gst_structure_set_value (
        gst_caps_get_structure (one, 0), "framerate", rates_at (p, f, w, h));
    gst_caps_append (caps, one);
  }
}

static GstCaps *
cache_caps_full (NegcamFormatCache *p, GstCaps *filter, gboolean with_rates)
{
  GstCaps *caps = gst_caps_new_empty ();
  CachedFormat *found;
  guint i;

  if (filter && gst_caps_is_any (filter))
    filter = NULL;
  if (lookup_formats (p, filter, FALSE, &found)) {
    /* The filter's fourcc(s) looked up by ENUM_FRAMESIZES: exactly one
     * present, so no ENUM_FMT order to respect. */
    append_format (p, found, filter, with_rates, caps);
  } else {
    ensure_formats (p);
    for (i = 0; i < p->formats->len; i++)
      append_format (
          p, g_ptr_array_index (p->formats, i), filter, with_rates, caps);
  }
  if (filter) {
    GstCaps *tmp =
        gst_caps_intersect_full (caps, filter, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

gboolean
negcam_format_cache_caps_to_format (NegcamFormatCache *p, GstCaps *caps,
    struct v4l2_format *fmt, struct v4l2_fract *interval)
{
  struct v4l2_pix_format pix;
  const GstStructure *s;
  GstStructure *base;
  GstCaps *one;
  CachedFormat *f;
  guint i;
  gint w = 0, h = 0, n = 0, d = 0;
  gboolean found = FALSE;

  g_return_val_if_fail (gst_caps_is_fixed (caps), FALSE);
  s = gst_caps_get_structure (caps, 0);
  memset (fmt, 0, sizeof (*fmt));
  memset (&pix, 0, sizeof (pix));
  fmt->type = p->type;
  /* Compare media type and format only. */
  base = gst_structure_copy (s);
  gst_structure_remove_fields (base, "width", "height", "framerate",
      "interlace-mode", "field-order", "colorimetry", "pixel-aspect-ratio",
      "chroma-site", "multiview-mode", "multiview-flags", NULL);
  one = gst_caps_new_full (base, NULL);
  if (lookup_formats (p, one, TRUE, &f)) {
    /* Exactly one of the fourccs with these caps is present. */
    found = TRUE;
    pix.pixelformat = f->fourcc;
  } else {
    /* The first enumerated fourcc with the same caps wins (MJPG before
     * JPEG as the device lists them). */
    ensure_formats (p);
    for (i = 0; i < p->formats->len && !found; i++) {
      f = g_ptr_array_index (p->formats, i);
      if (f->base && !enumerated_twin (p, f)
          && structure_contains (f->base, one)) {
        found = TRUE;
        pix.pixelformat = f->fourcc;
      }
    }
  }
  gst_caps_unref (one);
  if (!found)
    return FALSE;
  gst_structure_get_int (s, "width", &w);
  gst_structure_get_int (s, "height", &h);
  pix.width = w;
  pix.field = negcam_structure_get_field (s);
  /* The caps give the frame height, V4L2 one field's lines. */
  pix.height = pix.field == V4L2_FIELD_ALTERNATE ? h / 2 : h;
  negcam_format_set_pix (fmt, &pix);
  interval->numerator = interval->denominator = 0;
  if (gst_structure_get_fraction (s, "framerate", &n, &d) && n > 0) {
    interval->numerator = d;
    interval->denominator = n;
  }
  return TRUE;
}
