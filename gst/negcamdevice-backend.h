/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the device wrapper (negcamdevice.c) and its backends only: the
 * NegcamDevice struct, the backend operations and the backends'
 * constructors. Elements, caps, fixation and the pool use negcamdevice.h.
 */
#ifndef __NEGCAM_DEVICE_BACKEND_H__
#define __NEGCAM_DEVICE_BACKEND_H__

#include "negcamdevice.h"

G_BEGIN_DECLS

/* Backend operations. Return 0 or a negative errno, like a driver. */
typedef struct {
  const gchar *name;
  gint (*ioctl) (NegcamDevice *dev, unsigned long request, gpointer arg);
  /* Map the buffer QUERYBUF described by @offset; NULL on failure. */
  gpointer (*mmap) (NegcamDevice *dev, guint32 offset, guint32 length);
  void (*munmap) (NegcamDevice *dev, gpointer addr, guint32 length);
  /* Wait until a DQBUF would not block: 1 ready, 0 timeout, -EINTR when
   * woken by set_flushing(TRUE), -EPIPE when the queue does not stream,
   * -ENODEV when the device went away. */
  gint (*wait) (NegcamDevice *dev, gint64 timeout_us);
  void (*set_flushing) (NegcamDevice *dev, gboolean flushing);
  /* Optional: 1 when an event waits to be dequeued (POLLPRI), 0 when
   * none does, so the caller makes no DQEVENT; NULL: always try DQEVENT. */
  gint (*events_pending) (NegcamDevice *dev);
  /* Optional: capture the next frame into @dst (the application's
   * memory), as negcam_device_capture_into() says; NULL: cannot. */
  gint (*capture_into) (
      NegcamDevice *dev, gpointer dst, guint32 size, struct v4l2_buffer *v);
  void (*close) (NegcamDevice *dev);
} NegcamDeviceOps;

struct _NegcamDevice {
  gint refcount; /* atomic */
  const NegcamDeviceOps *ops;
  gchar *description; /* "embedded profile webcam", "/dev/video0" */
  /* TRUE when the device paces frames itself (a real device): then the
   * element waits on the device, not on the clock, in live mode. */
  gboolean self_paced;
  gint counts[NEGCAM_REQ_COUNT]; /* atomic */
  /* Set (atomically) once the device answered ENODEV: it is gone
   * (unplugged); every later request fails the same way. */
  gint gone;
  /* Set (atomically) when a V4L2_EVENT_SOURCE_CHANGE was dequeued and
   * not yet taken (negcam_device_take_source_change). */
  gint source_changed;
  gpointer backend;
};

NegcamDevice *negcam_device_open_embedded (
    const gchar *profile, GError **error);
NegcamDevice *negcam_device_open_kernel (
    const gchar *path, NegcamDeviceOpenFlags flags, GError **error);

G_END_DECLS

#endif /* __NEGCAM_DEVICE_BACKEND_H__ */
