/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamdeviceprovider: nothing is listed by default; the profiles named
 * by NEGCAM_PROVIDER_PROFILES or provider.conf are, exactly, with the caps
 * negcamsrc offers for them; create_element() gives a working source;
 * junk in the device directory is skipped; V4L2 nodes are listed only
 * when asked (then v4l2deviceprovider is hidden), and followed through
 * hotplug. The node is served by libnegcam-preload.so (LD_PRELOADed by
 * meson with NEGCAM_RUN_NODES naming a path in a directory of the build
 * tree; preload-node.h): the library answers the ioctls of that path
 * whether or not a file is there, and the file's appearance and removal
 * is what the provider's directory monitor sees. Real nodes (negcam.ko,
 * vivid) are tested in the VM (tests/vm/provider-suite.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "harness.h"
#include "preload-node.h"

#include "profile.h"

static GstDeviceProvider *
get_provider (const gchar *dir)
{
  GstDeviceProvider *p =
      gst_device_provider_factory_get_by_name ("negcamdeviceprovider");

  fail_unless (p != NULL, "negcamdeviceprovider not registered");
  g_object_set (p, "device-directory", dir, NULL);
  return p;
}

static guint
n_builtins (void)
{
  guint n = 0;

  while (negcam_builtin_at (n))
    n++;
  return n;
}

/* Opt in to every built-in profile (the tests below list them all). */
static void
list_all_builtins (void)
{
  GString *names = g_string_new (NULL);
  const struct negcam_builtin *b;
  guint i;

  for (i = 0; (b = negcam_builtin_at (i)); i++)
    g_string_append_printf (names, "%s%s", i ? "," : "", b->name);
  g_setenv ("NEGCAM_PROVIDER_PROFILES", names->str, TRUE);
  g_string_free (names, TRUE);
}

static const gchar *
prop_string (GstDevice *d, const gchar *field)
{
  GstStructure *s = gst_device_get_properties (d);
  const gchar *v;

  fail_unless (s != NULL);
  v = gst_structure_get_string (s, field);
  /* the device keeps its own copy: the string lives as long as @d */
  if (v)
    v = g_intern_string (v);
  gst_structure_free (s);
  return v;
}

static GstDevice *
find_device (GList *devices, const gchar *field, const gchar *value)
{
  GList *l;

  for (l = devices; l; l = l->next)
    if (g_strcmp0 (prop_string (l->data, field), value) == 0)
      return l->data;
  return NULL;
}

/* How many negcam profiles a GstDeviceMonitor on Video/Source sees. */
static guint
monitor_count_profiles (void)
{
  GstDeviceMonitor *mon = gst_device_monitor_new ();
  GList *devices, *l;
  guint n = 0;

  gst_device_monitor_add_filter (mon, "Video/Source", NULL);
  fail_unless (gst_device_monitor_start (mon));
  devices = gst_device_monitor_get_devices (mon);
  for (l = devices; l; l = l->next)
    if (prop_string (l->data, "negcam.profile"))
      n++;
  g_list_free_full (devices, gst_object_unref);
  gst_device_monitor_stop (mon);
  gst_object_unref (mon);
  return n;
}

/* What negcamsrc itself offers in READY, unfiltered. */
static GstCaps *
element_caps (const gchar *device, const gchar *profile)
{
  GstElement *src = gst_element_factory_make ("negcamsrc", NULL);

  fail_unless (src != NULL);
  if (device)
    g_object_set (src, "device", device, NULL);
  if (profile)
    g_object_set (src, "profile", profile, NULL);
  return ready_caps (src);
}

static void
check_caps_equal (GstDevice *d, GstCaps *want)
{
  GstCaps *caps = gst_device_get_caps (d);
  gchar *a, *b;

  fail_unless (caps != NULL);
  fail_if (gst_caps_is_empty (caps) || gst_caps_is_any (caps));
  a = gst_caps_to_string (caps);
  b = gst_caps_to_string (want);
  fail_unless (gst_caps_is_equal (caps, want),
      "device caps %s\n differ from negcamsrc's %s", a, b);
  g_free (a);
  g_free (b);
  gst_caps_unref (caps);
}

static gchar *
make_tmpdir (void)
{
  gchar *dir = g_dir_make_tmp ("negcam-provider-XXXXXX", NULL);

  fail_unless (dir != NULL);
  return dir;
}

static void
remove_tmpdir (gchar *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);
    g_unlink (p);
    g_free (p);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
}

