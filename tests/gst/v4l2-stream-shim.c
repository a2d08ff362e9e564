/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A streaming V4L2 capture node for host tests of negcamsrc's kernel
 * backend (LD_PRELOAD; tests/gst/test_negcamsrc_stream.c). Opening
 * NEGCAM_STREAM_DEV (default /dev/negcam-stream) gives a descriptor (an
 * eventfd, so that poll() works) whose format ioctls go to a negcam engine
 * on NEGCAM_SHIM_PROFILE, and whose streaming ioctls behave like
 * videobuf2 with MMAP buffers: REQBUFS (0 orphans mapped buffers),
 * CREATE_BUFS, QUERYBUF, QBUF, DQBUF (EAGAIN when empty), EXPBUF (the
 * buffer's memfd, standing in for a dma-buf), STREAMON/STREAMOFF, and
 * G_CTRL V4L2_CID_MIN_BUFFERS_FOR_CAPTURE (3). A thread produces one frame
 * per frame interval into the oldest queued buffer (framegen, frame number
 * = sequence, CLOCK_MONOTONIC end-of-frame timestamp); with no buffer
 * queued, the frame is dropped and its sequence number skipped, as a
 * driver does. With V4L2_FIELD_ALTERNATE it produces fields as negcam.ko
 * does: two per frame interval, TOP then BOTTOM, both with the frame's
 * sequence and picture.
 *
 * NEGCAM_SHIM_PROFILE names a built-in profile or a profile file.
 *
 * With NEGCAM_STREAM_NO_CREATE_BUFS set, CREATE_BUFS is ENOTTY.
 *
 * negcam_stream_shim_unplug() (found with dlsym) simulates an unplug:
 * every request then fails with ENODEV and poll() wakes up.
 * negcam_stream_shim_counts() reports the CREATE_BUFS and EXPBUF calls;
 * negcam_stream_shim_skip(n) moves the sequence counter by n (forward: a
 * gap, as lost frames show; back: a driver restarting its count).
 *
 * One descriptor at a time; enough for the tests.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

#include "engine.h"
#include "framegen.h"
#include "profile.h"

int ioctl (int fd, unsigned long request, ...);
void negcam_stream_shim_unplug (void);
void negcam_stream_shim_counts (unsigned *create_bufs, unsigned *expbuf);
void negcam_stream_shim_skip (int frames);

#define MAXB 32
#define COOKIE_SHIFT 16

typedef struct {
  int memfd;                    /* -1: no buffer */
  void *data;                   /* the shim's own mapping, for drawing */
  uint32_t length, bytesused, sequence, prev, field;
  struct timeval ts;
  int queued, done;
} Buf;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct negcam_profile profile;
static struct negcam_engine engine;
static int loaded;
static int dev_fd = -1;
static int gone;
static Buf bufs[MAXB];
static unsigned nbufs;
static int streaming;
static pthread_t producer;
static uint32_t sequence;       /* frames (fields for ALTERNATE) produced */
static uint32_t pattern;
static unsigned n_create_bufs, n_expbuf;

static void *
real (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);

  if (!f) {
    fprintf (stderr, "stream shim: no %s in libc\n", name);
    abort ();
  }
  return f;
}

static const char *
dev_path (void)
{
  const char *d = getenv ("NEGCAM_STREAM_DEV");

  return d && *d ? d : "/dev/negcam-stream";
}

static int
load (void)
{
  const char *spec = getenv ("NEGCAM_SHIM_PROFILE");
  const struct negcam_builtin *b;
  struct negcam_parse_error err;

  static char file[4096];
  const char *text = file;

  if (loaded)
    return 0;
  b = negcam_builtin_find (spec && *spec ? spec : "webcam");
  if (b) {
    text = b->text;
  } else {
    FILE *f = fopen (spec, "r");
    size_t n = f ? fread (file, 1, sizeof (file) - 1, f) : 0;

    if (f)
      fclose (f);
    if (n == 0)
      return -1;
    file[n] = '\0';
  }
  if (negcam_profile_parse (&profile, text, (__u32) strlen (text), &err))
    return -1;
  negcam_engine_init (&engine, &profile);
  loaded = 1;
  return 0;
}

static int
sys_close (int fd)
{
  static int (*close_real) (int);

  if (!close_real)
    close_real = real ("close");
  return close_real (fd);
}

