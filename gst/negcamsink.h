/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink: writes video into a V4L2 output queue (a negcam.ko loop's
 * output node, vivid's video output, any output device, or the embedded
 * engine playing a profile with an output queue). See docs/negcamsink.md.
 */
#ifndef __GST_NEGCAM_SINK_H__
#define __GST_NEGCAM_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_SINK (gst_negcam_sink_get_type ())
G_DECLARE_FINAL_TYPE (
    GstNegcamSink, gst_negcam_sink, GST, NEGCAM_SINK, GstBaseSink)

/* negcamconvertsink: a GstNegcamConvertBin ending in negcamsink */
GType gst_negcam_convert_sink_get_type (void);
#define GST_TYPE_NEGCAM_CONVERT_SINK (gst_negcam_convert_sink_get_type ())

GST_ELEMENT_REGISTER_DECLARE (negcamsink);
GST_ELEMENT_REGISTER_DECLARE (negcamconvertsink);

G_END_DECLS

#endif /* __GST_NEGCAM_SINK_H__ */