/* Every built-in profile, when named, with negcamsrc's caps for it. */
GST_START_TEST (test_builtins_listed)
{
  gchar *dir = make_tmpdir ();
  GstDeviceProvider *p = get_provider (dir);
  GList *devices;

  list_all_builtins ();
  devices = gst_device_provider_get_devices (p);
  const struct negcam_builtin *b;
  guint i;

  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    GstDevice *d = find_device (devices, "negcam.profile", b->name);
    GstCaps *want;
    gchar *name, *cls;

    fail_unless (d != NULL, "profile %s not listed", b->name);
    fail_unless_equals_string (prop_string (d, "device.api"), "negcam");
    fail_unless (prop_string (d, "device.path") == NULL);
    fail_unless (prop_string (d, "v4l2.device.card") != NULL);
    fail_unless (prop_string (d, "v4l2.device.bus_info") != NULL);
    fail_unless (gst_device_has_classes (d, "Video/Source"));
    cls = gst_device_get_device_class (d);
    fail_unless_equals_string (cls, "Video/Source");
    g_free (cls);
    name = gst_device_get_display_name (d);
    fail_unless (strstr (name, prop_string (d, "v4l2.device.card")) != NULL,
        "display name %s", name);
    fail_unless (strstr (name, b->name) != NULL, "display name %s", name);
    g_free (name);
    want = element_caps (NULL, b->name);
    check_caps_equal (d, want);
    gst_caps_unref (want);
  }
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (p);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* Monitors (rank > NONE only) see it; it ranks below v4l2deviceprovider
 * and hides no other provider. */
GST_START_TEST (test_monitor_and_rank)
{
  gchar *dir = make_tmpdir ();
  GstDeviceProvider *p = get_provider (dir);
  GstDeviceProviderFactory *f = gst_device_provider_get_factory (p);
  GstPluginFeature *v4l2 = GST_PLUGIN_FEATURE (
      gst_device_provider_factory_find ("v4l2deviceprovider"));
  gchar **hidden;

  list_all_builtins ();
  fail_unless_equals_int (
      gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE (f)), GST_RANK_MARGINAL);
  if (v4l2) {
    fail_unless (gst_plugin_feature_get_rank (v4l2) > GST_RANK_MARGINAL);
    gst_object_unref (v4l2);
  }
  hidden = gst_device_provider_get_hidden_providers (p);
  fail_unless (hidden == NULL || hidden[0] == NULL);
  g_strfreev (hidden);

  fail_unless_equals_int (monitor_count_profiles (), n_builtins ());
  gst_object_unref (p);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* create_element() gives a negcamsrc on that profile that produces
 * buffers of the listed caps; reconfigure_element() retargets one. */
