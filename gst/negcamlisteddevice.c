/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstNegcamListedDevice: one device negcamdeviceprovider lists, and how
 * it is described. A device is opened through the device interface
 * (negcamdevice.h), asked VIDIOC_QUERYCAP, and its caps come from the
 * format cache (negcamformatcache.h) unfiltered, the very enumeration the
 * element uses, so a listed device offers exactly the caps the element
 * would. A capture node or an embedded profile is a Video/Source whose
 * element is negcamsrc; an output-only node (a negcam.ko loop's output
 * side, vivid's video output) is a Video/Sink whose caps come from the
 * output queue and whose element is negcamsink. create_element() gives
 * the element with device= or profile= set. The provider, its
 * configuration and its hotplug thread are negcamdeviceprovider*.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gio/gio.h>

#include "negcamlisteddevice.h"
#include "negcamsrc.h"
#include "negcamsink.h"
#include "negcamformatcache.h"
#include "negcamdevice.h"
#include "profile.h"

GST_DEBUG_CATEGORY_EXTERN (negcamdeviceprovider_debug);
#define GST_CAT_DEFAULT negcamdeviceprovider_debug

struct _GstNegcamListedDevice {
  GstDevice parent;

  /* An output-only node (V4L2_CAP_VIDEO_OUTPUT without capture: a
   * negcam.ko loop's output side, vivid's video output): a Video/Sink
   * device, caps from the output queue, element negcamsink. */
  gboolean output;
  gchar *path; /* V4L2 node, or NULL for an embedded profile */
  gchar *profile; /* built-in profile name or file, NULL for a node */
};

G_DEFINE_TYPE (
    GstNegcamListedDevice, gst_negcam_listed_device, GST_TYPE_DEVICE);

static GstElement *
gst_negcam_listed_device_create_element (GstDevice *device, const gchar *name)
{
  GstNegcamListedDevice *self = GST_NEGCAM_LISTED_DEVICE (device);
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
gst_negcam_listed_device_reconfigure_element (
    GstDevice *device, GstElement *element)
{
  GstNegcamListedDevice *self = GST_NEGCAM_LISTED_DEVICE (device);

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
gst_negcam_listed_device_finalize (GObject *object)
{
  GstNegcamListedDevice *self = GST_NEGCAM_LISTED_DEVICE (object);

  g_free (self->path);
  g_free (self->profile);
  G_OBJECT_CLASS (gst_negcam_listed_device_parent_class)->finalize (object);
}

static void
gst_negcam_listed_device_class_init (GstNegcamListedDeviceClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstDeviceClass *device_class = GST_DEVICE_CLASS (klass);

  gobject_class->finalize = gst_negcam_listed_device_finalize;
  device_class->create_element = gst_negcam_listed_device_create_element;
  device_class->reconfigure_element =
      gst_negcam_listed_device_reconfigure_element;
}

static void
gst_negcam_listed_device_init (GstNegcamListedDevice *self)
{}

/* The "profile" attribute negcam.ko gives its platform device, if the
 * node is one of its. */
static gchar *
kmod_profile_of (const gchar *path)
{
  gchar *base = g_path_get_basename (path);
  gchar *attr =
      g_strdup_printf ("/sys/class/video4linux/%s/device/profile", base);
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
  props = gst_structure_new ("negcamdeviceprovider", "device.api",
      G_TYPE_STRING, path ? "v4l2" : "negcam", "v4l2.device.driver",
      G_TYPE_STRING, driver, "v4l2.device.card", G_TYPE_STRING, card,
      "v4l2.device.bus_info", G_TYPE_STRING, bus_info, "v4l2.device.version",
      G_TYPE_UINT, cap->version, "v4l2.device.capabilities", G_TYPE_UINT,
      cap->capabilities, "v4l2.device.device_caps", G_TYPE_UINT, flags, NULL);
  if (path) {
    gchar *kprofile =
        g_str_equal (driver, "negcam") ? kmod_profile_of (path) : NULL;

    gst_structure_set (props, "device.path", G_TYPE_STRING, path, NULL);
    if (kprofile && *kprofile)
      gst_structure_set (
          props, "negcam.profile", G_TYPE_STRING, kprofile, NULL);
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
 * caps (the element's format cache, unfiltered). NULL with @error when it is
 * not a video capture device or offers nothing negcamsrc can map.
 */
static GstDevice *
describe (
    NegcamDevice *dev, const gchar *path, const gchar *profile, GError **error)
{
  struct v4l2_capability cap;
  GstNegcamListedDevice *device;
  GstStructure *props;
  NegcamFormatCache *cache;
  GstCaps *caps;
  gchar *display;
  guint32 flags, capture;
  gboolean output;
  gint ret;

  memset (&cap, 0, sizeof (cap));
  ret = negcam_device_ioctl (dev, VIDIOC_QUERYCAP, &cap);
  if (ret < 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "%s: not a V4L2 device (VIDIOC_QUERYCAP: %s)",
        negcam_device_get_description (dev), g_strerror (-ret));
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

  cache = negcam_format_cache_new_for_type (
      dev, output ? V4L2_BUF_TYPE_VIDEO_OUTPUT : capture);
  caps = negcam_format_cache_caps (cache, NULL);
  negcam_format_cache_free (cache);
  if (gst_caps_is_empty (caps)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
        "%s: enumerates no format negcam can map",
        negcam_device_get_description (dev));
    gst_caps_unref (caps);
    return NULL;
  }

  props = device_properties (&cap, flags, path, profile, &display);
  device = g_object_new (GST_TYPE_NEGCAM_LISTED_DEVICE, "display-name", display,
      "device-class", output ? "Video/Sink" : "Video/Source", "caps", caps,
      "properties", props, NULL);
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
GstDevice *
negcam_listed_device_describe_node (const gchar *path, GError **error)
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
GstDevice *
negcam_listed_device_describe_profile (const gchar *profile)
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
