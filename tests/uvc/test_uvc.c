// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc's device core on the host (uvc/uvc-device.h), no kernel:
 * the descriptors of a profile walked back, endpoint 0's answers to good
 * and bad requests (PROBE with out-of-range values, short and long
 * SET_CUR, controls), the USB/IP parser on malformed headers, and a held
 * isochronous URB answered at its bus time with UVC payloads, unlinked.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../engine/check.h"
#include "framegen.h"
#include "profile-text.h"
#include "uvc-bytes.h"
#include "uvc-device.h"

static uint8_t sent[4 << 20];
static size_t sent_len;
static unsigned int sent_count;

static int capture(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx;
	if (len <= sizeof(sent)) {
		memcpy(sent, buf, len);
		sent_len = len;
	}
	sent_count++;
	return 0;
}

static struct negcam_profile *builtin(const char *name)
{
	return load(negcam_builtin_find(name)->text);
}

/* A control request; returns nc_uvc_control's answer, IN data in @in. */
static int ctrl(struct nc_uvc_dev *dev, uint8_t type, uint8_t req, uint16_t value, uint16_t index,
		uint16_t length, const uint8_t *data, uint8_t *in)
{
	uint8_t setup[8] = { type, req, value & 0xff, value >> 8, index & 0xff, index >> 8,
			     length & 0xff, length >> 8 };
	static uint8_t scratch[65536];

	return nc_uvc_control(dev, setup, data, data ? length : 0, in ? in : scratch);
}

/* Walk the configuration: every descriptor inside it, the counts that matter. */
static void test_descriptors(void)
{
	static struct nc_uvc_dev dev;
	const uint8_t *c;
	uint32_t off, ifaces = 0, frames = 0, formats = 0, eps = 0, fr640 = 0;
	bool vs = false;

	CHECK_EQ(nc_uvc_dev_init(&dev, builtin("webcam"), NULL, capture, NULL), 0, "init");
	c = dev.desc.config;
	CHECK_EQ(c[2] | c[3] << 8, dev.desc.config_len, "wTotalLength");
	for (off = 0; off < dev.desc.config_len && c[off] >= 2; off += c[off]) {
		if (c[off + 1] == 4) {
			ifaces++;
			vs = c[off + 2] == NC_UVC_IF_VS;
		}
		if (c[off + 1] == 5)
			eps++;
		if (vs && c[off + 1] == 0x24 && (c[off + 2] == 0x04 || c[off + 2] == 0x06))
			formats++;
		if (vs && c[off + 1] == 0x24 && (c[off + 2] == 0x05 || c[off + 2] == 0x07)) {
			frames++;
			if ((c[off + 5] | c[off + 6] << 8) == 640 && (c[off + 7] | c[off + 8] << 8) == 480 &&
			    c[off + 2] == 0x05)
				fr640 = off;
		}
	}
	CHECK_EQ(off, dev.desc.config_len, "the descriptors fill the configuration exactly");
	CHECK_EQ(ifaces, 2 + NC_UVC_NALTS, "VC, VS alt 0 and the isochronous alts");
	CHECK_EQ(eps, NC_UVC_NALTS, "one endpoint per alt");
	CHECK_EQ(formats, 2, "YUYV and MJPG");
	CHECK_EQ(frames, 20, "10 sizes each");
	CHECK(fr640 != 0, "a 640x480 YUYV frame");
	if (fr640) {
		CHECK_EQ(c[fr640 + 25], 7, "seven intervals");
		CHECK_EQ(c[fr640 + 26] | c[fr640 + 27] << 8 | c[fr640 + 28] << 16, 333333, "30 fps first");
		CHECK_EQ(c[fr640 + 17] | c[fr640 + 18] << 8 | c[fr640 + 19] << 16, 614400, "frame buffer size");
	}
	CHECK_EQ(dev.desc.def_format, 1, "YUYV is the default format");
	CHECK_EQ(dev.desc.formats[0].def_frame, 6, "640x480 the default frame");
	CHECK_EQ(dev.desc.alt_psize[NC_UVC_NALTS], 3072, "the largest alt is 3x1024");
	CHECK_EQ(dev.desc.device[8] | dev.desc.device[9] << 8, 0x1d6b, "idVendor");
	nc_uvc_dev_free(&dev);
}

