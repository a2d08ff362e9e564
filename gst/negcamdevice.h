/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NegcamDevice: the one door between negcamsrc and a V4L2 capture device.
 * The struct is opaque: backends see it through negcamdevice-backend.h.
 *
 * Everything the element asks goes through negcam_device_ioctl() with a
 * VIDIOC_* request code and the uapi struct of <linux/videodev2.h>, so a
 * backend is just "something that answers ioctls": the negcam engine in
 * this process (negcamdevice-embedded.c) or the file descriptor of a real
 * V4L2 node such as negcam.ko's or vivid's (negcamdevice-kernel.c). No
 * negotiation code knows which one it talks to. The wrapper counts every request by type and logs each request with
 * the device's answer in the "negcamdevice" debug category.
 *
 * Threading: ioctl, mmap/munmap and wait may be called from any thread;
 * backends serialise internally. set_flushing() wakes a blocked wait().
 */
#ifndef __NEGCAM_DEVICE_H__
#define __NEGCAM_DEVICE_H__

#include <glib.h>
#include <gst/gst.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

typedef struct _NegcamDevice NegcamDevice;

/* Request classes, for counting (the negotiation message and the tests). */
typedef enum {
  NEGCAM_REQ_QUERYCAP,
  NEGCAM_REQ_ENUM_FMT,
  NEGCAM_REQ_ENUM_FRAMESIZES,
  NEGCAM_REQ_ENUM_FRAMEINTERVALS,
  NEGCAM_REQ_G_FMT,
  NEGCAM_REQ_TRY_FMT,
  NEGCAM_REQ_S_FMT,
  NEGCAM_REQ_G_PARM,
  NEGCAM_REQ_S_PARM,
  NEGCAM_REQ_CTRL, /* G_CTRL / S_CTRL */
  NEGCAM_REQ_REQBUFS,
  NEGCAM_REQ_QUERYBUF,
  NEGCAM_REQ_QBUF,
  NEGCAM_REQ_DQBUF,
  NEGCAM_REQ_STREAM, /* STREAMON / STREAMOFF */
  NEGCAM_REQ_OTHER,
  NEGCAM_REQ_COUNT
} NegcamRequestType;

/* Flags for negcam_device_open_full(). */
typedef enum {
  NEGCAM_DEVICE_OPEN_NONE = 0,
  /* Kernel backend through libv4l2 (v4l2_open/v4l2_ioctl/v4l2_mmap): for
   * devices whose formats only libv4l2 converts. libv4l2 hides
   * CREATE_BUFS, EXPBUF and DMABUF, so those answer ENOTTY then. */
  NEGCAM_DEVICE_OPEN_LIBV4L2 = 1 << 0,
  /* For negcamsink: wait() waits for the output queue (a written buffer
   * done, POLLOUT) or an event (POLLPRI) instead of a captured frame. */
  NEGCAM_DEVICE_OPEN_OUTPUT = 1 << 1,
} NegcamDeviceOpenFlags;

/*
 * Open @path: NULL or "" = the embedded engine with @profile (a built-in
 * name or a file path, NULL for webcam, "" an error; a file must be a
 * regular file of at most 64 MiB of text, opened without blocking; errors
 * name the file, line, column and problem, and quote no binary data),
 * else a V4L2 device node (the kernel backend; @profile is unused).
 */
NegcamDevice *negcam_device_open (
    const gchar *path, const gchar *profile, GError **error);
NegcamDevice *negcam_device_open_full (const gchar *path,
    const gchar *profile, NegcamDeviceOpenFlags flags, GError **error);

/* TRUE once the device answered ENODEV (unplugged, module removed). */
gboolean negcam_device_is_gone (NegcamDevice *dev);
/* The one "device disappeared" error of every element: posted on
 * @element, naming the device and its @card (NULL: not named), with
 * "@what: ENODEV" as debug text. Returns GST_FLOW_ERROR. */
GstFlowReturn negcam_device_post_lost (NegcamDevice *dev, GstElement *element,
    const gchar *card, const gchar *what);
/* "embedded profile webcam", "/dev/video0": for messages. */
const gchar *negcam_device_get_description (NegcamDevice *dev);
/* TRUE when the device paces frames itself (a real device): then the
 * element waits on the device, not on the clock, in live mode. */
gboolean negcam_device_is_self_paced (NegcamDevice *dev);
/* Requests of one class made so far. */
guint negcam_device_count (NegcamDevice *dev, NegcamRequestType type);

/*
 * Events (negcamsink): subscribe to V4L2_EVENT_SOURCE_CHANGE; 0 or
 * -errno (-ENOTTY: the device has no events). collect_events() dequeues
 * every pending event (DQEVENT) and remembers a source change; a kernel
 * device is polled for POLLPRI first, so no DQEVENT is made (per frame)
 * while no event waits;
 * take_source_change() collects, then returns and clears what was seen.
 */
gint negcam_device_subscribe_source_change (NegcamDevice *dev);
void negcam_device_collect_events (NegcamDevice *dev);
gboolean negcam_device_take_source_change (NegcamDevice *dev);

NegcamDevice *negcam_device_ref (NegcamDevice *dev);
void negcam_device_unref (NegcamDevice *dev);

gint negcam_device_ioctl (
    NegcamDevice *dev, unsigned long request, gpointer arg);
gpointer negcam_device_mmap (NegcamDevice *dev, guint32 offset, guint32 length);
void negcam_device_munmap (NegcamDevice *dev, gpointer addr, guint32 length);
gint negcam_device_wait (NegcamDevice *dev, gint64 timeout_us);

