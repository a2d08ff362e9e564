/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool, see negcampool.h: the pool itself and capture (the source's
 * buffers: DQBUF on acquire, QBUF on release). Output pools
 * (negcamsink's) are negcampool-output.c; the instance struct is in
 * negcampool-private.h.
 *
 * Ownership and locking: negcampool-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <gst/allocators/gstdmabuf.h>

#include "negcampool-private.h"

#define GST_CAT_DEFAULT negcamdevice_debug

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

/* One buffer per plane (NV12M, YUV420M): video plane i is memory plane i,
 * laid out one after the other (the GstMemory of each, in order). */
static void
apply_planes (GstVideoInfo *info, const struct v4l2_format *fmt)
{
  guint i, n = negcam_format_n_planes (fmt);
  gsize offset = 0;

  if (n != GST_VIDEO_INFO_N_PLANES (info))
    return;
  for (i = 0; i < n; i++) {
    info->stride[i] = negcam_format_plane_stride (fmt, i);
    info->offset[i] = offset;
    offset += negcam_format_plane_size (fmt, i);
  }
  info->size = offset;
}

void
negcam_video_info_apply_format (
    GstVideoInfo *info, const struct v4l2_format *fmt)
{
  const GstVideoFormatInfo *fi = info->finfo;
  struct v4l2_pix_format view, *pix = &view;
  guint i, bpl, ppl;
  gsize offset = 0;

  if (negcam_format_n_planes (fmt) > 1) {
    apply_planes (info, fmt);
    return;
  }
  negcam_format_get_pix (fmt, pix);
  bpl = pix->bytesperline;
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
    /* A buffer holds one field with interlace-mode=alternate. */
    offset += (gsize)info->stride[i]
        * GST_VIDEO_SUB_SCALE (GST_VIDEO_FORMAT_INFO_H_SUB (fi, c),
            GST_VIDEO_INFO_FIELD_HEIGHT (info));
  }
  info->size = MAX (offset, pix->sizeimage);
}

NegcamPool *
negcam_pool_new (NegcamDevice *dev, const struct v4l2_format *fmt,
    const GstVideoInfo *info)
{
  NegcamPool *pool = g_object_new (NEGCAM_TYPE_POOL, NULL);
  guint i;

  gst_object_ref_sink (pool);
  pool->dev = negcam_device_ref (dev);
  pool->fmt = *fmt;
  pool->type = fmt->type;
  pool->n_planes = negcam_format_n_planes (fmt);
  negcam_format_get_pix (fmt, &pool->pix);
  if (info) {
    pool->is_video = TRUE;
    pool->dev_info = *info;
    negcam_video_info_apply_format (&pool->dev_info, fmt);
    /* buffers of several memories are mapped plane by plane through
     * their GstVideoMeta (else gst_buffer_map would merge them: a copy) */
    pool->needs_meta = pool->n_planes > 1;
    for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++)
      if (pool->dev_info.stride[i] != info->stride[i]
          || pool->dev_info.offset[i] != info->offset[i])
        pool->needs_meta = TRUE;
  }
  return pool;
}

void
negcam_pool_set_memory (NegcamPool *pool, NegcamPoolMemory memory)
{
  pool->memory = memory;
}

gboolean
negcam_pool_is_import (NegcamPool *pool)
{
  return pool->memory == NEGCAM_POOL_MEMORY_IMPORT;
}

void
negcam_pool_set_growth (NegcamPool *pool, gboolean grow)
{
  pool->grow = grow;
}

gboolean
negcam_pool_is_dmabuf (NegcamPool *pool)
{
  return pool->dmabuf_alloc != NULL;
}

guint
negcam_pool_get_created (NegcamPool *pool)
{
  guint n;

  g_mutex_lock (&pool->lock);
  n = pool->created;
  g_mutex_unlock (&pool->lock);
  return n;
}

