/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:provider-negcamdeviceprovider
 * @title: negcamdeviceprovider
 * @see_also: negcamsrc, negcamsink
 *
 * Lists negcam devices for GstDeviceMonitor: the embedded profiles a user
 * names (NEGCAM_PROVIDER_PROFILES, or $XDG_CONFIG_HOME/negcam/provider.conf;
 * none by default) and, when asked (NEGCAM_PROVIDER_NODES=1), the V4L2
 * capture nodes as Video/Source for negcamsrc and output-only nodes as
 * Video/Sink for negcamsink, followed through hotplug. Each device's caps
 * are the ones the element would offer.
 *
 * ## Example launch lines
 * |[
 * NEGCAM_PROVIDER_PROFILES=webcam,vga gst-device-monitor-1.0 Video/Source
 * ]| The webcam and vga profiles, each with a negcamsrc launch line.
 * |[
 * NEGCAM_PROVIDER_NODES=1 gst-device-monitor-1.0 Video/Sink
 * ]| Output nodes (a negcam.ko loop's output side), with negcamsink
 * launch lines.
 *
 * See docs/negcamsrc.md, "Device provider".
 */
/*
 * negcamdeviceprovider: what negcamsrc can open, for GstDeviceMonitor.
 *
 * Two kinds of device, described by the same code:
 *  - embedded profiles, only those the user names (opt-in, nothing by
 *    default, so that a system-wide install does not fill every camera
 *    menu): NEGCAM_PROVIDER_PROFILES="webcam,/path/cam.profile" or, when
 *    that variable is unset, $XDG_CONFIG_HOME/negcam/provider.conf (one
 *    built-in name or profile file per line, '#' comments);
 *  - the V4L2 capture nodes of the device directory ("device-directory",
 *    /dev by default, names video<N>), opened through the kernel backend,
 *    and its output-only nodes (V4L2_CAP_VIDEO_OUTPUT without capture: a
 *    negcam.ko loop's output side, vivid's video output), class
 *    Video/Sink, whose caps come from the output queue and whose element
 *    is negcamsink; nodes only when asked (NEGCAM_PROVIDER_NODES=1 or
 *    "nodes = yes" in provider.conf), see "One listing per node".
 * Both are asked VIDIOC_QUERYCAP through the device interface
 * (negcamdevice.h) and their caps come from NegcamFormatCache (negcamcaps.c), the
 * very enumeration negcamsrc uses, so a listed device offers exactly the
 * caps the element would. create_element() gives a negcamsrc with device=
 * or profile= set.
 *
 * One listing per node: v4l2deviceprovider (gst-plugins-good) lists every
 * V4L2 capture node, negcam.ko's included, for v4l2src; by default this
 * provider lists none, so each appears once. Asked to list the nodes, it
 * lists all of them (for negcamsrc) and hides v4l2deviceprovider
 * (gst_device_provider_hide_provider: GstDeviceMonitor then ignores it),
 * so each still appears once and no camera is lost. A provider cannot
 * hide another's single devices, only the whole provider, hence all or
 * none.
 *
 * Hotplug: a directory monitor (inotify through GFileMonitor, no polling)
 * on the device directory, run in a thread of its own with its own main
 * context. It does not need udev: devtmpfs creates and removes the nodes
 * itself. Where udev runs, a new node may first be root-only until udev
 * sets its group or ACL; opening it then fails, and the attribute change
 * udev makes triggers a new attempt.
 *
 * Format changes: each listed node stays open in the watch thread,
 * subscribed to V4L2_EVENT_SOURCE_CHANGE (negcam.ko sends it when its
 * profile is swapped through configfs; HDMI receivers do too); the event
 * (POLLPRI) makes the node probed again and the new GstDevice replaces the
 * old (gst_device_provider_device_changed: DEVICE_CHANGED on the bus).
 *
 * Rank: MARGINAL, below v4l2deviceprovider (PRIMARY).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib-unix.h>

#include "negcamdeviceprovider.h"
#include "negcamsrc.h"
#include "negcamsink.h"
#include "negcamformatcache.h"
#include "negcamdevice.h"
#include "profile.h"

GST_DEBUG_CATEGORY_STATIC (negcamdeviceprovider_debug);
#define GST_CAT_DEFAULT negcamdeviceprovider_debug

#define DEFAULT_DEVICE_DIRECTORY "/dev"

/* ------------------------------------------------------------------ */
/* GstNegcamSrcDevice                                                  */

struct _GstNegcamSrcDevice
{
  GstDevice parent;

  /* An output-only node (V4L2_CAP_VIDEO_OUTPUT without capture: a
   * negcam.ko loop's output side, vivid's video output): a Video/Sink
   * device, caps from the output queue, element negcamsink. */
  gboolean output;
  gchar *path;    /* V4L2 node, or NULL for an embedded profile */
  gchar *profile; /* built-in profile name or file, NULL for a node */
};

G_DEFINE_TYPE (GstNegcamSrcDevice, gst_negcam_src_device, GST_TYPE_DEVICE);

static GstElement *
gst_negcam_src_device_create_element (GstDevice *device, const gchar *name)
{
  GstNegcamSrcDevice *self = GST_NEGCAM_SRC_DEVICE (device);
  GstElement *elem = gst_element_factory_make (
      self->output ? "negcamsink" : "negcamsrc", name);

  if (!elem)
    return NULL;
  if (self->path)
    g_object_set (elem, "device", self->path, NULL);
  else
    g_object_set (elem, "profile", self->profile, NULL);
  return elem;
}

static gboolean
gst_negcam_src_device_reconfigure_element (GstDevice *device,
    GstElement *element)
{
  GstNegcamSrcDevice *self = GST_NEGCAM_SRC_DEVICE (device);

  if (GST_STATE (element) != GST_STATE_NULL)
    return FALSE; /* device and profile change in NULL only */
  if (self->output) { /* a node, for negcamsink */
    if (GST_IS_NEGCAM_SINK (element))
      g_object_set (element, "device", self->path, NULL);
    return GST_IS_NEGCAM_SINK (element);
  }
  if (!GST_IS_NEGCAM_SRC (element))
    return FALSE;
  if (self->path)
    g_object_set (element, "device", self->path, NULL);
  else
    g_object_set (element, "device", "", "profile", self->profile, NULL);
  return TRUE;
}

static void
gst_negcam_src_device_finalize (GObject *object)
{
  GstNegcamSrcDevice *self = GST_NEGCAM_SRC_DEVICE (object);

  g_free (self->path);
  g_free (self->profile);
  G_OBJECT_CLASS (gst_negcam_src_device_parent_class)->finalize (object);
}

static void
gst_negcam_src_device_class_init (GstNegcamSrcDeviceClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstDeviceClass *device_class = GST_DEVICE_CLASS (klass);

  gobject_class->finalize = gst_negcam_src_device_finalize;
  device_class->create_element = gst_negcam_src_device_create_element;
  device_class->reconfigure_element = gst_negcam_src_device_reconfigure_element;
}

static void
gst_negcam_src_device_init (GstNegcamSrcDevice *self)
{
}

/* The "profile" attribute negcam.ko gives its platform device, if the
 * node is one of its. */
static gchar *
kmod_profile_of (const gchar *path)
{
  gchar *base = g_path_get_basename (path);
  gchar *attr = g_strdup_printf (
      "/sys/class/video4linux/%s/device/profile", base);
  gchar *text = NULL;

  g_free (base);
  if (g_file_get_contents (attr, &text, NULL, NULL))
    g_strstrip (text);
  g_free (attr);
  return text;
}

/* A described device's properties (QUERYCAP's answer, where it was
 * opened) and its display name (@display, to free). */
static GstStructure *
device_properties (const struct v4l2_capability *cap, guint32 flags,
    const gchar *path, const gchar *profile, gchar **display)
{
  GstStructure *props;
  gchar *card, *driver, *bus_info;

  card = g_strndup ((const gchar *)cap->card, sizeof (cap->card));
  driver = g_strndup ((const gchar *)cap->driver, sizeof (cap->driver));
  bus_info = g_strndup ((const gchar *)cap->bus_info, sizeof (cap->bus_info));
  props = gst_structure_new ("negcamdeviceprovider",
      "device.api", G_TYPE_STRING, path ? "v4l2" : "negcam",
      "v4l2.device.driver", G_TYPE_STRING, driver,
      "v4l2.device.card", G_TYPE_STRING, card,
      "v4l2.device.bus_info", G_TYPE_STRING, bus_info,
      "v4l2.device.version", G_TYPE_UINT, cap->version,
      "v4l2.device.capabilities", G_TYPE_UINT, cap->capabilities,
      "v4l2.device.device_caps", G_TYPE_UINT, flags, NULL);
  if (path) {
    gchar *kprofile = g_str_equal (driver, "negcam") ? kmod_profile_of (path)
                                                    : NULL;

    gst_structure_set (props, "device.path", G_TYPE_STRING, path, NULL);
    if (kprofile && *kprofile)
      gst_structure_set (props, "negcam.profile", G_TYPE_STRING, kprofile,
          NULL);
    g_free (kprofile);
    *display = g_strdup_printf ("%s (%s)", *card ? card : driver, path);
  } else {
    const struct negcam_builtin *builtin = negcam_builtin_find (profile);

    gst_structure_set (props, "negcam.profile", G_TYPE_STRING, profile,
        "negcam.profile.summary", G_TYPE_STRING,
        builtin ? builtin->summary : "profile file", NULL);
    *display = g_strdup_printf ("%s (negcam %s %s)", *card ? card : driver,
        builtin ? "built-in profile" : "profile file", profile);
  }
  g_free (card);
  g_free (driver);
  g_free (bus_info);
  return props;
}

/*
 * Describe an opened device: QUERYCAP, then every format it enumerates as
 * caps (the element's probe, unfiltered). NULL with @error when it is not
 * a video capture device or offers nothing negcamsrc can map.
 */
static GstDevice *
describe (NegcamDevice *dev, const gchar *path, const gchar *profile,
    GError **error)
{
  struct v4l2_capability cap;
  GstNegcamSrcDevice *device;
  GstStructure *props;
  NegcamFormatCache *probe;
  GstCaps *caps;
  gchar *display;
  guint32 flags, capture;
  gboolean output;
  gint ret;

  memset (&cap, 0, sizeof (cap));
  ret = negcam_device_ioctl (dev, VIDIOC_QUERYCAP, &cap);
  if (ret < 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "%s: not a V4L2 device (VIDIOC_QUERYCAP: %s)", negcam_device_get_description (dev),
        g_strerror (-ret));
    return NULL;
  }
  flags = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
                                                    : cap.capabilities;
  /* capture, single- or multiplanar (negcamsrc drives both), else output */
  capture = negcam_capture_type (flags);
  output = !capture && (flags & V4L2_CAP_VIDEO_OUTPUT);
  if (!capture && !output) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "%s: not a video capture or output device (device caps 0x%08x)",
        negcam_device_get_description (dev), flags);
    return NULL;
  }

  probe = negcam_format_cache_new_for_type (
      dev, output ? V4L2_BUF_TYPE_VIDEO_OUTPUT : capture);
  caps = negcam_format_cache_caps (probe, NULL);
  negcam_format_cache_free (probe);
  if (gst_caps_is_empty (caps)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "%s: enumerates no format negcam can map", negcam_device_get_description (dev));
    gst_caps_unref (caps);
    return NULL;
  }

  props = device_properties (&cap, flags, path, profile, &display);
  device = g_object_new (GST_TYPE_NEGCAM_SRC_DEVICE,
      "display-name", display, "device-class",
      output ? "Video/Sink" : "Video/Source",
      "caps", caps, "properties", props, NULL);
  device->output = output;
  device->path = g_strdup (path);
  device->profile = g_strdup (profile);

  g_free (display);
  gst_structure_free (props);
  gst_caps_unref (caps);
  return GST_DEVICE (device);
}