/* The USB ids are the profile's usb-id, 1d6b:0104 without one; the product is the card. */
static void test_identity(void)
{
	static struct nc_uvc_dev dev;
	const uint8_t *d = dev.desc.device;

	CHECK_EQ(nc_uvc_dev_init(&dev, builtin("logitech-c920"), NULL, capture, NULL), 0, "init c920");
	CHECK_EQ(d[8] | d[9] << 8, 0x046d, "logitech-c920: idVendor from its usb-id");
	CHECK_EQ(d[10] | d[11] << 8, 0x082d, "logitech-c920: idProduct from its usb-id");
	CHECK(!strcmp(dev.desc.id.name, "HD Pro Webcam C920"), "product string: '%s'", dev.desc.id.name);
	nc_uvc_dev_free(&dev);
	CHECK_EQ(nc_uvc_dev_init(&dev, load("name t\nformat YUYV\n  size 640x480 fps 30\n"),
				 NULL, capture, NULL), 0, "init without usb-id");
	CHECK_EQ(d[8] | d[9] << 8 | d[10] << 16 | d[11] << 24, 0x01041d6b, "no usb-id: 1d6b:0104");
	nc_uvc_dev_free(&dev);
}

/* dwFrameInterval is the profile's fraction to the nearest 100 ns, not cut short. */
static void test_interval_rounding(void)
{
	static struct nc_uvc_dev dev;
	const struct nc_uvc_frame *fr = &dev.desc.formats[0].frames[0];

	CHECK_EQ(nc_uvc_dev_init(&dev, load("name t\nformat YUYV\n"
					    "  size 320x240 fps 60001/250 120101/1000 30000/1001 15/2\n"),
				 NULL, capture, NULL), 0, "init");
	CHECK_EQ(fr->nintervals, 4, "four intervals");
	CHECK_EQ(fr->interval[0], 41666, "240.004 fps: 41665.97 rounds up to 41666");
	CHECK_EQ(fr->interval[1], 83263, "120.101 fps: 83263.25 rounds down");
	CHECK_EQ(fr->interval[2], 333667, "29.97 fps: 333666.67 rounds up");
	CHECK_EQ(fr->interval[3], 1333333, "7.5 fps: 1333333.33");
	nc_uvc_dev_free(&dev);
}

static void test_left_out(void)
{
	static struct nc_uvc_dev dev;

	CHECK_EQ(nc_uvc_dev_init(&dev, load("name t\nformat RGB3\n  size 640x480 fps 30\n"
					    "format YUYV\n  size 640x480 fps 30\n"), NULL, capture, NULL),
		 0, "YUYV is carried");
	CHECK_EQ(dev.desc.nformats, 1, "RGB3 left out");
	CHECK(strstr(dev.desc.warnings, "RGB3") != NULL, "the warning names RGB3: %s", dev.desc.warnings);
	nc_uvc_dev_free(&dev);
	CHECK_EQ(nc_uvc_dev_init(&dev, builtin("stepwise"), NULL, capture, NULL), -EINVAL,
		 "stepwise sizes only: nothing UVC can describe");
	CHECK(strstr(dev.desc.warnings, "YU12") != NULL, "the warning names YU12: %s", dev.desc.warnings);
	nc_uvc_dev_free(&dev);
}

/* SET_CUR of PROBE (or COMMIT) with @s, @len bytes; nc_uvc_control's answer. */
static int set_probe(struct nc_uvc_dev *dev, bool commit, const struct nc_uvc_params *s, uint16_t len)
{
	uint8_t b[64] = { 0 };

	nc_uvc_params_pack(s, b);
	return ctrl(dev, 0x21, 0x01, commit ? 0x0200 : 0x0100, 0x0001, len, b, NULL);
}

static struct nc_uvc_params get_probe(struct nc_uvc_dev *dev, uint8_t req)
{
	uint8_t b[34] = { 0 };
	struct nc_uvc_params s;

