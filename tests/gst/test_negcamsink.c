/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink on the embedded engine with an output queue
 * (tests/gst/output.profile): caps from the output queue in device
 * order, S_FMT from set_caps, the device pool in the ALLOCATION query
 * (zero copies), a foreign buffer copied once and counted, a dma-buf
 * the device cannot import copied instead (DMABUF import itself is
 * checked on negcam.ko, tests/vm/sink-suite.sh), a refused
 * format named in words, following the consumer (SOURCE_CHANGE ->
 * RECONFIGURE -> the device's new format first), and negcamconvertsink
 * serving MJPG at a size the source does not make.
 *
 * The test links negcam's core library to reach the sink's device
 * ("device-handle"): G_FMT read back, and the embedded consumer hook.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/allocators/gstdmabuf.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "preload-node.h"
#include <gst/video/video.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <glib/gstdio.h>

#include "negcamdevice.h"

#define YUY2_640 "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1"
#define YUY2_320 "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1"

static gchar *profile_path, *refuse_path;

static GstHarness *
sink_harness (const gchar *profile)
{
  GstElement *sink = gst_element_factory_make ("negcamsink", NULL);
  GstHarness *h;

  fail_unless (sink != NULL);
  /* async=FALSE: the harness wants PLAYING at once, not a preroll */
  g_object_set (sink, "profile", profile, "sync", FALSE, "async", FALSE, NULL);
  h = gst_harness_new_with_element (sink, "sink", NULL);
  gst_object_unref (sink);
  gst_harness_play (h);
  return h;
}

static NegcamDevice *
sink_device (GstElement *sink)
{
  NegcamDevice *dev = NULL;

  g_object_get (sink, "device-handle", &dev, NULL);
  fail_unless (dev != NULL);
  return dev;
}

static guint64
stat_u64 (GstElement *sink, const gchar *field)
{
  GstStructure *s = NULL;
  guint64 v = 0;
  guint u = 0;

  g_object_get (sink, "stats", &s, NULL);
  fail_unless (s != NULL);
  if (!gst_structure_get_uint64 (s, field, &v)) {
    fail_unless (gst_structure_get_uint (s, field, &u), "no %s", field);
    v = u;
  }
  gst_structure_free (s);
  return v;
}

static void
output_format (NegcamDevice *dev, struct v4l2_format *f)
{
  memset (f, 0, sizeof (*f));
  f->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_G_FMT, f), 0);
}

static void
assert_first (GstCaps *caps, const gchar *format, gint w, gint h)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint x = 0, y = 0;

  fail_unless (gst_structure_get_int (s, "width", &x)
      && gst_structure_get_int (s, "height", &y));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), format);
  fail_unless_equals_int (x, w);
  fail_unless_equals_int (y, h);
}

/* Fill a buffer from the pool the sink offers and push it. */
static GstBufferPool *
offered_pool (GstHarness *h, const gchar *caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;

  fail_unless (gst_pad_peer_query (h->srcpad, q));
  fail_unless (gst_query_get_n_allocation_pools (q) >= 1,
      "negcamsink offered no pool");
  gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless_equals_int (size, 640 * 480 * 2);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_query_unref (q);
  gst_caps_unref (caps);
  return pool;
}

static void
push_from_pool (GstHarness *h, GstBufferPool *pool, guint8 value)
{
  GstBuffer *buf = NULL;

  fail_unless_equals_int (
      gst_buffer_pool_acquire_buffer (pool, &buf, NULL), GST_FLOW_OK);
  gst_buffer_memset (buf, 0, value, gst_buffer_get_size (buf));
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
}

