/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc properties, states and bad input:
 * is-live toggled while PLAYING keeps frames flowing; properties changed
 * in a state their GST_PARAM_MUTABLE_* flags do not allow are refused with
 * a warning and keep their value; profile="" and libv4l2 without a device
 * are errors in words; io-mode=dmabuf on the embedded device says why;
 * a FIFO, /dev/zero or a huge file as profile fail within seconds; a
 * binary file is not quoted back; a profile whose buffers cannot be
 * allocated gives an error message, not an abort.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* The error @e posts on NULL->READY (which must fail). */
static gchar *
error_text_at_ready (GstElement *e)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *m;
  GError *err = NULL;
  gchar *text;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error message on NULL->READY");
  gst_message_parse_error (m, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  return text;
}

static gchar *
profile_error_text (const gchar *profile)
{
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  gchar *text;

  g_object_set (e, "profile", profile, NULL);
  text = error_text_at_ready (e);
  gst_object_unref (e);
  return text;
}

/* NULL->READY in a thread of its own, waited for at most @seconds: a
 * state change that blocks fails the test instead of hanging it. */
typedef struct
{
  GstElement *e;
  GMutex lock;
  GCond cond;
  gboolean done;
  GstStateChangeReturn ret;
} StateChange;

static gpointer
state_change_thread (gpointer data)
{
  StateChange *sc = data;
  GstStateChangeReturn ret = gst_element_set_state (sc->e, GST_STATE_READY);

  g_mutex_lock (&sc->lock);
  sc->ret = ret;
  sc->done = TRUE;
  g_cond_signal (&sc->cond);
  g_mutex_unlock (&sc->lock);
  return NULL;
}

/* The error text of a profile whose NULL->READY must fail within
 * @seconds. */
static gchar *
profile_fails_within (const gchar *profile, gint seconds)
{
  StateChange sc = { 0 };
  GstBus *bus = gst_bus_new ();
  GstMessage *m;
  GError *err = NULL;
  GThread *t;
  gint64 end = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;
  gchar *text;

  sc.e = gst_element_factory_make ("negcamsrc", NULL);
  gst_element_set_bus (sc.e, bus);
  g_object_set (sc.e, "profile", profile, NULL);
  g_mutex_init (&sc.lock);
  g_cond_init (&sc.cond);
  t = g_thread_new ("set-state", state_change_thread, &sc);
  g_mutex_lock (&sc.lock);
  while (!sc.done && g_cond_wait_until (&sc.cond, &sc.lock, end))
    ;
  g_mutex_unlock (&sc.lock);
  fail_unless (sc.done, "profile=%s: NULL->READY still blocked after %d s",
      profile, seconds);
  g_thread_join (t);
  fail_unless_equals_int (sc.ret, GST_STATE_CHANGE_FAILURE);
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (m != NULL);
  gst_message_parse_error (m, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (sc.e, GST_STATE_NULL);
  gst_object_unref (sc.e);
  gst_object_unref (bus);
  g_mutex_clear (&sc.lock);
  g_cond_clear (&sc.cond);
  return text;
}

static gchar *
write_temp (const gchar *text, gssize len)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("negcam-XXXXXX.profile", &path, NULL);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, text, len, NULL));
  return path;
}

/* Only printable ASCII: nothing of a file's raw bytes. */
static void
assert_printable (const gchar *text)
{
  const guchar *p;

  for (p = (const guchar *)text; *p; p++)
    fail_unless (*p >= 0x20 && *p < 0x7f, "byte 0x%02x in '%s'", *p, text);
}

/* ------------------------------------------------------------------ */
/* is-live while PLAYING                                               */

static gint frames_seen;

static GstPadProbeReturn
count_frame (GstPad *pad, GstPadProbeInfo *info, gpointer unused)
{
  g_atomic_int_inc (&frames_seen);
  return GST_PAD_PROBE_OK;
}

/* Wait (at most @seconds) until @more frames passed after now. */
static gboolean
frames_flow (gint more, gint seconds)
{
  gint start = g_atomic_int_get (&frames_seen);
  gint64 end = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;

  while (g_get_monotonic_time () < end) {
    if (g_atomic_int_get (&frames_seen) - start >= more)
      return TRUE;
    g_usleep (10 * 1000);
  }
  return FALSE;
}

/* Non-live frames run far ahead of the clock (a sink without sync takes
 * them as fast as they come: 300 frames at 30 fps are 10 s of stream
 * time in a fraction of that). Becoming live must restart the frame clock
 * at the running time now, not wait until the stream time is reached;
 * and back. */