	ctrl(dev, 0xa1, req, 0x0100, 0x0001, 34, NULL, b);
	nc_uvc_params_unpack(b, &s);
	s.max_frame = b[18] | b[19] << 8 | b[20] << 16 | (uint32_t)b[21] << 24;
	s.max_payload = b[22] | b[23] << 8 | b[24] << 16 | (uint32_t)b[25] << 24;
	return s;
}

static uint8_t error_code(struct nc_uvc_dev *dev)
{
	uint8_t b = 0xff;

	ctrl(dev, 0xa1, 0x81, 0x0200, 0x0000, 1, NULL, &b);
	return b;
}

static void test_standard(struct nc_uvc_dev *dev)
{
	uint8_t in[256];

	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0100, 0, 64, NULL, in), 18, "device descriptor");
	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0100, 0, 8, NULL, in), 8, "its first 8 bytes");
	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0302, 0x409, 255, NULL, in), 2 + 2 * 13, "the product string");
	CHECK(in[2] == 'N' && in[4] == 'e', "\"Negcam Webcam\"");
	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0309, 0x409, 255, NULL, in), -EPIPE, "no string 9");
	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0600, 0, 10, NULL, in), 10, "qualifier");
	CHECK_EQ(ctrl(dev, 0x80, 6, 0x0700, 0, 9, NULL, in), -EPIPE, "no other-speed configuration");
	CHECK_EQ(ctrl(dev, 0xa1, 0x85, 0x0100, 0x0001, 2, NULL, in), -EPIPE, "class requests need a configuration");
	CHECK_EQ(ctrl(dev, 0x00, 9, 2, 0, 0, NULL, NULL), -EPIPE, "no configuration 2");
	CHECK_EQ(ctrl(dev, 0x00, 9, 1, 0, 0, NULL, NULL), 0, "SET_CONFIGURATION 1");
	CHECK_EQ(ctrl(dev, 0x80, 0, 0, 0, 2, NULL, in), 2, "GET_STATUS");
	CHECK_EQ(ctrl(dev, 0x01, 11, 9, 1, 0, NULL, NULL), -EPIPE, "no alt 9");
	CHECK_EQ(ctrl(dev, 0x01, 11, 1, 0, 0, NULL, NULL), -EPIPE, "VC has alt 0 only");
	CHECK_EQ(ctrl(dev, 0x81, 10, 0, 1, 1, NULL, in), 1, "GET_INTERFACE");
	CHECK_EQ(in[0], 0, "alt 0");
	CHECK_EQ(ctrl(dev, 0x40, 1, 0, 0, 0, NULL, NULL), -EPIPE, "a vendor request stalls");
}

