/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The negcam plugin: registers negcamsrc, nothing else.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include "gstnegcamsrc.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  return GST_ELEMENT_REGISTER (negcamsrc, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, negcam,
    "V4L2 format negotiation made testable: a source on a driver-like engine",
    plugin_init, NEGCAM_VERSION, "LGPL", "negcam", "docs/negcamsrc.md")
