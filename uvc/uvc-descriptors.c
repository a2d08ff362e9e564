// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Descriptors of the virtual camera (see uvc-descriptors.h), laid out as
 * USB 2.0 chapter 9 and the UVC 1.1 specification (sections 3.7 and 3.9)
 * give them and as uvcvideo's uvc_driver.c parses them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "uvc-bytes.h"
#include "uvc-descriptors.h"

/* Class-specific descriptor types and subtypes (UVC 1.1 appendix A). */
#define CS_INTERFACE 0x24
#define VC_HEADER 0x01
#define VC_INPUT_TERMINAL 0x02
#define VC_OUTPUT_TERMINAL 0x03
#define VC_PROCESSING_UNIT 0x05
#define VS_INPUT_HEADER 0x01
#define VS_FORMAT_UNCOMPRESSED NC_UVC_FORMAT_UNCOMPRESSED
#define VS_FRAME_UNCOMPRESSED 0x05
#define VS_FORMAT_MJPEG NC_UVC_FORMAT_MJPEG
#define VS_FRAME_MJPEG 0x07
#define VS_COLORFORMAT 0x0d
#define VS_FORMAT_FRAME_BASED NC_UVC_FORMAT_FRAME_BASED
#define VS_FRAME_FRAME_BASED 0x11

/* A buffer being filled; overflow is sticky and checked once at the end. */
struct wr {
	uint8_t *buf;
	uint32_t len, cap;
	bool overflow;
};

static void put8(struct wr *w, unsigned int v)
{
	if (w->len >= w->cap) {
		w->overflow = true;
		return;
	}
	w->buf[w->len++] = (uint8_t)v;
}

static void put16(struct wr *w, unsigned int v)
{
	uint8_t b[2];

	nc_uvc_put_le16(b, v);
	put8(w, b[0]);
	put8(w, b[1]);
}

static void put32(struct wr *w, uint32_t v)
{
	put16(w, v & 0xffff);
	put16(w, v >> 16);
}

/* What UVC calls a fourcc the engine has: the descriptor and its GUID's first four bytes. */
struct carried {
	uint32_t fourcc;
	uint8_t subtype;
	char guid[5];
	uint8_t bpp;
};

static const struct carried carried[] = {
	{ V4L2_PIX_FMT_YUYV, VS_FORMAT_UNCOMPRESSED, "YUY2", 16 },
	{ V4L2_PIX_FMT_UYVY, VS_FORMAT_UNCOMPRESSED, "UYVY", 16 },
	{ V4L2_PIX_FMT_NV12, VS_FORMAT_UNCOMPRESSED, "NV12", 12 },
	{ V4L2_PIX_FMT_YUV420, VS_FORMAT_UNCOMPRESSED, "I420", 12 },
	{ V4L2_PIX_FMT_GREY, VS_FORMAT_UNCOMPRESSED, "Y800", 8 },
	{ V4L2_PIX_FMT_MJPEG, VS_FORMAT_MJPEG, "", 0 },
	{ V4L2_PIX_FMT_H264, VS_FORMAT_FRAME_BASED, "H264", 16 },
};

static const struct carried *carried_of(uint32_t fourcc)
{
	unsigned int i;

	for (i = 0; i < sizeof(carried) / sizeof(carried[0]); i++)
		if (carried[i].fourcc == fourcc)
			return &carried[i];
	return NULL;
}

uint8_t nc_uvc_format_guid(uint32_t fourcc, uint8_t guid[16])
{
	static const uint8_t guid_tail[12] = { 0x00, 0x00, 0x10, 0x00, 0x80, 0x00,
					       0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71 };
	const struct carried *c = carried_of(fourcc);

	memset(guid, 0, 16);
	if (!c || !c->guid[0])
		return 0;
	memcpy(guid, c->guid, 4);
	memcpy(guid + 4, guid_tail, sizeof(guid_tail));
	return c->bpp;
}

/* Isochronous wMaxPacketSize values, high speed: bits 11-12 add transactions. */
static const uint16_t alt_wmaxpacket[NC_UVC_NALTS] = {
	128, 256, 512, 800, 1 << 11 | 640, 1 << 11 | 1000, 2 << 11 | 800, 2 << 11 | 1024,
};

