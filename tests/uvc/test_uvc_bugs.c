// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-uvc's firmware bugs ('uvc-bugs', docs/uvc.md) and the profile's
 * faults on its isochronous stream (docs/faults.md), on the host: what the
 * device answers and sends with each bug, against the same profile
 * without it; the parser's errors for the bug names. The VM runs the same
 * cameras behind uvcvideo (tests/vm/uvc-suite.sh, case_firmware_bugs).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/check.h"
#include "profile-text.h"
#include "uvc-bytes.h"
#include "uvc-device.h"

#define BASE "name bugs\nformat YUYV\nsize 160x120 fps 30 15\nformat GREY\nsize 320x240 fps 30\n" \
	     "format MJPG\nsize 320x240 fps 30\n"

static int nosend(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx; (void)buf; (void)len;
	return 0;
}

static struct nc_uvc_dev *device(const char *bugs, const char *faults)
{
	static struct nc_uvc_dev dev;
	static char text[512];
	static const uint8_t setcfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	static uint8_t in[64];

	nc_uvc_dev_free(&dev);
	memset(&dev, 0, sizeof(dev));
	snprintf(text, sizeof(text), "%s%s\n%s%s", bugs[0] ? "uvc-bugs " : "", bugs, BASE, faults);
	CHECK_EQ(nc_uvc_dev_init(&dev, load(text), NULL, nosend, NULL), 0, "device of '%s'", bugs);
	nc_uvc_control(&dev, setcfg, NULL, 0, in);
	return &dev;
}

/* A PROBE request: the answer's length, or negative for a stall; IN data in @b. */
static int probe(struct nc_uvc_dev *dev, uint8_t req, uint8_t *b)
{
	uint8_t setup[8] = { req == 0x01 ? 0x21 : 0xa1, req, 0x00, 0x01, 0x01, 0x00, 34, 0 };
	static uint8_t in[64];

	return nc_uvc_control(dev, setup, req == 0x01 ? b : NULL, req == 0x01 ? 34 : 0,
			      req == 0x01 ? in : b);
}

static void test_probe_bugs(void)
{
	struct nc_uvc_dev *dev = device("", "");
	struct nc_uvc_params s = { .format = 1, .frame = 1, .interval = 666667 };
	uint8_t b[34];

	CHECK_EQ(probe(dev, 0x82, b), 34, "GET_MIN answered without the bug");
	CHECK_EQ(probe(dev, 0x87, b), 34, "GET_DEF answered without the bug");
	nc_uvc_params_pack(&s, b);
	nc_uvc_put_le32(b + 18, 0);
	CHECK_EQ(probe(dev, 0x01, b), 0, "SET_CUR with dwMaxVideoFrameSize 0 taken");
	probe(dev, 0x81, b);
	CHECK_EQ(nc_uvc_le32(b + 4), 666667, "15 fps asked, 15 fps answered");
	CHECK(nc_uvc_le32(b + 22) <= 3072, "a payload size an alt carries");
	dev = device("probe-no-minmax probe-no-def probe-needs-max-frame rate-ignored bandwidth-over", "");
	CHECK(probe(dev, 0x82, b) < 0 && probe(dev, 0x83, b) < 0, "probe-no-minmax: GET_MIN, GET_MAX stall");
	CHECK(probe(dev, 0x87, b) < 0, "probe-no-def: GET_DEF stalls");
	CHECK_EQ(probe(dev, 0x81, b), 34, "GET_CUR still answered");
	nc_uvc_params_pack(&s, b);
	nc_uvc_put_le32(b + 18, 0);
	CHECK(probe(dev, 0x01, b) < 0, "probe-needs-max-frame: SET_CUR with dwMaxVideoFrameSize 0 stalls");
	nc_uvc_put_le32(b + 18, 38400);
	CHECK_EQ(probe(dev, 0x01, b), 0, "and is taken with the field set");
	probe(dev, 0x81, b);
	CHECK_EQ(nc_uvc_le32(b + 4), 333333, "rate-ignored: 15 fps asked, the default 30 answered");
	CHECK_EQ(nc_uvc_le32(b + 22), NC_UVC_BUG_PAYLOAD, "bandwidth-over: above every alt");
	dev = device("max-frame-small", "");
	s.format = 3;
	s.interval = 0;
	nc_uvc_params_pack(&s, b);
	probe(dev, 0x01, b);
	probe(dev, 0x81, b);
	CHECK_EQ(nc_uvc_le32(b + 18), NC_UVC_BUG_MAX_FRAME, "max-frame-small: MJPEG's dwMaxVideoFrameSize");
	dev = device("probe-format-in-hint", "");
	nc_uvc_params_pack(&s, b);
	probe(dev, 0x01, b);
	probe(dev, 0x81, b);
	CHECK(b[0] == 0 && b[1] == 3 && b[2] == 1,
	      "probe-format-in-hint: format 3 in bmHint's second byte, bFormatIndex 1 (%u %u %u)",
	      b[0], b[1], b[2]);
}

