// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Test-side unpackers (unpack.h): each layout as its documentation draws
 * it, byte by byte, not as the generator builds it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "unpack.h"

#define FCC(a, b, c, d) v4l2_fourcc(a, b, c, d)

/* Fourccs newer than the build host's videodev2.h, or a vendor's */
#define F_Y12P FCC('Y', '1', '2', 'P')
#define F_Y14P FCC('Y', '1', '4', 'P')
#define F_INVZ FCC('I', 'N', 'V', 'Z')
#define F_INVR FCC('I', 'N', 'V', 'R')
#define F_INRI FCC('I', 'N', 'R', 'I')
#define F_INVI FCC('I', 'N', 'V', 'I')
#define F_RELI FCC('R', 'E', 'L', 'I')
#define F_EBD8 FCC('E', 'B', 'D', '8')
#define F_SPD6 FCC('S', 'P', 'D', '6')

static const struct unpack_info infos[] = {
	/* Bayer, one byte or one little-endian 16-bit word a sample */
	{ V4L2_PIX_FMT_SBGGR8, UNPACK_BAYER, 8, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG8, UNPACK_BAYER, 8, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG8, UNPACK_BAYER, 8, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB8, UNPACK_BAYER, 8, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR10, UNPACK_BAYER, 10, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG10, UNPACK_BAYER, 10, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG10, UNPACK_BAYER, 10, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB10, UNPACK_BAYER, 10, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR12, UNPACK_BAYER, 12, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG12, UNPACK_BAYER, 12, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG12, UNPACK_BAYER, 12, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB12, UNPACK_BAYER, 12, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR14, UNPACK_BAYER, 14, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG14, UNPACK_BAYER, 14, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG14, UNPACK_BAYER, 14, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB14, UNPACK_BAYER, 14, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR16, UNPACK_BAYER, 16, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG16, UNPACK_BAYER, 16, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG16, UNPACK_BAYER, 16, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB16, UNPACK_BAYER, 16, "RGGB" },
	/* Bayer, MIPI CSI-2 packed (pixfmt-srggb10p, -12p, -14p) */
	{ V4L2_PIX_FMT_SBGGR10P, UNPACK_BAYER, 10, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG10P, UNPACK_BAYER, 10, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG10P, UNPACK_BAYER, 10, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB10P, UNPACK_BAYER, 10, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR12P, UNPACK_BAYER, 12, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG12P, UNPACK_BAYER, 12, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG12P, UNPACK_BAYER, 12, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB12P, UNPACK_BAYER, 12, "RGGB" },
	{ V4L2_PIX_FMT_SBGGR14P, UNPACK_BAYER, 14, "BGGR" },
	{ V4L2_PIX_FMT_SGBRG14P, UNPACK_BAYER, 14, "GBRG" },
	{ V4L2_PIX_FMT_SGRBG14P, UNPACK_BAYER, 14, "GRBG" },
	{ V4L2_PIX_FMT_SRGGB14P, UNPACK_BAYER, 14, "RGGB" },
	/* greyscale (pixfmt-yuv-luma, pixfmt-y10p, pixfmt-y10b) */
	{ V4L2_PIX_FMT_GREY, UNPACK_GREY, 8, "" },
	{ V4L2_PIX_FMT_Y4, UNPACK_GREY, 4, "" },
	{ V4L2_PIX_FMT_Y6, UNPACK_GREY, 6, "" },
	{ V4L2_PIX_FMT_Y10, UNPACK_GREY, 10, "" },
	{ V4L2_PIX_FMT_Y12, UNPACK_GREY, 12, "" },
	{ V4L2_PIX_FMT_Y14, UNPACK_GREY, 14, "" },
	{ V4L2_PIX_FMT_Y16, UNPACK_GREY, 16, "" },
	{ V4L2_PIX_FMT_Y16_BE, UNPACK_GREY, 16, "" },
	{ V4L2_PIX_FMT_Y10P, UNPACK_GREY, 10, "" },
	{ F_Y12P, UNPACK_GREY, 12, "" },
	{ F_Y14P, UNPACK_GREY, 14, "" },
	{ V4L2_PIX_FMT_Y10BPACK, UNPACK_GREY, 10, "" },
	/* depth, infrared, stereo, confidence */
	{ V4L2_PIX_FMT_Z16, UNPACK_DEPTH, 16, "" },
	{ F_INVZ, UNPACK_DEPTH, 16, "" },
	{ F_INVR, UNPACK_DEPTH, 16, "" },
	{ F_INRI, UNPACK_DEPTH_IR, 8, "" },
	{ V4L2_PIX_FMT_INZI, UNPACK_DEPTH_IR, 10, "" },
	{ F_INVI, UNPACK_GREY, 8, "" },
	{ F_RELI, UNPACK_GREY, 8, "" },
	{ V4L2_PIX_FMT_Y8I, UNPACK_STEREO, 8, "" },
	{ V4L2_PIX_FMT_Y12I, UNPACK_STEREO, 12, "" },
	{ V4L2_PIX_FMT_CNF4, UNPACK_CONFIDENCE, 4, "" },
	/* sensor side data: 8-bit lines, 16-bit little-endian samples */
	{ F_EBD8, UNPACK_GREY, 8, "" },
	{ F_SPD6, UNPACK_GREY, 16, "" },
};

