// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: the ioctl entry point over every built-in profile.
 *
 * The input is a program: byte 0 picks the profile, then each operation
 * is an opcode byte and its operands. Operands are mostly structured
 * (an enumerated fourcc, a 16-bit size, a field) so the engine's logic
 * is reached, with raw escapes (any fourcc, any 32-bit size, any request
 * code with a raw struct) so no input is out of reach. After each
 * operation the harness checks the engine's promises:
 *   - answers are 0 or a negative errno, unknown requests -ENOTTY;
 *   - TRY_FMT, G_*, ENUM_* and QUERYCAP never change the state;
 *   - TRY_FMT answers complete, supported formats and is idempotent;
 *     today's rules never fail it on a queue with formats, the 2007
 *     quirk only for an unknown fourcc or a field the format lacks;
 *   - S_FMT answers exactly what TRY_FMT answered when not busy, is
 *     EBUSY (state unchanged) when busy, and G_FMT then returns it;
 *   - a failed S_FMT/S_PARM changes nothing; G_PARM returns what S_PARM
 *     answered; set_profile is EBUSY while busy, else resets.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_PROFILES 32
#define MAX_OPS 64

static struct negcam_profile profiles[MAX_PROFILES];
static unsigned int nprofiles;

static const unsigned long handled[] = {
	VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT, VIDIOC_G_FMT, VIDIOC_TRY_FMT, VIDIOC_S_FMT,
	VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS, VIDIOC_G_PARM, VIDIOC_S_PARM,
};

/* Requests that are near misses of handled ones: same number, other size or direction. */
static const unsigned long near_misses[] = {
	_IO('V', 2), _IOR('V', 4, struct v4l2_format), _IOW('V', 5, struct v4l2_format),
	_IOWR('V', 64, __u32), VIDIOC_REQBUFS, VIDIOC_STREAMON, VIDIOC_G_CTRL, 0, ~0ul,
};

/*
 * Beyond the built-in profiles, the quirks and queues they do not use:
 * no TRY_FMT, nearest adjustment with an output queue, interval
 * ranges under discrete sizes and fields that put one field in a buffer.
 */
static const char *const extra_profiles[] = {
	"name no-try\nquirks no-try-fmt\nformat GREY\n  size 640x480 fps 30 15\n"
	"  size 320x240 fps 60 30\nformat NV12\n  size 32x32-1280x720 step 16x8 fps 30\n",
	"name nearest-out\nadjust nearest\nstride-align 64\nformat YUYV\n"
	"  size 640x480 interval 1/30-1/1 step 1/30\n  size 1280x720 fps 1-30\n"
	"  size 176x144 fps 30000/1001 15/2\nformat RGB3 output\n  size 640x480 fps 30\n"
	"  size 1920x1080 fps 30 25\nformat YU12 output\n  size 64x64-1920x1080 step 2x2 fps 60\n",
	/* one field a buffer: heights in field lines, sizes in frames */
	"name fields\nfield alternate interlaced top bottom\nformat UYVY\n  size 720x576 fps 25\n"
	"  size 720x480 fps 30000/1001\nformat NV12\n  size 64x64-1920x1080 step 16x8 fps 1-60\n"
	"format YU12\n  field top none\n  size 720x576 fps 50 25\n  size 352x288 fps 25\n",
};

static void add_profile(const char *name, const char *text)
{
	struct negcam_parse_error err;

	if (nprofiles == MAX_PROFILES)
		return;
	if (negcam_profile_parse(&profiles[nprofiles], text, (__u32)strlen(text), &err)) {
		fprintf(stderr, "profile %s does not parse: %u:%u: %s\n", name, err.line,
			err.column, err.message);
		abort();
	}
	nprofiles++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct negcam_builtin *b;
	unsigned int i;

	for (i = 0; (b = negcam_builtin_at(i)); i++)
		add_profile(b->name, b->text);
	if (!nprofiles) {
		fprintf(stderr, "no built-in profiles\n");
		abort();
	}
	for (i = 0; i < NC_ARRAY_SIZE(extra_profiles); i++)
		add_profile("extra", extra_profiles[i]);
	return 0;
}

struct snapshot {
	const struct negcam_profile *profile;
	struct v4l2_pix_format fmt[NC_NQUEUES];
	struct v4l2_fract interval[NC_NQUEUES];
	__u32 busy;
};