GST_START_TEST (test_caps_from_output_queue)
{
  GstHarness *h = sink_harness (profile_path);
  GstCaps *caps;
  guint i, n_mjpeg = 0, n_i420 = 0, n_gray = 0;

  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  GST_INFO ("caps %" GST_PTR_FORMAT, caps);
  /* the device's current format first, then the queue in ENUM order */
  assert_first (caps, "YUY2", 640, 480);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    const gchar *f = gst_structure_get_string (s, "format");

    n_mjpeg += gst_structure_has_name (s, "image/jpeg");
    n_i420 += !g_strcmp0 (f, "I420");
    n_gray += !g_strcmp0 (f, "GRAY8");
  }
  fail_unless_equals_int (n_mjpeg, 2);
  fail_unless_equals_int (n_i420, 1);
  fail_unless_equals_int (n_gray, 0); /* the capture queue's, not ours */
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A capture-only device is refused at READY, in words. */
GST_START_TEST (test_not_an_output_device)
{
  GstElement *sink = gst_element_factory_make ("negcamsink", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  g_object_set (sink, "profile", "webcam", NULL);
  gst_element_set_bus (sink, bus);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "not a video output device") != NULL,
      "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (sink, GST_STATE_NULL);
  gst_element_set_bus (sink, NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
}
GST_END_TEST;

/* A filter does not reorder: the device's wanted format stays first. */
GST_START_TEST (test_caps_order_kept_with_filter)
{
  GstHarness *h = sink_harness (profile_path);
  struct v4l2_pix_format want = { 0 };
  GstCaps *filter = gst_caps_from_string ("video/x-raw; image/jpeg");
  GstCaps *caps;
  gint w = 0;

  want.pixelformat = V4L2_PIX_FMT_MJPEG;
  want.width = 640;
  want.height = 480;
  fail_unless_equals_int (
      negcam_device_embedded_source_change (sink_device (h->element), &want),
      0);
  caps = gst_pad_peer_query_caps (h->srcpad, filter);
  GST_INFO ("caps %" GST_PTR_FORMAT, caps);
  fail_unless (gst_structure_has_name (
      gst_caps_get_structure (caps, 0), "image/jpeg"));
  fail_unless (
      gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w));
  fail_unless_equals_int (w, 640);
  gst_caps_unref (caps);
  gst_caps_unref (filter);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_set_caps_sets_format)
{
  GstHarness *h = sink_harness (profile_path);
  struct v4l2_format f;
  GstBuffer *buf;

  gst_harness_set_src_caps_str (h, YUY2_320);
  buf = gst_buffer_new_allocate (NULL, 320 * 240 * 2, NULL);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  output_format (sink_device (h->element), &f);
  fail_unless_equals_int (f.fmt.pix.pixelformat, V4L2_PIX_FMT_YUYV);
  fail_unless_equals_int (f.fmt.pix.width, 320);
  fail_unless_equals_int (f.fmt.pix.height, 240);
  fail_unless_equals_int (stat_u64 (h->element, "negotiations"), 1);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_pool_zero_copy)
{
  GstHarness *h = sink_harness (profile_path);
  GstBufferPool *pool;
  guint32 used = 0;
  guint i;

  gst_harness_set_src_caps_str (h, YUY2_640);
  pool = offered_pool (h, YUY2_640);
  for (i = 0; i < 10; i++)
    push_from_pool (h, pool, i);
  fail_unless_equals_int (stat_u64 (h->element, "frames"), 10);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 0);
  /* the device consumed what upstream wrote, at full size */
  fail_unless (negcam_device_embedded_output_frames (
                   sink_device (h->element), &used)
      > 0);
  fail_unless_equals_int (used, 640 * 480 * 2);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* An allocation query whose caps lack fields the configured ones carry
 * (pixel-aspect-ratio: a source upstream of passthrough converters asks
 * with its own caps) still gets the device pool: same memory layout. */
