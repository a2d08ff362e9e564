/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-negcamconvertsink
 * @title: negcamconvertsink
 * @see_also: negcamsink, negcamuvcconvertsink
 *
 * negcamsink behind videorate, videoconvert, videoscale and, when the
 * device wants Motion JPEG, jpegenc: a producer written once serves
 * whatever format the device (on a loop: its consumer) asks for, and
 * follows it when the consumer changes format while playing. The
 * read-only `encoding` property says whether jpegenc is in the chain.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! negcamconvertsink device=/dev/video2
 * ]| Feeds a loop's output node in every format its consumer may choose.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=30 ! \
 *     negcamconvertsink profile=tests/gst/output.profile
 * ]| The embedded engine with an output queue, no module needed.
 *
 * See docs/negcamsink.md, "negcamconvertsink".
 */
/*
 * negcamconvertsink: the converting bin (negcamconvertbin.c, which owns
 * the chain, the encoder swap and the rate stage) ending in negcamsink,
 * with negcamsink's device and profile properties.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "negcamconvertbin.h"
#include "negcamsink.h"

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_PROFILE,
};

static void
gst_negcam_convert_sink_class_init (gpointer klass, gpointer data)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  ((GstNegcamConvertBinClass *) klass)->sink_factory = "negcamsink";
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "negcamsink's device: a V4L2 output node, empty for the embedded "
          "engine",
          "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PROFILE,
      g_param_spec_string ("profile", "Profile",
          "negcamsink's profile for the embedded engine", "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
              | GST_PARAM_MUTABLE_READY));
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass),
      "Negcam converting video sink", "Sink/Video/Converter",
      "negcamsink behind videoconvert, videoscale, videorate and, when the "
      "device wants JPEG, jpegenc: one producer for every format a loop "
      "offers",
      "negcam developers");
}

GType
gst_negcam_convert_sink_get_type (void)
{
  static gsize type;

  return gst_negcam_convert_bin_subclass (
      &type, "GstNegcamConvertSink", gst_negcam_convert_sink_class_init);
}

GST_ELEMENT_REGISTER_DEFINE (negcamconvertsink, "negcamconvertsink",
    GST_RANK_NONE, GST_TYPE_NEGCAM_CONVERT_SINK);
