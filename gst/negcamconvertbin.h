/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GstNegcamConvertBin: the abstract bin behind negcamconvertsink and
 * negcamuvcconvertsink (videorate, videoconvert, videoscale and, when the
 * device wants JPEG, jpegenc in front of a negcam sink). A subclass adds
 * no instance fields: it is registered with
 * gst_negcam_convert_bin_subclass(), sets sink_factory in its class_init
 * and installs the sink's properties it shows, which the bin forwards to
 * the sink by name.
 */
#ifndef __GST_NEGCAM_CONVERT_BIN_H__
#define __GST_NEGCAM_CONVERT_BIN_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstNegcamConvertBin GstNegcamConvertBin;
typedef struct _GstNegcamConvertBinClass {
  GstBinClass parent_class;
  const gchar *sink_factory; /* the element at the end of the chain */
} GstNegcamConvertBinClass;

GType gst_negcam_convert_bin_get_type (void);
#define GST_TYPE_NEGCAM_CONVERT_BIN (gst_negcam_convert_bin_get_type ())
#define GST_NEGCAM_CONVERT_BIN(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), \
    GST_TYPE_NEGCAM_CONVERT_BIN, GstNegcamConvertBin))
#define GST_NEGCAM_CONVERT_BIN_GET_CLASS(obj) (G_TYPE_INSTANCE_GET_CLASS ( \
    (obj), GST_TYPE_NEGCAM_CONVERT_BIN, GstNegcamConvertBinClass))

/* Register (once, into *@type) the subclass @name of GstNegcamConvertBin
 * with @class_init; its GType. */
GType gst_negcam_convert_bin_subclass (
    gsize *type, const gchar *name, GClassInitFunc class_init);

G_END_DECLS

#endif /* __GST_NEGCAM_CONVERT_BIN_H__ */
