/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Plugging the virtual camera into vhci-hcd, USB/IP's virtual host
 * controller, through its sysfs files (Linux drivers/usb/usbip/
 * vhci_sysfs.c): a free high-speed port from the status files, one end of
 * a connected AF_UNIX socket pair written to `attach` as "port sockfd
 * devid speed" (the kernel keeps its own reference to that socket), and
 * the port written to `detach` to unplug. No network, no usbipd.
 */
#ifndef NEGCAM_UVC_VHCI_ATTACH_H
#define NEGCAM_UVC_VHCI_ATTACH_H

#include <stddef.h>

#define NC_VHCI_DIR "/sys/devices/platform/vhci_hcd.0"

struct nc_vhci {
	int port; /* the vhci port number, as `attach` and `detach` take it */
	int fd;   /* our end of the socket pair: the device side of USB/IP */
};

/*
 * Attach on port @port (-1: the first free high-speed port). Returns 0,
 * or -1 with a message for a person in @msg: vhci-hcd not loaded (and how
 * to load it), not root, no free port, the port taken, the write refused.
 */
int nc_vhci_attach(struct nc_vhci *v, int port, char *msg, size_t msglen);

/* Unplug (write the port to `detach`); the socket stays open. 0 or -errno. */
int nc_vhci_detach(const struct nc_vhci *v);

#endif /* NEGCAM_UVC_VHCI_ATTACH_H */
