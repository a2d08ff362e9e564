/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcam-renegotiate: build "negcamsrc ! capsfilter ! fakesink", let it
 * negotiate, then change the capsfilter twice while
 * PLAYING. Each change makes downstream send RECONFIGURE; negcamsrc stops
 * streaming, releases its buffers, sets the new format and restarts. The
 * program prints every negcam-negotiated message it sees.
 *
 *   GST_PLUGIN_PATH=build/gst ./build/examples/negcam-renegotiate [profile]
 *
 * Exit status 0 when three negotiations happened, each to the caps asked.
 */
#include <stdlib.h>
#include <gst/gst.h>

static const gchar *steps[] = {
  "video/x-raw,width=320,height=240",
  "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1",
  "image/jpeg,width=1280,height=720",
};

/* Wait for the next negcam-negotiated message; print it. */
static gboolean
wait_negotiated (GstBus * bus, GstCaps * want)
{
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR);
    const GstStructure *s;
    GstCaps *caps = NULL;
    gboolean ok;

    if (!m) {
      g_printerr ("timeout waiting for a negotiation\n");
      return FALSE;
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (m, &err, &dbg);
      g_printerr ("error: %s\n%s\n", err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (m);
      return FALSE;
    }
    s = gst_message_get_structure (m);
    if (!gst_structure_has_name (s, "negcam-negotiated")) {
      gst_message_unref (m);
      continue;
    }
    gst_structure_get (s, "caps", GST_TYPE_CAPS, &caps, NULL);
    {
      gchar *str = gst_caps_to_string (caps);

      g_print ("negotiated: %s\n  %s\n", gst_structure_get_string (s,
              "summary"), str);
      g_free (str);
    }
    ok = caps && gst_caps_can_intersect (caps, want);
    gst_caps_unref (caps);
    gst_message_unref (m);
    return ok;
  }
}

int
main (int argc, char **argv)
{
  const gchar *profile = argc > 1 ? argv[1] : "webcam";
  GstElement *pipe, *src, *cf, *sink;
  GstBus *bus;
  guint i, ok = 0;

  gst_init (&argc, &argv);
  pipe = gst_pipeline_new ("renegotiate");
  src = gst_element_factory_make ("negcamsrc", NULL);
  cf = gst_element_factory_make ("capsfilter", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  if (!src || !cf || !sink) {
    g_printerr ("missing elements (is GST_PLUGIN_PATH set to build/gst?)\n");
    return 2;
  }
  g_object_set (src, "profile", profile, NULL);
  gst_bin_add_many (GST_BIN (pipe), src, cf, sink, NULL);
  gst_element_link_many (src, cf, sink, NULL);

  bus = gst_element_get_bus (pipe);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstCaps *caps = gst_caps_from_string (steps[i]);

    g_print ("%s capsfilter caps=%s\n", i ? "renegotiate:" : "start:",
        steps[i]);
    g_object_set (cf, "caps", caps, NULL);
    if (i == 0)
      gst_element_set_state (pipe, GST_STATE_PLAYING);
    if (wait_negotiated (bus, caps))
      ok++;
    gst_caps_unref (caps);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_print ("%u of %u negotiations gave the caps asked for\n", ok,
      (guint) G_N_ELEMENTS (steps));
  return ok == G_N_ELEMENTS (steps) ? EXIT_SUCCESS : EXIT_FAILURE;
}
