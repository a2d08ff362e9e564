/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * V4L2 formats <-> GstCaps: the fourcc table, the caps template, field
 * and colorimetry. Pure mapping, no device: see negcamcaps.h. The
 * enumeration cache that uses it is negcamformatcache.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamcaps.h"
#include "profile.h"

/* V4L2 fourcc -> GStreamer raw format. V4L2 and GStreamer name several
 * formats differently (YUYV is YUY2, YU12 is I420, GREY is GRAY8, the
 * RGB32 family is named by component order in memory in GStreamer). */
static const struct {
  guint32 fourcc;
  GstVideoFormat format;
  guint buffers; /* memory planes, for the M formats; 0: one */
} raw_formats[] = {
  { V4L2_PIX_FMT_YUYV, GST_VIDEO_FORMAT_YUY2 },
  { V4L2_PIX_FMT_YVYU, GST_VIDEO_FORMAT_YVYU },
  { V4L2_PIX_FMT_UYVY, GST_VIDEO_FORMAT_UYVY },
  { V4L2_PIX_FMT_VYUY, GST_VIDEO_FORMAT_VYUY },
  { V4L2_PIX_FMT_NV12, GST_VIDEO_FORMAT_NV12 },
  { V4L2_PIX_FMT_NV21, GST_VIDEO_FORMAT_NV21 },
  { V4L2_PIX_FMT_NV16, GST_VIDEO_FORMAT_NV16 },
  { V4L2_PIX_FMT_NV61, GST_VIDEO_FORMAT_NV61 },
  { V4L2_PIX_FMT_NV24, GST_VIDEO_FORMAT_NV24 },
  { V4L2_PIX_FMT_P010, GST_VIDEO_FORMAT_P010_10LE },
  { V4L2_PIX_FMT_YUV420, GST_VIDEO_FORMAT_I420 },
  { V4L2_PIX_FMT_YVU420, GST_VIDEO_FORMAT_YV12 },
  { V4L2_PIX_FMT_YUV422P, GST_VIDEO_FORMAT_Y42B },
  { V4L2_PIX_FMT_YUV411P, GST_VIDEO_FORMAT_Y41B },
  { V4L2_PIX_FMT_YUV410, GST_VIDEO_FORMAT_YUV9 },
  { V4L2_PIX_FMT_YVU410, GST_VIDEO_FORMAT_YVU9 },
  { V4L2_PIX_FMT_GREY, GST_VIDEO_FORMAT_GRAY8 },
  { V4L2_PIX_FMT_Y16, GST_VIDEO_FORMAT_GRAY16_LE },
  { V4L2_PIX_FMT_Y16_BE, GST_VIDEO_FORMAT_GRAY16_BE },
  { V4L2_PIX_FMT_RGB565, GST_VIDEO_FORMAT_RGB16 },
  { V4L2_PIX_FMT_RGB555, GST_VIDEO_FORMAT_RGB15 },
  { V4L2_PIX_FMT_RGB24, GST_VIDEO_FORMAT_RGB },
  { V4L2_PIX_FMT_BGR24, GST_VIDEO_FORMAT_BGR },
  { V4L2_PIX_FMT_XBGR32, GST_VIDEO_FORMAT_BGRx },
  { V4L2_PIX_FMT_ABGR32, GST_VIDEO_FORMAT_BGRA },
  { V4L2_PIX_FMT_XRGB32, GST_VIDEO_FORMAT_xRGB },
  { V4L2_PIX_FMT_ARGB32, GST_VIDEO_FORMAT_ARGB },
  { V4L2_PIX_FMT_RGBX32, GST_VIDEO_FORMAT_RGBx },
  { V4L2_PIX_FMT_RGBA32, GST_VIDEO_FORMAT_RGBA },
  { V4L2_PIX_FMT_BGRX32, GST_VIDEO_FORMAT_xBGR },
  { V4L2_PIX_FMT_BGRA32, GST_VIDEO_FORMAT_ABGR },
  { V4L2_PIX_FMT_RGB32,
      GST_VIDEO_FORMAT_xRGB }, /* deprecated, ambiguous alpha */
  { V4L2_PIX_FMT_BGR32, GST_VIDEO_FORMAT_BGRx },
  { V4L2_PIX_FMT_AYUV32, GST_VIDEO_FORMAT_AYUV },
  { V4L2_PIX_FMT_VUYA32, GST_VIDEO_FORMAT_VUYA },
  /* The M formats: the same planes, one buffer each; multiplanar nodes
   * only (V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE). */
  { V4L2_PIX_FMT_NV12M, GST_VIDEO_FORMAT_NV12, 2 },
  { V4L2_PIX_FMT_NV21M, GST_VIDEO_FORMAT_NV21, 2 },
  { V4L2_PIX_FMT_NV16M, GST_VIDEO_FORMAT_NV16, 2 },
  { V4L2_PIX_FMT_NV61M, GST_VIDEO_FORMAT_NV61, 2 },
  { V4L2_PIX_FMT_YUV420M, GST_VIDEO_FORMAT_I420, 3 },
  { V4L2_PIX_FMT_YVU420M, GST_VIDEO_FORMAT_YV12, 3 },
  { V4L2_PIX_FMT_YUV422M, GST_VIDEO_FORMAT_Y42B, 3 },
  { V4L2_PIX_FMT_YUV444M, GST_VIDEO_FORMAT_Y444, 3 },
};

