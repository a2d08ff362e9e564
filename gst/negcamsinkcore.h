/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The renegotiating core of negcam's sinks: negcamsink (a loop's output
 * node), negcamuvcsink (USB) and negcampwsink (PipeWire) each serve a far
 * side that chooses the format (the loop's consumer, the host's COMMIT, a
 * PipeWire consumer's Format). What follows from that choice is the same
 * for the three and lives here: the chosen format as the first caps
 * structure, RECONFIGURE upstream (the converting bins,
 * negcamconvertbin.c, follow it), the accept-caps answer, the frame
 * checked against the chosen format and packed as V4L2 lays it out, late
 * frames dropped (QoS, as display sinks do) and, for a transport that
 * knows whether anyone reads, the pipeline held while no one does.
 */
#ifndef __GST_NEGCAM_SINK_CORE_H__
#define __GST_NEGCAM_SINK_CORE_H__

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <gst/video/video.h>

#include "engine.h"

G_BEGIN_DECLS

typedef struct {
  GstBaseSink *sink;
  const gchar *name; /* the element's, for messages: "negcampwsink" */
  const gchar *chose; /* the chosen message's word: "chosen", "commit" */

  /* lock: the demand (producer on demand) */
  GMutex lock;
  GCond cond;
  gboolean demand;   /* someone reads (always TRUE without on-demand) */
  gboolean flushing; /* unlock(): give the streaming thread back */
  guint64 idle;      /* buffers that reached render while no one read */
  GstCaps *pending;  /* chosen on another thread, RECONFIGURE not sent yet */

  /* object lock of the sink */
  guint chosen, reconfigures;
  gchar *profile, *label; /* the properties (negcamuvcsink, negcampwsink) */
} NegcamSinkCore;

/* Demand on; @on_demand: start with no demand (render waits). */
void negcam_sink_core_init (NegcamSinkCore *core, GstBaseSink *sink,
    const gchar *name, gboolean on_demand);
void negcam_sink_core_clear (NegcamSinkCore *core);

/* The "profile" (default webcam) and "label" properties, ids
 * @profile_id and @label_id, described in the transport's words. */
void negcam_sink_core_install (GObjectClass *klass, guint profile_id,
    guint label_id, const gchar *profile_blurb, const gchar *label_blurb);
/* Set or get one of them by @pspec's name; FALSE when it is neither. */
gboolean negcam_sink_core_set_property (
    NegcamSinkCore *core, GParamSpec *pspec, const GValue *value);
gboolean negcam_sink_core_get_property (
    NegcamSinkCore *core, GParamSpec *pspec, GValue *value);
/* Copies of both (g_free them), for opening. */
void negcam_sink_core_profile_label (
    NegcamSinkCore *core, gchar **profile, gchar **label);

/* @chosen first (may be NULL), then @all, then only what @filter allows. */
GstCaps *negcam_sink_core_caps (
    GstCaps *chosen, GstCaps *all, GstCaps *filter);
/* The accept-caps answer: fixed caps that intersect the sink's. TRUE
 * when @query was one. */
gboolean negcam_sink_core_accept_caps (NegcamSinkCore *core, GstQuery *query);

/* New caps: from a live upstream, QoS on and what is later than one
 * frame (at least 20 ms) dropped, else both off; posts "NAME-caps" with
 * the negotiation count @n. */
void negcam_sink_core_set_caps (NegcamSinkCore *core, GstCaps *caps, guint n);

/* The far side chose @caps: "NAME-chosen" posted, RECONFIGURE sent
 * upstream. No lock may be held. TRUE when sent. */
gboolean negcam_sink_core_chose (NegcamSinkCore *core, GstCaps *caps);

/* Do @caps carry @fmt (media type, format, size)? */
gboolean negcam_sink_core_caps_are (
    GstCaps *caps, const struct v4l2_pix_format *fmt);
/* @buf as V4L2 lays it out into @out (@cap bytes): raw planes packed
 * with no padding (@info), anything else as it is. Its length, 0 when it
 * does not fit. */
long negcam_sink_core_pack (const GstVideoInfo *info, gboolean raw,
    GstBuffer *buf, guint8 *out, guint32 cap);

/* The far side chose @caps on a thread that must not call into the
 * pipeline (a transport's own, holding its lock): the streaming thread
 * sends it from negcam_sink_core_wait_demand. Takes @caps. */
void negcam_sink_core_chose_later (NegcamSinkCore *core, GstCaps *caps);

/* Producer on demand: someone reads now, or no one does. */
void negcam_sink_core_set_demand (NegcamSinkCore *core, gboolean demand);
/* render(): wait until someone reads (counting the buffer in hand as
 * idle if it had to), then send what was chosen meanwhile; FALSE when
 * flushing (return GST_FLOW_FLUSHING). */
gboolean negcam_sink_core_wait_demand (NegcamSinkCore *core);
/* The same before any work (a converting bin's entry, no buffer
 * counted): the core of @sink, or NULL when it has none. */
NegcamSinkCore *negcam_sink_core_of (GstElement *sink);
gboolean negcam_sink_core_hold (NegcamSinkCore *core);
/* basesink's unlock and unlock_stop. */
void negcam_sink_core_unlock (NegcamSinkCore *core, gboolean flushing);

/* The counters as fields of @s: chosen, reconfigures, idle and
 * late-dropped (basesink's). */
void negcam_sink_core_stats (NegcamSinkCore *core, GstStructure *s);

G_END_DECLS

#endif /* __GST_NEGCAM_SINK_CORE_H__ */