uint32_t nc_uvc_fract_to_100ns(struct v4l2_fract f)
{
	uint64_t v;

	if (!f.denominator)
		return 0xffffffffu;
	v = ((uint64_t)f.numerator * 10000000u + f.denominator / 2) / f.denominator;
	return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

static void warn(struct nc_uvc_desc *d, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(d->warnings);

	if (n + 1 < sizeof(d->warnings))
		snprintf(d->warnings + n, sizeof(d->warnings) - n, fmt, a, b);
}

void nc_uvc_profile_identity(const struct negcam_profile *p, struct nc_uvc_identity *id)
{
	memset(id, 0, sizeof(*id));
	id->vendor = p->usb_vendor ? p->usb_vendor : 0x1d6b;
	id->product = p->usb_vendor ? p->usb_product : 0x0104;
	id->bcd_device = 0x0100;
	snprintf(id->manufacturer, sizeof(id->manufacturer), "negcam");
	snprintf(id->name, sizeof(id->name), "%s", p->card[0] ? p->card : p->name[0] ? p->name : "negcam");
	snprintf(id->serial, sizeof(id->serial), "%s", p->name[0] ? p->name : "negcam");
}

/* The intervals of profile size @s as UVC lists them; false when none fits. */
static bool frame_intervals(const struct negcam_profile *p, const struct negcam_size *s,
			    struct nc_uvc_frame *fr)
{
	const struct negcam_interval *iv = &p->intervals[s->ival_first];
	unsigned int i, n = s->ival_count;

	if (!n)
		return false;
	if (s->ival_kind != V4L2_FRMIVAL_TYPE_DISCRETE) {
		fr->nintervals = 0;
		fr->interval[0] = nc_uvc_fract_to_100ns(iv->min);
		fr->interval[1] = nc_uvc_fract_to_100ns(iv->max);
		fr->interval[2] = s->ival_kind == V4L2_FRMIVAL_TYPE_STEPWISE ?
				  nc_uvc_fract_to_100ns(iv->step) : 1;
		if (!fr->interval[2])
			fr->interval[2] = 1;
		fr->def_interval = fr->interval[0];
		return true;
	}
	if (n > NC_UVC_MAX_INTERVALS)
		n = NC_UVC_MAX_INTERVALS;
	for (i = 0; i < n; i++)
		fr->interval[i] = nc_uvc_fract_to_100ns(iv[i].min);
	fr->nintervals = n;
	fr->def_interval = fr->interval[0];
	return true;
}

/* The default interval of a frame: the profile default's when the frame has it. */
static void frame_default_interval(const struct negcam_profile *p, struct nc_uvc_frame *fr)
{
	uint32_t want = nc_uvc_fract_to_100ns(p->def[NC_CAPTURE].interval);
	unsigned int i;

	if (!fr->nintervals) {
		if (want >= fr->interval[0] && want <= fr->interval[1])
			fr->def_interval = want;
		return;
	}
	for (i = 0; i < fr->nintervals; i++)
		if (fr->interval[i] == want)
			fr->def_interval = want;
}

/* Map profile format @pf to UVC frames; false (with a warning) when nothing is carried. */
static bool map_format(struct nc_uvc_desc *d, const struct negcam_profile *p, unsigned int pf,
		       struct nc_uvc_format *uf)
{
	const struct negcam_format *f = &p->formats[pf];
	char fcc[8];
	unsigned int i;

	snprintf(fcc, sizeof(fcc), "%.4s", (const char *)&f->fourcc);
	if (f->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
		warn(d, "format %s left out: UVC describes discrete frame sizes only%s\n", fcc, "");
		return false;
	}
	memset(uf, 0, sizeof(*uf));
	uf->fourcc = f->fourcc;
	uf->profile_format = pf;
	uf->subtype = carried_of(f->fourcc)->subtype;
	uf->def_frame = 1;
	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];
		struct nc_uvc_frame *fr = &uf->frames[uf->nframes];

		if (uf->nframes == NC_UVC_MAX_FRAMES || s->min_w > 0xffff || s->min_h > 0xffff ||
		    !frame_intervals(p, s, fr)) {
			warn(d, "format %s: a size left out (more than UVC frames allow, too large, or no interval)%s\n",
			     fcc, "");
			continue;
		}
		fr->width = s->min_w;
		fr->height = s->min_h;
		fr->size_index = f->size_first + i;
		frame_default_interval(p, fr);
		uf->nframes++;
		if (s->min_w == p->def[NC_CAPTURE].width && s->min_h == p->def[NC_CAPTURE].height)
			uf->def_frame = uf->nframes;
	}
	return uf->nframes > 0;
}

