/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L2 <-> GstCaps mapping: which GStreamer media type and format a
 * fourcc is, fixed caps for a device format (field, colorimetry) and the
 * helpers the enumeration cache builds its caps with. Pure data and
 * conversion: no device, no state; it needs only <linux/videodev2.h>, so
 * an element that is no V4L2 client (negcamuvcsink) includes this alone.
 * The cache of what a device enumerates is negcamformatcache.h.
 */
#ifndef __NEGCAM_CAPS_H__
#define __NEGCAM_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

/* The largest width or height in caps ranges. */
#define NEGCAM_MAX_DIM 16384

/* Template caps: every media type and raw format negcamsrc can map. */
GstCaps *negcam_caps_template (void);

/* The media type and format of @fourcc alone; NULL when unmappable. */
GstStructure *negcam_fourcc_to_structure (guint32 fourcc);

/*
 * Fixed caps for a complete device format (a TRY/S/G_FMT answer) and a
 * frame interval (numerator 0 = leave framerate out): media type, format,
 * size, framerate, interlace-mode and, for raw video, colorimetry from the
 * four V4L2 colorimetry fields.
 */
GstCaps *negcam_caps_from_format (
    const struct v4l2_pix_format *pix, const struct v4l2_fract *interval);

/* A V4L2 field in words, for messages: "progressive" for
 * V4L2_FIELD_NONE, "any field" for V4L2_FIELD_ANY, else the profile
 * language's name ("interlaced", "top", "bottom", "alternate", "seq-tb",
 * "interlaced-tb", ...), "unknown field" for a value V4L2 lacks. */
const gchar *negcam_field_words (guint32 field);

/* The @i-th fourcc that has caps, in table order (raw, Bayer, then
 * compressed); 0 past the end. */
guint32 negcam_fourcc_by_index (guint i);

/* More than one buffer per frame (NV12M, YUV420M ...): exists on
 * multiplanar nodes only. */
gboolean negcam_fourcc_is_multibuffer (guint32 fourcc);

/* interlace-mode=alternate (V4L2_FIELD_ALTERNATE), which needs the caps
 * feature format:Interlaced. */
gboolean negcam_structure_is_alternate (const GstStructure *s);

/* Append @s (taken) to @caps with the caps features its interlace-mode
 * needs; negcam_caps_new_structure: @s (taken) as caps of its own. */
void negcam_caps_append_structure (GstCaps *caps, GstStructure *s);
GstCaps *negcam_caps_new_structure (GstStructure *s);

/* A V4L2 field as interlace-mode (and field-order); SEQ_TB, SEQ_BT, TOP
 * and BOTTOM have no GStreamer name and leave the field out. */
void negcam_structure_set_interlace (GstStructure *s, guint32 field);

/* The V4L2 field @s asks for: V4L2_FIELD_ANY without interlace-mode. */
guint32 negcam_structure_get_field (const GstStructure *s);

G_END_DECLS

#endif /* __NEGCAM_CAPS_H__ */
