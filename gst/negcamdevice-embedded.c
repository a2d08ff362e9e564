/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The embedded backend: a V4L2 capture device in the element's own
 * process. Format requests go to the negotiation engine
 * (negcam_engine_ioctl); the streaming requests are emulated here with
 * the semantics of videobuf2 (MMAP memory only):
 *
 * - REQBUFS(n) allocates n buffers of the current sizeimage and marks the
 *   capture queue busy (S_FMT is then EBUSY, as in a driver); REQBUFS(0)
 *   frees them. Buffers still mapped are orphaned, not freed: their memory
 *   lives until the last munmap (V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS), so
 *   downstream may keep frames across a renegotiation.
 * - QBUF queues, STREAMON starts (sequence restarts at 0), STREAMOFF
 *   returns every buffer to the application.
 * - The device has no clock of its own: the element's clock is its frame
 *   clock. A DQBUF is "the sensor delivered a frame now": the first queued
 *   buffer gets frame <sequence> drawn by negcam_framegen_draw_at(), the
 *   scene at the buffer's timestamp (CLOCK_MONOTONIC, so the picture moves
 *   on across streams), passing the frame and time that buffer held before
 *   so only what changed is redrawn.
 *   A DQBUF with nothing queued loses that frame (the sequence advances,
 *   as a driver without buffers drops frames) and returns EAGAIN.
 * - V4L2_FIELD_ALTERNATE, as negcam.ko: a DQBUF delivers one field, TOP,
 *   BOTTOM, TOP, ... (v4l2_buffer.field), both fields of a frame with the
 *   frame's sequence number and picture (fmt.height lines: a field), so
 *   the element's clock paces fields, two per frame interval.
 * - G_CTRL V4L2_CID_MIN_BUFFERS_FOR_CAPTURE (2) and
 *   G/S_CTRL V4L2_CID_TEST_PATTERN (enum negcam_pattern).
 * - The output queue (profiles with `format FOURCC output`, negcamsink):
 *   REQBUFS/QUERYBUF/QBUF/DQBUF/STREAMON/STREAMOFF on
 *   V4L2_BUF_TYPE_VIDEO_OUTPUT. The device consumes a queued buffer at
 *   once: DQBUF returns the oldest queued one (EAGAIN with none queued).
 *   V4L2_EVENT_SOURCE_CHANGE can be subscribed; it is raised by
 *   negcam_device_embedded_source_change(), which stands in for a
 *   consumer setting another format on the far side of a loop.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gst/gst.h>

#include "negcamdevice-backend.h"
#include "engine.h"
#include "framegen.h"

#define NC_EMB_MAX_BUFFERS 32
#define NC_EMB_MIN_BUFFERS 2

/* A buffer's memory: refcounted so that mapped buffers can be orphaned. */
typedef struct {
  gint refcount;
  guint32 length;
  guint8 data[];
} NcBlock;

typedef struct {
  NcBlock *block;
  guint32 prev; /* frame number it holds, NC_FRAME_NONE */
  guint64 prev_scene_ns; /* and the scene time it shows */
  gboolean queued;
  guint32 bytesused;
  guint32 sequence;
  guint32 field; /* TOP or BOTTOM for ALTERNATE, else the format's */
  struct timeval timestamp;
} NcEmbBuffer;

/* The output queue: what the application writes, consumed at once. */
typedef struct {
  NcBlock *block[NC_EMB_MAX_BUFFERS];
  guint32 bytesused[NC_EMB_MAX_BUFFERS];
  gboolean queued[NC_EMB_MAX_BUFFERS];
  guint nbufs;
  guint queue[NC_EMB_MAX_BUFFERS]; /* FIFO of queued indices */
  guint qhead, qlen;
  gboolean streaming;
  guint32 sequence;
  guint frames; /* buffers consumed (DQBUF) */
  guint32 last_bytesused;
  gboolean wanted_set; /* a consumer's format: G_FMT answers it */
  struct v4l2_format wanted;
  gboolean subscribed; /* V4L2_EVENT_SOURCE_CHANGE */
  guint events; /* pending */
  guint32 event_sequence;
} NcEmbOut;

