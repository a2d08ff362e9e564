/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fixation and format choice for negcamsrc, see negcamfixate.c and
 * docs/negcamsrc.md ("prefer").
 */
#ifndef __NEGCAM_FIXATE_H__
#define __NEGCAM_FIXATE_H__

#include <gst/gst.h>
#include "gstnegcamsrc.h"
#include "negcamcaps.h"

G_BEGIN_DECLS

/*
 * Fixate non-empty @caps (already within what downstream accepts) by
 * @prefer: every structure is fixated to its best point, the best of those
 * wins, ties going to enumeration order. @probe (may be NULL) gives the
 * device default for GST_NEGCAM_PREFER_DEVICE.
 */
GstCaps *negcam_fixate (
    NegcamProbe *probe, GstNegcamPrefer prefer, GstCaps *caps);

/*
 * What the device offers that @peer accepts (NULL: anything), with frame
 * rates, asking ENUM_FRAMEINTERVALS only for the sizes fixation can pick.
 * Fixating the result gives what fixating the full caps would.
 */
GstCaps *negcam_fixate_candidates (
    NegcamProbe *probe, GstNegcamPrefer prefer, GstCaps *peer);

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
