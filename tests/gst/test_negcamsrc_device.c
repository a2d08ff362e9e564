/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc on a real V4L2 device, through the kernel backend. Run in the
 * VM by tests/vm/gst-suite.sh (negcam.ko and vivid); without a device it
 * skips (exit 77), so it is built on the host but not run there.
 *
 *   NEGCAM_TEST_DEVICE   the node, e.g. /dev/video1 (required)
 *   NEGCAM_TEST_PROFILE  negcam.ko's profile: negotiation must equal the
 *                        embedded engine's, frames carry readable stamps.
 *                        Unset for other drivers (vivid): results must be
 *                        valid and within the filter.
 *   NEGCAM_TEST_UNPLUG   the module's unplug file: test_unplug writes it.
 *   GST_CHECKS           selects tests (gst-check), as the suite does.
 *
 * test_slow_consumer prints one line "slow-consumer: ..." with its
 * numbers; the suite compares them with v4l2src on the same device.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "framegen.h"
#include "filters.h"
#include "harness.h"
#include "leakcheck.h"

static const gchar *device, *profile;

/* ------------------------------------------------------------------ */

/* One negotiation and one frame; @dev "" = embedded with @prof.
 * prefer=resolution: a device node keeps its last format, the embedded
 * engine starts from the profile default. */
static void
negotiate_once (const gchar * dev, const gchar * prof, const gchar * filter,
    Outcome * o)
{
  gchar *props = g_strdup_printf ("device=\"%s\" num-buffers=1 "
      "prefer=resolution%s%s%s", dev, prof ? " profile=\"" : "",
      prof ? prof : "", prof ? "\"" : "");

  run_negcamsrc (props, filter, o);
  g_free (props);
}

/* Everything the device offers (a caps query in READY). */
static GstCaps *
device_caps (void)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);

  fail_unless (src != NULL);
  g_object_set (src, "device", device, NULL);
  return ready_caps (src);
}

GST_START_TEST (test_filters)
{
  GstCaps *all = device_caps ();
  guint i, same = 0, negotiated = 0;

  GST_INFO ("device caps %" GST_PTR_FORMAT, all);
  for (i = 0; i < G_N_ELEMENTS (filters); i++) {
    GstCaps *fc = gst_caps_from_string (filters[i]);
    Outcome dev;

    negotiate_once (device, NULL, filters[i], &dev);
    if (profile) {
      /* negcam.ko: the same engine, so the same answer as in process */
      Outcome emb;

      negotiate_once ("", profile, filters[i], &emb);
      fail_unless ((emb.msg == NULL) == (dev.msg == NULL),
          "%s: embedded %s, kernel %s", filters[i],
          emb.msg ? "negotiated" : outcome_error (&emb),
          dev.msg ? "negotiated" : outcome_error (&dev));
      if (emb.msg) {
        GstCaps *a = outcome_caps (&emb), *b = outcome_caps (&dev);

        fail_unless (gst_caps_is_equal (a, b), "%s: embedded %" GST_PTR_FORMAT
            ", kernel %" GST_PTR_FORMAT, filters[i], a, b);
        gst_caps_unref (a);
        gst_caps_unref (b);
      }
      same++;
      outcome_clear (&emb);
    }
    if (dev.msg) {
      GstCaps *c = outcome_caps (&dev);

      /* valid and within the filter and the device's caps */
      fail_unless (gst_caps_is_fixed (c), "%s: %" GST_PTR_FORMAT,
          filters[i], c);
      fail_unless (gst_caps_can_intersect (c, fc), "%s: %" GST_PTR_FORMAT
          " outside the filter", filters[i], c);
      fail_unless (gst_caps_can_intersect (c, all), "%s: %" GST_PTR_FORMAT
          " not offered by the device", filters[i], c);
      fail_unless (dev.error == NULL, "%s: negotiated %" GST_PTR_FORMAT
          " then failed: %s", filters[i], c, outcome_error (&dev));
      /* (negcam.ko draws every built-in format, so no error after
       * negotiation is expected from either backend) */
      negotiated++;
      gst_caps_unref (c);
    } else {
      /* refused: only when the device has nothing the filter allows, or
       * a device without size enumeration refused the point it chose */
      fail_unless (dev.error != NULL);
      if (gst_caps_can_intersect (all, fc))
        GST_INFO ("%s: refused although the caps intersect: %s",
            filters[i], outcome_error (&dev));
      if (!profile)
        fail_unless (!gst_caps_can_intersect (all, fc),
            "%s: vivid refused a filter it can satisfy: %s", filters[i],
            outcome_error (&dev));
    }
    outcome_clear (&dev);
    gst_caps_unref (fc);
  }
  g_print ("filters: %s %s: %u filters, %u negotiated, %u compared with "
      "the embedded engine\n", device, profile ? profile : "(vivid)",
      (guint) G_N_ELEMENTS (filters), negotiated, same);
  fail_unless (negotiated > 0);
  gst_caps_unref (all);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Frames                                                              */

static long
read_stamp (GstSample * s)
{
  GstVideoInfo info;
  GstVideoFrame f;
  long stamp;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
  fail_unless (gst_video_frame_map (&f, &info, gst_sample_get_buffer (s),
          GST_MAP_READ));
  stamp = negcam_stamp_read (GST_VIDEO_FRAME_PLANE_DATA (&f, 0), 1,
      GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), GST_VIDEO_FRAME_WIDTH (&f),
      GST_VIDEO_FRAME_HEIGHT (&f));
  gst_video_frame_unmap (&f);
  return stamp;
}

