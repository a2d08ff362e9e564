/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc under each fault of its embedded device (docs/faults.md,
 * docs/negcamsrc.md "Faults"), read from the buffers and messages a
 * pipeline gets:
 * - drop: gaps in the buffer offsets (the frame numbers), the same gaps
 *   as the same seed gives through negcam-run, DISCONT on the next buffer;
 * - error and truncate: the frames are dropped (gaps), never pushed;
 * - faults switched while PLAYING through the 'faults' property, and a
 *   bad list refused with a warning, the old value kept;
 * - source change: negcamsrc renegotiates to the new size;
 * - unplug: an error message saying the device disappeared.
 */
#include <string.h>
#include <gst/app/gstappsink.h>
#include <gst/check/gstcheck.h>
#include <gst/gst.h>

#define PROFILE NEGCAM_SOURCE_ROOT "/tests/gst/faults.profile"

static GstElement *
pipeline (const gchar *faults, const gchar *caps)
{
  gchar *desc = g_strdup_printf (
      "negcamsrc name=src profile=%s ! %s ! appsink name=sink sync=false", PROFILE, caps);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");

  fail_unless (p != NULL, "pipeline %s", desc);
  if (faults)
    g_object_set (src, "faults", faults, NULL);
  gst_object_unref (src);
  g_free (desc);
  return p;
}

/* The offsets of the first @n buffers, as "0 1 2 3 5 ..."; DISCONT ones counted. */
static gchar *
offsets (GstElement *p, guint n, guint *discont)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GString *s = g_string_new (NULL);
  guint i;

  *discont = 0;
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < n; i++) {
    GstSample *sm = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 5 * GST_SECOND);
    GstBuffer *b;

    fail_unless (sm != NULL, "buffer %u", i);
    b = gst_sample_get_buffer (sm);
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? " " : "", GST_BUFFER_OFFSET (b));
    if (i && GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DISCONT))
      (*discont)++;
    gst_sample_unref (sm);
  }
  gst_object_unref (sink);
  return g_string_free (s, FALSE);
}

/* The offsets below 60 that no buffer carried. */
static gchar *
gaps (const gchar *offs)
{
  gchar **v = g_strsplit (offs, " ", -1);
  GString *s = g_string_new (NULL);
  guint64 prev = g_ascii_strtoull (v[0], NULL, 10), cur, k;
  guint i;

  for (i = 1; v[i]; i++) {
    cur = g_ascii_strtoull (v[i], NULL, 10);
    for (k = prev + 1; k < cur && k < 60; k++)
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, s->len ? " " : "", k);
    prev = cur;
  }
  g_strfreev (v);
  return g_string_free (s, FALSE);
}

static gchar *
run_gaps (const gchar *faults, const gchar *caps, guint *discont)
{
  GstElement *p = pipeline (faults, caps);
  gchar *o = offsets (p, 50, discont), *g = gaps (o);

  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_free (o);
  return g;
}

GST_START_TEST (test_drop_gaps_seeded)
{
  guint d1, d2, d3;
  gchar *g1 = run_gaps ("drop 10%; seed 7", "video/x-raw,width=320,height=240", &d1);
  gchar *g2 = run_gaps ("drop 10%; seed 7", "video/x-raw,width=320,height=240", &d2);
  gchar *g3 = run_gaps ("drop 10%; seed 8", "video/x-raw,width=320,height=240", &d3);
  gchar *none = run_gaps (NULL, "video/x-raw,width=320,height=240", &d3);

  GST_INFO ("seed 7: [%s], [%s]; seed 8: [%s]", g1, g2, g3);
  fail_unless (strlen (g1) > 0, "gaps in the offsets");
  fail_unless_equals_string (g1, g2);
  fail_unless (strcmp (g1, g3) != 0, "another seed, other gaps");
  /* the frames negcam-run's v4l2-ctl misses with this seed (test_faults.sh) */
  fail_unless (g_str_has_prefix (g1, "4 6 47"), "seed 7 drops 4, 6, 47...: %s", g1);
  fail_unless (d1 > 0, "DISCONT after a gap");
  fail_unless_equals_string (none, "");
  g_free (g1);
  g_free (g2);
  g_free (g3);
  g_free (none);
}
GST_END_TEST;

GST_START_TEST (test_error_and_truncate_dropped)
{
  guint d;
  gchar *e = run_gaps ("error 20%; seed 3", "video/x-raw,width=320,height=240", &d);
  gchar *t = run_gaps ("truncate 20%; seed 3", "image/jpeg,width=320,height=240", &d);
  gchar *c = run_gaps ("corrupt 20%; seed 3", "image/jpeg,width=320,height=240", &d);

  fail_unless (strlen (e) > 0, "ERROR-flagged frames dropped: gaps");
  fail_unless (strlen (t) > 0, "JPEG frames cut short dropped: gaps");
  fail_unless_equals_string (c, ""); /* corrupt ones are passed on */
  g_free (e);
  g_free (t);
  g_free (c);
}
GST_END_TEST;

GST_START_TEST (test_switch_while_playing)
{
  GstElement *p = pipeline (NULL, "video/x-raw,width=320,height=240");
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  guint d;
  gchar *before = offsets (p, 20, &d), *after, *g, *kept = NULL;

  fail_unless_equals_string (gaps (before), "");
  g_object_set (src, "faults", "drop 50%; seed 1", NULL);
  after = offsets (p, 30, &d);
  g = gaps (after);
  fail_unless (strlen (g) > 0, "drops once switched on: %s", after);
  ASSERT_WARNING (g_object_set (src, "faults", "drop 150%", NULL));
  g_object_get (src, "faults", &kept, NULL);
  fail_unless_equals_string (kept, "drop 50%; seed 1");
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (before);
  g_free (after);
  g_free (g);
  g_free (kept);
}
GST_END_TEST;

GST_START_TEST (test_source_change_renegotiates)
{
  GstElement *p = pipeline ("source-change 300ms 320x240", "video/x-raw");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gint w = 0, h = 0, first_w = 0;
  guint i;

  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < 40; i++) {
    GstSample *sm = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 5 * GST_SECOND);
    GstStructure *s;

    fail_unless (sm != NULL, "buffer %u", i);
    s = gst_caps_get_structure (gst_sample_get_caps (sm), 0);
    gst_structure_get_int (s, "width", &w);
    gst_structure_get_int (s, "height", &h);
    if (!i)
      first_w = w;
    gst_sample_unref (sm);
  }
  fail_unless_equals_int (first_w, 640);
  fail_unless (w == 320 && h == 240, "renegotiated to the new size: %dx%d", w, h);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
}
GST_END_TEST;

GST_START_TEST (test_unplug_error)
{
  GstElement *p = pipeline ("unplug 300ms", "video/x-raw");
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;
  GError *err = NULL;

  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  m = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "an error message");
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, "disappeared") != NULL, "%s", err->message);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND));
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}
GST_END_TEST;

static Suite *
negcamsrc_faults_suite (void)
{
  Suite *s = suite_create ("negcamsrc-faults");
  TCase *tc = tcase_create ("faults");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_drop_gaps_seeded);
  tcase_add_test (tc, test_error_and_truncate_dropped);
  tcase_add_test (tc, test_switch_while_playing);
  tcase_add_test (tc, test_source_change_renegotiates);
  tcase_add_test (tc, test_unplug_error);
  return s;
}

GST_CHECK_MAIN (negcamsrc_faults);