GST_START_TEST (test_pool_for_caps_without_par)
{
  GstHarness *h = sink_harness (profile_path);
  GstBufferPool *pool;

  gst_harness_set_src_caps_str (h, YUY2_640 ",pixel-aspect-ratio=1/1");
  pool = offered_pool (h, YUY2_640);
  push_from_pool (h, pool, 7);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 0);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_foreign_buffer_copied_once)
{
  GstHarness *h = sink_harness (profile_path);
  GstBuffer *buf;

  gst_harness_set_src_caps_str (h, YUY2_640);
  buf = gst_buffer_new_allocate (NULL, 640 * 480 * 2, NULL);
  gst_buffer_memset (buf, 0, 0x80, 640 * 480 * 2);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (stat_u64 (h->element, "frames"), 1);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 1);
  {
    guint64 copies = 0;

    g_object_get (h->element, "copies", &copies, NULL);
    fail_unless_equals_int (copies, 1);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* The device pool upstream took, 2 frames written into it, then stopped
 * by upstream while the device still streams its buffers. */
static GstBufferPool *
pool_stopped_by_upstream (GstHarness *h)
{
  GstBufferPool *pool;

  gst_harness_set_src_caps_str (h, YUY2_640);
  pool = offered_pool (h, YUY2_640);
  push_from_pool (h, pool, 1);
  push_from_pool (h, pool, 2);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  return pool;
}

/* Upstream took the device pool, then stopped it (it renegotiated and
 * took buffers of its own) while the device still streamed the pool's
 * buffers: the next foreign buffer is copied into device buffers
 * allocated anew, not refused (REQBUFS is EBUSY while streaming). Seen
 * with negcamconvertsink following camerabin's size switches on a loop. */
GST_START_TEST (test_pool_stopped_upstream_then_copy)
{
  GstHarness *h = sink_harness (profile_path);
  GstBuffer *buf;

  gst_object_unref (pool_stopped_by_upstream (h));
  buf = gst_buffer_new_allocate (NULL, 640 * 480 * 2, NULL);
  gst_buffer_memset (buf, 0, 0x80, 640 * 480 * 2);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (stat_u64 (h->element, "frames"), 3);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 1);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Upstream stops the device pool and starts it again itself (an element
 * between gets a pool of its own, then passes through again) while the
 * device still streams the pool's buffers: the pool starts anew, its
 * frames reach the device, and nothing is copied. */
GST_START_TEST (test_pool_restarted_by_upstream)
{
  GstHarness *h = sink_harness (profile_path);
  GstBufferPool *pool = pool_stopped_by_upstream (h);

  fail_unless (gst_buffer_pool_set_active (pool, TRUE),
      "the pool could not start again while the device streamed");
  push_from_pool (h, pool, 3);
  push_from_pool (h, pool, 4);
  fail_unless_equals_int (stat_u64 (h->element, "frames"), 4);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 0);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A dma-buf upstream, on a device that takes none (the embedded engine
 * has MMAP buffers only): the sink tries DMABUF import once, then copies
 * every frame, counted, and never fails the stream for it. */
GST_START_TEST (test_dmabuf_refused_is_copied)
{
  GstHarness *h = sink_harness (profile_path);
  GstAllocator *alloc = gst_dmabuf_allocator_new ();
  gsize size = 640 * 480 * 2;
  guint i;

  gst_harness_set_src_caps_str (h, YUY2_640);
  for (i = 0; i < 3; i++) {
    gint fd = memfd_create ("negcam-test-dmabuf", MFD_CLOEXEC);
    GstBuffer *buf = gst_buffer_new ();

    fail_unless (fd >= 0 && ftruncate (fd, size) == 0);
    gst_buffer_append_memory (buf, gst_dmabuf_allocator_alloc (alloc, fd, size));
    fail_unless (gst_is_dmabuf_memory (gst_buffer_peek_memory (buf, 0)));
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless_equals_int (stat_u64 (h->element, "frames"), 3);
  fail_unless_equals_int (stat_u64 (h->element, "copies"), 3);
  fail_unless_equals_int (stat_u64 (h->element, "imports"), 0);
  gst_object_unref (alloc);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_refused_format_named)
{
  GstHarness *h = sink_harness (refuse_path);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;
  GstBuffer *buf;

  gst_element_set_bus (h->element, bus);
  /* ENUM_FRAMESIZES (no buffer type) gives the capture entry's 320x240,
   * the output queue takes only 640x480: TRY_FMT changes the width */
  gst_harness_set_src_caps_str (h, YUY2_320);
  buf = gst_buffer_new_allocate (NULL, 320 * 240 * 2, NULL);
  fail_if (gst_harness_push (h, buf) == GST_FLOW_OK);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error posted");
  gst_message_parse_error (msg, &err, &dbg);
  GST_INFO ("error: %s (%s)", err->message, dbg);
  fail_unless (strstr (err->message, "width") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "320") && strstr (err->message, "640"),
      "%s", err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

static gboolean
pull_reconfigure (GstHarness *h)
{
  GstEvent *ev;

  while ((ev = gst_harness_try_pull_upstream_event (h))) {
    gboolean is = GST_EVENT_TYPE (ev) == GST_EVENT_RECONFIGURE;

    gst_event_unref (ev);
    if (is)
      return TRUE;
  }
  return FALSE;
}

GST_START_TEST (test_source_change_reconfigures)
{
  GstHarness *h = sink_harness (profile_path);
  struct v4l2_pix_format want = { 0 };
  struct v4l2_format f;
  GstBufferPool *pool;
  NegcamDevice *dev;
  GstCaps *caps;
  GstBuffer *buf;

  gst_harness_set_src_caps_str (h, YUY2_640);
  pool = offered_pool (h, YUY2_640);
  push_from_pool (h, pool, 1);
  while (pull_reconfigure (h))
    ;
  /* a consumer sets 320x240 on the far side */
  dev = sink_device (h->element);
  want.pixelformat = V4L2_PIX_FMT_YUYV;
  want.width = 320;
  want.height = 240;
  fail_unless_equals_int (negcam_device_embedded_source_change (dev, &want), 0);
  push_from_pool (h, pool, 2);
  fail_unless_equals_int (stat_u64 (h->element, "source-changes"), 1);
  fail_unless_equals_int (stat_u64 (h->element, "reconfigures"), 1);
  fail_unless (pull_reconfigure (h), "no RECONFIGURE upstream");
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  assert_first (caps, "YUY2", 320, 240);
  gst_caps_unref (caps);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);

  /* upstream follows: the new caps come through set_caps */
  gst_harness_set_src_caps_str (h, YUY2_320);
  buf = gst_buffer_new_allocate (NULL, 320 * 240 * 2, NULL);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  output_format (dev, &f);
  fail_unless_equals_int (f.fmt.pix.width, 320);
  fail_unless_equals_int (stat_u64 (h->element, "negotiations"), 2);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Run @pipe until EOS (or fail). */
static void
run_to_eos (GstElement *pipe)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
      60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (msg != NULL, "no EOS in 60 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail ("error: %s", err->message);
  }
  gst_message_unref (msg);
}

/* What negcamsink in @bin ended with, against the device's format. */
static void
assert_sink_format (GstElement *sink, const gchar *media, guint32 fourcc,
    guint w, guint h)
{
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  struct v4l2_format f;

  fail_unless (caps != NULL);
  GST_INFO ("final caps %" GST_PTR_FORMAT, caps);
  fail_unless (
      gst_structure_has_name (gst_caps_get_structure (caps, 0), media));
  output_format (sink_device (sink), &f);
  fail_unless_equals_int (f.fmt.pix.pixelformat, fourcc);
  fail_unless_equals_int (f.fmt.pix.width, w);
  fail_unless_equals_int (f.fmt.pix.height, h);
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

static GstElement *
convert_pipeline (const gchar *desc, GstElement **bin, GstElement **sink)
{
  GstElement *pipe = gst_parse_launch (desc, NULL);

  fail_unless (pipe != NULL);
  *bin = gst_bin_get_by_name (GST_BIN (pipe), "bin");
  fail_unless (*bin != NULL);
  g_object_set (*bin, "profile", profile_path, NULL);
  *sink = gst_bin_get_by_name (GST_BIN (*bin), "sink");
  g_object_set (*sink, "sync", FALSE, NULL);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  return pipe;
}

static void
source_change (GstElement *sink, guint32 fourcc, guint w, guint h)
{
  struct v4l2_pix_format want = { 0 };

  want.pixelformat = fourcc;
  want.width = w;
  want.height = h;
  fail_unless_equals_int (
      negcam_device_embedded_source_change (sink_device (sink), &want), 0);
}

static void
free_pipeline (GstElement *pipe, GstElement *bin, GstElement *sink)
{
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (bin);
  gst_object_unref (pipe);
}

/* The device (a consumer) asks @fourcc WxH, compressed, before the
 * source starts: the bin's encoding stage for it goes in, the sink gets
 * its media type at that size, and all @frames of the source reach it. */
static void
run_encoded (GstElement *pipe, GstElement *bin, GstElement *sink,
    guint32 fourcc, guint w, guint h, guint frames)
{
  const gchar *media = fourcc == V4L2_PIX_FMT_H264 ? "video/x-h264" : "image/jpeg";
  gchar *enc = NULL;

  source_change (sink, fourcc, w, h);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  run_to_eos (pipe);
  assert_sink_format (sink, media, fourcc, w, h);
  g_object_get (bin, "encoding", &enc, NULL);
  fail_unless_equals_string (enc, fourcc == V4L2_PIX_FMT_H264 ? "h264" : "jpeg");
  fail_unless_equals_int (stat_u64 (sink, "frames"), frames);
  g_free (enc);
}

/* negcamconvertsink: the device (a consumer) wants MJPG 1280x720 while
 * the source makes 160x120 I420: jpegenc is put in and the size scaled. */
GST_START_TEST (test_convert_bin_mjpeg)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=160,"
      "height=120 ! negcamconvertsink name=bin",
      &bin, &sink);

  run_encoded (pipe, bin, sink, V4L2_PIX_FMT_MJPEG, 1280, 720, 20);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* The last JPEG negcamsink received, copied (@data: GBytes **). */
static GstPadProbeReturn
keep_last_frame (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GBytes **last = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gpointer bytes;
  gsize size;

  gst_buffer_extract_dup (buf, 0, gst_buffer_get_size (buf), &bytes, &size);
  if (*last)
    g_bytes_unref (*last);
  *last = g_bytes_new_take (bytes, size);
  return GST_PAD_PROBE_OK;
}

/* Every buffer negcamsink received, appended (@data: GByteArray *): an
 * H.264 byte stream decodes only from its first IDR on. */
static GstPadProbeReturn
keep_stream (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_READ);
  g_byte_array_append (data, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

/* The RGB colour at the centre of the last frame @coded (of @media, e.g.
 * image/jpeg) decodes to through @decoder (e.g. "jpegdec"). */
static void
centre_rgb (GBytes *coded, const gchar *media, const gchar *decoder, guint w,
    guint h, guint8 rgb[3])
{
  gchar *desc = g_strdup_printf ("appsrc name=in ! %s ! videoconvert ! "
      "video/x-raw,format=RGB ! appsink name=out sync=false", decoder);
  GstElement *dec = gst_parse_launch (desc, NULL);
  GstElement *in = gst_bin_get_by_name (GST_BIN (dec), "in");
  GstElement *out = gst_bin_get_by_name (GST_BIN (dec), "out");
  GstCaps *caps = gst_caps_new_simple (media, "width", G_TYPE_INT, w,
      "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  GstSample *sample, *last = NULL;
  GstVideoFrame frame;
  GstVideoInfo vinfo;

  g_object_set (in, "caps", caps, NULL);
  gst_element_set_state (dec, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (in), gst_buffer_new_wrapped_bytes (coded));
  gst_app_src_end_of_stream (GST_APP_SRC (in));
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (out),
              10 * GST_SECOND))) {
    if (last)
      gst_sample_unref (last);
    last = sample;
  }
  fail_unless (last != NULL, "%s gave no frame", decoder);
  gst_video_info_from_caps (&vinfo, gst_sample_get_caps (last));
  gst_video_frame_map (&frame, &vinfo, gst_sample_get_buffer (last), GST_MAP_READ);
  memcpy (rgb, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
      + h / 2 * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + w / 2 * 3, 3);
  gst_video_frame_unmap (&frame);
  gst_sample_unref (last);
  gst_caps_unref (caps);
  gst_element_set_state (dec, GST_STATE_NULL);
  gst_object_unref (in);
  gst_object_unref (out);
  gst_object_unref (dec);
  g_free (desc);
}

/* MJPG colours: JFIF is full-range BT.601, whatever the source's
 * colorimetry (BT.601 limited at SD, BT.709 at HD by default): the green
 * (0,192,0) of the source decodes as itself, within the steps two 8-bit
 * conversions (limited YUV to RGB to full-range YUV) and JPEG's
 * quantisation cost: (0,185,0) at 640x480 through jpegdec. Without the
 * conversion it decoded as (13,182,13) at SD, (26,210,18) at HD. */
static void
check_mjpeg_colour (guint w, guint h)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 "
      "pattern=solid-color foreground-color=0xff00c000 ! "
      "video/x-raw,format=I420,width=%u,height=%u ! negcamconvertsink name=bin",
      w, h);
  GstElement *bin, *sink, *pipe = convert_pipeline (desc, &bin, &sink);
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GBytes *last = NULL;
  guint8 rgb[3];

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_last_frame, &last,
      NULL);
  source_change (sink, V4L2_PIX_FMT_MJPEG, w, h);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  run_to_eos (pipe);
  assert_sink_format (sink, "image/jpeg", V4L2_PIX_FMT_MJPEG, w, h);
  fail_unless (last != NULL);
  centre_rgb (last, "image/jpeg", "jpegdec", w, h, rgb);
  GST_INFO ("%ux%u: decoded (%u,%u,%u)", w, h, rgb[0], rgb[1], rgb[2]);
  fail_unless (rgb[0] <= 6 && rgb[1] >= 182 && rgb[1] <= 200 && rgb[2] <= 6,
      "%ux%u: green (0,192,0) decoded as (%u,%u,%u)", w, h, rgb[0], rgb[1],
      rgb[2]);
  gst_object_unref (pad);
  free_pipeline (pipe, bin, sink);
  g_free (desc);
}

