/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The embedded backend: a V4L2 capture device in the element's own
 * process. Format requests go to the negotiation engine
 * (negcam_engine_ioctl); the capture queue is the one user-space model of
 * videobuf2 that libnegcam-preload.so uses too (user/vbuf.h, MMAP memory,
 * memfd buffers), run on demand:
 *
 * - REQBUFS(n) allocates n buffers of the current sizeimage and marks the
 *   capture queue busy (S_FMT is then EBUSY, as in a driver); REQBUFS(0)
 *   frees them. Buffers still mapped are orphaned, not freed: their memory
 *   lives until the last munmap (V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS), so
 *   downstream may keep frames across a renegotiation. PREPARE_BUF as vb2
 *   has it. CREATE_BUFS and EXPBUF, which the shared queue has, are ENOTTY
 *   here: the element's pool stays the fixed set REQBUFS gave (a frame
 *   downstream holds every buffer for is dropped, docs/negcamsrc.md), and
 *   a memfd is no dma-buf that a GPU element downstream could import, so
 *   io-mode=auto stays on MMAP buffers.
 * - QBUF queues, STREAMON starts (sequence restarts at 0), STREAMOFF
 *   returns every buffer to the application.
 * - The device has no clock of its own: the element's clock is its frame
 *   clock. A DQBUF is "the sensor delivered a frame now": the oldest queued
 *   buffer gets the next frame drawn by negcam_framegen_draw_at(), the
 *   scene at the buffer's CLOCK_MONOTONIC timestamp (so the picture moves
 *   on across streams). A DQBUF with nothing queued loses that frame (the
 *   sequence advances, as a driver without buffers drops frames) and
 *   returns EAGAIN. A frame the generator cannot draw comes with
 *   V4L2_BUF_FLAG_ERROR.
 * - V4L2_FIELD_ALTERNATE, as negcam.ko: a DQBUF delivers one field, TOP,
 *   BOTTOM, TOP, ... (v4l2_buffer.field), both fields of a frame with the
 *   frame's sequence number and picture (fmt.height lines: a field), so
 *   the element's clock paces fields, two per frame interval.
 * - G_CTRL V4L2_CID_MIN_BUFFERS_FOR_CAPTURE (2) and
 *   G/S_CTRL V4L2_CID_TEST_PATTERN (enum negcam_pattern).
 * - negcam_device_capture_into(): a DQBUF's frame drawn into the
 *   element's memory instead of a queue buffer (nc_vbq_capture_into), so
 *   negcamsrc can fill a downstream pool's buffer with no copy.
 * - The output queue (profiles with `format FOURCC output`, negcamsink):
 *   REQBUFS/QUERYBUF/QBUF/DQBUF/STREAMON/STREAMOFF on
 *   V4L2_BUF_TYPE_VIDEO_OUTPUT, the same model of a vb2 queue
 *   (user/vbuf.h, an NC_OUTPUT queue). The device consumes a queued
 *   buffer at once: DQBUF returns the oldest queued one (EAGAIN with none
 *   queued).
 *   V4L2_EVENT_SOURCE_CHANGE can be subscribed; it is raised by
 *   negcam_device_embedded_source_change(), which stands in for a
 *   consumer setting another format on the far side of a loop.
 * - The profile: user/profile-load.h, the loader of every user-space
 *   program.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <gst/gst.h>

#include "negcamdevice-backend.h"
#include "engine.h"
#include "framegen.h"
#include "profile-load.h"
#include "vbuf.h"

#define NC_EMB_MIN_BUFFERS 2

/* The output queue's offsets: far above the capture queue's (page-aligned
 * sums of buffer lengths). */
#define NC_EMB_OUT_OFFSET 0xc0000000u

/* What the output side has beyond its queue: the consumer on the far
 * side (negcam_device_embedded_source_change) and the frames taken. */
typedef struct {
  guint frames; /* buffers consumed (DQBUF) */
  guint32 last_bytesused;
  gboolean wanted_set; /* a consumer's format: G_FMT answers it */
  struct v4l2_format wanted;
  gboolean subscribed; /* V4L2_EVENT_SOURCE_CHANGE */
  guint events; /* pending */
  guint32 event_sequence;
} NcEmbOut;

typedef struct {
  /* cap.done_cond, on this lock, is signalled on every change emb_wait()
   * waits for: a buffer queued (either queue), a stream stopped, an
   * event, flushing. */
  pthread_mutex_t lock;
  struct negcam_profile *profile;
  struct negcam_engine engine;
  struct nc_vbq cap; /* the capture queue, on demand (user/vbuf.h) */
  struct nc_vbq outq; /* the output queue, the same model (NC_OUTPUT) */
  gboolean flushing;
  NcEmbOut out;
} NcEmb;

static void
emb_wake (NcEmb *emb)
{
  pthread_cond_broadcast (&emb->cap.done_cond);
}