GST_START_TEST (test_create_element)
{
  gchar *dir = make_tmpdir ();
  GstDeviceProvider *p = get_provider (dir);
  GList *devices;
  const struct negcam_builtin *b;
  guint i;

  list_all_builtins ();
  devices = gst_device_provider_get_devices (p);
  for (i = 0; (b = negcam_builtin_at (i)); i++) {
    GstDevice *d = find_device (devices, "negcam.profile", b->name);
    GstElement *src = gst_device_create_element (d, "cam");
    GstHarness *h;
    GstBuffer *buf;
    GstCaps *caps, *listed;
    gchar *profile = NULL, *device = NULL;

    fail_unless (src != NULL);
    fail_unless_equals_string (
        G_OBJECT_TYPE_NAME (src), "GstNegcamSrc");
    g_object_get (src, "profile", &profile, "device", &device, NULL);
    fail_unless_equals_string (profile, b->name);
    fail_unless (device == NULL || *device == 0);
    g_free (profile);
    g_free (device);
    g_object_set (src, "is-live", FALSE, NULL);

    h = gst_harness_new_with_element (src, NULL, "src");
    /* tv-tuner raw: any interlaced raw caps downstream accepts */
    gst_harness_play (h);
    buf = gst_harness_pull (h);
    fail_unless (buf != NULL, "profile %s: no buffer", b->name);
    fail_unless (gst_buffer_get_size (buf) > 0);
    caps = gst_pad_get_current_caps (h->sinkpad);
    listed = gst_device_get_caps (d);
    fail_unless (caps && gst_caps_can_intersect (caps, listed));
    gst_caps_unref (caps);
    gst_caps_unref (listed);
    gst_buffer_unref (buf);
    gst_harness_teardown (h);
    gst_object_unref (src);
  }

  /* reconfigure: a negcamsrc on vga becomes a webcam source */
  {
    GstDevice *d = find_device (devices, "negcam.profile", "webcam");
    GstElement *src = gst_element_factory_make ("negcamsrc", NULL);
    GstElement *other = gst_element_factory_make ("fakesrc", NULL);
    gchar *profile;

    g_object_set (src, "profile", "vga", NULL);
    fail_unless (gst_device_reconfigure_element (d, src));
    g_object_get (src, "profile", &profile, NULL);
    fail_unless_equals_string (profile, "webcam");
    g_free (profile);
    fail_if (gst_device_reconfigure_element (d, other));
    /* not in NULL: refused (device and profile change in NULL only) */
    g_object_set (src, "profile", "vga", NULL);
    fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
        GST_STATE_CHANGE_SUCCESS);
    fail_if (gst_device_reconfigure_element (d, src));
    g_object_get (src, "profile", &profile, NULL);
    fail_unless_equals_string (profile, "vga");
    g_free (profile);
    gst_element_set_state (src, GST_STATE_NULL);
    gst_object_unref (src);
    gst_object_unref (other);
  }
  g_list_free_full (devices, gst_object_unref);
  gst_object_unref (p);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* Nonexistent paths and files that are not V4L2 devices are skipped, a
 * missing device directory is no error, start/stop work regardless. */
GST_START_TEST (test_junk_and_missing)
{
  gchar *dir = make_tmpdir ();
  gchar *link = g_build_filename (dir, "video7", NULL);
  gchar *file = g_build_filename (dir, "video3", NULL);
  gchar *other = g_build_filename (dir, "videoX", NULL);
  gchar *missing = g_build_filename (dir, "no-such-dir", NULL);
  GstDeviceProvider *p = get_provider (dir);
  GList *devices;

  list_all_builtins ();
  g_setenv ("NEGCAM_PROVIDER_NODES", "1", TRUE);
  fail_unless (symlink ("/nonexistent/negcam-video7", link) == 0);
  fail_unless (g_file_set_contents (file, "not a device", -1, NULL));
  fail_unless (g_file_set_contents (other, "", -1, NULL));

  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);

  fail_unless (gst_device_provider_start (p));
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);
  gst_device_provider_stop (p);

  g_object_set (p, "device-directory", missing, NULL);
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);
  fail_unless (gst_device_provider_start (p));
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);
  gst_device_provider_stop (p);

  gst_object_unref (p);
  g_free (link);
  g_free (file);
  g_free (other);
  g_free (missing);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* Pop device messages until one about @path of @type arrives. */
static GstDevice *
wait_device (GstBus *bus, GstMessageType type, const gchar *path)
{
  gint64 end = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;

  while (g_get_monotonic_time () < end) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, GST_SECOND,
        GST_MESSAGE_DEVICE_ADDED | GST_MESSAGE_DEVICE_REMOVED);
    GstDevice *d = NULL;

    if (!m)
      continue;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_DEVICE_ADDED)
      gst_message_parse_device_added (m, &d);
    else
      gst_message_parse_device_removed (m, &d);
    if (GST_MESSAGE_TYPE (m) == type
        && g_strcmp0 (prop_string (d, "device.path"), path) == 0) {
      gst_message_unref (m);
      return d;
    }
    gst_object_unref (d);
    gst_message_unref (m);
  }
  return NULL;
}

