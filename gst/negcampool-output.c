/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamPool's output side (negcamsink): buffers start empty in the
 * pool; acquire hands one out to be written (DQBUF'ing a done one back
 * when none is idle, waiting on the device), negcam_pool_queue_output()
 * queues a written buffer (QBUF, STREAMON on the first), and in
 * NEGCAM_POOL_MEMORY_IMPORT mode negcam_pool_queue_import() queues
 * upstream's dma-buf as it is. The pool itself and capture are
 * negcampool.c; the struct and the locking rules are in
 * negcampool-private.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <gst/allocators/gstdmabuf.h>

#include "negcampool-private.h"

#define GST_CAT_DEFAULT negcamdevice_debug

static GstFlowReturn acquire_output (
    NegcamPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *params);

NegcamPool *
negcam_pool_new_output (GstElement *owner, NegcamDevice *dev,
    const struct v4l2_pix_format *pix, const GstVideoInfo *info)
{
  struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
  NegcamPool *pool;

  fmt.fmt.pix = *pix;
  pool = negcam_pool_new (dev, &fmt, info);
  g_weak_ref_set (&pool->owner, owner);
  pool->acquire_output = acquire_output;
  return pool;
}

/* Upstream's acquire found the device gone: upstream would only say
 * "error"; the owner says which device, as negcamsrc does. */
static GstFlowReturn
output_device_lost (NegcamPool *pool)
{
  GstElement *owner = g_weak_ref_get (&pool->owner);

  if (owner) {
    negcam_device_post_lost (
        pool->dev, owner, NULL, "waiting for a free output buffer");
    gst_object_unref (owner);
  }
  return NEGCAM_FLOW_GONE;
}

/* A buffer with the application: idle, or back from the device (DQBUF).
 * -1 when every buffer is in the device or out; -errno on failure. Call
 * with the lock held. */
static gint
take_output_index (NegcamPool *pool)
{
  struct v4l2_buffer v = { 0 };
  guint i;
  gint ret;

  for (i = 0; i < pool->count; i++)
    if (!pool->outstanding[i] && !pool->in_device[i])
      return i;
  v.type = pool->type;
  v.memory = negcam_pool_v4l2_memory (pool);
  ret = negcam_device_ioctl (pool->dev, VIDIOC_DQBUF, &v);
  if (ret == -EAGAIN)
    return -1;
  if (ret == 0 && (v.index >= pool->count || !pool->in_device[v.index]))
    ret = -EINVAL;
  if (ret < 0)
    return ret;
  pool->in_device[v.index] = FALSE;
  return v.index;
}

/* Wait until the device is done with an output buffer (POLLOUT):
 * GST_FLOW_OK to look again, or why not. */
static GstFlowReturn
wait_output (NegcamPool *pool)
{
  gint ret = negcam_device_wait (pool->dev, -1);

  if (ret == -EINTR || GST_BUFFER_POOL_IS_FLUSHING (GST_BUFFER_POOL (pool)))
    return GST_FLOW_FLUSHING;
  if (ret == -ENODEV)
    return output_device_lost (pool);
  if (ret < 0) {
    GST_ERROR_OBJECT (pool, "%s: waiting for a free output buffer: %s",
        negcam_device_get_description (pool->dev), g_strerror (-ret));
    return GST_FLOW_ERROR;
  }
  /* Woken by an event, not a buffer: keep it for the element. */
  negcam_device_collect_events (pool->dev);
  return GST_FLOW_OK;
}

/* A free output slot in *@index, with the lock held (GST_FLOW_OK); when
 * the device holds them all, wait until it is done with one, unless
 * @dontwait (GST_FLOW_EOS, as GstBufferPool says "none free"). */
static GstFlowReturn
wait_output_index (NegcamPool *pool, gboolean dontwait, gint *index)
{
  GstFlowReturn flow;

  for (;;) {
    g_mutex_lock (&pool->lock);
    *index = take_output_index (pool);
    if (*index >= 0)
      return GST_FLOW_OK;
    g_mutex_unlock (&pool->lock);
    if (*index == -ENODEV)
      return output_device_lost (pool);
    if (*index != -1)
      return GST_FLOW_ERROR;
    if (dontwait)
      return GST_FLOW_EOS;
    flow = wait_output (pool);
    if (flow != GST_FLOW_OK)
      return flow;
  }
}

/* Hand out an empty buffer to write into. */
static GstFlowReturn
acquire_output (
    NegcamPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *params)
{
  gboolean dontwait =
      params && (params->flags & GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT);
  GstFlowReturn ret;
  gint index;

  if (negcam_pool_is_import (pool))
    return GST_FLOW_ERROR; /* no buffers of its own */
  ret = wait_output_index (pool, dontwait, &index);
  if (ret != GST_FLOW_OK)
    return ret;
  pool->outstanding[index] = TRUE;
  *buffer = pool->bufs[index];
  g_mutex_unlock (&pool->lock);
  gst_buffer_set_size (*buffer, pool->pix.sizeimage);
  return GST_FLOW_OK;
}

