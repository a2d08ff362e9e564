/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Streaming through the kernel backend on the host: negcamsrc on a device
 * node served by libnegcam-preload.so (negcam-run's library, LD_PRELOADed
 * by meson; preload-node.h), which streams like videobuf2 (MMAP,
 * CREATE_BUFS, EXPBUF as memfds, driver timestamps, dropped frames as
 * sequence gaps). The faults a real device has (unplug, a driver without
 * CREATE_BUFS, a jumping sequence counter) are injected by this test's own
 * ioctl() below, around the library's. What needs a real kernel (real
 * dma-bufs, vivid, negcam.ko) is tested in the VM by
 * test_negcamsrc_device.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/video/video.h>

#include "framegen.h"
#include "leakcheck.h"
#include "preload-node.h"

#define DEV "/dev/negcam-test/video0" /* meson's NEGCAM_RUN_NODES */
#define CAPS_320 "video/x-raw,format=YUY2,width=320,height=240"
#define CAPS_640 "video/x-raw,format=YUY2,width=640,height=480"

/* Faults, injected around the device: this executable exports ioctl()
 * (export_dynamic), which the symbol lookup finds before the preloaded
 * library's; it counts, fails or alters the V4L2 requests and passes the
 * rest on (RTLD_NEXT). */
static gint unplugged, seq_offset, dev_fd = -1;
static guint n_create_bufs, n_expbuf;

int ioctl (int fd, unsigned long request, ...);
int
ioctl (int fd, unsigned long request, ...)
{
  static int (*next) (int, unsigned long, void *);
  void *arg;
  va_list ap;
  int ret;

  va_start (ap, request);
  arg = va_arg (ap, void *);
  va_end (ap);
  if (!next)
    next = (int (*)(int, unsigned long, void *)) dlsym (RTLD_NEXT, "ioctl");
  if (_IOC_TYPE (request) != 'V')
    return next (fd, request, arg);
  g_atomic_int_set (&dev_fd, fd);
  if (g_atomic_int_get (&unplugged)) {
    errno = ENODEV; /* every request, as a driver's after unplug */
    return -1;
  }
  /* a driver without CREATE_BUFS (most before vb2, many still) */
  if (request == VIDIOC_CREATE_BUFS && g_getenv ("NEGCAM_STREAM_NO_CREATE_BUFS")) {
    errno = ENOTTY;
    return -1;
  }
  ret = next (fd, request, arg);
  if (ret == 0 && request == VIDIOC_CREATE_BUFS
      && ((struct v4l2_create_buffers *) arg)->count > 0)
    g_atomic_int_inc (&n_create_bufs);
  if (ret == 0 && request == VIDIOC_EXPBUF)
    g_atomic_int_inc (&n_expbuf);
  if (ret == 0 && request == VIDIOC_DQBUF)
    ((struct v4l2_buffer *) arg)->sequence += g_atomic_int_get (&seq_offset);
  return ret;
}

/* The device vanishes: every request fails with ENODEV, and a poll()
 * waiting on it wakes up (its eventfd made readable). */
static void
unplug (void)
{
  guint64 one = 1;
  gint fd = g_atomic_int_get (&dev_fd);

  g_atomic_int_set (&unplugged, 1);
  if (fd >= 0 && write (fd, &one, sizeof (one)) != sizeof (one))
    GST_WARNING ("could not wake the device's poll: %s", g_strerror (errno));
}

/* The driver's sequence counter moves by @frames (forward: a gap, as lost
 * frames show; back: a driver restarting its count). */
static void
skip (gint frames)
{
  g_atomic_int_add (&seq_offset, frames);
}

static void
device_counts (guint * create_bufs, guint * expbuf)
{
  fail_unless (preload_node_path () != NULL,
      "run with libnegcam-preload.so preloaded (meson test)");
  *create_bufs = g_atomic_int_get (&n_create_bufs);
  *expbuf = g_atomic_int_get (&n_expbuf);
}

static long
stamp_yuy2 (GstBuffer * b, gint w, gint h)
{
  GstMapInfo map;
  long stamp;

  fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
  stamp = negcam_stamp_read (map.data, 2, w * 2, w, h);
  gst_buffer_unmap (b, &map);
  return stamp;
}

static GstClockTime
monotonic_now (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (GstClockTime) t.tv_sec * GST_SECOND + t.tv_nsec;
}

