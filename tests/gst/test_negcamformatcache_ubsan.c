/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The format cache keys its rates on fourcc, width and height. A fourcc with
 * bit 31 set (V4L2's big-endian flag: Y16-BE) once overflowed a signed
 * shift; meson builds gst/negcamformatcache.c into this test with UBSan and
 * -fno-sanitize-recover, so that overflow aborts it. The caps must carry
 * the format with its rates, and a second format that differs only in
 * bit 31 (Y16 and Y16-BE at the same size) must keep its own rates.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "negcamdevice.h"
#include "negcamformatcache.h"

static const gchar *profile_text = "name be\n"
                                   "format Y16-BE\n"
                                   "  size 320x240 fps 30 15\n"
                                   "format Y16\n"
                                   "  size 320x240 fps 25\n";

/* The framerate field of the structure of @caps with format @format. */
static gchar *
rates_of (GstCaps *caps, const gchar *format)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);

    if (g_strcmp0 (gst_structure_get_string (s, "format"), format) == 0)
      return gst_value_serialize (gst_structure_get_value (s, "framerate"));
  }
  return NULL;
}

GST_START_TEST (test_rates_key_bit31)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);
  GError *err = NULL;
  NegcamDevice *dev;
  NegcamFormatCache *cache;
  GstCaps *caps;
  gchar *be, *le;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, profile_text, -1, NULL));
  dev = negcam_device_open (NULL, path, &err);
  fail_unless (dev != NULL, "%s", err ? err->message : "");
  cache = negcam_format_cache_new (dev);
  caps = negcam_format_cache_caps (cache, NULL);
  be = rates_of (caps, "GRAY16_BE");
  le = rates_of (caps, "GRAY16_LE");
  fail_unless (be && strstr (be, "30/1") && strstr (be, "15/1"), "%s", be);
  fail_unless (le && strstr (le, "25/1") && !strstr (le, "30/1"), "%s", le);
  g_free (be);
  g_free (le);
  gst_caps_unref (caps);
  negcam_format_cache_free (cache);
  negcam_device_unref (dev);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
negcamformatcache_ubsan_suite (void)
{
  Suite *s = suite_create ("negcamformatcache-ubsan");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_rates_key_bit31);
  return s;
}

GST_CHECK_MAIN (negcamformatcache_ubsan);
