// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The device core (see uvc-device.h): dispatches each USB/IP command of
 * the host. Control transfers on endpoint 0 are answered at once;
 * isochronous IN URBs on the streaming endpoint are held, each given the
 * microframes after the previous one's (or from now, when the host fell
 * behind), and answered when the last of them has passed, so the stream
 * runs at bus speed and the caller sleeps in between. CMD_UNLINK takes a
 * held URB back (RET_UNLINK -ECONNRESET) or finds it already answered (0).
 * vhci-hcd can send a URB's CMD_UNLINK before its CMD_SUBMIT (the URB
 * killed between two passes of its transmit thread); it gives the URB
 * back on our RET_UNLINK, and a RET_SUBMIT for it afterwards makes it
 * drop the connection ("cannot find a urb of seqnum"). So an unlink of a
 * seqnum above every submit seen is remembered, and that CMD_SUBMIT, when
 * it comes, is dropped unanswered. Any other endpoint stalls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uvc-device.h"

#define MAX_PSIZE 3072u

int nc_uvc_dev_init(struct nc_uvc_dev *dev, const struct negcam_profile *p,
		    const struct nc_uvc_identity *id, nc_uvc_send_fn send, void *ctx)
{
	struct nc_uvc_identity def;

	memset(dev, 0, sizeof(*dev));
	dev->profile = p;
	dev->send = send;
	dev->send_ctx = ctx;
	if (!id) {
		nc_uvc_profile_identity(p, &def);
		id = &def;
	}
	if (nc_uvc_build_descriptors(&dev->desc, p, id))
		return -EINVAL;
	dev->out_cap = USBIP_HDR_LEN + (size_t)USBIP_MAX_ISO_PACKETS * (MAX_PSIZE + USBIP_ISO_DESC_LEN);
	dev->out = malloc(dev->out_cap);
	if (!dev->out)
		return -ENOMEM;
	nc_uvc_dev_reset(dev);
	return 0;
}

void nc_uvc_dev_reset(struct nc_uvc_dev *dev)
{
	static const int16_t pu_def[NC_UVC_NPU] = { 128, 128, 128, 4 };
	unsigned int i;

	nc_uvc_stream_stop(dev);
	dev->config = 0;
	dev->vs_alt = 0;
	dev->error_code = 0;
	for (i = 0; i < NC_UVC_NPU; i++)
		dev->pu[i] = pu_def[i];
	nc_uvc_params_default(dev, &dev->probe);
	dev->commit = dev->probe;
	dev->committed = false;
	dev->urb_head = 0;
	dev->nurbs = 0;
	dev->bus_ns = 0;
	dev->last_submit = 0;
	memset(dev->early, 0, sizeof(dev->early));
	dev->early_next = 0;
	memset(&dev->counts, 0, sizeof(dev->counts));
}

void nc_uvc_dev_free(struct nc_uvc_dev *dev)
{
	free(dev->out);
	free(dev->stream.frame);
	dev->out = NULL;
	dev->stream.frame = NULL;
}

static struct nc_uvc_urb *urb_at(struct nc_uvc_dev *dev, unsigned int i)
{
	return &dev->urbs[(dev->urb_head + i) % NC_UVC_MAX_URBS];
}

static int control(struct nc_uvc_dev *dev, const struct nc_usbip_cmd *cmd)
{
	uint8_t *data = dev->out + USBIP_HDR_LEN;
	int ret = nc_uvc_control(dev, cmd->setup, cmd->data, cmd->data_len, data);
	uint32_t actual = 0;

	if (ret >= 0 && cmd->direction == USBIP_DIR_IN)
		actual = (uint32_t)ret < (uint32_t)cmd->transfer_buffer_length ?
			 (uint32_t)ret : (uint32_t)cmd->transfer_buffer_length;
	else if (ret >= 0)
		actual = cmd->data_len;
	nc_usbip_pack_ret_submit(dev->out, cmd, ret < 0 ? -EPIPE : 0, actual, 0);
	return dev->send(dev->send_ctx, dev->out,
			 USBIP_HDR_LEN + (cmd->direction == USBIP_DIR_IN ? actual : 0));
}