static gint
emb_ctrl (NcEmb *emb, unsigned long request, struct v4l2_control *c)
{
  switch (c->id) {
    case V4L2_CID_MIN_BUFFERS_FOR_CAPTURE:
      if (request == VIDIOC_S_CTRL)
        return -EACCES; /* read-only */
      c->value = (gint) emb->cap.min_buffers;
      return 0;
    case V4L2_CID_TEST_PATTERN:
      if (request == VIDIOC_G_CTRL) {
        c->value = (gint) emb->cap.pattern;
        return 0;
      }
      if (c->value < 0 || c->value >= NC_PATTERN_COUNT)
        return -ERANGE;
      nc_vbq_set_pattern (&emb->cap, (guint32) c->value);
      return 0;
    default:
      return -EINVAL;
  }
}

/* ------------------------------------------------------------------ */
/* The output queue                                                    */

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

/* A buffer the device consumed: counted for the test's eyes. */
static void
out_count (NcEmb *emb, const struct v4l2_buffer *v)
{
  emb->out.frames++;
  emb->out.last_bytesused = v->bytesused;
}

/* Requests on the output queue (user/vbuf.h's model, consumed at once)
 * and its events; call with the lock. */
static gint
out_ioctl (NcEmb *emb, unsigned long request, gpointer arg)
{
  gint ret;

  switch (request) {
    case VIDIOC_SUBSCRIBE_EVENT:
    case VIDIOC_UNSUBSCRIBE_EVENT:
    case VIDIOC_DQEVENT:
      return out_event (emb, request, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
      return out_fmt (emb, request, arg);
  }
  ret = nc_vbq_ioctl (&emb->outq, emb, TRUE, request, arg);
  if (ret == 0 && request == VIDIOC_DQBUF)
    out_count (emb, arg);
  emb_wake (emb); /* a buffer queued, a stream stopped: emb_wait() */
  return ret;
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
  gint ret;

  pthread_mutex_lock (&emb->lock);
  if (is_output_request (request, arg))
    ret = out_ioctl (emb, request, arg);
  else if (request == VIDIOC_EXPBUF || request == VIDIOC_CREATE_BUFS)
    ret = -ENOTTY; /* see the top of this file */
  else if ((ret = nc_vbq_ioctl (&emb->cap, emb, TRUE, request, arg)) != -ENOTTY)
    ; /* a capture buffer request */
  else if (request == VIDIOC_G_CTRL || request == VIDIOC_S_CTRL)
    ret = emb_ctrl (emb, request, arg);
  else
    ret = negcam_engine_ioctl (&emb->engine, request, arg);
  pthread_mutex_unlock (&emb->lock);
  return ret;
}

/* A mapping of the memfd behind @offset: the capture queue's, else the
 * output queue's. It outlives REQBUFS(0): the buffer is orphaned. */
static gpointer
emb_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  NcEmb *emb = dev->backend;
  gpointer addr = NULL;
  gint fd;

  pthread_mutex_lock (&emb->lock);
  fd = nc_vbq_mmap_fd (&emb->cap, offset, length);
  if (fd < 0)
    fd = nc_vbq_mmap_fd (&emb->outq, offset, length);
  if (fd >= 0 && length > 0) {
    addr = mmap (NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (addr == MAP_FAILED)
      addr = NULL;
  }
  pthread_mutex_unlock (&emb->lock);
  return addr;
}

static void
emb_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
  if (addr)
    munmap (addr, length);
}

static gint
emb_wait (NegcamDevice *dev, gint64 timeout_us)
{
  NcEmb *emb = dev->backend;
  struct timespec end;
  gint64 ns;
  gint ret;

  clock_gettime (CLOCK_MONOTONIC, &end); /* the clock of cap.done_cond */
  ns = end.tv_nsec + MAX (timeout_us, 0) % G_USEC_PER_SEC * 1000;
  end.tv_sec += MAX (timeout_us, 0) / G_USEC_PER_SEC + ns / 1000000000;
  end.tv_nsec = ns % 1000000000;
  pthread_mutex_lock (&emb->lock);
  for (;;) {
    if (emb->flushing) {
      ret = -EINTR;
      break;
    }
    if (emb->out.events > 0
        || (emb->outq.streaming && nc_vbq_ready (&emb->outq))) {
      ret = 1; /* an event (POLLPRI) or a written buffer done (POLLOUT) */
      break;
    }
    if (!emb->cap.streaming && !emb->outq.streaming) {
      ret = -EPIPE;
      break;
    }
    if (nc_vbq_ready (&emb->cap)) {
      ret = 1;
      break;
    }
    if (timeout_us < 0) {
      pthread_cond_wait (&emb->cap.done_cond, &emb->lock);
    } else if (pthread_cond_timedwait (&emb->cap.done_cond, &emb->lock, &end) == ETIMEDOUT) {
      ret = 0;
      break;
    }
  }
  pthread_mutex_unlock (&emb->lock);
  return ret;
}

