/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamuvcsink: a pipeline as a USB Video Class camera that the kernel's
 * uvcvideo serves (uvc/'s device core on vhci-hcd), and
 * negcamuvcconvertsink, the converting bin in front of it. See
 * docs/uvc.md, "A pipeline as the camera".
 */
#ifndef __GST_NEGCAM_UVC_SINK_H__
#define __GST_NEGCAM_UVC_SINK_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_UVC_SINK (gst_negcam_uvc_sink_get_type ())
G_DECLARE_FINAL_TYPE (
    GstNegcamUvcSink, gst_negcam_uvc_sink, GST, NEGCAM_UVC_SINK, GstBaseSink)

/* negcamuvcconvertsink: a GstNegcamConvertBin ending in negcamuvcsink */
GType gst_negcam_uvc_convert_sink_get_type (void);
#define GST_TYPE_NEGCAM_UVC_CONVERT_SINK (gst_negcam_uvc_convert_sink_get_type ())

/* Install negcamuvcsink's profile, port and label properties (ids
 * @first_id ..) on @klass: the sink's and the converting bin's. */
void gst_negcam_uvc_sink_install_properties (
    GObjectClass *klass, guint first_id);

GST_ELEMENT_REGISTER_DECLARE (negcamuvcsink);
GST_ELEMENT_REGISTER_DECLARE (negcamuvcconvertsink);

G_END_DECLS

#endif /* __GST_NEGCAM_UVC_SINK_H__ */
