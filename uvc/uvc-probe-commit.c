// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PROBE and COMMIT (see uvc-probe-commit.h; UVC 1.1 section 4.3.1.1): the
 * 34-byte control to and
 * from its fields, and the firmware's negotiation. A format or frame
 * index the device does not have is refused (a stall with "out of
 * range"); an interval snaps to the nearest the frame lists, by the
 * engine's own rule (negcam_engine_s_parm on the frame's size), and 0
 * means the frame's default. dwMaxVideoFrameSize is the frame as
 * uvcvideo lays it out; dwMaxPayloadTransferSize the smallest isochronous
 * alternate setting that carries the frame at its rate (the largest when
 * none does).
 */
#include <string.h>

#include "engine.h"
#include "formats.h"
#include "uvc-bytes.h"
#include "uvc-device.h"

void nc_uvc_params_pack(const struct nc_uvc_params *s, uint8_t out[NC_UVC_PROBE_LEN])
{
	memset(out, 0, NC_UVC_PROBE_LEN);
	nc_uvc_put_le16(out, s->hint);
	out[2] = s->format;
	out[3] = s->frame;
	nc_uvc_put_le32(out + 4, s->interval);
	nc_uvc_put_le16(out + 8, s->key_frame_rate);
	nc_uvc_put_le16(out + 10, s->p_frame_rate);
	nc_uvc_put_le16(out + 12, s->comp_quality);
	nc_uvc_put_le16(out + 14, s->comp_window);
	nc_uvc_put_le16(out + 16, s->delay);
	nc_uvc_put_le32(out + 18, s->max_frame);
	nc_uvc_put_le32(out + 22, s->max_payload);
	nc_uvc_put_le32(out + 26, NC_UVC_CLOCK_HZ);
	out[30] = 0x03; /* bmFramingInfo: FID and EOF are used */
	/* bPreferedVersion, bMinVersion, bMaxVersion: 0 (not a payload with versions) */
}

void nc_uvc_params_unpack(const uint8_t in[NC_UVC_PROBE_LEN], struct nc_uvc_params *s)
{
	memset(s, 0, sizeof(*s));
	s->hint = nc_uvc_le16(in);
	s->format = in[2];
	s->frame = in[3];
	s->interval = nc_uvc_le32(in + 4);
	s->key_frame_rate = nc_uvc_le16(in + 8);
	s->p_frame_rate = nc_uvc_le16(in + 10);
	s->comp_quality = nc_uvc_le16(in + 12);
	s->comp_window = nc_uvc_le16(in + 14);
	s->delay = nc_uvc_le16(in + 16);
}

const struct nc_uvc_format *nc_uvc_params_format(const struct nc_uvc_dev *dev,
						 const struct nc_uvc_params *s)
{
	return nc_uvc_desc_format(&dev->desc, s->format);
}

const struct nc_uvc_frame *nc_uvc_params_frame(const struct nc_uvc_dev *dev,
					       const struct nc_uvc_params *s)
{
	return &nc_uvc_params_format(dev, s)->frames[s->frame - 1];
}

/* The interval the engine picks for @want on this frame's size, in 100 ns. */
static uint32_t engine_snap(const struct nc_uvc_dev *dev, const struct nc_uvc_format *uf,
			    const struct nc_uvc_frame *fr, uint32_t want)
{
	struct negcam_engine e;
	struct v4l2_format f;
	struct v4l2_streamparm sp;

	negcam_engine_init(&e, dev->profile);
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = uf->fourcc;
	f.fmt.pix.width = fr->width;
	f.fmt.pix.height = fr->height;
	if (negcam_engine_s_fmt(&e, &f) || f.fmt.pix.width != fr->width ||
	    f.fmt.pix.height != fr->height)
		return want;
	memset(&sp, 0, sizeof(sp));
	sp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp.parm.capture.timeperframe.numerator = want;
	sp.parm.capture.timeperframe.denominator = 10000000;
	if (negcam_engine_s_parm(&e, &sp))
		return want;
	return nc_uvc_fract_to_100ns(sp.parm.capture.timeperframe);
}

