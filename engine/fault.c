// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Faults, decided frame by frame (see fault.h): the deterministic
 * generator, the order in which faults are weighed, and the damage to an
 * encoded payload. Nothing here knows a device or a clock: the caller
 * gives the frame number and the elapsed time. Two applications are
 * shared here too, so no surface carries its own: the timestamp jump
 * (never below 0) and the source change on the engine's format.
 */
#include "fault.h"

#define NC_CORRUPT_BYTES 64u

/* splitmix64's finaliser: a 64-bit word from any 64-bit counter. */
static __u64 nc_mix(__u64 x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The random word of fault @kind for frame @frame under @f's seed. */
static __u32 nc_roll(const struct negcam_faults *f, __u32 kind, __u32 frame)
{
	return (__u32)(nc_mix(nc_mix(((__u64)kind << 32) | f->seed) ^ frame) >> 32);
}

/* Whether fault @kind, at @tenths of a percent, hits frame @frame. */
static bool nc_hit(const struct negcam_faults *f, __u32 kind, __u32 frame, __u32 tenths)
{
	return (f->given & (1u << kind)) && tenths && nc_roll(f, kind, frame) % 1000 < tenths;
}

/* A one-shot fault of @kind due at @at: true the first time @elapsed_ns reaches it. */
static bool nc_once(const struct negcam_faults *f, struct negcam_fault_state *s, __u32 kind,
		    __u64 at, __u64 elapsed_ns)
{
	if (!(f->given & (1u << kind)) || (s->fired & (1u << kind)) || elapsed_ns < at)
		return false;
	s->fired |= 1u << kind;
	return true;
}

/* Stalls are the windows [k * every, k * every + length) for k >= 1. */
static bool nc_stalled(const struct negcam_faults *f, __u64 elapsed_ns, __u64 *until)
{
	__u64 k;

	if (!(f->given & (1u << NC_FAULT_STALL)) || !f->stall_every_ns)
		return false;
	k = nc_div64_u64(elapsed_ns, f->stall_every_ns);
	if (!k || elapsed_ns - k * f->stall_every_ns >= f->stall_ns)
		return false;
	*until = k * f->stall_every_ns + f->stall_ns;
	return true;
}

void negcam_fault_decide(const struct negcam_faults *f, struct negcam_fault_state *s,
			 __u32 frame, __u64 elapsed_ns, struct negcam_fault_frame *out)
{
	memset(out, 0, sizeof(*out));
	if (!f->given)
		return;
	if (nc_once(f, s, NC_FAULT_UNPLUG, f->unplug_ns, elapsed_ns)) {
		out->what = NC_DO_UNPLUG;
		return;
	}
	if (nc_once(f, s, NC_FAULT_SOURCE_CHANGE, f->source_change_ns, elapsed_ns)) {
		out->what = NC_DO_SOURCE_CHANGE;
		return;
	}
	if (nc_stalled(f, elapsed_ns, &out->stall_until_ns)) {
		out->what = NC_DO_STALL;
		return;
	}
	if ((f->given & (1u << NC_FAULT_TIMESTAMP_JUMP)) && f->jump_every_ns)
		out->ts_offset_ns = (__s64)nc_div64_u64(elapsed_ns, f->jump_every_ns) * f->jump_ns;
	if (nc_hit(f, NC_FAULT_DROP, frame, f->drop)) {
		out->what = NC_DO_SKIP;
		return;
	}
	if (nc_hit(f, NC_FAULT_ERROR, frame, f->error))
		out->what |= NC_DO_ERROR;
	if (nc_hit(f, NC_FAULT_CORRUPT, frame, f->corrupt))
		out->what |= NC_DO_CORRUPT;
	if (nc_hit(f, NC_FAULT_TRUNCATE, frame, f->truncate))
		out->what |= NC_DO_TRUNCATE;
	out->rnd = nc_roll(f, NC_NFAULTS, frame);
}

__u64 negcam_fault_interval_ns(const struct negcam_faults *f, __u64 interval_ns)
{
	__u64 slow;

	if (!(f->given & (1u << NC_FAULT_RATE)) || !f->rate.denominator)
		return interval_ns;
	slow = nc_div_u64(1000000000ull * f->rate.numerator, f->rate.denominator);
	return slow > interval_ns ? slow : interval_ns;
}

bool negcam_fault_encoded(__u32 fourcc)
{
	return fourcc == V4L2_PIX_FMT_MJPEG || fourcc == V4L2_PIX_FMT_JPEG ||
	       fourcc == V4L2_PIX_FMT_H264;
}

__u32 negcam_fault_damage(const struct negcam_fault_frame *d, __u32 fourcc, __u8 *data,
			  __u32 used)
{
	__u32 i;

	if (!negcam_fault_encoded(fourcc) || used < 4)
		return used;
	if (d->what & NC_DO_CORRUPT) {
		__u32 at = used / 4 + d->rnd % (used / 2 + 1);
		__u64 r = d->rnd;

		for (i = 0; i < NC_CORRUPT_BYTES && at + i < used; i++) {
			if (!(i % 8))
				r = nc_mix(r);
			data[at + i] = (__u8)(r >> (8 * (i % 8)));
		}
	}
	if (d->what & NC_DO_TRUNCATE)
		used = used / 4 + (d->rnd >> 8) % (used / 2 + 1);
	return used;
}

__u64 negcam_fault_timestamp(const struct negcam_fault_frame *d, __u64 ts_ns)
{
	if (d->ts_offset_ns < 0 && (__u64)-d->ts_offset_ns > ts_ns)
		return 0;
	return ts_ns + (__u64)d->ts_offset_ns;
}

int negcam_fault_source_change(struct negcam_engine *e, const struct negcam_faults *f)
{
	struct v4l2_format fmt;
	__u32 busy = e->busy;
	int ret;

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = negcam_engine_buf_type(e->profile, NC_CAPTURE);
	negcam_engine_g_fmt(e, &fmt);
	if (fmt.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		fmt.fmt.pix_mp.width = f->source_width;
		fmt.fmt.pix_mp.height = f->source_height;
	} else {
		fmt.fmt.pix.width = f->source_width;
		fmt.fmt.pix.height = f->source_height;
		fmt.fmt.pix.bytesperline = fmt.fmt.pix.sizeimage = 0;
	}
	e->busy = 0;
	ret = negcam_engine_s_fmt(e, &fmt);
	e->busy = busy;
	return ret;
}
