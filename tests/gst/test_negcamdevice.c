/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device interface below negcamsrc, on its embedded backend: the
 * streaming ioctls behave as videobuf2 does (busy queue, EBUSY, orphaned
 * buffers, sequence numbers, dropped frames), wait() wakes and cancels,
 * and every request is counted by type. The kernel backend is held to the
 * same negotiation by test_negcamsrc_kernel.c and, against negcam.ko, by
 * test_negcamsrc_device.c in the VM.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "negcamdevice-backend.h"
#include "negcamformatcache.h"
#include "framegen.h"

static NegcamDevice *
open_ok (const gchar * profile)
{
  GError *err = NULL;
  NegcamDevice *dev = negcam_device_open (NULL, profile, &err);

  fail_unless (dev != NULL, "%s", err ? err->message : "");
  return dev;
}

static void
set_format (NegcamDevice * dev, guint32 fourcc, guint w, guint h, gint want)
{
  struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

  f.fmt.pix.pixelformat = fourcc;
  f.fmt.pix.width = w;
  f.fmt.pix.height = h;
  f.fmt.pix.field = V4L2_FIELD_ANY;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_FMT, &f), want);
}

static gint
reqbufs (NegcamDevice * dev, guint count, guint * got)
{
  struct v4l2_requestbuffers r = { 0 };
  gint ret;

  r.count = count;
  r.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  r.memory = V4L2_MEMORY_MMAP;
  ret = negcam_device_ioctl (dev, VIDIOC_REQBUFS, &r);
  if (got)
    *got = r.count;
  return ret;
}

static gint
buf_ioctl (NegcamDevice * dev, unsigned long req, guint index,
    struct v4l2_buffer *out)
{
  struct v4l2_buffer v = { 0 };
  gint ret;

  v.index = index;
  v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  v.memory = V4L2_MEMORY_MMAP;
  ret = negcam_device_ioctl (dev, req, &v);
  if (out)
    *out = v;
  return ret;
}

static gint
stream (NegcamDevice * dev, gboolean on)
{
  gint type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  return negcam_device_ioctl (dev, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF,
      &type);
}

GST_START_TEST (test_streaming_semantics)
{
  NegcamDevice *dev = open_ok ("webcam");
  struct v4l2_format tf = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  struct v4l2_buffer v;
  gpointer maps[4];
  guint n, i;

  set_format (dev, V4L2_PIX_FMT_YUYV, 320, 240, 0);
  /* no buffers, not streaming: nothing to dequeue */
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_DQBUF, 0, NULL), -EINVAL);
  fail_unless_equals_int (stream (dev, TRUE), -EINVAL);

  fail_unless_equals_int (reqbufs (dev, 4, &n), 0);
  fail_unless_equals_int (n, 4);
  /* buffers allocated: S_FMT is EBUSY, TRY_FMT never is */
  set_format (dev, V4L2_PIX_FMT_YUYV, 640, 480, -EBUSY);
  tf.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  tf.fmt.pix.width = 640;
  tf.fmt.pix.height = 480;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_TRY_FMT, &tf), 0);

  for (i = 0; i < n; i++) {
    fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QUERYBUF, i, &v), 0);
    fail_unless_equals_int (v.length, 320 * 240 * 2);
    maps[i] = negcam_device_mmap (dev, v.m.offset, v.length);
    fail_unless (maps[i] != NULL);
    fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QBUF, i, NULL), 0);
  }
  /* queued twice is an error */
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QBUF, 0, NULL), -EINVAL);
  fail_unless_equals_int (stream (dev, TRUE), 0);
  /* REQBUFS while streaming: EBUSY */
  fail_unless_equals_int (reqbufs (dev, 2, NULL), -EBUSY);

  /* frames come in queue order with sequence numbers 0, 1, 2, 3 and the
   * number stamped in the picture */
  for (i = 0; i < n; i++) {
    fail_unless_equals_int (buf_ioctl (dev, VIDIOC_DQBUF, 0, &v), 0);
    fail_unless_equals_int (v.index, i);
    fail_unless_equals_int (v.sequence, i);
    fail_unless_equals_int (v.bytesused, 320 * 240 * 2);
    fail_unless_equals_int64 (negcam_stamp_read (maps[i], 2, 640, 320, 240),
        i);
  }
  /* nothing queued: this frame is lost, EAGAIN, the sequence moves on */
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_DQBUF, 0, NULL), -EAGAIN);
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QBUF, 2, NULL), 0);
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_DQBUF, 0, &v), 0);
  fail_unless_equals_int (v.index, 2);
  fail_unless_equals_int (v.sequence, 5);
  fail_unless_equals_int64 (negcam_stamp_read (maps[2], 2, 640, 320, 240), 5);

  /* STREAMOFF returns everything; buffers are freed with REQBUFS 0 even
   * though they are still mapped (orphaned): the mapping stays valid */
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QBUF, 0, NULL), 0);
  fail_unless_equals_int (stream (dev, FALSE), 0);
  fail_unless_equals_int (buf_ioctl (dev, VIDIOC_DQBUF, 0, NULL), -EINVAL);
  fail_unless_equals_int (reqbufs (dev, 0, NULL), 0);
  fail_unless_equals_int64 (negcam_stamp_read (maps[2], 2, 640, 320, 240), 5);
  /* and S_FMT works again */
  set_format (dev, V4L2_PIX_FMT_YUYV, 640, 480, 0);
  for (i = 0; i < n; i++)
    negcam_device_munmap (dev, maps[i], 320 * 240 * 2);
  negcam_device_unref (dev);
}

