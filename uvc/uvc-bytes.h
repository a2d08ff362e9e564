/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Byte order on the wire, the one copy for uvc/: USB and UVC fields are
 * little-endian (descriptors, setup packets, PROBE and COMMIT, payload
 * headers), USB/IP's are big-endian (usbip-wire.c). Unaligned, any host.
 */
#ifndef NEGCAM_UVC_BYTES_H
#define NEGCAM_UVC_BYTES_H

#include <stdint.h>

static inline uint16_t nc_uvc_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t nc_uvc_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t nc_uvc_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void nc_uvc_put_le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void nc_uvc_put_le32(uint8_t *p, uint32_t v)
{
	nc_uvc_put_le16(p, v & 0xffff);
	nc_uvc_put_le16(p + 2, v >> 16);
}

static inline void nc_uvc_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif /* NEGCAM_UVC_BYTES_H */