void
negcam_pool_get_last_timestamp (
    NegcamPool *pool, guint32 *flags, GstClockTime *ts)
{
  *flags = pool->last_flags;
  *ts = (GstClockTime)pool->last_timestamp.tv_sec * GST_SECOND
      + (GstClockTime)pool->last_timestamp.tv_usec * GST_USECOND;
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
  guint n;

  g_mutex_lock (&pool->lock);
  n = negcam_pool_count_in_device (pool);
  g_mutex_unlock (&pool->lock);
  return n;
}

static gint
queue_buffer (NegcamPool *pool, guint index)
{
  struct v4l2_plane planes[VIDEO_MAX_PLANES];
  struct v4l2_buffer v;
  gint ret;

  /* Capture buffers wait in the device for frames (at start, on
   * release); output buffers go to it only written, through
   * negcam_pool_queue_output(). */
  if (pool->type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
    return 0;

  negcam_buffer_init (
      &v, pool->type, V4L2_MEMORY_MMAP, planes, pool->n_planes);
  v.index = index;
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

/* Memory plane @plane of device buffer @index, as QUERYBUF described it
 * in @v: its exported dma-buf or its mapping, @size bytes of its length
 * in use. NULL on failure. Call with the lock held. */
static GstMemory *
wrap_plane (NegcamPool *pool, guint index, guint plane, guint32 offset,
    guint32 length, gsize size)
{
  GstMemory *mem;

  if (pool->dmabuf_alloc) {
    struct v4l2_exportbuffer e = { 0 };

    e.type = pool->type;
    e.index = index;
    e.plane = plane;
    e.flags = O_CLOEXEC | O_RDWR;
    if (negcam_device_ioctl (pool->dev, VIDIOC_EXPBUF, &e) < 0)
      return NULL;
    /* The allocator owns the fd from here (closed with the memory); the
     * mapping is made once and kept. */
    mem = gst_dmabuf_allocator_alloc_with_flags (
        pool->dmabuf_alloc, e.fd, length, GST_FD_MEMORY_FLAG_KEEP_MAPPED);
    if (!mem) {
      close (e.fd);
      return NULL;
    }
    GST_MINI_OBJECT_FLAG_SET (mem, GST_MEMORY_FLAG_NO_SHARE);
  } else {
    Mapping *m = g_new0 (Mapping, 1);

    m->addr = negcam_device_mmap (pool->dev, offset, length);
    if (!m->addr) {
      g_free (m);
      return NULL;
    }
    m->dev = negcam_device_ref (pool->dev);
    m->length = length;
    /* NO_SHARE: the memory goes back to the device when this buffer
     * returns to the pool, so nobody may keep a sub-buffer of it beyond
     * the buffer's life (GstAdapter, copy_region): they get a copy. */
    mem = gst_memory_new_wrapped (GST_MEMORY_FLAG_NO_SHARE, m->addr, length,
        0, length, m, mapping_free);
  }
  gst_memory_resize (mem, 0, MIN (size, length));
  return mem;
}

/* Device buffer @index's memories (QUERYBUF, then EXPBUF or mmap per
 * plane) in @buf. A single memory spans the whole buffer; with one buffer
 * per plane each memory holds its plane's sizeimage, so that the planes
 * follow each other as pool->dev_info lays them out. */
static gboolean
wrap_memories (NegcamPool *pool, guint index, GstBuffer *buf)
{
  struct v4l2_plane planes[VIDEO_MAX_PLANES];
  struct v4l2_buffer v;
  gboolean mp = negcam_buf_type_is_mplane (pool->type);
  guint i;

  negcam_buffer_init (
      &v, pool->type, V4L2_MEMORY_MMAP, planes, pool->n_planes);
  v.index = index;
  if (negcam_device_ioctl (pool->dev, VIDIOC_QUERYBUF, &v) < 0
      || (mp && v.length != pool->n_planes))
    return FALSE;
  for (i = 0; i < pool->n_planes; i++) {
    guint32 offset = mp ? planes[i].m.mem_offset : v.m.offset;
    guint32 length = mp ? planes[i].length : v.length;
    gsize size = pool->n_planes > 1 ? negcam_format_plane_size (&pool->fmt, i)
                                    : length;
    GstMemory *mem = wrap_plane (pool, index, i, offset, length, size);

    if (!mem)
      return FALSE;
    gst_buffer_append_memory (buf, mem);
  }
  return TRUE;
}

/* Wrap device buffer @index as pool->bufs[index], with its GstVideoMeta
 * when one is needed or welcome. Call with the lock held. */
static gboolean
wrap_buffer (NegcamPool *pool, guint index)
{
  GstBuffer *buf = gst_buffer_new ();

  if (!wrap_memories (pool, index, buf)) {
    gst_buffer_unref (buf);
    return FALSE;
  }
  if (pool->is_video && (pool->needs_meta || pool->video_meta)) {
    /* With interlace-mode=alternate the meta's height is the frame's, as
     * in the caps (gst_video_frame_map() insists); the TOP/BOTTOM_FIELD
     * flag makes it one field of half the lines, laid out as dev_info. */
    GstVideoMeta *meta = gst_buffer_add_video_meta_full (buf,
        GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&pool->dev_info),
        GST_VIDEO_INFO_WIDTH (&pool->dev_info),
        GST_VIDEO_INFO_HEIGHT (&pool->dev_info),
        GST_VIDEO_INFO_N_PLANES (&pool->dev_info), pool->dev_info.offset,
        pool->dev_info.stride);
    GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
  }
  pool->bufs[index] = buf;
  pool->outstanding[index] = FALSE;
  return TRUE;
}

/* Is EXPBUF possible here? Tried on buffer 0 (the fd is closed again). */
static gboolean
can_export (NegcamPool *pool)
{
  struct v4l2_exportbuffer e = { 0 };

  e.type = pool->type;
  e.index = 0;
  e.flags = O_CLOEXEC | O_RDWR;
  if (negcam_device_ioctl (pool->dev, VIDIOC_EXPBUF, &e) < 0)
    return FALSE;
  close (e.fd);
  return TRUE;
}

/* Record why the pool could not start (replacing an older reason). */
static void
set_start_error (NegcamPool *pool, GstResourceError code, const gchar *fmt,
    ...) G_GNUC_PRINTF (3, 4);

static void
set_start_error (NegcamPool *pool, GstResourceError code, const gchar *fmt,
    ...)
{
  va_list args;

  g_clear_error (&pool->start_error);
  va_start (args, fmt);
  pool->start_error = g_error_new_valist (GST_RESOURCE_ERROR, code, fmt, args);
  va_end (args);
  GST_ERROR_OBJECT (pool, "%s", pool->start_error->message);
}

GError *
negcam_pool_get_start_error (NegcamPool *pool)
{
  GError *err;

  g_mutex_lock (&pool->lock);
  err = pool->start_error ? g_error_copy (pool->start_error) : NULL;
  g_mutex_unlock (&pool->lock);
  return err;
}

/* The device's buffers as ours: dma-bufs when io-mode allows and the
 * device exports them, else its mmap()ed memory; each wrapped and queued.
 * Call with the lock held; FALSE with the start error set. */
static gboolean
fill_buffers (NegcamPool *pool)
{
  guint i;

  if (pool->memory != NEGCAM_POOL_MEMORY_MMAP) {
    if (can_export (pool)) {
      pool->dmabuf_alloc = gst_dmabuf_allocator_new ();
    } else if (pool->memory == NEGCAM_POOL_MEMORY_DMABUF) {
      set_start_error (pool, GST_RESOURCE_ERROR_SETTINGS,
          "%s cannot export dma-bufs (EXPBUF)", negcam_device_get_description (pool->dev));
      return FALSE;
    } else {
      GST_DEBUG_OBJECT (pool, "no EXPBUF: MMAP buffers");
    }
  }
  for (i = 0; i < pool->count; i++) {
    if (!wrap_buffer (pool, i) || queue_buffer (pool, i) < 0) {
      set_start_error (pool, GST_RESOURCE_ERROR_FAILED,
          "%s: buffer %u could not be mapped or queued",
          negcam_device_get_description (pool->dev), i);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
negcam_pool_start (GstBufferPool *bpool)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);
  GstStructure *config = gst_buffer_pool_get_config (bpool);
  struct v4l2_requestbuffers req = { 0 };
  guint size, min, max;
  gint ret;

  gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
  pool->video_meta = gst_buffer_pool_config_has_option (
      config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_structure_free (config);

  req.count = CLAMP (min, 2, NEGCAM_POOL_MAX);
  req.type = pool->type;
  req.memory = negcam_pool_v4l2_memory (pool);
  ret = negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req);
  if (ret == -EBUSY && pool->type == V4L2_BUF_TYPE_VIDEO_OUTPUT) {
    /* Started again after a stop while the device still streamed this
     * pool's buffers (upstream stops and starts pools it is offered). */
    GST_DEBUG_OBJECT (pool, "output queue busy: STREAMOFF, REQBUFS(0)");
    negcam_pool_stream_off (pool);
    req.count = CLAMP (min, 2, NEGCAM_POOL_MAX);
    ret = negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req);
  }
  g_mutex_lock (&pool->lock);
  if (ret == -ENOMEM) {
    set_start_error (pool, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "%s cannot allocate %u buffers of %u bytes (REQBUFS: %s)",
        negcam_device_get_description (pool->dev), req.count, pool->pix.sizeimage,
        g_strerror (ENOMEM));
    g_mutex_unlock (&pool->lock);
    return FALSE;
  }
  if (ret < 0 || req.count == 0) {
    set_start_error (pool, GST_RESOURCE_ERROR_FAILED,
        "%s refused %u buffers (REQBUFS: %s)", negcam_device_get_description (pool->dev),
        req.count, ret < 0 ? g_strerror (-ret) : "no buffer given");
    g_mutex_unlock (&pool->lock);
    return FALSE;
  }
  g_clear_error (&pool->start_error);
  pool->streaming = FALSE;
  pool->count = MIN (req.count, NEGCAM_POOL_MAX);
  pool->created = 0;
  pool->cannot_grow = !pool->grow;
  gst_clear_object (&pool->dmabuf_alloc);
  if (negcam_pool_is_import (pool)) {
    /* upstream's buffers fill the slots, one QBUF at a time */
    pool->queueing = TRUE;
    g_mutex_unlock (&pool->lock);
    GST_DEBUG_OBJECT (pool, "%u slots for upstream's dma-bufs", pool->count);
    return TRUE;
  }
  if (!fill_buffers (pool))
    goto failed;
  pool->queueing = TRUE;
  g_mutex_unlock (&pool->lock);
  GST_DEBUG_OBJECT (pool, "%u %s buffers of %u bytes", pool->count,
      pool->dmabuf_alloc ? "dma-buf" : "mmap", pool->pix.sizeimage);
  return TRUE;

failed:
  free_all (pool);
  g_mutex_unlock (&pool->lock);
  req.count = 0;
  negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req);
  return FALSE;
}

