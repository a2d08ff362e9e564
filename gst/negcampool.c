/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool, see negcampool.h.
 *
 * Ownership: pool->bufs[i] owns buffer i while it is in the pool (queued
 * in the device or idle); acquire hands that reference to the caller, and
 * GstBufferPool gives it back through release_buffer when downstream
 * drops the last ref. The memory of each buffer is the device's mapping;
 * the mapping is undone when the GstMemory is freed, so frames may outlive
 * the pool and a REQBUFS(0) (the device orphans mapped buffers).
 *
 * Locking: pool->lock covers queueing and the outstanding flags; it is
 * taken around QBUF in release so that negcam_pool_stop_queueing() and a
 * concurrent release cannot queue into a stopped device.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>

#include "negcampool.h"

GST_DEBUG_CATEGORY_EXTERN (negcamsrc_debug);
#define GST_CAT_DEFAULT negcamsrc_debug

#define NEGCAM_POOL_MAX 32

struct _NegcamPool {
  GstBufferPool parent;

  NegcamDevice *dev;
  struct v4l2_pix_format pix;
  GstVideoInfo dev_info; /* device layout */
  gboolean is_video;
  gboolean needs_meta;

  GMutex lock;
  GstBuffer *bufs[NEGCAM_POOL_MAX];
  gboolean outstanding[NEGCAM_POOL_MAX];
  gboolean in_device[NEGCAM_POOL_MAX];
  guint count;
  gboolean queueing;
};

G_DEFINE_TYPE (NegcamPool, negcam_pool, GST_TYPE_BUFFER_POOL);

typedef struct {
  NegcamDevice *dev;
  gpointer addr;
  guint32 length;
} Mapping;

static void
mapping_free (gpointer data)
{
  Mapping *m = data;

  negcam_device_munmap (m->dev, m->addr, m->length);
  negcam_device_unref (m->dev);
  g_free (m);
}

void
negcam_video_info_apply_format (
    GstVideoInfo *info, const struct v4l2_pix_format *pix)
{
  const GstVideoFormatInfo *fi = info->finfo;
  guint i, bpl = pix->bytesperline, ppl;
  gsize offset = 0;

  if (bpl == 0 || GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0) <= 0)
    return;
  ppl = bpl / GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0);
  for (i = 0; i < GST_VIDEO_FORMAT_INFO_N_PLANES (fi); i++) {
    /* the first component stored in plane i gives its subsampling */
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint c;

    gst_video_format_info_component (fi, i, comp);
    c = comp[0];
    if (i == 0)
      info->stride[i] = bpl;
    else
      info->stride[i] =
          GST_VIDEO_SUB_SCALE (GST_VIDEO_FORMAT_INFO_W_SUB (fi, c), ppl)
          * GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, c);
    info->offset[i] = offset;
    offset += (gsize)info->stride[i]
        * GST_VIDEO_SUB_SCALE (
            GST_VIDEO_FORMAT_INFO_H_SUB (fi, c), GST_VIDEO_INFO_HEIGHT (info));
  }
  info->size = MAX (offset, pix->sizeimage);
}

NegcamPool *
negcam_pool_new (NegcamDevice *dev, const struct v4l2_pix_format *pix,
    const GstVideoInfo *info)
{
  NegcamPool *pool = g_object_new (NEGCAM_TYPE_POOL, NULL);
  guint i;

  gst_object_ref_sink (pool);
  pool->dev = negcam_device_ref (dev);
  pool->pix = *pix;
  if (info) {
    pool->is_video = TRUE;
    pool->dev_info = *info;
    negcam_video_info_apply_format (&pool->dev_info, pix);
    for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++)
      if (pool->dev_info.stride[i] != info->stride[i]
          || pool->dev_info.offset[i] != info->offset[i])
        pool->needs_meta = TRUE;
  }
  return pool;
}

gboolean
negcam_pool_needs_video_meta (NegcamPool *pool)
{
  return pool->needs_meta;
}

