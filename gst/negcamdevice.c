/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The backend-independent half of NegcamDevice: reference counting,
 * request counting and the request log. See negcamdevice.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <gst/gst.h>

#include "negcamdevice-backend.h"
#include "engine.h"
#include "formats.h"

GST_DEBUG_CATEGORY (negcamdevice_debug);
#define GST_CAT_DEFAULT negcamdevice_debug

/* clang-format off */
G_DEFINE_QUARK (negcam-device-error-quark, negcam_device_error);
/* clang-format on */

void
negcam_device_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (negcamdevice_debug, "negcamdevice", 0,
        "negcam's device interface under negcamsrc, negcamsink and the "
        "device provider: every device request and its answer, the format "
        "cache, the buffer pools");
    g_once_init_leave (&done, 1);
  }
}

GstFlowReturn
negcam_device_post_lost (NegcamDevice *dev, GstElement *element,
    const gchar *card, const gchar *what)
{
  gchar *named = card ? g_strdup_printf (" (\"%s\")", card) : g_strdup ("");

  GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
      ("Device %s%s disappeared: it was unplugged or its driver removed",
          negcam_device_get_description (dev), named),
      ("%s: ENODEV", what));
  g_free (named);
  return GST_FLOW_ERROR;
}

NegcamDevice *
negcam_device_open (const gchar *path, const gchar *profile, GError **error)
{
  return negcam_device_open_full (path, profile, 0, error);
}

NegcamDevice *
negcam_device_open_full (const gchar *path, const gchar *profile,
    NegcamDeviceOpenFlags flags, GError **error)
{
  NegcamDevice *dev;

  negcam_device_debug_init ();
  if (path == NULL || path[0] == '\0') {
    dev = negcam_device_open_embedded (profile, error);
  } else {
    dev = negcam_device_open_kernel (path, flags, error);
  }
  if (dev)
    dev->refcount = 1;
  return dev;
}

NegcamDevice *
negcam_device_ref (NegcamDevice *dev)
{
  g_atomic_int_inc (&dev->refcount);
  return dev;
}

void
negcam_device_unref (NegcamDevice *dev)
{
  if (dev == NULL || !g_atomic_int_dec_and_test (&dev->refcount))
    return;
  dev->ops->close (dev);
  g_free (dev->description);
  g_free (dev);
}

static NegcamRequestType
request_type (unsigned long request)
{
  switch (request) {
    case VIDIOC_QUERYCAP:
      return NEGCAM_REQ_QUERYCAP;
    case VIDIOC_ENUM_FMT:
      return NEGCAM_REQ_ENUM_FMT;
    case VIDIOC_ENUM_FRAMESIZES:
      return NEGCAM_REQ_ENUM_FRAMESIZES;
    case VIDIOC_ENUM_FRAMEINTERVALS:
      return NEGCAM_REQ_ENUM_FRAMEINTERVALS;
    case VIDIOC_G_FMT:
      return NEGCAM_REQ_G_FMT;
    case VIDIOC_TRY_FMT:
      return NEGCAM_REQ_TRY_FMT;
    case VIDIOC_S_FMT:
      return NEGCAM_REQ_S_FMT;
    case VIDIOC_G_PARM:
      return NEGCAM_REQ_G_PARM;
    case VIDIOC_S_PARM:
      return NEGCAM_REQ_S_PARM;
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL:
      return NEGCAM_REQ_CTRL;
    case VIDIOC_REQBUFS:
      return NEGCAM_REQ_REQBUFS;
    case VIDIOC_QUERYBUF:
      return NEGCAM_REQ_QUERYBUF;
    case VIDIOC_QBUF:
      return NEGCAM_REQ_QBUF;
    case VIDIOC_DQBUF:
      return NEGCAM_REQ_DQBUF;
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
      return NEGCAM_REQ_STREAM;
    default:
      return NEGCAM_REQ_OTHER;
  }
}

const gchar *
negcam_request_type_name (NegcamRequestType t)
{
  static const gchar *names[NEGCAM_REQ_COUNT] = { "querycap", "enum-fmt",
    "enum-framesizes", "enum-frameintervals", "g-fmt", "try-fmt", "s-fmt",
    "g-parm", "s-parm", "ctrl", "reqbufs", "querybuf", "qbuf", "dqbuf",
    "stream", "other" };

  return t < NEGCAM_REQ_COUNT ? names[t] : "?";
}

const gchar *
negcam_fourcc_to_string (guint32 f, gchar s[5])
{
  return negcam_fourcc_str (f, s);
}

gboolean
negcam_buf_type_is_mplane (guint32 type)
{
  return type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
      || type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
}