/* The first uncompressed format descriptor with GUID @g (its first 4 bytes). */
static const uint8_t *format_desc(const struct nc_uvc_desc *d, const char *g)
{
	uint32_t i;

	for (i = 0; i + 2 < d->config_len && d->config[i]; i += d->config[i])
		if (d->config[i + 1] == 0x24 && d->config[i + 2] == 0x04 && !memcmp(d->config + i + 5, g, 4))
			return d->config + i;
	return NULL;
}

/* The format descriptor with bFormatIndex @idx. */
static const uint8_t *format_index(const struct nc_uvc_desc *d, unsigned int idx)
{
	uint32_t i;

	for (i = 0; i + 3 < d->config_len && d->config[i]; i += d->config[i])
		if (d->config[i + 1] == 0x24 && (d->config[i + 2] == 0x04 || d->config[i + 2] == 0x06) &&
		    d->config[i + 3] == idx)
			return d->config + i;
	return NULL;
}

static void test_descriptor_bugs(void)
{
	struct nc_uvc_dev *dev = device("", "");
	const uint8_t *f = format_desc(&dev->desc, "YUY2");

	CHECK(f && f[21] == 16, "YUYV: bBitsPerPixel 16");
	CHECK(format_desc(&dev->desc, "Y800") != NULL, "GREY as itself");
	dev = device("wrong-bpp y8-as-yuyv", "");
	f = format_desc(&dev->desc, "YUY2");
	CHECK(f && f[21] == 8, "wrong-bpp: YUYV with bBitsPerPixel 8");
	CHECK(format_desc(&dev->desc, "Y800") == NULL, "y8-as-yuyv: no GREY format");
	f = format_index(&dev->desc, 2);
	CHECK(f && !memcmp(f + 5, "YUY2", 4) && f[21] == 8,
	      "y8-as-yuyv: GREY as YUYV (bBitsPerPixel 8 with wrong-bpp)");
	CHECK(f && nc_uvc_le16(f + f[0] + 5) == 160, "of half the width (320 as 160)");
}

/* Run @dev's stream for @ms at alt 8: frames ended (EOF), FID values seen, ERR payloads. */
struct run { unsigned int eof, fid[2], err, packets; };

static struct run stream(struct nc_uvc_dev *dev, unsigned int ms)
{
	static uint8_t pkt[3072];
	struct run r = { 0 };
	uint64_t t = 1000000000ull, end = t + ms * 1000000ull;
	uint32_t n;

	dev->vs_alt = NC_UVC_NALTS;
	CHECK_EQ(nc_uvc_stream_start(dev, t), 0, "stream started");
	for (; t < end && !nc_uvc_stream_unplugged(dev); t += NC_UVC_MICROFRAME_NS) {
		n = nc_uvc_stream_packet(dev, t, pkt, sizeof(pkt));
		if (n <= 6)
			continue;
		r.packets++;
		r.fid[pkt[1] & 1]++;
		r.eof += !!(pkt[1] & 0x02);
		r.err += !!(pkt[1] & 0x40);
	}
	return r;
}