static GstStructure *
stats_of (GstElement * src)
{
  GstStructure *s = NULL;

  g_object_get (src, "stats", &s, NULL);
  return s;
}

/* Frames: dma-buf memory (EXPBUF), readable stamps equal to the driver's
 * sequence, the driver's monotonic timestamp attached, PTS increasing. */
GST_START_TEST (test_stream_frames)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src device=" DEV
      " ! " CAPS_320 " ! appsink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstCaps *ref = gst_caps_new_empty_simple ("timestamp/x-linux-monotonic");
  GstClockTime prev = GST_CLOCK_TIME_NONE, prev_ts = 0;
  GstStructure *st;
  guint64 copies = 1, frames = 0;
  guint i, create_bufs, expbuf, metas = 0, nbuf = 0;
  gboolean dmabuf = FALSE;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 20; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    GstBuffer *b;
    GstReferenceTimestampMeta *m;

    fail_unless (s != NULL, "frame %u", i);
    b = gst_sample_get_buffer (s);
    fail_unless (gst_is_dmabuf_memory (gst_buffer_peek_memory (b, 0)));
    fail_unless_equals_int64 (stamp_yuy2 (b, 320, 240), GST_BUFFER_OFFSET (b));
    m = gst_buffer_get_reference_timestamp_meta (b, ref);
    fail_unless (m != NULL, "no reference timestamp");
    /* the driver's CLOCK_MONOTONIC stamp, taken a moment ago */
    fail_unless (m->timestamp <= monotonic_now ());
    fail_unless (monotonic_now () - m->timestamp < 5 * GST_SECOND);
    /* the meta is kept per pool buffer: updated, never stale */
    fail_unless (m->timestamp > prev_ts, "frame %u: stale driver timestamp",
        i);
    prev_ts = m->timestamp;
    fail_unless (GST_BUFFER_PTS_IS_VALID (b));
    if (GST_CLOCK_TIME_IS_VALID (prev))
      fail_unless (GST_BUFFER_PTS (b) > prev);
    prev = GST_BUFFER_PTS (b);
    gst_sample_unref (s);
  }
  st = stats_of (src);
  fail_unless (gst_structure_get_boolean (st, "dmabuf", &dmabuf) && dmabuf);
  gst_structure_get_uint64 (st, "copies", &copies);
  fail_unless_equals_uint64 (copies, 0);
  /* No allocation per frame: one reference-timestamp meta per pool
   * buffer (GST_META_FLAG_POOLED), not one per frame. */
  fail_unless (gst_structure_get_uint64 (st, "frames", &frames));
  fail_unless (gst_structure_get_uint (st, "reference-metas", &metas));
  fail_unless (gst_structure_get_uint (st, "buffers", &nbuf));
  fail_unless (frames > nbuf, "%" G_GUINT64_FORMAT " frames, %u buffers",
      frames, nbuf);
  fail_unless (metas >= 1 && metas <= nbuf, "%u metas for %"
      G_GUINT64_FORMAT " frames in %u buffers", metas, frames, nbuf);
  gst_structure_free (st);
  device_counts (&create_bufs, &expbuf);
  fail_unless (expbuf > 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_caps_unref (ref);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* io-mode=mmap: the device's mapped buffers, nothing exported. */
GST_START_TEST (test_stream_io_mode_mmap)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc device=" DEV
      " io-mode=mmap ! " CAPS_320 " ! appsink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  guint i, create_bufs, expbuf, expbuf_before;

  /* (counts since load: other tests may have run in this process) */
  device_counts (&create_bufs, &expbuf_before);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 3; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    GstBuffer *b;

    fail_unless (s != NULL);
    b = gst_sample_get_buffer (s);
    fail_if (gst_is_dmabuf_memory (gst_buffer_peek_memory (b, 0)));
    fail_unless_equals_int64 (stamp_yuy2 (b, 320, 240), GST_BUFFER_OFFSET (b));
    gst_sample_unref (s);
  }
  device_counts (&create_bufs, &expbuf);
  fail_unless_equals_int (expbuf, expbuf_before);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* Downstream holds every frame it gets: the pool grows with CREATE_BUFS
 * instead of copying; the latency answer follows the queued frames. */
