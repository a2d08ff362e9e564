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
 * Both are described by negcamlisteddevice.c (QUERYCAP and the format
 * cache, so a listed device offers exactly the caps the element would);
 * what to list is read by negcamdeviceprovider-config.c, the nodes of the
 * directory by negcamdeviceprovider-nodes.c. This file is the provider
 * and its hotplug watch.
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
 * (POLLPRI) makes the node described again and the new GstDevice replaces the
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
#include "negcamdeviceprovider-private.h"
#include "negcamlisteddevice.h"
#include "negcamdevice.h"

GST_DEBUG_CATEGORY (negcamdeviceprovider_debug);
#define GST_CAT_DEFAULT negcamdeviceprovider_debug

#define DEFAULT_DEVICE_DIRECTORY "/dev"

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
describe_profiles (GPtrArray *profiles)
{
  GList *list = NULL;
  guint i;

  for (i = 0; i < profiles->len; i++) {
    GstDevice *device =
        negcam_listed_device_describe_profile (profiles->pdata[i]);

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

  negcam_provider_config_read (&conf);
  claim_nodes (provider, conf.nodes);
  dir = get_device_directory (self);
  paths = conf.nodes ? negcam_list_video_nodes (dir)
                     : g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < paths->len; i++) {
    GError *err = NULL;
    GstDevice *device =
        negcam_listed_device_describe_node (paths->pdata[i], &err);

    if (device)
      list = g_list_append (list, device);
    else {
      GST_DEBUG_OBJECT (self, "skipped: %s", err->message);
      g_error_free (err);
    }
  }
  list = g_list_concat (list, describe_profiles (conf.profiles));
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
 * describe the node again and replace its listing (DEVICE_CHANGED). */
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
  device = negcam_listed_device_describe_node (w->path, &err);
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
  device = negcam_listed_device_describe_node (path, &err);
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

  if (!name || !negcam_is_video_node_name (name)) {
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
  paths = negcam_list_video_nodes (self->watch_dir);
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

  negcam_provider_config_read (&conf);
  claim_nodes (provider, conf.nodes);
  profiles = describe_profiles (conf.profiles);
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
  negcam_provider_config_read (&conf);
  claim_nodes (GST_DEVICE_PROVIDER (self), conf.nodes);
  g_ptr_array_unref (conf.profiles);
  self->device_directory = g_strdup (DEFAULT_DEVICE_DIRECTORY);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}