static void test_probe(struct nc_uvc_dev *dev)
{
	struct nc_uvc_params s = { .format = 1, .frame = 6, .interval = 333333 };
	uint8_t in[4];

	CHECK_EQ(ctrl(dev, 0xa1, 0x85, 0x0100, 0x0001, 2, NULL, in), 2, "GET_LEN");
	CHECK_EQ(in[0], 34, "34 bytes (UVC 1.1)");
	s = get_probe(dev, 0x87);
	CHECK(s.format == 1 && s.frame == 6 && s.interval == 333333, "GET_DEF: YUYV 640x480 30 fps");
	CHECK_EQ(s.max_frame, 614400, "dwMaxVideoFrameSize");
	CHECK(s.max_payload >= 614400 * 30 / 8000 && s.max_payload <= 3072, "payload %u", s.max_payload);
	s = (struct nc_uvc_params){ .format = 0, .frame = 1, .interval = 333333 };
	CHECK_EQ(set_probe(dev, false, &s, 34), -EPIPE, "format index 0 stalls");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_OUT_OF_RANGE, "out of range");
	s.format = 99;
	CHECK_EQ(set_probe(dev, false, &s, 34), -EPIPE, "format index 99 stalls");
	s.format = 1, s.frame = 0;
	CHECK_EQ(set_probe(dev, false, &s, 34), -EPIPE, "frame index 0 stalls");
	s.frame = 11;
	CHECK_EQ(set_probe(dev, false, &s, 34), -EPIPE, "frame index 11 stalls");
	s.frame = 3, s.interval = 0;
	CHECK_EQ(set_probe(dev, false, &s, 34), 0, "interval 0: the frame's default");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_NONE, "a good request clears the error");
	CHECK_EQ(get_probe(dev, 0x81).interval, 333333, "30 fps");
	s.interval = 0xffffffffu;
	CHECK_EQ(set_probe(dev, false, &s, 34), 0, "a huge interval");
	CHECK_EQ(get_probe(dev, 0x81).interval, 2000000, "the longest, 5 fps");
	s.interval = 400000;
	set_probe(dev, false, &s, 34);
	CHECK_EQ(get_probe(dev, 0x81).interval, 416667, "the nearest, 24 fps");
	s.frame = 9, s.interval = 333333;
	set_probe(dev, false, &s, 34);
	CHECK_EQ(get_probe(dev, 0x81).interval, 1000000, "1280x720 YUYV: 10 fps at most");
	CHECK_EQ(get_probe(dev, 0x82).interval, 1000000, "GET_MIN");
	CHECK_EQ(get_probe(dev, 0x83).interval, 2000000, "GET_MAX");
	CHECK_EQ(set_probe(dev, false, &s, 26), -EPIPE, "a short SET_CUR stalls");
	CHECK_EQ(set_probe(dev, false, &s, 40), -EPIPE, "a long SET_CUR stalls");
	CHECK_EQ(set_probe(dev, true, &s, 34), -EPIPE, "COMMIT of an interval the frame lacks stalls");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_INVALID_VALUE, "invalid value");
	s.interval = 1000000;
	CHECK_EQ(set_probe(dev, true, &s, 34), 0, "COMMIT");
	CHECK_EQ(ctrl(dev, 0xa1, 0x82, 0x0200, 0x0001, 34, NULL, NULL), -EPIPE, "COMMIT has no GET_MIN");
	CHECK_EQ(ctrl(dev, 0xa1, 0x81, 0x0300, 0x0001, 34, NULL, NULL), -EPIPE, "no still probe");
	CHECK_EQ(ctrl(dev, 0x21, 0x81, 0x0100, 0x0001, 34, in, NULL), -EPIPE, "GET_CUR sent as OUT stalls");
}

/* What negcam-uvc prints at exit and on SIGUSR1: PROBE and COMMIT counted apart. */
static void test_counts(struct nc_uvc_dev *dev)
{
	struct nc_uvc_counts c = dev->counts;
	struct nc_uvc_params s = { .format = 1, .frame = 6, .interval = 333333 };
	uint8_t in[34];

	CHECK_EQ(set_probe(dev, false, &s, 34), 0, "PROBE SET_CUR");
	get_probe(dev, 0x82);
	get_probe(dev, 0x81);
	CHECK_EQ(set_probe(dev, true, &s, 34), 0, "COMMIT SET_CUR");
	CHECK_EQ(ctrl(dev, 0xa1, 0x81, 0x0200, 0x0001, 34, NULL, in), 34, "COMMIT GET_CUR");
	CHECK_EQ(dev->counts.probe_set - c.probe_set, 1, "one PROBE SET_CUR counted");
	CHECK_EQ(dev->counts.probe_get - c.probe_get, 2, "GET_MIN and GET_CUR of PROBE counted");
	CHECK_EQ(dev->counts.commit_set - c.commit_set, 1, "one COMMIT SET_CUR counted");
	CHECK_EQ(dev->counts.commit_get - c.commit_get, 1, "one COMMIT GET_CUR counted");
}