GST_START_TEST (test_stream_grows_never_copies)
{
  GstHarness *h = gst_harness_new_parse ("negcamsrc device=" DEV);
  GstElement *src = gst_harness_find_element (h, "negcamsrc");
  GstBuffer *held[12];
  GstStructure *st;
  GstQuery *q;
  guint64 copies = 1;
  guint i, nbufs = 0, created = 0, create_bufs, expbuf, create_before;
  GstClockTime min, max;
  gboolean live;

  device_counts (&create_before, &expbuf);
  gst_harness_set_sink_caps_str (h, CAPS_320);
  gst_harness_play (h);
  for (i = 0; i < G_N_ELEMENTS (held); i++) {
    held[i] = gst_harness_pull (h);
    fail_unless (held[i] != NULL);
    if (i > 0)
      fail_unless (GST_BUFFER_OFFSET (held[i]) >
          GST_BUFFER_OFFSET (held[i - 1]));
  }
  /* every held frame still has its own picture: none was overwritten */
  for (i = 0; i < G_N_ELEMENTS (held); i++)
    fail_unless_equals_int64 (stamp_yuy2 (held[i], 320, 240),
        GST_BUFFER_OFFSET (held[i]));
  st = stats_of (src);
  gst_structure_get_uint64 (st, "copies", &copies);
  gst_structure_get_uint (st, "buffers", &nbufs);
  gst_structure_get_uint (st, "created", &created);
  gst_structure_free (st);
  fail_unless_equals_uint64 (copies, 0);
  /* 12 held + at least one queued: more than the 5 it started with */
  fail_unless (nbufs > G_N_ELEMENTS (held), "%u buffers", nbufs);
  fail_unless (created > 0);
  device_counts (&create_bufs, &expbuf);
  fail_unless_equals_int (create_bufs - create_before, created);

  q = gst_query_new_latency ();
  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  gst_query_unref (q);
  fail_unless (live);
  fail_unless_equals_uint64 (min, GST_SECOND / 30);
  /* the frames really queued (fewer than the buffers: 12 are held) */
  fail_unless (max >= min && max <= min * (nbufs - G_N_ELEMENTS (held)),
      "max %" GST_TIME_FORMAT, GST_TIME_ARGS (max));

  for (i = 0; i < G_N_ELEMENTS (held); i++)
    gst_buffer_unref (held[i]);
  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A driver without CREATE_BUFS and downstream holding every buffer: the
 * device has nowhere to capture, so it drops frames (sequence gaps); the
 * element still copies nothing and the pool stays at its size. */
GST_START_TEST (test_stream_no_create_bufs_drops_not_copies)
{
  GstHarness *h;
  GstElement *src;
  GstStructure *st;
  guint64 copies = 1, lost = 0;
  guint i, nbufs = 0, created = 1;
  guint32 prev = 0;

  g_setenv ("NEGCAM_STREAM_NO_CREATE_BUFS", "1", TRUE);
  h = gst_harness_new_parse ("negcamsrc device=" DEV);
  src = gst_harness_find_element (h, "negcamsrc");
  gst_harness_set_sink_caps_str (h, CAPS_320);
  gst_harness_play (h);
  /* not pulling: every buffer piles up in the harness, i.e. downstream */
  g_usleep (G_USEC_PER_SEC / 2);
  for (i = 0; i < 12; i++) {
    GstBuffer *b = gst_harness_pull (h);

    fail_unless (b != NULL);
    if (i > 0)
      fail_unless (GST_BUFFER_OFFSET (b) > prev);
    prev = GST_BUFFER_OFFSET (b);
    fail_unless_equals_int64 (stamp_yuy2 (b, 320, 240), GST_BUFFER_OFFSET (b));
    gst_buffer_unref (b);
  }
  st = stats_of (src);
  gst_structure_get_uint64 (st, "copies", &copies);
  gst_structure_get_uint64 (st, "lost", &lost);
  gst_structure_get_uint (st, "buffers", &nbufs);
  gst_structure_get_uint (st, "created", &created);
  gst_structure_free (st);
  fail_unless_equals_uint64 (copies, 0);
  fail_unless (lost > 0, "no frame dropped while downstream held all");
  fail_unless_equals_int (created, 0);
  fail_unless_equals_int (nbufs, 5);    /* 3 (driver minimum) + 0 + 2 */
  gst_object_unref (src);
  gst_harness_teardown (h);
  g_unsetenv ("NEGCAM_STREAM_NO_CREATE_BUFS");
}

GST_END_TEST;

/* Caps changes with a device buffer held downstream: STREAMOFF,
 * REQBUFS(0) orphans it, S_FMT, new buffers; the held one keeps its
 * picture and stays readable. */
GST_START_TEST (test_stream_renegotiate_holding)
{
  GstHarness *h = gst_harness_new_parse ("negcamsrc device=" DEV);
  GstElement *src = gst_harness_find_element (h, "negcamsrc");
  GstStructure *st;
  guint i, negotiations = 0;

  gst_harness_set_sink_caps_str (h, CAPS_320);
  gst_harness_play (h);
  for (i = 0; i < 10; i++) {
    gboolean big = i % 2 == 0;
    GstBuffer *keep = gst_harness_pull (h), *b;
    long kept_stamp;
    gint w = big ? 640 : 320, hh = big ? 480 : 240;

    fail_unless (keep != NULL);
    kept_stamp = stamp_yuy2 (keep, big ? 320 : 640, big ? 240 : 480);
    gst_harness_set_sink_caps_str (h, big ? CAPS_640 : CAPS_320);
    /* frames of the old size may still be on their way */
    do {
      b = gst_harness_pull (h);
      fail_unless (b != NULL);
      if (gst_buffer_get_size (b) == (gsize) w * hh * 2)
        break;
      gst_buffer_unref (b);
    } while (TRUE);
    fail_unless_equals_int64 (stamp_yuy2 (b, w, hh), GST_BUFFER_OFFSET (b));
    gst_buffer_unref (b);
    /* the orphaned buffer: same picture, still mapped */
    fail_unless_equals_int64 (stamp_yuy2 (keep, big ? 320 : 640,
            big ? 240 : 480), kept_stamp);
    gst_buffer_unref (keep);
  }
  st = stats_of (src);
  gst_structure_get_uint (st, "negotiations", &negotiations);
  gst_structure_free (st);
  fail_unless_equals_int (negotiations, 11);
  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Sequence numbers from the driver: a gap is frames lost (counted, QoS
 * message, DISCONT); a step back is a restart, not a loss. */
GST_START_TEST (test_stream_sequence_gaps)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src device=" DEV
      " ! " CAPS_320 " ! appsink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstBus *bus = gst_element_get_bus (pipe);
  GstStructure *st;
  GstMessage *m;
  GstFormat fmt;
  guint64 lost = 0, processed, dropped;
  guint i, discont = 0;

  fail_unless (preload_node_path () != NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 12; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    GstBuffer *b;

    fail_unless (s != NULL);
    b = gst_sample_get_buffer (s);
    if (i > 0 && GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DISCONT))
      discont++;
    gst_sample_unref (s);
    /* the buffers already filled keep their numbers: move the counter
     * early enough that the change shows within the 12 frames */
    if (i == 2)
      skip (7);
    if (i == 6)
      skip (-20);
  }
  st = stats_of (src);
  gst_structure_get_uint64 (st, "lost", &lost);
  gst_structure_free (st);
  /* the forward jump: 7 lost; the step back: none (a frame the device
   * dropped on a loaded machine adds to the first, never billions) */
  fail_unless (lost >= 7 && lost < 100, "lost %" G_GUINT64_FORMAT, lost);
  fail_unless (discont >= 2);
  /* each gap posts QoS; the last one carries the total */
  dropped = 0;
  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS))) {
    gst_message_parse_qos_stats (m, &fmt, &processed, &dropped);
    fail_unless_equals_int (fmt, GST_FORMAT_BUFFERS);
    gst_message_unref (m);
  }
  fail_unless_equals_uint64 (dropped, lost);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* The device vanishes while playing: an error naming it, clean stop,
 * no descriptor left. */