gboolean
negcam_fourcc_is_multibuffer (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (raw_formats); i++)
    if (raw_formats[i].fourcc == fourcc)
      return raw_formats[i].buffers > 1;
  return FALSE;
}

static const struct {
  guint32 fourcc;
  const gchar *format;
} bayer_formats[] = {
  { V4L2_PIX_FMT_SBGGR8, "bggr" },
  { V4L2_PIX_FMT_SGBRG8, "gbrg" },
  { V4L2_PIX_FMT_SGRBG8, "grbg" },
  { V4L2_PIX_FMT_SRGGB8, "rggb" },
};

GstStructure *
negcam_fourcc_to_structure (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (raw_formats); i++)
    if (raw_formats[i].fourcc == fourcc)
      return gst_structure_new ("video/x-raw", "format", G_TYPE_STRING,
          gst_video_format_to_string (raw_formats[i].format), NULL);
  for (i = 0; i < G_N_ELEMENTS (bayer_formats); i++)
    if (bayer_formats[i].fourcc == fourcc)
      return gst_structure_new ("video/x-bayer", "format", G_TYPE_STRING,
          bayer_formats[i].format, NULL);
  switch (fourcc) {
    case V4L2_PIX_FMT_MJPEG:
    case V4L2_PIX_FMT_JPEG:
      /* One whole JPEG per buffer: decoders need not parse (jpegdec then
       * takes the buffer as is instead of through an adapter). */
      return gst_structure_new (
          "image/jpeg", "parsed", G_TYPE_BOOLEAN, TRUE, NULL);
    case V4L2_PIX_FMT_H264:
      return gst_structure_new ("video/x-h264", "stream-format", G_TYPE_STRING,
          "byte-stream", "alignment", G_TYPE_STRING, "au", NULL);
    default:
      return NULL;
  }
}

/* Every fourcc with caps, in table order (see negcamcaps.h). */
guint32
negcam_fourcc_by_index (guint i)
{
  static const guint32 more[] = { V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_JPEG,
    V4L2_PIX_FMT_H264 };

  if (i < G_N_ELEMENTS (raw_formats))
    return raw_formats[i].fourcc;
  i -= G_N_ELEMENTS (raw_formats);
  if (i < G_N_ELEMENTS (bayer_formats))
    return bayer_formats[i].fourcc;
  i -= G_N_ELEMENTS (bayer_formats);
  return i < G_N_ELEMENTS (more) ? more[i] : 0;
}

/* ------------------------------------------------------------------ */
/* Caps features                                                       */

/* GStreamer carries V4L2_FIELD_ALTERNATE (one field per buffer) as
 * interlace-mode=alternate, which exists only under the caps feature
 * format:Interlaced: elements that do not know the mode then never get
 * it by accident. */
gboolean
negcam_structure_is_alternate (const GstStructure *s)
{
  return !g_strcmp0 (
      gst_structure_get_string (s, "interlace-mode"), "alternate");
}

/* Append @s (taken) to @caps with the caps features its interlace-mode
 * needs. */
void
negcam_caps_append_structure (GstCaps *caps, GstStructure *s)
{
  gst_caps_append_structure_full (caps, s,
      negcam_structure_is_alternate (s)
          ? gst_caps_features_new (GST_CAPS_FEATURE_FORMAT_INTERLACED, NULL)
          : NULL);
}

/* @s (taken) as caps of its own. */
GstCaps *
negcam_caps_new_structure (GstStructure *s)
{
  GstCaps *caps = gst_caps_new_empty ();

  negcam_caps_append_structure (caps, s);
  return caps;
}