static void test_stream_bugs(void)
{
	struct run r = stream(device("", ""), 1000);

	CHECK_EQ(r.eof, 30, "30 frames a second");
	CHECK(r.fid[0] && r.fid[1], "FID toggles");
	r = stream(device("no-fid", ""), 1000);
	CHECK_EQ(r.eof, 30, "no-fid: 30 frames a second");
	CHECK_EQ(r.fid[1], 0, "no-fid: FID stays 0");
	r = stream(device("mjpeg-no-eof", ""), 1000);
	CHECK_EQ(r.eof, 30, "mjpeg-no-eof: YUYV frames keep their EOF");
}

static void test_faults(void)
{
	struct nc_uvc_dev *dev = device("", "fault seed 7\nfault drop 10%\n");
	struct run r = stream(dev, 2000);

	CHECK_EQ(r.err, 5, "drop 10%% with seed 7: 5 of 60 frames lost (4, 6, 47, 58, 59), "
		 "each one payload with ERR");
	CHECK_EQ(r.eof, 60, "each ended by EOF (uvcvideo discards it and counts it)");
	CHECK_EQ(dev->stream.frames, 55, "55 sent whole");
	CHECK_EQ(dev->stream.frame_no, 60, "their numbers used up");
	r = stream(device("", "fault error 100%\n"), 1000);
	CHECK(r.err == r.packets && r.err, "error 100%%: every payload has ERR");
	r = stream(device("", "fault rate 10\n"), 1000);
	CHECK_EQ(r.eof, 10, "rate 10: 10 frames a second");
	r = stream(device("", "fault stall 500ms every 1s\n"), 2000);
	CHECK_EQ(r.eof, 45, "stall 500ms every 1s: 15 frames fewer in 2 s");
	dev = device("", "fault unplug 500ms\n");
	r = stream(dev, 2000);
	CHECK(nc_uvc_stream_unplugged(dev), "unplug: said to the session");
	CHECK_EQ(r.eof, 15, "unplug 500ms: 15 frames, then nothing");
}

static void test_parser(void)
{
	struct negcam_profile *p = malloc(sizeof(*p));
	struct negcam_parse_error err;
	static const char bad[] = "name x\nuvc-bugs no-fid no-fdi\nformat YUYV\nsize 8x8 fps 1\n";
	static const char twice[] = "name x\nuvc-bugs no-fid no-fid\nformat YUYV\nsize 8x8 fps 1\n";
	static const char good[] = "name x\nuvc-bugs probe-no-def no-fid\nformat YUYV\nsize 8x8 fps 1\n";
	char out[4096];

	CHECK_EQ(negcam_profile_parse(p, bad, sizeof(bad) - 1, &err), -EINVAL, "an unknown bug");
	CHECK(err.line == 2 && err.column == 17 && strstr(err.message, "no-fid"),
	      "at 2:17 with a suggestion: %s", err.message);
	CHECK_EQ(negcam_profile_parse(p, twice, sizeof(twice) - 1, &err), -EINVAL, "a bug twice");
	CHECK(strstr(err.message, "listed twice") != NULL, "said: %s", err.message);
	CHECK_EQ(negcam_profile_parse(p, good, sizeof(good) - 1, &err), 0, "two bugs");
	CHECK_EQ(p->uvc_bugs, NC_UVC_BUG_NO_FID | NC_UVC_BUG_PROBE_NO_DEF, "their bits");
	negcam_profile_write(p, NULL, out, sizeof(out));
	CHECK(strstr(out, "\nuvc-bugs no-fid probe-no-def\n") != NULL, "written back: %s", out);
	free(p);
}

int main(void)
{
	test_probe_bugs();
	test_descriptor_bugs();
	test_stream_bugs();
	test_faults();
	test_parser();
	return check_done("test_uvc_bugs");
}