static void
wake (void)
{
  uint64_t one = 1;

  if (write (dev_fd, &one, sizeof (one)) < 0) {
    /* eventfd overflow cannot happen here */
  }
}

static void
drain (void)
{
  uint64_t v;

  if (read (dev_fd, &v, sizeof (v)) < 0) {
    /* EAGAIN: nothing pending */
  }
}

static uint64_t
now_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (uint64_t) t.tv_sec * 1000000000ull + t.tv_nsec;
}

static void *
produce (void *data)
{
  struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  uint64_t interval = 33333333, start, next;
  unsigned k = 0;
  int alternate;

  pthread_mutex_lock (&lock);
  negcam_engine_ioctl (&engine, VIDIOC_G_FMT, &fmt);
  if (negcam_engine_ioctl (&engine, VIDIOC_G_PARM, &parm) == 0
      && parm.parm.capture.timeperframe.denominator)
    interval = 1000000000ull * parm.parm.capture.timeperframe.numerator /
        parm.parm.capture.timeperframe.denominator;
  pthread_mutex_unlock (&lock);
  /* one field per buffer: two buffers per frame interval */
  alternate = fmt.fmt.pix.field == V4L2_FIELD_ALTERNATE;
  if (alternate)
    interval /= 2;
  start = now_ns ();
  for (;;) {
    struct timespec t;
    unsigned i, best = MAXB;

    next = start + (uint64_t) (++k) * interval;
    t.tv_sec = next / 1000000000ull;
    t.tv_nsec = next % 1000000000ull;
    while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR);
    pthread_mutex_lock (&lock);
    if (!streaming || gone) {
      pthread_mutex_unlock (&lock);
      return NULL;
    }
    /* the buffer queued longest ago: queued holds its queue order */
    for (i = 0; i < nbufs; i++)
      if (bufs[i].queued && (best == MAXB
              || bufs[i].queued < bufs[best].queued))
        best = i;
    if (best == MAXB) {
      sequence++;               /* no buffer: this frame is lost */
    } else {
      Buf *b = &bufs[best];
      uint32_t frame = alternate ? sequence / 2 : sequence;
      long used = negcam_framegen_draw (&fmt.fmt.pix, pattern, frame,
          b->prev, b->data, b->length);
      uint64_t ts = now_ns ();

      b->prev = used < 0 ? 0xffffffffu : frame;
      b->bytesused = used < 0 ? 0 : (uint32_t) used;
      b->field = !alternate ? fmt.fmt.pix.field
          : sequence % 2 ? V4L2_FIELD_BOTTOM : V4L2_FIELD_TOP;
      b->sequence = frame;
      sequence++;
      b->ts.tv_sec = ts / 1000000000ull;
      b->ts.tv_usec = (ts % 1000000000ull) / 1000;
      b->queued = 0;
      b->done = (int) k;
      wake ();
    }
    pthread_mutex_unlock (&lock);
  }
}

static void
stop_streaming (void)
{
  unsigned i;

  if (!streaming)
    return;
  streaming = 0;
  pthread_mutex_unlock (&lock);
  pthread_join (producer, NULL);
  pthread_mutex_lock (&lock);
  for (i = 0; i < nbufs; i++)
    bufs[i].queued = bufs[i].done = 0;
  drain ();
}

/* Drop every buffer; mappings made by the application stay valid (they
 * hold the memfd), as videobuf2 orphans mapped buffers. */
static void
free_bufs (void)
{
  unsigned i;

  for (i = 0; i < nbufs; i++) {
    munmap (bufs[i].data, bufs[i].length);
    sys_close (bufs[i].memfd);
    bufs[i].memfd = -1;
  }
  nbufs = 0;
  negcam_engine_set_busy (&engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, false);
}

static int
add_bufs (unsigned count, uint32_t size)
{
  unsigned i;

  for (i = 0; i < count && nbufs < MAXB; i++) {
    Buf *b = &bufs[nbufs];

    b->memfd = memfd_create ("negcam-stream-buffer", MFD_CLOEXEC);
    if (b->memfd < 0 || ftruncate (b->memfd, size) < 0)
      return -ENOMEM;
    b->data = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
        b->memfd, 0);
    if (b->data == MAP_FAILED)
      return -ENOMEM;
    b->length = size;
    b->prev = 0xffffffffu;
    b->queued = b->done = 0;
    nbufs++;
  }
  negcam_engine_set_busy (&engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, nbufs > 0);
  return 0;
}