/* A small raw size the device really gives: the first of a list that
 * intersects its caps and negotiates (a device without size enumeration,
 * such as tv-tuner, offers every size and adjusts to its own). */
static gboolean
small_size_of (GstCaps * all, const gchar * media, guint skip, gint * w,
    gint * h)
{
  static const gint sizes[][2] = { {320, 240}, {320, 180}, {640, 480},
  {640, 360}, {352, 288}, {160, 120}, {176, 144}, {720, 480}, {800, 600},
  {720, 576}, {1280, 720}
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gchar *str = g_strdup_printf ("%s,width=%d,height=%d", media,
        sizes[i][0], sizes[i][1]);
    GstCaps *c = gst_caps_from_string (str);
    gboolean ok = gst_caps_can_intersect (c, all);
    Outcome o;

    gst_caps_unref (c);
    if (ok) {
      negotiate_once (device, NULL, str, &o);
      ok = o.msg != NULL && o.error == NULL;
      outcome_clear (&o);
    }
    g_free (str);
    if (ok && skip-- == 0) {
      *w = sizes[i][0];
      *h = sizes[i][1];
      return TRUE;
    }
  }
  return FALSE;
}

static gboolean
small_size (GstCaps * all, guint skip, gint * w, gint * h)
{
  return small_size_of (all, "video/x-raw", skip, w, h);
}

GST_START_TEST (test_frames)
{
  GstCaps *all = device_caps ();
  gint w, h;
  gchar *desc;
  GstElement *pipe, *sink;
  guint i, n = 15, with_meta = 0;
  long first_stamp = -1, prev = -1;
  GstClockTime prev_pts = GST_CLOCK_TIME_NONE;
  gboolean jpeg = FALSE;

  /* raw if the device has it, else MJPG through jpegdec */
  if (!small_size (all, 0, &w, &h)) {
    jpeg = TRUE;
    fail_unless (small_size_of (all, "image/jpeg", 0, &w, &h),
        "no small raw or MJPG size in %" GST_PTR_FORMAT, all);
  }
  desc = g_strdup_printf ("negcamsrc name=src device=%s libv4l2=%s ! "
      "%s,width=%d,height=%d ! %s videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink", device,
      g_getenv ("NEGCAM_TEST_LIBV4L2") ? "true" : "false",
      jpeg ? "image/jpeg" : "video/x-raw", w, h, jpeg ? "jpegdec !" : "");
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < n; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    GstBuffer *b;

    fail_unless (s != NULL, "%s: frame %u missing", desc, i);
    b = gst_sample_get_buffer (s);
    /* driver timestamps: running time, increasing; raw one attached */
    fail_unless (GST_BUFFER_PTS_IS_VALID (b));
    if (GST_CLOCK_TIME_IS_VALID (prev_pts))
      fail_unless (GST_BUFFER_PTS (b) > prev_pts);
    prev_pts = GST_BUFFER_PTS (b);
    if (gst_buffer_get_reference_timestamp_meta (b, NULL))
      with_meta++;
    if (profile) {
      long stamp = read_stamp (s);

      /* the frame number is the driver's sequence number (decoders do
       * not keep buffer offsets: increasing only, then) */
      if (!jpeg)
        fail_unless_equals_int64 (stamp, GST_BUFFER_OFFSET (b));
      fail_unless (stamp > prev, "frame %ld after %ld", stamp, prev);
      if (first_stamp < 0)
        first_stamp = stamp;
      prev = stamp;
    }
    gst_sample_unref (s);
  }
  /* (jpegdec drops metas it does not know: checked on raw only) */
  if (!jpeg)
    fail_unless_equals_int (with_meta, n);
  g_print ("frames: %s%s %dx%d: %u frames, stamps %ld..%ld, every one with "
      "the driver timestamp as reference meta\n", device,
      g_getenv ("NEGCAM_TEST_LIBV4L2") ? " (libv4l2)" : "", w, h, n,
      first_stamp, prev);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  gst_caps_unref (all);
  g_free (desc);
}