GST_START_TEST (test_convert_bin_mjpeg_colours)
{
  check_mjpeg_colour (640, 480);
  check_mjpeg_colour (1280, 720);
}
GST_END_TEST;

/* Where the first NAL unit of @type starts in an Annex B @stream (-1:
 * none). */
static gint
first_nal (GByteArray *stream, guint type)
{
  guint i;

  for (i = 0; i + 3 < stream->len; i++)
    if (!stream->data[i] && !stream->data[i + 1] && stream->data[i + 2] == 1
        && (stream->data[i + 3] & 0x1f) == type)
      return (gint) i;
  return -1;
}

/* The device asks H.264 (a UVC camera's frame-based format, a loop
 * consumer's H264): an encoder stage goes in, its stream is Annex B with
 * parameter sets, and it decodes to the source's green. */
GST_START_TEST (test_convert_bin_h264)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc num-buffers=10 pattern=solid-color "
      "foreground-color=0xff00c000 ! video/x-raw,format=I420,width=320,"
      "height=240 ! negcamconvertsink name=bin", &bin, &sink);
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GByteArray *stream = g_byte_array_new ();
  guint8 rgb[3];

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_stream, stream,
      NULL);
  run_encoded (pipe, bin, sink, V4L2_PIX_FMT_H264, 640, 480, 10);
  /* Annex B: a start code first, the sequence parameter set before the
   * first IDR picture */
  fail_unless (stream->len > 5 && !memcmp (stream->data, "\0\0\0\1", 4));
  fail_unless (first_nal (stream, 7) >= 0, "no SPS in the stream");
  fail_unless (first_nal (stream, 7) < first_nal (stream, 5),
      "SPS at %d, first IDR at %d", first_nal (stream, 7), first_nal (stream, 5));
  centre_rgb (g_byte_array_free_to_bytes (stream), "video/x-h264",
      "h264parse ! openh264dec", 640, 480, rgb);
  fail_unless (rgb[0] <= 12 && rgb[1] >= 176 && rgb[1] <= 206 && rgb[2] <= 12,
      "green (0,192,0) decoded as (%u,%u,%u)", rgb[0], rgb[1], rgb[2]);
  gst_object_unref (pad);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* Raw at a size the source does not make: videoscale writes straight
 * into the device buffers (no copy); then the consumer asks MJPG
 * mid-stream and the bin swaps jpegenc in without a restart. */