static void snap(const struct negcam_engine *e, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->profile = e->profile;
	memcpy(s->fmt, e->fmt, sizeof(s->fmt));
	memcpy(s->interval, e->interval, sizeof(s->interval));
	s->busy = e->busy;
}

static int unchanged(const struct negcam_engine *e, const struct snapshot *s)
{
	struct snapshot now;

	snap(e, &now);
	return !memcmp(&now, s, sizeof(now));
}

static void check_interval(struct negcam_engine *e, __u32 type);

static __u32 pick_type(struct fuzz_reader *r)
{
	uint8_t b = fz_u8(r);

	switch (b & 7) {
	case 5:
		return V4L2_BUF_TYPE_VIDEO_OUTPUT;
	case 6:
		return b >> 3; /* overlay, VBI, mplane, ... */
	case 7:
		return fz_u32(r);
	}
	return V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

static __u32 pick_fourcc(struct fuzz_reader *r, const struct negcam_profile *p)
{
	uint8_t b = fz_u8(r);

	if (b < 0xe0 && p->nformats)
		return p->formats[b % p->nformats].fourcc;
	if (b < 0xf0) {
		const struct negcam_fourcc_info *fi = negcam_fourcc_at(b & 0xf);

		return fi ? fi->fourcc : 0;
	}
	return fz_u32(r);
}

static __u32 pick_dim(struct fuzz_reader *r)
{
	uint8_t b = fz_u8(r);

	if (b < 0xf0)
		return (__u32)fz_u16(r) >> (b & 3); /* mostly below 16384 */
	return fz_u32(r);
}

/* A discrete size from the profile for @fourcc, or a fuzzed one. */
static void pick_size(struct fuzz_reader *r, const struct negcam_profile *p, __u32 fourcc,
		      __u32 *w, __u32 *h)
{
	uint8_t b = fz_u8(r);
	unsigned int i;

	if (b < 0x80) {
		for (i = 0; i < p->nformats; i++) {
			const struct negcam_format *f = &p->formats[i];

			if (f->fourcc == fourcc && f->size_count) {
				const struct negcam_size *s =
					&p->sizes[f->size_first + b % f->size_count];

				*w = s->min_w + (b & 1) * (s->max_w - s->min_w);
				*h = s->min_h + (b & 1) * (s->max_h - s->min_h);
				return;
			}
		}
	}
	*w = pick_dim(r);
	*h = pick_dim(r);
}

static void build_format(struct fuzz_reader *r, const struct negcam_profile *p,
			 struct v4l2_format *f)
{
	uint8_t extras;

	memset(f, 0, sizeof(*f));
	f->type = pick_type(r);
	f->fmt.pix.pixelformat = pick_fourcc(r, p);
	pick_size(r, p, f->fmt.pix.pixelformat, &f->fmt.pix.width, &f->fmt.pix.height);
	f->fmt.pix.field = fz_u8(r) % 12; /* ANY..INTERLACED_BT and two invalid */
	extras = fz_u8(r);
	if (extras & 1)
		f->fmt.pix.bytesperline = fz_u32(r);
	if (extras & 2)
		f->fmt.pix.sizeimage = fz_u32(r);
	if (extras & 4) {
		f->fmt.pix.colorspace = fz_u8(r);
		f->fmt.pix.ycbcr_enc = fz_u8(r);
		f->fmt.pix.quantization = fz_u8(r);
		f->fmt.pix.xfer_func = fz_u8(r);
		f->fmt.pix.flags = fz_u8(r) & 3;
	}
	if (extras & 8)
		f->fmt.pix.priv = fz_u32(r);
	if (extras & 16)
		fz_bytes(r, f->fmt.raw_data + sizeof(f->fmt.pix), 16);
}

static int ret_ok(int ret)
{
	return ret == 0 || ret == -EINVAL || ret == -ENOTTY || ret == -EBUSY;
}

static void op_try(struct negcam_engine *e, struct fuzz_reader *r)
{
	const struct negcam_profile *p = e->profile;
	struct v4l2_format f, asked, again;
	struct snapshot s;
	int q, ret;
	char f4[5];

	build_format(r, p, &f);
	asked = f;
	q = negcam_queue_of(f.type);
	snap(e, &s);
	ret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &f);
	FUZZ_ASSERT(unchanged(e, &s), "TRY_FMT changed the state");
	FUZZ_ASSERT(ret != -EBUSY, "TRY_FMT returned EBUSY");
	FUZZ_ASSERT(ret_ok(ret), "TRY_FMT returned %d", ret);
	if (p->quirks & NC_QUIRK_NO_TRY_FMT) {
		/* As in the kernel without a try_fmt op: ENOTTY for every type. */
		FUZZ_ASSERT(ret == -ENOTTY, "TRY_FMT under the no-TRY quirk returned %d", ret);
		return;
	}
	if (q < 0 || !p->def[q].fourcc) {
		FUZZ_ASSERT(ret == -EINVAL, "TRY_FMT on type %u without formats: %d", f.type, ret);
		return;
	}
	if (ret) {
		const struct negcam_format *pf =
			fz_profile_format(p, asked.type, asked.fmt.pix.pixelformat);
		int field_ok = asked.fmt.pix.field == V4L2_FIELD_ANY;
		unsigned int i;

		FUZZ_ASSERT(p->quirks & NC_QUIRK_LEGACY_EINVAL,
			    "TRY_FMT failed (%d) on %s %ux%u field %u without the 2007 quirk", ret,
			    negcam_fourcc_str(asked.fmt.pix.pixelformat, f4), asked.fmt.pix.width,
			    asked.fmt.pix.height, asked.fmt.pix.field);
		for (i = 0; pf && i < pf->nfields; i++)
			field_ok |= pf->fields[i] == asked.fmt.pix.field;
		FUZZ_ASSERT(ret == -EINVAL && (!pf || !field_ok),
			    "2007 quirk: TRY_FMT failed (%d) on an offered fourcc %s and field %u",
			    ret, negcam_fourcc_str(asked.fmt.pix.pixelformat, f4),
			    asked.fmt.pix.field);
		return;
	}
	fz_check_pix(p, f.type, &f.fmt.pix, "TRY_FMT");
	FUZZ_ASSERT(!fz_fourcc_unambiguous(p, f.fmt.pix.pixelformat) ||
		    fz_size_offered(e, f.fmt.pix.pixelformat, f.fmt.pix.width,
				    fz_frame_height(&f.fmt.pix)) != 0,
		    "TRY_FMT answered %s %ux%u, a size ENUM_FRAMESIZES does not offer",
		    negcam_fourcc_str(f.fmt.pix.pixelformat, f4), f.fmt.pix.width,
		    f.fmt.pix.height);
	if (asked.fmt.pix.pixelformat == f.fmt.pix.pixelformat && asked.fmt.pix.field &&
	    fz_profile_format(p, f.type, f.fmt.pix.pixelformat)) {
		const struct negcam_format *pf = fz_profile_format(p, f.type, f.fmt.pix.pixelformat);
		unsigned int i;

		for (i = 0; i < pf->nfields; i++)
			if (pf->fields[i] == asked.fmt.pix.field)
				FUZZ_ASSERT(f.fmt.pix.field == asked.fmt.pix.field,
					    "TRY_FMT replaced offered field %u by %u",
					    asked.fmt.pix.field, f.fmt.pix.field);
	}
	/* An answer asked again is answered unchanged. */
	again = f;
	ret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &again);
	FUZZ_ASSERT(ret == 0 && !memcmp(&again.fmt.pix, &f.fmt.pix, sizeof(f.fmt.pix)),
		    "TRY_FMT not idempotent on %s %ux%u: %d, %ux%u bpl %u/%u size %u/%u",
		    negcam_fourcc_str(f.fmt.pix.pixelformat, f4), f.fmt.pix.width,
		    f.fmt.pix.height, ret, again.fmt.pix.width, again.fmt.pix.height,
		    f.fmt.pix.bytesperline, again.fmt.pix.bytesperline, f.fmt.pix.sizeimage,
		    again.fmt.pix.sizeimage);
}