static gint
emb_capture_into (
    NegcamDevice *dev, gpointer dst, guint32 size, struct v4l2_buffer *v)
{
  NcEmb *emb = dev->backend;
  gint ret;

  pthread_mutex_lock (&emb->lock);
  ret = nc_vbq_capture_into (&emb->cap, dst, size, v);
  pthread_mutex_unlock (&emb->lock);
  return ret;
}

static void
emb_set_flushing (NegcamDevice *dev, gboolean flushing)
{
  NcEmb *emb = dev->backend;

  pthread_mutex_lock (&emb->lock);
  emb->flushing = flushing;
  emb_wake (emb);
  pthread_mutex_unlock (&emb->lock);
}

static void
emb_close (NegcamDevice *dev)
{
  NcEmb *emb = dev->backend;

  pthread_mutex_lock (&emb->lock);
  nc_vbq_release (&emb->cap, emb);
  nc_vbq_release (&emb->outq, emb);
  pthread_mutex_unlock (&emb->lock);
  pthread_cond_destroy (&emb->cap.done_cond);
  pthread_cond_destroy (&emb->cap.tick_cond);
  pthread_cond_destroy (&emb->outq.done_cond);
  pthread_cond_destroy (&emb->outq.tick_cond);
  pthread_mutex_destroy (&emb->lock);
  g_free (emb->profile);
  g_free (emb);
}

static const NegcamDeviceOps emb_ops = {
  .name = "embedded",
  .ioctl = emb_ioctl,
  .mmap = emb_mmap,
  .munmap = emb_munmap,
  .wait = emb_wait,
  .set_flushing = emb_set_flushing,
  .capture_into = emb_capture_into,
  .close = emb_close,
};

/* Load @name (NULL: webcam) with the loader of every user-space program. */
static struct negcam_profile *
load_profile (const gchar *name, GError **error)
{
  struct negcam_profile *p = g_malloc0 (sizeof (*p));
  gchar msg[1024];

  if (negcam_profile_load (name ? name : "webcam", p, msg, sizeof (msg)) == 0) {
    /* The embedded device is single-planar, a multiplanar profile's
     * formats included: its frames are one GstBuffer each. */
    p->multiplanar = 0;
    return p;
  }
  g_set_error_literal (
      error, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_PROFILE, msg);
  g_free (p);
  return NULL;
}

/* The capture queue's faults that the element must hear of: a source
 * change, as the kernel backend hears of it by V4L2_EVENT_SOURCE_CHANGE
 * (negcam_device_take_source_change()). An unplug answers ENODEV. */
static void
emb_fault (void *ctx, uint32_t what)
{
  NegcamDevice *dev = ctx;

  if (what == NC_DO_SOURCE_CHANGE)
    g_atomic_int_set (&dev->source_changed, 1);
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
  pthread_mutex_init (&emb->lock, NULL);
  emb->profile = p;
  negcam_engine_init (&emb->engine, p);
  nc_vbq_init (&emb->cap, &emb->lock, &emb->engine, -1);
  emb->cap.on_demand = TRUE;
  emb->cap.min_buffers = NC_EMB_MIN_BUFFERS;
  nc_vbq_init (&emb->outq, &emb->lock, &emb->engine, -1);
  emb->outq.dir = NC_OUTPUT;
  emb->outq.on_demand = TRUE;
  emb->outq.min_buffers = NC_EMB_MIN_BUFFERS;
  emb->outq.offset_base = NC_EMB_OUT_OFFSET;

  dev = g_new0 (NegcamDevice, 1);
  dev->ops = &emb_ops;
  dev->backend = emb;
  dev->self_paced = FALSE;
  dev->description =
      g_strdup_printf ("embedded:%s", p->name[0] ? p->name : "profile");
  emb->cap.on_fault = emb_fault;
  emb->cap.fault_ctx = dev;
  nc_vbq_set_faults (&emb->cap, &p->faults);
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
  pthread_mutex_lock (&emb->lock);
  ret = negcam_engine_try_fmt (&emb->engine, &f);
  if (ret == 0) {
    emb->out.wanted = f;
    emb->out.wanted_set = TRUE;
    if (emb->out.subscribed)
      emb->out.events++;
    emb_wake (emb);
  }
  pthread_mutex_unlock (&emb->lock);
  return ret;
}

gint
negcam_device_embedded_set_faults (NegcamDevice *dev, const struct negcam_faults *f)
{
  NcEmb *emb = embedded_of (dev);

  if (!emb)
    return -EINVAL;
  pthread_mutex_lock (&emb->lock);
  nc_vbq_set_faults (&emb->cap, f ? f : &emb->profile->faults);
  emb_wake (emb);
  pthread_mutex_unlock (&emb->lock);
  return 0;
}

guint
negcam_device_embedded_output_frames (
    NegcamDevice *dev, guint32 *last_bytesused)
{
  NcEmb *emb = embedded_of (dev);
  guint n = 0;

  if (!emb)
    return 0;
  pthread_mutex_lock (&emb->lock);
  n = emb->out.frames;
  if (last_bytesused)
    *last_bytesused = emb->out.last_bytesused;
  pthread_mutex_unlock (&emb->lock);
  return n;
}