/* Output buffers are mapped at these offsets (capture: index << 16). */
#define NC_EMB_OUT_OFFSET(i) ((NC_EMB_MAX_BUFFERS + (i)) << 16)

typedef struct {
  GMutex lock;
  GCond cond;
  struct negcam_profile *profile;
  struct negcam_engine engine;

  NcEmbBuffer bufs[NC_EMB_MAX_BUFFERS];
  guint nbufs;
  guint queue[NC_EMB_MAX_BUFFERS]; /* FIFO of queued indices */
  guint qhead, qlen;
  gboolean streaming;
  gboolean flushing;
  guint32 count; /* buffers delivered or lost: frames, fields for ALTERNATE */
  gint pattern;
  struct v4l2_pix_format fmt; /* format the buffers were allocated for */
  NcEmbOut out;
} NcEmb;

/* NULL when memory runs out: REQBUFS then answers ENOMEM, as a driver. */
static NcBlock *
block_new (guint32 length)
{
  NcBlock *b = g_try_malloc0 (sizeof (NcBlock) + (gsize)length);

  if (!b)
    return NULL;
  b->refcount = 1;
  b->length = length;
  return b;
}

static void
block_unref (NcBlock *b)
{
  if (b && g_atomic_int_dec_and_test (&b->refcount))
    g_free (b);
}

static void
emb_free_buffers (NcEmb *emb)
{
  guint i;

  for (i = 0; i < emb->nbufs; i++) {
    block_unref (emb->bufs[i].block);
    emb->bufs[i].block = NULL;
  }
  emb->nbufs = 0;
  emb->qhead = emb->qlen = 0;
}

static gint
emb_reqbufs (NcEmb *emb, struct v4l2_requestbuffers *r)
{
  struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  guint i, count;

  if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return -EINVAL;
  if (r->memory != V4L2_MEMORY_MMAP)
    return -EINVAL;
  if (emb->streaming)
    return -EBUSY;

  memset (r->reserved, 0, sizeof (r->reserved));
  r->capabilities =
      V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS;

  emb_free_buffers (emb);
  if (r->count == 0) {
    negcam_engine_set_busy (&emb->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, false);
    return 0;
  }

  negcam_engine_g_fmt (&emb->engine, &f);
  emb->fmt = f.fmt.pix;
  count = CLAMP (r->count, NC_EMB_MIN_BUFFERS, NC_EMB_MAX_BUFFERS);
  for (i = 0; i < count; i++) {
    emb->bufs[i].block = block_new (emb->fmt.sizeimage);
    if (!emb->bufs[i].block) {
      emb->nbufs = i;
      emb_free_buffers (emb);
      negcam_engine_set_busy (
          &emb->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, false);
      return -ENOMEM;
    }
    emb->bufs[i].prev = NC_FRAME_NONE;
    emb->bufs[i].queued = FALSE;
    emb->bufs[i].bytesused = 0;
    emb->bufs[i].field = emb->fmt.field;
  }
  emb->nbufs = count;
  r->count = count;
  negcam_engine_set_busy (&emb->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, true);
  return 0;
}

static void
emb_fill_buffer (NcEmb *emb, guint index, struct v4l2_buffer *v)
{
  NcEmbBuffer *b = &emb->bufs[index];

  memset (v, 0, sizeof (*v));
  v->index = index;
  v->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  v->memory = V4L2_MEMORY_MMAP;
  v->length = b->block->length;
  v->m.offset = index << 16; /* mmap cookie, as vb2 uses PAGE_SHIFT */
  v->bytesused = b->bytesused;
  v->sequence = b->sequence;
  v->timestamp = b->timestamp;
  v->field = b->field;
  v->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC
      | (b->queued ? V4L2_BUF_FLAG_QUEUED : 0);
}