static void op_s(struct negcam_engine *e, struct fuzz_reader *r)
{
	const struct negcam_profile *p = e->profile;
	struct v4l2_format f, t, g;
	struct snapshot s;
	int q, ret, tret;
	bool busy;

	build_format(r, p, &f);
	q = negcam_queue_of(f.type);
	busy = q >= 0 && (e->busy & (1u << q));
	t = f;
	tret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &t);
	snap(e, &s);
	ret = negcam_engine_ioctl(e, VIDIOC_S_FMT, &f);
	FUZZ_ASSERT(ret_ok(ret), "S_FMT returned %d", ret);
	if (ret) {
		FUZZ_ASSERT(unchanged(e, &s), "failed S_FMT (%d) changed the state", ret);
	}
	if (tret != -ENOTTY) {
		if (busy) {
			FUZZ_ASSERT(ret != 0, "S_FMT succeeded on a busy queue");
			FUZZ_ASSERT(tret != 0 || ret == -EBUSY,
				    "busy S_FMT of a valid format returned %d, not EBUSY", ret);
			FUZZ_ASSERT(tret == 0 || ret == tret,
				    "busy S_FMT returned %d where TRY_FMT returned %d", ret, tret);
		} else {
			FUZZ_ASSERT(ret == tret, "S_FMT returned %d, TRY_FMT %d", ret, tret);
			FUZZ_ASSERT(!memcmp(&f, &t, sizeof(f)),
				    "S_FMT answered other than TRY_FMT (%ux%u vs %ux%u, field %u vs "
				    "%u, bpl %u vs %u)", f.fmt.pix.width, f.fmt.pix.height,
				    t.fmt.pix.width, t.fmt.pix.height, f.fmt.pix.field,
				    t.fmt.pix.field, f.fmt.pix.bytesperline, t.fmt.pix.bytesperline);
		}
	}
	if (ret)
		return;
	FUZZ_ASSERT(!busy, "S_FMT succeeded while busy");
	fz_check_pix(p, f.type, &f.fmt.pix, "S_FMT");
	memset(&g, 0, sizeof(g));
	g.type = f.type;
	ret = negcam_engine_ioctl(e, VIDIOC_G_FMT, &g);
	FUZZ_ASSERT(ret == 0 && !memcmp(&g.fmt.pix, &f.fmt.pix, sizeof(g.fmt.pix)),
		    "G_FMT after S_FMT: %d, %ux%u vs %ux%u", ret, g.fmt.pix.width,
		    g.fmt.pix.height, f.fmt.pix.width, f.fmt.pix.height);
	check_interval(e, f.type);
}

