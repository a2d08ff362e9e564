// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Endpoint 0 of the virtual camera: the USB 2.0 standard requests
 * (chapter 9.4) a host sends, and the UVC 1.1 class requests (section
 * 4.2 and 4.3): the request error code of the VideoControl interface,
 * four processing-unit controls, and PROBE and COMMIT on the
 * VideoStreaming interface (negotiated in uvc-probe-commit.c). SET_INTERFACE on
 * the streaming interface starts and stops the stream. Anything else is
 * a stall (-EPIPE), with the UVC error code a host may read afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uvc-bytes.h"
#include "uvc-device.h"

#define SET_CUR 0x01
#define GET_CUR 0x81
#define GET_MIN 0x82
#define GET_MAX 0x83
#define GET_RES 0x84
#define GET_LEN 0x85
#define GET_INFO 0x86
#define GET_DEF 0x87

#define VC_REQUEST_ERROR_CODE_CONTROL 0x02
#define VS_PROBE_CONTROL 0x01
#define VS_COMMIT_CONTROL 0x02

/* One request being answered. */
struct req {
	uint8_t type, request;
	uint16_t value, index, length;
	const uint8_t *data;
	uint32_t len;
	uint8_t *in;
};

/* The processing-unit controls: selector, range and default; all two bytes. */
static const struct {
	uint8_t selector;
	int16_t min, max, def;
} pu_ctrls[NC_UVC_NPU] = {
	{ 0x02, 0, 255, 128 }, /* PU_BRIGHTNESS_CONTROL */
	{ 0x03, 0, 255, 128 }, /* PU_CONTRAST_CONTROL */
	{ 0x07, 0, 255, 128 }, /* PU_SATURATION_CONTROL */
	{ 0x08, 0, 15, 4 },    /* PU_SHARPNESS_CONTROL */
};

/* Copy @n bytes of an answer, no more than wLength. */
static int reply(const struct req *r, const void *src, uint32_t n)
{
	if (n > r->length)
		n = r->length;
	memcpy(r->in, src, n);
	return (int)n;
}

static int stall(struct nc_uvc_dev *dev, uint8_t code)
{
	dev->error_code = code;
	dev->counts.stalls++;
	return -EPIPE;
}

static int get_descriptor(struct nc_uvc_dev *dev, const struct req *r)
{
	uint8_t buf[256];
	int n;

	switch (r->value >> 8) {
	case 1:
		return reply(r, dev->desc.device, sizeof(dev->desc.device));
	case 2:
		if ((r->value & 0xff) != 0)
			return -EPIPE;
		return reply(r, dev->desc.config, dev->desc.config_len);
	case 3:
		n = nc_uvc_string_descriptor(&dev->desc, r->value & 0xff, buf);
		return n < 0 ? -EPIPE : reply(r, buf, (uint32_t)n);
	case 6:
		return reply(r, dev->desc.qualifier, sizeof(dev->desc.qualifier));
	}
	return -EPIPE; /* other-speed configuration, BOS, ...: a high-speed-only device */
}

static int set_interface(struct nc_uvc_dev *dev, const struct req *r)
{
	if (!dev->config)
		return -EPIPE;
	if (r->index == NC_UVC_IF_VC)
		return r->value == 0 ? 0 : -EPIPE;
	if (r->index != NC_UVC_IF_VS || r->value > NC_UVC_NALTS)
		return -EPIPE;
	nc_uvc_stream_stop(dev);
	dev->vs_alt = (uint8_t)r->value;
	if (dev->vs_alt && nc_uvc_stream_start(dev, dev->now_ns))
		return -EPIPE;
	return 0;
}

static int standard_request(struct nc_uvc_dev *dev, const struct req *r)
{
	static const uint8_t zero[2];
	uint8_t v;

	switch (r->request) {
	case 0x00: /* GET_STATUS: bus powered, no wake-up, no halt */
		return reply(r, zero, 2);
	case 0x01: /* CLEAR_FEATURE */
	case 0x03: /* SET_FEATURE */
	case 0x05: /* SET_ADDRESS (vhci-hcd answers it itself) */
		return 0;
	case 0x06:
		return get_descriptor(dev, r);
	case 0x08:
		return reply(r, &dev->config, 1);
	case 0x09:
		if (r->value > 1)
			return -EPIPE;
		nc_uvc_stream_stop(dev);
		dev->vs_alt = 0;
		dev->config = (uint8_t)r->value;
		return 0;
	case 0x0a: /* GET_INTERFACE */
		if (!dev->config || r->index > NC_UVC_IF_VS)
			return -EPIPE;
		v = r->index == NC_UVC_IF_VS ? dev->vs_alt : 0;
		return reply(r, &v, 1);
	case 0x0b:
		return set_interface(dev, r);
	}
	return -EPIPE;
}

