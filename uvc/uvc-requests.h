/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Endpoint 0 of the virtual camera (uvc-requests.c): the standard
 * requests the device answers itself and UVC's class requests (the
 * processing unit's controls, the request error code, PROBE and COMMIT).
 */
#ifndef NEGCAM_UVC_REQUESTS_H
#define NEGCAM_UVC_REQUESTS_H

#include <stdint.h>

#define NC_UVC_NPU 4 /* processing-unit controls */

struct nc_uvc_dev;

/* UVC request error codes (VC_REQUEST_ERROR_CODE_CONTROL, UVC 1.1 4.2.1.2). */
enum nc_uvc_error {
	NC_UVC_ERR_NONE = 0,
	NC_UVC_ERR_WRONG_STATE = 2,
	NC_UVC_ERR_OUT_OF_RANGE = 4,
	NC_UVC_ERR_INVALID_UNIT = 5,
	NC_UVC_ERR_INVALID_CONTROL = 6,
	NC_UVC_ERR_INVALID_REQUEST = 7,
	NC_UVC_ERR_INVALID_VALUE = 8,
};

/*
 * Answer the request @setup with OUT data @data (@len bytes, wLength of
 * them) or IN data into @in (wLength bytes room). Returns the IN bytes
 * (0 for OUT), or -EPIPE: a stall.
 */
int nc_uvc_control(struct nc_uvc_dev *dev, const uint8_t setup[8], const uint8_t *data,
		   uint32_t len, uint8_t *in);

#endif /* NEGCAM_UVC_REQUESTS_H */