/* A V4L2 node: NULL (and why, in @error) when it cannot be opened or is
 * not a capture device negcamsrc can use. */
static GstDevice *
probe_node (const gchar *path, GError **error)
{
  NegcamDevice *dev;
  GstDevice *device;

  dev = negcam_device_open (path, NULL, error);
  if (!dev)
    return NULL;
  device = describe (dev, path, NULL, error);
  negcam_device_unref (dev);
  return device;
}

/* An embedded profile (built-in name or file) the user asked for. */
static GstDevice *
probe_profile (const gchar *profile)
{
  GError *err = NULL;
  NegcamDevice *dev;
  GstDevice *device = NULL;

  dev = negcam_device_open (NULL, profile, &err);
  if (dev) {
    device = describe (dev, NULL, profile, &err);
    negcam_device_unref (dev);
  }
  if (!device) {
    GST_WARNING ("profile %s not listed: %s", profile, err->message);
    g_error_free (err);
  }
  return device;
}

/* Add the non-empty, stripped entries of @items to @list (no duplicate). */
static void
add_entries (GPtrArray *list, gchar **items)
{
  guint i;

  for (i = 0; items[i]; i++) {
    gchar *item = g_strstrip (items[i]);

    if (*item && !g_ptr_array_find_with_equal_func (list, item, g_str_equal,
            NULL))
      g_ptr_array_add (list, g_strdup (item));
  }
}