/* Fewer than two buffers left in the device: add one with CREATE_BUFS, so
 * that it keeps capturing while downstream holds the others. Call with
 * the lock held. */
static void
grow (NegcamPool *pool)
{
  struct v4l2_create_buffers c = { 0 };
  guint index;
  gint ret;

  if (pool->cannot_grow || pool->count >= NEGCAM_POOL_MAX)
    return;
  c.count = 1;
  c.memory = V4L2_MEMORY_MMAP;
  c.format = pool->fmt;
  ret = negcam_device_ioctl (pool->dev, VIDIOC_CREATE_BUFS, &c);
  if (ret < 0 || c.count == 0) {
    GST_INFO_OBJECT (pool, "%s cannot grow the queue (CREATE_BUFS: %s)",
        negcam_device_get_description (pool->dev), ret < 0 ? g_strerror (-ret) : "0 buffers");
    pool->cannot_grow = TRUE;
    return;
  }
  index = c.index;
  if (index != pool->count || !wrap_buffer (pool, index)) {
    GST_WARNING_OBJECT (pool, "CREATE_BUFS gave buffer %u, unusable", index);
    pool->cannot_grow = TRUE;
    return;
  }
  pool->count++;
  if (queue_buffer (pool, index) < 0) {
    GST_WARNING_OBJECT (pool, "QBUF of new buffer %u failed", index);
    return;
  }
  pool->created++;
  GST_INFO_OBJECT (pool,
      "downstream holds buffers, fewer than 2 left queued: queue grown to "
      "%u buffers (CREATE_BUFS, no copy)",
      pool->count);
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

void
negcam_pool_stream_off (NegcamPool *pool)
{
  struct v4l2_requestbuffers req = { 0 };
  gint type = pool->type;

  negcam_pool_stop_queueing (pool);
  g_mutex_lock (&pool->lock);
  negcam_device_ioctl (pool->dev, VIDIOC_STREAMOFF, &type);
  pool->streaming = FALSE;
  /* Buffers upstream still holds stay mapped (orphaned); upstream's own
   * dma-bufs go back to it when the pool stops. */
  req.type = pool->type;
  req.memory = negcam_pool_v4l2_memory (pool);
  negcam_device_ioctl (pool->dev, VIDIOC_REQBUFS, &req);
  g_mutex_unlock (&pool->lock);
}

void
negcam_buffer_set_capture (
    GstBuffer *buf, gsize size, const struct v4l2_buffer *v)
{
  gst_buffer_set_size (buf, size);
  GST_BUFFER_OFFSET (buf) = v->sequence;
  GST_BUFFER_OFFSET_END (buf) = v->sequence + 1;
  if (v->flags & V4L2_BUF_FLAG_ERROR)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_CORRUPTED);
  else
    GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_CORRUPTED);
}

