// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The isochronous stream of the virtual camera: frames from the engine's
 * generator (engine/framegen.h, with the frame-number stamp of
 * docs/frames.md) cut into UVC payloads, one per microframe.
 *
 * A caller may give frames of its own instead (dev->frame_fn: the
 * GStreamer sink negcamuvcsink); they are paced and cut the same way.
 *
 * Timing is bus time: frame n starts at the first microframe at or after
 * start + n * interval (the committed dwFrameInterval) and is sent at the
 * full rate of the alternate setting the host chose, each packet with a
 * 6-byte payload header (UVC 1.1 section 2.4.3.3: bHeaderLength, bmHeaderInfo
 * with FID toggled per frame, EOF on a frame's last packet, PTS; EOH). SCR
 * is left out: it carries the bus's SOF number, and vhci-hcd has no frame
 * number to compare it with. Between frames the packets are empty, as a
 * camera's are when it has nothing to send. A frame that ends after the
 * next one was due delays that one (the numbers stay consecutive).
 *
 * The profile's firmware bugs (uvc-bugs no-fid, mjpeg-no-eof) change the
 * headers, and its faults (docs/faults.md) apply here as the engine
 * decides them (engine/fault.c) at each frame's start: drop (only the
 * frame's first payload is sent, with ERR and EOF: a frame lost on the
 * bus, which uvcvideo discards and counts), error (the header's ERR bit
 * on every payload of the frame), corrupt and truncate
 * (the payload damaged), stall and rate (the frame's start delayed),
 * timestamp-jump (the PTS), unplug (nc_uvc_stream_unplugged: the session
 * detaches the device). A UVC camera has no source change: ignored.
 * A control file's faults (negcam-uvc --faults FILE, uvc-fault-watch.h)
 * replace the profile's through nc_uvc_stream_set_faults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "framegen.h"
#include "uvc-bytes.h"
#include "uvc-device.h"

#define HDR_LEN 6
#define BFH_FID 0x01
#define BFH_EOF 0x02
#define BFH_PTS 0x04
#define BFH_ERR 0x40
#define BFH_EOH 0x80

/* The stream's format from the committed parameters (PROBE's if none). */
static int stream_format(struct nc_uvc_dev *dev, const struct nc_uvc_params *c)
{
	struct nc_uvc_stream *st = &dev->stream;
	const struct nc_uvc_format *uf = nc_uvc_params_format(dev, c);
	const struct nc_uvc_frame *fr = nc_uvc_params_frame(dev, c);
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(uf->fourcc);
	__u32 bpl = 0, size = 0, cs, enc, q, xfer;

	if (!fi)
		return -EINVAL;
	negcam_fourcc_sizes(fi, fr->width, fr->height, 1, &bpl, &size);
	memset(&st->fmt, 0, sizeof(st->fmt));
	st->fmt.width = fr->width;
	st->fmt.height = fr->height;
	st->fmt.pixelformat = uf->fourcc;
	st->fmt.field = V4L2_FIELD_NONE;
	st->fmt.bytesperline = bpl;
	st->fmt.sizeimage = size;
	negcam_fourcc_colorimetry(fi, &cs, &enc, &q, &xfer);
	st->fmt.colorspace = cs;
	st->fmt.ycbcr_enc = enc;
	st->fmt.quantization = q;
	st->fmt.xfer_func = xfer;
	return 0;
}

int nc_uvc_stream_start(struct nc_uvc_dev *dev, uint64_t now_ns)
{
	struct nc_uvc_stream *st = &dev->stream;
	const struct nc_uvc_params *c = dev->committed ? &dev->commit : &dev->probe;
	uint8_t *buf;

	if (stream_format(dev, c))
		return -EINVAL;
	if (st->frame_cap < st->fmt.sizeimage) {
		buf = realloc(st->frame, st->fmt.sizeimage);
		if (!buf)
			return -ENOMEM;
		st->frame = buf;
		st->frame_cap = st->fmt.sizeimage;
	}
	st->psize = dev->desc.alt_psize[dev->vs_alt];
	st->interval_ns = (uint64_t)(c->interval ? c->interval : 333333) * 100;
	st->next_ns = now_ns;
	st->active = false;
	st->frame_no = 0;
	st->prev = NC_FRAME_NONE;
	st->frames = 0;
	st->start_ns = now_ns;
	memset(&st->fstate, 0, sizeof(st->fstate));
	st->faults_new = false; /* a start counts the faults' time from here already */
	st->err = 0;
	st->lost = false;
	st->on = true;
	return 0;
}

void nc_uvc_stream_stop(struct nc_uvc_dev *dev)
{
	dev->stream.on = false;
	dev->stream.active = false;
}

const struct v4l2_pix_format *nc_uvc_stream_format(const struct nc_uvc_dev *dev)
{
	return &dev->stream.fmt;
}

uint64_t nc_uvc_stream_interval_ns(const struct nc_uvc_dev *dev)
{
	return dev->stream.interval_ns;
}

void nc_uvc_stream_next_frame(struct nc_uvc_dev *dev)
{
	dev->stream.frame_no++;
}

long nc_uvc_stream_draw(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *buf, uint32_t cap)
{
	struct nc_uvc_stream *st = &dev->stream;
	long n = dev->frame_fn ?
		 dev->frame_fn(dev->frame_ctx, &st->fmt, st->frame_no, buf, cap) :
		 negcam_framegen_draw_at(&st->fmt, NC_PATTERN_BARS, st->frame_no, t_ns,
					 st->prev, st->prev_scene, buf, cap);

	if (n <= 0) {
		st->prev = NC_FRAME_NONE;
		return 0;
	}
	st->prev = st->frame_no;
	st->prev_scene = t_ns;
	return n;
}

/* Draw the next frame into the stream's buffer, damaged as @d says; false when there is none. */
static bool draw_frame(struct nc_uvc_dev *dev, uint64_t t_ns, const struct negcam_fault_frame *d)
{
	struct nc_uvc_stream *st = &dev->stream;
	long n = nc_uvc_stream_draw(dev, t_ns, st->frame, st->frame_cap);

	if (n <= 0)
		return false;
	st->frame_len = negcam_fault_damage(d, st->fmt.pixelformat, st->frame, (uint32_t)n);
	st->off = 0;
	st->pts_ns = t_ns + (uint64_t)d->ts_offset_ns;
	st->err = d->what & NC_DO_ERROR ? BFH_ERR : 0;
	return true;
}

void nc_uvc_stream_set_faults(struct nc_uvc_dev *dev, const struct negcam_faults *f)
{
	struct nc_uvc_stream *st = &dev->stream;

	st->faults_set = f != NULL;
	if (f)
		st->faults = *f;
	st->faults_new = true;
}

/* The faults in force: the control file's when set, else the profile's. */
static const struct negcam_faults *stream_faults(const struct nc_uvc_dev *dev)
{
	return dev->stream.faults_set ? &dev->stream.faults : &dev->profile->faults;
}

/* The FID bit after a frame: toggled, unless the firmware bug no-fid keeps it. */
static void next_fid(struct nc_uvc_dev *dev)
{
	if (!(dev->desc.bugs & NC_UVC_BUG_NO_FID))
		dev->stream.fid ^= BFH_FID;
}

/*
 * The frame due at @t_ns, as the profile's faults decide: true when it
 * starts now (a dropped one too: its first payload only, see
 * st->lost); false at the unplug, when it is delayed (a stall: the start
 * moves to the stall's end) or when the frame source has none.
 */
static bool start_frame(struct nc_uvc_dev *dev, uint64_t t_ns)
{
	struct nc_uvc_stream *st = &dev->stream;
	const struct negcam_faults *f = stream_faults(dev);
	struct negcam_fault_frame d;

	if (st->faults_new) { /* new faults: their time and state start with this frame */
		st->faults_new = false;
		st->start_ns = t_ns;
		memset(&st->fstate, 0, sizeof(st->fstate));
	}
	negcam_fault_decide(f, &st->fstate, st->frame_no, t_ns - st->start_ns, &d);
	if (d.what & NC_DO_UNPLUG) {
		st->unplug = true;
		st->on = false;
		return false;
	}
	if (d.what & NC_DO_STALL) {
		st->next_ns = st->start_ns + d.stall_until_ns;
		return false;
	}
	st->next_ns += negcam_fault_interval_ns(f, st->interval_ns);
	if (st->next_ns < t_ns) /* behind by more than a frame: start again from now */
		st->next_ns = t_ns + negcam_fault_interval_ns(f, st->interval_ns);
	if (d.what & NC_DO_SKIP) /* lost: only its first payload goes, cut, with ERR and EOF */
		d.what |= NC_DO_ERROR;
	if (!draw_frame(dev, t_ns, &d))
		return false;
	st->lost = d.what & NC_DO_SKIP;
	return true;
}

bool nc_uvc_stream_unplugged(const struct nc_uvc_dev *dev)
{
	return dev->stream.unplug;
}

uint32_t nc_uvc_stream_packet(struct nc_uvc_dev *dev, uint64_t t_ns, uint8_t *out, uint32_t cap)
{
	struct nc_uvc_stream *st = &dev->stream;
	uint32_t chunk, pts;

	if (cap > st->psize)
		cap = st->psize;
	if (!st->on || cap <= HDR_LEN)
		return 0;
	if (!st->active) {
		if (t_ns < st->next_ns || !start_frame(dev, t_ns))
			return 0;
		st->active = true;
	}
	chunk = st->frame_len - st->off;
	if (chunk > cap - HDR_LEN)
		chunk = cap - HDR_LEN;
	pts = (uint32_t)(st->pts_ns * (NC_UVC_CLOCK_HZ / 1000000u) / 1000u);
	out[0] = HDR_LEN;
	out[1] = BFH_EOH | BFH_PTS | st->fid | st->err;
	nc_uvc_put_le32(out + 2, pts);
	memcpy(out + HDR_LEN, st->frame + st->off, chunk);
	st->off += chunk;
	if (st->lost) { /* a lost frame: the rest of it never comes */
		st->off = st->frame_len;
		st->lost = false;
		st->frame_no++;
		st->active = false;
		out[1] |= BFH_EOF;
		next_fid(dev);
		return HDR_LEN + chunk;
	}
	if (st->off == st->frame_len) {
		if (!(dev->desc.bugs & NC_UVC_BUG_MJPEG_NO_EOF) ||
		    (st->fmt.pixelformat != V4L2_PIX_FMT_MJPEG &&
		     st->fmt.pixelformat != V4L2_PIX_FMT_JPEG))
			out[1] |= BFH_EOF;
		next_fid(dev);
		st->active = false;
		st->frame_no++;
		st->frames++;
		dev->counts.frames++;
	}
	return HDR_LEN + chunk;
}
