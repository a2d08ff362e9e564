/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's multiplanar side without a kernel (suite gst, negcam-mplane):
 * a device backend of this test answers as a V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
 * node (vivid multiplanar=2 in small: YUYV and NV12 with one plane, NV12M
 * with two, YUV420M with three, planes padded to a stride of width + 64).
 * Checked: the format views (negcam_format_get_pix/set_pix, the buffer
 * helpers); the format cache finds NV12 caps as NV12M without ENUM_FMT and
 * without asking the contiguous NV12 (there too), lists NV12 once, asks
 * every request with the multiplanar type; the pool wraps each plane as a GstMemory with
 * a GstVideoMeta of the device's offsets and strides, and a frame maps
 * plane by plane with the bytes the device wrote. Streaming from a real
 * multiplanar node is tested in the VM (tests/vm/mplane-suite.sh).
 */
#include <errno.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "negcamdevice-backend.h"
#include "negcamformatcache.h"
#include "negcampool.h"

#define MP V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
#define FAKE_BUFS 8

static const guint32 fake_fourccs[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12,
  V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_YUV420M };
static const guint fake_sizes[][2] = { { 640, 360 }, { 1280, 720 } };

typedef struct {
  struct v4l2_format fmt;
  guint8 *mem[FAKE_BUFS][VIDEO_MAX_PLANES];
  gboolean queued[FAKE_BUFS];
  guint count, sequence;
  guint wrong_type; /* requests that named another buffer type */
} Fake;

/* Planes of @fourcc at @w x @h into @mp (strides padded by 64). */
static void
fake_fill (struct v4l2_pix_format_mplane *mp, guint32 fourcc, guint w, guint h)
{
  guint pad = w + 64;

  memset (mp, 0, sizeof (*mp));
  mp->pixelformat = fourcc;
  mp->width = w;
  mp->height = h;
  mp->field = V4L2_FIELD_NONE;
  mp->colorspace = V4L2_COLORSPACE_SMPTE170M;
  mp->num_planes = 1;
  if (fourcc == V4L2_PIX_FMT_YUYV) {
    /* as vivid: the picture after 128 bytes (data_offset) */
    mp->plane_fmt[0].bytesperline = 2 * w;
    mp->plane_fmt[0].sizeimage = 2 * w * h + 128;
  } else if (fourcc == V4L2_PIX_FMT_NV12) {
    mp->plane_fmt[0].bytesperline = w;
    mp->plane_fmt[0].sizeimage = w * h * 3 / 2;
  } else if (fourcc == V4L2_PIX_FMT_NV12M) {
    mp->num_planes = 2;
    mp->plane_fmt[0] = (struct v4l2_plane_pix_format){ .bytesperline = pad,
      .sizeimage = pad * h };
    mp->plane_fmt[1] = (struct v4l2_plane_pix_format){ .bytesperline = pad,
      .sizeimage = pad * h / 2 };
  } else {
    mp->num_planes = 3;
    mp->plane_fmt[0] = (struct v4l2_plane_pix_format){ .bytesperline = pad,
      .sizeimage = pad * h };
    mp->plane_fmt[1] = (struct v4l2_plane_pix_format){ .bytesperline = pad / 2,
      .sizeimage = pad / 2 * h / 2 };
    mp->plane_fmt[2] = mp->plane_fmt[1];
  }
}

static gboolean
fake_has (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (fake_fourccs); i++)
    if (fake_fourccs[i] == fourcc)
      return TRUE;
  return FALSE;
}

/* A request named another buffer type than the multiplanar one. */
static gint
fake_wrong_type (Fake *k)
{
  k->wrong_type++;
  return -EINVAL;
}

