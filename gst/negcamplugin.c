/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The negcam plugin: registers negcamsrc, negcamsink, negcamconvertsink,
 * negcamuvcsink, negcamuvcconvertsink, negcampwsink and
 * negcampwconvertsink (when built with libpipewire) and
 * negcamdeviceprovider.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include "negcamsrc.h"
#include "negcamsink.h"
#include "negcamuvcsink.h"
#ifdef HAVE_PIPEWIRE
#include "negcampwsink.h"
#endif
#include "negcamdeviceprovider.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ok = GST_ELEMENT_REGISTER (negcamsrc, plugin);

  ok &= GST_ELEMENT_REGISTER (negcamsink, plugin);
  ok &= GST_ELEMENT_REGISTER (negcamconvertsink, plugin);
  ok &= GST_ELEMENT_REGISTER (negcamuvcsink, plugin);
  ok &= GST_ELEMENT_REGISTER (negcamuvcconvertsink, plugin);
#ifdef HAVE_PIPEWIRE
  ok &= GST_ELEMENT_REGISTER (negcampwsink, plugin);
  ok &= GST_ELEMENT_REGISTER (negcampwconvertsink, plugin);
#endif
  ok &= GST_DEVICE_PROVIDER_REGISTER (negcamdeviceprovider, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, negcam,
    "V4L2 format negotiation made testable: a source on a driver-like engine",
    plugin_init, NEGCAM_VERSION, "LGPL", "negcam", "Unknown package origin")
