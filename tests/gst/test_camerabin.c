/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamsrc inside camerabin (gst-plugins-bad), the camera bin of GNOME's
 * camera apps: wrappercamerabinsrc with video-source=negcamsrc, the
 * viewfinder into a fakesink. What an application sees: a video recorded
 * at the viewfinder's mode with no renegotiation when recording starts
 * (the wrapper hands negcamsrc's caps back to it through a capsfilter, so
 * their order must be negcamsrc's preference); a still at the size the
 * application asks through image-capture-caps, and the viewfinder back at
 * its own mode afterwards. NEGCAM_TEST_DEVICE=PATH uses that node (the
 * kernel backend) instead of the embedded webcam profile.
 */
#include <gst/check/gstcheck.h>
#include <gst/pbutils/encoding-profile.h>
#include <glib/gstdio.h>

#define TIMEOUT_S 60

typedef struct {
  GstElement *bin;
  GstBus *bus;
  GPtrArray *negotiated;        /* caps of every negcam-negotiated, in order */
  gchar *dir;
} Cam;

static GstElement *
make (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL, "no element %s (camerabin: "
      "gstreamer1.0-plugins-bad, `make deps`)", factory);
  return e;
}

/* camerabin in @mode (1 image, 2 video), files in a fresh directory. */
static void
cam_init (Cam * c, gint mode, const gchar * location)
{
  GstElement *wrapper = make ("wrappercamerabinsrc"), *src = make ("negcamsrc");
  const gchar *dev = g_getenv ("NEGCAM_TEST_DEVICE");
  gchar *loc;

  memset (c, 0, sizeof (*c));
  c->dir = g_dir_make_tmp ("negcam-camerabin-XXXXXX", NULL);
  fail_unless (c->dir != NULL);
  if (dev && *dev)
    g_object_set (src, "device", dev, NULL);
  else
    g_object_set (src, "profile", "webcam", NULL);
  g_object_set (wrapper, "video-source", src, NULL);
  c->bin = make ("camerabin");
  loc = g_build_filename (c->dir, location, NULL);
  g_object_set (c->bin, "camera-source", wrapper, "viewfinder-sink",
      make ("fakesink"), "mode", mode, "location", loc, NULL);
  g_free (loc);
  c->bus = gst_element_get_bus (c->bin);
  c->negotiated = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_caps_unref);
}