static void test_pu(struct nc_uvc_dev *dev)
{
	uint8_t v[2] = { 44, 1 }, in[2];

	CHECK_EQ(ctrl(dev, 0x21, 0x01, 0x0200, 0x0200, 2, v, NULL), -EPIPE, "brightness 300 is out of range");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_OUT_OF_RANGE, "out of range");
	v[0] = 200, v[1] = 0;
	CHECK_EQ(ctrl(dev, 0x21, 0x01, 0x0200, 0x0200, 2, v, NULL), 0, "brightness 200");
	CHECK_EQ(ctrl(dev, 0xa1, 0x81, 0x0200, 0x0200, 2, NULL, in), 2, "GET_CUR");
	CHECK_EQ(in[0], 200, "200 read back");
	CHECK_EQ(ctrl(dev, 0x21, 0x01, 0x0200, 0x0200, 1, v, NULL), -EPIPE, "a short SET_CUR stalls");
	CHECK_EQ(ctrl(dev, 0xa1, 0x81, 0x0400, 0x0200, 2, NULL, in), -EPIPE, "no gain control");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_INVALID_CONTROL, "invalid control");
	CHECK_EQ(ctrl(dev, 0xa1, 0x81, 0x0200, 0x0900, 2, NULL, in), -EPIPE, "no unit 9");
	CHECK_EQ(error_code(dev), NC_UVC_ERR_INVALID_UNIT, "invalid unit");
}

/* A CMD_SUBMIT header. */
static void submit(uint8_t *b, uint32_t seq, uint32_t dir, uint32_t ep, int32_t tbl, int32_t np,
		   const uint8_t setup[8])
{
	memset(b, 0, USBIP_HDR_LEN);
	nc_uvc_put_be32(b, USBIP_CMD_SUBMIT);
	nc_uvc_put_be32(b + 4, seq);
	nc_uvc_put_be32(b + 12, dir);
	nc_uvc_put_be32(b + 16, ep);
	nc_uvc_put_be32(b + 24, (uint32_t)tbl);
	nc_uvc_put_be32(b + 32, (uint32_t)np);
	nc_uvc_put_be32(b + 36, 1);
	if (setup)
		memcpy(b + 40, setup, 8);
}

static void test_parser(void)
{
	uint8_t b[USBIP_HDR_LEN + 64 + 16] = { 0 };
	struct nc_usbip_cmd cmd;

	CHECK_EQ(nc_usbip_parse_cmd(b, 47, &cmd), 0, "a short header: more bytes needed");
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "command 0");
	nc_uvc_put_be32(b, 3);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "a RET_SUBMIT from the host");
	submit(b, 1, 2, 0, 0, 0, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "direction 2");
	submit(b, 1, 1, 16, 0, 0, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "endpoint 16");
	submit(b, 1, 1, 0, -1, 0, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "a negative length");
	submit(b, 1, 1, 1, 3072, 1025, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "1025 iso packets");
	submit(b, 1, 1, 1, 3072, -2, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "-2 iso packets");
	submit(b, 1, 0, 0, 70000, 0, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), -EPROTO, "70000 bytes of OUT data");
	submit(b, 1, 0, 0, 34, 0, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48 + 33, &cmd), 0, "OUT data not all there yet");
	CHECK_EQ(nc_usbip_parse_cmd(b, 48 + 34, &cmd), 48 + 34, "OUT data complete");
	submit(b, 1, 1, 1, 3072, 1, NULL);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48 + 15, &cmd), 0, "iso descriptor not all there");
	nc_uvc_put_be32(b + 48, 1); /* offset 1 + length 3072 > 3072 */
	nc_uvc_put_be32(b + 52, 3072);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48 + 16, &cmd), -EPROTO, "an iso packet outside the buffer");
	nc_uvc_put_be32(b + 48, 0);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48 + 16, &cmd), 48 + 16, "one iso packet");
	memset(b, 0, 48);
	nc_uvc_put_be32(b, USBIP_CMD_UNLINK);
	nc_uvc_put_be32(b + 20, 7);
	CHECK_EQ(nc_usbip_parse_cmd(b, 48, &cmd), 48, "CMD_UNLINK");
	CHECK_EQ(cmd.unlink_seqnum, 7, "of seqnum 7");
}

/* Send @n bytes of commands through the device's input; what it used. */
static long feed(struct nc_uvc_dev *dev, const uint8_t *b, size_t n, uint64_t now)
{
	return nc_uvc_dev_input(dev, b, n, now);
}