static gint
emb_dqbuf (NcEmb *emb, struct v4l2_buffer *v)
{
  gboolean alternate = emb->fmt.field == V4L2_FIELD_ALTERNATE;
  NcEmbBuffer *b;
  guint index;
  guint32 frame;
  glong used;
  gint64 now;

  if (v->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || v->memory != V4L2_MEMORY_MMAP)
    return -EINVAL;
  if (!emb->streaming)
    return -EINVAL;
  if (emb->qlen == 0) {
    /* No buffer to capture into: this frame (field) is lost. */
    emb->count++;
    return -EAGAIN;
  }
  index = emb->queue[emb->qhead];
  emb->qhead = (emb->qhead + 1) % NC_EMB_MAX_BUFFERS;
  emb->qlen--;
  b = &emb->bufs[index];
  b->queued = FALSE;
  frame = alternate ? emb->count / 2 : emb->count;
  b->field = !alternate ? emb->fmt.field
      : emb->count % 2  ? V4L2_FIELD_BOTTOM
                        : V4L2_FIELD_TOP;
  emb->count++;

  now = g_get_monotonic_time ();
  used = negcam_framegen_draw_at (&emb->fmt, emb->pattern, frame,
      (guint64) now * 1000, b->prev, b->prev_scene_ns, b->block->data,
      b->block->length);
  if (used < 0) {
    b->prev = NC_FRAME_NONE;
    b->bytesused = 0;
    /* Deliver it flagged as an error, as a driver does for a bad frame. */
    emb_fill_buffer (emb, index, v);
    v->flags |= V4L2_BUF_FLAG_ERROR;
    v->sequence = frame;
    return 0;
  }
  b->prev = frame;
  b->prev_scene_ns = (guint64) now * 1000;
  b->bytesused = used;
  b->sequence = frame;
  b->timestamp.tv_sec = now / G_USEC_PER_SEC;
  b->timestamp.tv_usec = now % G_USEC_PER_SEC;
  emb_fill_buffer (emb, index, v);
  return 0;
}

static gint
emb_ctrl (NcEmb *emb, unsigned long request, struct v4l2_control *c)
{
  switch (c->id) {
    case V4L2_CID_MIN_BUFFERS_FOR_CAPTURE:
      if (request == VIDIOC_S_CTRL)
        return -EACCES; /* read-only */
      c->value = NC_EMB_MIN_BUFFERS;
      return 0;
    case V4L2_CID_TEST_PATTERN:
      if (request == VIDIOC_G_CTRL) {
        c->value = emb->pattern;
        return 0;
      }
      if (c->value < 0 || c->value >= NC_PATTERN_COUNT)
        return -ERANGE;
      if (c->value != emb->pattern) {
        guint i;

        emb->pattern = c->value;
        for (i = 0; i < emb->nbufs; i++)
          emb->bufs[i].prev = NC_FRAME_NONE;
      }
      return 0;
    default:
      return -EINVAL;
  }
}

/* ------------------------------------------------------------------ */
/* The output queue                                                    */

static void
out_free_buffers (NcEmbOut *out)
{
  guint i;

  for (i = 0; i < out->nbufs; i++) {
    block_unref (out->block[i]);
    out->block[i] = NULL;
    out->queued[i] = FALSE;
  }
  out->nbufs = 0;
  out->qhead = out->qlen = 0;
}

