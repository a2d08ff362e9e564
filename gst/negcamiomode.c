/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The io-mode enum of negcamsrc and negcamsink, from one table: see
 * negcamiomode.h.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "negcamiomode.h"

/* NEGCAM_POOL_MEMORY_IMPORT is no io-mode: the sink's dmabuf-import
 * property chooses it. */
static const struct {
  NegcamPoolMemory value;
  const gchar *nick;
  const gchar *capture; /* negcamsrc's words */
  const gchar *output; /* negcamsink's words */
} io_modes[] = {
  { NEGCAM_POOL_MEMORY_AUTO, "auto",
      "dma-buf (EXPBUF) when the device exports, else MMAP",
      "Output buffers exported as dma-bufs when the device can, else mmap" },
  { NEGCAM_POOL_MEMORY_MMAP, "mmap", "The device's mmap()ed buffers",
      "Output buffers mmap()ed from the device" },
  { NEGCAM_POOL_MEMORY_DMABUF, "dmabuf",
      "Exported dma-bufs only (error when the device cannot EXPBUF)",
      "Output buffers exported as dma-bufs, error when EXPBUF fails" },
};

/* The element's default first, then the table's order. */
static GType
register_io_mode (const gchar *name, gboolean output, NegcamPoolMemory first)
{
  GEnumValue *values = g_new0 (GEnumValue, G_N_ELEMENTS (io_modes) + 1);
  guint i, n = 1;

  for (i = 0; i < G_N_ELEMENTS (io_modes); i++) {
    GEnumValue *v = &values[io_modes[i].value == first ? 0 : n++];

    v->value = io_modes[i].value;
    v->value_nick = io_modes[i].nick;
    v->value_name = output ? io_modes[i].output : io_modes[i].capture;
  }
  return g_enum_register_static (name, values); /* values: kept for good */
}

GType
negcam_io_mode_get_type (gboolean output)
{
  static GType types[2] = { 0, 0 };

  if (g_once_init_enter (&types[output ? 1 : 0])) {
    GType t = output
        ? register_io_mode (
            "GstNegcamSinkIoMode", TRUE, NEGCAM_POOL_MEMORY_MMAP)
        : register_io_mode ("GstNegcamIOMode", FALSE, NEGCAM_POOL_MEMORY_AUTO);

    g_once_init_leave (&types[output ? 1 : 0], t);
  }
  return types[output ? 1 : 0];
}