static void stream_on(struct nc_uvc_dev *dev, uint64_t now)
{
	static const uint8_t setcfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static const uint8_t setalt[8] = { 0x01, 11, NC_UVC_NALTS, 0, 1, 0, 0, 0 };
	uint8_t b[48];

	submit(b, 10, 0, 0, 0, 0, setcfg);
	CHECK_EQ(feed(dev, b, 48, now), 48, "SET_CONFIGURATION through USB/IP");
	CHECK_EQ(nc_uvc_be32(sent), USBIP_RET_SUBMIT, "answered");
	CHECK_EQ(nc_uvc_be32(sent + 4), 10, "seqnum");
	CHECK_EQ(nc_uvc_be32(sent + 20), 0, "status 0");
	submit(b, 11, 0, 0, 0, 0, setalt);
	feed(dev, b, 48, now);
	CHECK(dev->stream.on, "SET_INTERFACE alt %d starts the stream", NC_UVC_NALTS);
}

/* One iso URB of 32 packets of 3072 bytes, seqnum @seq. */
static void iso_urb(uint8_t *b, uint32_t seq)
{
	int i;

	submit(b, seq, 1, 1, 32 * 3072, 32, NULL);
	for (i = 0; i < 32; i++) {
		memset(b + 48 + 16 * i, 0, 16);
		nc_uvc_put_be32(b + 48 + 16 * i, (uint32_t)i * 3072);
		nc_uvc_put_be32(b + 52 + 16 * i, 3072);
	}
}

/* Answers of one URB: check the RET, append its payload data (headers dropped) to @frame. */
static int take_payloads(uint8_t *frame, uint32_t *flen, uint32_t seq, bool *eof)
{
	uint32_t total = nc_uvc_be32(sent + 24), off = 0, i, n, sum = 0;
	const uint8_t *data = sent + 48, *d;

	CHECK(nc_uvc_be32(sent) == USBIP_RET_SUBMIT && nc_uvc_be32(sent + 4) == seq, "RET_SUBMIT of %u", seq);
	CHECK_EQ(nc_uvc_be32(sent + 32), 32, "32 packets");
	CHECK_EQ(sent_len, 48 + total + 32 * 16, "data then descriptors");
	for (i = 0; i < 32; i++) {
		d = data + total + 16 * i;
		n = nc_uvc_be32(d + 8);
		sum += n;
		if (n && (data[off] != 6 || !(data[off + 1] & 0x80) || !(data[off + 1] & 0x04)))
			return -1; /* not a 6-byte header with EOH and PTS */
		if (n && *flen + n - 6 <= 614400) {
			memcpy(frame + *flen, data + off + 6, n - 6);
			*flen += n - 6;
		}
		if (n && (data[off + 1] & 0x02))
			*eof = true;
		off += n;
	}
	return sum == total ? 0 : -1;
}

/*
 * vhci-hcd sent a URB's CMD_UNLINK before its CMD_SUBMIT: RET_UNLINK 0
 * gives the URB back there, so its CMD_SUBMIT must go unanswered (a
 * RET_SUBMIT for it makes vhci-hcd drop the device). @b: room for an iso URB.
 */
static void test_early_unlink(struct nc_uvc_dev *dev, uint8_t *b, uint64_t t)
{
	memset(b, 0, 48);
	nc_uvc_put_be32(b, USBIP_CMD_UNLINK);
	nc_uvc_put_be32(b + 4, 601);
	nc_uvc_put_be32(b + 20, 600);
	feed(dev, b, 48, t);
	CHECK_EQ(nc_uvc_be32(sent + 20), 0, "unlink before submit: RET_UNLINK 0");
	sent_count = 0;
	iso_urb(b, 600);
	CHECK_EQ(feed(dev, b, 48 + 32 * 16, t), 48 + 32 * 16, "its CMD_SUBMIT taken");
	nc_uvc_dev_tick(dev, t + 100 * 32 * NC_UVC_MICROFRAME_NS);
	CHECK_EQ(sent_count, 0, "and never answered");
	CHECK_EQ(nc_uvc_dev_next_due(dev), UINT64_MAX, "nor held");
	iso_urb(b, 602);
	feed(dev, b, 48 + 32 * 16, t);
	CHECK(nc_uvc_dev_next_due(dev) != UINT64_MAX, "the next URB is held as before");
}

