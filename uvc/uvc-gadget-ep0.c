// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The UVC gadget's endpoint-0 events (see uvc-gadget.h): usb_f_uvc's
 * UVC_EVENT_SETUP and UVC_EVENT_DATA, with the gadget's interface numbers
 * mapped to the core's, answered by the core's endpoint-0 handling
 * (nc_uvc_control(), uvc-requests.c) and turned into the
 * UVCIOC_SEND_RESPONSE answer; CONNECT, DISCONNECT, STREAMON and
 * STREAMOFF counted and told to the core and the caller.
 */
#include <errno.h>
#include <string.h>

#include "uvc-bytes.h"
#include "uvc-gadget.h"

/* @setup with the gadget's interface number in wIndex turned into the core's. */
static void map_interface(const struct nc_uvc_ep0 *g, uint8_t setup[8])
{
	if ((setup[0] & 0x1f) != 1) /* not to an interface */
		return;
	if (setup[4] == g->vc_intf)
		setup[4] = NC_UVC_IF_VC;
	else if (setup[4] == g->vs_intf)
		setup[4] = NC_UVC_IF_VS;
	else
		setup[4] = 0xff; /* an interface the core does not have: a stall */
}

static enum nc_uvc_ep0_action ep0_setup(struct nc_uvc_ep0 *g, struct nc_uvc_dev *dev,
					const struct usb_ctrlrequest *req,
					struct uvc_request_data *resp)
{
	uint8_t setup[8], in[256];
	uint16_t wlength;
	int n;

	g->counts.setup++;
	memcpy(setup, req, sizeof(setup));
	map_interface(g, setup);
	wlength = nc_uvc_le16(setup + 6);
	memset(resp, 0, sizeof(*resp));
	if (wlength > sizeof(resp->data)) {
		n = -EPIPE;
	} else if (!(setup[0] & 0x80) && wlength) {
		memcpy(g->setup, setup, sizeof(setup));
		g->pending = true;
		resp->length = wlength; /* take the data stage; DATA follows */
		return NC_EP0_RESPOND;
	} else {
		n = nc_uvc_control(dev, setup, NULL, 0, in);
	}
	if (n < 0) {
		g->counts.stalled++;
		resp->length = -EL2HLT; /* f_uvc halts endpoint 0 on a negative length */
	} else {
		resp->length = n;
		memcpy(resp->data, in, (size_t)n);
	}
	return NC_EP0_RESPOND;
}

enum nc_uvc_ep0_action nc_uvc_ep0_event(struct nc_uvc_ep0 *g, struct nc_uvc_dev *dev, uint32_t type,
					const struct uvc_event *ev, struct uvc_request_data *resp)
{
	uint8_t in[256];
	int32_t len;

	switch (type) {
	case UVC_EVENT_CONNECT:
		g->counts.connect++;
		return NC_EP0_NONE;
	case UVC_EVENT_DISCONNECT:
		g->counts.disconnect++;
		g->pending = false;
		nc_uvc_dev_set_streaming(dev, false);
		return NC_EP0_STREAMOFF;
	case UVC_EVENT_STREAMON:
		g->counts.streamon++;
		nc_uvc_dev_set_streaming(dev, true); /* COMMIT is refused while streaming, as on vhci-hcd */
		return NC_EP0_STREAMON;
	case UVC_EVENT_STREAMOFF:
		g->counts.streamoff++;
		nc_uvc_dev_set_streaming(dev, false);
		return NC_EP0_STREAMOFF;
	case UVC_EVENT_SETUP:
		return ep0_setup(g, dev, &ev->req, resp);
	case UVC_EVENT_DATA:
		g->counts.data++;
		if (!g->pending)
			return NC_EP0_NONE;
		g->pending = false;
		len = ev->data.length;
		if (len < 0 || len > (int32_t)sizeof(ev->data.data))
			len = 0;
		if (nc_uvc_control(dev, g->setup, ev->data.data, (uint32_t)len, in) < 0)
			g->counts.stalled++;
		return NC_EP0_NONE;
	}
	return NC_EP0_NONE;
}
