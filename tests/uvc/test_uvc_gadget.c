// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc's gadget mode on the host (uvc/uvc-gadget.h), no kernel:
 * the descriptor model fitted to what usb_f_uvc's configfs carries, the
 * configfs tree written into a plain directory (its files, values and
 * links), and the gadget's UVC events answered by the device core: PROBE
 * and COMMIT through SETUP + DATA, the interface numbers mapped, stalls,
 * COMMIT refused while streaming. The VM runs the real chain
 * (tests/vm/gadget-suite.sh).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/check.h"
#include "profile-text.h"
#include "uvc-gadget.h"

static int no_send(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx, (void)buf, (void)len;
	return 0;
}

static void test_fit(void)
{
	static struct nc_uvc_dev dev;
	const char *text = "name mixed\ndefault MJPG 640x480 fps 30\n"
			   "format YUYV\n  size 320x240 fps 1-60\n  size 640x480 fps 30 15\n"
			   "format H264\n  size 640x480 fps 30\n"
			   "format MJPG\n  size 320x240 fps 30\n  size 640x480 fps 30 15\n";

	CHECK_EQ(nc_uvc_dev_init(&dev, load(text), NULL, no_send, NULL), 0, "built");
	CHECK_EQ(dev.desc.nformats, 3, "YUYV, H264, MJPG on vhci-hcd");
	dev.desc.warnings[0] = 0;
	CHECK_EQ(nc_uvc_gadget_fit(&dev), 0, "fitted");
	CHECK_EQ(dev.desc.nformats, 2, "H264 left out");
	CHECK(dev.desc.formats[0].fourcc == V4L2_PIX_FMT_YUYV &&
	      dev.desc.formats[1].fourcc == V4L2_PIX_FMT_MJPEG, "YUYV then MJPG");
	CHECK_EQ(dev.desc.formats[0].nframes, 1, "YUYV's continuous 320x240 left out");
	CHECK_EQ(dev.desc.formats[0].frames[0].width, 640, "YUYV keeps 640x480");
	CHECK_EQ(dev.desc.formats[1].nframes, 2, "MJPG keeps both");
	CHECK_EQ(dev.desc.def_format, 2, "the default format is MJPG at its new index");
	CHECK_EQ(dev.desc.formats[1].def_frame, 2, "640x480 the default frame");
	CHECK(strstr(dev.desc.warnings, "format H264 left out: usb_f_uvc") != NULL, "H264 named: %s",
	      dev.desc.warnings);
	CHECK(strstr(dev.desc.warnings, "format YUYV: 320x240 left out") != NULL, "320x240 named");
	CHECK_EQ(dev.probe.format, 2, "the probe's default follows the new indexes");
	CHECK_EQ(dev.config, 1, "configured: class requests come to a configured gadget");
	nc_uvc_dev_free(&dev);
	CHECK_EQ(nc_uvc_dev_init(&dev, load("name h\nformat H264\n  size 640x480 fps 30\n"), NULL,
				 no_send, NULL), 0, "H.264 alone builds for vhci-hcd");
	CHECK_EQ(nc_uvc_gadget_fit(&dev), -EINVAL, "and is refused as a gadget");
	nc_uvc_dev_free(&dev);
}

