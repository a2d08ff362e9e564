/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel backend: a V4L2 device node (/dev/videoN) below the same
 * NegcamDevice interface as the embedded engine. open() is non-blocking so
 * that DQBUF answers EAGAIN like the embedded device; ioctls are retried
 * on EINTR; wait() polls the descriptor together with a flushing control
 * (GstPoll) so that unlock() wakes it. The device paces frames itself
 * (self_paced), so the element waits on it, not on the clock.
 *
 * First step of issue 5: raw ioctls and MMAP only. Not yet: libv4l2,
 * EXPBUF/DMABUF, CREATE_BUFS, driver timestamps, device-loss errors.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <gst/gst.h>

#include "negcamdevice.h"

typedef struct {
  gint fd;
  GstPoll *poll;
  GstPollFD pfd;
} NcKernel;

static gint
kernel_ioctl (NegcamDevice *dev, unsigned long request, gpointer arg)
{
  NcKernel *k = dev->backend;
  gint ret;

  do {
    ret = ioctl (k->fd, request, arg);
  } while (ret < 0 && errno == EINTR);
  return ret < 0 ? -errno : 0;
}

static gpointer
kernel_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  NcKernel *k = dev->backend;
  gpointer p =
      mmap (NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, offset);

  return p == MAP_FAILED ? NULL : p;
}

static void
kernel_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
  if (addr)
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
   * went away. */
  if (gst_poll_fd_has_error (k->poll, &k->pfd)
      || gst_poll_fd_has_closed (k->poll, &k->pfd))
    return -EPIPE;
  return 1;
}

static void
kernel_set_flushing (NegcamDevice *dev, gboolean flushing)
{
  NcKernel *k = dev->backend;

  gst_poll_set_flushing (k->poll, flushing);
}

static void
kernel_close (NegcamDevice *dev)
{
  NcKernel *k = dev->backend;

  gst_poll_free (k->poll);
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
  .close = kernel_close,
};

NegcamDevice *
negcam_device_open_kernel (const gchar *path, GError **error)
{
  NegcamDevice *dev;
  NcKernel *k;
  gint fd = open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

  if (fd < 0) {
    g_set_error (error, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_OPEN,
        "device \"%s\": cannot open: %s", path, g_strerror (errno));
    return NULL;
  }
  k = g_new0 (NcKernel, 1);
  k->fd = fd;
  k->poll = gst_poll_new (TRUE);
  gst_poll_fd_init (&k->pfd);
  k->pfd.fd = fd;
  gst_poll_add_fd (k->poll, &k->pfd);
  gst_poll_fd_ctl_read (k->poll, &k->pfd, TRUE);

  dev = g_new0 (NegcamDevice, 1);
  dev->ops = &kernel_ops;
  dev->backend = k;
  dev->self_paced = TRUE;
  dev->description = g_strdup (path);
  return dev;
}
