/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one way the element tests run negcamsrc in a pipeline and read what
 * happened: one runner (run_launch, and run_negcamsrc for the common
 * "negcamsrc ! capsfilter ! fakesink"), one outcome. Used by the embedded
 * tests (test_negcamsrc.c), the device tests run in the VM
 * (test_negcamsrc_device.c) and the kernel-backend comparison
 * (test_negcamsrc_kernel.c); the filters they run are in filters.h.
 */
#ifndef NEGCAM_TEST_HARNESS_H
#define NEGCAM_TEST_HARNESS_H

#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

/* A run bounds a hang, not a speed: far above any run under TCG. */
#define HARNESS_TIMEOUT_S 120

typedef struct {
  GstStructure *msg;            /* the first negcam-negotiated, or NULL */
  GError *error;                /* the first error, or NULL */
  gchar *debug;                 /* its debug text */
  guint requests;               /* the source's requests since open */
} Outcome;

static inline void
outcome_clear (Outcome * o)
{
  if (o->msg)
    gst_structure_free (o->msg);
  g_clear_error (&o->error);
  g_free (o->debug);
  memset (o, 0, sizeof (*o));
}

/* The negotiated caps; the test fails when there are none. */
static inline GstCaps *
outcome_caps (const Outcome * o)
{
  GstCaps *caps = NULL;

  fail_unless (o->msg != NULL, "no negcam-negotiated message");
  gst_structure_get (o->msg, "caps", GST_TYPE_CAPS, &caps, NULL);
  fail_unless (caps != NULL, "negcam-negotiated without caps");
  return caps;
}

/* What @src (taken, a negcamsrc with its properties set) offers in
 * READY to a caps query with @filter (NULL: none). */
static inline GstCaps *
ready_caps_filtered (GstElement * src, GstCaps * filter)
{
  GstPad *pad;
  GstCaps *caps;

  fail_unless (src != NULL);
  fail_unless (gst_element_set_state (src, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS, "%s: READY failed", GST_OBJECT_NAME (src));
  pad = gst_element_get_static_pad (src, "src");
  caps = gst_pad_query_caps (pad, filter);
  gst_object_unref (pad);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  return caps;
}

/* ready_caps_filtered() with no filter. */
static inline GstCaps *
ready_caps (GstElement * src)
{
  return ready_caps_filtered (src, NULL);
}

/* The error message for the test's own messages ("" without one). */
static inline const gchar *
outcome_error (const Outcome * o)
{
  return o->error ? o->error->message : "";
}

/* One bus message into @o; TRUE when the run is over. */
static inline gboolean
outcome_take (Outcome * o, GstMessage * m)
{
  switch (GST_MESSAGE_TYPE (m)) {
    case GST_MESSAGE_ELEMENT:
      if (!o->msg && gst_message_has_name (m, "negcam-negotiated"))
        o->msg = gst_structure_copy (gst_message_get_structure (m));
      return FALSE;
    case GST_MESSAGE_ERROR:
      if (!o->error)
        gst_message_parse_error (m, &o->error, &o->debug);
      return TRUE;
    default:
      return TRUE;
  }
}

/* Run the pipeline @desc, whose negcamsrc is named "src", until EOS or
 * an error; its request count ("negotiation-requests" of the stats) into
 * o->requests. */
static inline void
run_launch (const gchar * desc, Outcome * o)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstElement *src;
  GstStructure *stats = NULL;
  GstBus *bus;
  gboolean done = FALSE;

  memset (o, 0, sizeof (*o));
  fail_unless (pipe && !err, "%s: %s", desc, err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  fail_unless (src != NULL, "%s: no element named src", desc);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus,
        HARNESS_TIMEOUT_S * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_ELEMENT);

    fail_unless (m != NULL, "timeout: %s", desc);
    done = outcome_take (o, m);
    gst_message_unref (m);
  }
  g_object_get (src, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint (stats, "negotiation-requests",
          &o->requests));
  gst_structure_free (stats);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

/* negcamsrc name=src @props ! capsfilter caps=@filter ! fakesink. */
static inline void
run_negcamsrc (const gchar * props, const gchar * filter, Outcome * o)
{
  gchar *desc = g_strdup_printf ("negcamsrc name=src %s ! capsfilter "
      "caps=\"%s\" ! fakesink", props, filter);

  run_launch (desc, o);
  g_free (desc);
}

#endif