/* The contents of @root's gadget file @rel ("" when missing). */
static const char *slurp(const char *root, const char *rel)
{
	static char buf[4096];
	char path[PATH_MAX];
	FILE *f;
	size_t n = 0;

	nc_uvc_gadget_path(root, "g", rel, path, sizeof(path));
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/* Where @root's gadget link @rel points, relative to the gadget ("" when not a link). */
static const char *link_of(const char *root, const char *rel)
{
	static char buf[PATH_MAX];
	char path[PATH_MAX], dir[PATH_MAX];
	ssize_t n;

	nc_uvc_gadget_path(root, "g", rel, path, sizeof(path));
	nc_uvc_gadget_path(root, "g", NULL, dir, sizeof(dir));
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	return strncmp(buf, dir, strlen(dir)) ? buf : buf + strlen(dir) + 1;
}

static void test_configfs(struct nc_uvc_dev *dev)
{
	char root[] = "/tmp/negcam-gadget-XXXXXX", top[PATH_MAX], msg[PATH_MAX + 256], cmd[PATH_MAX];
	const char *u = "functions/uvc.0/streaming/uncompressed/f1";

	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp");
		return;
	}
	CHECK(nc_uvc_gadget_create(&dev->desc, root, "g", "dummy_udc.0", msg, sizeof(msg)) == -1 &&
	      strstr(msg, "modprobe libcomposite usb_f_uvc"), "no usb_gadget: %s", msg);
	snprintf(top, sizeof(top), "%s/usb_gadget", root);
	mkdir(top, 0755);
	CHECK_EQ(nc_uvc_gadget_create(&dev->desc, root, "g", "dummy_udc.0", msg, sizeof(msg)), 0,
		 "created: %s", msg);
	CHECK(!strcmp(slurp(root, "idVendor"), "0x1d6b\n"), "idVendor");
	CHECK(!strcmp(slurp(root, "strings/0x409/product"), "Negcam Webcam\n"), "product: the card");
	CHECK(!strcmp(slurp(root, "UDC"), "dummy_udc.0\n"), "bound to the UDC");
	CHECK(!strcmp(slurp(root, "functions/uvc.0/streaming/uncompressed/f1/1-160x120/wWidth"), "160\n"),
	      "format 1 frame 1 is 160x120");
	CHECK(!strcmp(slurp(root, "functions/uvc.0/streaming/uncompressed/f1/9-1280x720/dwFrameInterval"),
		      "1000000\n1333333\n2000000\n"), "1280x720's three intervals, in order");
	CHECK(!strcmp(slurp(root, "functions/uvc.0/streaming/uncompressed/f1/6-640x480/"
			    "dwMaxVideoFrameBufferSize"), "614400\n"), "640x480 YUYV's buffer");
	CHECK(!memcmp(slurp(root, "functions/uvc.0/streaming/uncompressed/f1/guidFormat"), "YUY2", 4),
	      "the YUY2 GUID");
	CHECK(!strcmp(slurp(root, "functions/uvc.0/streaming/uncompressed/f1/bDefaultFrameIndex"), "6\n"),
	      "640x480 the default frame");
	CHECK(!strcmp(slurp(root, "functions/uvc.0/streaming/mjpeg/f2/1-160x120/wHeight"), "120\n"),
	      "format 2 is MJPEG");
	CHECK(!strcmp(link_of(root, "functions/uvc.0/streaming/header/h/f1"), u), "header links f1 first");
	CHECK(!strcmp(link_of(root, "functions/uvc.0/streaming/header/h/f2"),
		      "functions/uvc.0/streaming/mjpeg/f2"), "then f2");
	CHECK(!strcmp(link_of(root, "functions/uvc.0/streaming/class/hs/h"),
		      "functions/uvc.0/streaming/header/h"), "high speed streaming class");
	CHECK(!strcmp(link_of(root, "functions/uvc.0/control/class/fs/h"),
		      "functions/uvc.0/control/header/h"), "control class");
	CHECK(!strcmp(link_of(root, "configs/c.1/uvc.0"), "functions/uvc.0"), "the function in c.1");
	CHECK(nc_uvc_gadget_create(&dev->desc, root, "g", NULL, msg, sizeof(msg)) == -1 &&
	      strstr(msg, "exists") && strstr(msg, "--remove"), "a second one refused: %s", msg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK_EQ(system(cmd), 0, "cleaned up");
}

/* One event; the action. */
static enum nc_uvc_ep0_action event(struct nc_uvc_ep0 *g, struct nc_uvc_dev *dev, uint32_t type,
				    const uint8_t *bytes, size_t len, struct uvc_request_data *resp)
{
	struct uvc_event ev;

	memset(&ev, 0, sizeof(ev));
	if (type == UVC_EVENT_DATA) {
		ev.data.length = (int32_t)len;
		memcpy(ev.data.data, bytes, len);
	} else if (bytes) {
		memcpy(&ev.req, bytes, 8);
	}
	return nc_uvc_ep0_event(g, dev, type, &ev, resp);
}

/* SET_CUR of PROBE (cs 1) or COMMIT (cs 2) with format/frame/interval: SETUP then DATA. */
static void set_cur(struct nc_uvc_ep0 *g, struct nc_uvc_dev *dev, unsigned int cs, uint8_t format,
		    uint8_t frame, uint32_t interval)
{
	const uint8_t setup[8] = { 0x21, 0x01, 0, cs, 3, 0, 34, 0 }; /* wIndex: gadget interface 3 */
	struct nc_uvc_params s = { .format = format, .frame = frame, .interval = interval };
	struct uvc_request_data resp;
	uint8_t data[NC_UVC_PROBE_LEN];

	CHECK_EQ(event(g, dev, UVC_EVENT_SETUP, setup, 8, &resp), NC_EP0_RESPOND, "SETUP answered");
	CHECK_EQ(resp.length, 34, "the data stage taken");
	nc_uvc_params_pack(&s, data);
	CHECK_EQ(event(g, dev, UVC_EVENT_DATA, data, sizeof(data), &resp), NC_EP0_NONE, "DATA handled");
}

static void test_events(struct nc_uvc_dev *dev)
{
	struct nc_uvc_ep0 g = { .vc_intf = 2, .vs_intf = 3 };
	const uint8_t get_probe[8] = { 0xa1, 0x81, 0, 1, 3, 0, 34, 0 };
	const uint8_t get_commit[8] = { 0xa1, 0x81, 0, 2, 3, 0, 34, 0 };
	const uint8_t brightness[8] = { 0xa1, 0x81, 0, 2, 2, NC_UVC_ID_PU, 2, 0 };
	const uint8_t other_intf[8] = { 0xa1, 0x81, 0, 1, 1, 0, 34, 0 };
	const uint8_t too_long[8] = { 0xa1, 0x81, 0, 1, 3, 0, 200, 0 };
	struct uvc_request_data resp;

	CHECK_EQ(event(&g, dev, UVC_EVENT_CONNECT, NULL, 0, &resp), NC_EP0_NONE, "CONNECT");
	CHECK_EQ(event(&g, dev, UVC_EVENT_SETUP, get_probe, 8, &resp), NC_EP0_RESPOND, "GET_CUR PROBE");
	CHECK(resp.length == 34 && resp.data[2] == 1 && resp.data[3] == 6, "the default: YUYV 640x480");
	set_cur(&g, dev, 1, 2, 9, 333333);
	CHECK_EQ(dev->counts.probe_set, 1, "the core saw PROBE SET_CUR");
	event(&g, dev, UVC_EVENT_SETUP, get_probe, 8, &resp);
	CHECK(resp.data[2] == 2 && resp.data[3] == 9, "PROBE now MJPG 1280x720");
	CHECK_EQ(resp.data[4] | resp.data[5] << 8 | resp.data[6] << 16, 333333, "at 30 fps");
	set_cur(&g, dev, 2, 2, 9, 333333);
	CHECK(dev->counts.commit_set == 1 && dev->committed && dev->commit.format == 2 &&
	      dev->commit.frame == 9, "COMMIT MJPG 1280x720");
	event(&g, dev, UVC_EVENT_SETUP, get_commit, 8, &resp);
	CHECK(resp.length == 34 && resp.data[2] == 2, "GET_CUR COMMIT");
	CHECK_EQ(event(&g, dev, UVC_EVENT_SETUP, brightness, 8, &resp), NC_EP0_RESPOND, "PU GET_CUR");
	CHECK(resp.length == 2 && resp.data[0] == 128, "brightness 128 (interface 2 mapped to VC)");
	event(&g, dev, UVC_EVENT_SETUP, other_intf, 8, &resp);
	CHECK_EQ(resp.length, -EL2HLT, "an interface not the function's: a stall");
	event(&g, dev, UVC_EVENT_SETUP, too_long, 8, &resp);
	CHECK_EQ(resp.length, -EL2HLT, "wLength beyond the event's 60 bytes: a stall");
	CHECK_EQ(g.counts.stalled, 2, "two stalls counted");
	CHECK_EQ(event(&g, dev, UVC_EVENT_STREAMON, NULL, 0, &resp), NC_EP0_STREAMON, "STREAMON");
	set_cur(&g, dev, 2, 1, 1, 333333);
	CHECK(dev->counts.commit_set == 1 && dev->commit.format == 2 && g.counts.stalled == 3,
	      "COMMIT refused while streaming, counted");
	CHECK_EQ(event(&g, dev, UVC_EVENT_STREAMOFF, NULL, 0, &resp), NC_EP0_STREAMOFF, "STREAMOFF");
	CHECK_EQ(event(&g, dev, UVC_EVENT_DATA, get_probe, 8, &resp), NC_EP0_NONE, "DATA with no SETUP");
	CHECK_EQ(dev->counts.probe_set, 1, "ignored");
	CHECK_EQ(event(&g, dev, UVC_EVENT_DISCONNECT, NULL, 0, &resp), NC_EP0_STREAMOFF,
		 "DISCONNECT stops the stream");
	CHECK(g.counts.connect == 1 && g.counts.disconnect == 1 && g.counts.streamon == 1 &&
	      g.counts.streamoff == 1 && g.counts.data == 4, "events counted");
}

int main(void)
{
	static struct nc_uvc_dev dev;

	test_fit();
	nc_uvc_dev_init(&dev, load(negcam_builtin_find("webcam")->text), NULL, no_send, NULL);
	CHECK_EQ(nc_uvc_gadget_fit(&dev), 0, "webcam fits as it is");
	CHECK_EQ(dev.desc.nformats, 2, "YUYV and MJPG");
	test_configfs(&dev);
	test_events(&dev);
	nc_uvc_dev_free(&dev);
	return check_done("uvc-gadget");
}