/* V4L2_FIELD_ALTERNATE: each buffer holds the field the driver names in
 * v4l2_buffer.field, which GStreamer's interlace-mode=alternate wants as
 * buffer flags. (BOTTOM_FIELD is ONEFIELD alone, TOP_FIELD adds TFF: a
 * recycled buffer's old flags are cleared first.) */
static void
set_field_flags (NegcamPool *pool, GstBuffer *buf, guint32 field)
{
  GST_BUFFER_FLAG_UNSET (
      buf, GST_VIDEO_BUFFER_FLAG_INTERLACED | GST_VIDEO_BUFFER_FLAG_TOP_FIELD);
  if (pool->pix.field != V4L2_FIELD_ALTERNATE)
    return;
  GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  if (field == V4L2_FIELD_TOP)
    GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_TOP_FIELD);
  else if (field == V4L2_FIELD_BOTTOM)
    GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_BOTTOM_FIELD);
  else
    GST_WARNING_OBJECT (pool,
        "%s: buffer of an alternate stream with field %u, neither top "
        "nor bottom",
        negcam_device_get_description (pool->dev), field);
}

/*
 * The bytes of frame @v in @buf: raw video fills sizeimage, a compressed
 * frame its bytesused. On a multiplanar queue each memory is cut to its
 * plane's data, which begins at the plane's data_offset (vivid puts 128
 * bytes before its single-plane formats' pictures), and a GstVideoMeta of
 * several memories follows the cut. Returns the buffer's size.
 */