static gint
out_reqbufs (NcEmb *emb, struct v4l2_requestbuffers *r)
{
  NcEmbOut *out = &emb->out;
  struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
  guint i;

  if (r->memory != V4L2_MEMORY_MMAP)
    return -EINVAL;
  if (out->streaming)
    return -EBUSY;
  memset (r->reserved, 0, sizeof (r->reserved));
  r->capabilities =
      V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS;
  out_free_buffers (out);
  negcam_engine_set_busy (&emb->engine, V4L2_BUF_TYPE_VIDEO_OUTPUT, false);
  if (r->count == 0)
    return 0;
  if (negcam_engine_g_fmt (&emb->engine, &f) < 0)
    return -EINVAL;
  r->count = CLAMP (r->count, NC_EMB_MIN_BUFFERS, NC_EMB_MAX_BUFFERS);
  for (i = 0; i < r->count; i++)
    out->block[i] = block_new (f.fmt.pix.sizeimage);
  out->nbufs = r->count;
  negcam_engine_set_busy (&emb->engine, V4L2_BUF_TYPE_VIDEO_OUTPUT, true);
  return 0;
}

static void
out_fill_buffer (NcEmbOut *out, guint index, struct v4l2_buffer *v)
{
  struct timeval ts = v->timestamp;

  memset (v, 0, sizeof (*v));
  v->index = index;
  v->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  v->memory = V4L2_MEMORY_MMAP;
  v->length = out->block[index]->length;
  v->m.offset = NC_EMB_OUT_OFFSET (index);
  v->bytesused = out->bytesused[index];
  v->field = V4L2_FIELD_NONE;
  v->timestamp = ts;
  v->flags = V4L2_BUF_FLAG_TIMESTAMP_COPY
      | (out->queued[index] ? V4L2_BUF_FLAG_QUEUED : 0);
}

static gint
out_qbuf (NcEmb *emb, struct v4l2_buffer *v)
{
  NcEmbOut *out = &emb->out;
  guint32 used;

  if (v->index >= out->nbufs || v->memory != V4L2_MEMORY_MMAP
      || out->queued[v->index])
    return -EINVAL;
  /* bytesused 0 means the whole buffer, as videobuf2 takes it */
  used = v->bytesused ? v->bytesused : out->block[v->index]->length;
  if (used > out->block[v->index]->length)
    return -EINVAL;
  out->bytesused[v->index] = used;
  out->queued[v->index] = TRUE;
  out->queue[(out->qhead + out->qlen) % NC_EMB_MAX_BUFFERS] = v->index;
  out->qlen++;
  out_fill_buffer (out, v->index, v);
  g_cond_broadcast (&emb->cond);
  return 0;
}

static gint
out_dqbuf (NcEmbOut *out, struct v4l2_buffer *v)
{
  guint index;

  if (v->memory != V4L2_MEMORY_MMAP || !out->streaming)
    return -EINVAL;
  if (out->qlen == 0)
    return -EAGAIN;
  index = out->queue[out->qhead];
  out->qhead = (out->qhead + 1) % NC_EMB_MAX_BUFFERS;
  out->qlen--;
  out->queued[index] = FALSE;
  out->frames++;
  out->last_bytesused = out->bytesused[index];
  out_fill_buffer (out, index, v);
  v->sequence = out->sequence++;
  return 0;
}

static gint
out_stream (NcEmb *emb, gboolean on)
{
  NcEmbOut *out = &emb->out;
  guint i;

  if (on) {
    if (out->nbufs == 0)
      return -EINVAL;
    if (!out->streaming)
      out->sequence = 0;
    out->streaming = TRUE;
    return 0;
  }
  out->streaming = FALSE;
  for (i = 0; i < out->nbufs; i++)
    out->queued[i] = FALSE;
  out->qhead = out->qlen = 0;
  g_cond_broadcast (&emb->cond);
  return 0;
}

static gint
out_event (NcEmb *emb, unsigned long request, gpointer arg)
{
  NcEmbOut *out = &emb->out;

  if (request == VIDIOC_DQEVENT) {
    struct v4l2_event *ev = arg;

    if (!out->subscribed || out->events == 0)
      return -ENOENT;
    memset (ev, 0, sizeof (*ev));
    ev->type = V4L2_EVENT_SOURCE_CHANGE;
    ev->u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION;
    ev->sequence = out->event_sequence++;
    ev->pending = --out->events;
    return 0;
  }
  if (((struct v4l2_event_subscription *)arg)->type != V4L2_EVENT_SOURCE_CHANGE)
    return -EINVAL;
  out->subscribed = request == VIDIOC_SUBSCRIBE_EVENT;
  out->events = 0;
  return 0;
}

