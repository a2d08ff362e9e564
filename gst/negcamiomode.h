/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The io-mode property's enum, defined once for negcamsrc and negcamsink:
 * one table of NegcamPoolMemory's values, nicks and words
 * (negcamiomode.c). Each element registers its GType from it, under the
 * name it has always had (GstNegcamIOMode, GstNegcamSinkIoMode), with the
 * words for its direction and its default first, so that gst-inspect-1.0
 * and saved pipelines see no change.
 */
#ifndef __NEGCAM_IO_MODE_H__
#define __NEGCAM_IO_MODE_H__

#include <gst/gst.h>
#include "negcampool.h"

G_BEGIN_DECLS

/* negcamsrc's io-mode: GstNegcamIOMode, capture words, auto first. */
#define GST_TYPE_NEGCAM_IO_MODE (negcam_io_mode_get_type (FALSE))
/* negcamsink's io-mode: GstNegcamSinkIoMode, output words, mmap first. */
#define GST_TYPE_NEGCAM_SINK_IO_MODE (negcam_io_mode_get_type (TRUE))

GType negcam_io_mode_get_type (gboolean output);

G_END_DECLS

#endif /* __NEGCAM_IO_MODE_H__ */
