/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NULL -> PLAYING -> NULL 1000 times, each time waiting for a frame, under
 * the leaks tracer (meson runs this with GST_TRACERS=leaks): the number of
 * live GstObjects and GstMiniObjects afterwards is what it was after the
 * first cycle.
 */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "leakcheck.h"

typedef struct {
  GMutex lock;
  GCond cond;
  guint buffers;
} Counter;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Counter *c = data;

  g_mutex_lock (&c->lock);
  c->buffers++;
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

static void
cycle (GstElement * pipe, GstElement * src, Counter * c, guint i)
{
  guint before;
  gint64 end;

  g_object_set (src, "is-live", (i / 2) % 2 == 0, "pattern", i % 3, NULL);
  g_mutex_lock (&c->lock);
  before = c->buffers;
  g_mutex_unlock (&c->lock);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  g_mutex_lock (&c->lock);
  while (c->buffers == before)
    fail_unless (g_cond_wait_until (&c->cond, &c->lock, end),
        "no frame in cycle %u", i);
  g_mutex_unlock (&c->lock);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  /* Nobody watches this bus: drain it, failing on any error. */
  {
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *m;

    while ((m = gst_bus_pop (bus))) {
      fail_if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR, "error in cycle %u",
          i);
      gst_message_unref (m);
    }
    gst_object_unref (bus);
  }
}

/* @cycles NULL -> PLAYING -> NULL of @desc (negcamsrc "src" ! ... !
 * fakesink "sink") under the leaks tracer: nothing may be left. */
static void
check_cycles (const gchar * desc, guint cycles)
{
  GstTracer *tracer = find_leaks_tracer ();
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  Counter c = { 0, };
  gint left;
  guint i;

  fail_unless (tracer != NULL, "run with GST_TRACERS=leaks");
  fail_unless (src != NULL, "negcamsrc not found (GST_PLUGIN_PATH?)");
  g_mutex_init (&c.lock);
  g_cond_init (&c.cond);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &c, NULL);

  /* One cycle to create what lives for the process (class data, the
   * registry's caches), then track. */
  cycle (pipe, src, &c, 0);
  /* A streaming task's thread drops its last ref on the GstTask just
   * after the join: let that settle at both ends of the window. */
  g_usleep (200 * 1000);
  g_signal_emit_by_name (tracer, "activity-start-tracking");
  for (i = 1; i <= cycles; i++)
    cycle (pipe, src, &c, i);
  g_usleep (200 * 1000);
  left = live_delta (tracer);
  g_signal_emit_by_name (tracer, "activity-stop-tracking");
  GST_INFO ("%s: %u cycles, %u frames, %d objects left", desc, cycles,
      c.buffers, left);
  fail_unless_equals_int (left, 0);

  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipe);
  gst_object_unref (tracer);
  g_cond_clear (&c.cond);
  g_mutex_clear (&c.lock);
}

GST_START_TEST (test_null_playing_null_1000)
{
  check_cycles ("negcamsrc name=src ! video/x-raw,width=160,height=120 ! "
      "fakesink name=sink", 1000);
}

GST_END_TEST;

/* The device's default mode allowed (probed alone) and a filter of two
 * structures (the second one's candidates): other negotiation paths. */
GST_START_TEST (test_null_playing_null_default_mode)
{
  check_cycles ("negcamsrc name=src ! video/x-raw ! fakesink name=sink", 200);
  check_cycles ("negcamsrc name=src ! capsfilter "
      "caps=\"video/x-raw,format=NV12;video/x-raw,width=320,height=240\" ! "
      "fakesink name=sink", 200);
}

GST_END_TEST;

static Suite *
negcamsrc_leaks_suite (void)
{
  Suite *s = suite_create ("negcamsrc-leaks");
  TCase *tc = tcase_create ("leaks");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_null_playing_null_1000);
  tcase_add_test (tc, test_null_playing_null_default_mode);
  return s;
}

GST_CHECK_MAIN (negcamsrc_leaks);