GST_START_TEST (test_is_live_toggle_playing)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src is-live=false ! "
      "video/x-raw,format=YUY2,width=160,height=120,framerate=30/1 ! "
      "fakesink name=sink sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, NULL, NULL);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE);
  fail_unless (frames_flow (300, 10), "non-live: no 300 frames in 10 s");

  g_object_set (src, "is-live", TRUE, NULL);
  /* 30 fps: 10 frames take a third of a second */
  fail_unless (frames_flow (10, 5), "is-live=true while PLAYING: stalled");
  g_object_set (src, "is-live", FALSE, NULL);
  fail_unless (frames_flow (300, 5), "is-live=false while PLAYING: stalled");
  g_object_set (src, "is-live", TRUE, NULL);
  fail_unless (frames_flow (10, 5), "is-live=true again: stalled");

  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_if (m != NULL, "error on the bus");
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Mutability                                                          */

/* Each property is flagged, and refused (warning naming it and the
 * state, old value kept) where the flags say so. */
GST_START_TEST (test_mutability_flags)
{
  static const struct
  {
    const gchar *name;
    GParamFlags flag; /* 0: NULL only */
  } props[] = {
    { "profile", 0 },
    { "device", 0 },
    { "libv4l2", 0 },
    { "queue-size", GST_PARAM_MUTABLE_READY },
    { "io-mode", GST_PARAM_MUTABLE_READY },
    { "is-live", GST_PARAM_MUTABLE_PLAYING },
    { "pattern", GST_PARAM_MUTABLE_PLAYING },
    { "prefer", GST_PARAM_MUTABLE_PLAYING },
  };
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  const GParamFlags all = GST_PARAM_MUTABLE_READY | GST_PARAM_MUTABLE_PAUSED
      | GST_PARAM_MUTABLE_PLAYING;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    GParamSpec *ps =
        g_object_class_find_property (G_OBJECT_GET_CLASS (e), props[i].name);

    fail_unless (ps != NULL);
    fail_unless_equals_int (ps->flags & all, props[i].flag);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Set @name to @value on @e and expect a refusal naming @state. */
static void
expect_refused (GstElement *e, const gchar *name, const GValue *value,
    const gchar *state)
{
  GValue before = G_VALUE_INIT, after = G_VALUE_INIT;
  gchar *pattern = g_strdup_printf ("*'%s'*%s*", name, state);

  g_object_get_property (G_OBJECT (e), name, &before);
  g_test_expect_message (NULL, G_LOG_LEVEL_WARNING, pattern);
  g_object_set_property (G_OBJECT (e), name, value);
  g_test_assert_expected_messages ();
  g_object_get_property (G_OBJECT (e), name, &after);
  fail_unless (gst_value_compare (&before, &after) == GST_VALUE_EQUAL,
      "%s changed in %s", name, state);
  g_value_unset (&before);
  g_value_unset (&after);
  g_free (pattern);
}

/* Set the integer-like property @name to @value: it must read back. */
static void
expect_accepted (GstElement *e, const gchar *name, gint value)
{
  GValue v = G_VALUE_INIT, back = G_VALUE_INIT, want = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, value);
  g_object_set_property (G_OBJECT (e), name, &v);
  g_object_get_property (G_OBJECT (e), name, &back);
  g_value_init (&want, G_VALUE_TYPE (&back));
  fail_unless (g_value_transform (&v, &want));
  fail_unless (gst_value_compare (&back, &want) == GST_VALUE_EQUAL,
      "%s not set to %d", name, value);
  g_value_unset (&v);
  g_value_unset (&back);
  g_value_unset (&want);
}

/* While PLAYING: profile, device, libv4l2 (NULL only), queue-size and
 * io-mode (up to READY) are refused; in READY the NULL-only ones are. */
GST_START_TEST (test_refused_while_playing)
{
  GstElement *pipe = gst_parse_launch ("negcamsrc name=src is-live=false ! "
      "fakesink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GValue v = G_VALUE_INIT;

  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
                              10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);

  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, "vga");
  expect_refused (src, "profile", &v, "PLAYING");
  g_value_set_string (&v, "/dev/video9");
  expect_refused (src, "device", &v, "PLAYING");
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_BOOLEAN);
  g_value_set_boolean (&v, TRUE);
  expect_refused (src, "libv4l2", &v, "PLAYING");
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, 7);
  expect_refused (src, "queue-size", &v, "PLAYING");
  g_value_unset (&v);
  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property (
                        G_OBJECT_GET_CLASS (src), "io-mode")));
  g_value_set_enum (&v, 1); /* mmap */
  expect_refused (src, "io-mode", &v, "PLAYING");
  g_value_unset (&v);

  /* mutable while PLAYING: accepted */
  expect_accepted (src, "pattern", 2);

  /* READY: the device is open; profile cannot change any more, queue-size
   * can (it is read when buffers are made) */
  gst_element_set_state (pipe, GST_STATE_READY);
  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, "vga");
  expect_refused (src, "profile", &v, "READY");
  g_value_unset (&v);
  expect_accepted (src, "queue-size", 6);
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_object_set (src, "profile", "vga", NULL);
  {
    gchar *p;

    g_object_get (src, "profile", &p, NULL);
    fail_unless_equals_string (p, "vga");
    g_free (p);
  }
  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* The size of the caps on the harness's sink pad. */