/* What the user asked this provider to list. */
typedef struct
{
  GPtrArray *profiles; /* built-in names and profile files */
  gboolean nodes;      /* the V4L2 nodes too (v4l2deviceprovider hidden) */
} ProviderConfig;

static gboolean
is_yes (const gchar *v)
{
  return !g_ascii_strcasecmp (v, "1") || !g_ascii_strcasecmp (v, "yes")
      || !g_ascii_strcasecmp (v, "true");
}

/* provider.conf: one profile entry per line; "nodes = yes" (a line with
 * '=') is the one setting; '#' starts a comment. */
static void
read_config_file (ProviderConfig *conf, const gchar *path)
{
  gchar *text = NULL, **lines;
  guint i;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar *hash = strchr (lines[i], '#'), *eq;

    if (hash)
      *hash = '\0';
    eq = strchr (lines[i], '=');
    if (!eq)
      continue;
    *eq = '\0';
    if (!g_strcmp0 (g_strstrip (lines[i]), "nodes"))
      conf->nodes = is_yes (g_strstrip (eq + 1));
    else
      GST_WARNING ("%s: unknown setting '%s'", path, lines[i]);
    lines[i][0] = '\0'; /* not a profile entry */
  }
  add_entries (conf->profiles, lines);
  g_strfreev (lines);
  g_free (text);
}