static gint
out_fmt (NcEmb *emb, unsigned long request, struct v4l2_format *f)
{
  NcEmbOut *out = &emb->out;
  gint ret;

  if (request == VIDIOC_G_FMT && out->wanted_set) {
    *f = out->wanted;
    return 0;
  }
  ret = negcam_engine_ioctl (&emb->engine, request, f);
  if (ret == 0 && request == VIDIOC_S_FMT)
    out->wanted_set = FALSE;
  return ret;
}

/* The buffer type a request names, 0 for requests without one. */
static guint32
request_buf_type (unsigned long request, gpointer arg)
{
  switch (request) {
    case VIDIOC_REQBUFS:
      return ((struct v4l2_requestbuffers *)arg)->type;
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
      return ((struct v4l2_buffer *)arg)->type;
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
      return *(guint32 *)arg;
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
      return ((struct v4l2_format *)arg)->type;
    default:
      return 0;
  }
}

/* Requests on the output queue, and its events; call with the lock. */
static gint
out_ioctl (NcEmb *emb, unsigned long request, gpointer arg)
{
  struct v4l2_buffer *v = arg;

  switch (request) {
    case VIDIOC_REQBUFS:
      return out_reqbufs (emb, arg);
    case VIDIOC_QUERYBUF:
      if (v->index >= emb->out.nbufs)
        return -EINVAL;
      out_fill_buffer (&emb->out, v->index, v);
      return 0;
    case VIDIOC_QBUF:
      return out_qbuf (emb, arg);
    case VIDIOC_DQBUF:
      return out_dqbuf (&emb->out, arg);
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
      return out_stream (emb, request == VIDIOC_STREAMON);
    case VIDIOC_SUBSCRIBE_EVENT:
    case VIDIOC_UNSUBSCRIBE_EVENT:
    case VIDIOC_DQEVENT:
      return out_event (emb, request, arg);
    default:
      return out_fmt (emb, request, arg);
  }
}

static gboolean
is_output_request (unsigned long request, gpointer arg)
{
  return request == VIDIOC_SUBSCRIBE_EVENT
      || request == VIDIOC_UNSUBSCRIBE_EVENT || request == VIDIOC_DQEVENT
      || request_buf_type (request, arg) == V4L2_BUF_TYPE_VIDEO_OUTPUT;
}