GST_END_TEST;

typedef struct {
  NegcamDevice *dev;
  gint result;
} WaitArgs;

static gpointer
wait_thread (gpointer data)
{
  WaitArgs *a = data;

  a->result = negcam_device_wait (a->dev, -1);
  return NULL;
}

GST_START_TEST (test_wait_and_cancel)
{
  NegcamDevice *dev = open_ok ("vga");
  WaitArgs a = { dev, 42 };
  GThread *t;
  guint n, i;

  /* not streaming */
  fail_unless_equals_int (negcam_device_wait (dev, 0), -EPIPE);
  fail_unless_equals_int (reqbufs (dev, 2, &n), 0);
  fail_unless_equals_int (stream (dev, TRUE), 0);
  /* streaming, nothing queued: times out */
  fail_unless_equals_int (negcam_device_wait (dev, 10 * 1000), 0);
  /* a blocked wait is woken by flushing */
  t = g_thread_new ("wait", wait_thread, &a);
  g_usleep (20 * 1000);
  negcam_device_set_flushing (dev, TRUE);
  g_thread_join (t);
  fail_unless_equals_int (a.result, -EINTR);
  negcam_device_set_flushing (dev, FALSE);
  /* a queued buffer makes it ready */
  for (i = 0; i < n; i++)
    fail_unless_equals_int (buf_ioctl (dev, VIDIOC_QBUF, i, NULL), 0);
  fail_unless_equals_int (negcam_device_wait (dev, 0), 1);
  fail_unless_equals_int (stream (dev, FALSE), 0);
  fail_unless_equals_int (reqbufs (dev, 0, NULL), 0);
  negcam_device_unref (dev);
}

GST_END_TEST;

GST_START_TEST (test_controls)
{
  NegcamDevice *dev = open_ok ("webcam");
  struct v4l2_control c = {.id = V4L2_CID_MIN_BUFFERS_FOR_CAPTURE };

  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_G_CTRL, &c), 0);
  fail_unless (c.value >= 1);
  c.id = V4L2_CID_TEST_PATTERN;
  c.value = NC_PATTERN_SOLID;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_CTRL, &c), 0);
  c.value = -1;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_G_CTRL, &c), 0);
  fail_unless_equals_int (c.value, NC_PATTERN_SOLID);
  c.value = NC_PATTERN_COUNT;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_CTRL, &c),
      -ERANGE);
  c.id = V4L2_CID_BRIGHTNESS;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_G_CTRL, &c),
      -EINVAL);
  negcam_device_unref (dev);
}

GST_END_TEST;

GST_START_TEST (test_request_counting)
{
  NegcamDevice *dev = open_ok ("webcam");
  struct v4l2_fmtdesc d = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  guint i;

  fail_unless_equals_int (negcam_device_count_total (dev), 0);
  for (i = 0; negcam_device_ioctl (dev, VIDIOC_ENUM_FMT, &d) == 0; i++)
    d.index = i + 1;
  fail_unless_equals_int (dev->counts[NEGCAM_REQ_ENUM_FMT], i + 1);
  negcam_device_ioctl (dev, VIDIOC_G_FMT, &f);
  negcam_device_ioctl (dev, VIDIOC_TRY_FMT, &f);
  negcam_device_ioctl (dev, VIDIOC_TRY_FMT, &f);
  fail_unless_equals_int (dev->counts[NEGCAM_REQ_G_FMT], 1);
  fail_unless_equals_int (dev->counts[NEGCAM_REQ_TRY_FMT], 2);
  fail_unless_equals_int (negcam_device_count_negotiation (dev), i + 4);
  reqbufs (dev, 2, NULL);
  fail_unless_equals_int (negcam_device_count_negotiation (dev), i + 4);
  fail_unless_equals_int (negcam_device_count_total (dev), i + 5);
  /* unknown requests are answered like a driver: ENOTTY */
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_G_STD, &f),
      -ENOTTY);
  fail_unless_equals_int (dev->counts[NEGCAM_REQ_OTHER], 1);
  reqbufs (dev, 0, NULL);
  negcam_device_unref (dev);
}