/*
 * The file is $XDG_CONFIG_HOME/negcam/provider.conf ("~/.config" when
 * unset), read here rather than through g_get_user_config_dir(), which
 * caches. NEGCAM_PROVIDER_PROFILES (comma separated), when set even
 * empty, replaces the file's profiles; NEGCAM_PROVIDER_NODES its nodes
 * setting. Nothing set: nothing listed.
 */
static void
provider_config_read (ProviderConfig *conf)
{
  const gchar *env = g_getenv ("NEGCAM_PROVIDER_PROFILES");
  const gchar *nodes = g_getenv ("NEGCAM_PROVIDER_NODES");
  const gchar *xdg = g_getenv ("XDG_CONFIG_HOME");
  gchar *path;

  conf->profiles = g_ptr_array_new_with_free_func (g_free);
  conf->nodes = FALSE;
  if (xdg && g_path_is_absolute (xdg))
    path = g_build_filename (xdg, "negcam", "provider.conf", NULL);
  else
    path = g_build_filename (
        g_get_home_dir (), ".config", "negcam", "provider.conf", NULL);
  read_config_file (conf, path);
  if (env) {
    gchar **items = g_strsplit (env, ",", -1);

    g_ptr_array_set_size (conf->profiles, 0);
    add_entries (conf->profiles, items);
    g_strfreev (items);
  }
  if (nodes)
    conf->nodes = is_yes (nodes);
  GST_DEBUG ("%s: %u profiles, nodes %s", path, conf->profiles->len,
      conf->nodes ? "yes" : "no");
  g_free (path);
}