guint
negcam_pool_get_count (NegcamPool *pool)
{
  return pool->count;
}

guint
negcam_pool_get_queued (NegcamPool *pool)
{
  guint i, n = 0;

  g_mutex_lock (&pool->lock);
  for (i = 0; i < pool->count; i++)
    n += pool->in_device[i];
  g_mutex_unlock (&pool->lock);
  return n;
}

static gint
queue_buffer (NegcamPool *pool, guint index)
{
  struct v4l2_buffer v = { 0 };
  gint ret;

  v.index = index;
  v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  v.memory = V4L2_MEMORY_MMAP;
  ret = negcam_device_ioctl (pool->dev, VIDIOC_QBUF, &v);
  if (ret == 0)
    pool->in_device[index] = TRUE;
  return ret;
}

static void
free_all (NegcamPool *pool)
{
  guint i;

  for (i = 0; i < pool->count; i++) {
    g_assert (!pool->outstanding[i]);
    gst_clear_buffer (&pool->bufs[i]);
    pool->in_device[i] = FALSE;
  }
  pool->count = 0;
}

static gboolean
negcam_pool_start (GstBufferPool *bpool)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);
  GstStructure *config = gst_buffer_pool_get_config (bpool);
  struct v4l2_requestbuffers req = { 0 };
  guint size, min, max, i;
  gboolean video_meta;

  gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
  video_meta = gst_buffer_pool_config_has_option (
      config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_structure_free (config);

  req.count = CLAMP (min, 2, NEGCAM_POOL_MAX);
  req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  req.memory = V4L2_MEMORY_MMAP;
  if (negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req) < 0
      || req.count == 0) {
    GST_ERROR_OBJECT (pool, "REQBUFS %u failed", min);
    return FALSE;
  }

  g_mutex_lock (&pool->lock);
  pool->count = MIN (req.count, NEGCAM_POOL_MAX);
  for (i = 0; i < pool->count; i++) {
    struct v4l2_buffer v = { 0 };
    Mapping *m;
    GstBuffer *buf;

    v.index = i;
    v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    v.memory = V4L2_MEMORY_MMAP;
    if (negcam_device_ioctl (pool->dev, VIDIOC_QUERYBUF, &v) < 0)
      goto failed;
    m = g_new0 (Mapping, 1);
    m->addr = negcam_device_mmap (pool->dev, v.m.offset, v.length);
    if (!m->addr) {
      g_free (m);
      goto failed;
    }
    m->dev = negcam_device_ref (pool->dev);
    m->length = v.length;
    buf = gst_buffer_new ();
    /* NO_SHARE: the memory goes back to the device when this buffer
     * returns to the pool, so nobody may keep a sub-buffer of it beyond
     * the buffer's life (GstAdapter, copy_region): they get a copy. */
    gst_buffer_append_memory (buf,
        gst_memory_new_wrapped (GST_MEMORY_FLAG_NO_SHARE, m->addr, v.length, 0,
            v.length, m, mapping_free));
    if (pool->is_video && (pool->needs_meta || video_meta)) {
      GstVideoMeta *meta = gst_buffer_add_video_meta_full (buf,
          GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&pool->dev_info),
          GST_VIDEO_INFO_WIDTH (&pool->dev_info),
          GST_VIDEO_INFO_HEIGHT (&pool->dev_info),
          GST_VIDEO_INFO_N_PLANES (&pool->dev_info), pool->dev_info.offset,
          pool->dev_info.stride);
      GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
    }
    pool->bufs[i] = buf;
    pool->outstanding[i] = FALSE;
    if (queue_buffer (pool, i) < 0)
      goto failed;
  }
  pool->queueing = TRUE;
  g_mutex_unlock (&pool->lock);
  GST_DEBUG_OBJECT (
      pool, "%u buffers of %u bytes", pool->count, pool->pix.sizeimage);
  return TRUE;

failed:
  free_all (pool);
  g_mutex_unlock (&pool->lock);
  req.count = 0;
  negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req);
  return FALSE;
}

