/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcampwconvertsink
 * @title: negcampwconvertsink
 * @see_also: negcampwsink, negcamuvcconvertsink, negcamconvertsink
 *
 * negcampwsink behind videorate, videoconvert, videoscale and, when a
 * consumer asks Motion JPEG, jpegenc: any source is a PipeWire camera
 * whose format, size and rate each consumer chooses (browsers through the
 * Camera portal, pipewiresrc, pw-v4l2). Each consumer's Format
 * renegotiates the running pipeline; while no consumer streams the
 * pipeline waits at the bin's entry, before any conversion.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! negcampwconvertsink profile=webcam label="Desk Camera"
 * ]| A camera node (node.name negcam.Desk-Camera) with every size of
 * `webcam` in YUY2 and MJPG.
 *
 * See docs/pipewire.md, "A pipeline as the camera".
 */
/*
 * negcampwconvertsink: the converting bin (negcamconvertbin.c: the chain,
 * the encoder swap on RECONFIGURE, the rate stage, the hold while no one
 * reads) ending in negcampwsink, with negcampwsink's profile and label.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "negcamconvertbin.h"
#include "negcampwsink.h"

static void
gst_negcam_pw_convert_sink_class_init (gpointer klass, gpointer data)
{
  ((GstNegcamConvertBinClass *) klass)->sink_factory = "negcampwsink";
  gst_negcam_pw_sink_install_properties (G_OBJECT_CLASS (klass), 1);
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "Negcam converting PipeWire camera sink", "Sink/Video/Converter",
      "negcampwsink behind videoconvert, videoscale, videorate and, when a "
      "consumer asks MJPEG, jpegenc: any source as a PipeWire camera whose "
      "format each consumer chooses",
      "negcam developers");
}

GType
gst_negcam_pw_convert_sink_get_type (void)
{
  static gsize type;

  return gst_negcam_convert_bin_subclass (&type, "GstNegcamPwConvertSink",
      gst_negcam_pw_convert_sink_class_init);
}

GST_ELEMENT_REGISTER_DEFINE (negcampwconvertsink, "negcampwconvertsink",
    GST_RANK_NONE, GST_TYPE_NEGCAM_PW_CONVERT_SINK);
