/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend: a V4L2 device node (/dev/videoN) below the same
 * NegcamDevice interface as the embedded engine. open() is non-blocking so
 * that DQBUF answers EAGAIN like the embedded device; ioctls are retried
 * on EINTR; wait() polls the descriptor together with a flushing control
 * (GstPoll) so that unlock() wakes it. The device paces frames itself
 * (self_paced), so the element waits on it, not on the clock.
 *
 * Raw ioctls by default. With NEGCAM_DEVICE_OPEN_LIBV4L2 the same calls go
 * through libv4l2 (v4l2_fd_open, v4l2_ioctl, v4l2_mmap, v4l2_close), for
 * devices whose formats only libv4l2 converts; libv4l2 hides CREATE_BUFS,
 * EXPBUF and DMABUF import (its converted frames live in its own buffers),
 * so those answer ENOTTY in that mode and the pool falls back to plain MMAP.
 *
 * Device loss: after an unplug the driver answers ENODEV to every ioctl
 * and poll() reports POLLERR|POLLHUP; wait() turns a POLLERR into -ENODEV
 * when a QUERYCAP confirms the device is gone (a POLLERR on a device that
 * is still there means "not streaming": -EPIPE).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <gst/gst.h>
#ifdef HAVE_LIBV4L2
#include <libv4l2.h>
#endif

#include "negcamdevice-backend.h"

typedef struct {
  gint fd;
  gboolean libv4l2;
  GstPoll *poll;
  GstPollFD pfd;
} NcKernel;

static gint
kernel_ioctl (NegcamDevice *dev, unsigned long request, gpointer arg)
{
  NcKernel *k = dev->backend;
  gint ret;

#ifdef HAVE_LIBV4L2
  if (k->libv4l2) {
    /* libv4l2 would hand out the driver's buffers, not its converted
     * ones: these would be wrong in conversion mode. */
    if (request == VIDIOC_CREATE_BUFS || request == VIDIOC_EXPBUF)
      return -ENOTTY;
    do {
      ret = v4l2_ioctl (k->fd, request, arg);
    } while (ret < 0 && errno == EINTR);
    return ret < 0 ? -errno : 0;
  }
#endif
  do {
    ret = ioctl (k->fd, request, arg);
  } while (ret < 0 && errno == EINTR);
  return ret < 0 ? -errno : 0;
}

static gpointer
kernel_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  NcKernel *k = dev->backend;
  gpointer p;

#ifdef HAVE_LIBV4L2
  if (k->libv4l2)
    p = v4l2_mmap (
        NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, offset);
  else
#endif
    p = mmap (NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, offset);
  return p == MAP_FAILED ? NULL : p;
}

static void
kernel_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
  NcKernel *k = dev->backend;

  if (!addr)
    return;
#ifdef HAVE_LIBV4L2
  if (k->libv4l2) {
    v4l2_munmap (addr, length);
    return;
  }
#endif
  (void)k;
  munmap (addr, length);
}

static gint
kernel_wait (NegcamDevice *dev, gint64 timeout_us)
{
  NcKernel *k = dev->backend;
  GstClockTime timeout =
      timeout_us < 0 ? GST_CLOCK_TIME_NONE : (GstClockTime)timeout_us * 1000;
  gint ret;

  for (;;) {
    ret = gst_poll_wait (k->poll, timeout);
    if (ret >= 0 || errno != EINTR)
      break;
  }
  if (ret < 0)
    return errno == EBUSY ? -EINTR : -errno; /* EBUSY: set_flushing */
  if (ret == 0)
    return 0;
  /* V4L2 reports POLLERR when the queue does not stream, or the device
   * went away: ask which (of the fd itself; negcam_device_wait() marks
   * the device gone on -ENODEV, and the backend never calls back up). */
  if (gst_poll_fd_has_error (k->poll, &k->pfd)
      || gst_poll_fd_has_closed (k->poll, &k->pfd)) {
    struct v4l2_capability cap;

    if (kernel_ioctl (dev, VIDIOC_QUERYCAP, &cap) == -ENODEV)
      return -ENODEV;
    return -EPIPE;
  }
  return 1;
}

