/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend negotiates exactly like the embedded one: the same
 * negotiation code reaches the engine once in process and once through a
 * device node (open/ioctl on a file descriptor). Without a kernel module
 * on the test host, the node is served by libnegcam-preload.so (negcam-run's
 * library, LD_PRELOADed by meson; preload-node.h) with an engine on the
 * same profile. Both runs then stream their one buffer, or both fail.
 * Streaming through the kernel backend on negcam.ko is tested in the VM
 * (issue 5).
 */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "preload-node.h"

typedef struct {
  GstStructure *msg;
  gboolean error;
} Run;

static void
run (const gchar *device, const gchar *profile, const gchar *filter,
    Run *r)
{
  GstElement *pipe = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);
  GstElement *cf = gst_element_factory_make ("capsfilter", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstCaps *caps = gst_caps_from_string (filter);
  GstBus *bus;

  memset (r, 0, sizeof (*r));
  fail_unless (src && caps);
  /* prefer=resolution: the device default (G_FMT at open) differs when a
   * device node keeps the last format, as real ones do */
  g_object_set (src, "device", device, "profile", profile, "is-live", FALSE,
      "num-buffers", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (src), "prefer", "resolution");
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (pipe), src, cf, sink, NULL);
  fail_unless (gst_element_link_many (src, cf, sink, NULL));
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_ELEMENT);

    fail_unless (m != NULL, "timeout");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT) {
      if (!r->msg && gst_message_has_name (m, "negcam-negotiated"))
        r->msg = gst_structure_copy (gst_message_get_structure (m));
      gst_message_unref (m);
      continue;
    }
    r->error = GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR;
    gst_message_unref (m);
    break;
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

static const gchar *filters[] = {
  "video/x-raw",
  "image/jpeg",
  "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1",
  "video/x-raw,width=[100,400],height=[100,300]",
  "video/x-raw,format=NV12,width=800,height=608,framerate=50/1",
  "video/x-raw,interlace-mode=interleaved",
  "video/x-raw,width=720,height=480",
  "video/x-raw,format=RGB",
  "video/x-raw,framerate=[1/1,10/1]",
};

GST_START_TEST (test_same_negotiation_both_backends)
{
  gchar *node = NULL, *profile = NULL;
  static const gchar *counted[] = { "enum-fmt", "enum-framesizes",
    "enum-frameintervals", "try-fmt", "s-fmt", "s-parm", "requests"
  };
  guint i, j, compared = 0;

  fail_unless (preload_node (&node, &profile),
      "run with libnegcam-preload.so (meson test)");
  for (i = 0; i < G_N_ELEMENTS (filters); i++) {
    Run emb, ker;

    run ("", profile, filters[i], &emb);
    run (node, profile, filters[i], &ker);
    if (!emb.msg) {
      fail_unless (emb.error && ker.error && !ker.msg,
          "%s: kernel backend negotiated what the embedded one refused",
          filters[i]);
      continue;
    }
    fail_unless (ker.msg != NULL, "%s: kernel backend did not negotiate",
        filters[i]);
    {
      GstCaps *a = NULL, *b = NULL;

      gst_structure_get (emb.msg, "caps", GST_TYPE_CAPS, &a, NULL);
      gst_structure_get (ker.msg, "caps", GST_TYPE_CAPS, &b, NULL);
      fail_unless (gst_caps_is_equal (a, b), "%s: %" GST_PTR_FORMAT " vs %"
          GST_PTR_FORMAT, filters[i], a, b);
      gst_caps_unref (a);
      gst_caps_unref (b);
    }
    /* the same requests, one for one, but for the field of a raw
     * format: known from G_FMT at open for the default's fourcc, asked
     * with one TRY_FMT for the others; the node keeps the last run's
     * format as a real one does, so its default fourcc may differ */
    {
      guint et = 0, kt = 0;

      gst_structure_get_uint (emb.msg, "try-fmt", &et);
      gst_structure_get_uint (ker.msg, "try-fmt", &kt);
      fail_unless (kt == et || kt == et + 1, "%s: try-fmt %u vs %u",
          filters[i], et, kt);
      for (j = 0; j < G_N_ELEMENTS (counted); j++) {
        guint x = 0, y = 0;

        gst_structure_get_uint (emb.msg, counted[j], &x);
        gst_structure_get_uint (ker.msg, counted[j], &y);
        if (!strcmp (counted[j], "try-fmt") || !strcmp (counted[j],
                "requests"))
          y -= kt - et;
        fail_unless_equals_int (x, y);
      }
    }
    /* the node streams as the embedded device does: both runs end alike */
    fail_unless (ker.error == emb.error, "%s: kernel run %s, embedded %s",
        filters[i], ker.error ? "failed" : "ended", emb.error ? "failed" : "ended");
    compared++;
    gst_structure_free (emb.msg);
    gst_structure_free (ker.msg);
  }
  GST_INFO ("%s: %u negotiations compared", profile, compared);
  fail_unless (compared > 0);
  g_free (node);
  g_free (profile);
}

GST_END_TEST;

static Suite *
negcamsrc_kernel_suite (void)
{
  Suite *s = suite_create ("negcamsrc-kernel");
  TCase *tc = tcase_create ("preload");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_same_negotiation_both_backends);
  return s;
}

GST_CHECK_MAIN (negcamsrc_kernel);
