/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's device, see negcamsrc-private.h: opening it on NULL->READY
 * (the profile or the node, QUERYCAP, the test pattern, the format cache),
 * closing it on READY->NULL, and the error that says it went away.
 *
 * Locking: src->dev and src->cache are set and cleared under cache_lock,
 * src->card under the object lock; the properties open reads are copied
 * under the object lock first. Errors are posted with no lock held.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamsrc-private.h"
#include "profile.h"

#define GST_CAT_DEFAULT negcamsrc_debug

/* Settings the embedded device (no @device) can never honour, in words:
 * said at NULL->READY rather than ignored or failing later under a name
 * that hides the cause. NULL when there is none. */
static const gchar *
gst_negcam_src_embedded_refuses (const gchar *device,
    NegcamDeviceOpenFlags flags, NegcamPoolMemory io_mode)
{
  if (device && device[0])
    return NULL;
  if (flags & NEGCAM_DEVICE_OPEN_LIBV4L2)
    return "libv4l2=true needs device=/dev/videoN: the embedded device "
           "does not go through libv4l2";
  if (io_mode == NEGCAM_POOL_MEMORY_DMABUF)
    return "the embedded device cannot export dma-bufs; use io-mode=mmap "
           "(or auto) or a device";
  return NULL;
}

gboolean
gst_negcam_src_open (GstNegcamSrc *src)
{
  GError *err = NULL;
  struct v4l2_capability cap = { 0 };
  struct v4l2_control ctrl = { 0 };
  gchar *profile, *device;
  NegcamDevice *dev;
  NegcamDeviceOpenFlags flags = 0;
  NegcamPoolMemory io_mode;
  const gchar *why;

  GST_OBJECT_LOCK (src);
  profile = g_strdup (src->profile);
  device = g_strdup (src->device);
  ctrl.value = src->pattern;
  if (src->libv4l2)
    flags |= NEGCAM_DEVICE_OPEN_LIBV4L2;
  io_mode = src->io_mode;
  GST_OBJECT_UNLOCK (src);

  why = gst_negcam_src_embedded_refuses (device, flags, io_mode);
  if (why) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", why), (NULL));
    g_free (profile);
    g_free (device);
    return FALSE;
  }

  dev = negcam_device_open_full (device, profile, flags, &err);
  g_free (profile);
  g_free (device);
  if (!dev) {
    if (g_error_matches (err, NEGCAM_DEVICE_ERROR, NEGCAM_DEVICE_ERROR_PROFILE))
      GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
          ("the profile language is described in docs/profiles.md"));
    else
      GST_ELEMENT_ERROR (
          src, RESOURCE, OPEN_READ, ("%s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }

  if (negcam_device_ioctl (dev, VIDIOC_QUERYCAP, &cap) < 0
      || !negcam_capture_type (cap.device_caps)) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
        ("%s is not a video capture device", negcam_device_get_description (dev)), (NULL));
    negcam_device_unref (dev);
    return FALSE;
  }
  gst_negcam_src_apply_faults (src, dev);
  ctrl.id = V4L2_CID_TEST_PATTERN;
  if (negcam_device_ioctl (dev, VIDIOC_S_CTRL, &ctrl) < 0)
    GST_INFO_OBJECT (src, "device has no test pattern control");

  g_mutex_lock (&src->cache_lock);
  /* single-planar when the node has it, else multiplanar: decided once */
  src->buf_type = negcam_capture_type (cap.device_caps);
  src->dev = dev;
  src->cache = negcam_format_cache_new_for_type (dev, src->buf_type);
  /* A filter that fixes the format is probed with ENUM_FRAMESIZES of its
   * fourcc alone (EINVAL: the device lacks it), without ENUM_FMT, unless
   * that answer could include formats ENUM_FMT does not list: an output
   * queue on the same node, libv4l2's emulated formats. */
  negcam_format_cache_set_size_lookup (src->cache,
      !(cap.device_caps
          & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE
              | V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE))
          && !(flags & NEGCAM_DEVICE_OPEN_LIBV4L2));
  g_mutex_unlock (&src->cache_lock);
  GST_OBJECT_LOCK (src);
  g_free (src->card);
  src->card = g_strndup ((const gchar *)cap.card, sizeof (cap.card));
  GST_OBJECT_UNLOCK (src);
  src->neg_mark = 0;
  memset (src->mark_counts, 0, sizeof (src->mark_counts));
  return TRUE;
}

void
gst_negcam_src_close (GstNegcamSrc *src)
{
  g_mutex_lock (&src->cache_lock);
  negcam_format_cache_free (src->cache);
  src->cache = NULL;
  g_clear_pointer (&src->dev, negcam_device_unref);
  g_mutex_unlock (&src->cache_lock);
  GST_OBJECT_LOCK (src);
  g_clear_pointer (&src->card, g_free);
  GST_OBJECT_UNLOCK (src);
}

/* The 'faults' property (docs/faults.md) onto @dev: the embedded device
 * takes them (NULL: its profile's); another device has none to take. */
void
gst_negcam_src_apply_faults (GstNegcamSrc *src, NegcamDevice *dev)
{
  struct negcam_faults f = { 0 };
  gchar *text;
  gint ret;

  GST_OBJECT_LOCK (src);
  text = g_strdup (src->faults);
  GST_OBJECT_UNLOCK (src);
  if (text && negcam_faults_parse (&f, text, (guint32) strlen (text), NULL) == 0)
    ret = negcam_device_embedded_set_faults (dev, &f);
  else
    ret = negcam_device_embedded_set_faults (dev, NULL);
  if (ret < 0 && text)
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS,
        ("faults apply to the embedded device only; %s has none",
            negcam_device_get_description (dev)),
        ("faults=\"%s\" ignored", text));
  g_free (text);
}

/* The 'faults' property: checked, kept, applied to an open device. A list
 * that does not parse is refused (with the parser's line:column message)
 * and the faults stay as they were. */
gboolean
gst_negcam_src_set_faults (GstNegcamSrc *src, const gchar *text)
{
  struct negcam_parse_error err;
  struct negcam_faults f;
  NegcamDevice *dev = NULL;

  if (text && negcam_faults_parse (&f, text, (guint32) strlen (text), &err)) {
    g_warning ("%s: faults \"%s\": %u:%u: %s; keeping the old value",
        GST_OBJECT_NAME (src), text, err.line, err.column, err.message);
    return FALSE;
  }
  GST_OBJECT_LOCK (src);
  g_free (src->faults);
  src->faults = g_strdup (text);
  GST_OBJECT_UNLOCK (src);
  g_mutex_lock (&src->cache_lock);
  if (src->dev)
    dev = negcam_device_ref (src->dev);
  g_mutex_unlock (&src->cache_lock);
  if (dev) {
    gst_negcam_src_apply_faults (src, dev);
    negcam_device_unref (dev);
  }
  return TRUE;
}

/* The device answered ENODEV: it was unplugged (or its driver removed).
 * Say so, and which one; the pipeline then stops as on any error. */
GstFlowReturn
gst_negcam_src_device_lost (GstNegcamSrc *src, const gchar *what)
{
  GstFlowReturn ret;
  gchar *card;

  GST_OBJECT_LOCK (src);
  card = g_strdup (src->card ? src->card : "");
  GST_OBJECT_UNLOCK (src);
  ret = negcam_device_post_lost (src->dev, GST_ELEMENT (src), card, what);
  g_free (card);
  return ret;
}