/* Choose the formats UVC carries, in profile order, capture queue only. */
static void map_formats(struct nc_uvc_desc *d, const struct negcam_profile *p)
{
	unsigned int i;
	char fcc[8];

	d->def_format = 1;
	for (i = 0; i < p->nformats; i++) {
		const struct negcam_format *f = &p->formats[i];

		if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
			continue;
		snprintf(fcc, sizeof(fcc), "%.4s", (const char *)&f->fourcc);
		if (!carried_of(f->fourcc)) {
			warn(d, "format %s left out: UVC (uvcvideo) cannot carry it%s\n", fcc, "");
			continue;
		}
		if (d->nformats == NC_UVC_MAX_FORMATS) {
			warn(d, "format %s left out: more than %s formats\n", fcc, "16");
			continue;
		}
		if (!map_format(d, p, i, &d->formats[d->nformats]))
			continue;
		d->nformats++;
		if (f->fourcc == p->def[NC_CAPTURE].fourcc)
			d->def_format = d->nformats;
	}
}

/* dwMaxVideoFrameBufferSize: the frame as uvcvideo lays it out (minimal stride). */
static uint32_t frame_bytes(uint32_t fourcc, uint32_t w, uint32_t h)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourcc);
	__u32 bpl = 0, size = 0;

	if (fi)
		negcam_fourcc_sizes(fi, w, h, 1, &bpl, &size);
	return size;
}

static void write_device(struct nc_uvc_desc *d)
{
	struct wr w = { d->device, 0, sizeof(d->device), false };

	put8(&w, 18); put8(&w, 1); put16(&w, 0x0200);
	put8(&w, 0xef); put8(&w, 0x02); put8(&w, 0x01); /* interface association */
	put8(&w, 64);
	put16(&w, d->id.vendor); put16(&w, d->id.product); put16(&w, d->id.bcd_device);
	put8(&w, 1); put8(&w, 2); put8(&w, 3); put8(&w, 1);
	w = (struct wr){ d->qualifier, 0, sizeof(d->qualifier), false };
	put8(&w, 10); put8(&w, 6); put16(&w, 0x0200);
	put8(&w, 0xef); put8(&w, 0x02); put8(&w, 0x01); put8(&w, 64); put8(&w, 1); put8(&w, 0);
}

static void write_interface(struct wr *w, unsigned int num, unsigned int alt, unsigned int neps,
			    unsigned int subclass, unsigned int istr)
{
	put8(w, 9); put8(w, 4); put8(w, num); put8(w, alt); put8(w, neps);
	put8(w, 0x0e); put8(w, subclass); put8(w, 0); put8(w, istr);
}

/* The VideoControl interface: header, camera terminal, processing unit, output terminal. */
static void write_control(struct wr *w)
{
	uint32_t hdr;

	write_interface(w, NC_UVC_IF_VC, 0, 0, 0x01, 0);
	hdr = w->len;
	put8(w, 13); put8(w, CS_INTERFACE); put8(w, VC_HEADER); put16(w, 0x0110);
	put16(w, 0); /* wTotalLength, set below */
	put32(w, NC_UVC_CLOCK_HZ); put8(w, 1); put8(w, NC_UVC_IF_VS);
	/* camera terminal: no camera controls */
	put8(w, 18); put8(w, CS_INTERFACE); put8(w, VC_INPUT_TERMINAL); put8(w, NC_UVC_ID_CAMERA);
	put16(w, 0x0201); put8(w, 0); put8(w, 0);
	put16(w, 0); put16(w, 0); put16(w, 0);
	put8(w, 3); put8(w, 0); put8(w, 0); put8(w, 0);
	/* processing unit (UVC 1.1: bLength 10 + bControlSize) */
	put8(w, 12); put8(w, CS_INTERFACE); put8(w, VC_PROCESSING_UNIT); put8(w, NC_UVC_ID_PU);
	put8(w, NC_UVC_ID_CAMERA); put16(w, 0); put8(w, 2);
	put16(w, 1u << NC_UVC_PU_BRIGHTNESS_BIT | 1u << NC_UVC_PU_CONTRAST_BIT |
		 1u << NC_UVC_PU_SATURATION_BIT | 1u << NC_UVC_PU_SHARPNESS_BIT);
	put8(w, 0); put8(w, 0);
	/* output terminal: USB streaming */
	put8(w, 9); put8(w, CS_INTERFACE); put8(w, VC_OUTPUT_TERMINAL); put8(w, NC_UVC_ID_OUTPUT);
	put16(w, 0x0101); put8(w, 0); put8(w, NC_UVC_ID_PU); put8(w, 0);
	if (!w->overflow)
		nc_uvc_put_le16(w->buf + hdr + 5, w->len - hdr);
}