/* STREAMON after the first QBUF since start: 0 or -errno. Call with
 * the lock held. */
static gint
stream_on (NegcamPool *pool)
{
  gint type = pool->type;
  gint ret;

  if (pool->streaming)
    return 0;
  ret = negcam_device_ioctl (pool->dev, VIDIOC_STREAMON, &type);
  pool->streaming = ret == 0;
  return ret;
}

/* The QBUF of output slot @index for @buf: @bytesused, the field, the PTS
 * as the buffer timestamp. */
static void
output_buffer_fill (NegcamPool *pool, struct v4l2_buffer *v, guint index,
    GstBuffer *buf, guint32 bytesused)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  v->index = index;
  v->type = pool->type;
  v->memory = negcam_pool_v4l2_memory (pool);
  v->bytesused = bytesused;
  v->field = pool->pix.field;
  if (GST_CLOCK_TIME_IS_VALID (pts)) {
    v->timestamp.tv_sec = pts / GST_SECOND;
    v->timestamp.tv_usec = (pts % GST_SECOND) / GST_USECOND;
  }
}

gint
negcam_pool_queue_output (NegcamPool *pool, GstBuffer *buf, guint32 bytesused)
{
  struct v4l2_buffer v = { 0 };
  guint i;
  gint ret;

  g_mutex_lock (&pool->lock);
  for (i = 0; i < pool->count && pool->bufs[i] != buf; i++)
    ;
  if (i == pool->count || pool->in_device[i]) {
    g_mutex_unlock (&pool->lock);
    return -EINVAL;
  }
  output_buffer_fill (pool, &v, i, buf, bytesused);
  ret = negcam_device_ioctl (pool->dev, VIDIOC_QBUF, &v);
  if (ret == 0)
    pool->in_device[i] = TRUE;
  if (ret == 0)
    ret = stream_on (pool);
  g_mutex_unlock (&pool->lock);
  return ret;
}

/* The upstream buffers of the slots the device is done with (DQBUF
 * until EAGAIN), put in @done for the caller to unref outside the lock.
 * Call with the lock held; returns how many. */
static guint
take_done_imports (NegcamPool *pool, GstBuffer **done)
{
  struct v4l2_buffer v;
  guint n = 0;

  for (;;) {
    memset (&v, 0, sizeof (v));
    v.type = pool->type;
    v.memory = V4L2_MEMORY_DMABUF;
    if (negcam_device_ioctl (pool->dev, VIDIOC_DQBUF, &v) < 0
        || v.index >= pool->count || !pool->in_device[v.index])
      return n;
    pool->in_device[v.index] = FALSE;
    if (pool->bufs[v.index])
      done[n++] = g_steal_pointer (&pool->bufs[v.index]);
  }
}

/* Give upstream back the buffers the device is done with; while more
 * than @keep are still in the device, wait for it. */
static GstFlowReturn
reap_imports (NegcamPool *pool, guint keep)
{
  GstBuffer *done[NEGCAM_POOL_MAX];
  GstFlowReturn flow;
  guint n, left;

  for (;;) {
    g_mutex_lock (&pool->lock);
    n = take_done_imports (pool, done);
    left = negcam_pool_count_in_device (pool);
    g_mutex_unlock (&pool->lock);
    while (n)
      gst_buffer_unref (done[--n]);
    if (left <= keep)
      return GST_FLOW_OK;
    flow = wait_output (pool);
    if (flow != GST_FLOW_OK)
      return flow;
  }
}

GstFlowReturn
negcam_pool_queue_import (
    NegcamPool *pool, GstBuffer *buf, guint32 bytesused, gint *err)
{
  struct v4l2_buffer v = { 0 };
  GstBuffer *old;
  GstFlowReturn flow;
  gint index;

  *err = 0;
  flow = wait_output_index (pool, FALSE, &index);
  if (flow != GST_FLOW_OK)
    return flow;
  old = g_steal_pointer (&pool->bufs[index]); /* the device is done with it */
  output_buffer_fill (pool, &v, index, buf, bytesused);
  v.m.fd = gst_dmabuf_memory_get_fd (gst_buffer_peek_memory (buf, 0));
  v.length = 0; /* the dma-buf's size */
  *err = negcam_device_ioctl (pool->dev, VIDIOC_QBUF, &v);
  if (*err == 0) {
    pool->bufs[index] = gst_buffer_ref (buf);
    pool->in_device[index] = TRUE;
    *err = stream_on (pool);
  }
  g_mutex_unlock (&pool->lock);
  gst_clear_buffer (&old);
  if (*err == -ENODEV)
    return output_device_lost (pool);
  if (*err < 0)
    return GST_FLOW_ERROR;
  return reap_imports (pool, 2);
}