static gint
emb_ioctl (NegcamDevice *dev, unsigned long request, gpointer arg)
{
  NcEmb *emb = dev->backend;
  gint ret = 0;

  g_mutex_lock (&emb->lock);
  if (is_output_request (request, arg)) {
    ret = out_ioctl (emb, request, arg);
    g_mutex_unlock (&emb->lock);
    return ret;
  }
  switch (request) {
    case VIDIOC_REQBUFS:
      ret = emb_reqbufs (emb, arg);
      break;
    case VIDIOC_QUERYBUF: {
      struct v4l2_buffer *v = arg;
      if (v->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || v->index >= emb->nbufs) {
        ret = -EINVAL;
        break;
      }
      emb_fill_buffer (emb, v->index, v);
      break;
    }
    case VIDIOC_QBUF: {
      struct v4l2_buffer *v = arg;
      if (v->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || v->index >= emb->nbufs
          || v->memory != V4L2_MEMORY_MMAP) {
        ret = -EINVAL;
        break;
      }
      if (emb->bufs[v->index].queued) {
        ret = -EINVAL;
        break;
      }
      emb->bufs[v->index].queued = TRUE;
      emb->queue[(emb->qhead + emb->qlen) % NC_EMB_MAX_BUFFERS] = v->index;
      emb->qlen++;
      emb_fill_buffer (emb, v->index, v);
      g_cond_broadcast (&emb->cond);
      break;
    }
    case VIDIOC_DQBUF:
      ret = emb_dqbuf (emb, arg);
      break;
    case VIDIOC_STREAMON:
      if (*(gint *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE || emb->nbufs == 0) {
        ret = -EINVAL;
        break;
      }
      if (!emb->streaming) {
        emb->streaming = TRUE;
        emb->count = 0;
      }
      break;
    case VIDIOC_STREAMOFF: {
      guint i;
      if (*(gint *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
        ret = -EINVAL;
        break;
      }
      emb->streaming = FALSE;
      for (i = 0; i < emb->nbufs; i++)
        emb->bufs[i].queued = FALSE;
      emb->qhead = emb->qlen = 0;
      g_cond_broadcast (&emb->cond);
      break;
    }
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL:
      ret = emb_ctrl (emb, request, arg);
      break;
    default:
      ret = negcam_engine_ioctl (&emb->engine, request, arg);
      break;
  }
  g_mutex_unlock (&emb->lock);
  return ret;
}

static gpointer
emb_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  NcEmb *emb = dev->backend;
  guint index = offset >> 16;
  gpointer addr = NULL;

  NcBlock *b = NULL;

  g_mutex_lock (&emb->lock);
  if ((offset & 0xffff) == 0 && index < emb->nbufs)
    b = emb->bufs[index].block;
  else if ((offset & 0xffff) == 0 && index >= NC_EMB_MAX_BUFFERS
      && index - NC_EMB_MAX_BUFFERS < emb->out.nbufs)
    b = emb->out.block[index - NC_EMB_MAX_BUFFERS];
  if (b && length <= b->length) {
    g_atomic_int_inc (&b->refcount);
    addr = b->data;
  }
  g_mutex_unlock (&emb->lock);
  return addr;
}

static void
emb_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
  if (addr)
    block_unref ((NcBlock *)((guint8 *)addr - G_STRUCT_OFFSET (NcBlock, data)));
}

static gint
emb_wait (NegcamDevice *dev, gint64 timeout_us)
{
  NcEmb *emb = dev->backend;
  gint64 end = g_get_monotonic_time () + timeout_us;
  gint ret;

  g_mutex_lock (&emb->lock);
  for (;;) {
    if (emb->flushing) {
      ret = -EINTR;
      break;
    }
    if (emb->out.events > 0 || (emb->out.streaming && emb->out.qlen > 0)) {
      ret = 1; /* an event (POLLPRI) or a written buffer done (POLLOUT) */
      break;
    }
    if (!emb->streaming && !emb->out.streaming) {
      ret = -EPIPE;
      break;
    }
    if (emb->qlen > 0) {
      ret = 1;
      break;
    }
    if (timeout_us < 0) {
      g_cond_wait (&emb->cond, &emb->lock);
    } else if (!g_cond_wait_until (&emb->cond, &emb->lock, end)) {
      ret = 0;
      break;
    }
  }
  g_mutex_unlock (&emb->lock);
  return ret;
}

static void
emb_set_flushing (NegcamDevice *dev, gboolean flushing)
{
  NcEmb *emb = dev->backend;

  g_mutex_lock (&emb->lock);
  emb->flushing = flushing;
  g_cond_broadcast (&emb->cond);
  g_mutex_unlock (&emb->lock);
}

static void
emb_close (NegcamDevice *dev)
{
  NcEmb *emb = dev->backend;

  emb_free_buffers (emb);
  out_free_buffers (&emb->out);
  g_free (emb->profile);
  g_mutex_clear (&emb->lock);
  g_cond_clear (&emb->cond);
  g_free (emb);
}

