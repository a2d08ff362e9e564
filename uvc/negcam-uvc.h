/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The program negcam-uvc's own parts: main and the camera on vhci-hcd
 * (negcam-uvc.c), the camera as a UVC gadget on a device controller
 * (negcam-uvc-gadget.c, --gadget UDC), and what both use
 * (negcam-uvc-common.c: signals and the counts line). Everything here is
 * named nc_uvc_, as the rest of uvc/ is.
 */
#ifndef NEGCAM_UVC_PROGRAM_H
#define NEGCAM_UVC_PROGRAM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "uvc-device.h"

/* SIGINT, SIGTERM and SIGUSR1 handled (without SA_RESTART: ppoll returns EINTR). */
void nc_uvc_install_signals(void);
/* Set by the signal handler: SIGINT or SIGTERM (stop), SIGUSR1 (print the counts). */
extern volatile sig_atomic_t nc_uvc_stop_signal, nc_uvc_counts_asked;

/* The "negcam-uvc: WHAT: N control requests ..." line on stderr. */
void nc_uvc_print_counts(const struct nc_uvc_dev *dev, const char *what);

/*
 * --gadget UDC: serve @dev (built, not yet fitted) as a usb_f_uvc gadget
 * bound to @udc until a signal; the gadget is taken down on the way out.
 * The exit status.
 */
int nc_uvc_gadget_main(struct nc_uvc_dev *dev, const char *udc, bool trace);
/* --gadget UDC --remove: take down the gadget a killed run left. The exit status. */
int nc_uvc_gadget_remove_main(const char *udc);

#endif /* NEGCAM_UVC_PROGRAM_H */