static gint
fake_enum (unsigned long request, gpointer arg)
{
  if (request == VIDIOC_ENUM_FMT) {
    struct v4l2_fmtdesc *d = arg;
    if (d->index >= G_N_ELEMENTS (fake_fourccs))
      return -EINVAL;
    d->pixelformat = fake_fourccs[d->index];
    return 0;
  }
  if (request == VIDIOC_ENUM_FRAMESIZES) {
    struct v4l2_frmsizeenum *s = arg;
    if (!fake_has (s->pixel_format) || s->index >= G_N_ELEMENTS (fake_sizes))
      return -EINVAL;
    s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    s->discrete.width = fake_sizes[s->index][0];
    s->discrete.height = fake_sizes[s->index][1];
    return 0;
  } else {
    struct v4l2_frmivalenum *f = arg;
    if (!fake_has (f->pixel_format) || f->index > 0)
      return -EINVAL;
    f->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    f->discrete = (struct v4l2_fract){ 1, 30 };
    return 0;
  }
}

static gint
fake_format (Fake *k, unsigned long request, struct v4l2_format *f)
{
  struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
  guint w = mp->width == 1280 ? 1280 : 640;

  if (f->type != MP)
    return fake_wrong_type (k);
  if (request == VIDIOC_G_FMT) {
    *f = k->fmt;
    return 0;
  }
  fake_fill (mp, fake_has (mp->pixelformat) ? mp->pixelformat
                                            : V4L2_PIX_FMT_YUYV,
      w, w == 1280 ? 720 : 360);
  if (request == VIDIOC_S_FMT) {
    if (k->count)
      return -EBUSY;
    k->fmt = *f;
  }
  return 0;
}

/* mmap offsets: buffer << 8 | plane, in pages. */
static gint
fake_buffer (Fake *k, unsigned long request, struct v4l2_buffer *v)
{
  guint i, n = k->fmt.fmt.pix_mp.num_planes;

  if (v->type != MP)
    return fake_wrong_type (k);
  if (v->length < n || !v->m.planes || (request != VIDIOC_DQBUF && v->index >= k->count))
    return -EINVAL;
  if (request == VIDIOC_QBUF) {
    k->queued[v->index] = TRUE;
    return 0;
  }
  if (request == VIDIOC_DQBUF) {
    for (v->index = 0; v->index < k->count && !k->queued[v->index]; v->index++)
      ;
    if (v->index == k->count)
      return -EAGAIN;
    k->queued[v->index] = FALSE;
    v->sequence = k->sequence++;
  }
  v->length = n;
  for (i = 0; i < n; i++) {
    guint32 size = k->fmt.fmt.pix_mp.plane_fmt[i].sizeimage;
    guint32 skip = k->fmt.fmt.pix_mp.pixelformat == V4L2_PIX_FMT_YUYV ? 128 : 0;

    v->m.planes[i].length = size;
    v->m.planes[i].m.mem_offset = (v->index << 8 | i) << 12;
    if (request != VIDIOC_DQBUF)
      continue;
    /* plane i of frame n: bytes 0x10 * (i + 1) + n after @skip of 0xee */
    v->m.planes[i].bytesused = size;
    v->m.planes[i].data_offset = skip;
    memset (k->mem[v->index][i], 0xee, skip);
    memset (k->mem[v->index][i] + skip, 0x10 * (i + 1) + v->sequence,
        size - skip);
  }
  return 0;
}

static gint
fake_reqbufs (Fake *k, struct v4l2_requestbuffers *r)
{
  guint i, p;

  if (r->type != MP)
    return fake_wrong_type (k);
  for (i = 0; i < k->count; i++)
    for (p = 0; p < VIDEO_MAX_PLANES; p++)
      g_clear_pointer (&k->mem[i][p], g_free);
  k->count = MIN (r->count, FAKE_BUFS);
  k->sequence = 0;
  memset (k->queued, 0, sizeof (k->queued));
  for (i = 0; i < k->count; i++)
    for (p = 0; p < k->fmt.fmt.pix_mp.num_planes; p++)
      k->mem[i][p] = g_malloc0 (k->fmt.fmt.pix_mp.plane_fmt[p].sizeimage);
  r->count = k->count;
  return 0;
}