/* A V4L2 node (the preloaded one): listed with negcamsrc's caps for it, added and
 * removed as its file appears and disappears. */
GST_START_TEST (test_node_and_hotplug)
{
  const gchar *node = preload_node_path ();
  const gchar *profile = preload_node_profile ();
  gchar *dir, *tmp;
  GstDeviceProvider *p;
  GstDevice *d;
  GstElement *src;
  GstCaps *want;
  GstBus *bus;
  GList *devices;
  gchar *s = NULL, *base;
  gboolean usable;

  base = node ? g_path_get_basename (node) : NULL;
  usable = profile && base && g_str_has_prefix (base, "video");
  g_free (base);
  if (!usable) {
    GST_WARNING ("no preloaded node (NEGCAM_RUN_NODES): node test skipped");
    return;
  }
  list_all_builtins ();
  g_setenv ("NEGCAM_PROVIDER_NODES", "1", TRUE);
  dir = g_path_get_dirname (node);
  fail_unless (g_mkdir_with_parents (dir, 0755) == 0);
  g_unlink (node);
  tmp = g_strconcat (node, ".tmp", NULL);
  p = get_provider (dir);

  /* the embedded engine on the same profile: the same caps */
  want = element_caps (NULL, profile);

  /* static listing */
  fail_unless (g_file_set_contents (tmp, "", -1, NULL));
  fail_unless (g_rename (tmp, node) == 0);
  devices = gst_device_provider_get_devices (p);
  d = find_device (devices, "device.path", node);
  fail_unless (d != NULL, "%s not listed", node);
  fail_unless_equals_string (prop_string (d, "device.api"), "v4l2");
  check_caps_equal (d, want);
  g_list_free_full (devices, gst_object_unref);
  {
    GstCaps *elem = element_caps (node, NULL);
    fail_unless (gst_caps_is_equal (elem, want));
    gst_caps_unref (elem);
  }
  g_unlink (node);

  /* hotplug */
  bus = gst_device_provider_get_bus (p);
  fail_unless (gst_device_provider_start (p));
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);

  fail_unless (g_file_set_contents (tmp, "", -1, NULL));
  fail_unless (g_rename (tmp, node) == 0);
  d = wait_device (bus, GST_MESSAGE_DEVICE_ADDED, node);
  fail_unless (d != NULL, "no device-added for %s", node);
  check_caps_equal (d, want);
  src = gst_device_create_element (d, NULL);
  fail_unless (src != NULL);
  g_object_get (src, "device", &s, NULL);
  fail_unless_equals_string (s, node);
  g_free (s);
  gst_object_unref (src);
  gst_object_unref (d);
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins () + 1);
  g_list_free_full (devices, gst_object_unref);

  fail_unless (g_unlink (node) == 0);
  d = wait_device (bus, GST_MESSAGE_DEVICE_REMOVED, node);
  fail_unless (d != NULL, "no device-removed for %s", node);
  gst_object_unref (d);
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), n_builtins ());
  g_list_free_full (devices, gst_object_unref);

  /* and back, once more */
  fail_unless (g_file_set_contents (tmp, "", -1, NULL));
  fail_unless (g_rename (tmp, node) == 0);
  d = wait_device (bus, GST_MESSAGE_DEVICE_ADDED, node);
  fail_unless (d != NULL, "no second device-added for %s", node);
  gst_object_unref (d);

  gst_device_provider_stop (p);
  g_unlink (node);
  gst_object_unref (bus);
  gst_caps_unref (want);
  gst_object_unref (p);
  g_free (tmp);
  g_free (dir);
}
GST_END_TEST;

/* The device list of @p, started or not, as "display name" lines. */
static guint
count_devices (GstDeviceProvider *p)
{
  GList *devices = gst_device_provider_get_devices (p);
  guint n = g_list_length (devices);

  g_list_free_full (devices, gst_object_unref);
  return n;
}

/* A config home without negcam/provider.conf, and no variable: nothing,
 * static or started, nor through a GstDeviceMonitor. */
