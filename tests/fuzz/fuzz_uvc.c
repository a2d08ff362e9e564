// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: negcam-uvc's device core (uvc/uvc-device.h) as the
 * host's USB/IP stream reaches it: the command parser, endpoint 0's
 * standard and class requests, held isochronous URBs and UNLINK.
 *
 * Byte 0 picks a built-in profile (the device is built again only when it
 * changes, else reset); the device is configured first (as the kernel
 * does) so class requests are reached. Then each operation is an
 * opcode byte: raw bytes, a control request (setup and OUT data from the
 * input), an isochronous URB, an UNLINK of a recent seqnum, or time
 * passing (held URBs answered, frames drawn). Promises checked: input
 * is used or refused with -EPROTO, and every answer is a whole
 * RET_SUBMIT or RET_UNLINK whose length matches its header.
 */
#include <errno.h>

#include "fuzz_common.h"
#include "uvc-bytes.h"
#include "uvc-device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct negcam_profile profile;
static struct nc_uvc_dev dev;
static uint8_t stream[1 << 20];
static size_t have;

/* Every answer: a whole RET whose length agrees with its header. */
static int check_answer(void *ctx, const uint8_t *buf, size_t len)
{
	uint32_t cmd;

	(void)ctx;
	FUZZ_ASSERT(len >= USBIP_HDR_LEN, "answer of %zu bytes", len);
	cmd = nc_uvc_be32(buf);
	FUZZ_ASSERT(cmd == USBIP_RET_SUBMIT || cmd == USBIP_RET_UNLINK, "answer command %u", cmd);
	if (cmd == USBIP_RET_UNLINK)
		FUZZ_ASSERT(len == USBIP_HDR_LEN, "RET_UNLINK of %zu bytes", len);
	else
		FUZZ_ASSERT(len == USBIP_HDR_LEN + (nc_uvc_be32(buf + 12) == USBIP_DIR_IN ? nc_uvc_be32(buf + 24) : 0) +
			    (size_t)nc_uvc_be32(buf + 32) * USBIP_ISO_DESC_LEN, "RET_SUBMIT of %zu bytes", len);
	return 0;
}

static void append(const uint8_t *b, size_t n)
{
	if (have + n <= sizeof(stream)) {
		memcpy(stream + have, b, n);
		have += n;
	}
}

static void header(uint8_t *b, uint32_t command, uint32_t seq, uint32_t dir, uint32_t ep)
{
	memset(b, 0, USBIP_HDR_LEN);
	nc_uvc_put_be32(b, command);
	nc_uvc_put_be32(b + 4, seq);
	nc_uvc_put_be32(b + 12, dir);
	nc_uvc_put_be32(b + 16, ep);
}

/* A control transfer: setup from the input, OUT data of wLength bytes. */
static void op_control(struct fuzz_reader *in, uint32_t seq)
{
	uint8_t b[USBIP_HDR_LEN + 256];
	uint16_t wlen;
	unsigned int i;

	header(b, USBIP_CMD_SUBMIT, seq, 0, 0);
	for (i = 0; i < 8; i++)
		b[40 + i] = fz_u8(in);
	b[47] = 0; /* wLength at most 255 */
	wlen = b[46];
	b[12 + 3] = b[40] >> 7;
	nc_uvc_put_be32(b + 24, wlen);
	if (!(b[40] & 0x80)) {
		for (i = 0; i < wlen; i++)
			b[USBIP_HDR_LEN + i] = fz_u8(in);
		append(b, USBIP_HDR_LEN + wlen);
	} else {
		append(b, USBIP_HDR_LEN);
	}
}

/* An isochronous IN URB of up to 64 packets. */
static void op_iso(struct fuzz_reader *in, uint32_t seq)
{
	uint8_t b[USBIP_HDR_LEN + 64 * USBIP_ISO_DESC_LEN];
	unsigned int np = 1 + fz_u8(in) % 64, psize = 1 + fz_u8(in) * 16, i;

	header(b, USBIP_CMD_SUBMIT, seq, USBIP_DIR_IN, 1);
	nc_uvc_put_be32(b + 24, np * psize);
	nc_uvc_put_be32(b + 32, np);
	nc_uvc_put_be32(b + 36, fz_u8(in) % 4);
	for (i = 0; i < np; i++) {
		memset(b + USBIP_HDR_LEN + i * 16, 0, 16);
		nc_uvc_put_be32(b + USBIP_HDR_LEN + i * 16, i * psize);
		nc_uvc_put_be32(b + USBIP_HDR_LEN + i * 16 + 4, psize);
	}
	append(b, USBIP_HDR_LEN + np * USBIP_ISO_DESC_LEN);
}

static void op_raw(struct fuzz_reader *in)
{
	uint8_t b[256];
	unsigned int n = fz_u8(in), i;

	for (i = 0; i < n; i++)
		b[i] = fz_u8(in);
	append(b, n);
}

/* Feed what is queued; drop it all when refused (the program would end). */
static void feed(uint64_t now)
{
	long used = nc_uvc_dev_input(&dev, stream, have, now);

	FUZZ_ASSERT(used >= 0 || used == -EPROTO, "input answered %ld", used);
	if (used < 0) {
		have = 0;
		return;
	}
	memmove(stream, stream + used, have - (size_t)used);
	have -= (size_t)used;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader in = { data, size };
	unsigned int index = fz_u8(&in) % 16;
	const struct negcam_builtin *bi = negcam_builtin_at(index);
	static unsigned int built = ~0u;
	static bool usable;
	struct negcam_parse_error err;
	static const uint8_t setcfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	uint8_t b[USBIP_HDR_LEN];
	uint64_t now = 1000000000ull;
	uint32_t seq = 1;

	if (!bi)
		bi = negcam_builtin_at(index = 0);
	if (index != built) { /* building is slow: only when the profile changes */
		nc_uvc_dev_free(&dev);
		built = index;
		usable = !negcam_profile_parse(&profile, bi->text, (uint32_t)strlen(bi->text), &err) &&
			 !nc_uvc_dev_init(&dev, &profile, NULL, check_answer, NULL);
	}
	if (!usable)
		return 0;
	nc_uvc_dev_reset(&dev);
	have = 0;
	header(b, USBIP_CMD_SUBMIT, seq++, 0, 0);
	memcpy(b + 40, setcfg, 8);
	append(b, USBIP_HDR_LEN);
	while (in.n) {
		switch (fz_u8(&in) % 5) {
		case 0: op_raw(&in); break;
		case 1: op_control(&in, seq++); break;
		case 2: op_iso(&in, seq++); break;
		case 3:
			header(b, USBIP_CMD_UNLINK, seq, 0, 0);
			nc_uvc_put_be32(b + 20, seq - 1 - fz_u8(&in) % 8);
			seq++;
			append(b, USBIP_HDR_LEN);
			break;
		default: now += (uint64_t)fz_u8(&in) * 250000u; break;
		}
		feed(now);
		nc_uvc_dev_tick(&dev, now);
	}
	return 0;
}