/* GET_LEN answers: the control's size, two bytes little-endian. */
static int reply_len(const struct req *r, unsigned int size)
{
	uint8_t b[2];

	nc_uvc_put_le16(b, size);

	return reply(r, b, 2);
}

static int pu_request(struct nc_uvc_dev *dev, const struct req *r)
{
	unsigned int i, sel = r->value >> 8;
	int16_t v;
	uint8_t b[2];

	for (i = 0; i < NC_UVC_NPU && pu_ctrls[i].selector != sel; i++)
		;
	if (i == NC_UVC_NPU)
		return stall(dev, NC_UVC_ERR_INVALID_CONTROL);
	switch (r->request) {
	case SET_CUR:
		if (r->len != 2)
			return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
		v = (int16_t)nc_uvc_le16(r->data);
		if (v < pu_ctrls[i].min || v > pu_ctrls[i].max)
			return stall(dev, NC_UVC_ERR_OUT_OF_RANGE);
		dev->pu[i] = v;
		return 0;
	case GET_CUR: v = dev->pu[i]; break;
	case GET_MIN: v = pu_ctrls[i].min; break;
	case GET_MAX: v = pu_ctrls[i].max; break;
	case GET_RES: v = 1; break;
	case GET_DEF: v = pu_ctrls[i].def; break;
	case GET_LEN: return reply_len(r, 2);
	case GET_INFO: b[0] = 0x03; return reply(r, b, 1); /* GET and SET */
	default: return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
	}
	nc_uvc_put_le16(b, (uint16_t)v);
	return reply(r, b, 2);
}

static int vc_request(struct nc_uvc_dev *dev, const struct req *r)
{
	unsigned int entity = r->index >> 8;
	uint8_t b;

	if (entity == NC_UVC_ID_PU)
		return pu_request(dev, r);
	if (entity == NC_UVC_ID_CAMERA || entity == NC_UVC_ID_OUTPUT)
		return stall(dev, NC_UVC_ERR_INVALID_CONTROL);
	if (entity != 0)
		return stall(dev, NC_UVC_ERR_INVALID_UNIT);
	if ((r->value >> 8) != VC_REQUEST_ERROR_CODE_CONTROL)
		return stall(dev, NC_UVC_ERR_INVALID_CONTROL);
	if (r->request == GET_CUR) {
		b = dev->error_code; /* reading it does not clear it */
		return reply(r, &b, 1);
	}
	if (r->request == GET_INFO) {
		b = 0x01;
		return reply(r, &b, 1);
	}
	return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
}

/* SET_CUR of PROBE or COMMIT. */
static int set_params(struct nc_uvc_dev *dev, const struct req *r, bool commit)
{
	struct nc_uvc_params s;
	int err;

	if (r->len != NC_UVC_PROBE_LEN)
		return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
	if (commit && dev->vs_alt)
		return stall(dev, NC_UVC_ERR_WRONG_STATE);
	/* probe-needs-max-frame: a host that leaves the read-only field 0 is refused */
	if (!commit && (dev->desc.bugs & NC_UVC_BUG_PROBE_NEEDS_MAX_FRAME) &&
	    !nc_uvc_le32(r->data + 18))
		return stall(dev, NC_UVC_ERR_INVALID_VALUE);
	nc_uvc_params_unpack(r->data, &s);
	err = nc_uvc_params_negotiate(dev, &s, commit);
	if (err)
		return stall(dev, (uint8_t)err);
	if (commit) {
		dev->commit = s;
		dev->committed = true;
		dev->counts.commit_set++;
	} else {
		dev->probe = s;
		dev->counts.probe_set++;
	}
	return 0;
}