GST_START_TEST (test_nothing_by_default)
{
  gchar *dir = make_tmpdir ();
  gchar *home = make_tmpdir ();
  GstDeviceProvider *p = get_provider (dir);

  g_unsetenv ("NEGCAM_PROVIDER_PROFILES");
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  fail_unless_equals_int (count_devices (p), 0);
  fail_unless (gst_device_provider_start (p));
  fail_unless_equals_int (count_devices (p), 0);
  gst_device_provider_stop (p);

  fail_unless_equals_int (monitor_count_profiles (), 0);
  gst_object_unref (p);
  remove_tmpdir (home);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* NEGCAM_PROVIDER_PROFILES: exactly the entries named (a built-in name, a
 * profile file), in that order; a bad entry is skipped; the file's
 * listing has negcamsrc's caps for the file and creates profile=FILE. */
GST_START_TEST (test_profiles_from_env)
{
  gchar *dir = make_tmpdir ();
  GstDeviceProvider *p = get_provider (dir);
  gchar *file = g_build_filename (g_getenv ("NEGCAM_TEST_SRCDIR"),
      "alternate.profile", NULL);
  gchar *env = g_strdup_printf (" vga ,%s,no-such-profile,,vga", file);
  GList *devices;
  GstDevice *d;
  GstElement *src;
  GstCaps *want;
  gchar *profile = NULL, *name;

  g_setenv ("NEGCAM_PROVIDER_PROFILES", env, TRUE);
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), 2);
  fail_unless_equals_string (prop_string (devices->data, "negcam.profile"),
      "vga");
  d = find_device (devices, "negcam.profile", file);
  fail_unless (d != NULL, "%s not listed", file);
  name = gst_device_get_display_name (d);
  fail_unless (strstr (name, "profile file") != NULL, "display name %s", name);
  g_free (name);
  want = element_caps (NULL, file);
  check_caps_equal (d, want);
  gst_caps_unref (want);
  src = gst_device_create_element (d, NULL);
  g_object_get (src, "profile", &profile, NULL);
  fail_unless_equals_string (profile, file);
  g_free (profile);
  gst_object_unref (src);
  g_list_free_full (devices, gst_object_unref);

  /* set but empty: nothing (the config file is not read then) */
  g_setenv ("NEGCAM_PROVIDER_PROFILES", "", TRUE);
  fail_unless_equals_int (count_devices (p), 0);

  gst_object_unref (p);
  g_free (env);
  g_free (file);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* $XDG_CONFIG_HOME/negcam/provider.conf: one entry per line, comments and
 * blank lines ignored; listed when started too. */
GST_START_TEST (test_profiles_from_file)
{
  gchar *dir = make_tmpdir ();
  gchar *home = make_tmpdir ();
  gchar *confdir = g_build_filename (home, "negcam", NULL);
  gchar *conf = g_build_filename (confdir, "provider.conf", NULL);
  GstDeviceProvider *p = get_provider (dir);
  GList *devices;

  g_unsetenv ("NEGCAM_PROVIDER_PROFILES");
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  fail_unless (g_mkdir (confdir, 0755) == 0);
  fail_unless (g_file_set_contents (conf,
      "# cameras for Cheese\nstepwise\n\n  tv-tuner   # the TV card\n",
      -1, NULL));
  devices = gst_device_provider_get_devices (p);
  fail_unless_equals_int (g_list_length (devices), 2);
  fail_unless (find_device (devices, "negcam.profile", "stepwise") != NULL);
  fail_unless (find_device (devices, "negcam.profile", "tv-tuner") != NULL);
  g_list_free_full (devices, gst_object_unref);
  fail_unless (gst_device_provider_start (p));
  fail_unless_equals_int (count_devices (p), 2);
  gst_device_provider_stop (p);

  gst_object_unref (p);
  g_unlink (conf);
  g_rmdir (confdir);
  g_free (conf);
  g_free (confdir);
  remove_tmpdir (home);
  remove_tmpdir (dir);
}
GST_END_TEST;

/* "v4l2deviceprovider" among @p's hidden providers? */
static gboolean
hides_v4l2 (GstDeviceProvider *p)
{
  gchar **hidden = gst_device_provider_get_hidden_providers (p);
  gboolean found = hidden && g_strv_contains ((const gchar *const *)hidden,
      "v4l2deviceprovider");

  g_strfreev (hidden);
  return found;
}