guint32
negcam_capture_type (guint32 device_caps)
{
  if (device_caps & V4L2_CAP_VIDEO_CAPTURE)
    return V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE)
    return V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
  return 0;
}

/* The single-planar view of @f: the engine's mapping of the shared fields
 * (negcam_pix_from_mp), with sizeimage the sum of the planes the driver
 * answered. */
void
negcam_format_get_pix (const struct v4l2_format *f, struct v4l2_pix_format *pix)
{
  const struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
  guint i;

  if (!negcam_buf_type_is_mplane (f->type)) {
    *pix = f->fmt.pix;
    return;
  }
  negcam_pix_from_mp (pix, mp);
  for (i = 0; i < MIN (mp->num_planes, VIDEO_MAX_PLANES); i++)
    pix->sizeimage += mp->plane_fmt[i].sizeimage;
}

/* A request in @f's buffer type: the engine's mapping (negcam_pix_to_mp),
 * then one plane holding @pix's line and image sizes; the driver answers
 * the planes its format has. */
void
negcam_format_set_pix (struct v4l2_format *f, const struct v4l2_pix_format *pix)
{
  struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;

  if (!negcam_buf_type_is_mplane (f->type)) {
    f->fmt.pix = *pix;
    return;
  }
  negcam_pix_to_mp (pix, mp);
  memset (mp->plane_fmt, 0, sizeof (mp->plane_fmt));
  mp->num_planes = 1;
  mp->plane_fmt[0].bytesperline = pix->bytesperline;
  mp->plane_fmt[0].sizeimage = pix->sizeimage;
}

guint
negcam_format_n_planes (const struct v4l2_format *f)
{
  if (!negcam_buf_type_is_mplane (f->type))
    return 1;
  return CLAMP (f->fmt.pix_mp.num_planes, 1, VIDEO_MAX_PLANES);
}

guint32
negcam_format_plane_stride (const struct v4l2_format *f, guint i)
{
  if (!negcam_buf_type_is_mplane (f->type))
    return i == 0 ? f->fmt.pix.bytesperline : 0;
  return i < VIDEO_MAX_PLANES ? f->fmt.pix_mp.plane_fmt[i].bytesperline : 0;
}

guint32
negcam_format_plane_size (const struct v4l2_format *f, guint i)
{
  if (!negcam_buf_type_is_mplane (f->type))
    return i == 0 ? f->fmt.pix.sizeimage : 0;
  return i < VIDEO_MAX_PLANES ? f->fmt.pix_mp.plane_fmt[i].sizeimage : 0;
}

void
negcam_buffer_init (struct v4l2_buffer *v, guint32 type, guint32 memory,
    struct v4l2_plane *planes, guint n_planes)
{
  memset (v, 0, sizeof (*v));
  v->type = type;
  v->memory = memory;
  if (negcam_buf_type_is_mplane (type)) {
    memset (planes, 0, n_planes * sizeof (*planes));
    v->m.planes = planes;
    v->length = n_planes;
  }
}

guint32
negcam_buffer_bytesused (const struct v4l2_buffer *v)
{
  guint32 n = 0;
  guint i;

  if (!negcam_buf_type_is_mplane (v->type))
    return v->bytesused;
  for (i = 0; i < v->length && v->m.planes; i++)
    n += v->m.planes[i].bytesused;
  return n;
}

/* The answer of an enumeration (ENUM_FMT, ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS), for the log. */
static gchar *
describe_enum (unsigned long request, gconstpointer arg)
{
  gchar a[5];

  switch (request) {
    case VIDIOC_ENUM_FMT: {
      const struct v4l2_fmtdesc *f = arg;
      negcam_fourcc_to_string (f->pixelformat, a);
      return g_strdup_printf ("index %u: %s \"%s\" flags 0x%x", f->index, a,
          (const gchar *)f->description, f->flags);
    }
    case VIDIOC_ENUM_FRAMESIZES: {
      const struct v4l2_frmsizeenum *f = arg;
      negcam_fourcc_to_string (f->pixel_format, a);
      if (f->type == V4L2_FRMSIZE_TYPE_DISCRETE)
        return g_strdup_printf ("%s index %u: %ux%u", a, f->index,
            f->discrete.width, f->discrete.height);
      return g_strdup_printf ("%s index %u: %ux%u-%ux%u step %ux%u", a,
          f->index, f->stepwise.min_width, f->stepwise.min_height,
          f->stepwise.max_width, f->stepwise.max_height, f->stepwise.step_width,
          f->stepwise.step_height);
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
      const struct v4l2_frmivalenum *f = arg;
      negcam_fourcc_to_string (f->pixel_format, a);
      if (f->type == V4L2_FRMIVAL_TYPE_DISCRETE)
        return g_strdup_printf ("%s %ux%u index %u: %u/%u s", a, f->width,
            f->height, f->index, f->discrete.numerator,
            f->discrete.denominator);
      return g_strdup_printf ("%s %ux%u index %u: %u/%u-%u/%u s", a, f->width,
          f->height, f->index, f->stepwise.min.numerator,
          f->stepwise.min.denominator, f->stepwise.max.numerator,
          f->stepwise.max.denominator);
    }
    default:
      return g_strdup ("");
  }
}