GstCaps *
negcam_caps_template (void)
{
  GstCaps *caps = gst_caps_new_empty ();
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  GstStructure *s;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  for (i = 0; i < G_N_ELEMENTS (raw_formats); i++) {
    const gchar *name = gst_video_format_to_string (raw_formats[i].format);
    gboolean dup = FALSE;
    guint j;

    for (j = 0; j < gst_value_list_get_size (&list); j++)
      dup |= !g_strcmp0 (
          g_value_get_string (gst_value_list_get_value (&list, j)), name);
    if (dup)
      continue;
    g_value_set_string (&v, name);
    gst_value_list_append_value (&list, &v);
  }
  s = gst_structure_new_empty ("video/x-raw");
  gst_structure_take_value (s, "format", &list);
  gst_caps_append_structure (caps, s);
  /* The same formats one field per buffer (V4L2_FIELD_ALTERNATE). */
  s = gst_structure_copy (s);
  gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "alternate", NULL);
  negcam_caps_append_structure (caps, s);

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (bayer_formats); i++) {
    g_value_set_string (&v, bayer_formats[i].format);
    gst_value_list_append_value (&list, &v);
  }
  g_value_unset (&v);
  s = gst_structure_new_empty ("video/x-bayer");
  gst_structure_take_value (s, "format", &list);
  gst_caps_append_structure (caps, s);
  gst_caps_append_structure (
      caps, negcam_fourcc_to_structure (V4L2_PIX_FMT_MJPEG));
  gst_caps_append_structure (
      caps, negcam_fourcc_to_structure (V4L2_PIX_FMT_H264));

  for (i = 0; i < gst_caps_get_size (caps); i++)
    gst_structure_set (gst_caps_get_structure (caps, i), "width",
        GST_TYPE_INT_RANGE, 1, NEGCAM_MAX_DIM, "height", GST_TYPE_INT_RANGE, 1,
        NEGCAM_MAX_DIM, "framerate", GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1,
        NULL);
  return caps;
}

/* ------------------------------------------------------------------ */
/* Field and colorimetry                                               */

void
negcam_structure_set_interlace (GstStructure *s, guint32 field)
{
  switch (field) {
    case V4L2_FIELD_NONE:
      gst_structure_set (
          s, "interlace-mode", G_TYPE_STRING, "progressive", NULL);
      break;
    case V4L2_FIELD_INTERLACED:
      gst_structure_set (
          s, "interlace-mode", G_TYPE_STRING, "interleaved", NULL);
      break;
    case V4L2_FIELD_INTERLACED_TB:
      gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "interleaved",
          "field-order", G_TYPE_STRING, "top-field-first", NULL);
      break;
    case V4L2_FIELD_INTERLACED_BT:
      gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "interleaved",
          "field-order", G_TYPE_STRING, "bottom-field-first", NULL);
      break;
    case V4L2_FIELD_ALTERNATE:
      /* One field per buffer; the caps height stays the frame's (see
       * negcam_caps_from_format) and the caps need format:Interlaced
       * (negcam_caps_append_structure). */
      gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "alternate", NULL);
      break;
    default:
      /* SEQ_TB/SEQ_BT/TOP/BOTTOM have no GStreamer equivalent: leave the
       * field out, the device picks. */
      break;
  }
}

const gchar *
negcam_field_words (guint32 field)
{
  const gchar *name = negcam_field_name (field);

  if (field == V4L2_FIELD_NONE)
    return "progressive";
  if (field == V4L2_FIELD_ANY)
    return "any field";
  return name ? name : "unknown field";
}

guint32
negcam_structure_get_field (const GstStructure *s)
{
  const gchar *mode = gst_structure_get_string (s, "interlace-mode");
  const gchar *order = gst_structure_get_string (s, "field-order");

  if (!mode)
    return V4L2_FIELD_ANY;
  if (!strcmp (mode, "progressive"))
    return V4L2_FIELD_NONE;
  if (!strcmp (mode, "interleaved")) {
    if (order && !strcmp (order, "top-field-first"))
      return V4L2_FIELD_INTERLACED_TB;
    if (order && !strcmp (order, "bottom-field-first"))
      return V4L2_FIELD_INTERLACED_BT;
    return V4L2_FIELD_INTERLACED;
  }
  if (!strcmp (mode, "alternate"))
    return V4L2_FIELD_ALTERNATE;
  return V4L2_FIELD_ANY;
}

/* GStreamer's primaries for a V4L2 colorspace. */
static GstVideoColorPrimaries
primaries_of (guint32 cs)
{
  switch (cs) {
    case V4L2_COLORSPACE_SMPTE170M:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTE170M;
    case V4L2_COLORSPACE_470_SYSTEM_M:
      return GST_VIDEO_COLOR_PRIMARIES_BT470M;
    case V4L2_COLORSPACE_470_SYSTEM_BG:
      return GST_VIDEO_COLOR_PRIMARIES_BT470BG;
    case V4L2_COLORSPACE_SMPTE240M:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTE240M;
    case V4L2_COLORSPACE_BT2020:
      return GST_VIDEO_COLOR_PRIMARIES_BT2020;
    case V4L2_COLORSPACE_OPRGB:
      return GST_VIDEO_COLOR_PRIMARIES_ADOBERGB;
    case V4L2_COLORSPACE_DCI_P3:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTERP431;
    default: /* REC709, SRGB, JPEG */
      return GST_VIDEO_COLOR_PRIMARIES_BT709;
  }
}