static void op_parm(struct negcam_engine *e, struct fuzz_reader *r, bool set)
{
	struct v4l2_streamparm sp, g;
	struct snapshot s;
	int ret;

	memset(&sp, 0, sizeof(sp));
	sp.type = pick_type(r);
	if (set) {
		uint8_t b = fz_u8(r);

		sp.parm.capture.timeperframe.numerator = b & 1 ? fz_u32(r) : fz_u16(r);
		sp.parm.capture.timeperframe.denominator = b & 2 ? fz_u32(r) : fz_u16(r);
		sp.parm.capture.capturemode = b & 4 ? fz_u32(r) : 0;
		sp.parm.capture.readbuffers = b & 8 ? fz_u32(r) : 0;
	}
	snap(e, &s);
	ret = negcam_engine_ioctl(e, set ? VIDIOC_S_PARM : VIDIOC_G_PARM, &sp);
	FUZZ_ASSERT(ret_ok(ret), "%s returned %d", set ? "S_PARM" : "G_PARM", ret);
	if (!set || ret) {
		FUZZ_ASSERT(unchanged(e, &s), "%s changed the state", set ? "failed S_PARM" : "G_PARM");
		return;
	}
	FUZZ_ASSERT(unchanged(e, &s) || negcam_queue_of(sp.type) >= 0,
		    "S_PARM on type %u changed the state", sp.type);
	if (sp.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)
		FUZZ_ASSERT(sp.parm.capture.timeperframe.numerator &&
				    sp.parm.capture.timeperframe.denominator,
			    "S_PARM answered interval %u/%u", sp.parm.capture.timeperframe.numerator,
			    sp.parm.capture.timeperframe.denominator);
	memset(&g, 0, sizeof(g));
	g.type = sp.type;
	ret = negcam_engine_ioctl(e, VIDIOC_G_PARM, &g);
	FUZZ_ASSERT(ret == 0 && !memcmp(&g.parm.capture.timeperframe,
					&sp.parm.capture.timeperframe,
					sizeof(struct v4l2_fract)),
		    "G_PARM after S_PARM: %d, %u/%u vs %u/%u", ret,
		    g.parm.capture.timeperframe.numerator, g.parm.capture.timeperframe.denominator,
		    sp.parm.capture.timeperframe.numerator,
		    sp.parm.capture.timeperframe.denominator);
	check_interval(e, sp.type);
}