void nc_uvc_frame_sizes(const struct nc_uvc_format *uf, unsigned int i, struct nc_uvc_frame_sizes *fs)
{
	const struct nc_uvc_frame *fr = &uf->frames[i];
	uint32_t shortest = fr->interval[0], k;
	uint64_t rate;

	for (k = 1; fr->nintervals && k < fr->nintervals; k++)
		if (fr->interval[k] < shortest)
			shortest = fr->interval[k];
	fs->bytes = frame_bytes(uf->fourcc, fr->width, fr->height);
	rate = (uint64_t)fs->bytes * 8 * 10000000u / (shortest ? shortest : 1);
	fs->min_bit_rate = fs->bytes * 8u;
	fs->max_bit_rate = rate > 0xffffffffu ? 0xffffffffu : (uint32_t)rate;
}

/* The firmware bug y8-as-yuyv (docs/uvc.md): a GREY format described as YUYV of half the width. */
static bool y8_as_yuyv(uint32_t bugs, const struct nc_uvc_format *uf)
{
	return (bugs & NC_UVC_BUG_Y8_AS_YUYV) && uf->fourcc == V4L2_PIX_FMT_GREY;
}

static void write_frame(struct wr *w, const struct nc_uvc_format *uf, unsigned int i,
			uint32_t bugs)
{
	const struct nc_uvc_frame *fr = &uf->frames[i];
	struct nc_uvc_frame_sizes fs;
	uint32_t n = fr->nintervals ? fr->nintervals : 3, k;
	bool fb = uf->subtype == VS_FORMAT_FRAME_BASED;

	nc_uvc_frame_sizes(uf, i, &fs);
	put8(w, 26 + 4 * n); put8(w, CS_INTERFACE);
	put8(w, fb ? VS_FRAME_FRAME_BASED : uf->subtype + 1);
	put8(w, i + 1); put8(w, 0);
	put16(w, y8_as_yuyv(bugs, uf) ? fr->width / 2 : fr->width); put16(w, fr->height);
	put32(w, fs.min_bit_rate); put32(w, fs.max_bit_rate);
	if (!fb)
		put32(w, fs.bytes);
	put32(w, fr->def_interval); put8(w, fr->nintervals);
	if (fb)
		put32(w, 0); /* dwBytesPerLine: 0 for compressed */
	for (k = 0; k < n; k++)
		put32(w, fr->interval[k]);
}

static void write_format(struct wr *w, const struct nc_uvc_format *uf, unsigned int index,
			 uint32_t bugs)
{
	uint8_t guid[16], bpp;
	unsigned int i;

	if (uf->subtype == VS_FORMAT_MJPEG) {
		put8(w, 11); put8(w, CS_INTERFACE); put8(w, VS_FORMAT_MJPEG);
		put8(w, index); put8(w, uf->nframes); put8(w, 1); /* fixed-size samples */
	} else {
		put8(w, uf->subtype == VS_FORMAT_FRAME_BASED ? 28 : 27);
		put8(w, CS_INTERFACE); put8(w, uf->subtype); put8(w, index); put8(w, uf->nframes);
		bpp = nc_uvc_format_guid(y8_as_yuyv(bugs, uf) ? V4L2_PIX_FMT_YUYV : uf->fourcc,
					 guid);
		if ((bugs & NC_UVC_BUG_WRONG_BPP) && bpp > 8)
			bpp -= 8; /* bBitsPerPixel 8 too low, as the GEO GC6500's */
		for (i = 0; i < sizeof(guid); i++)
			put8(w, guid[i]);
		put8(w, bpp);
	}
	put8(w, uf->def_frame); put8(w, 0); put8(w, 0); put8(w, 0); put8(w, 0);
	if (uf->subtype == VS_FORMAT_FRAME_BASED)
		put8(w, 1); /* bVariableSize */
	for (i = 0; i < uf->nframes; i++)
		write_frame(w, uf, i, bugs);
	/* colour matching: BT.709 primaries and transfer, BT.601 matrix (sRGB as uvcvideo reads it) */
	put8(w, 6); put8(w, CS_INTERFACE); put8(w, VS_COLORFORMAT); put8(w, 1); put8(w, 1); put8(w, 4);
}