static const NegcamDeviceOps emb_ops = {
  .name = "embedded",
  .ioctl = emb_ioctl,
  .mmap = emb_mmap,
  .munmap = emb_munmap,
  .wait = emb_wait,
  .set_flushing = emb_set_flushing,
  .close = emb_close,
};

/* A profile file larger than this is a mistake (negcam-ctl's cap too). */
#define NC_EMB_MAX_PROFILE (64u << 20)

/* The domain and code of every profile error. */
#define NC_PROFILE_ERROR NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_PROFILE

static gchar *
builtin_names (void)
{
  const struct negcam_builtin *b;
  GString *names = g_string_new (NULL);
  guint i;

  for (i = 0; (b = negcam_builtin_at (i)); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", b->name);
  return g_string_free (names, FALSE);
}

static const gchar *
file_kind (mode_t mode)
{
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

/*
 * Read profile file @path: regular files only, at most
 * NC_EMB_MAX_PROFILE bytes. Opened non-blocking, so a FIFO nobody writes
 * to is refused at once instead of blocking the state change; fstat on
 * the descriptor (not the name) decides.
 */
static gchar *
read_profile_file (const gchar *path, gsize *len, GError **error)
{
  struct stat st;
  gchar *buf = NULL;
  gsize n = 0, cap;
  gint fd, saved;

  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    gchar *names = builtin_names ();

    saved = errno;
    g_set_error (error, NC_PROFILE_ERROR,
        "profile \"%s\": not a built-in profile (%s) and not a readable "
        "file: %s",
        path, names, g_strerror (saved));
    g_free (names);
    return NULL;
  }
  if (fstat (fd, &st) < 0) {
    saved = errno;
    g_set_error (error, NC_PROFILE_ERROR, "profile \"%s\": cannot read: %s", path,
        g_strerror (saved));
    goto fail;
  }
  if (!S_ISREG (st.st_mode)) {
    g_set_error (error, NC_PROFILE_ERROR,
        "profile \"%s\": %s, not a profile file (a profile is a regular "
        "text file, see docs/profiles.md)",
        path, file_kind (st.st_mode));
    goto fail;
  }
  if (st.st_size > NC_EMB_MAX_PROFILE) {
    g_set_error (error, NC_PROFILE_ERROR,
        "profile \"%s\": %" G_GINT64_FORMAT " bytes; a profile file is "
        "at most %u MiB",
        path, (gint64)st.st_size, NC_EMB_MAX_PROFILE >> 20);
    goto fail;
  }
  /* Up to one byte past the cap, whatever st_size said (/proc files say
   * 0, a file may grow while read). */
  cap = MAX ((gsize)st.st_size + 1, 4096);
  buf = g_malloc (cap);
  for (;;) {
    gssize got;

    if (n == cap) {
      if (cap > NC_EMB_MAX_PROFILE)
        break;
      cap = MIN (cap * 2, (gsize)NC_EMB_MAX_PROFILE + 1);
      buf = g_realloc (buf, cap);
    }
    got = read (fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      saved = errno;
      g_set_error (error, NC_PROFILE_ERROR, "profile \"%s\": cannot read: %s",
          path, g_strerror (saved));
      goto fail;
    }
    if (got == 0)
      break;
    n += got;
  }
  if (n > NC_EMB_MAX_PROFILE) {
    g_set_error (error, NC_PROFILE_ERROR,
        "profile \"%s\": more than %u MiB; a profile file is at most %u MiB",
        path, NC_EMB_MAX_PROFILE >> 20, NC_EMB_MAX_PROFILE >> 20);
    goto fail;
  }
  close (fd);
  *len = n;
  return buf;

fail:
  g_free (buf);
  close (fd);
  return NULL;
}

/* Text a profile can be: no NUL byte, valid UTF-8. Anything else is not
 * quoted back (an image, an executable, random data). */
static gboolean
looks_like_text (const gchar *text, gsize len)
{
  return memchr (text, '\0', len) == NULL && g_utf8_validate (text, len, NULL);
}

/* Load @name: a built-in profile, else a file. */
static struct negcam_profile *
load_profile (const gchar *name, GError **error)
{
  const struct negcam_builtin *b;
  struct negcam_profile *p;
  struct negcam_parse_error perr = { 0 };
  gchar *contents = NULL;
  gsize len = 0;
  const gchar *text;
  gchar *source;

  if (name == NULL)
    name = "webcam";
  if (name[0] == '\0') {
    gchar *names = builtin_names ();

    g_set_error (error, NC_PROFILE_ERROR,
        "profile is empty: name a built-in profile (%s) or a profile file",
        names);
    g_free (names);
    return NULL;
  }
  b = negcam_builtin_find (name);
  if (b) {
    text = b->text;
    len = strlen (text);
    source = g_strdup_printf ("built-in profile %s", name);
  } else if ((contents = read_profile_file (name, &len, error))) {
    text = contents;
    source = g_strdup (name);
  } else {
    return NULL;
  }
  if (!looks_like_text (text, len)) {
    g_set_error (error, NC_PROFILE_ERROR,
        "profile \"%s\": not a profile (binary data); a profile is a text "
        "file, see docs/profiles.md",
        name);
    g_free (contents);
    g_free (source);
    return NULL;
  }

  p = g_malloc0 (sizeof (*p));
  if (negcam_profile_parse (p, text, (guint32)len, &perr) < 0) {
    perr.message[sizeof (perr.message) - 1] = '\0';
    g_set_error (error, NC_PROFILE_ERROR, "%s:%u:%u: %s", source, perr.line, perr.column,
        perr.message);
    g_free (p);
    p = NULL;
  }
  g_free (contents);
  g_free (source);
  return p;
}

NegcamDevice *
negcam_device_open_embedded (const gchar *profile, GError **error)
{
  NegcamDevice *dev;
  NcEmb *emb;
  struct negcam_profile *p = load_profile (profile, error);

  if (!p)
    return NULL;

  emb = g_new0 (NcEmb, 1);
  g_mutex_init (&emb->lock);
  g_cond_init (&emb->cond);
  emb->profile = p;
  negcam_engine_init (&emb->engine, p);

  dev = g_new0 (NegcamDevice, 1);
  dev->ops = &emb_ops;
  dev->backend = emb;
  dev->self_paced = FALSE;
  dev->description =
      g_strdup_printf ("embedded:%s", p->name[0] ? p->name : "profile");
  return dev;
}

static NcEmb *
embedded_of (NegcamDevice *dev)
{
  /* by name: a test may link its own copy of this file */
  return dev && !g_strcmp0 (dev->ops->name, "embedded") ? dev->backend : NULL;
}

gint
negcam_device_embedded_source_change (
    NegcamDevice *dev, const struct v4l2_pix_format *wanted)
{
  NcEmb *emb = embedded_of (dev);
  struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
  gint ret;

  if (!emb)
    return -EINVAL;
  f.fmt.pix = *wanted;
  g_mutex_lock (&emb->lock);
  ret = negcam_engine_try_fmt (&emb->engine, &f);
  if (ret == 0) {
    emb->out.wanted = f;
    emb->out.wanted_set = TRUE;
    if (emb->out.subscribed)
      emb->out.events++;
    g_cond_broadcast (&emb->cond);
  }
  g_mutex_unlock (&emb->lock);
  return ret;
}

guint
negcam_device_embedded_output_frames (
    NegcamDevice *dev, guint32 *last_bytesused)
{
  NcEmb *emb = embedded_of (dev);
  guint n = 0;

  if (!emb)
    return 0;
  g_mutex_lock (&emb->lock);
  n = emb->out.frames;
  if (last_bytesused)
    *last_bytesused = emb->out.last_bytesused;
  g_mutex_unlock (&emb->lock);
  return n;
}