static gboolean
negcam_pool_stop (GstBufferPool *bpool)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);

  g_mutex_lock (&pool->lock);
  pool->queueing = FALSE;
  free_all (pool);
  g_mutex_unlock (&pool->lock);
  return GST_BUFFER_POOL_CLASS (negcam_pool_parent_class)->stop (bpool);
}

void
negcam_pool_stop_queueing (NegcamPool *pool)
{
  guint i;

  g_mutex_lock (&pool->lock);
  pool->queueing = FALSE;
  /* STREAMOFF, which follows, gives every queued buffer back. */
  for (i = 0; i < pool->count; i++)
    pool->in_device[i] = FALSE;
  g_mutex_unlock (&pool->lock);
}

static GstFlowReturn
negcam_pool_acquire_buffer (GstBufferPool *bpool, GstBuffer **buffer,
    GstBufferPoolAcquireParams *params)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);
  struct v4l2_buffer v = { 0 };
  GstBuffer *buf;
  gint ret;

  if (GST_BUFFER_POOL_IS_FLUSHING (bpool))
    return GST_FLOW_FLUSHING;

  v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  v.memory = V4L2_MEMORY_MMAP;
  g_mutex_lock (&pool->lock);
  if (!pool->queueing) {
    g_mutex_unlock (&pool->lock);
    return GST_FLOW_FLUSHING;
  }
  ret = negcam_device_ioctl (pool->dev, VIDIOC_DQBUF, &v);
  if (ret == -EAGAIN) {
    g_mutex_unlock (&pool->lock);
    return NEGCAM_FLOW_EMPTY;
  }
  if (ret < 0 || v.index >= pool->count || pool->outstanding[v.index]) {
    g_mutex_unlock (&pool->lock);
    GST_ERROR_OBJECT (pool, "DQBUF failed: %s", g_strerror (-ret));
    return GST_FLOW_ERROR;
  }
  buf = pool->bufs[v.index];
  pool->in_device[v.index] = FALSE;
  pool->outstanding[v.index] = TRUE;
  g_mutex_unlock (&pool->lock);

  gst_buffer_set_size (buf, pool->is_video ? pool->pix.sizeimage : v.bytesused);
  GST_BUFFER_OFFSET (buf) = v.sequence;
  GST_BUFFER_OFFSET_END (buf) = v.sequence + 1;
  if (v.flags & V4L2_BUF_FLAG_ERROR)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
negcam_pool_release_buffer (GstBufferPool *bpool, GstBuffer *buffer)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);
  guint i;

  g_mutex_lock (&pool->lock);
  for (i = 0; i < pool->count; i++)
    if (pool->bufs[i] == buffer)
      break;
  if (i == pool->count) {
    /* Not one of ours (cannot happen): drop it. */
    g_mutex_unlock (&pool->lock);
    gst_buffer_unref (buffer);
    return;
  }
  pool->outstanding[i] = FALSE;
  if (pool->queueing && queue_buffer (pool, i) < 0)
    GST_WARNING_OBJECT (pool, "QBUF %u failed", i);
  g_mutex_unlock (&pool->lock);
}

static void
negcam_pool_finalize (GObject *object)
{
  NegcamPool *pool = NEGCAM_POOL (object);

  free_all (pool);
  negcam_device_unref (pool->dev);
  g_mutex_clear (&pool->lock);
  G_OBJECT_CLASS (negcam_pool_parent_class)->finalize (object);
}

static void
negcam_pool_init (NegcamPool *pool)
{
  g_mutex_init (&pool->lock);
}

static const gchar **
negcam_pool_get_options (GstBufferPool *bpool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static void
negcam_pool_class_init (NegcamPoolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  object_class->finalize = negcam_pool_finalize;
  pool_class->get_options = negcam_pool_get_options;
  pool_class->start = negcam_pool_start;
  pool_class->stop = negcam_pool_stop;
  pool_class->acquire_buffer = negcam_pool_acquire_buffer;
  pool_class->release_buffer = negcam_pool_release_buffer;
}