GST_END_TEST;

GST_START_TEST (test_open_errors)
{
  GError *err = NULL;

  fail_unless (negcam_device_open ("/nonexistent/video9", "webcam",
          &err) == NULL);
  fail_unless (g_error_matches (err, NEGCAM_DEVICE_ERROR,
          NEGCAM_DEVICE_ERROR_OPEN));
  fail_unless (strstr (err->message, "/nonexistent/video9"));
  g_clear_error (&err);
  fail_unless (negcam_device_open ("", "no-such-profile", &err) == NULL);
  fail_unless (g_error_matches (err, NEGCAM_DEVICE_ERROR,
          NEGCAM_DEVICE_ERROR_PROFILE));
  fail_unless (strstr (err->message, "no-such-profile"));
  g_clear_error (&err);
}

GST_END_TEST;

/* A device whose ENUM_FRAMESIZES answers EINVAL for every fourcc, also
 * for the formats ENUM_FMT lists (vivid on a TV input without scaler
 * does that): an embedded device behind a filtering backend. */
static gint
einval_sizes_ioctl (NegcamDevice * dev, unsigned long request, gpointer arg)
{
  NegcamDevice *inner = dev->backend;

  if (request == VIDIOC_ENUM_FRAMESIZES)
    return -EINVAL;
  return inner->ops->ioctl (inner, request, arg);
}

static void
einval_sizes_close (NegcamDevice * dev)
{
  negcam_device_unref (dev->backend);
}

static const NegcamDeviceOps einval_sizes_ops = {
  .name = "einval-sizes",
  .ioctl = einval_sizes_ioctl,
  .close = einval_sizes_close,
};

/* The ENUM_FRAMESIZES lookup must not take that EINVAL for "absent": the
 * cache confirms with ENUM_FMT and offers the format at any size, exactly
 * as without the lookup. */
GST_START_TEST (test_probe_lookup_einval_sizes)
{
  static const gchar *filters[] = { "video/x-raw,format=YUY2",
    "video/x-raw,format=YUY2,width=640,height=480", "image/jpeg",
    "video/x-raw,format=NV12"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (filters); i++) {
    NegcamDevice *dev = g_new0 (NegcamDevice, 1);
    NegcamFormatCache *a, *b;
    GstCaps *filter = gst_caps_from_string (filters[i]), *ca, *cb, *fixed;
    struct v4l2_format fmt;
    struct v4l2_fract iv;

    dev->refcount = 1;
    dev->ops = &einval_sizes_ops;
    dev->description = g_strdup ("einval-sizes webcam");
    dev->backend = open_ok ("webcam");
    a = negcam_format_cache_new (dev);
    b = negcam_format_cache_new (dev);
    negcam_format_cache_set_size_lookup (a, TRUE);
    ca = negcam_format_cache_caps (a, filter);
    cb = negcam_format_cache_caps (b, filter);
    /* A fixed size asks its intervals first, and they answer: the
     * lookup then offers that size at its real rates, within what the
     * full path offers (any size, any rate). */
    if (i == 1)
      fail_unless (gst_caps_is_subset (ca, cb), "%s: %" GST_PTR_FORMAT
          " not in %" GST_PTR_FORMAT, filters[i], ca, cb);
    else
      fail_unless (gst_caps_is_strictly_equal (ca, cb), "%s: %"
          GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, filters[i], ca, cb);
    if (i < 3) {
      fail_if (gst_caps_is_empty (ca), "%s: nothing offered", filters[i]);
      fixed = gst_caps_fixate (gst_caps_ref (ca));
      fail_unless (negcam_format_cache_caps_to_format (a, fixed, &fmt, &iv));
      fail_unless_equals_int (fmt.fmt.pix.pixelformat,
          i < 2 ? V4L2_PIX_FMT_YUYV : V4L2_PIX_FMT_MJPEG);
      gst_caps_unref (fixed);
    } else {
      fail_unless (gst_caps_is_empty (ca));
    }
    gst_caps_unref (ca);
    gst_caps_unref (cb);
    gst_caps_unref (filter);
    negcam_format_cache_free (a);
    negcam_format_cache_free (b);
    negcam_device_unref (dev);
  }
}

GST_END_TEST;

/* The output queue (negcamsink's embedded device) is user/vbuf.c's model
 * of a vb2 queue, NC_OUTPUT: buffers the application writes, consumed at
 * once, with its bytesused and timestamp, mapped memory orphaned by
 * REQBUFS(0), the format busy while buffers exist. */