/* One listing per node: the nodes are either v4l2deviceprovider's (for
 * v4l2src, the default) or, when the user asks, all ours (for negcamsrc)
 * with v4l2deviceprovider hidden from GstDeviceMonitor. */
static void
claim_nodes (GstDeviceProvider *provider, gboolean nodes)
{
  if (nodes)
    gst_device_provider_hide_provider (provider, "v4l2deviceprovider");
  else
    gst_device_provider_unhide_provider (provider, "v4l2deviceprovider");
}

/* "video" followed by digits only: the V4L2 video nodes. */
static gboolean
is_video_node_name (const gchar *name)
{
  const gchar *p;

  if (!g_str_has_prefix (name, "video") || !name[5])
    return FALSE;
  for (p = name + 5; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

static gint
compare_node_names (gconstpointer a, gconstpointer b)
{
  const gchar *x = *(const gchar *const *)a, *y = *(const gchar *const *)b;

  return (gint)(strtoul (x + 5, NULL, 10) > strtoul (y + 5, NULL, 10))
         - (gint)(strtoul (x + 5, NULL, 10) < strtoul (y + 5, NULL, 10));
}

/* The node paths of @dir, in number order. */
static GPtrArray *
list_nodes (const gchar *dir)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  const gchar *name;
  GDir *d;
  guint i;

  d = g_dir_open (dir, 0, &err);
  if (!d) {
    GST_INFO ("no device directory: %s", err->message);
    g_error_free (err);
    g_ptr_array_unref (names);
    return paths;
  }
  while ((name = g_dir_read_name (d)))
    if (is_video_node_name (name))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_node_names);
  for (i = 0; i < names->len; i++)
    g_ptr_array_add (paths,
        g_build_filename (dir, (const gchar *)names->pdata[i], NULL));
  g_ptr_array_unref (names);
  return paths;
}

/* ------------------------------------------------------------------ */
/* GstNegcamDeviceProvider                                             */

struct _GstNegcamDeviceProvider
{
  GstDeviceProvider parent;

  gchar *device_directory; /* object lock */

  /* While started: the watch thread and its context. */
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  gchar *watch_dir;
  GMutex lock;
  GCond cond;
  gboolean ready;
  /* path -> NodeWatch of a listed node (its GstDevice is owned by the
   * provider's device list); used by the watch thread only while it
   * runs. */
  GHashTable *nodes;
};

enum
{
  PROP_0,
  PROP_DEVICE_DIRECTORY,
};

G_DEFINE_TYPE (GstNegcamDeviceProvider, gst_negcam_device_provider,
    GST_TYPE_DEVICE_PROVIDER);

GST_DEVICE_PROVIDER_REGISTER_DEFINE (negcamdeviceprovider,
    "negcamdeviceprovider", GST_RANK_MARGINAL,
    GST_TYPE_NEGCAM_DEVICE_PROVIDER);

static gchar *
get_device_directory (GstNegcamDeviceProvider *self)
{
  gchar *dir;

  GST_OBJECT_LOCK (self);
  dir = g_strdup (self->device_directory);
  GST_OBJECT_UNLOCK (self);
  return dir;
}

static GList *
probe_profiles (GPtrArray *profiles)
{
  GList *list = NULL;
  guint i;

  for (i = 0; i < profiles->len; i++) {
    GstDevice *device = probe_profile (profiles->pdata[i]);

    if (device)
      list = g_list_append (list, device);
  }
  return list;
}

