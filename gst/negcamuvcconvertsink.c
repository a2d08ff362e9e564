/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamuvcconvertsink
 * @title: negcamuvcconvertsink
 * @see_also: negcamuvcsink, negcamconvertsink
 *
 * negcamuvcsink behind videorate, videoconvert, videoscale and, when the
 * host commits Motion JPEG, jpegenc (given full-range BT.601 I420 made
 * from RGB: a JFIF JPEG with the source's colours): any source is a USB
 * webcam whose format, size and rate the host application chooses. Each COMMIT
 * renegotiates the running pipeline; nothing restarts.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! negcamuvcconvertsink profile=webcam
 * ]| A virtual webcam (as root, vhci-hcd loaded): every size of `webcam`
 * in YUYV and MJPEG.
 * |[
 * gst-launch-1.0 v4l2src device=/dev/video0 ! \
 *     negcamuvcconvertsink profile=logitech-c920 label="Desk Camera"
 * ]| Another camera seen again, as a C920-like USB camera.
 *
 * See docs/uvc.md, "A pipeline as the camera".
 */
/*
 * negcamuvcconvertsink: the converting bin (negcamconvertbin.c: the chain,
 * the encoder swap on RECONFIGURE, the rate stage) ending in
 * negcamuvcsink, with negcamuvcsink's profile, port and label.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "negcamconvertbin.h"
#include "negcamuvcsink.h"

static void
gst_negcam_uvc_convert_sink_class_init (gpointer klass, gpointer data)
{
  ((GstNegcamConvertBinClass *) klass)->sink_factory = "negcamuvcsink";
  gst_negcam_uvc_sink_install_properties (G_OBJECT_CLASS (klass), 1);
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "Negcam converting USB camera sink", "Sink/Video/Converter",
      "negcamuvcsink behind videoconvert, videoscale, videorate and, when the "
      "host commits MJPEG, jpegenc: any source as a USB webcam whose format "
      "the host chooses",
      "negcam developers");
}

GType
gst_negcam_uvc_convert_sink_get_type (void)
{
  static gsize type;

  return gst_negcam_convert_bin_subclass (&type, "GstNegcamUvcConvertSink",
      gst_negcam_uvc_convert_sink_class_init);
}

GST_ELEMENT_REGISTER_DEFINE (negcamuvcconvertsink, "negcamuvcconvertsink",
    GST_RANK_NONE, GST_TYPE_NEGCAM_UVC_CONVERT_SINK);