GST_END_TEST;

/* io-mode=dmabuf: the buffers are exported dma-bufs, readable by map. */
GST_START_TEST (test_dmabuf)
{
  GstCaps *all = device_caps ();
  gint w, h;
  gchar *desc;
  GstElement *pipe, *sink, *src;
  GstStructure *stats = NULL;
  guint i;
  gboolean dmabuf = FALSE;

  fail_unless (small_size (all, 0, &w, &h));
  desc = g_strdup_printf ("negcamsrc name=src device=%s io-mode=dmabuf ! "
      "video/x-raw,format=YUY2,width=%d,height=%d ! appsink name=sink",
      device, w, h);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 10; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);
    GstBuffer *b;
    GstMemory *mem;

    fail_unless (s != NULL, "%s: frame %u missing", desc, i);
    b = gst_sample_get_buffer (s);
    mem = gst_buffer_peek_memory (b, 0);
    fail_unless (gst_is_dmabuf_memory (mem), "frame %u is not a dma-buf", i);
    fail_unless (gst_dmabuf_memory_get_fd (mem) >= 0);
    if (profile) {
      GstMapInfo map;
      long stamp;

      fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
      /* YUY2: luma every second byte */
      stamp = negcam_stamp_read (map.data, 2, w * 2, w, h);
      gst_buffer_unmap (b, &map);
      fail_unless_equals_int64 (stamp, GST_BUFFER_OFFSET (b));
    }
    gst_sample_unref (s);
  }
  g_object_get (src, "stats", &stats, NULL);
  fail_unless (gst_structure_get_boolean (stats, "dmabuf", &dmabuf));
  fail_unless (dmabuf);
  gst_structure_free (stats);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  gst_caps_unref (all);
  g_free (desc);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Slow consumer at 1080p                                              */

