/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * V4L2 formats as GstCaps and back, and NegcamProbe: the lazily filled
 * cache of what a device enumerates (ENUM_FMT, ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS, and one TRY_FMT with V4L2_FIELD_ANY per raw
 * format other than the open-time one, for its field). Probing never
 * calls S_FMT; it asks only for what the caller's filter can still use
 * and remembers every answer for the life of the device (a new profile
 * means a new device, hence a new probe).
 */
#ifndef __NEGCAM_CAPS_H__
#define __NEGCAM_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "negcamdevice.h"

G_BEGIN_DECLS

typedef struct _NegcamProbe NegcamProbe;

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

NegcamProbe *negcam_probe_new (NegcamDevice *dev);
/*
 * The same for the queue of @type (V4L2_BUF_TYPE_VIDEO_OUTPUT for
 * negcamsink): ENUM_FMT, G_FMT, G_PARM and the formats made by
 * negcam_probe_caps_to_format() name that queue. ENUM_FRAMESIZES and
 * ENUM_FRAMEINTERVALS carry no type: the device answers for the fourcc.
 */
NegcamProbe *negcam_probe_new_for_type (NegcamDevice *dev, guint32 type);
void negcam_probe_free (NegcamProbe *probe);

/*
 * Let the probe find a format the filter fixes (or narrows to a few
 * fourccs) with ENUM_FRAMESIZES alone, without walking ENUM_FMT: a device
 * answers EINVAL for a fourcc it lacks. Off by default; only for a node
 * whose ENUM_FRAMESIZES answers for exactly its ENUM_FMT capture formats
 * (not with an output queue on the same node, not through libv4l2's
 * emulated formats). Without ENUM_FRAMESIZES (ENOTTY) the probe falls
 * back to ENUM_FMT by itself. Results are the same either way.
 */
void negcam_probe_set_size_lookup (NegcamProbe *probe, gboolean allow);

/* What the device offers that can match @filter (NULL: everything). */
GstCaps *negcam_probe_caps (NegcamProbe *probe, GstCaps *filter);

/*
 * The same without framerate: ENUM_FMT and ENUM_FRAMESIZES only, no
 * ENUM_FRAMEINTERVALS. Lets negotiation rank sizes first and then ask
 * intervals only for the sizes it would pick.
 */
GstCaps *negcam_probe_size_caps (NegcamProbe *probe, GstCaps *filter);

/*
 * Fixed caps to a v4l2_format of the probe's type (pixelformat, width,
 * height, field; on a multiplanar queue an M format before its contiguous
 * twin, NV12M before NV12)
 * and the requested frame interval (0/0 if no framerate). FALSE when the
 * caps name no format this device enumerated.
 */
gboolean negcam_probe_caps_to_format (NegcamProbe *probe, GstCaps *caps,
    struct v4l2_format *fmt, struct v4l2_fract *interval);

/* The device's format (single-planar view, negcam_format_get_pix) and
 * interval at open (G_FMT, G_PARM). */
const struct v4l2_pix_format *negcam_probe_default_format (NegcamProbe *probe);
const struct v4l2_fract *negcam_probe_default_interval (NegcamProbe *probe);
/* G_PARM reported V4L2_CAP_TIMEPERFRAME: S_PARM can set the rate. */
gboolean negcam_probe_can_set_rate (NegcamProbe *probe);

G_END_DECLS

#endif /* __NEGCAM_CAPS_H__ */