/* The interesting part of a request's answer, for the log. */
static gchar *
describe (unsigned long request, gconstpointer arg)
{
  gchar a[5];

  switch (request) {
    case VIDIOC_ENUM_FMT:
    case VIDIOC_ENUM_FRAMESIZES:
    case VIDIOC_ENUM_FRAMEINTERVALS:
      return describe_enum (request, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT: {
      const struct v4l2_format *f = arg;
      struct v4l2_pix_format pix;
      const gchar *field;

      negcam_format_get_pix (f, &pix);
      field = negcam_field_name (pix.field);
      negcam_fourcc_to_string (pix.pixelformat, a);
      return g_strdup_printf ("%s %ux%u field %s bytesperline %u sizeimage %u "
                              "colorspace %u/%u/%u/%u planes %u",
          a, pix.width, pix.height, field ? field : "any", pix.bytesperline,
          pix.sizeimage, pix.colorspace, pix.ycbcr_enc, pix.quantization,
          pix.xfer_func, negcam_format_n_planes (f));
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
      const struct v4l2_streamparm *p = arg;
      return g_strdup_printf ("timeperframe %u/%u capability 0x%x",
          p->parm.capture.timeperframe.numerator,
          p->parm.capture.timeperframe.denominator, p->parm.capture.capability);
    }
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL: {
      const struct v4l2_control *c = arg;
      return g_strdup_printf ("id 0x%x value %d", c->id, c->value);
    }
    case VIDIOC_REQBUFS: {
      const struct v4l2_requestbuffers *r = arg;
      return g_strdup_printf ("count %u memory %u", r->count, r->memory);
    }
    case VIDIOC_CREATE_BUFS: {
      const struct v4l2_create_buffers *c = arg;
      return g_strdup_printf ("index %u count %u", c->index, c->count);
    }
    case VIDIOC_EXPBUF: {
      const struct v4l2_exportbuffer *e = arg;
      return g_strdup_printf ("index %u fd %d", e->index, e->fd);
    }
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF: {
      const struct v4l2_buffer *v = arg;
      return g_strdup_printf ("index %u sequence %u bytesused %u", v->index,
          v->sequence, negcam_buffer_bytesused (v));
    }
    case VIDIOC_QUERYCAP: {
      const struct v4l2_capability *c = arg;
      return g_strdup_printf ("driver %s card \"%s\" caps 0x%x",
          (const gchar *)c->driver, (const gchar *)c->card, c->device_caps);
    }
    default:
      return g_strdup ("");
  }
}

gint
negcam_device_ioctl (NegcamDevice *dev, unsigned long request, gpointer arg)
{
  gint ret;

  g_atomic_int_inc (&dev->counts[request_type (request)]);
  ret = dev->ops->ioctl (dev, request, arg);
  if (ret == -ENODEV && !g_atomic_int_get (&dev->gone)) {
    g_atomic_int_set (&dev->gone, 1);
    GST_CAT_WARNING (negcamdevice_debug, "%s: device disappeared (%s: ENODEV)",
        dev->description, negcam_ioctl_name (request));
  }

  /* QBUF/DQBUF are per frame: log them one level lower. */
  if (gst_debug_category_get_threshold (negcamdevice_debug)
      >= GST_LEVEL_DEBUG) {
    GstDebugLevel level = (request == VIDIOC_QBUF || request == VIDIOC_DQBUF)
        ? GST_LEVEL_LOG
        : GST_LEVEL_DEBUG;
    if (gst_debug_category_get_threshold (negcamdevice_debug) >= level) {
      gchar *what = ret == 0 ? describe (request, arg) : NULL;
      GST_CAT_LEVEL_LOG (negcamdevice_debug, level, NULL, "%s %s: %s%s",
          dev->description, negcam_ioctl_name (request),
          ret == 0 ? "ok " : g_strerror (-ret), what ? what : "");
      g_free (what);
    }
  }
  return ret;
}

gboolean
negcam_device_is_gone (NegcamDevice *dev)
{
  return g_atomic_int_get (&dev->gone) != 0;
}

const gchar *
negcam_device_get_description (NegcamDevice *dev)
{
  return dev->description;
}

gboolean
negcam_device_is_self_paced (NegcamDevice *dev)
{
  return dev->self_paced;
}

guint
negcam_device_count (NegcamDevice *dev, NegcamRequestType type)
{
  return (guint) g_atomic_int_get (&dev->counts[type]);
}

gpointer
negcam_device_mmap (NegcamDevice *dev, guint32 offset, guint32 length)
{
  return dev->ops->mmap (dev, offset, length);
}

void
negcam_device_munmap (NegcamDevice *dev, gpointer addr, guint32 length)
{
  dev->ops->munmap (dev, addr, length);
}

gint
negcam_device_wait (NegcamDevice *dev, gint64 timeout_us)
{
  gint ret = dev->ops->wait (dev, timeout_us);

  if (ret == -ENODEV)
    g_atomic_int_set (&dev->gone, 1);
  return ret;
}

gboolean
negcam_device_can_capture_into (NegcamDevice *dev)
{
  return dev->ops->capture_into != NULL;
}

gint
negcam_device_capture_into (
    NegcamDevice *dev, gpointer dst, guint32 size, struct v4l2_buffer *v)
{
  if (!dev->ops->capture_into)
    return -ENOTTY;
  g_atomic_int_inc (&dev->counts[NEGCAM_REQ_DQBUF]);
  return dev->ops->capture_into (dev, dst, size, v);
}

void
negcam_device_set_flushing (NegcamDevice *dev, gboolean flushing)
{
  dev->ops->set_flushing (dev, flushing);
}

guint
negcam_device_count_total (NegcamDevice *dev)
{
  guint n = 0;
  gint i;

  for (i = 0; i < NEGCAM_REQ_COUNT; i++)
    n += g_atomic_int_get (&dev->counts[i]);
  return n;
}

guint
negcam_device_count_negotiation (NegcamDevice *dev)
{
  guint n = 0;
  gint i;

  for (i = NEGCAM_REQ_QUERYCAP; i <= NEGCAM_REQ_CTRL; i++)
    n += g_atomic_int_get (&dev->counts[i]);
  return n;
}

/*
 * The control whose value change tells a negcam.ko loop's producer that a
 * consumer asked for a format (kmod/negcam-loop-formats.c, docs/loopback.md): an
 * output node may not send V4L2_EVENT_SOURCE_CHANGE (v4l2-compliance
 * fails output nodes that accept it), so the loop counts requests in a
 * read-only control and its V4L2_EVENT_CTRL is the producer's signal.
 */
#define NEGCAM_CID_FORMAT_REQUESTS (V4L2_CID_USER_BASE | 0xf100)

gint
negcam_device_subscribe_source_change (NegcamDevice *dev)
{
  struct v4l2_event_subscription sub = { .type = V4L2_EVENT_SOURCE_CHANGE };
  struct v4l2_event_subscription ctrl = { .type = V4L2_EVENT_CTRL,
    .id = NEGCAM_CID_FORMAT_REQUESTS };
  gint ret = negcam_device_ioctl (dev, VIDIOC_SUBSCRIBE_EVENT, &sub);

  /* either signal will do: capture-side drivers and the embedded device
   * send SOURCE_CHANGE, a negcam.ko loop's output node the control event */
  if (negcam_device_ioctl (dev, VIDIOC_SUBSCRIBE_EVENT, &ctrl) == 0)
    ret = 0;
  return ret;
}

static gboolean
is_format_request (const struct v4l2_event *ev)
{
  return ev->type == V4L2_EVENT_CTRL && ev->id == NEGCAM_CID_FORMAT_REQUESTS
      && (ev->u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE);
}

void
negcam_device_collect_events (NegcamDevice *dev)
{
  struct v4l2_event ev;
  guint i;

  /* per frame: no DQEVENT unless the device says one waits */
  if (dev->ops->events_pending && !dev->ops->events_pending (dev))
    return;
  /* bounded: a device that keeps answering must not hold us */
  for (i = 0; i < 64; i++) {
    memset (&ev, 0, sizeof (ev));
    if (negcam_device_ioctl (dev, VIDIOC_DQEVENT, &ev) < 0)
      break;
    if (ev.type == V4L2_EVENT_SOURCE_CHANGE || is_format_request (&ev))
      g_atomic_int_set (&dev->source_changed, 1);
    if (ev.pending == 0)
      break;
  }
}

gboolean
negcam_device_take_source_change (NegcamDevice *dev)
{
  negcam_device_collect_events (dev);
  return g_atomic_int_compare_and_exchange (&dev->source_changed, 1, 0);
}
