/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsink's private header: the instance struct and the functions the
 * files of the element share. Included only by negcamsink*.c; the public
 * header is negcamsink.h.
 *
 * The element is split by concern, one file each, as negcamsrc is:
 *   negcamsink.c            the element: class, properties, statistics,
 *                           the device's open and close (NULL <-> READY),
 *                           the accept-caps query, flushing, start, stop
 *   negcamsink-negotiate.c  caps and set_caps (TRY_FMT, S_FMT, S_PARM, a
 *                           new pool of device buffers)
 *   negcamsink-render.c     propose_allocation, render(): the device's
 *                           own buffers queued as they are, any other
 *                           copied; following the consumer's format
 *   negcamsink-import.c     a queued frame's size and count, and
 *                           upstream's dma-bufs queued as they are
 *                           (V4L2_MEMORY_DMABUF import)
 * Calls go one way: negcamsink.c calls the parts, render calls import,
 * import calls negotiate (tests/check-layers.py).
 *
 * Locking: the object lock covers the properties, the counters and
 * sink->pool (read by "stats" from any thread); dev_lock covers sink->dev
 * and sink->cache (caps queries come from any thread). Neither is held
 * while posting a message or pushing an event.
 */
#ifndef __GST_NEGCAM_SINK_PRIVATE_H__
#define __GST_NEGCAM_SINK_PRIVATE_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "negcamsink.h"
#include "negcamdevice.h"
#include "negcamformatcache.h"
#include "negcampool.h"
#include "negcamsinkcore.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (negcamsink_debug);

#define OUTPUT V4L2_BUF_TYPE_VIDEO_OUTPUT

struct _GstNegcamSink {
  GstBaseSink parent;
  NegcamSinkCore core; /* QoS, RECONFIGURE upstream (negcamsinkcore.c) */

  /* properties, object lock */
  gchar *device, *profile, *card;
  NegcamPoolMemory io_mode;
  gboolean dmabuf_import;
  guint queue_size;

  /* dev_lock */
  GMutex dev_lock;
  NegcamDevice *dev;
  NegcamFormatCache *cache;
  gboolean events; /* SOURCE_CHANGE subscribed */

  /* streaming thread */
  struct v4l2_format fmt;
  GstVideoInfo info;
  gboolean is_video;
  GstCaps *configured;

  gboolean import_refused; /* the device took no dma-buf of upstream's */

  /* object lock */
  NegcamPool *pool;
  guint64 frames, copies, imports;
  guint negotiations, source_changes, reconfigures;
};

/* The device answered ENODEV: say so (negcam_device_post_lost). */
static inline GstFlowReturn
gst_negcam_sink_device_lost (GstNegcamSink *sink, const gchar *what)
{
  GstFlowReturn ret;
  gchar *card;

  GST_OBJECT_LOCK (sink);
  card = g_strdup (sink->card ? sink->card : "");
  GST_OBJECT_UNLOCK (sink);
  ret = negcam_device_post_lost (sink->dev, GST_ELEMENT (sink), card, what);
  g_free (card);
  return ret;
}

/* negcamsink-negotiate.c */
GstCaps *gst_negcam_sink_get_caps (GstBaseSink *bsink, GstCaps *filter);
void gst_negcam_sink_stop_pool (GstNegcamSink *sink, NegcamPool *pool);
void gst_negcam_sink_release_device (GstNegcamSink *sink);
gboolean gst_negcam_sink_set_caps (GstBaseSink *bsink, GstCaps *caps);

/* negcamsink-render.c */
NegcamPool *gst_negcam_sink_ref_pool (GstNegcamSink *sink);
gboolean gst_negcam_sink_propose_allocation (
    GstBaseSink *bsink, GstQuery *query);
GstFlowReturn gst_negcam_sink_render (GstBaseSink *bsink, GstBuffer *buf);

/* negcamsink-import.c */
guint32 gst_negcam_sink_bytesused (GstNegcamSink *sink, GstBuffer *buf);
GstFlowReturn gst_negcam_sink_queued (
    GstNegcamSink *sink, gint ret, guint32 used);
gboolean gst_negcam_sink_importable (
    GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf);
gboolean gst_negcam_sink_start_import (GstNegcamSink *sink, NegcamPool *pool);
void gst_negcam_sink_end_import (GstNegcamSink *sink, NegcamPool *pool);
GstFlowReturn gst_negcam_sink_import (
    GstNegcamSink *sink, NegcamPool *pool, GstBuffer *buf);

G_END_DECLS

#endif /* __GST_NEGCAM_SINK_PRIVATE_H__ */
