/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcampwsink: a pipeline as a PipeWire camera node (pw/'s node library,
 * pw-node.h), and negcampwconvertsink, the converting bin in front of
 * it. See docs/pipewire.md, "A pipeline as the camera".
 */
#ifndef __GST_NEGCAM_PW_SINK_H__
#define __GST_NEGCAM_PW_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_PW_SINK (gst_negcam_pw_sink_get_type ())
G_DECLARE_FINAL_TYPE (
    GstNegcamPwSink, gst_negcam_pw_sink, GST, NEGCAM_PW_SINK, GstBaseSink)

/* negcampwconvertsink: a GstNegcamConvertBin ending in negcampwsink */
GType gst_negcam_pw_convert_sink_get_type (void);
#define GST_TYPE_NEGCAM_PW_CONVERT_SINK (gst_negcam_pw_convert_sink_get_type ())

/* Install negcampwsink's profile and label properties (ids @first_id ..)
 * on @klass: the sink's and the converting bin's. */
void gst_negcam_pw_sink_install_properties (
    GObjectClass *klass, guint first_id);

GST_ELEMENT_REGISTER_DECLARE (negcampwsink);
GST_ELEMENT_REGISTER_DECLARE (negcampwconvertsink);

G_END_DECLS

#endif /* __GST_NEGCAM_PW_SINK_H__ */