GST_START_TEST (test_slow_consumer)
{
  const gchar *mode = g_getenv ("NEGCAM_TEST_IO_MODE");
  const gchar *nstr = g_getenv ("NEGCAM_TEST_SLOW_FRAMES");
  const gchar *sstr = g_getenv ("NEGCAM_TEST_SLEEP_US");
  guint n = nstr ? atoi (nstr) : 40;
  /* slower than the frame rate of 1080p on both devices (5 fps) */
  guint sleep_us = sstr ? atoi (sstr) : 300000;
  gchar *desc = g_strdup_printf ("negcamsrc name=src device=%s num-buffers=%u "
      "io-mode=%s ! video/x-raw,format=YUY2,width=1920,height=1080 ! "
      "queue ! identity sleep-time=%u ! fakesink name=sink", device, n,
      mode ? mode : "auto", sleep_us);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *src;
  GstBus *bus;
  GstMessage *m;
  GstStructure *stats = NULL;
  guint64 frames = 0, lost = 0, copies = 0;
  guint nbufs = 0, created = 0, latency_msgs = 0;
  GstQuery *q;
  GstClockTime min = 0, max = 0;
  gboolean live = FALSE;

  fail_unless (pipe != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    m = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_LATENCY);
    fail_unless (m != NULL, "timeout");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_LATENCY) {
      latency_msgs++;
      gst_bin_recalculate_latency (GST_BIN (pipe));
      gst_message_unref (m);
      continue;
    }
    fail_unless (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS, "error");
    gst_message_unref (m);
    break;
  }
  q = gst_query_new_latency ();
  if (gst_element_query (src, q))
    gst_query_parse_latency (q, &live, &min, &max);
  gst_query_unref (q);
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "frames", &frames);
  gst_structure_get_uint64 (stats, "lost", &lost);
  gst_structure_get_uint64 (stats, "copies", &copies);
  gst_structure_get_uint (stats, "buffers", &nbufs);
  gst_structure_get_uint (stats, "created", &created);
  g_print ("slow-consumer: negcamsrc %s 1920x1080 YUY2 io-mode=%s, "
      "consumer %u us/frame: %" G_GUINT64_FORMAT " frames, %"
      G_GUINT64_FORMAT " copies, %" G_GUINT64_FORMAT " lost (driver drops), "
      "%u buffers (%u by CREATE_BUFS), %u latency messages, latency min %"
      GST_TIME_FORMAT " max %" GST_TIME_FORMAT "\n", device,
      mode ? mode : "auto", sleep_us, frames, copies, lost, nbufs, created, latency_msgs, GST_TIME_ARGS (min),
      GST_TIME_ARGS (max));
  fail_unless_equals_int64 (frames, n);
  fail_unless_equals_int64 (copies, 0);
  gst_structure_free (stats);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* 50 caps changes while playing                                       */

typedef struct {
  GMutex lock;
  GstBuffer *held;
  gboolean hold;
} Holder;

/* Keeps the newest device buffer (when asked) across a caps change: the
 * renegotiation must then orphan it, not fail with EBUSY. */
static GstPadProbeReturn
hold_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Holder *h = data;

  g_mutex_lock (&h->lock);
  if (h->hold)
    gst_buffer_replace (&h->held, GST_PAD_PROBE_INFO_BUFFER (info));
  g_mutex_unlock (&h->lock);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_renegotiate_50)
{
  GstCaps *all = device_caps ();
  gint w[2], h[2];
  gchar *desc;
  GstElement *pipe, *sink, *cf, *src;
  GstPad *pad;
  Holder holder = { 0 };
  guint i, held_changes = 0, negotiations = 0;
  GstStructure *stats = NULL;

  fail_unless (small_size (all, 0, &w[0], &h[0]));
  fail_unless (small_size (all, 1, &w[1], &h[1]));
  g_mutex_init (&holder.lock);
  desc = g_strdup_printf ("negcamsrc name=src device=%s ! capsfilter name=cf "
      "caps=video/x-raw,width=%d,height=%d ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink max-buffers=2 drop=true",
      device, w[0], h[0]);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  cf = gst_bin_get_by_name (GST_BIN (pipe), "cf");
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, hold_buffer, &holder,
      NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i <= 50; i++) {
    gint k = i % 2;
    gboolean seen = FALSE;
    gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

    if (i > 0) {
      gchar *cs = g_strdup_printf ("video/x-raw,width=%d,height=%d", w[k],
          h[k]);
      GstCaps *c = gst_caps_from_string (cs);

      /* every other change with a device buffer still held downstream */
      g_mutex_lock (&holder.lock);
      holder.hold = (i % 4) < 2;
      if (holder.held)
        held_changes++;
      g_mutex_unlock (&holder.lock);
      g_object_set (cf, "caps", c, NULL);
      gst_caps_unref (c);
      g_free (cs);
    }
    while (!seen) {
      GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          GST_SECOND);
      GstVideoInfo info;

      fail_unless (g_get_monotonic_time () < deadline,
          "change %u: no %dx%d frame", i, w[k], h[k]);
      if (!s)
        continue;
      fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s)));
      if (info.width == w[k] && info.height == h[k]) {
        seen = TRUE;
        if (profile)
          fail_unless_equals_int64 (read_stamp (s),
              GST_BUFFER_OFFSET (gst_sample_get_buffer (s)));
      }
      gst_sample_unref (s);
    }
    g_mutex_lock (&holder.lock);
    if (!holder.hold)
      gst_clear_buffer (&holder.held);
    g_mutex_unlock (&holder.lock);
  }
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint (stats, "negotiations", &negotiations);
  gst_structure_free (stats);
  g_print ("renegotiate: %s: 50 caps changes between %dx%d and %dx%d, %u "
      "negotiations, %u of them with a device buffer held downstream\n",
      device, w[0], h[0], w[1], h[1], negotiations, held_changes);
  fail_unless (negotiations >= 51);
  fail_unless (held_changes > 0);
  gst_pad_remove_probe (pad, 1);
  g_mutex_lock (&holder.lock);
  gst_clear_buffer (&holder.held);
  holder.hold = FALSE;
  g_mutex_unlock (&holder.lock);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_object_unref (cf);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  gst_caps_unref (all);
  g_mutex_clear (&holder.lock);
  g_free (desc);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Unplug while playing                                                */