static gsize
captured_size (NegcamPool *pool, GstBuffer *buf, const struct v4l2_buffer *v)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize total = 0, off, end, cur, max;
  guint i;

  if (!negcam_buf_type_is_mplane (pool->type))
    return pool->is_video ? pool->pix.sizeimage : v->bytesused;
  for (i = 0; i < pool->n_planes; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);

    gst_memory_get_sizes (mem, &cur, &max);
    end = pool->is_video ? negcam_format_plane_size (&pool->fmt, i)
                         : v->m.planes[i].bytesused;
    end = MIN (end, max);
    off = MIN (v->m.planes[i].data_offset, end);
    gst_memory_resize (mem, (gssize)off - (gssize)cur, end - off);
    if (meta && pool->n_planes > 1 && i < meta->n_planes)
      meta->offset[i] = total;
    total += end - off;
  }
  return total;
}

static GstFlowReturn
negcam_pool_acquire_buffer (GstBufferPool *bpool, GstBuffer **buffer,
    GstBufferPoolAcquireParams *params)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);
  struct v4l2_plane planes[VIDEO_MAX_PLANES];
  struct v4l2_buffer v;
  GstBuffer *buf;
  gint ret;

  if (GST_BUFFER_POOL_IS_FLUSHING (bpool))
    return GST_FLOW_FLUSHING;
  if (pool->acquire_output) /* an output pool: negcampool-output.c */
    return pool->acquire_output (pool, buffer, params);

  negcam_buffer_init (
      &v, pool->type, V4L2_MEMORY_MMAP, planes, pool->n_planes);
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
  if (ret == -ENODEV) {
    g_mutex_unlock (&pool->lock);
    return NEGCAM_FLOW_GONE;
  }
  if (ret < 0 || v.index >= pool->count || pool->outstanding[v.index]) {
    g_mutex_unlock (&pool->lock);
    GST_ERROR_OBJECT (pool, "DQBUF failed: %s", g_strerror (-ret));
    return GST_FLOW_ERROR;
  }
  buf = pool->bufs[v.index];
  pool->in_device[v.index] = FALSE;
  pool->outstanding[v.index] = TRUE;
  if (negcam_pool_count_in_device (pool) < 2)
    grow (pool);
  g_mutex_unlock (&pool->lock);

  negcam_buffer_set_capture (buf, captured_size (pool, buf, &v), &v);
  /* Driver timestamp and flags, for the element (see negcam_pool_*). */
  pool->last_flags = v.flags;
  pool->last_timestamp = v.timestamp;
  set_field_flags (pool, buf, v.field);
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
  if (pool->queueing && queue_buffer (pool, i) < 0
      && !negcam_device_is_gone (pool->dev))
    GST_WARNING_OBJECT (pool, "QBUF %u failed", i);
  g_mutex_unlock (&pool->lock);
}

/* Upstream stopping while it waits in an output pool's acquire: wake it. */
static void
negcam_pool_flush_start (GstBufferPool *bpool)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);

  if (pool->type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
    negcam_device_set_flushing (pool->dev, TRUE);
}

static void
negcam_pool_flush_stop (GstBufferPool *bpool)
{
  NegcamPool *pool = NEGCAM_POOL (bpool);

  if (pool->type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
    negcam_device_set_flushing (pool->dev, FALSE);
}

static void
negcam_pool_finalize (GObject *object)
{
  NegcamPool *pool = NEGCAM_POOL (object);

  free_all (pool);
  g_clear_error (&pool->start_error);
  gst_clear_object (&pool->dmabuf_alloc);
  negcam_device_unref (pool->dev);
  g_weak_ref_clear (&pool->owner);
  g_mutex_clear (&pool->lock);
  G_OBJECT_CLASS (negcam_pool_parent_class)->finalize (object);
}

static void
negcam_pool_init (NegcamPool *pool)
{
  g_mutex_init (&pool->lock);
  g_weak_ref_init (&pool->owner, NULL);
  pool->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
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
  pool_class->flush_start = negcam_pool_flush_start;
  pool_class->flush_stop = negcam_pool_flush_stop;
}