GST_START_TEST (test_convert_bin_follows)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc num-buffers=200 is-live=true ! video/x-raw,format=YUY2,"
      "width=160,height=120,framerate=30/1 ! negcamconvertsink name=bin",
      &bin, &sink);
  gchar *enc = NULL;
  guint i;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 500 && stat_u64 (sink, "frames") < 5; i++)
    g_usleep (10 * 1000);
  fail_unless (stat_u64 (sink, "frames") >= 5);
  assert_sink_format (sink, "video/x-raw", V4L2_PIX_FMT_YUYV, 640, 480);
  fail_unless_equals_int (stat_u64 (sink, "copies"), 0);

  source_change (sink, V4L2_PIX_FMT_MJPEG, 640, 480);
  run_to_eos (pipe);
  assert_sink_format (sink, "image/jpeg", V4L2_PIX_FMT_MJPEG, 640, 480);
  g_object_get (bin, "encoding", &enc, NULL);
  fail_unless_equals_string (enc, "jpeg");
  fail_unless_equals_int (stat_u64 (sink, "reconfigures"), 1);
  /* every frame reached the device (videorate may add one) */
  fail_unless (stat_u64 (sink, "frames") >= 200);
  g_free (enc);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* The producer is negcamsrc (a camera-like source: a format change is a
 * stream restart, and its frame numbers start again): the consumer asks
 * 1280x720 raw, then MJPG 1280x720; the bin converts, and negcamsrc,
 * asked again after each RECONFIGURE, keeps the format it started with
 * (it used to set it again every time: downstream's pixel-aspect-ratio
 * range made the choice look new). */