static void
fill (unsigned i, struct v4l2_buffer *v)
{
  Buf *b = &bufs[i];

  memset (v, 0, sizeof (*v));
  v->index = i;
  v->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  v->memory = V4L2_MEMORY_MMAP;
  v->length = b->length;
  v->m.offset = i << COOKIE_SHIFT;
  v->bytesused = b->bytesused;
  v->sequence = b->sequence;
  v->timestamp = b->ts;
  v->field = b->field ? b->field : V4L2_FIELD_NONE;
  v->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF
      | (b->queued ? V4L2_BUF_FLAG_QUEUED : 0)
      | (b->done ? V4L2_BUF_FLAG_DONE : 0);
}

static uint32_t
cur_size (void)
{
  struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

  negcam_engine_ioctl (&engine, VIDIOC_G_FMT, &fmt);
  return fmt.fmt.pix.sizeimage;
}

static int
stream_ioctl (unsigned long request, void *arg)
{
  static unsigned qorder;

  if (gone)
    return -ENODEV;
  switch (request) {
    case VIDIOC_REQBUFS:{
      struct v4l2_requestbuffers *r = arg;

      if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE
          || r->memory != V4L2_MEMORY_MMAP)
        return -EINVAL;
      stop_streaming ();
      free_bufs ();
      if (r->count == 0)
        return 0;
      if (add_bufs (r->count < 3 ? 3 : r->count, cur_size ()) < 0)
        return -ENOMEM;
      r->count = nbufs;
      return 0;
    }
    case VIDIOC_CREATE_BUFS:{
      struct v4l2_create_buffers *c = arg;
      uint32_t size = c->format.fmt.pix.sizeimage;

      /* a driver without CREATE_BUFS (most before vb2, many still) */
      if (getenv ("NEGCAM_STREAM_NO_CREATE_BUFS"))
        return -ENOTTY;
      if (c->memory != V4L2_MEMORY_MMAP)
        return -EINVAL;
      c->index = nbufs;
      if (c->count == 0)
        return 0;
      if (nbufs + c->count > MAXB)
        c->count = MAXB - nbufs;
      if (add_bufs (c->count, size ? size : cur_size ()) < 0)
        return -ENOMEM;
      n_create_bufs++;
      return 0;
    }
    case VIDIOC_QUERYBUF:{
      struct v4l2_buffer *v = arg;

      if (v->index >= nbufs)
        return -EINVAL;
      fill (v->index, v);
      return 0;
    }
    case VIDIOC_QBUF:{
      struct v4l2_buffer *v = arg;

      if (v->index >= nbufs || bufs[v->index].queued || bufs[v->index].done)
        return -EINVAL;
      bufs[v->index].queued = (int) ++qorder;
      fill (v->index, v);
      return 0;
    }
    case VIDIOC_DQBUF:{
      struct v4l2_buffer *v = arg;
      unsigned i, best = MAXB;

      if (!streaming)
        return -EINVAL;
      for (i = 0; i < nbufs; i++)
        if (bufs[i].done && (best == MAXB || bufs[i].done < bufs[best].done))
          best = i;
      if (best == MAXB) {
        drain ();
        return -EAGAIN;
      }
      fill (best, v);
      bufs[best].done = 0;
      return 0;
    }
    case VIDIOC_EXPBUF:{
      struct v4l2_exportbuffer *e = arg;

      if (e->index >= nbufs)
        return -EINVAL;
      e->fd = fcntl (bufs[e->index].memfd, F_DUPFD_CLOEXEC, 0);
      n_expbuf++;
      return e->fd < 0 ? -errno : 0;
    }
    case VIDIOC_STREAMON:
      if (nbufs == 0)
        return -EINVAL;
      if (!streaming) {
        streaming = 1;
        sequence = 0;
        pthread_create (&producer, NULL, produce, NULL);
      }
      return 0;
    case VIDIOC_STREAMOFF:
      stop_streaming ();
      return 0;
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL:{
      struct v4l2_control *c = arg;

      if (c->id == V4L2_CID_MIN_BUFFERS_FOR_CAPTURE
          && request == VIDIOC_G_CTRL) {
        c->value = 3;
        return 0;
      }
      if (c->id == V4L2_CID_TEST_PATTERN) {
        if (request == VIDIOC_S_CTRL)
          pattern = (uint32_t) c->value;
        else
          c->value = (int) pattern;
        return 0;
      }
      return -EINVAL;
    }
    default:
      return negcam_engine_ioctl (&engine, request, arg);
  }
}

