/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstNegcamListedDevice: a device negcamdeviceprovider lists (a V4L2
 * capture or output-only node, or an embedded profile), described from
 * its QUERYCAP answer and its format cache; create_element() gives a
 * negcamsrc, or a negcamsink for an output-only node. See
 * negcamlisteddevice.c.
 */
#ifndef __GST_NEGCAM_LISTED_DEVICE_H__
#define __GST_NEGCAM_LISTED_DEVICE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_LISTED_DEVICE (gst_negcam_listed_device_get_type ())
G_DECLARE_FINAL_TYPE (GstNegcamListedDevice, gst_negcam_listed_device, GST,
    NEGCAM_LISTED_DEVICE, GstDevice)

/* Open the V4L2 node @path and describe it: NULL (and why, in @error)
 * when it cannot be opened or offers no capture or output negcam can
 * use. */
GstDevice *negcam_listed_device_describe_node (
    const gchar *path, GError **error);

/* Open the embedded profile @profile (built-in name or file) and
 * describe it; NULL, with a warning in the log, when it fails. */
GstDevice *negcam_listed_device_describe_profile (const gchar *profile);

G_END_DECLS

#endif /* __GST_NEGCAM_LISTED_DEVICE_H__ */