GST_START_TEST (test_convert_bin_keeps_source)
{
  GstElement *bin, *sink, *src, *pipe = convert_pipeline (
      "negcamsrc name=src pattern=solid is-live=true ! negcamconvertsink name=bin",
      &bin, &sink);
  guint i;

  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 500 && stat_u64 (sink, "frames") < 5; i++)
    g_usleep (10 * 1000);
  source_change (sink, V4L2_PIX_FMT_YUYV, 1280, 720);
  for (i = 0; i < 500 && stat_u64 (sink, "reconfigures") < 1; i++)
    g_usleep (10 * 1000);
  g_usleep (300 * 1000);
  source_change (sink, V4L2_PIX_FMT_MJPEG, 1280, 720);
  for (i = 0; i < 500 && stat_u64 (sink, "reconfigures") < 2; i++)
    g_usleep (10 * 1000);
  g_usleep (500 * 1000);
  assert_sink_format (sink, "image/jpeg", V4L2_PIX_FMT_MJPEG, 1280, 720);
  fail_unless_equals_int (stat_u64 (src, "negotiations"), 1);
  gst_object_unref (src);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* A live producer written once follows a consumer that switches between
 * two raw sizes, as camerabin does between its viewfinder and a photo:
 * every switch goes through the device's own buffers (no copy). */
GST_START_TEST (test_convert_bin_switches_without_copies)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc pattern=red is-live=true ! negcamconvertsink name=bin",
      &bin, &sink);
  guint i, k;
  guint64 frames;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 500 && stat_u64 (sink, "frames") < 5; i++)
    g_usleep (10 * 1000);
  for (k = 0; k < 4; k++) {
    source_change (sink, V4L2_PIX_FMT_YUYV, k % 2 ? 640 : 1280,
        k % 2 ? 480 : 720);
    for (i = 0; i < 500 && stat_u64 (sink, "reconfigures") < k + 1; i++)
      g_usleep (10 * 1000);
    frames = stat_u64 (sink, "frames");
    for (i = 0; i < 500 && stat_u64 (sink, "frames") < frames + 10; i++)
      g_usleep (10 * 1000);
    assert_sink_format (sink, "video/x-raw", V4L2_PIX_FMT_YUYV,
        k % 2 ? 640 : 1280, k % 2 ? 480 : 720);
    GST_INFO ("switch %u: frames %" G_GUINT64_FORMAT " copies %"
        G_GUINT64_FORMAT, k, stat_u64 (sink, "frames"),
        stat_u64 (sink, "copies"));
  }
  fail_unless_equals_int (stat_u64 (sink, "copies"), 0);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* The rate stage: a source faster than the device (60 fps into 30) is
 * dropped to the device's rate with no copy and no frame held back; a
 * slower one (10 fps) has its frames repeated by videorate, each repeat
 * copied (counted). */
/* Timestamps 7 ms early or late in turn: a live source's jitter. */
static GstPadProbeReturn
jitter (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  static guint i;

  if (GST_BUFFER_PTS (buf) >= 10 * GST_MSECOND)
    GST_BUFFER_PTS (buf) += (i++ % 2 ? 7 : -7) * GST_MSECOND;
  info->data = buf;
  return GST_PAD_PROBE_OK;
}

static void
run_rate (const gchar *rate, gboolean jittery, guint n, guint64 *frames,
    guint64 *copies)
{
  gchar *desc = g_strdup_printf ("videotestsrc name=src num-buffers=%u ! "
      "video/x-raw,format=YUY2,width=640,height=480,framerate=%s ! "
      "negcamconvertsink name=bin", n, rate);
  GstElement *bin, *sink, *pipe = convert_pipeline (desc, &bin, &sink);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstPad *pad = gst_element_get_static_pad (src, "src");

  if (jittery)
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, jitter, NULL, NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  run_to_eos (pipe);
  *frames = stat_u64 (sink, "frames");
  *copies = stat_u64 (sink, "copies");
  GST_INFO ("%s: %" G_GUINT64_FORMAT " frames, %" G_GUINT64_FORMAT
      " copies", rate, *frames, *copies);
  free_pipeline (pipe, bin, sink);
  g_free (desc);
}

