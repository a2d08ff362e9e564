/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc's frame clock, see negcamsrc-private.h: the wait for the next
 * frame on the pipeline clock, buffer timestamps (from the clock or from
 * the driver's CLOCK_MONOTONIC stamps), sequence gaps posted as QoS, the
 * frame clock following is-live, and the latency query.
 *
 * Locking: src->next_time and the sequence state belong to the streaming
 * thread; src->clock_id, src->flushing and the counters are under the
 * object lock, which unlock() also takes to unschedule the wait. QoS and
 * LATENCY messages are posted with no lock held.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <time.h>

#include "negcamsrc-private.h"

#define GST_CAT_DEFAULT negcamsrc_debug

/* Buffers per frame interval: 2 when each holds one field
 * (V4L2_FIELD_ALTERNATE, interlace-mode=alternate), else 1. */
static guint
buffers_per_frame (GstNegcamSrc *src)
{
  return src->pix.field == V4L2_FIELD_ALTERNATE ? 2 : 1;
}

/* How long one buffer lasts: the negotiated frame interval, a field's
 * share of it for one field per buffer. */
GstClockTime
gst_negcam_src_buffer_duration (GstNegcamSrc *src)
{
  const struct v4l2_fract *iv = &src->interval;

  if (!iv->numerator || !iv->denominator)
    return GST_CLOCK_TIME_NONE;
  return gst_util_uint64_scale (GST_SECOND, iv->numerator,
      (guint64)iv->denominator * buffers_per_frame (src));
}

/* Waits on one GstClockID kept for the life of the stream and re-armed
 * every frame (gst_clock_single_shot_id_reinit): no allocation per frame.
 * A new id only when the pipeline clock changes. unlock() unschedules it;
 * the flushing check and the re-arm happen under the object lock, so an
 * unlock either is seen before the wait or wakes it. */
GstFlowReturn
gst_negcam_src_wait_clock (GstNegcamSrc *src, GstClockTime running_time)
{
  GstClock *clock;
  GstClockID id;
  GstClockReturn cret;
  GstClockTime base_time, t;

  clock = gst_element_get_clock (GST_ELEMENT (src));
  if (!clock)
    return GST_FLOW_OK;
  base_time = gst_element_get_base_time (GST_ELEMENT (src));
  t = base_time + running_time;
  GST_OBJECT_LOCK (src);
  if (src->flushing) {
    GST_OBJECT_UNLOCK (src);
    gst_object_unref (clock);
    return GST_FLOW_FLUSHING;
  }
  if (src->clock_id
      && (!gst_clock_id_uses_clock (src->clock_id, clock)
          || !gst_clock_single_shot_id_reinit (clock, src->clock_id, t)))
    g_clear_pointer (&src->clock_id, gst_clock_id_unref);
  if (!src->clock_id) {
    src->clock_id = gst_clock_new_single_shot_id (clock, t);
    src->clock_ids_made++;
  }
  id = gst_clock_id_ref (src->clock_id);
  GST_OBJECT_UNLOCK (src);

  cret = gst_clock_id_wait (id, NULL);

  gst_clock_id_unref (id);
  gst_object_unref (clock);
  return cret == GST_CLOCK_UNSCHEDULED ? GST_FLOW_FLUSHING : GST_FLOW_OK;
}

GstClockTime
gst_negcam_src_running_time_now (GstNegcamSrc *src)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (src));
  GstClockTime now, base;

  if (!clock)
    return 0;
  now = gst_clock_get_time (clock);
  base = gst_element_get_base_time (GST_ELEMENT (src));
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

static void
gst_negcam_src_report_gap (GstNegcamSrc *src, guint32 expected, guint32 got,
    GstClockTime pts, GstClockTime duration)
{
  guint32 lost = got - expected;
  guint64 frames, total_lost;
  GstMessage *msg;

  GST_OBJECT_LOCK (src);
  src->lost += lost;
  frames = src->frames;
  total_lost = src->lost;
  GST_OBJECT_UNLOCK (src);
  GST_INFO_OBJECT (src,
      "sequence gap: expected %s %u, got %u (%u lost, "
      "%" G_GUINT64_FORMAT " in total)",
      buffers_per_frame (src) == 2 ? "field" : "frame", expected, got, lost,
      total_lost);
  msg = gst_message_new_qos (GST_OBJECT (src),
      gst_base_src_is_live (GST_BASE_SRC (src)), pts, GST_CLOCK_TIME_NONE, pts,
      duration);
  gst_message_set_qos_values (msg, (gint64)(lost * duration), 1.0, 1000000);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, frames, total_lost);
  gst_element_post_message (GST_ELEMENT (src), msg);
}

