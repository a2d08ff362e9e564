/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The virtual camera's request handling on a real USB device controller:
 * the kernel's UVC gadget function (usb_f_uvc, made through configfs with
 * libcomposite) serves the descriptors and the standard requests, and
 * hands every UVC class request to user space as a V4L2 event on its
 * output node (linux/usb/g_uvc.h). This header declares the three parts
 * that do no I/O on that node, one file each:
 *
 *  - uvc-gadget-fit.c: the device core's descriptor model cut down to
 *    what usb_f_uvc's configfs describes;
 *  - uvc-gadget-configfs.c: the configfs tree, the gadget made from that
 *    model (uvc-descriptors.h) so that the format and frame indexes the
 *    host sees are the core's, bound to a UDC, and removed;
 *  - uvc-gadget-ep0.c: the events, UVC_EVENT_SETUP and UVC_EVENT_DATA
 *    turned into calls of nc_uvc_control() (uvc-requests.c, the same
 *    PROBE/COMMIT and PU handling as on vhci-hcd) and into the
 *    UVCIOC_SEND_RESPONSE answer.
 *
 * negcam-uvc-gadget.c is the program's loop around them.
 */
#ifndef NEGCAM_UVC_GADGET_H
#define NEGCAM_UVC_GADGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/videodev2.h>
#include <linux/usb/g_uvc.h>

#include "uvc-device.h"

#define NC_GADGET_CONFIGFS "/sys/kernel/config"

/*
 * uvc-gadget-fit.c: fit the device's descriptor model to what usb_f_uvc's configfs
 * describes (Linux 6.1: uncompressed and MJPEG formats, discrete
 * intervals): frame-based formats (H.264) and frames with a continuous
 * interval range are left out with a warning in dev->desc.warnings; the
 * core is reset to the new indexes and marked configured (the kernel
 * answers SET_CONFIGURATION itself). 0, or -EINVAL when nothing is left.
 */
int nc_uvc_gadget_fit(struct nc_uvc_dev *dev);

/*
 * uvc-gadget-configfs.c: make gadget @name under @root/usb_gadget (root: NC_GADGET_CONFIGFS, or
 * a plain directory in tests) from @d: identity, strings, one
 * configuration, functions/uvc.0 with its control and streaming headers,
 * one format directory per format and one frame directory per frame in
 * the model's order. With @udc, bind it (write UDC). 0, or -1 with a
 * message naming the file in @msg.
 */
int nc_uvc_gadget_create(const struct nc_uvc_desc *d, const char *root, const char *name,
			 const char *udc, char *msg, size_t msglen);

/* Unbind and remove gadget @name (every link, then every directory). 0, or -1 with @msg. */
int nc_uvc_gadget_remove(const char *root, const char *name, char *msg, size_t msglen);

/* The path of gadget @name's directory into @out. */
void nc_uvc_gadget_path(const char *root, const char *name, const char *sub, char *out, size_t len);

struct nc_uvc_gadget_counts {
	uint64_t connect, disconnect, streamon, streamoff, setup, data, stalled;
};

/* uvc-gadget-ep0.c: the control plane between the gadget's events and the device core. */
struct nc_uvc_ep0 {
	uint8_t vc_intf, vs_intf;      /* the gadget's interface numbers */
	bool pending;                  /* a class OUT request waits for its data */
	uint8_t setup[8];
	struct nc_uvc_gadget_counts counts;
};

/* What to do after an event. */
enum nc_uvc_ep0_action {
	NC_EP0_NONE,      /* nothing to send */
	NC_EP0_RESPOND,   /* send @resp with UVCIOC_SEND_RESPONSE */
	NC_EP0_STREAMON,  /* the host chose a streaming alternate setting */
	NC_EP0_STREAMOFF, /* the host left it, or disconnected */
};

/*
 * Handle event @type (UVC_EVENT_*) with payload @ev. SETUP of an IN
 * request, or an OUT request without data: answered at once (resp->length
 * the IN bytes, 0, or -EL2HLT for a stall). SETUP of an OUT request with
 * data: resp->length = wLength, the data stage is accepted; its DATA
 * event is then handed to the core (a refusal there cannot stall any
 * more: the core keeps its error code and its state unchanged).
 */
enum nc_uvc_ep0_action nc_uvc_ep0_event(struct nc_uvc_ep0 *g, struct nc_uvc_dev *dev, uint32_t type,
					const struct uvc_event *ev, struct uvc_request_data *resp);

#endif /* NEGCAM_UVC_GADGET_H */
