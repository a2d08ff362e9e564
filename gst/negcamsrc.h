/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef __GST_NEGCAM_SRC_H__
#define __GST_NEGCAM_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_SRC (gst_negcam_src_get_type ())
G_DECLARE_FINAL_TYPE (GstNegcamSrc, gst_negcam_src, GST, NEGCAM_SRC, GstPushSrc)

/**
 * GstNegcamPattern:
 * @GST_NEGCAM_PATTERN_BARS: colour bars with a moving box
 * @GST_NEGCAM_PATTERN_GRADIENT: a gradient with a moving box
 * @GST_NEGCAM_PATTERN_SOLID: mid grey; only the stamp and the box change
 *
 * The test picture (V4L2_CID_TEST_PATTERN of the device).
 */
typedef enum {
  GST_NEGCAM_PATTERN_BARS,
  GST_NEGCAM_PATTERN_GRADIENT,
  GST_NEGCAM_PATTERN_SOLID,
} GstNegcamPattern;

GST_ELEMENT_REGISTER_DECLARE (negcamsrc);

G_END_DECLS

#endif /* __GST_NEGCAM_SRC_H__ */