GST_START_TEST (test_unplug)
{
  const gchar *unplug = g_getenv ("NEGCAM_TEST_UNPLUG");
  GstTracer *tracer = find_leaks_tracer ();
  GstElement *pipe, *sink;
  GstBus *bus;
  GstMessage *m;
  GError *err = NULL;
  gchar *dbg = NULL, *desc;
  guint i, fds;
  gint fd;

  fail_unless (unplug != NULL, "NEGCAM_TEST_UNPLUG not set");
  fail_unless (tracer != NULL, "run with GST_TRACERS=leaks");
  desc = g_strdup_printf ("negcamsrc device=%s ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink", device);
  /* once through, so that what GStreamer creates once (clock, caches,
   * thread pools) exists before counting */
  pipe = gst_parse_launch (desc, NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 3; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);

    fail_unless (s != NULL, "warm-up frame %u", i);
    gst_sample_unref (s);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);

  fds = count_fds ();
  g_signal_emit_by_name (tracer, "activity-start-tracking");
  pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 5; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        20 * GST_SECOND);

    fail_unless (s != NULL, "frame %u", i);
    gst_sample_unref (s);
  }
  /* the device vanishes while frames flow */
  fd = open (unplug, O_WRONLY);
  fail_unless (fd >= 0, "%s", unplug);
  fail_unless (write (fd, "1", 1) == 1);
  close (fd);
  m = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error after unplug");
  gst_message_parse_error (m, &err, &dbg);
  g_print ("unplug: error \"%s\" (%s)\n", err->message, dbg);
  fail_unless (strstr (err->message, device) != NULL,
      "the error does not name %s: %s", device, err->message);
  fail_unless (strstr (err->message, "disappeared") != NULL, "%s",
      err->message);
  fail_unless (err->domain == GST_RESOURCE_ERROR
      && err->code == GST_RESOURCE_ERROR_NOT_FOUND);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (m);
  /* stops cleanly, everything released: descriptors, objects */
  fail_unless (gst_element_set_state (pipe, GST_STATE_NULL)
      == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  fail_unless_equals_int (count_fds (), fds);
  fail_unless_equals_int (live_delta (tracer), 0);
  g_signal_emit_by_name (tracer, "activity-stop-tracking");
  gst_object_unref (tracer);
  g_print ("unplug: %s: error names the device, NULL reached, 0 objects and "
      "0 descriptors left\n", device);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */

static Suite *
negcamsrc_device_suite (void)
{
  Suite *s = suite_create ("negcamsrc-device");
  TCase *tc = tcase_create ("device");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_filters);
  tcase_add_test (tc, test_frames);
  tcase_add_test (tc, test_dmabuf);
  tcase_add_test (tc, test_slow_consumer);
  tcase_add_test (tc, test_renegotiate_50);
  tcase_add_test (tc, test_unplug);
  return s;
}

int
main (int argc, char **argv)
{
  Suite *s;

  device = g_getenv ("NEGCAM_TEST_DEVICE");
  profile = g_getenv ("NEGCAM_TEST_PROFILE");
  if (profile && !profile[0])
    profile = NULL;
  if (!device || !device[0]) {
    g_print ("SKIP: NEGCAM_TEST_DEVICE not set (runs in the VM: "
        "tests/vm/gst-suite.sh)\n");
    return 77;
  }
  gst_check_init (&argc, &argv);
  s = negcamsrc_device_suite ();
  return gst_check_run_suite (s, "negcamsrc-device", __FILE__);
}
