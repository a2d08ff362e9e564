// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The UVC gadget's descriptor fit (see uvc-gadget.h): the device core's
 * descriptor model cut down to what usb_f_uvc's configfs can describe in
 * Linux 6.1 (drivers/usb/gadget/function/uvc_configfs.c: uncompressed and
 * MJPEG formats, discrete intervals), each cut written as a warning, and
 * the core reset to the indexes that are left.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "uvc-gadget.h"

static void note(struct nc_uvc_desc *d, const char *fmt, ...)
{
	size_t n = strlen(d->warnings);
	va_list ap;

	va_start(ap, fmt);
	if (n + 1 < sizeof(d->warnings))
		vsnprintf(d->warnings + n, sizeof(d->warnings) - n, fmt, ap);
	va_end(ap);
}

/* Keep @uf's frames with discrete intervals; false when none is left. */
static bool fit_frames(struct nc_uvc_desc *d, struct nc_uvc_format *uf)
{
	unsigned int i, n = 0, def = 1;

	for (i = 0; i < uf->nframes; i++) {
		if (!uf->frames[i].nintervals) {
			note(d, "format %.4s: %ux%u left out: usb_f_uvc lists discrete intervals only\n",
			     (const char *)&uf->fourcc, uf->frames[i].width, uf->frames[i].height);
			continue;
		}
		if (i + 1 == uf->def_frame)
			def = n + 1;
		uf->frames[n++] = uf->frames[i];
	}
	uf->nframes = (uint8_t)n;
	uf->def_frame = (uint8_t)def;
	return n > 0;
}

int nc_uvc_gadget_fit(struct nc_uvc_dev *dev)
{
	struct nc_uvc_desc *d = &dev->desc;
	unsigned int i, n = 0, def = 1;

	for (i = 0; i < d->nformats; i++) {
		struct nc_uvc_format *uf = &d->formats[i];

		if (uf->subtype == NC_UVC_FORMAT_FRAME_BASED) {
			note(d, "format %.4s left out: usb_f_uvc (Linux 6.1) has no frame-based formats\n",
			     (const char *)&uf->fourcc);
			continue;
		}
		if (!fit_frames(d, uf))
			continue;
		if (i + 1 == d->def_format)
			def = n + 1;
		if (n != i)
			d->formats[n] = *uf;
		n++;
	}
	d->nformats = (uint8_t)n;
	d->def_format = (uint8_t)def;
	if (!n)
		return -EINVAL;
	nc_uvc_dev_reset(dev);
	dev->config = 1; /* class requests come only to a configured gadget */
	return 0;
}