static int
shim_open (int (*open_real) (const char *, int, ...), const char *path,
    int flags, mode_t mode)
{
  int fd;

  if (!path || strcmp (path, dev_path ()))
    return open_real (path, flags, mode);
  pthread_mutex_lock (&lock);
  if (gone || load ()) {
    pthread_mutex_unlock (&lock);
    errno = gone ? ENOENT : ENODEV;
    return -1;
  }
  if (dev_fd >= 0) {
    pthread_mutex_unlock (&lock);
    errno = EBUSY;
    return -1;
  }
  fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  dev_fd = fd;
  pthread_mutex_unlock (&lock);
  return fd;
}

int
open (const char *path, int flags, ...)
{
  mode_t mode = 0;
  va_list ap;

  if (flags & (O_CREAT | O_TMPFILE)) {
    va_start (ap, flags);
    mode = va_arg (ap, mode_t);
    va_end (ap);
  }
  return shim_open (real ("open"), path, flags, mode);
}

int
open64 (const char *path, int flags, ...)
{
  mode_t mode = 0;
  va_list ap;

  if (flags & (O_CREAT | O_TMPFILE)) {
    va_start (ap, flags);
    mode = va_arg (ap, mode_t);
    va_end (ap);
  }
  return shim_open (real ("open64"), path, flags, mode);
}

int
close (int fd)
{
  pthread_mutex_lock (&lock);
  if (fd >= 0 && fd == dev_fd) {
    stop_streaming ();
    free_bufs ();
    dev_fd = -1;
  }
  pthread_mutex_unlock (&lock);
  return sys_close (fd);
}

int
ioctl (int fd, unsigned long request, ...)
{
  int (*ioctl_real) (int, unsigned long, void *) = real ("ioctl");
  void *arg;
  va_list ap;
  int ret;

  va_start (ap, request);
  arg = va_arg (ap, void *);
  va_end (ap);
  if (fd < 0 || fd != dev_fd)
    return ioctl_real (fd, request, arg);
  pthread_mutex_lock (&lock);
  ret = stream_ioctl (request, arg);
  pthread_mutex_unlock (&lock);
  if (ret < 0) {
    errno = -ret;
    return -1;
  }
  return ret;
}

static void *
shim_mmap (void *(*mmap_real) (void *, size_t, int, int, int, off_t),
    void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  int memfd = -1;

  if (fd < 0 || fd != dev_fd)
    return mmap_real (addr, len, prot, flags, fd, off);
  pthread_mutex_lock (&lock);
  if (!gone && (off >> COOKIE_SHIFT) < nbufs)
    memfd = bufs[off >> COOKIE_SHIFT].memfd;
  pthread_mutex_unlock (&lock);
  if (memfd < 0) {
    errno = gone ? ENODEV : EINVAL;
    return MAP_FAILED;
  }
  return mmap_real (addr, len, prot, flags, memfd, 0);
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  return shim_mmap (real ("mmap"), addr, len, prot, flags, fd, off);
}

void *
mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  return shim_mmap (real ("mmap64"), addr, len, prot, flags, fd, off);
}

void
negcam_stream_shim_unplug (void)
{
  pthread_mutex_lock (&lock);
  gone = 1;
  if (dev_fd >= 0)
    wake ();
  pthread_mutex_unlock (&lock);
}

void
negcam_stream_shim_counts (unsigned *create_bufs, unsigned *expbuf)
{
  pthread_mutex_lock (&lock);
  *create_bufs = n_create_bufs;
  *expbuf = n_expbuf;
  pthread_mutex_unlock (&lock);
}

void
negcam_stream_shim_skip (int frames)
{
  pthread_mutex_lock (&lock);
  sequence += (uint32_t) frames;
  pthread_mutex_unlock (&lock);
}