static void
cam_clear (Cam * c)
{
  GDir *d = g_dir_open (c->dir, 0, NULL);
  const gchar *name;

  gst_element_set_state (c->bin, GST_STATE_NULL);
  gst_object_unref (c->bus);
  gst_object_unref (c->bin);
  g_ptr_array_unref (c->negotiated);
  while (d && (name = g_dir_read_name (d))) {
    gchar *f = g_build_filename (c->dir, name, NULL);
    g_unlink (f);
    g_free (f);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (c->dir);
  g_free (c->dir);
}

/* Bus messages until an element message named @name (the test fails on
 * an error or after TIMEOUT_S); negcam-negotiated ones are recorded. */
static void
cam_wait (Cam * c, const gchar * name)
{
  gint64 end = g_get_monotonic_time () + TIMEOUT_S * G_USEC_PER_SEC;

  for (;;) {
    gint64 left = end - g_get_monotonic_time ();
    GstMessage *m = gst_bus_timed_pop_filtered (c->bus,
        MAX (left, 0) * GST_USECOND, GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    gboolean done;

    fail_unless (m != NULL, "no %s within %d s", name, TIMEOUT_S);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (m, &err, &dbg);
      fail ("waiting for %s: %s (%s)", name, err->message, dbg);
    }
    if (gst_message_has_name (m, "negcam-negotiated")) {
      GstCaps *caps = NULL;

      gst_structure_get (gst_message_get_structure (m), "caps",
          GST_TYPE_CAPS, &caps, NULL);
      g_ptr_array_add (c->negotiated, caps);
    }
    done = gst_message_has_name (m, name);
    gst_message_unref (m);
    if (done)
      return;
  }
}

/* Width and height of negotiated caps @i ("WxH"). */
static gchar *
size_of (Cam * c, guint i)
{
  const GstStructure *s;
  gint w = 0, h = 0;

  fail_unless (i < c->negotiated->len);
  s = gst_caps_get_structure (g_ptr_array_index (c->negotiated, i), 0);
  gst_structure_get_int (s, "width", &w);
  gst_structure_get_int (s, "height", &h);
  return g_strdup_printf ("%dx%d", w, h);
}

/* The frame size in the SOF marker of JPEG file @path ("WxH"). */
static gchar *
jpeg_size (const gchar * path)
{
  gchar *data = NULL;
  gsize len = 0, i;
  gchar *ret = NULL;

  fail_unless (g_file_get_contents (path, &data, &len, NULL), "no %s", path);
  fail_unless (len > 4 && (guint8) data[0] == 0xff && (guint8) data[1] == 0xd8,
      "%s is not a JPEG file", path);
  for (i = 2; i + 9 < len && !ret; i++) {
    const guint8 *p = (const guint8 *) data + i;

    if (p[0] == 0xff && (p[1] == 0xc0 || p[1] == 0xc1 || p[1] == 0xc2))
      ret = g_strdup_printf ("%u x %u", (p[7] << 8) | p[8], (p[5] << 8) | p[6]);
  }
  g_free (data);
  fail_unless (ret != NULL, "%s: no SOF marker", path);
  return ret;
}

/* PLAYING until the viewfinder negotiated: its size ("WxH"). */
static gchar *
cam_start (Cam * c)
{
  fail_unless (gst_element_set_state (c->bin, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  cam_wait (c, "negcam-negotiated");
  return size_of (c, 0);
}

/* The encoding profile of a recording: JPEG frames in Matroska (good). */
static GstEncodingProfile *
mjpeg_mkv (void)
{
  GstCaps *mkv = gst_caps_from_string ("video/x-matroska");
  GstCaps *jpeg = gst_caps_from_string ("image/jpeg");
  GstEncodingContainerProfile *p =
      gst_encoding_container_profile_new ("mkv", NULL, mkv, NULL);

  gst_encoding_container_profile_add_profile (p, (GstEncodingProfile *)
      gst_encoding_video_profile_new (jpeg, NULL, NULL, 0));
  gst_caps_unref (mkv);
  gst_caps_unref (jpeg);
  return (GstEncodingProfile *) p;
}

/* A recording with no caps of the application's: the viewfinder's mode
 * (the device's, 640x480 for webcam) throughout; starting it does not
 * renegotiate (before negcamsrc answered caps queries in its own order
 * of preference, it switched to the first size the device lists, 160x120
 * on webcam). */
GST_START_TEST (test_camerabin_video_at_viewfinder_mode)
{
  GstEncodingProfile *prof = mjpeg_mkv ();
  gchar *vf, *file;
  GStatBuf st;
  guint i;
  Cam c;

  cam_init (&c, 2, "video%d.mkv");
  g_object_set (c.bin, "video-profile", prof, NULL);
  g_object_unref (prof);
  vf = cam_start (&c);
  g_signal_emit_by_name (c.bin, "start-capture");
  g_usleep (G_USEC_PER_SEC);
  g_signal_emit_by_name (c.bin, "stop-capture");
  cam_wait (&c, "video-done");
  for (i = 1; i < c.negotiated->len; i++) {
    gchar *s = size_of (&c, i);

    fail_unless (!g_strcmp0 (s, vf), "recording renegotiated from %s to %s",
        vf, s);
    g_free (s);
  }
  if (!g_getenv ("NEGCAM_TEST_DEVICE"))
    fail_unless_equals_string (vf, "640x480");
  file = g_build_filename (c.dir, "video0.mkv", NULL);
  fail_unless (g_stat (file, &st) == 0 && st.st_size > 1000,
      "%s missing or empty", file);
  g_free (file);
  g_free (vf);
  cam_clear (&c);
}

GST_END_TEST;

/* A still at image-capture-caps 1280x720 while the viewfinder runs at the
 * device's mode: the JPEG has 1280x720, and the viewfinder is back at its
 * mode after the capture. */
GST_START_TEST (test_camerabin_image_at_asked_size)
{
  GstCaps *want = gst_caps_from_string ("video/x-raw,width=1280,height=720");
  gchar *vf, *got, *back, *file;
  Cam c;

  cam_init (&c, 1, "image%d.jpg");
  g_object_set (c.bin, "image-capture-caps", want, NULL);
  gst_caps_unref (want);
  vf = cam_start (&c);
  g_signal_emit_by_name (c.bin, "start-capture");
  cam_wait (&c, "image-done");
  file = g_build_filename (c.dir, "image0.jpg", NULL);
  got = jpeg_size (file);
  fail_unless_equals_string (got, "1280 x 720");
  /* the viewfinder renegotiates back once the still is taken */
  if (c.negotiated->len < 3)
    cam_wait (&c, "negcam-negotiated");
  back = size_of (&c, c.negotiated->len - 1);
  fail_unless_equals_string (back, vf);
  g_free (back);
  g_free (got);
  g_free (file);
  g_free (vf);
  cam_clear (&c);
}

GST_END_TEST;

static Suite *
camerabin_suite (void)
{
  Suite *s = suite_create ("camerabin");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_camerabin_video_at_viewfinder_mode);
  tcase_add_test (tc, test_camerabin_image_at_asked_size);
  return s;
}

GST_CHECK_MAIN (camerabin);