static gint
fake_ioctl (NegcamDevice *dev, unsigned long request, gpointer arg)
{
  Fake *k = dev->backend;

  switch (request) {
    case VIDIOC_QUERYCAP:
      ((struct v4l2_capability *)arg)->device_caps =
          V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING;
      return 0;
    case VIDIOC_ENUM_FMT:
      if (((struct v4l2_fmtdesc *)arg)->type != MP)
        return fake_wrong_type (k);
      return fake_enum (request, arg);
    case VIDIOC_ENUM_FRAMESIZES:
    case VIDIOC_ENUM_FRAMEINTERVALS:
      return fake_enum (request, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT:
      return fake_format (k, request, arg);
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
      if (((struct v4l2_streamparm *)arg)->type != MP)
        return fake_wrong_type (k);
      ((struct v4l2_streamparm *)arg)->parm.capture.timeperframe =
          (struct v4l2_fract){ 1, 30 };
      return 0;
    case VIDIOC_REQBUFS:
      return fake_reqbufs (k, arg);
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
      return fake_buffer (k, request, arg);
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
      return *(gint *)arg == MP ? 0 : fake_wrong_type (k);
    default:
      return -ENOTTY;
  }
}

static gpointer
fake_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  Fake *k = dev->backend;
  guint b = offset >> 20, p = (offset >> 12) & 0xff;

  return b < k->count && p < VIDEO_MAX_PLANES ? k->mem[b][p] : NULL;
}

static void
fake_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
}

static gint
fake_wait (NegcamDevice *dev, gint64 timeout_us)
{
  return 1;
}

static void
fake_set_flushing (NegcamDevice *dev, gboolean flushing)
{
}

static void
fake_close (NegcamDevice *dev)
{
  struct v4l2_requestbuffers r = { .type = MP };

  fake_reqbufs (dev->backend, &r);
  g_free (dev->backend);
}

static const NegcamDeviceOps fake_ops = { .name = "fake-mplane",
  .ioctl = fake_ioctl,
  .mmap = fake_mmap,
  .munmap = fake_munmap,
  .wait = fake_wait,
  .set_flushing = fake_set_flushing,
  .close = fake_close };

static NegcamDevice *
fake_open (void)
{
  NegcamDevice *dev = g_new0 (NegcamDevice, 1);
  Fake *k = g_new0 (Fake, 1);

  negcam_device_debug_init ();
  k->fmt.type = MP;
  fake_fill (&k->fmt.fmt.pix_mp, V4L2_PIX_FMT_YUYV, 640, 360);
  dev->refcount = 1;
  dev->ops = &fake_ops;
  dev->description = g_strdup ("fake-mplane");
  dev->backend = k;
  return dev;
}

GST_START_TEST (test_format_views)
{
  struct v4l2_format f = { .type = MP };
  struct v4l2_pix_format pix = { .width = 640, .height = 360,
    .pixelformat = V4L2_PIX_FMT_NV12M, .field = V4L2_FIELD_NONE };
  struct v4l2_plane planes[VIDEO_MAX_PLANES];
  struct v4l2_buffer v;

  fail_unless_equals_int (negcam_capture_type (V4L2_CAP_VIDEO_CAPTURE_MPLANE), MP);
  fail_unless_equals_int (negcam_capture_type (V4L2_CAP_VIDEO_CAPTURE
                              | V4L2_CAP_VIDEO_CAPTURE_MPLANE),
      V4L2_BUF_TYPE_VIDEO_CAPTURE);
  fail_unless_equals_int (negcam_capture_type (V4L2_CAP_VIDEO_OUTPUT), 0);
  negcam_format_set_pix (&f, &pix);
  fail_unless_equals_int (f.fmt.pix_mp.pixelformat, V4L2_PIX_FMT_NV12M);
  fail_unless_equals_int (f.fmt.pix_mp.num_planes, 1);
  fake_fill (&f.fmt.pix_mp, V4L2_PIX_FMT_NV12M, 640, 360);
  negcam_format_get_pix (&f, &pix);
  fail_unless_equals_int (pix.width, 640);
  fail_unless_equals_int (pix.bytesperline, 704);
  fail_unless_equals_int (pix.sizeimage, 704 * 360 * 3 / 2);
  fail_unless_equals_int (pix.colorspace, V4L2_COLORSPACE_SMPTE170M);
  fail_unless_equals_int (negcam_format_n_planes (&f), 2);
  fail_unless_equals_int (negcam_format_plane_size (&f, 1), 704 * 180);
  negcam_buffer_init (&v, MP, V4L2_MEMORY_MMAP, planes, 2);
  fail_unless (v.m.planes == planes && v.length == 2);
  planes[0].bytesused = 10;
  planes[1].bytesused = 5;
  fail_unless_equals_int (negcam_buffer_bytesused (&v), 15);
  negcam_buffer_init (&v, V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_MEMORY_MMAP,
      planes, 2);
  fail_unless (v.length == 0 && v.m.planes == NULL);
}