const struct unpack_info *unpack_find(uint32_t fourcc)
{
	size_t i;

	for (i = 0; i < sizeof(infos) / sizeof(infos[0]); i++)
		if (infos[i].fourcc == fourcc)
			return &infos[i];
	return NULL;
}

const struct unpack_info *unpack_at(unsigned int i)
{
	return i < sizeof(infos) / sizeof(infos[0]) ? &infos[i] : NULL;
}

static uint32_t le16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

/*
 * MIPI CSI-2 packing, from the kernel's tables: 10-bit, 4 pixels in 5
 * bytes, byte 4 = P3[1:0] P2[1:0] P1[1:0] P0[1:0] (bits 7..0); 12-bit,
 * 2 pixels in 3 bytes, byte 2 = P1[3:0] P0[3:0]; 14-bit, 4 pixels in 7
 * bytes, byte 4 = P1[1:0] P0[5:0], byte 5 = P2[3:0] P1[5:2], byte 6 =
 * P3[5:0] P2[5:4].
 */
static uint32_t mipi(unsigned int bits, const uint8_t *line, uint32_t x)
{
	const uint8_t *g;

	switch (bits) {
	case 10:
		g = line + x / 4 * 5;
		return (uint32_t)g[x % 4] << 2 | ((g[4] >> (2 * (x % 4))) & 3);
	case 12:
		g = line + x / 2 * 3;
		return (uint32_t)g[x % 2] << 4 | (x % 2 ? g[2] >> 4 : g[2] & 15);
	default:
		g = line + x / 4 * 7;
		switch (x % 4) {
		case 0: return (uint32_t)g[0] << 6 | (g[4] & 0x3f);
		case 1: return (uint32_t)g[1] << 6 | g[4] >> 6 | (g[5] & 15) << 2;
		case 2: return (uint32_t)g[2] << 6 | g[5] >> 4 | (g[6] & 3) << 4;
		default: return (uint32_t)g[3] << 6 | g[6] >> 2;
		}
	}
}

/* Y10BPACK (pixfmt-y10b): 10-bit samples, one big-endian bit stream. */
static uint32_t bpack10(const uint8_t *line, uint32_t x)
{
	uint32_t bit = x * 10, v = (uint32_t)line[bit / 8] << 8 | line[bit / 8 + 1];

	return (v >> (6 - bit % 8)) & 0x3ff;
}

static bool is_mipi(uint32_t f)
{
	switch (f) {
	case V4L2_PIX_FMT_SBGGR10P: case V4L2_PIX_FMT_SGBRG10P:
	case V4L2_PIX_FMT_SGRBG10P: case V4L2_PIX_FMT_SRGGB10P:
	case V4L2_PIX_FMT_SBGGR12P: case V4L2_PIX_FMT_SGBRG12P:
	case V4L2_PIX_FMT_SGRBG12P: case V4L2_PIX_FMT_SRGGB12P:
	case V4L2_PIX_FMT_SBGGR14P: case V4L2_PIX_FMT_SGBRG14P:
	case V4L2_PIX_FMT_SGRBG14P: case V4L2_PIX_FMT_SRGGB14P:
	case V4L2_PIX_FMT_Y10P: case F_Y12P: case F_Y14P:
		return true;
	}
	return false;
}

