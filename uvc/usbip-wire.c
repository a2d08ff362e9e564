// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * USB/IP messages to and from bytes (see usbip-wire.h): the strict parser
 * of the host's commands and the packers of the device's answers.
 */
#include <errno.h>
#include <string.h>

#include "usbip-wire.h"
#include "uvc-bytes.h"

static void parse_basic(const uint8_t *buf, struct nc_usbip_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->command = nc_uvc_be32(buf);
	cmd->seqnum = nc_uvc_be32(buf + 4);
	cmd->devid = nc_uvc_be32(buf + 8);
	cmd->direction = nc_uvc_be32(buf + 12);
	cmd->ep = nc_uvc_be32(buf + 16);
}

/* The CMD_SUBMIT fields and what follows the header; bytes needed or -EPROTO. */
static long parse_submit(const uint8_t *buf, size_t len, struct nc_usbip_cmd *cmd)
{
	uint64_t need = USBIP_HDR_LEN;
	int i;

	cmd->transfer_flags = nc_uvc_be32(buf + 20);
	cmd->transfer_buffer_length = (int32_t)nc_uvc_be32(buf + 24);
	cmd->start_frame = (int32_t)nc_uvc_be32(buf + 28);
	cmd->number_of_packets = (int32_t)nc_uvc_be32(buf + 32);
	cmd->interval = (int32_t)nc_uvc_be32(buf + 36);
	memcpy(cmd->setup, buf + 40, 8);
	if (cmd->direction > USBIP_DIR_IN || cmd->ep > 15 || cmd->transfer_buffer_length < 0 ||
	    cmd->number_of_packets < -1 || cmd->number_of_packets > USBIP_MAX_ISO_PACKETS)
		return -EPROTO;
	if (cmd->direction == USBIP_DIR_OUT) {
		if ((uint32_t)cmd->transfer_buffer_length > USBIP_MAX_OUT_DATA)
			return -EPROTO;
		cmd->data_len = cmd->transfer_buffer_length;
	}
	need += cmd->data_len;
	if (cmd->number_of_packets > 0)
		need += (uint64_t)cmd->number_of_packets * USBIP_ISO_DESC_LEN;
	if (len < need)
		return 0;
	cmd->data = buf + USBIP_HDR_LEN;
	if (cmd->number_of_packets > 0)
		cmd->iso = cmd->data + cmd->data_len;
	for (i = 0; i < cmd->number_of_packets; i++) {
		struct nc_usbip_iso_desc d = nc_usbip_cmd_iso(cmd, i);

		if ((uint64_t)d.offset + d.length > (uint32_t)cmd->transfer_buffer_length)
			return -EPROTO;
	}
	return (long)need;
}

long nc_usbip_parse_cmd(const uint8_t *buf, size_t len, struct nc_usbip_cmd *cmd)
{
	if (len < USBIP_HDR_LEN)
		return 0;
	parse_basic(buf, cmd);
	if (cmd->command == USBIP_CMD_SUBMIT)
		return parse_submit(buf, len, cmd);
	if (cmd->command == USBIP_CMD_UNLINK) {
		cmd->unlink_seqnum = nc_uvc_be32(buf + 20);
		return USBIP_HDR_LEN;
	}
	return -EPROTO;
}

struct nc_usbip_iso_desc nc_usbip_cmd_iso(const struct nc_usbip_cmd *cmd, int i)
{
	const uint8_t *p = cmd->iso + (size_t)i * USBIP_ISO_DESC_LEN;
	struct nc_usbip_iso_desc d = {
		.offset = nc_uvc_be32(p), .length = nc_uvc_be32(p + 4),
		.actual_length = nc_uvc_be32(p + 8), .status = (int32_t)nc_uvc_be32(p + 12),
	};

	return d;
}

/* The basic header of an answer: vhci-hcd matches answers by seqnum alone. */
static void pack_basic(uint8_t *out, uint32_t command, const struct nc_usbip_cmd *cmd)
{
	memset(out, 0, USBIP_HDR_LEN);
	nc_uvc_put_be32(out, command);
	nc_uvc_put_be32(out + 4, cmd->seqnum);
	nc_uvc_put_be32(out + 8, cmd->devid);
	nc_uvc_put_be32(out + 12, cmd->direction);
	nc_uvc_put_be32(out + 16, cmd->ep);
}

void nc_usbip_pack_ret_submit(uint8_t *out, const struct nc_usbip_cmd *cmd, int32_t status,
			      uint32_t actual_length, int32_t start_frame)
{
	pack_basic(out, USBIP_RET_SUBMIT, cmd);
	nc_uvc_put_be32(out + 20, (uint32_t)status);
	nc_uvc_put_be32(out + 24, actual_length);
	nc_uvc_put_be32(out + 28, (uint32_t)start_frame);
	nc_uvc_put_be32(out + 32, (uint32_t)(cmd->number_of_packets > 0 ? cmd->number_of_packets : 0));
	nc_uvc_put_be32(out + 36, 0); /* error_count */
}

void nc_usbip_pack_iso(uint8_t *out, const struct nc_usbip_iso_desc *d)
{
	nc_uvc_put_be32(out, d->offset);
	nc_uvc_put_be32(out + 4, d->length);
	nc_uvc_put_be32(out + 8, d->actual_length);
	nc_uvc_put_be32(out + 12, (uint32_t)d->status);
}

void nc_usbip_pack_ret_unlink(uint8_t *out, const struct nc_usbip_cmd *cmd, int32_t status)
{
	pack_basic(out, USBIP_RET_UNLINK, cmd);
	nc_uvc_put_be32(out + 20, (uint32_t)status);
}