GST_END_TEST;

static GstCaps *
fixed (const gchar *s)
{
  return gst_caps_from_string (s);
}

GST_START_TEST (test_probe_prefers_m_formats)
{
  NegcamDevice *dev = fake_open ();
  Fake *k = dev->backend;
  NegcamFormatCache *cache = negcam_format_cache_new_for_type (dev, MP);
  GstCaps *filter = fixed ("video/x-raw,format=NV12,width=640,height=360");
  GstCaps *caps, *one, *all;
  struct v4l2_format f;
  struct v4l2_fract iv;
  guint i, nv12 = 0;

  /* NV12 and NV12M both answer ENUM_FRAMEINTERVALS: the M format wins
   * without an ENUM_FMT walk */
  negcam_format_cache_set_size_lookup (cache, TRUE);
  caps = negcam_format_cache_caps (cache, filter);
  fail_if (gst_caps_is_empty (caps));
  one = gst_caps_fixate (gst_caps_ref (caps));
  fail_unless (negcam_format_cache_caps_to_format (cache, one, &f, &iv));
  fail_unless_equals_int (f.type, MP);
  fail_unless_equals_int (f.fmt.pix_mp.pixelformat, V4L2_PIX_FMT_NV12M);
  fail_unless_equals_int (negcam_device_count (dev, NEGCAM_REQ_ENUM_FMT), 0);
  /* NV12M asked first (its one rate, then EINVAL); NV12 not asked then */
  fail_unless_equals_int (
      negcam_device_count (dev, NEGCAM_REQ_ENUM_FRAMEINTERVALS), 2);
  gst_caps_unref (one);
  gst_caps_unref (caps);
  /* unfiltered: ENUM_FMT walked, NV12 listed once per size (NV12M's),
   * I420 from YUV420M */
  all = negcam_format_cache_caps (cache, NULL);
  for (i = 0; i < gst_caps_get_size (all); i++)
    nv12 += !g_strcmp0 (gst_structure_get_string (
                            gst_caps_get_structure (all, i), "format"),
        "NV12");
  fail_unless_equals_int (nv12, G_N_ELEMENTS (fake_sizes));
  one = fixed ("video/x-raw,format=I420,width=1280,height=720");
  fail_unless (gst_caps_can_intersect (all, one));
  fail_unless (negcam_format_cache_caps_to_format (cache, one, &f, &iv));
  fail_unless_equals_int (f.fmt.pix_mp.pixelformat, V4L2_PIX_FMT_YUV420M);
  fail_unless_equals_int (k->wrong_type, 0);
  gst_caps_unref (one);
  gst_caps_unref (all);
  gst_caps_unref (filter);
  negcam_format_cache_free (cache);
  negcam_device_unref (dev);
}

GST_END_TEST;

/* A pool on the fake device after S_FMT of @caps: started, one frame
 * acquired into *@buf. */