static void test_iso(void)
{
	static struct nc_uvc_dev dev;
	static uint8_t b[48 + 32 * 16], frame[614400];
	uint64_t t = 1000000000ull;
	uint32_t flen = 0, seq, urbs = 0;
	bool eof = false;

	nc_uvc_dev_init(&dev, builtin("webcam"), NULL, capture, NULL);
	stream_on(&dev, t);
	for (seq = 100; !eof && seq < 120; seq++, urbs++) {
		iso_urb(b, seq);
		CHECK_EQ(feed(&dev, b, sizeof(b), t), (long)sizeof(b), "iso URB held");
		CHECK_EQ(nc_uvc_dev_next_due(&dev), t + 32 * NC_UVC_MICROFRAME_NS, "due after 32 microframes");
		sent_count = 0;
		nc_uvc_dev_tick(&dev, t + 31 * NC_UVC_MICROFRAME_NS);
		CHECK_EQ(sent_count, 0, "not before its bus time");
		t += 32 * NC_UVC_MICROFRAME_NS;
		nc_uvc_dev_tick(&dev, t);
		CHECK_EQ(sent_count, 1, "answered at its bus time");
		CHECK_EQ(take_payloads(frame, &flen, seq, &eof), 0, "payload headers and lengths");
	}
	CHECK(eof, "a frame ended");
	CHECK_EQ(urbs, 7, "640x480 YUYV at 3066 bytes a microframe: 201 packets, 7 URBs");
	CHECK_EQ(flen, 614400, "the whole frame");
	CHECK_EQ(negcam_stamp_read(frame, 2, 1280, 640, 480), 0, "frame number 0");
	iso_urb(b, 200);
	feed(&dev, b, sizeof(b), t);
	memset(b, 0, 48);
	nc_uvc_put_be32(b, USBIP_CMD_UNLINK);
	nc_uvc_put_be32(b + 4, 201);
	nc_uvc_put_be32(b + 20, 200);
	feed(&dev, b, 48, t);
	CHECK(nc_uvc_be32(sent) == USBIP_RET_UNLINK && nc_uvc_be32(sent + 4) == 201, "RET_UNLINK");
	CHECK_EQ((int32_t)nc_uvc_be32(sent + 20), -ECONNRESET, "a held URB is taken back");
	CHECK_EQ(nc_uvc_dev_next_due(&dev), UINT64_MAX, "nothing held");
	nc_uvc_put_be32(b + 20, 999);
	feed(&dev, b, 48, t);
	CHECK_EQ(nc_uvc_be32(sent + 20), 0, "an unknown URB: already answered");
	test_early_unlink(&dev, b, t);
	nc_uvc_dev_free(&dev);
}

/* Random commands (valid command words, anything else random) never crash the device. */
static void test_random(void)
{
	static struct nc_uvc_dev dev;
	static uint8_t b[4096];
	uint32_t x = 12345, i, j, n, bad = 0;
	long r;

	nc_uvc_dev_init(&dev, builtin("webcam"), NULL, capture, NULL);
	for (i = 0; i < 20000; i++) {
		n = 48 + (x % 200);
		for (j = 0; j < n; j++) {
			x = x * 1103515245u + 12345u;
			b[j] = (uint8_t)(x >> 16);
		}
		nc_uvc_put_be32(b, 1 + (x >> 8) % 2);
		b[12] = b[13] = b[14] = 0;
		b[16] = b[17] = b[18] = 0;
		b[19] &= 1;
		r = feed(&dev, b, n, 1000000000ull + i * 1000000ull);
		bad += r < 0;
		nc_uvc_dev_tick(&dev, 1000000000ull + i * 1000000ull);
	}
	CHECK(bad > 0 && bad < 20000, "some refused (%u), some taken", bad);
	nc_uvc_dev_free(&dev);
}

int main(void)
{
	static struct nc_uvc_dev dev;

	test_descriptors();
	test_identity();
	test_interval_rounding();
	test_left_out();
	nc_uvc_dev_init(&dev, builtin("webcam"), NULL, capture, NULL);
	test_standard(&dev);
	test_probe(&dev);
	test_counts(&dev);
	test_pu(&dev);
	nc_uvc_dev_free(&dev);
	test_parser();
	test_iso();
	test_random();
	return check_done("uvc");
}