/* One sample of a one-plane format that is neither MIPI nor special. */
static uint32_t plain(const struct unpack_info *u, const uint8_t *line, uint32_t x)
{
	switch (u->fourcc) {
	case V4L2_PIX_FMT_Y4: return line[x] >> 4;  /* Y'[3:0] in bits 7-4 */
	case V4L2_PIX_FMT_Y6: return line[x] >> 2;  /* Y'[5:0] in bits 7-2 */
	case V4L2_PIX_FMT_Y16_BE: return (uint32_t)line[2 * x] << 8 | line[2 * x + 1];
	case V4L2_PIX_FMT_Y10BPACK: return bpack10(line, x);
	}
	if (u->bits > 8 || u->kind == UNPACK_DEPTH)
		return le16(line + 2 * x);
	return line[x];
}

void unpack_pixel(const struct unpack_info *u, const uint8_t *buf, uint32_t bpl,
		  uint32_t w, uint32_t h, uint32_t x, uint32_t y, uint32_t s[2])
{
	const uint8_t *line = buf + (size_t)y * bpl, *p;

	(void)w;
	s[1] = 0;
	switch (u->fourcc) {
	case F_INRI: /* "Depth:IR 16:8": little-endian depth, then IR */
		p = line + 3 * (size_t)x;
		s[0] = le16(p);
		s[1] = p[2];
		return;
	case V4L2_PIX_FMT_INZI: /* a Y10 IR plane, then a Z16 plane, each h lines */
		s[1] = le16(buf + (size_t)y * (bpl / 2) + 2 * x);
		s[0] = le16(buf + (size_t)(bpl / 2) * h + (size_t)y * (bpl - bpl / 2) + 2 * x);
		return;
	case V4L2_PIX_FMT_Y8I: /* left in the low byte, right in the high one */
		s[0] = line[2 * x];
		s[1] = line[2 * x + 1];
		return;
	case V4L2_PIX_FMT_Y12I: /* left = 0xfff & le16(p), right = le16(p + 1) >> 4 */
		p = line + 3 * (size_t)x;
		s[0] = le16(p) & 0xfff;
		s[1] = le16(p + 1) >> 4;
		return;
	case V4L2_PIX_FMT_CNF4: /* pixel 2n in bits 0-3 of byte n, 2n+1 in bits 4-7 */
		s[0] = x % 2 ? line[x / 2] >> 4 : line[x / 2] & 15;
		return;
	}
	s[0] = is_mipi(u->fourcc) ? mipi(u->bits, line, x) : plain(u, line, x);
}

/* @v of @bits bits as 8 bits. */
static uint8_t to8(uint32_t v, unsigned int bits)
{
	return bits >= 8 ? (uint8_t)(v >> (bits - 8)) : (uint8_t)(v << (8 - bits));
}

int unpack_luma8(uint32_t fourcc, const uint8_t *buf, uint32_t bpl, uint32_t w,
		 uint32_t h, uint8_t *out)
{
	const struct unpack_info *u = unpack_find(fourcc);
	uint32_t x, y, s[2], v;

	if (!u)
		return -1;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			unpack_pixel(u, buf, bpl, w, h, x, y, s);
			switch (u->kind) {
			case UNPACK_DEPTH:
				v = 255 - (s[0] / 16 > 255 ? 255 : s[0] / 16);
				break;
			case UNPACK_DEPTH_IR:
				v = to8(s[1], u->bits);
				break;
			case UNPACK_CONFIDENCE:
				v = s[0] * 17;
				break;
			default:
				v = to8(s[0], u->bits);
				break;
			}
			out[(size_t)y * w + x] = (uint8_t)v;
		}
	}
	return 0;
}
