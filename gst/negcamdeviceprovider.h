/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamdeviceprovider: lists what negcamsrc can open for GstDeviceMonitor
 * (gst-device-monitor-1.0 Video/Source): the V4L2 capture nodes of a
 * device directory (/dev), with hotplug, and the built-in profiles of the
 * embedded engine. Each is a GstNegcamListedDevice (negcamlisteddevice.h).
 */
#ifndef __GST_NEGCAM_DEVICE_PROVIDER_H__
#define __GST_NEGCAM_DEVICE_PROVIDER_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_NEGCAM_DEVICE_PROVIDER (gst_negcam_device_provider_get_type ())
G_DECLARE_FINAL_TYPE (GstNegcamDeviceProvider, gst_negcam_device_provider,
    GST, NEGCAM_DEVICE_PROVIDER, GstDeviceProvider)

GST_DEVICE_PROVIDER_REGISTER_DECLARE (negcamdeviceprovider);

G_END_DECLS

#endif /* __GST_NEGCAM_DEVICE_PROVIDER_H__ */
