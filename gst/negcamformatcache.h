/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamFormatCache: the lazily filled cache of what a device enumerates
 * (ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS, and one TRY_FMT with
 * V4L2_FIELD_ANY per raw format other than the open-time one, for its
 * field), as caps. It never calls S_FMT; it asks only for what the
 * caller's filter can still use and remembers every answer for the life
 * of the device (a new profile means a new device, hence a new cache).
 * negcamsrc, negcamsink and the device provider build their caps with it;
 * the fourcc <-> caps mapping it uses is negcamcaps.h.
 */
#ifndef __NEGCAM_FORMAT_CACHE_H__
#define __NEGCAM_FORMAT_CACHE_H__

#include <gst/gst.h>
#include "negcamcaps.h"
#include "negcamdevice.h"

G_BEGIN_DECLS

typedef struct _NegcamFormatCache NegcamFormatCache;

NegcamFormatCache *negcam_format_cache_new (NegcamDevice *dev);
/*
 * The same for the queue of @type (V4L2_BUF_TYPE_VIDEO_OUTPUT for
 * negcamsink): ENUM_FMT, G_FMT, G_PARM and the formats made by
 * negcam_format_cache_caps_to_format() name that queue. ENUM_FRAMESIZES and
 * ENUM_FRAMEINTERVALS carry no type: the device answers for the fourcc.
 */
NegcamFormatCache *negcam_format_cache_new_for_type (
    NegcamDevice *dev, guint32 type);
void negcam_format_cache_free (NegcamFormatCache *cache);

/*
 * Let the format cache find a format the filter fixes (or narrows to a few
 * fourccs) with ENUM_FRAMESIZES alone, without walking ENUM_FMT: a device
 * answers EINVAL for a fourcc it lacks. Off by default; only for a node
 * whose ENUM_FRAMESIZES answers for exactly its ENUM_FMT capture formats
 * (not with an output queue on the same node, not through libv4l2's
 * emulated formats). Without ENUM_FRAMESIZES (ENOTTY) the format cache falls
 * back to ENUM_FMT by itself. Results are the same either way.
 */
void negcam_format_cache_set_size_lookup (
    NegcamFormatCache *cache, gboolean allow);

/* What the device offers that can match @filter (NULL: everything). */
GstCaps *negcam_format_cache_caps (NegcamFormatCache *cache, GstCaps *filter);

/*
 * The same without framerate: ENUM_FMT and ENUM_FRAMESIZES only, no
 * ENUM_FRAMEINTERVALS. Lets negotiation rank sizes first and then ask
 * intervals only for the sizes it would pick.
 */
GstCaps *negcam_format_cache_size_caps (
    NegcamFormatCache *cache, GstCaps *filter);

/*
 * Fixed caps to a v4l2_format of the format cache's type (pixelformat, width,
 * height, field; on a multiplanar queue an M format before its contiguous
 * twin, NV12M before NV12)
 * and the requested frame interval (0/0 if no framerate). FALSE when the
 * caps name no format this device enumerated.
 */
gboolean negcam_format_cache_caps_to_format (NegcamFormatCache *cache,
    GstCaps *caps, struct v4l2_format *fmt, struct v4l2_fract *interval);

/* The device's format (single-planar view, negcam_format_get_pix) and
 * interval at open (G_FMT, G_PARM). */
const struct v4l2_pix_format *negcam_format_cache_default_format (
    NegcamFormatCache *cache);
const struct v4l2_fract *negcam_format_cache_default_interval (
    NegcamFormatCache *cache);
/* G_PARM reported V4L2_CAP_TIMEPERFRAME: S_PARM can set the rate. */
gboolean negcam_format_cache_can_set_rate (NegcamFormatCache *cache);

G_END_DECLS

#endif /* __NEGCAM_FORMAT_CACHE_H__ */