GST_START_TEST (test_stream_unplug)
{
  GstElement *pipe, *sink;
  GstBus *bus;
  GstMessage *m;
  GError *err = NULL;
  guint i, fds;

  fail_unless (preload_node_path () != NULL);
  /* the library keeps one eventfd per node from the first open on: open
   * it once, so that what is counted is the element's */
  close (open (DEV, O_RDWR));
  fds = count_fds ();
  pipe = gst_parse_launch ("negcamsrc device=" DEV " ! " CAPS_320
      " ! appsink name=sink", NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 3; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);

    fail_unless (s != NULL);
    gst_sample_unref (s);
  }
  unplug ();
  m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error after the unplug");
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, DEV) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "disappeared") != NULL, "%s",
      err->message);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND));
  g_error_free (err);
  gst_message_unref (m);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  fail_unless_equals_int (count_fds (), fds);
}

GST_END_TEST;

/* Unplugged after open, before negotiation: the enumeration fails with
 * ENODEV; the error says the device disappeared, not that no format
 * fits. */
GST_START_TEST (test_stream_unplug_before_negotiation)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc device=" DEV " ! "
      CAPS_320 " ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m;
  GError *err = NULL;

  fail_unless (gst_element_set_state (pipe, GST_STATE_READY)
      == GST_STATE_CHANGE_SUCCESS);
  unplug ();
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (m != NULL);
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, DEV " (\"") != NULL
      && strstr (err->message, "disappeared") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* V4L2_FIELD_ALTERNATE through the kernel backend (run with
 * alternate.profile as the node's profile): the field of each buffer comes
 * from v4l2_buffer.field, two buffers per frame interval, the driver's
 * timestamps per field. */
GST_START_TEST (test_stream_alternate_fields)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src device=" DEV
      " ! video/x-raw(format:Interlaced),interlace-mode=alternate,"
      "width=320,height=240 ! appsink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstClockTime field = gst_util_uint64_scale (GST_SECOND, 1, 50), min, max;
  GstClockTime prev_pts = GST_CLOCK_TIME_NONE;
  guint64 pos, prev = 0, gaps = 0, lost = 0;
  GstStructure *st;
  GstQuery *q;
  gboolean live;
  guint i;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 12; i++) {
    GstSample *s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        10 * GST_SECOND);
    GstBuffer *b;

    fail_unless (s != NULL);
    b = gst_sample_get_buffer (s);
    fail_unless_equals_int (gst_buffer_get_size (b), 320 * 2 * 120);
    fail_unless (GST_BUFFER_FLAG_IS_SET (b, GST_VIDEO_BUFFER_FLAG_INTERLACED));
    fail_unless (GST_VIDEO_BUFFER_IS_TOP_FIELD (b)
        || GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (b));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (b), field);
    fail_unless_equals_int64 (stamp_yuy2 (b, 320, 120), GST_BUFFER_OFFSET (b));
    /* position in fields: TOP of frame n is 2n, BOTTOM 2n + 1 */
    pos = GST_BUFFER_OFFSET (b) * 2 + (GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (b));
    if (i > 0) {
      fail_unless (pos > prev, "field %" G_GUINT64_FORMAT " after %"
          G_GUINT64_FORMAT, pos, prev);
      fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (b,
              GST_BUFFER_FLAG_DISCONT), pos != prev + 1);
      gaps += pos - prev - 1;
      fail_unless (GST_BUFFER_PTS (b) > prev_pts);
    }
    prev = pos;
    prev_pts = GST_BUFFER_PTS (b);
    gst_sample_unref (s);
  }
  st = stats_of (src);
  gst_structure_get_uint64 (st, "lost", &lost);
  gst_structure_free (st);
  fail_unless_equals_uint64 (lost, gaps);

  q = gst_query_new_latency ();
  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  fail_unless_equals_uint64 (min, field);
  gst_query_unref (q);

  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
negcamsrc_stream_suite (void)
{
  Suite *s = suite_create ("negcamsrc-stream");
  TCase *tc = tcase_create ("stream");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  /* The node has one profile per run (meson runs this twice). */
  if (g_str_has_suffix (preload_node_profile (), "alternate.profile")) {
    tcase_add_test (tc, test_stream_alternate_fields);
    return s;
  }
  tcase_add_test (tc, test_stream_frames);
  tcase_add_test (tc, test_stream_io_mode_mmap);
  tcase_add_test (tc, test_stream_grows_never_copies);
  tcase_add_test (tc, test_stream_no_create_bufs_drops_not_copies);
  tcase_add_test (tc, test_stream_renegotiate_holding);
  tcase_add_test (tc, test_stream_sequence_gaps);
  tcase_add_test (tc, test_stream_unplug);
  tcase_add_test (tc, test_stream_unplug_before_negotiation);
  return s;
}

GST_CHECK_MAIN (negcamsrc_stream);