/*
 * Capture the next frame of the streaming capture queue into @dst, @size
 * bytes of memory the device did not allocate (a downstream element's
 * buffer), as a DQBUF would deliver it: @v gets its sequence, field,
 * timestamp, flags and bytesused (index and memory 0). Counted as a
 * DQBUF. Only a device that draws its frames can (the embedded engine:
 * negcam_device_can_capture_into()); a kernel device answers -ENOTTY,
 * since its frames are in its own buffers and reaching @dst would take a
 * copy. 0 or -errno (-EINVAL: not streaming).
 */
gboolean negcam_device_can_capture_into (NegcamDevice *dev);
gint negcam_device_capture_into (
    NegcamDevice *dev, gpointer dst, guint32 size, struct v4l2_buffer *v);
void negcam_device_set_flushing (NegcamDevice *dev, gboolean flushing);

/*
 * Single- and multiplanar formats and buffers (V4L2_BUF_TYPE_VIDEO_CAPTURE
 * or _MPLANE, chosen once per device): the element speaks one vocabulary,
 * the single-planar v4l2_pix_format, and these translate at the request.
 */
/* TRUE for the _MPLANE buffer types (fmt.pix_mp, v4l2_buffer.m.planes). */
gboolean negcam_buf_type_is_mplane (guint32 type);
/* The capture type a node with QUERYCAP @device_caps is driven with:
 * single-planar when it has it, else multiplanar; 0 when neither. */
guint32 negcam_capture_type (guint32 device_caps);
/* @f as a single-planar format: for pix_mp its size, fourcc, field and
 * colorimetry, plane 0's bytesperline and the planes' sizeimage summed. */
void negcam_format_get_pix (
    const struct v4l2_format *f, struct v4l2_pix_format *pix);
/* Fill @f (its type set) from @pix, to ask TRY/S_FMT: for pix_mp one
 * plane with @pix's bytesperline and sizeimage (the driver gives the
 * fourcc's planes in its answer). */
void negcam_format_set_pix (
    struct v4l2_format *f, const struct v4l2_pix_format *pix);
/* Memory planes (buffers per frame) of @f: pix_mp.num_planes, else 1. */
guint negcam_format_n_planes (const struct v4l2_format *f);
/* Plane @i's bytesperline and sizeimage in @f (plane 0: pix's). */
guint32 negcam_format_plane_stride (const struct v4l2_format *f, guint i);
guint32 negcam_format_plane_size (const struct v4l2_format *f, guint i);
/* Prepare @v for a request on a queue of @type with @memory; for a
 * multiplanar queue @planes (@n_planes of them) becomes v->m.planes. */
void negcam_buffer_init (struct v4l2_buffer *v, guint32 type, guint32 memory,
    struct v4l2_plane *planes, guint n_planes);
/* Bytes the driver filled: v->bytesused, or the planes' summed. */
guint32 negcam_buffer_bytesused (const struct v4l2_buffer *v);

/* Registers the "negcamdevice" debug category: every request and its
 * answer, the format cache, the pools (idempotent). */
void negcam_device_debug_init (void);

/* Request counters. */
guint negcam_device_count_total (NegcamDevice *dev);
/* Format-vocabulary requests only (QUERYCAP..CTRL): what negotiation costs. */
guint negcam_device_count_negotiation (NegcamDevice *dev);
const gchar *negcam_request_type_name (NegcamRequestType t);
/* "YUYV": the four characters of a V4L2 fourcc (non-printable ones as '.'),
 * the engine's negcam_fourcc_str(); request names are the engine's
 * negcam_ioctl_name(). */
const gchar *negcam_fourcc_to_string (guint32 fourcc, gchar buf[5]);

/* The embedded backend's hooks for tests and the sink's loop stand-in. */

/*
 * The embedded device's stand-in for a consumer on the other side of a
 * loop (what negcam.ko does when a reader sets a format, docs/negcamsink.md):
 * from now on G_FMT on the output queue answers @wanted (completed by
 * TRY_FMT; until the next S_FMT there) and a V4L2_EVENT_SOURCE_CHANGE is
 * queued for subscribers. Returns 0, -EINVAL when @dev is not embedded or
 * the profile has no output queue.
 */
gint negcam_device_embedded_source_change (
    NegcamDevice *dev, const struct v4l2_pix_format *wanted);
struct negcam_faults; /* engine/profile.h */

/* The embedded capture queue's faults from now on (docs/faults.md; NULL:
 * the profile's). 0, or -EINVAL when @dev is not embedded. */
gint negcam_device_embedded_set_faults (
    NegcamDevice *dev, const struct negcam_faults *f);
/* Buffers the embedded output queue consumed (DQBUF of OUTPUT), and the
 * bytesused of the last one. */
guint negcam_device_embedded_output_frames (
    NegcamDevice *dev, guint32 *last_bytesused);

#define NEGCAM_DEVICE_ERROR (negcam_device_error_quark ())
GQuark negcam_device_error_quark (void);
typedef enum {
  NEGCAM_DEVICE_ERROR_PROFILE, /* missing or malformed profile */
  NEGCAM_DEVICE_ERROR_OPEN,
  NEGCAM_DEVICE_ERROR_UNSUPPORTED, /* e.g. libv4l2 asked, not built in */
} NegcamDeviceError;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NegcamDevice, negcam_device_unref)

G_END_DECLS

#endif /* __NEGCAM_DEVICE_H__ */