/* Static listing (gst_device_provider_get_devices() when not started). */
static GList *
gst_negcam_device_provider_probe (GstDeviceProvider *provider)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (provider);
  ProviderConfig conf;
  GPtrArray *paths;
  GList *list = NULL;
  gchar *dir;
  guint i;

  provider_config_read (&conf);
  claim_nodes (provider, conf.nodes);
  dir = get_device_directory (self);
  paths = conf.nodes ? list_nodes (dir)
                     : g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < paths->len; i++) {
    GError *err = NULL;
    GstDevice *device = probe_node (paths->pdata[i], &err);

    if (device)
      list = g_list_append (list, device);
    else {
      GST_DEBUG_OBJECT (self, "skipped: %s", err->message);
      g_error_free (err);
    }
  }
  list = g_list_concat (list, probe_profiles (conf.profiles));
  g_ptr_array_unref (paths);
  g_ptr_array_unref (conf.profiles);
  g_free (dir);
  return list;
}

/* A listed node, in the watch thread: its device and, when the driver
 * sends V4L2_EVENT_SOURCE_CHANGE, the descriptor subscribed to it. */
typedef struct
{
  GstNegcamDeviceProvider *self;
  gchar *path;
  GstDevice *device; /* the one in the provider's list */
  gint fd;           /* -1 when the node has no source-change event */
  GSource *source;   /* POLLPRI on fd, in the watch thread's context */
} NodeWatch;

static void
node_watch_free (gpointer data)
{
  NodeWatch *w = data;

  if (w->source) {
    g_source_destroy (w->source);
    g_source_unref (w->source);
  }
  if (w->fd >= 0)
    close (w->fd);
  g_free (w->path);
  g_free (w);
}

/* POLLPRI: drain the events; a source change means other formats, so
 * probe the node again and replace its listing (DEVICE_CHANGED). */
static gboolean
on_node_event (gint fd, GIOCondition cond, gpointer data)
{
  NodeWatch *w = data;
  struct v4l2_event ev;
  gboolean changed = FALSE;
  GError *err = NULL;
  GstDevice *device;

  if (cond & (G_IO_ERR | G_IO_HUP | G_IO_NVAL)) {
    /* unplugged: the directory monitor removes the listing */
    g_clear_pointer (&w->source, g_source_unref);
    return G_SOURCE_REMOVE;
  }
  memset (&ev, 0, sizeof (ev));
  while (ioctl (fd, VIDIOC_DQEVENT, &ev) == 0)
    changed |= ev.type == V4L2_EVENT_SOURCE_CHANGE;
  if (!changed)
    return G_SOURCE_CONTINUE;
  device = probe_node (w->path, &err);
  if (!device) {
    GST_INFO_OBJECT (w->self, "%s changed, not usable now: %s", w->path,
        err->message);
    g_error_free (err);
    return G_SOURCE_CONTINUE;
  }
  GST_INFO_OBJECT (w->self, "%s changed its formats: listing replaced",
      w->path);
  gst_object_ref_sink (device);
  gst_device_provider_device_changed (
      GST_DEVICE_PROVIDER (w->self), device, w->device);
  w->device = device; /* the list holds it now */
  gst_object_unref (device);
  return G_SOURCE_CONTINUE;
}

/* Keep @w->path open and subscribed to V4L2_EVENT_SOURCE_CHANGE. A node
 * without the event (most cameras) is simply not followed. */