static uint32_t distance(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

/* @v as one of the frame's intervals: itself when listed, else the nearest. */
static uint32_t listed_interval(const struct nc_uvc_frame *fr, uint32_t v)
{
	uint32_t best;
	unsigned int i;

	if (!fr->nintervals) {
		if (v <= fr->interval[0])
			return fr->interval[0];
		if (v >= fr->interval[1])
			return fr->interval[1];
		return fr->interval[0] + (v - fr->interval[0]) / fr->interval[2] * fr->interval[2];
	}
	best = fr->interval[0];
	for (i = 1; i < fr->nintervals; i++)
		if (distance(fr->interval[i], v) < distance(best, v))
			best = fr->interval[i];
	return best;
}

/* Bytes a microframe must carry: the frame at its rate over 8000 microframes, plus a header. */
static uint32_t payload_for(const struct nc_uvc_dev *dev, uint32_t frame_bytes, uint32_t interval)
{
	uint64_t need = ((uint64_t)frame_bytes * 10000000u / (interval ? interval : 1) + 7999) / 8000 + 12;
	unsigned int a;

	for (a = 1; a <= NC_UVC_NALTS; a++)
		if (dev->desc.alt_psize[a] >= need)
			return dev->desc.alt_psize[a];
	return dev->desc.alt_psize[NC_UVC_NALTS];
}

/* The firmware bugs in the sizes PROBE answers (docs/uvc.md, "Firmware bugs"). */
static void apply_bugs(const struct nc_uvc_dev *dev, struct nc_uvc_params *s)
{
	if (dev->desc.bugs & NC_UVC_BUG_BANDWIDTH_OVER)
		s->max_payload = NC_UVC_BUG_PAYLOAD; /* above the largest alt's 3072 */
	if ((dev->desc.bugs & NC_UVC_BUG_MAX_FRAME_SMALL) && s->max_frame > NC_UVC_BUG_MAX_FRAME)
		s->max_frame = NC_UVC_BUG_MAX_FRAME;
}

int nc_uvc_params_negotiate(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool exact)
{
	const struct nc_uvc_format *uf;
	const struct nc_uvc_frame *fr;
	const struct negcam_fourcc_info *fi;
	uint32_t want, got;
	__u32 bpl = 0, size = 0;

	uf = nc_uvc_desc_format(&dev->desc, s->format);
	if (!uf)
		return NC_UVC_ERR_OUT_OF_RANGE;
	if (s->frame < 1 || s->frame > uf->nframes)
		return NC_UVC_ERR_OUT_OF_RANGE;
	fr = &uf->frames[s->frame - 1];
	want = s->interval && !(dev->desc.bugs & NC_UVC_BUG_RATE_IGNORED) ?
	       s->interval : fr->def_interval;
	got = listed_interval(fr, engine_snap(dev, uf, fr, want));
	if (exact && s->interval && got != s->interval &&
	    !(dev->desc.bugs & NC_UVC_BUG_RATE_IGNORED))
		return NC_UVC_ERR_INVALID_VALUE;
	s->interval = got;
	fi = negcam_fourcc_lookup(uf->fourcc);
	if (fi)
		negcam_fourcc_sizes(fi, fr->width, fr->height, 1, &bpl, &size);
	s->max_frame = size;
	s->max_payload = payload_for(dev, size, got);
	apply_bugs(dev, s);
	s->key_frame_rate = 0;
	s->p_frame_rate = 0;
	s->comp_window = 0;
	s->delay = 0;
	return 0;
}

void nc_uvc_params_default(const struct nc_uvc_dev *dev, struct nc_uvc_params *s)
{
	const struct nc_uvc_format *uf = nc_uvc_desc_format(&dev->desc, dev->desc.def_format);

	memset(s, 0, sizeof(*s));
	s->format = dev->desc.def_format;
	s->frame = uf->def_frame;
	s->interval = uf->frames[uf->def_frame - 1].def_interval;
	nc_uvc_params_negotiate(dev, s, false);
}

void nc_uvc_params_bound(const struct nc_uvc_dev *dev, struct nc_uvc_params *s, bool max)
{
	const struct nc_uvc_frame *fr;
	uint32_t v;
	unsigned int i;

	*s = dev->probe;
	fr = nc_uvc_params_frame(dev, s);
	if (!fr->nintervals) {
		v = fr->interval[max ? 1 : 0];
	} else {
		v = fr->interval[0];
		for (i = 1; i < fr->nintervals; i++)
			if (max ? fr->interval[i] > v : fr->interval[i] < v)
				v = fr->interval[i];
	}
	s->interval = v;
	nc_uvc_params_negotiate(dev, s, false);
}