static gint
current_area (GstHarness *h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint w = 0, ht = 0;

  fail_unless (caps != NULL);
  gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w);
  gst_structure_get_int (gst_caps_get_structure (caps, 0), "height", &ht);
  gst_caps_unref (caps);
  return w * ht;
}

static guint
negotiations (GstElement *e)
{
  GstStructure *stats;
  guint n = 0;

  g_object_get (e, "stats", &stats, NULL);
  gst_structure_get_uint (stats, "negotiations", &n);
  gst_structure_free (stats);
  return n;
}

/* prefer while PLAYING applies: the next frames come from a new
 * negotiation (the largest raw frame, where the device's default mode
 * came first). */
GST_START_TEST (test_prefer_while_playing)
{
  GstHarness *h = gst_harness_new ("negcamsrc");
  gint area0, area1 = 0;
  guint before, i;

  g_object_set (h->element, "is-live", FALSE, NULL);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  gst_harness_play (h);
  gst_buffer_unref (gst_harness_pull (h));
  area0 = current_area (h);
  before = negotiations (h->element);

  g_object_set (h->element, "prefer", 1 /* resolution */, NULL);
  for (i = 0; i < 50 && area1 <= area0; i++) {
    gst_buffer_unref (gst_harness_pull (h));
    area1 = current_area (h);
  }
  fail_unless (negotiations (h->element) > before,
      "no negotiation after prefer changed");
  fail_unless (area1 > area0, "frame area still %d after prefer=resolution "
      "(was %d)", area1, area0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Settings that cannot work, said in words                            */

GST_START_TEST (test_profile_empty_is_error)
{
  gchar *text = profile_error_text ("");

  fail_unless (strstr (text, "profile is empty") != NULL, "%s", text);
  fail_unless (strstr (text, "webcam") != NULL, "built-ins not named: %s",
      text);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_libv4l2_without_device)
{
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  gchar *text;

  g_object_set (e, "libv4l2", TRUE, NULL);
  text = error_text_at_ready (e);
  fail_unless (strstr (text, "libv4l2=true needs device=") != NULL, "%s",
      text);
  g_free (text);
  gst_object_unref (e);
}

GST_END_TEST;

/* The error a pipeline posts, waited for at most 20 s. */
static gchar *
pipeline_error_text (GstElement *pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m;
  GError *err = NULL;
  gchar *text;

  m = gst_bus_timed_pop_filtered (
      bus, 20 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR, "no error");
  gst_message_parse_error (m, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (m);
  gst_object_unref (bus);
  return text;
}

/* io-mode=dmabuf on the embedded device: the cause in words, at
 * NULL->READY; set in READY (after the open), at allocation, still in
 * words and not "Internal data stream error". */
GST_START_TEST (test_dmabuf_embedded_says_why)
{
  GstElement *e = gst_element_factory_make ("negcamsrc", NULL);
  GstElement *pipe;
  GstElement *src;
  gchar *text;

  g_object_set (e, "io-mode", 2, NULL);
  text = error_text_at_ready (e);
  fail_unless (strstr (text, "the embedded device cannot export dma-bufs; "
                             "use io-mode=mmap")
          != NULL,
      "%s", text);
  g_free (text);
  gst_object_unref (e);

  pipe = gst_parse_launch ("negcamsrc name=src is-live=false num-buffers=2 ! "
      "fakesink", NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (src, "io-mode", 2, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  text = pipeline_error_text (pipe);
  fail_unless (strstr (text, "cannot export dma-bufs") != NULL
          && strstr (text, "io-mode=mmap") != NULL,
      "%s", text);
  fail_if (strstr (text, "Internal data stream error") != NULL, "%s", text);
  g_free (text);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Bad profile files                                                   */

/* A FIFO nobody ever opens for writing: refused at once, not waited on. */
GST_START_TEST (test_fifo_profile_fails_fast)
{
  gchar *dir = g_dir_make_tmp ("negcam-fifo-XXXXXX", NULL);
  gchar *fifo = g_build_filename (dir, "cam.profile", NULL);
  gchar *text;

  fail_unless (mkfifo (fifo, 0600) == 0, "mkfifo: %s", g_strerror (errno));
  text = profile_fails_within (fifo, 5);
  fail_unless (strstr (text, fifo) && strstr (text, "FIFO"), "%s", text);
  g_free (text);
  g_unlink (fifo);
  g_rmdir (dir);
  g_free (fifo);
  g_free (dir);
}

GST_END_TEST;

/* /dev/zero would be read until memory runs out: refused as a device. */
GST_START_TEST (test_dev_zero_refused)
{
  gchar *text = profile_fails_within ("/dev/zero", 5);

  fail_unless (strstr (text, "/dev/zero") && strstr (text, "a device"), "%s",
      text);
  g_free (text);
}

GST_END_TEST;

/* A regular file over 64 MiB (sparse: nothing is written) is refused
 * without being read. */
GST_START_TEST (test_huge_file_refused)
{
  gchar *path = write_temp ("", 0);
  gchar *text;

  fail_unless (truncate (path, (64 << 20) + 1) == 0);
  text = profile_fails_within (path, 5);
  fail_unless (strstr (text, "at most 64 MiB") != NULL, "%s", text);
  g_free (text);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* An image given as a profile: "not a profile (binary data)", and none of
 * its bytes quoted back, not even the printable ones. */
GST_START_TEST (test_binary_profile_not_quoted)
{
  static const gchar png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"
                             "\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xff" "a";
  static const gchar elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
  const gchar *files[] = { png, elf };
  const gsize lens[] = { sizeof (png) - 1, sizeof (elf) - 1 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    gchar *path = write_temp (files[i], lens[i]);
    gchar *text = profile_error_text (path);

    fail_unless (strstr (text, "not a profile (binary data)") != NULL, "%s",
        text);
    fail_if (strstr (text, "PNG") || strstr (text, "ELF"), "%s", text);
    assert_printable (text + strlen (path));
    g_free (text);
    g_unlink (path);
    g_free (path);
  }
}

GST_END_TEST;

/* Buffers that cannot be allocated: REQBUFS answers ENOMEM and the element
 * posts an error naming the sizes; the process does not abort. Run in a
 * child whose address space is capped a little above what it uses, so
 * that one 805 MB buffer (RGB3 16384x16384) cannot be had. */
GST_START_TEST (test_unallocatable_profile_is_error)
{
  gchar *path = write_temp ("name huge\nformat RGB3\n  size 16384x16384 fps "
                            "30\n", -1);
  gint status = 0;
  pid_t pid;

#if defined(__SANITIZE_ADDRESS__)
  GST_WARNING ("ASan reserves the address space: test skipped");
  return;
#endif
  pid = fork ();
  fail_unless (pid >= 0);
  if (pid == 0) {
    GstElement *pipe;
    GstBus *bus;
    GstMessage *m;
    GError *err = NULL;
    gchar *desc, *statm = NULL;
    struct rlimit rl;
    gulong pages = 0;
    gint ok;

    g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL);
    pages = statm ? strtoul (statm, NULL, 10) : 0;
    rl.rlim_cur = rl.rlim_max = pages * sysconf (_SC_PAGESIZE) + (512 << 20);
    if (!pages || setrlimit (RLIMIT_AS, &rl) < 0)
      _exit (3);
    desc = g_strdup_printf ("negcamsrc profile=%s is-live=false "
                            "num-buffers=1 ! fakesink", path);
    pipe = gst_parse_launch (desc, NULL);
    bus = gst_element_get_bus (pipe);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    if (!m || GST_MESSAGE_TYPE (m) != GST_MESSAGE_ERROR)
      _exit (4);
    gst_message_parse_error (m, &err, NULL);
    g_printerr ("child: %s\n", err->message);
    ok = strstr (err->message, "cannot allocate") != NULL
        && strstr (err->message, "805306368 bytes") != NULL;
    _exit (ok ? 0 : 5);
  }
  fail_unless (waitpid (pid, &status, 0) == pid);
  fail_if (WIFSIGNALED (status), "child killed by signal %d (%s)",
      WTERMSIG (status), g_strsignal (WTERMSIG (status)));
  fail_unless (WIFEXITED (status) && WEXITSTATUS (status) == 0,
      "child exit status %d (3: no rlimit, 4: no error, 5: wrong text)",
      WEXITSTATUS (status));
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
negcamsrc_props_suite (void)
{
  Suite *s = suite_create ("negcamsrc-props");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_is_live_toggle_playing);
  tcase_add_test (tc, test_mutability_flags);
  tcase_add_test (tc, test_refused_while_playing);
  tcase_add_test (tc, test_prefer_while_playing);
  tcase_add_test (tc, test_profile_empty_is_error);
  tcase_add_test (tc, test_libv4l2_without_device);
  tcase_add_test (tc, test_dmabuf_embedded_says_why);
  tcase_add_test (tc, test_fifo_profile_fails_fast);
  tcase_add_test (tc, test_dev_zero_refused);
  tcase_add_test (tc, test_huge_file_refused);
  tcase_add_test (tc, test_binary_profile_not_quoted);
  tcase_add_test (tc, test_unallocatable_profile_is_error);
  return s;
}

GST_CHECK_MAIN (negcamsrc_props);
