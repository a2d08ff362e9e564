/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's private header: the instance struct and the functions the
 * files of the element share. Included only by negcamsrc*.c; the public
 * header is negcamsrc.h.
 *
 * The element is split by concern, one file each:
 *   negcamsrc.c            the element: class, properties, the URI handler,
 *                          state changes (start, stop, unlock)
 *   negcamsrc-device.c     the device: open on NULL->READY, close, its loss
 *   negcamsrc-negotiate.c  caps queries, fixation and negotiation
 *                          (TRY_FMT, S_FMT, S_PARM), the negotiated message
 *   negcamsrc-alloc.c      buffers: decide_allocation, our pool or
 *                          downstream's, releasing the device's buffers
 *   negcamsrc-timing.c     the frame clock: waits, timestamps, sequence
 *                          gaps, is-live changes, the latency query
 *   negcamsrc-frames.c     create(): STREAMON, taking a frame, the copy
 * Calls go one way only: negcamsrc.c calls the parts, negotiate calls
 * alloc and device, frames calls timing and device; device, alloc and
 * timing call no other file of the element (tests/check-layers.py).
 *
 * Locks, as the fields below say: the object lock guards the properties,
 * the statistics, src->card, src->pool's pointer and the clock id;
 * cache_lock guards dev and cache (the format cache); the negotiated state
 * and the frame clock belong to the streaming thread. Lock order:
 * cache_lock before the object lock. No lock of ours is held while
 * posting a message or calling another element.
 */
#ifndef __GST_NEGCAM_SRC_PRIVATE_H__
#define __GST_NEGCAM_SRC_PRIVATE_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "negcamsrc.h"
#include "negcamdevice.h"
#include "negcamformatcache.h"
#include "negcampool.h"
#include "negcamfixate.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (negcamsrc_debug);

/* Caps of the GstReferenceTimestampMeta carrying the driver's raw
 * CLOCK_MONOTONIC buffer timestamp. */
#define NEGCAM_REFERENCE_CAPS "timestamp/x-linux-monotonic"

struct _GstNegcamSrc {
  GstPushSrc parent;

  /* Properties, under the object lock. */
  gchar *profile;
  gchar *device;
  gchar *faults; /* the 'faults' property as given (docs/faults.md) */
  gboolean is_live;
  GstNegcamPattern pattern;
  GstNegcamPrefer prefer;
  guint queue_size;
  NegcamPoolMemory io_mode;
  gboolean libv4l2;

  /* The device, open from READY to NULL.
   * cache_lock guards the pointers dev and cache (set on NULL->READY,
   * cleared on READY->NULL) and the format cache: caps queries (any
   * thread), fixate and the choose/try phases of negotiation take it.
   * The streaming thread uses dev without it between start and stop: the
   * pointer cannot change then (it is cleared only after streaming
   * stopped) and the device serialises its requests itself.
   * Never held while posting a message or calling another element (peer
   * caps query, set_caps): negotiation records an error and posts it
   * after unlocking. Take it scoped (g_autoptr (GMutexLocker)).
   * Lock order: cache_lock before the object lock, never the other way
   * round. */
  NegcamDevice *dev;
  /* V4L2_BUF_TYPE_VIDEO_CAPTURE or _MPLANE, chosen at open from QUERYCAP
   * (negcam_capture_type) and set before dev; every format, buffer and
   * stream request of the element names it. */
  guint32 buf_type;
  gchar *card;
  GMutex cache_lock;
  NegcamFormatCache *cache;

  /* Negotiated state, streaming thread only. */
  GstCaps *configured;
  struct v4l2_format fmt; /* as S_FMT answered, of type buf_type */
  struct v4l2_pix_format pix; /* fmt, single-planar (negcam_format_get_pix) */
  struct v4l2_fract interval; /* as S_PARM gave it */
  struct v4l2_fract asked; /* as asked of S_PARM (0/0: none) */
  GstVideoInfo info;
  gboolean is_video;
  NegcamPool *pool;
  /* Downstream's pool, when the device draws into its buffers
   * (negcam_device_capture_into, the embedded engine): frames go there
   * with no copy; src->pool stays the fallback. */
  GstBufferPool *down_pool;
  gboolean need_copy; /* device strides, no GstVideoMeta downstream */
  gboolean streaming;
  guint neg_mark; /* request count at the end of the last negotiation */
  gint mark_counts[NEGCAM_REQ_COUNT]; /* per type, at the same moment */

  /* Timing: running time of the next frame. clock_id (kept, re-armed each
   * frame) and clock_ids_made under the object lock. */
  GstClockTime next_time;
  gboolean stream_live; /* is-live when next_time was last anchored */
  GstClockID clock_id;
  guint clock_ids_made;
  gboolean flushing;
  guint32 expected_seq;
  /* After a source change (a fault): its size, which the next negotiation
   * must take; 0 when none. Streaming thread. */
  guint source_width, source_height;
  gboolean have_seq;
  guint broken; /* frames with V4L2_BUF_FLAG_ERROR in a row */
  guint pool_created; /* CREATE_BUFS growth seen (latency changes) */
  GstCaps *reference_caps;
  GstClockTime first_ts; /* driver timestamp of the first frame, non-live */

  /* Statistics, under the object lock. */
  guint64 frames, drops, lost, copies;
  guint negotiations;
  guint reference_metas_added; /* GstReferenceTimestampMeta, per buffer */
};

/* negcamsrc-device.c */
gboolean gst_negcam_src_open (GstNegcamSrc *src);
gboolean gst_negcam_src_set_faults (GstNegcamSrc *src, const gchar *text);
void gst_negcam_src_apply_faults (GstNegcamSrc *src, NegcamDevice *dev);
void gst_negcam_src_close (GstNegcamSrc *src);
GstFlowReturn gst_negcam_src_device_lost (GstNegcamSrc *src, const gchar *what);

/* negcamsrc-negotiate.c: GstBaseSrc's caps vmethods */
GstCaps *gst_negcam_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter);
GstCaps *gst_negcam_src_fixate (GstBaseSrc *bsrc, GstCaps *caps);
gboolean gst_negcam_src_negotiate (GstBaseSrc *bsrc);
gboolean gst_negcam_src_set_caps (GstBaseSrc *bsrc, GstCaps *caps);

/* negcamsrc-alloc.c */
gboolean gst_negcam_src_decide_allocation (GstBaseSrc *bsrc, GstQuery *query);
void gst_negcam_src_release_device (GstNegcamSrc *src);

/* negcamsrc-timing.c */
GstClockTime gst_negcam_src_buffer_duration (GstNegcamSrc *src);
GstClockTime gst_negcam_src_running_time_now (GstNegcamSrc *src);
GstFlowReturn gst_negcam_src_wait_clock (
    GstNegcamSrc *src, GstClockTime running_time);
gboolean gst_negcam_src_follow_liveness (GstNegcamSrc *src, gboolean live);
guint32 gst_negcam_src_stamp (GstNegcamSrc *src, GstBuffer *buf, gboolean live);
gboolean gst_negcam_src_query_latency (GstNegcamSrc *src, GstQuery *query);

/* negcamsrc-frames.c: GstPushSrc's create */
GstFlowReturn gst_negcam_src_create (GstPushSrc *psrc, GstBuffer **outbuf);

G_END_DECLS

#endif /* __GST_NEGCAM_SRC_PRIVATE_H__ */