/* GStreamer's transfer function for a V4L2 one. */
static GstVideoTransferFunction
transfer_of (guint32 xfer)
{
  switch (xfer) {
    case V4L2_XFER_FUNC_SRGB:
      return GST_VIDEO_TRANSFER_SRGB;
    case V4L2_XFER_FUNC_OPRGB:
      return GST_VIDEO_TRANSFER_ADOBERGB;
    case V4L2_XFER_FUNC_SMPTE240M:
      return GST_VIDEO_TRANSFER_SMPTE240M;
    case V4L2_XFER_FUNC_NONE:
      return GST_VIDEO_TRANSFER_GAMMA10;
    case V4L2_XFER_FUNC_SMPTE2084:
      return GST_VIDEO_TRANSFER_SMPTE2084;
    default:
      return GST_VIDEO_TRANSFER_BT709;
  }
}

static gboolean
colorimetry_from_format (
    const struct v4l2_pix_format *pix, gboolean rgb, GstVideoColorimetry *c)
{
  guint32 cs = pix->colorspace, enc = pix->ycbcr_enc;
  guint32 quant = pix->quantization, xfer = pix->xfer_func;

  if (cs == V4L2_COLORSPACE_DEFAULT || cs == V4L2_COLORSPACE_RAW)
    return FALSE;
  if (enc == V4L2_YCBCR_ENC_DEFAULT)
    enc = V4L2_MAP_YCBCR_ENC_DEFAULT (cs);
  if (quant == V4L2_QUANTIZATION_DEFAULT)
    quant = V4L2_MAP_QUANTIZATION_DEFAULT (rgb, cs, enc);
  if (xfer == V4L2_XFER_FUNC_DEFAULT)
    xfer = V4L2_MAP_XFER_FUNC_DEFAULT (cs);

  c->primaries = primaries_of (cs);
  switch (enc) {
    case V4L2_YCBCR_ENC_709:
    case V4L2_YCBCR_ENC_XV709:
      c->matrix = GST_VIDEO_COLOR_MATRIX_BT709;
      break;
    case V4L2_YCBCR_ENC_BT2020:
    case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
      c->matrix = GST_VIDEO_COLOR_MATRIX_BT2020;
      break;
    case V4L2_YCBCR_ENC_SMPTE240M:
      c->matrix = GST_VIDEO_COLOR_MATRIX_SMPTE240M;
      break;
    default:
      c->matrix = GST_VIDEO_COLOR_MATRIX_BT601;
      break;
  }
  c->range = quant == V4L2_QUANTIZATION_FULL_RANGE
      ? GST_VIDEO_COLOR_RANGE_0_255
      : GST_VIDEO_COLOR_RANGE_16_235;
  c->transfer = transfer_of (xfer);
  if (rgb) {
    c->matrix = GST_VIDEO_COLOR_MATRIX_RGB;
    c->range = GST_VIDEO_COLOR_RANGE_0_255;
  }
  return TRUE;
}

GstCaps *
negcam_caps_from_format (
    const struct v4l2_pix_format *pix, const struct v4l2_fract *interval)
{
  GstStructure *s = negcam_fourcc_to_structure (pix->pixelformat);

  if (!s)
    return NULL;
  gst_structure_set (s, "width", G_TYPE_INT, (gint)pix->width, "height",
      G_TYPE_INT, (gint)pix->height, NULL);
  if (interval && interval->numerator && interval->denominator)
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION,
        (gint)interval->denominator, (gint)interval->numerator, NULL);
  if (gst_structure_has_name (s, "video/x-raw")) {
    GstVideoFormat vf =
        gst_video_format_from_string (gst_structure_get_string (s, "format"));
    const GstVideoFormatInfo *info = gst_video_format_get_info (vf);
    GstVideoColorimetry c;

    negcam_structure_set_interlace (s, pix->field);
    /* V4L2 counts the lines of one field for ALTERNATE, GStreamer's caps
     * the frame's. */
    if (pix->field == V4L2_FIELD_ALTERNATE)
      gst_structure_set (s, "height", G_TYPE_INT, (gint)pix->height * 2, NULL);
    if (colorimetry_from_format (pix, GST_VIDEO_FORMAT_INFO_IS_RGB (info), &c)
        && !GST_VIDEO_FORMAT_INFO_IS_GRAY (info)) {
      gchar *str = gst_video_colorimetry_to_string (&c);
      if (str)
        gst_structure_set (s, "colorimetry", G_TYPE_STRING, str, NULL);
      g_free (str);
    }
  }
  return negcam_caps_new_structure (s);
}