/* Fail a URB: an isochronous one still carries its packet descriptors (none filled). */
static int refuse(struct nc_uvc_dev *dev, const struct nc_usbip_cmd *cmd, int status)
{
	int i, np = cmd->number_of_packets > 0 ? cmd->number_of_packets : 0;
	struct nc_usbip_iso_desc d;

	nc_usbip_pack_ret_submit(dev->out, cmd, status, 0, 0);
	for (i = 0; i < np; i++) {
		d = nc_usbip_cmd_iso(cmd, i);
		d.actual_length = 0;
		d.status = status;
		nc_usbip_pack_iso(dev->out + USBIP_HDR_LEN + (size_t)i * USBIP_ISO_DESC_LEN, &d);
	}
	return dev->send(dev->send_ctx, dev->out, USBIP_HDR_LEN + (size_t)np * USBIP_ISO_DESC_LEN);
}

static int hold_iso(struct nc_uvc_dev *dev, const struct nc_usbip_cmd *cmd)
{
	struct nc_uvc_urb *u;
	int i, interval = cmd->interval;

	if (dev->nurbs == NC_UVC_MAX_URBS)
		return refuse(dev, cmd, -ENOSPC);
	u = urb_at(dev, dev->nurbs++);
	u->cmd = *cmd;
	u->cmd.data = NULL;
	u->cmd.iso = NULL;
	for (i = 0; i < cmd->number_of_packets; i++) {
		struct nc_usbip_iso_desc d = nc_usbip_cmd_iso(cmd, i);

		u->offset[i] = d.offset;
		u->length[i] = d.length;
	}
	if (interval < 1 || interval > 1024)
		interval = 1;
	u->uframe_ns = (uint64_t)interval * NC_UVC_MICROFRAME_NS;
	u->start_ns = dev->bus_ns > dev->now_ns ? dev->bus_ns : dev->now_ns;
	u->due_ns = u->start_ns + (uint64_t)cmd->number_of_packets * u->uframe_ns;
	dev->bus_ns = u->due_ns;
	dev->counts.iso_urbs++;
	return 0;
}

static int unlink_urb(struct nc_uvc_dev *dev, const struct nc_usbip_cmd *cmd)
{
	int32_t status = 0;
	unsigned int i, j;

	dev->counts.unlinks++;
	for (i = 0; i < dev->nurbs; i++) {
		if (urb_at(dev, i)->cmd.seqnum != cmd->unlink_seqnum)
			continue;
		for (j = i; j + 1 < dev->nurbs; j++)
			*urb_at(dev, j) = *urb_at(dev, j + 1);
		dev->nurbs--;
		status = -ECONNRESET;
		break;
	}
	if (!dev->nurbs)
		dev->bus_ns = 0;
	if (!status && cmd->unlink_seqnum > dev->last_submit) { /* not submitted yet */
		dev->early[dev->early_next] = cmd->unlink_seqnum;
		dev->early_next = (dev->early_next + 1) % NC_UVC_EARLY_UNLINKS;
	}
	nc_usbip_pack_ret_unlink(dev->out, cmd, status);
	return dev->send(dev->send_ctx, dev->out, USBIP_HDR_LEN);
}

/* Was @seqnum unlinked before it was submitted? Then forget it: it comes once. */
static bool unlinked_early(struct nc_uvc_dev *dev, uint32_t seqnum)
{
	unsigned int i;

	for (i = 0; i < NC_UVC_EARLY_UNLINKS; i++) {
		if (dev->early[i] && dev->early[i] == seqnum) {
			dev->early[i] = 0;
			return true;
		}
	}
	return false;
}