/* One listing per node: by default the preloaded node is not listed and
 * nothing is hidden (v4l2deviceprovider lists nodes); asked for nodes
 * (variable or provider.conf), it is listed once and v4l2deviceprovider
 * is hidden; the variable overrides the file. */
GST_START_TEST (test_nodes_opt_in)
{
  const gchar *node = preload_node_path ();
  gchar *home = make_tmpdir ();
  gchar *confdir = g_build_filename (home, "negcam", NULL);
  gchar *conf = g_build_filename (confdir, "provider.conf", NULL);
  GstDeviceProvider *p;
  gchar *dir, *tmp;

  if (!node) {
    GST_WARNING ("no preloaded node: test skipped");
    return;
  }
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_unsetenv ("NEGCAM_PROVIDER_NODES");
  g_setenv ("NEGCAM_PROVIDER_PROFILES", "", TRUE);
  dir = g_path_get_dirname (node);
  fail_unless (g_mkdir_with_parents (dir, 0755) == 0);
  tmp = g_strconcat (node, ".tmp", NULL);
  fail_unless (g_file_set_contents (tmp, "", -1, NULL));
  fail_unless (g_rename (tmp, node) == 0);
  p = get_provider (dir);

  fail_unless_equals_int (count_devices (p), 0);
  fail_if (hides_v4l2 (p));
  fail_unless (gst_device_provider_start (p));
  fail_unless_equals_int (count_devices (p), 0);
  gst_device_provider_stop (p);

  g_setenv ("NEGCAM_PROVIDER_NODES", "1", TRUE);
  fail_unless_equals_int (count_devices (p), 1);
  fail_unless (hides_v4l2 (p));
  fail_unless (gst_device_provider_start (p));
  fail_unless_equals_int (count_devices (p), 1);
  gst_device_provider_stop (p);

  /* the file's setting; the variable, when set, wins */
  g_unsetenv ("NEGCAM_PROVIDER_NODES");
  fail_unless (g_mkdir (confdir, 0755) == 0);
  fail_unless (g_file_set_contents (conf, "nodes = yes\n", -1, NULL));
  fail_unless_equals_int (count_devices (p), 1);
  fail_unless (hides_v4l2 (p));
  g_setenv ("NEGCAM_PROVIDER_NODES", "no", TRUE);
  fail_unless_equals_int (count_devices (p), 0);
  fail_if (hides_v4l2 (p));

  g_unlink (node);
  g_unlink (conf);
  g_rmdir (confdir);
  gst_object_unref (p);
  g_free (conf);
  g_free (confdir);
  g_free (tmp);
  g_free (dir);
  remove_tmpdir (home);
}
GST_END_TEST;

/* Asked for nodes before the provider exists, it hides v4l2deviceprovider
 * from its creation on: a GstDeviceMonitor reads the hidden providers when
 * it adds a provider, before listing anything. */
GST_START_TEST (test_nodes_hidden_from_start)
{
  GstDeviceProvider *p;

  g_setenv ("NEGCAM_PROVIDER_NODES", "1", TRUE);
  p = gst_device_provider_factory_get_by_name ("negcamdeviceprovider");
  fail_unless (p != NULL);
  fail_unless (hides_v4l2 (p));
  gst_object_unref (p);
}
GST_END_TEST;

static Suite *
negcamdeviceprovider_suite (void)
{
  Suite *s = suite_create ("negcamdeviceprovider");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_builtins_listed);
  tcase_add_test (tc, test_monitor_and_rank);
  tcase_add_test (tc, test_create_element);
  tcase_add_test (tc, test_junk_and_missing);
  tcase_add_test (tc, test_node_and_hotplug);
  tcase_add_test (tc, test_nothing_by_default);
  tcase_add_test (tc, test_profiles_from_env);
  tcase_add_test (tc, test_profiles_from_file);
  tcase_add_test (tc, test_nodes_opt_in);
  tcase_add_test (tc, test_nodes_hidden_from_start);
  return s;
}

GST_CHECK_MAIN (negcamdeviceprovider);