static void
kernel_set_flushing (NegcamDevice *dev, gboolean flushing)
{
  NcKernel *k = dev->backend;

  gst_poll_set_flushing (k->poll, flushing);
}

/* POLLPRI without waiting: V4L2 reports a pending event that way (events
 * only: vb2 answers nothing for a queue when neither POLLIN nor POLLOUT
 * is asked). A failed poll says "maybe", so the caller tries DQEVENT. */
static gint
kernel_events_pending (NegcamDevice *dev)
{
  NcKernel *k = dev->backend;
  struct pollfd p = { .fd = k->fd, .events = POLLPRI };
  gint ret;

  do {
    ret = poll (&p, 1, 0);
  } while (ret < 0 && errno == EINTR);
  return ret != 0;
}

static void
kernel_close (NegcamDevice *dev)
{
  NcKernel *k = dev->backend;

  gst_poll_free (k->poll);
#ifdef HAVE_LIBV4L2
  if (k->libv4l2)
    v4l2_close (k->fd);
  else
#endif
    close (k->fd);
  g_free (k);
}

static const NegcamDeviceOps kernel_ops = {
  .name = "kernel",
  .ioctl = kernel_ioctl,
  .mmap = kernel_mmap,
  .munmap = kernel_munmap,
  .wait = kernel_wait,
  .set_flushing = kernel_set_flushing,
  .events_pending = kernel_events_pending,
  .close = kernel_close,
};

NegcamDevice *
negcam_device_open_kernel (
    const gchar *path, NegcamDeviceOpenFlags flags, GError **error)
{
  NegcamDevice *dev;
  NcKernel *k;
  gboolean libv4l2 = (flags & NEGCAM_DEVICE_OPEN_LIBV4L2) != 0;
  gint fd;

#ifndef HAVE_LIBV4L2
  if (libv4l2) {
    g_set_error (error, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_UNSUPPORTED,
        "device \"%s\": libv4l2 asked for, but negcamsrc was built "
        "without it",
        path);
    return NULL;
  }
#endif
  fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    g_set_error (error, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_OPEN,
        "device \"%s\": cannot open: %s", path, g_strerror (errno));
    return NULL;
  }
#ifdef HAVE_LIBV4L2
  if (libv4l2) {
    /* v4l2_fd_open takes the descriptor over (v4l2_close closes it). */
    if (v4l2_fd_open (fd, 0) < 0) {
      gint e = errno;

      close (fd);
      g_set_error (error, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_OPEN,
          "device \"%s\": libv4l2 cannot open it: %s", path, g_strerror (e));
      return NULL;
    }
  }
#endif
  k = g_new0 (NcKernel, 1);
  k->fd = fd;
  k->libv4l2 = libv4l2;
  k->poll = gst_poll_new (TRUE);
  gst_poll_fd_init (&k->pfd);
  k->pfd.fd = fd;
  gst_poll_add_fd (k->poll, &k->pfd);
  if (flags & NEGCAM_DEVICE_OPEN_OUTPUT) {
    /* An output queue is ready for DQBUF with POLLOUT; events (source
     * change) come with POLLPRI. */
    gst_poll_fd_ctl_write (k->poll, &k->pfd, TRUE);
    gst_poll_fd_ctl_pri (k->poll, &k->pfd, TRUE);
  } else {
    gst_poll_fd_ctl_read (k->poll, &k->pfd, TRUE);
  }

  dev = g_new0 (NegcamDevice, 1);
  dev->ops = &kernel_ops;
  dev->backend = k;
  dev->self_paced = TRUE;
  dev->description = g_strdup (path);
  return dev;
}