static void op_enum(struct negcam_engine *e, struct fuzz_reader *r, uint8_t op)
{
	const struct negcam_profile *p = e->profile;
	union {
		struct v4l2_fmtdesc fd;
		struct v4l2_frmsizeenum fs;
		struct v4l2_frmivalenum fi;
		struct v4l2_capability cap;
		struct v4l2_format g;
	} u;
	unsigned long req;
	struct snapshot s;
	int ret;

	memset(&u, 0, sizeof(u));
	switch (op) {
	case 0:
		req = VIDIOC_ENUM_FMT;
		u.fd.type = pick_type(r);
		u.fd.index = fz_u8(r) & 0x80 ? fz_u32(r) : fz_u8(r);
		break;
	case 1:
		req = VIDIOC_ENUM_FRAMESIZES;
		u.fs.pixel_format = pick_fourcc(r, p);
		u.fs.index = fz_u8(r) & 0x80 ? fz_u32(r) : fz_u8(r);
		break;
	case 2:
		req = VIDIOC_ENUM_FRAMEINTERVALS;
		u.fi.pixel_format = pick_fourcc(r, p);
		pick_size(r, p, u.fi.pixel_format, &u.fi.width, &u.fi.height);
		u.fi.index = fz_u8(r) & 0x80 ? fz_u32(r) : fz_u8(r);
		break;
	case 3:
		req = VIDIOC_QUERYCAP;
		break;
	default:
		req = VIDIOC_G_FMT;
		u.g.type = pick_type(r);
		break;
	}
	snap(e, &s);
	ret = negcam_engine_ioctl(e, req, &u);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -ENOTTY, "%s returned %d",
		    negcam_ioctl_name(req), ret);
	FUZZ_ASSERT(unchanged(e, &s), "%s changed the state", negcam_ioctl_name(req));
	if (req == VIDIOC_QUERYCAP) {
		FUZZ_ASSERT(ret == 0, "QUERYCAP failed: %d", ret);
		FUZZ_ASSERT(fz_nul_terminated(u.cap.card, sizeof(u.cap.card)) &&
				    fz_nul_terminated(u.cap.driver, sizeof(u.cap.driver)) &&
				    fz_nul_terminated(u.cap.bus_info, sizeof(u.cap.bus_info)),
			    "QUERYCAP strings unterminated");
	}
	if (req == VIDIOC_G_FMT && ret == 0)
		fz_check_pix(p, u.g.type, &u.g.fmt.pix, "G_FMT");
	if (req == VIDIOC_ENUM_FMT && ret == 0)
		FUZZ_ASSERT(fz_profile_format(p, u.fd.type, u.fd.pixelformat),
			    "ENUM_FMT listed a fourcc the profile lacks");
}

static void op_raw(struct negcam_engine *e, struct fuzz_reader *r)
{
	/* Larger than any struct a handled request takes. */
	union {
		uint8_t bytes[512];
		uint64_t align;
	} arg;
	uint8_t b = fz_u8(r);
	unsigned long req;
	bool is_handled = false;
	struct snapshot s;
	unsigned int i;
	int ret;

	if (b < 0x80)
		req = handled[b % NC_ARRAY_SIZE(handled)];
	else if (b < 0xc0)
		req = near_misses[b % NC_ARRAY_SIZE(near_misses)];
	else
		req = fz_u32(r);
	for (i = 0; i < NC_ARRAY_SIZE(handled); i++)
		is_handled |= req == handled[i];
	memset(&arg, 0, sizeof(arg));
	fz_bytes(r, arg.bytes, fz_u8(r));
	snap(e, &s);
	ret = negcam_engine_ioctl(e, req, arg.bytes);
	FUZZ_ASSERT(ret <= 0 && ret >= -4095, "request 0x%lx returned %d", req, ret);
	if (!is_handled)
		FUZZ_ASSERT(ret == -ENOTTY && unchanged(e, &s),
			    "unhandled request 0x%lx returned %d", req, ret);
	else if (req != VIDIOC_S_FMT && req != VIDIOC_S_PARM)
		FUZZ_ASSERT(unchanged(e, &s), "%s with raw struct changed the state",
			    negcam_ioctl_name(req));
}