static GstClockTime
monotonic_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (GstClockTime)ts.tv_sec * GST_SECOND + ts.tv_nsec;
}

/* The driver-timestamp meta this element put on @buf in an earlier
 * frame, if any (matched by our caps object, no allocation). */
static GstReferenceTimestampMeta *
gst_negcam_src_reference_meta (GstNegcamSrc *src, GstBuffer *buf)
{
  gpointer state = NULL;
  GstMeta *m;

  while ((m = gst_buffer_iterate_meta_filtered (
              buf, &state, GST_REFERENCE_TIMESTAMP_META_API_TYPE))) {
    GstReferenceTimestampMeta *r = (GstReferenceTimestampMeta *)m;

    if (r->reference == src->reference_caps)
      return r;
  }
  return NULL;
}

/* Running time at which the frame in @buf started, from the driver's
 * CLOCK_MONOTONIC timestamp: how long ago the driver stamped it, taken
 * from the running time now (so any pipeline clock works). The raw
 * timestamp goes along as a GstReferenceTimestampMeta. Returns
 * GST_CLOCK_TIME_NONE when the driver gives no monotonic timestamp. */
static GstClockTime
gst_negcam_src_driver_time (
    GstNegcamSrc *src, GstBuffer *buf, GstClockTime duration, gboolean live)
{
  guint32 flags;
  GstClockTime ts, age, now_rt, start;
  GstReferenceTimestampMeta *meta;

  negcam_pool_get_last_timestamp (src->pool, &flags, &ts);
  meta = gst_negcam_src_reference_meta (src, buf);
  if ((flags & V4L2_BUF_FLAG_TIMESTAMP_MASK)
          != V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC
      || ts == 0) {
    if (meta)
      gst_buffer_remove_meta (buf, (GstMeta *)meta);
    return GST_CLOCK_TIME_NONE;
  }
  if (!meta) {
    /* Once per pool buffer: POOLED keeps it through the pool's reset, and
     * every later frame in this buffer only updates it. */
    meta = gst_buffer_add_reference_timestamp_meta (
        buf, src->reference_caps, ts, GST_CLOCK_TIME_NONE);
    GST_META_FLAG_SET (meta, GST_META_FLAG_POOLED);
    GST_OBJECT_LOCK (src);
    src->reference_metas_added++;
    GST_OBJECT_UNLOCK (src);
  }
  meta->timestamp = ts;
  meta->duration =
      GST_CLOCK_TIME_IS_VALID (duration) ? duration : GST_CLOCK_TIME_NONE;
  /* End-of-frame stamps: the frame began one interval earlier. */
  start = ts;
  if ((flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == V4L2_BUF_FLAG_TSTAMP_SRC_EOF
      && GST_CLOCK_TIME_IS_VALID (duration) && start >= duration)
    start -= duration;
  if (!live) {
    /* No clock to relate to: the stream starts at 0. */
    if (!GST_CLOCK_TIME_IS_VALID (src->first_ts))
      src->first_ts = start;
    return start >= src->first_ts ? start - src->first_ts : 0;
  }
  now_rt = gst_negcam_src_running_time_now (src);
  age = monotonic_now ();
  age = age > start ? age - start : 0;
  return now_rt > age ? now_rt - age : 0;
}

/* Phase 2: is-live may change while PLAYING. Non-live frames run ahead of
 * the clock (their times are as fast as downstream takes them), so on
 * becoming live the frame clock restarts at the running time now instead
 * of waiting for a due time far ahead; becoming non-live just continues.
 * The latency changes either way. No lock held; returns TRUE on a change
 * (the next buffer is a discontinuity). */
gboolean
gst_negcam_src_follow_liveness (GstNegcamSrc *src, gboolean live)
{
  if (live == src->stream_live)
    return FALSE;
  GST_INFO_OBJECT (src, "is-live changed to %s while streaming",
      live ? "true" : "false");
  src->stream_live = live;
  if (live)
    src->next_time = gst_negcam_src_running_time_now (src);
  gst_element_post_message (
      GST_ELEMENT (src), gst_message_new_latency (GST_OBJECT (src)));
  return TRUE;
}

/* Phase 4: PTS, DURATION and DISCONT of @buf; a sequence gap posts QoS,
 * a grown pool posts LATENCY. Counters under the object lock, messages
 * after it. Returns the buffer's position in the stream (in buffers). */
guint32
gst_negcam_src_stamp (GstNegcamSrc *src, GstBuffer *buf, gboolean live)
{
  GstClockTime duration = gst_negcam_src_buffer_duration (src);
  guint created;
  guint32 seq;

  /* Both fields of a frame carry the frame's sequence number, the field
   * tells them apart. */
  seq = GST_BUFFER_OFFSET (buf) * buffers_per_frame (src)
      + (GST_VIDEO_BUFFER_IS_BOTTOM_FIELD (buf) ? 1 : 0);
  /* A device with its own frame clock: the driver's timestamp says when
   * the frame was taken (arrival time only if it gives none). */
  if (negcam_device_is_self_paced (src->dev)) {
    GstClockTime t = gst_negcam_src_driver_time (src, buf, duration, live);

    if (GST_CLOCK_TIME_IS_VALID (t))
      src->next_time = t;
    else if (live)
      src->next_time = gst_negcam_src_running_time_now (src);
  }
  /* The pool grew (CREATE_BUFS): the device can now hold more frames, so
   * the maximum latency changed. */
  created = negcam_pool_get_created (src->pool);
  if (created != src->pool_created) {
    src->pool_created = created;
    gst_element_post_message (
        GST_ELEMENT (src), gst_message_new_latency (GST_OBJECT (src)));
  }
  GST_BUFFER_PTS (buf) = src->next_time;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = duration;
  src->next_time += duration;
  GST_OBJECT_LOCK (src);
  src->frames++;
  GST_OBJECT_UNLOCK (src);

  if (!src->have_seq || seq != src->expected_seq)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  if (src->have_seq && (gint32)(seq - src->expected_seq) > 0) {
    gst_negcam_src_report_gap (
        src, src->expected_seq, seq, GST_BUFFER_PTS (buf), duration);
  } else if (src->have_seq && seq != src->expected_seq) {
    /* Backwards: the driver restarted its count (or repeats a number);
     * nothing was lost that we can tell. */
    GST_INFO_OBJECT (src, "sequence went back: expected frame %u, got %u",
        src->expected_seq, seq);
  }
  src->have_seq = TRUE;
  src->expected_seq = seq + 1;
  return seq;
}

/* The latency query (GstBaseSrc answers every other query): a live
 * source is one frame late at least. */
gboolean
gst_negcam_src_query_latency (GstNegcamSrc *src, GstQuery *query)
{
  GstClockTime frame = gst_negcam_src_buffer_duration (src), max;
  guint held;

  if (!src->configured || !GST_CLOCK_TIME_IS_VALID (frame))
    return FALSE;
  if (!gst_base_src_is_live (GST_BASE_SRC (src))) {
    gst_query_set_latency (query, FALSE, 0, 0);
    return TRUE;
  }
  /* A frame is complete one interval after it began (PTS is its start);
   * the device can hold as many frames as buffers really queued in it
   * before we read (while not streaming yet: all the pool's). With one
   * field per buffer, "frame" is a field and its interval half. */
  held = 1;
  if (src->pool) {
    held = src->streaming ? negcam_pool_get_queued (src->pool)
                          : negcam_pool_get_count (src->pool);
  }
  max = frame * MAX (held, 1);
  gst_query_set_latency (query, TRUE, frame, max);
  GST_DEBUG_OBJECT (src,
      "latency min %" GST_TIME_FORMAT " max %" GST_TIME_FORMAT,
      GST_TIME_ARGS (frame), GST_TIME_ARGS (max));
  return TRUE;
}
