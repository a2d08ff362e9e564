/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend negotiates exactly like the embedded one: the same
 * negotiation code reaches the engine once in process and once through a
 * device node (open/ioctl on a file descriptor). Without a kernel module
 * on the test host, the node is served by libnegcam-preload.so (negcam-run's
 * library, LD_PRELOADed by meson; preload-node.h) with an engine on the
 * same profile. Both runs then stream their one buffer, or both fail.
 * Streaming through the kernel backend on negcam.ko is tested in the VM
 * (test_negcamsrc_device.c).
 */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "filters.h"
#include "harness.h"
#include "preload-node.h"

/* One negotiation and one buffer; @device "" = embedded. prefer=resolution:
 * the device default (G_FMT at open) differs when a device node keeps the
 * last format, as real ones do. */
static void
run (const gchar *device, const gchar *profile, const gchar *filter,
    Outcome *o)
{
  gchar *props = g_strdup_printf ("device=\"%s\" profile=\"%s\" "
      "is-live=false num-buffers=1 prefer=resolution", device, profile);

  run_negcamsrc (props, filter, o);
  g_free (props);
}

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
    Outcome emb, ker;

    run ("", profile, filters[i], &emb);
    run (node, profile, filters[i], &ker);
    if (!emb.msg) {
      fail_unless (emb.error && ker.error && !ker.msg,
          "%s: kernel backend negotiated what the embedded one refused",
          filters[i]);
      outcome_clear (&emb);
      outcome_clear (&ker);
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
     * format as a real one does, so its default fourcc may differ; and
     * S_PARM, asked only when the rate S_FMT left is not the one wanted,
     * which on the node depends on the last run's rate */
    {
      guint et = 0, kt = 0, es = 0, ks = 0;

      gst_structure_get_uint (emb.msg, "try-fmt", &et);
      gst_structure_get_uint (ker.msg, "try-fmt", &kt);
      gst_structure_get_uint (emb.msg, "s-parm", &es);
      gst_structure_get_uint (ker.msg, "s-parm", &ks);
      fail_unless (kt == et || kt == et + 1, "%s: try-fmt %u vs %u",
          filters[i], et, kt);
      fail_unless (es <= 1 && ks <= 1, "%s: s-parm %u, %u", filters[i], es,
          ks);
      for (j = 0; j < G_N_ELEMENTS (counted); j++) {
        guint x = 0, y = 0;

        gst_structure_get_uint (emb.msg, counted[j], &x);
        gst_structure_get_uint (ker.msg, counted[j], &y);
        if (!strcmp (counted[j], "try-fmt") || !strcmp (counted[j],
                "requests"))
          y -= kt - et;
        if (!strcmp (counted[j], "s-parm") || !strcmp (counted[j],
                "requests"))
          y = y + es - ks;
        fail_unless_equals_int (x, y);
      }
    }
    /* the node streams as the embedded device does: both runs end alike */
    fail_unless (!ker.error == !emb.error, "%s: kernel run %s, embedded %s",
        filters[i], ker.error ? "failed" : "ended", emb.error ? "failed" : "ended");
    compared++;
    outcome_clear (&emb);
    outcome_clear (&ker);
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