static void
node_watch_subscribe (NodeWatch *w)
{
  struct v4l2_event_subscription sub;

  w->fd = open (w->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (w->fd < 0)
    return;
  memset (&sub, 0, sizeof (sub));
  sub.type = V4L2_EVENT_SOURCE_CHANGE;
  if (ioctl (w->fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0) {
    GST_DEBUG_OBJECT (w->self, "%s: no source-change event: %s", w->path,
        g_strerror (errno));
    close (w->fd);
    w->fd = -1;
    return;
  }
  w->source = g_unix_fd_source_new (w->fd, G_IO_PRI | G_IO_ERR | G_IO_HUP);
  g_source_set_callback (
      w->source, (GSourceFunc)(GCallback)on_node_event, w, NULL);
  g_source_attach (w->source, w->self->context);
}

/* Watch thread: add @path if it is new and usable. */
static void
node_appeared (GstNegcamDeviceProvider *self, const gchar *path)
{
  GError *err = NULL;
  GstDevice *device;
  NodeWatch *w;

  if (g_hash_table_contains (self->nodes, path))
    return;
  device = probe_node (path, &err);
  if (!device) {
    /* EACCES: udev has not set the permissions yet; its attribute
     * change will bring us back. */
    GST_DEBUG_OBJECT (self, "not listed: %s", err->message);
    g_error_free (err);
    return;
  }
  GST_INFO_OBJECT (self, "node %s added", path);
  w = g_new0 (NodeWatch, 1);
  w->self = self;
  w->path = g_strdup (path);
  w->device = device;
  w->fd = -1;
  node_watch_subscribe (w);
  g_hash_table_insert (self->nodes, w->path, w);
  gst_device_provider_device_add (GST_DEVICE_PROVIDER (self), device);
}

static void
node_vanished (GstNegcamDeviceProvider *self, const gchar *path)
{
  NodeWatch *w = g_hash_table_lookup (self->nodes, path);
  GstDevice *device;

  if (!w)
    return;
  GST_INFO_OBJECT (self, "node %s removed", path);
  device = gst_object_ref (w->device);
  g_hash_table_remove (self->nodes, path);
  gst_device_provider_device_remove (GST_DEVICE_PROVIDER (self), device);
  gst_object_unref (device);
}

static void
on_dir_changed (GFileMonitor *monitor, GFile *file, GFile *other,
    GFileMonitorEvent event, gpointer user_data)
{
  GstNegcamDeviceProvider *self = user_data;
  gchar *name = g_file_get_basename (file);
  gchar *path;

  if (!name || !is_video_node_name (name)) {
    g_free (name);
    return;
  }
  path = g_build_filename (self->watch_dir, name, NULL);
  switch (event) {
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
      node_appeared (self, path);
      break;
    case G_FILE_MONITOR_EVENT_DELETED:
      node_vanished (self, path);
      break;
    default:
      break;
  }
  g_free (path);
  g_free (name);
}

static gpointer
watch_thread (gpointer data)
{
  GstNegcamDeviceProvider *self = data;
  GFileMonitor *monitor = NULL;
  GError *err = NULL;
  GPtrArray *paths;
  GFile *dir;
  guint i;

  g_main_context_push_thread_default (self->context);
  /* Watch first, then list: a node appearing in between is seen by
   * both, and node_appeared() ignores the second. */
  dir = g_file_new_for_path (self->watch_dir);
  if (g_file_test (self->watch_dir, G_FILE_TEST_IS_DIR))
    monitor = g_file_monitor_directory (dir, G_FILE_MONITOR_NONE, NULL, &err);
  if (monitor)
    g_signal_connect (monitor, "changed", G_CALLBACK (on_dir_changed), self);
  else {
    GST_WARNING_OBJECT (self, "%s: no hotplug: %s", self->watch_dir,
        err ? err->message : "not a directory");
    g_clear_error (&err);
  }
  paths = list_nodes (self->watch_dir);
  for (i = 0; i < paths->len; i++)
    node_appeared (self, paths->pdata[i]);
  g_ptr_array_unref (paths);

  g_mutex_lock (&self->lock);
  self->ready = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);

  g_main_loop_run (self->loop);

  if (monitor) {
    g_signal_handlers_disconnect_by_data (monitor, self);
    g_file_monitor_cancel (monitor);
    g_object_unref (monitor);
  }
  g_object_unref (dir);
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

static gboolean
gst_negcam_device_provider_start (GstDeviceProvider *provider)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (provider);
  ProviderConfig conf;
  GList *profiles, *l;

  provider_config_read (&conf);
  claim_nodes (provider, conf.nodes);
  profiles = probe_profiles (conf.profiles);
  g_ptr_array_unref (conf.profiles);
  for (l = profiles; l; l = l->next)
    gst_device_provider_device_add (provider, l->data);
  g_list_free (profiles);
  if (!conf.nodes)
    return TRUE; /* the nodes are v4l2deviceprovider's */
  self->watch_dir = get_device_directory (self);
  self->nodes =
      g_hash_table_new_full (g_str_hash, g_str_equal, NULL, node_watch_free);
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  self->ready = FALSE;
  self->thread = g_thread_new ("negcam-hotplug", watch_thread, self);
  g_mutex_lock (&self->lock);
  while (!self->ready)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
quit_loop (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
gst_negcam_device_provider_stop (GstDeviceProvider *provider)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (provider);
  GSource *idle;

  if (!self->thread)
    return;
  /* Quit from inside the loop: a g_main_loop_quit() before the thread
   * reaches g_main_loop_run() would be forgotten by it. */
  idle = g_idle_source_new ();
  g_source_set_callback (idle, quit_loop, self->loop, NULL);
  g_source_attach (idle, self->context);
  g_source_unref (idle);
  g_thread_join (self->thread);
  self->thread = NULL;
  /* The devices themselves are dropped by GstDeviceProvider. */
  g_clear_pointer (&self->nodes, g_hash_table_unref);
  g_clear_pointer (&self->loop, g_main_loop_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->watch_dir, g_free);
}

static void
gst_negcam_device_provider_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (object);

  switch (prop_id) {
    case PROP_DEVICE_DIRECTORY:
      GST_OBJECT_LOCK (self);
      g_free (self->device_directory);
      self->device_directory = g_value_dup_string (value);
      if (!self->device_directory || !*self->device_directory) {
        g_free (self->device_directory);
        self->device_directory = g_strdup (DEFAULT_DEVICE_DIRECTORY);
      }
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_negcam_device_provider_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (object);

  switch (prop_id) {
    case PROP_DEVICE_DIRECTORY:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->device_directory);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_negcam_device_provider_finalize (GObject *object)
{
  GstNegcamDeviceProvider *self = GST_NEGCAM_DEVICE_PROVIDER (object);

  g_free (self->device_directory);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gst_negcam_device_provider_parent_class)->finalize (object);
}

static void
gst_negcam_device_provider_class_init (GstNegcamDeviceProviderClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstDeviceProviderClass *dp_class = GST_DEVICE_PROVIDER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (negcamdeviceprovider_debug, "negcamdeviceprovider",
      0, "negcam device provider");
  negcam_device_debug_init ();

  gobject_class->set_property = gst_negcam_device_provider_set_property;
  gobject_class->get_property = gst_negcam_device_provider_get_property;
  gobject_class->finalize = gst_negcam_device_provider_finalize;
  dp_class->probe = gst_negcam_device_provider_probe;
  dp_class->start = gst_negcam_device_provider_start;
  dp_class->stop = gst_negcam_device_provider_stop;

  g_object_class_install_property (gobject_class, PROP_DEVICE_DIRECTORY,
      g_param_spec_string ("device-directory", "Device directory",
          "Directory whose video<N> nodes are listed and watched; read on "
          "start", DEFAULT_DEVICE_DIRECTORY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_device_provider_class_set_static_metadata (dp_class,
      "negcam device provider", "Video/Source/Sink",
      "Lists the negcam profiles a user names and, when asked, the V4L2 "
      "capture nodes for negcamsrc and output nodes for negcamsink",
      "negcam");
}

static void
gst_negcam_device_provider_init (GstNegcamDeviceProvider *self)
{
  ProviderConfig conf;

  /* Hidden from the start: a GstDeviceMonitor reads the hidden providers
   * when it adds this one, before anything is listed or started. */
  provider_config_read (&conf);
  claim_nodes (GST_DEVICE_PROVIDER (self), conf.nodes);
  g_ptr_array_unref (conf.profiles);
  self->device_directory = g_strdup (DEFAULT_DEVICE_DIRECTORY);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}