static const gchar *output_profile_text = "name out\n"
    "default GREY 320x240 fps 30\n"
    "default YUYV output 64x48 fps 30\n"
    "format GREY\n"
    "  size 320x240 fps 30\n"
    "format YUYV output\n"
    "  size 64x48 fps 30\n"
    "  size 32x24 fps 30\n";

static gint
out_buf (NegcamDevice * dev, unsigned long req, guint index, guint32 used,
    struct v4l2_buffer *v)
{
  memset (v, 0, sizeof (*v));
  v->index = index;
  v->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  v->memory = V4L2_MEMORY_MMAP;
  v->bytesused = used;
  v->timestamp.tv_sec = 5;
  v->timestamp.tv_usec = 7 + index;
  return negcam_device_ioctl (dev, req, v);
}

GST_START_TEST (test_output_queue)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);
  struct v4l2_requestbuffers r = {.count = 1,
    .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
  struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
  gint type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  struct v4l2_buffer v;
  GError *err = NULL;
  NegcamDevice *dev;
  guint32 last = 0, length;
  guint8 *map;

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, output_profile_text, -1, NULL));
  dev = negcam_device_open_full (NULL, path, NEGCAM_DEVICE_OPEN_OUTPUT, &err);
  fail_unless (dev != NULL, "%s", err ? err->message : "");

  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_REQBUFS, &r), 0);
  fail_unless_equals_int (r.count, 2);  /* at least two */
  fail_unless_equals_int (out_buf (dev, VIDIOC_QUERYBUF, 1, 0, &v), 0);
  length = v.length;
  fail_unless_equals_int (length, 64 * 48 * 2);
  map = negcam_device_mmap (dev, v.m.offset, v.length);
  fail_unless (map != NULL);
  memset (map, 0x5a, length);

  /* not streaming: nothing consumed */
  fail_unless_equals_int (out_buf (dev, VIDIOC_DQBUF, 0, 0, &v), -EINVAL);
  fail_unless_equals_int (out_buf (dev, VIDIOC_QBUF, 1, length + 1, &v),
      -EINVAL);
  fail_unless_equals_int (out_buf (dev, VIDIOC_QBUF, 0, 100, &v), 0);
  fail_unless (v.flags & V4L2_BUF_FLAG_QUEUED);
  fail_unless_equals_int (out_buf (dev, VIDIOC_QBUF, 0, 100, &v), -EINVAL);
  fail_unless_equals_int (out_buf (dev, VIDIOC_QBUF, 1, 0, &v), 0);
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_STREAMON, &type),
      0);

  /* consumed in order, with what was written and when (QBUF's timestamp,
   * not the one DQBUF's struct brought: index 9, 5.000016 s) */
  fail_unless_equals_int (out_buf (dev, VIDIOC_DQBUF, 9, 0, &v), 0);
  fail_unless_equals_int (v.index, 0);
  fail_unless_equals_int (v.sequence, 0);
  fail_unless_equals_int (v.bytesused, 100);
  fail_unless_equals_int (v.timestamp.tv_usec, 7);
  fail_unless (v.flags & V4L2_BUF_FLAG_TIMESTAMP_COPY);
  fail_unless_equals_int (out_buf (dev, VIDIOC_DQBUF, 0, 0, &v), 0);
  fail_unless_equals_int (v.index, 1);
  fail_unless_equals_int (v.sequence, 1);
  fail_unless_equals_int (v.bytesused, length);  /* 0: the whole buffer */
  fail_unless_equals_int (out_buf (dev, VIDIOC_DQBUF, 0, 0, &v), -EAGAIN);
  fail_unless_equals_int (negcam_device_embedded_output_frames (dev, &last),
      2);
  fail_unless_equals_int (last, length);

  /* the format is busy while buffers exist; REQBUFS(0) orphans the map */
  f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  f.fmt.pix.width = 32;
  f.fmt.pix.height = 24;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_FMT, &f), -EBUSY);
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_STREAMOFF, &type),
      0);
  r.count = 0;
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_REQBUFS, &r), 0);
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_FMT, &f), 0);
  fail_unless_equals_int (map[length - 1], 0x5a);
  negcam_device_munmap (dev, map, length);

  negcam_device_unref (dev);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
negcamdevice_suite (void)
{
  Suite *s = suite_create ("negcamdevice");
  TCase *tc = tcase_create ("embedded");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_streaming_semantics);
  tcase_add_test (tc, test_wait_and_cancel);
  tcase_add_test (tc, test_controls);
  tcase_add_test (tc, test_request_counting);
  tcase_add_test (tc, test_open_errors);
  tcase_add_test (tc, test_probe_lookup_einval_sizes);
  tcase_add_test (tc, test_output_queue);
  return s;
}

GST_CHECK_MAIN (negcamdevice);