static void op_busy(struct negcam_engine *e, struct fuzz_reader *r)
{
	uint8_t b = fz_u8(r);
	__u32 type = b & 0x40 ? pick_type(r) : (b & 1 ? V4L2_BUF_TYPE_VIDEO_OUTPUT
						      : V4L2_BUF_TYPE_VIDEO_CAPTURE);
	struct snapshot s;

	snap(e, &s);
	negcam_engine_set_busy(e, type, b & 0x80);
	FUZZ_ASSERT(!memcmp(s.fmt, e->fmt, sizeof(s.fmt)) && e->profile == s.profile,
		    "set_busy changed the format");
	FUZZ_ASSERT(!(e->busy & ~((1u << NC_NQUEUES) - 1)), "busy bits 0x%x", e->busy);
}

static void op_set_profile(struct negcam_engine *e, struct fuzz_reader *r)
{
	const struct negcam_profile *p = &profiles[fz_u8(r) % nprofiles];
	struct negcam_engine fresh;
	struct snapshot s;
	int ret;

	snap(e, &s);
	ret = negcam_engine_set_profile(e, p);
	if (s.busy) {
		FUZZ_ASSERT(ret == -EBUSY && unchanged(e, &s),
			    "set_profile while busy: %d, state %s", ret,
			    unchanged(e, &s) ? "kept" : "changed");
		return;
	}
	FUZZ_ASSERT(ret == 0, "set_profile when idle: %d", ret);
	negcam_engine_init(&fresh, p);
	FUZZ_ASSERT(e->profile == p && !memcmp(e->fmt, fresh.fmt, sizeof(e->fmt)) &&
			    !memcmp(e->interval, fresh.interval, sizeof(e->interval)),
		    "set_profile did not reset to the profile's defaults");
}

/*
 * The current interval is one the current format and size offer: S_PARM
 * snaps to one, S_FMT keeps or re-snaps it.
 */
static void check_interval(struct negcam_engine *e, __u32 type)
{
	struct v4l2_streamparm sp;
	int q = negcam_queue_of(type), ret;
	char f4[5];

	if (q < 0 || !e->profile->def[q].fourcc)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.type = type;
	ret = negcam_engine_ioctl(e, VIDIOC_G_PARM, &sp);
	if (ret || !(sp.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) ||
	    !fz_fourcc_unambiguous(e->profile, e->fmt[q].pixelformat))
		return;
	FUZZ_ASSERT(fz_interval_offered(e, e->fmt[q].pixelformat, e->fmt[q].width,
					fz_frame_height(&e->fmt[q]), &sp.parm.capture.timeperframe) != 0,
		    "current interval %u/%u is not offered by %s %ux%u",
		    sp.parm.capture.timeperframe.numerator,
		    sp.parm.capture.timeperframe.denominator,
		    negcam_fourcc_str(e->fmt[q].pixelformat, f4), e->fmt[q].width,
		    e->fmt[q].height);
}

/* Whatever happened, the current formats stay complete and supported. */
static void check_state(const struct negcam_engine *e)
{
	static const __u32 types[NC_NQUEUES] = { V4L2_BUF_TYPE_VIDEO_CAPTURE,
						 V4L2_BUF_TYPE_VIDEO_OUTPUT };
	unsigned int q;

	for (q = 0; q < NC_NQUEUES; q++) {
		struct v4l2_pix_format pix = e->fmt[q];

		if (!e->profile->def[q].fourcc)
			continue;
		pix.priv = V4L2_PIX_FMT_PRIV_MAGIC; /* set on answers, not in the state */
		fz_check_pix(e->profile, types[q], &pix, "current format");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_reader r = { data, size };
	struct negcam_engine e;
	unsigned int n;

	negcam_engine_init(&e, &profiles[fz_u8(&r) % nprofiles]);
	for (n = 0; r.n && n < MAX_OPS; n++) {
		uint8_t op = fz_u8(&r);

		switch (op % 12) {
		case 0:
		case 1:
			op_try(&e, &r);
			break;
		case 2:
		case 3:
			op_s(&e, &r);
			break;
		case 4:
			op_parm(&e, &r, false);
			break;
		case 5:
			op_parm(&e, &r, true);
			break;
		case 6:
		case 7:
			op_enum(&e, &r, (op >> 4) % 5);
			break;
		case 8:
			op_raw(&e, &r);
			break;
		case 9:
			op_busy(&e, &r);
			break;
		case 10:
			op_set_profile(&e, &r);
			break;
		case 11:
			/* The whole picture, now and then (it is slow). */
			if ((op >> 4) == 0xf)
				fz_check_enumerations(&e, 8);
			break;
		}
		check_state(&e);
	}
	return 0;
}