/* The firmware bugs probe-no-minmax and probe-no-def: PROBE GET_MIN/MAX or GET_DEF unanswered. */
static bool probe_bug_stalls(const struct nc_uvc_dev *dev, uint8_t request)
{
	uint32_t bugs = dev->desc.bugs;

	if (request == GET_MIN || request == GET_MAX)
		return bugs & NC_UVC_BUG_PROBE_NO_MINMAX;
	return request == GET_DEF && (bugs & NC_UVC_BUG_PROBE_NO_DEF);
}

static int vs_request(struct nc_uvc_dev *dev, const struct req *r)
{
	unsigned int cs = r->value >> 8;
	struct nc_uvc_params s;
	uint8_t b[NC_UVC_PROBE_LEN];

	if (r->index >> 8)
		return stall(dev, NC_UVC_ERR_INVALID_UNIT);
	if (cs != VS_PROBE_CONTROL && cs != VS_COMMIT_CONTROL)
		return stall(dev, NC_UVC_ERR_INVALID_CONTROL);
	switch (r->request) {
	case SET_CUR: return set_params(dev, r, cs == VS_COMMIT_CONTROL);
	case GET_LEN: return reply_len(r, NC_UVC_PROBE_LEN);
	case GET_INFO: b[0] = 0x03; return reply(r, b, 1);
	case GET_CUR: s = cs == VS_COMMIT_CONTROL && dev->committed ? dev->commit : dev->probe; break;
	default:
		if (cs == VS_COMMIT_CONTROL || probe_bug_stalls(dev, r->request))
			return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
		if (r->request == GET_DEF)
			nc_uvc_params_default(dev, &s);
		else if (r->request == GET_MIN || r->request == GET_MAX)
			nc_uvc_params_bound(dev, &s, r->request == GET_MAX);
		else if (r->request == GET_RES)
			memset(&s, 0, sizeof(s));
		else
			return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
	}
	if (cs == VS_PROBE_CONTROL)
		dev->counts.probe_get++;
	else
		dev->counts.commit_get++;
	nc_uvc_params_pack(&s, b);
	if (cs == VS_PROBE_CONTROL && (dev->desc.bugs & NC_UVC_BUG_PROBE_FORMAT_IN_HINT)) {
		b[0] = 0; /* the Elgato Cam Link 4K's answer (uvc_video.c, uvc_fixup_video_ctrl) */
		b[1] = s.format;
		b[2] = 1;
	}
	return reply(r, b, sizeof(b));
}

static int class_request(struct nc_uvc_dev *dev, const struct req *r)
{
	int ret;

	if ((r->type & 0x1f) != 1 || !dev->config)
		return -EPIPE;
	/* the direction of the request must match the request code */
	if ((r->request == SET_CUR) == !!(r->type & 0x80))
		return stall(dev, NC_UVC_ERR_INVALID_REQUEST);
	if ((r->index & 0xff) == NC_UVC_IF_VC)
		ret = vc_request(dev, r);
	else if ((r->index & 0xff) == NC_UVC_IF_VS)
		ret = vs_request(dev, r);
	else
		return -EPIPE;
	if (ret >= 0 && !((r->value >> 8) == VC_REQUEST_ERROR_CODE_CONTROL && r->index == 0))
		dev->error_code = NC_UVC_ERR_NONE;
	return ret;
}

int nc_uvc_control(struct nc_uvc_dev *dev, const uint8_t setup[8], const uint8_t *data,
		   uint32_t len, uint8_t *in)
{
	struct req r = {
		.type = setup[0], .request = setup[1],
		.value = nc_uvc_le16(setup + 2),
		.index = nc_uvc_le16(setup + 4),
		.length = nc_uvc_le16(setup + 6),
		.data = data, .len = len, .in = in,
	};
	int ret;

	dev->counts.control++;
	if (!(r.type & 0x80) && len > r.length)
		r.len = r.length;
	if (((r.type >> 5) & 3) == 0)
		ret = standard_request(dev, &r);
	else if (((r.type >> 5) & 3) == 1)
		ret = class_request(dev, &r);
	else
		ret = -EPIPE;
	if (dev->trace)
		fprintf(stderr, "negcam-uvc: ep0 %02x %02x %04x %04x %u -> %d\n", r.type, r.request,
			r.value, r.index, r.length, ret);
	return ret;
}
