/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The USB/IP wire protocol as vhci-hcd speaks it (Linux
 * Documentation/usb/usbip_protocol.rst): the host sends USBIP_CMD_SUBMIT
 * and USBIP_CMD_UNLINK, the device answers USBIP_RET_SUBMIT and
 * USBIP_RET_UNLINK. Every header is 48 bytes, its fields big-endian; the
 * 8-byte setup packet inside it is USB's own (little-endian). After a
 * CMD_SUBMIT come the OUT data (transfer_buffer_length bytes, OUT only),
 * then number_of_packets isochronous packet descriptors of 16 bytes.
 *
 * This file only parses and packs bytes; it keeps no state. The parser
 * trusts nothing: every length is checked before it is used, and a
 * message that could not come from vhci-hcd is refused.
 */
#ifndef NEGCAM_UVC_USBIP_WIRE_H
#define NEGCAM_UVC_USBIP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define USBIP_CMD_SUBMIT 1u
#define USBIP_CMD_UNLINK 2u
#define USBIP_RET_SUBMIT 3u
#define USBIP_RET_UNLINK 4u

#define USBIP_DIR_OUT 0u
#define USBIP_DIR_IN 1u

#define USBIP_HDR_LEN 48u
#define USBIP_ISO_DESC_LEN 16u
#define USBIP_MAX_ISO_PACKETS 1024 /* as the kernel's USBIP_MAX_ISO_PACKETS */
#define USBIP_MAX_OUT_DATA 65536u  /* the largest OUT data we accept (a control wLength) */

struct nc_usbip_iso_desc {
	uint32_t offset, length, actual_length;
	int32_t status;
};

/* One parsed command from the host. */
struct nc_usbip_cmd {
	uint32_t command, seqnum, devid, direction, ep;
	/* CMD_SUBMIT */
	uint32_t transfer_flags;
	int32_t transfer_buffer_length, start_frame, number_of_packets, interval;
	uint8_t setup[8];
	const uint8_t *data; /* OUT data in the caller's buffer, data_len bytes */
	uint32_t data_len;
	const uint8_t *iso;  /* number_of_packets raw descriptors in the caller's buffer */
	/* CMD_UNLINK */
	uint32_t unlink_seqnum;
};

/*
 * Parse one command from @buf (@len bytes available). Returns the bytes
 * it takes (> 0) with @cmd filled, 0 when more bytes are needed, or
 * -EPROTO when the bytes cannot be a vhci-hcd command (unknown command,
 * direction, endpoint, a negative or oversized length or packet count,
 * an iso descriptor outside the buffer).
 */
long nc_usbip_parse_cmd(const uint8_t *buf, size_t len, struct nc_usbip_cmd *cmd);

/* Iso descriptor @i of a parsed CMD_SUBMIT (i < number_of_packets). */
struct nc_usbip_iso_desc nc_usbip_cmd_iso(const struct nc_usbip_cmd *cmd, int i);

/*
 * Write the 48-byte RET_SUBMIT header answering @cmd into @out: @status
 * (0 or a negative errno), @actual_length data bytes follow it, then
 * cmd->number_of_packets descriptors when it is isochronous.
 */
void nc_usbip_pack_ret_submit(uint8_t *out, const struct nc_usbip_cmd *cmd, int32_t status,
			      uint32_t actual_length, int32_t start_frame);

/* Write one iso descriptor at @out (16 bytes). */
void nc_usbip_pack_iso(uint8_t *out, const struct nc_usbip_iso_desc *d);

/* Write the 48-byte RET_UNLINK answering the CMD_UNLINK @cmd with @status. */
void nc_usbip_pack_ret_unlink(uint8_t *out, const struct nc_usbip_cmd *cmd, int32_t status);

#endif /* NEGCAM_UVC_USBIP_WIRE_H */
