/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * negcamdeviceprovider's parts, shared by its files:
 *  - negcamdeviceprovider.c: the GstDeviceProvider (probe, start, stop,
 *    the "device-directory" property) and its hotplug watch thread;
 *  - negcamdeviceprovider-config.c: what the user asked it to list
 *    (provider.conf and the NEGCAM_PROVIDER_* variables);
 *  - negcamdeviceprovider-nodes.c: the video nodes of a directory;
 *  - negcamlisteddevice.c: each listed GstDevice, and how a node or a
 *    profile is described.
 * The debug category "negcamdeviceprovider" is negcamdeviceprovider.c's.
 */
#ifndef __GST_NEGCAM_DEVICE_PROVIDER_PRIVATE_H__
#define __GST_NEGCAM_DEVICE_PROVIDER_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* What the user asked this provider to list. */
typedef struct {
  GPtrArray *profiles; /* built-in names and profile files */
  gboolean nodes; /* the V4L2 nodes too (v4l2deviceprovider hidden) */
} ProviderConfig;

/* Read the configuration into @conf (@conf->profiles: the caller
 * unrefs it). */
void negcam_provider_config_read (ProviderConfig *conf);

/* "video" followed by digits only: the V4L2 video nodes. */
gboolean negcam_is_video_node_name (const gchar *name);

/* The node paths of @dir, in number order (empty when @dir cannot be
 * read). */
GPtrArray *negcam_list_video_nodes (const gchar *dir);

G_END_DECLS

#endif /* __GST_NEGCAM_DEVICE_PROVIDER_PRIVATE_H__ */