GST_START_TEST (test_convert_bin_rates)
{
  guint64 frames, copies;

  run_rate ("60/1", FALSE, 60, &frames, &copies);
  fail_unless_equals_int (frames, 30);
  fail_unless_equals_int (copies, 0);
  run_rate ("30/1", FALSE, 30, &frames, &copies);
  fail_unless_equals_int (frames, 30);
  fail_unless_equals_int (copies, 0);
  /* equal rates: no frame dropped for a live source's jitter */
  run_rate ("30/1", TRUE, 30, &frames, &copies);
  fail_unless_equals_int (frames, 30);
  run_rate ("10/1", FALSE, 10, &frames, &copies);
  fail_unless (frames >= 25 && frames <= 31, "10 fps into 30: %"
      G_GUINT64_FORMAT " frames", frames);
  fail_unless_equals_int (copies, frames); /* repeats are copies */
}
GST_END_TEST;

/* The source's rate changes while it plays: 30 fps (frames around
 * videorate, no copy), 10 fps (videorate repeats them, copies), 30 again
 * (around it again: no more copies, and videorate let go of the frame it
 * kept, which it would push at EOS). */
static void
wait_frames (GstElement *sink, guint64 more)
{
  guint64 until = stat_u64 (sink, "frames") + more;
  guint i;

  for (i = 0; i < 500 && stat_u64 (sink, "frames") < until; i++)
    g_usleep (10 * 1000);
  fail_unless (stat_u64 (sink, "frames") >= until, "frames stopped");
}

static void
set_source_rate (GstElement *pipe, gint fps)
{
  GstElement *cf = gst_bin_get_by_name (GST_BIN (pipe), "cf");
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "YUY2", "width", G_TYPE_INT, 640, "height", G_TYPE_INT,
      480, "framerate", GST_TYPE_FRACTION, fps, 1, NULL);

  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_object_unref (cf);
}

GST_START_TEST (test_convert_bin_source_rate_changes)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc is-live=true ! capsfilter name=cf caps=\"" YUY2_640
      "\" ! negcamconvertsink name=bin", &bin, &sink);
  guint64 copies;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  wait_frames (sink, 10);
  fail_unless_equals_int (stat_u64 (sink, "copies"), 0);
  /* a frame or two at the old rate may still come: margin */
  set_source_rate (pipe, 10);
  wait_frames (sink, 10);
  copies = stat_u64 (sink, "copies");
  wait_frames (sink, 15);
  fail_unless (stat_u64 (sink, "copies") >= copies + 15,
      "10 fps into 30: videorate's repeats, copied");
  set_source_rate (pipe, 30);
  wait_frames (sink, 10);
  copies = stat_u64 (sink, "copies");
  wait_frames (sink, 15);
  fail_unless_equals_int (stat_u64 (sink, "copies"), copies);
  /* at EOS videorate has no stale 10 fps frame left to push */
  gst_element_send_event (pipe, gst_event_new_eos ());
  run_to_eos (pipe);
  fail_unless_equals_int (stat_u64 (sink, "copies"), copies);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* A live source at the device's rate: the bin adds no frame of latency
 * (videorate keeps a frame, one period, when it is in the way). The
 * pipeline's latency is the source's frame (33.3 ms) and the sink's
 * processing deadline (20 ms): 86.7 ms with videorate in the way. */
GST_START_TEST (test_convert_bin_adds_no_latency)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "videotestsrc is-live=true ! " YUY2_640 " ! negcamconvertsink name=bin",
      &bin, &sink);
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min = 0;
  guint i;

  g_object_set (sink, "sync", TRUE, NULL); /* a live sink answers latency */
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 500 && stat_u64 (sink, "frames") < 3; i++)
    g_usleep (10 * 1000);
  fail_unless (gst_element_query (pipe, q));
  gst_query_parse_latency (q, NULL, &min, NULL);
  GST_INFO ("latency %" GST_TIME_FORMAT, GST_TIME_ARGS (min));
  fail_unless (min < 60 * GST_MSECOND, "latency %" GST_TIME_FORMAT
      ", more than the source's frame and the sink's deadline",
      GST_TIME_ARGS (min));
  gst_query_unref (q);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* negcamsrc (embedded) into negcamsink: negcamsrc takes the device pool
 * negcamsink offers and draws its frames there, so negcamsink copies
 * nothing (it copied every frame before). */