/* The VideoStreaming interface: alt 0 with the formats, then the isochronous alts. */
static void write_streaming(struct nc_uvc_desc *d, struct wr *w)
{
	uint32_t hdr;
	unsigned int i;

	write_interface(w, NC_UVC_IF_VS, 0, 0, 0x02, 0);
	hdr = w->len;
	put8(w, 13 + d->nformats); put8(w, CS_INTERFACE); put8(w, VS_INPUT_HEADER);
	put8(w, d->nformats); put16(w, 0); put8(w, NC_UVC_EP_IN); put8(w, 0);
	put8(w, NC_UVC_ID_OUTPUT); put8(w, 0); put8(w, 0); put8(w, 0); put8(w, 1);
	for (i = 0; i < d->nformats; i++)
		put8(w, 0);
	for (i = 0; i < d->nformats; i++)
		write_format(w, &d->formats[i], i + 1, d->bugs);
	if (!w->overflow)
		nc_uvc_put_le16(w->buf + hdr + 4, w->len - hdr);
	for (i = 0; i < NC_UVC_NALTS; i++) {
		uint16_t mps = alt_wmaxpacket[i];

		write_interface(w, NC_UVC_IF_VS, i + 1, 1, 0x02, 0);
		put8(w, 7); put8(w, 5); put8(w, NC_UVC_EP_IN); put8(w, 0x05); put16(w, mps); put8(w, 1);
		d->alt_psize[i + 1] = (mps & 0x7ff) * (1 + ((mps >> 11) & 3));
	}
}

static void write_config(struct nc_uvc_desc *d, struct wr *w)
{
	put8(w, 9); put8(w, 2); put16(w, 0); put8(w, 2); put8(w, 1); put8(w, 0);
	put8(w, 0x80); put8(w, 250);
	/*
	 * interface association: video interface collection; no iFunction
	 * (nor VC iInterface): uvcvideo would append it to the card name
	 */
	put8(w, 8); put8(w, 11); put8(w, NC_UVC_IF_VC); put8(w, 2);
	put8(w, 0x0e); put8(w, 0x03); put8(w, 0); put8(w, 0);
	write_control(w);
	write_streaming(d, w);
	if (!w->overflow)
		nc_uvc_put_le16(w->buf + 2, w->len);
}

int nc_uvc_build_descriptors(struct nc_uvc_desc *d, const struct negcam_profile *p,
			     const struct nc_uvc_identity *id)
{
	struct wr w;

	memset(d, 0, sizeof(*d));
	d->id = *id;
	d->bugs = p->uvc_bugs;
	map_formats(d, p);
	if (!d->nformats) {
		return -EINVAL;
	}
	write_device(d);
	while (d->nformats) {
		w = (struct wr){ d->config, 0, sizeof(d->config), false };
		write_config(d, &w);
		if (!w.overflow)
			break;
		d->nformats--; /* too many frames for wTotalLength: drop the last format */
		warn(d, "a format left out: the configuration exceeds 65535 bytes%s%s\n", "", "");
	}
	d->config_len = w.len;
	if (d->def_format > d->nformats)
		d->def_format = 1;
	return d->nformats ? 0 : -EINVAL;
}

/* @s as a USB string descriptor (UTF-16LE of its ASCII bytes). */
static int string_of(const char *s, uint8_t *out)
{
	unsigned int n = 0;

	while (s[n] && n < 126) {
		out[2 + 2 * n] = (uint8_t)s[n] & 0x7f;
		out[3 + 2 * n] = 0;
		n++;
	}
	out[0] = 2 + 2 * n;
	out[1] = 3;
	return out[0];
}

const struct nc_uvc_format *nc_uvc_desc_format(const struct nc_uvc_desc *d, unsigned int index)
{
	return index >= 1 && index <= d->nformats ? &d->formats[index - 1] : NULL;
}

int nc_uvc_string_descriptor(const struct nc_uvc_desc *d, unsigned int index, uint8_t *out)
{
	switch (index) {
	case 0:
		out[0] = 4; out[1] = 3; out[2] = 0x09; out[3] = 0x04;
		return 4;
	case 1:
		return string_of(d->id.manufacturer, out);
	case 2:
		return string_of(d->id.name, out);
	case 3:
		return string_of(d->id.serial, out);
	}
	return -1;
}