static NegcamPool *
pool_with_frame (NegcamDevice *dev, const gchar *caps_str, guint32 fourcc,
    GstVideoInfo *info, GstBuffer **buf)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  struct v4l2_format f = { .type = MP };
  NegcamPool *pool;
  GstStructure *config;

  fail_unless (gst_video_info_from_caps (info, caps));
  f.fmt.pix_mp.pixelformat = fourcc;
  f.fmt.pix_mp.width = GST_VIDEO_INFO_WIDTH (info);
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_S_FMT, &f), 0);
  pool = negcam_pool_new (dev, &f, info);
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (info), 4, 4);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  fail_unless (gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config));
  fail_unless (gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (GST_BUFFER_POOL (pool), buf, NULL), GST_FLOW_OK);
  gst_caps_unref (caps);
  return pool;
}

/* As the element ends a format: buffers back, pool stopped, REQBUFS 0. */
static void
pool_done (NegcamDevice *dev, NegcamPool *pool, GstBuffer *buf)
{
  struct v4l2_requestbuffers r = { .type = MP, .memory = V4L2_MEMORY_MMAP };

  gst_buffer_unref (buf);
  gst_buffer_pool_set_active (GST_BUFFER_POOL (pool), FALSE);
  gst_object_unref (pool);
  fail_unless_equals_int (negcam_device_ioctl (dev, VIDIOC_REQBUFS, &r), 0);
}

GST_START_TEST (test_pool_memory_per_plane)
{
  NegcamDevice *dev = fake_open ();
  GstVideoInfo info;
  GstVideoFrame frame;
  GstVideoMeta *meta;
  GstBuffer *buf;
  NegcamPool *pool = pool_with_frame (dev,
      "video/x-raw,format=I420,width=640,height=360", V4L2_PIX_FMT_YUV420M,
      &info, &buf);

  fail_unless (negcam_pool_needs_video_meta (pool));
  fail_unless_equals_int (gst_buffer_n_memory (buf), 3);
  fail_unless_equals_int (gst_buffer_get_size (buf), 704 * 360 + 2 * 352 * 180);
  meta = gst_buffer_get_video_meta (buf);
  fail_unless (meta != NULL && meta->n_planes == 3);
  fail_unless_equals_int (meta->stride[0], 704);
  fail_unless_equals_int (meta->stride[1], 352);
  fail_unless_equals_int (meta->offset[1], 704 * 360);
  fail_unless_equals_int (meta->offset[2], 704 * 360 + 352 * 180);
  /* mapped plane by plane, no merge: the bytes the device wrote (frame 0:
   * plane i holds 0x10 * (i + 1)) */
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  fail_unless_equals_int (((guint8 *)GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[0], 0x10);
  fail_unless_equals_int (((guint8 *)GST_VIDEO_FRAME_PLANE_DATA (&frame, 1))[351], 0x20);
  fail_unless_equals_int (((guint8 *)GST_VIDEO_FRAME_PLANE_DATA (&frame, 2))[0], 0x30);
  gst_video_frame_unmap (&frame);
  fail_unless_equals_int (gst_buffer_n_memory (buf), 3);
  pool_done (dev, pool, buf);
  /* one plane (YUYV): one memory, GStreamer's own layout, no meta needed;
   * the picture from the plane's data_offset on */
  pool = pool_with_frame (dev, "video/x-raw,format=YUY2,width=1280,height=720",
      V4L2_PIX_FMT_YUYV, &info, &buf);
  fail_if (negcam_pool_needs_video_meta (pool));
  fail_unless_equals_int (gst_buffer_n_memory (buf), 1);
  fail_unless_equals_int (gst_buffer_get_size (buf), 1280 * 720 * 2);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  fail_unless_equals_int (((guint8 *)GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[0], 0x10);
  gst_video_frame_unmap (&frame);
  pool_done (dev, pool, buf);
  fail_unless_equals_int (((Fake *)dev->backend)->wrong_type, 0);
  negcam_device_unref (dev);
}

GST_END_TEST;

static Suite *
negcam_mplane_suite (void)
{
  Suite *s = suite_create ("negcam-mplane");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_format_views);
  tcase_add_test (tc, test_probe_prefers_m_formats);
  tcase_add_test (tc, test_pool_memory_per_plane);
  return s;
}

GST_CHECK_MAIN (negcam_mplane);