GST_START_TEST (test_negcamsrc_into_device_buffers)
{
  GstElement *pipe = gst_parse_launch (
      "negcamsrc is-live=false num-buffers=30 ! " YUY2_640
      " ! negcamsink name=sink sync=false",
      NULL);
  GstElement *sink;

  fail_unless (pipe != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (sink, "profile", profile_path, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  run_to_eos (pipe);
  fail_unless_equals_int (stat_u64 (sink, "frames"), 30);
  fail_unless_equals_int (stat_u64 (sink, "copies"), 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}
GST_END_TEST;

/* The same through negcamconvertsink: the converters pass through, the
 * frames go around videorate, and negcamsrc still draws into the device
 * buffers (it was copied once per frame: videorate's copies). */
GST_START_TEST (test_negcamsrc_through_convert_bin)
{
  GstElement *bin, *sink, *pipe = convert_pipeline (
      "negcamsrc is-live=false num-buffers=30 ! " YUY2_640
      " ! negcamconvertsink name=bin", &bin, &sink);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  run_to_eos (pipe);
  fail_unless_equals_int (stat_u64 (sink, "frames"), 30);
  fail_unless_equals_int (stat_u64 (sink, "copies"), 0);
  free_pipeline (pipe, bin, sink);
}
GST_END_TEST;

/* The device provider on an output-only node (libnegcam-preload.so on
 * output-only.profile, run as the negcamsink-provider test): a Video/Sink
 * device with the output queue's caps, creating negcamsink. */
GST_START_TEST (test_provider_output_node)
{
  const gchar *node = preload_node_path ();
  GstDeviceProvider *p;
  GstDevice *found = NULL;
  GstElement *sink;
  GList *devices, *l;
  GstCaps *caps, *want;
  gchar *dir, *path = NULL;

  if (!node || !preload_node_profile ()) {
    GST_INFO ("no preloaded node: run as the negcamsink-provider test");
    return;
  }
  dir = g_path_get_dirname (node);
  fail_unless (g_mkdir_with_parents (dir, 0755) == 0);
  fail_unless (g_file_set_contents (node, "", -1, NULL));
  p = gst_device_provider_factory_get_by_name ("negcamdeviceprovider");
  fail_unless (p != NULL);
  g_object_set (p, "device-directory", dir, NULL);
  devices = gst_device_provider_get_devices (p);
  for (l = devices; l; l = l->next) {
    GstStructure *props = gst_device_get_properties (l->data);
    const gchar *s = props ? gst_structure_get_string (props, "device.path")
                           : NULL;

    if (!g_strcmp0 (s, node))
      found = gst_object_ref (l->data);
    if (props)
      gst_structure_free (props);
  }
  g_list_free_full (devices, gst_object_unref);
  fail_unless (found != NULL, "%s not listed", node);
  fail_unless (gst_device_has_classes (found, "Video/Sink"));
  caps = gst_device_get_caps (found);
  want = gst_caps_from_string ("image/jpeg,width=1280,height=720");
  fail_unless (gst_caps_can_intersect (caps, want), "no MJPG in the caps");
  gst_caps_unref (want);
  want = gst_caps_from_string ("video/x-raw,format=YUY2,width=640,height=480");
  fail_unless (gst_caps_can_intersect (caps, want));
  gst_caps_unref (want);
  gst_caps_unref (caps);
  sink = gst_device_create_element (found, NULL);
  fail_unless (sink != NULL);
  fail_unless_equals_string (
      G_OBJECT_TYPE_NAME (sink), "GstNegcamSink");
  g_object_get (sink, "device", &path, NULL);
  fail_unless_equals_string (path, node);
  g_free (path);
  gst_object_unref (sink);
  gst_object_unref (found);
  gst_object_unref (p);
  g_unlink (node);
  g_free (dir);
}
GST_END_TEST;

static Suite *
negcamsink_suite (void)
{
  Suite *s = suite_create ("negcamsink");
  TCase *tc = tcase_create ("general");
  const gchar *dir = g_getenv ("NEGCAM_TEST_PROFILE_DIR");

  profile_path = g_build_filename (dir ? dir : ".", "output.profile", NULL);
  refuse_path = g_build_filename (dir ? dir : ".", "refuse.profile", NULL);
  negcam_device_debug_init ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_caps_from_output_queue);
  tcase_add_test (tc, test_not_an_output_device);
  tcase_add_test (tc, test_caps_order_kept_with_filter);
  tcase_add_test (tc, test_set_caps_sets_format);
  tcase_add_test (tc, test_pool_zero_copy);
  tcase_add_test (tc, test_pool_for_caps_without_par);
  tcase_add_test (tc, test_foreign_buffer_copied_once);
  tcase_add_test (tc, test_pool_stopped_upstream_then_copy);
  tcase_add_test (tc, test_pool_restarted_by_upstream);
  tcase_add_test (tc, test_dmabuf_refused_is_copied);
  tcase_add_test (tc, test_refused_format_named);
  tcase_add_test (tc, test_source_change_reconfigures);
  tcase_add_test (tc, test_convert_bin_mjpeg);
  tcase_add_test (tc, test_convert_bin_mjpeg_colours);
  tcase_add_test (tc, test_convert_bin_h264);
  tcase_add_test (tc, test_convert_bin_follows);
  tcase_add_test (tc, test_convert_bin_keeps_source);
  tcase_add_test (tc, test_convert_bin_switches_without_copies);
  tcase_add_test (tc, test_convert_bin_rates);
  tcase_add_test (tc, test_convert_bin_source_rate_changes);
  tcase_add_test (tc, test_convert_bin_adds_no_latency);
  tcase_add_test (tc, test_negcamsrc_into_device_buffers);
  tcase_add_test (tc, test_negcamsrc_through_convert_bin);
  tcase_add_test (tc, test_provider_output_node);
  return s;
}

GST_CHECK_MAIN (negcamsink);