static int handle(struct nc_uvc_dev *dev, const struct nc_usbip_cmd *cmd)
{
	if (cmd->command == USBIP_CMD_UNLINK)
		return unlink_urb(dev, cmd);
	if (cmd->seqnum > dev->last_submit)
		dev->last_submit = cmd->seqnum;
	if (unlinked_early(dev, cmd->seqnum))
		return 0; /* the host gave it back already: no answer */
	if (cmd->ep == 0 && cmd->number_of_packets <= 0)
		return control(dev, cmd);
	if (cmd->ep == (NC_UVC_EP_IN & 0x0f) && cmd->direction == USBIP_DIR_IN &&
	    cmd->number_of_packets > 0 && dev->config)
		return hold_iso(dev, cmd);
	return refuse(dev, cmd, -EPIPE);
}

long nc_uvc_dev_input(struct nc_uvc_dev *dev, const uint8_t *buf, size_t len, uint64_t now_ns)
{
	size_t used = 0;
	struct nc_usbip_cmd cmd;
	long n;
	int err;

	dev->now_ns = now_ns;
	for (;;) {
		n = nc_usbip_parse_cmd(buf + used, len - used, &cmd);
		if (n < 0)
			return n;
		if (n == 0)
			return (long)used;
		err = handle(dev, &cmd);
		if (err)
			return err;
		used += (size_t)n;
	}
}

/* Answer the held URB @u: its packets filled at their bus times, packed, then the descriptors. */
static int complete(struct nc_uvc_dev *dev, const struct nc_uvc_urb *u)
{
	uint8_t *data = dev->out + USBIP_HDR_LEN;
	uint32_t actual[USBIP_MAX_ISO_PACKETS], total = 0, cap;
	int i, np = u->cmd.number_of_packets;
	struct nc_usbip_iso_desc d;

	for (i = 0; i < np; i++) {
		cap = u->length[i] < MAX_PSIZE ? u->length[i] : MAX_PSIZE;
		actual[i] = nc_uvc_stream_packet(dev, u->start_ns + (uint64_t)i * u->uframe_ns,
						 data + total, cap);
		total += actual[i];
	}
	for (i = 0; i < np; i++) {
		d = (struct nc_usbip_iso_desc){ u->offset[i], u->length[i], actual[i], 0 };
		nc_usbip_pack_iso(data + total + (size_t)i * USBIP_ISO_DESC_LEN, &d);
	}
	nc_usbip_pack_ret_submit(dev->out, &u->cmd, 0, total,
				 (int32_t)((u->start_ns / 1000000u) & 0x3ff));
	return dev->send(dev->send_ctx, dev->out,
			 USBIP_HDR_LEN + total + (size_t)np * USBIP_ISO_DESC_LEN);
}

int nc_uvc_dev_tick(struct nc_uvc_dev *dev, uint64_t now_ns)
{
	int err;

	dev->now_ns = now_ns;
	while (dev->nurbs && urb_at(dev, 0)->due_ns <= now_ns) {
		err = complete(dev, urb_at(dev, 0));
		dev->urb_head = (dev->urb_head + 1) % NC_UVC_MAX_URBS;
		dev->nurbs--;
		if (err)
			return err;
	}
	return 0;
}

uint64_t nc_uvc_dev_next_due(const struct nc_uvc_dev *dev)
{
	return dev->nurbs ? dev->urbs[dev->urb_head].due_ns : UINT64_MAX;
}

const struct nc_uvc_params *nc_uvc_dev_committed(const struct nc_uvc_dev *dev)
{
	return dev->committed ? &dev->commit : NULL;
}

void nc_uvc_dev_set_frame_source(struct nc_uvc_dev *dev, nc_uvc_frame_fn fn, void *ctx)
{
	dev->frame_fn = fn;
	dev->frame_ctx = fn ? ctx : NULL;
}

void nc_uvc_dev_set_trace(struct nc_uvc_dev *dev, bool trace)
{
	dev->trace = trace;
}

void nc_uvc_dev_set_streaming(struct nc_uvc_dev *dev, bool on)
{
	dev->vs_alt = on ? 1 : 0;
}
