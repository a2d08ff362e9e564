/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fixation and format choice for negcamsrc, see negcamfixate.c and
 * docs/negcamsrc.md ("prefer").
 */
#ifndef __NEGCAM_FIXATE_H__
#define __NEGCAM_FIXATE_H__

#include <gst/gst.h>
#include "negcamformatcache.h"

G_BEGIN_DECLS

/**
 * GstNegcamPrefer:
 * @GST_NEGCAM_PREFER_DEVICE: the device's own default mode when downstream
 *   allows it, else a live rate: the device's default rate (at least 15 fps)
 *   or the closest below it, then the largest frame
 * @GST_NEGCAM_PREFER_RESOLUTION: largest frame, then highest rate, then raw
 * @GST_NEGCAM_PREFER_FRAMERATE: highest rate, then largest frame, then raw
 * @GST_NEGCAM_PREFER_RAW: raw formats first, then resolution, then rate
 * @GST_NEGCAM_PREFER_COMPRESSED: compressed formats first, then resolution,
 *   then rate
 *
 * How negcamsrc fixates when downstream leaves a choice. Downstream's own
 * order comes first: the choice is made among the modes that match the
 * first structure of downstream's caps that any mode matches
 * (negcam_fixate_candidates()).
 */
typedef enum {
  GST_NEGCAM_PREFER_DEVICE,
  GST_NEGCAM_PREFER_RESOLUTION,
  GST_NEGCAM_PREFER_FRAMERATE,
  GST_NEGCAM_PREFER_RAW,
  GST_NEGCAM_PREFER_COMPRESSED,
} GstNegcamPrefer;

/*
 * Fixate non-empty @caps (already within what downstream accepts) by
 * @prefer: every structure is fixated to its best point, the best of those
 * wins, ties going to enumeration order. @cache (may be NULL) gives the
 * device default for GST_NEGCAM_PREFER_DEVICE.
 */
GstCaps *negcam_fixate (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *caps);

/*
 * @caps (taken) in the element's own order of preference, best first:
 * under GST_NEGCAM_PREFER_DEVICE the structures holding the device's
 * default mode lead; then every structure ranks by its best point, as
 * negcam_fixate() ranks them; ties keep their order. GStreamer reads caps
 * order as preference: a peer that hands these caps back (camerabin's
 * wrappercamerabinsrc sets them on a capsfilter) asks for what negcamsrc
 * would choose, not for the device's first-enumerated size.
 */
GstCaps *negcam_caps_by_preference (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *caps);

/*
 * @caps (taken) narrowed to a caps query's @filter (NULL: all of @caps) in
 * the filter's order, as GStreamer's base classes answer: the caller's
 * preference first, ours within each of its structures.
 */
GstCaps *negcam_caps_filter_first (GstCaps *caps, GstCaps *filter);

/*
 * What the device offers within downstream's preferred structure of @peer
 * (NULL: anything): the first structure of @peer, in @peer's order, that
 * any mode of the device matches. Frame rates included, but
 * ENUM_FRAMEINTERVALS asked only for the sizes fixation can pick, so that
 * fixating the result gives what fixating all the modes within that
 * structure would. Empty when nothing matches any structure.
 */
GstCaps *negcam_fixate_candidates (
    NegcamFormatCache *cache, GstNegcamPrefer prefer, GstCaps *peer);

/* The first field in which @want and @got differ ("width"...), or NULL;
 * @asked and @offered receive the two values, serialized. */
const gchar *negcam_caps_first_difference (const GstStructure *want,
    const GstStructure *got, gchar **asked, gchar **offered);

/* "YUY2 160x120 to 1920x1080, image/jpeg ..." for error messages. */
gchar *negcam_caps_offers_brief (GstCaps *caps);

/* When nothing but the interlacing (interlace-mode, field-order, the
 * format:Interlaced caps feature) keeps @offers out of @accepts: a
 * sentence naming the device's interlace-mode and what downstream
 * accepts instead, for error messages. NULL otherwise. */
gchar *negcam_caps_interlace_refusal (GstCaps *offers, GstCaps *accepts);

G_END_DECLS

#endif /* __NEGCAM_FIXATE_H__ */
