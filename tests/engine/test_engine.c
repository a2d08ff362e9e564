// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine tests. Two halves:
 *  - hand-built profiles (built in C below, independent of the parser)
 *    pin each rule down with small, explained cases;
 *  - every built-in profile, every format: the same rules checked against
 *    brute-force reference answers computed here from the profile data.
 * Expectations are computed, never copied from the engine's output.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "framegen.h"
#include "formats.h"
#include "profile.h"

/* Reference arithmetic for fraction distances: wider than the engine's inputs. */
__extension__ typedef __int128 i128;

#define FOURCC_STR(fcc) negcam_fourcc_str((fcc), (char[5]){ 0 })

static const __u32 CAP = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const __u32 OUT = V4L2_BUF_TYPE_VIDEO_OUTPUT;

/* ------------------------------------------------------------------ */
/* Building profiles by hand                                          */

static struct negcam_profile hp;

static void hp_reset(const char *name, __u32 quirks, __u32 adjust)
{
	memset(&hp, 0, sizeof(hp));
	snprintf(hp.name, sizeof(hp.name), "%s", name);
	snprintf(hp.card, sizeof(hp.card), "Card %s", name);
	hp.quirks = quirks;
	hp.adjust = adjust;
}

static struct negcam_format *hp_format(__u32 fourcc, __u32 buf_type, __u8 field)
{
	struct negcam_format *f = &hp.formats[hp.nformats++];

	f->fourcc = fourcc;
	f->buf_type = buf_type;
	f->stride_align = 1;
	f->fields[0] = field;
	f->nfields = 1;
	f->size_kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	f->size_first = hp.nsizes;
	return f;
}

static struct negcam_size *hp_size(struct negcam_format *f, __u32 w, __u32 h)
{
	struct negcam_size *s = &hp.sizes[hp.nsizes++];

	s->min_w = s->max_w = w;
	s->min_h = s->max_h = h;
	s->step_w = s->step_h = 1;
	s->ival_first = hp.nintervals;
	s->ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE;
	f->size_count++;
	return s;
}

static struct negcam_size *hp_range(struct negcam_format *f, __u32 kind, __u32 min_w,
				    __u32 max_w, __u32 step_w, __u32 min_h, __u32 max_h,
				    __u32 step_h)
{
	struct negcam_size *s = hp_size(f, min_w, min_h);

	f->size_kind = kind;
	s->max_w = max_w;
	s->max_h = max_h;
	s->step_w = step_w;
	s->step_h = step_h;
	return s;
}

static void hp_ival(struct negcam_size *s, __u32 n, __u32 d)
{
	struct negcam_interval *iv = &hp.intervals[hp.nintervals++];

	iv->min.numerator = n;
	iv->min.denominator = d;
	s->ival_count++;
}

static void hp_ival_range(struct negcam_size *s, __u32 kind, __u32 n0, __u32 d0,
			  __u32 n1, __u32 d1, __u32 sn, __u32 sd)
{
	struct negcam_interval *iv = &hp.intervals[hp.nintervals++];

	iv->min = (struct v4l2_fract){ n0, d0 };
	iv->max = (struct v4l2_fract){ n1, d1 };
	iv->step = (struct v4l2_fract){ sn, sd };
	s->ival_kind = kind;
	s->ival_count = 1;
}

static void hp_default(int q, __u32 fourcc, __u32 w, __u32 h, __u32 n, __u32 d)
{
	hp.def[q].fourcc = fourcc;
	hp.def[q].width = w;
	hp.def[q].height = h;
	hp.def[q].interval = (struct v4l2_fract){ n, d };
}

/* ------------------------------------------------------------------ */
/* Small request helpers                                              */

static struct v4l2_format mkfmt(__u32 type, __u32 fourcc, __u32 w, __u32 h, __u32 field)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = type;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = field;
	f.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	return f;
}

static int try_fmt(struct negcam_engine *e, __u32 type, __u32 fourcc, __u32 w, __u32 h,
		   __u32 field, struct v4l2_pix_format *out)
{
	struct v4l2_format f = mkfmt(type, fourcc, w, h, field);
	int ret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &f);

	*out = f.fmt.pix;
	return ret;
}

static int set_fmt(struct negcam_engine *e, __u32 type, __u32 fourcc, __u32 w, __u32 h,
		   __u32 field, struct v4l2_pix_format *out)
{
	struct v4l2_format f = mkfmt(type, fourcc, w, h, field);
	int ret = negcam_engine_ioctl(e, VIDIOC_S_FMT, &f);

	*out = f.fmt.pix;
	return ret;
}

static struct v4l2_pix_format get_fmt(struct negcam_engine *e, __u32 type)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = type;
	CHECK_EQ(negcam_engine_ioctl(e, VIDIOC_G_FMT, &f), 0, "G_FMT");
	return f.fmt.pix;
}

static int s_parm(struct negcam_engine *e, __u32 type, __u32 n, __u32 d,
		  struct v4l2_streamparm *out)
{
	struct v4l2_streamparm p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.type = type;
	p.parm.capture.timeperframe = (struct v4l2_fract){ n, d };
	ret = negcam_engine_ioctl(e, VIDIOC_S_PARM, &p);
	if (out)
		*out = p;
	return ret;
}

static struct v4l2_fract g_ival(struct negcam_engine *e, __u32 type)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	CHECK_EQ(negcam_engine_ioctl(e, VIDIOC_G_PARM, &p), 0, "G_PARM");
	return p.parm.capture.timeperframe;
}

static bool fract_eq(struct v4l2_fract a, __u32 n, __u32 d)
{
	return a.numerator == n && a.denominator == d;
}

/* ------------------------------------------------------------------ */
/* Reference answers, brute force, from the profile data              */

static bool ref_is_range(const struct negcam_format *f)
{
	return f->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE;
}

/* One dimension of a range: walk every value of the range. */
static __u32 ref_dim(__u32 v, __u32 min, __u32 max, __u32 step, __u32 sub, bool nearest)
{
	__u32 c, best = 0;
	bool found = false;

	if (!step)
		step = 1;
	for (c = min; c <= max; c += step) {
		bool better;

		if (c % sub)
			continue;
		if (!found) {
			better = true;
		} else if (nearest) {
			uint64_t dc = c > v ? c - v : v - c, db = best > v ? best - v : v - best;

			better = dc < db || (dc == db && c > best);
		} else {
			/* values ascend: the last one <= v, else the first one */
			better = c <= v;
		}
		if (better) {
			best = c;
			found = true;
		}
	}
	return best;
}

/* Index (relative to the format) of the discrete size TRY_FMT must pick. */
static unsigned int ref_discrete(const struct negcam_profile *p, const struct negcam_format *f,
				 __u32 w, __u32 h)
{
	unsigned int i, best = 0;
	bool found = false;

	if (p->adjust == NC_ADJUST_NEAREST) {
		uint64_t min_err = UINT64_MAX;

		for (i = 0; i < f->size_count; i++) {
			const struct negcam_size *s = &p->sizes[f->size_first + i];
			uint64_t err = (s->min_w > w ? s->min_w - w : w - s->min_w) +
				       (s->min_h > h ? s->min_h - h : h - s->min_h);

			if (err <= min_err) { /* the later entry wins a tie */
				min_err = err;
				best = i;
			}
			if (!err)
				break;
		}
		return best;
	}
	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];
		const struct negcam_size *b = &p->sizes[f->size_first + best];
		uint64_t a = (uint64_t)s->min_w * s->min_h, ab = (uint64_t)b->min_w * b->min_h;

		if (s->min_w > w || s->min_h > h)
			continue;
		if (!found || a > ab || (a == ab && s->min_w > b->min_w)) {
			best = i;
			found = true;
		}
	}
	if (found)
		return best;
	for (i = 1; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];
		const struct negcam_size *b = &p->sizes[f->size_first + best];
		uint64_t a = (uint64_t)s->min_w * s->min_h, ab = (uint64_t)b->min_w * b->min_h;

		if (a < ab || (a == ab && s->min_w < b->min_w))
			best = i;
	}
	return best;
}

/* A buffer holds one field: its height counts field lines, half the frame's. */
static bool field_per_buffer(__u32 field)
{
	return field == V4L2_FIELD_TOP || field == V4L2_FIELD_BOTTOM ||
	       field == V4L2_FIELD_ALTERNATE;
}

/* The format height of frame height @h in @field. */
static __u32 fmt_height(__u32 field, __u32 h)
{
	return field_per_buffer(field) ? h / 2 : h;
}

/*
 * The size TRY_FMT must answer for format @f and a request of w x h in
 * @field: sizes are frames, so a per-field request h asks for a frame
 * of 2h lines and the answer is half the frame picked.
 */
static void ref_size(const struct negcam_profile *p, const struct negcam_format *f,
		     __u32 field, __u32 w, __u32 h, __u32 *rw, __u32 *rh)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);
	const struct negcam_size *s = &p->sizes[f->size_first];
	bool nearest = p->adjust == NC_ADJUST_NEAREST;
	bool cont = f->size_kind == V4L2_FRMSIZE_TYPE_CONTINUOUS;
	uint64_t fh = field_per_buffer(field) ? (uint64_t)h * 2 : h;

	if (fh > 0xffffffffu)
		fh = 0xffffffffu;
	if (!ref_is_range(f)) {
		s += ref_discrete(p, f, w, (__u32)fh);
		*rw = s->min_w;
		*rh = fmt_height(field, s->min_h);
		return;
	}
	*rw = ref_dim(w, s->min_w, s->max_w, cont ? 1 : s->step_w, fi->hsub, nearest);
	*rh = fmt_height(field, ref_dim((__u32)fh, s->min_h, s->max_h, cont ? 1 : s->step_h,
					fi->vsub * (field_per_buffer(field) ? 2 : 1), nearest));
}

/* The profile's default format of a queue (def fourcc, else the first). */
static const struct negcam_format *ref_default_format(const struct negcam_profile *p, int q)
{
	const struct negcam_format *first = NULL;
	unsigned int i;

	for (i = 0; i < p->nformats; i++) {
		if (negcam_queue_of(p->formats[i].buf_type) != q)
			continue;
		if (p->formats[i].fourcc == p->def[q].fourcc)
			return &p->formats[i];
		if (!first)
			first = &p->formats[i];
	}
	return first;
}

static const struct negcam_format *ref_find(const struct negcam_profile *p, int q, __u32 fcc)
{
	unsigned int i;

	for (i = 0; i < p->nformats; i++)
		if (negcam_queue_of(p->formats[i].buf_type) == q && p->formats[i].fourcc == fcc)
			return &p->formats[i];
	return NULL;
}

static const struct negcam_size *ref_size_entry(const struct negcam_profile *p,
						const struct negcam_format *f, __u32 w, __u32 h)
{
	unsigned int i;

	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];

		if (!ref_is_range(f) && s->min_w == w && s->min_h == h)
			return s;
		if (ref_is_range(f) && w >= s->min_w && w <= s->max_w && h >= s->min_h &&
		    h <= s->max_h)
			return s;
	}
	return NULL;
}

/* |t - x| compared exactly: is x1 strictly nearer to t than x2? */
static bool ref_nearer(struct v4l2_fract t, struct v4l2_fract x1, struct v4l2_fract x2)
{
	i128 d1 = (i128)t.numerator * x1.denominator - (i128)x1.numerator * t.denominator;
	i128 d2 = (i128)t.numerator * x2.denominator - (i128)x2.numerator * t.denominator;

	if (d1 < 0)
		d1 = -d1;
	if (d2 < 0)
		d2 = -d2;
	return d1 * x2.denominator < d2 * x1.denominator;
}

static int ref_cmp(struct v4l2_fract a, struct v4l2_fract b)
{
	i128 l = (i128)a.numerator * b.denominator, r = (i128)b.numerator * a.denominator;

	return l < r ? -1 : l > r;
}

/* The interval S_PARM must answer for @t at size entry @s. */
static struct v4l2_fract ref_interval(const struct negcam_profile *p,
				      const struct negcam_size *s, struct v4l2_fract t)
{
	const struct negcam_interval *iv = &p->intervals[s->ival_first];
	struct v4l2_fract best = iv->min;
	unsigned int i, k;

	if (!t.numerator || !t.denominator)
		return iv->min;
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		for (i = 1; i < s->ival_count; i++)
			if (ref_nearer(t, iv[i].min, best))
				best = iv[i].min;
		return best;
	}
	if (ref_cmp(t, iv->min) <= 0)
		return iv->min;
	if (ref_cmp(t, iv->max) >= 0)
		return iv->max;
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_CONTINUOUS)
		return t;
	/* stepwise: walk min + k * step (test profiles keep this short) */
	for (k = 1; k < 100000; k++) {
		uint64_t n = (uint64_t)iv->min.numerator * iv->step.denominator +
			     (uint64_t)k * iv->step.numerator * iv->min.denominator;
		uint64_t d = (uint64_t)iv->min.denominator * iv->step.denominator;
		uint64_t a = n, b = d;
		struct v4l2_fract x;

		while (b) {
			uint64_t r = a % b;

			a = b;
			b = r;
		}
		x = (struct v4l2_fract){ (__u32)(n / a), (__u32)(d / a) };
		if (ref_cmp(x, iv->max) > 0)
			break;
		if (ref_nearer(t, x, best))
			best = x;
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* The format table                                                   */

static void test_fourcc_table(void)
{
	const struct negcam_fourcc_info *fi;
	unsigned int i, j, n = 0;
	__u32 bpl, size, cs, enc, q, xfer;

	for (i = 0; (fi = negcam_fourcc_at(i)); i++, n++) {
		const char *name = FOURCC_STR(fi->fourcc);

		CHECK(negcam_fourcc_lookup(fi->fourcc) == fi, "%s: lookup finds its entry", name);
		for (j = 0; j < i; j++)
			CHECK(negcam_fourcc_at(j)->fourcc != fi->fourcc, "%s listed twice", name);
		CHECK(fi->description && fi->description[0] &&
		      strlen(fi->description) < sizeof(((struct v4l2_fmtdesc *)0)->description),
		      "%s: description fits ENUM_FMT", name);
		CHECK(fi->hsub >= 1 && fi->vsub >= 1, "%s: subsampling", name);
		CHECK(fi->layout == NC_LAYOUT_COMPRESSED || fi->bpp > 0, "%s: bpp", name);
		negcam_fourcc_colorimetry(fi, &cs, &enc, &q, &xfer);
		CHECK(cs && enc && q && xfer, "%s: colorimetry explicit", name);
		CHECK(cs != V4L2_COLORSPACE_JPEG && cs != V4L2_COLORSPACE_BT878,
		      "%s: no deprecated colorspace", name);
		negcam_fourcc_sizes(fi, 640, 480, 1, &bpl, &size);
		if (fi->layout == NC_LAYOUT_COMPRESSED) {
			CHECK(bpl == 0 && size >= 640 * 480 * 2 && size % 4096 == 0,
			      "%s: compressed bound", name);
		} else {
			CHECK_EQ(bpl, (640 * fi->bpp + 7) / 8, "%s: bytesperline", name);
			CHECK(size >= bpl * 480, "%s: sizeimage holds the luma", name);
		}
	}
	CHECK(n >= 60, "the table covers the common formats (%u)", n);
	CHECK(negcam_fourcc_lookup(v4l2_fourcc('N', 'O', 'P', 'E')) == NULL, "unknown fourcc");
	CHECK(negcam_fourcc_at(n) == NULL, "past the end");

	/* Descriptions: what Linux 6.1's v4l_fill_fmtdesc says */
	CHECK(!strcmp(negcam_fourcc_lookup(V4L2_PIX_FMT_NV12)->description, "Y/UV 4:2:0"), "NV12");
	CHECK(!strcmp(negcam_fourcc_lookup(V4L2_PIX_FMT_MJPEG)->description, "Motion-JPEG"),
	      "MJPG");
	CHECK(!strcmp(negcam_fourcc_lookup(V4L2_PIX_FMT_YUYV)->description, "YUYV 4:2:2"), "YUYV");

	/* Layout arithmetic, from the V4L2 format definitions */
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_YUYV), 640, 480, 1, &bpl, &size);
	CHECK(bpl == 640 * 2 && size == 640 * 2 * 480, "YUYV 640x480: %u %u", bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_NV12), 640, 480, 1, &bpl, &size);
	CHECK(bpl == 640 && size == 640 * 480 * 3 / 2, "NV12: %u %u", bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_YUV420), 640, 480, 1, &bpl, &size);
	CHECK(bpl == 640 && size == 640 * 480 + 2 * 320 * 240, "YU12: %u %u", bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_YUV422P), 640, 480, 1, &bpl, &size);
	CHECK(bpl == 640 && size == 640 * 480 * 2, "422P: %u %u", bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_NV16), 640, 480, 1, &bpl, &size);
	CHECK(size == 640 * 480 * 2, "NV16: %u", size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_NV24), 640, 480, 1, &bpl, &size);
	CHECK(size == 640 * 480 * 3, "NV24: %u", size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_YUV410), 640, 480, 1, &bpl, &size);
	CHECK(size == 640 * 480 + 2 * 160 * 120, "YUV410: %u", size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_RGB24), 101, 3, 64, &bpl, &size);
	CHECK(bpl == 320 && size == 960, "RGB3 101 wide, 64-byte stride: %u %u", bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_NV12), 100, 4, 64, &bpl, &size);
	CHECK(bpl == 128 && size == 128 * 4 + 128 * 2, "NV12 aligned: chroma stride follows: %u %u",
	      bpl, size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_SBGGR10P), 640, 2, 1, &bpl, &size);
	CHECK(bpl == 800, "pBAA: 5 bytes per 4 pixels: %u", bpl);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_XRGB32), 16384, 16384, 1, &bpl,
			    &size);
	CHECK(size == 16384u * 16384u * 4u, "largest RGB frame fits 32 bits: %u", size);
	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_XRGB32), 0xffffffffu, 0xffffffffu,
			    1, &bpl, &size);
	CHECK(bpl == 0xffffffffu && size == 0xffffffffu, "absurd sizes saturate, never wrap");

	CHECK(!strcmp(FOURCC_STR(V4L2_PIX_FMT_YUYV), "YUYV"), "fourcc string");
	CHECK(!strcmp(FOURCC_STR(V4L2_PIX_FMT_Y16_BE), "Y16 "), "big-endian flag is not printed");
}

/* ------------------------------------------------------------------ */
/* Hand-built profiles: one rule at a time                            */

static struct negcam_engine eng;

/* Downward and nearest on the same size list. */
static void build_sizes_profile(__u32 adjust)
{
	struct negcam_format *f;
	struct negcam_size *s;

	hp_reset("sizes", 0, adjust);
	f = hp_format(V4L2_PIX_FMT_YUYV, CAP, V4L2_FIELD_NONE);
	s = hp_size(f, 640, 480);
	hp_ival(s, 1, 30);
	hp_ival(s, 1, 15);
	s = hp_size(f, 320, 240);
	hp_ival(s, 1, 30);
	s = hp_size(f, 1280, 720);
	hp_ival(s, 1, 10);
	s = hp_size(f, 800, 600);
	hp_ival(s, 1, 20);
	s = hp_size(f, 400, 300);
	hp_ival(s, 1, 30);
	s = hp_size(f, 300, 400);
	hp_ival(s, 1, 30);
	s = hp_size(f, 1920, 1080);
	hp_ival(s, 1, 5);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_YUYV, 640, 480, 1, 30);
}

static void expect_try(__u32 w, __u32 h, __u32 ew, __u32 eh, const char *why)
{
	struct v4l2_pix_format pix;

	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, w, h, V4L2_FIELD_ANY, &pix), 0, "%s", why);
	CHECK(pix.width == ew && pix.height == eh, "%s: %ux%u -> %ux%u, want %ux%u", why, w, h,
	      pix.width, pix.height, ew, eh);
}

static void test_adjust_down_vs_nearest(void)
{
	build_sizes_profile(NC_ADJUST_DOWN);
	negcam_engine_init(&eng, &hp);
	expect_try(700, 500, 640, 480, "down: the largest inside 700x500");
	expect_try(1000, 700, 800, 600, "down: 1280x720 is too wide for 1000x700");
	expect_try(500, 500, 400, 300, "down: 400x300 and 300x400 tie on area, larger width wins");
	expect_try(300, 200, 320, 240, "down: nothing fits, the smallest size");
	expect_try(100000, 100000, 1920, 1080, "down: oversize gives the largest");
	expect_try(1, 1, 320, 240, "down: undersize gives the smallest");
	expect_try(0, 0, 320, 240, "down: zero size gives the smallest");

	build_sizes_profile(NC_ADJUST_NEAREST);
	negcam_engine_init(&eng, &hp);
	/* |700-640|+|500-480| = 80 beats 800x600's 200 */
	expect_try(700, 500, 640, 480, "nearest: 640x480");
	/* 1280x720: 280+20 = 300; 800x600: 200+100 = 300: the later entry wins, as the kernel */
	expect_try(1000, 700, 800, 600, "nearest: tie goes to the later entry");
	/* 320x240: 20+40 = 60 beats 300x400's 0+200 and 400x300's 100+100 */
	expect_try(300, 200, 320, 240, "nearest: 320x240");
	/* 1920x1080 is 30+20 away; the downward rule would give 1280x720 */
	expect_try(1950, 1100, 1920, 1080, "nearest may go up");
	expect_try(1900, 1070, 1920, 1080, "nearest goes up where downward would not");
	expect_try(100000, 100000, 1920, 1080, "nearest: oversize");
}

static void test_stepwise_rounding(void)
{
	struct negcam_format *f;
	struct negcam_size *s;

	/* NV12 (2x2 subsampling) on a grid that is not: 31 + 3k */
	hp_reset("grid", 0, NC_ADJUST_DOWN);
	f = hp_format(V4L2_PIX_FMT_NV12, CAP, V4L2_FIELD_NONE);
	s = hp_range(f, V4L2_FRMSIZE_TYPE_STEPWISE, 31, 301, 3, 31, 301, 3);
	hp_ival(s, 1, 30);
	f = hp_format(V4L2_PIX_FMT_YUYV, CAP, V4L2_FIELD_NONE);
	s = hp_range(f, V4L2_FRMSIZE_TYPE_STEPWISE, 31, 301, 3, 31, 301, 3);
	hp_ival(s, 1, 30);
	f = hp_format(V4L2_PIX_FMT_GREY, CAP, V4L2_FIELD_NONE);
	s = hp_range(f, V4L2_FRMSIZE_TYPE_CONTINUOUS, 1, 4000, 1, 1, 3000, 1);
	hp_ival(s, 1, 30);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_NV12, 640, 480, 1, 30);
	negcam_engine_init(&eng, &hp);

	struct v4l2_pix_format pix;

	/* lattice 31,34,37,40,43,46: even ones are 34, 40, 46 */
	try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 45, 45, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 40 && pix.height == 40, "down to step and 4:2:0: %ux%u", pix.width,
	      pix.height);
	/* YUYV: width even, height any lattice value */
	try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 45, 45, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 40 && pix.height == 43, "down, 4:2:2: %ux%u", pix.width, pix.height);
	try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 1, 1, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 34 && pix.height == 34, "undersize: the smallest even lattice value");
	try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 100000, 100000, V4L2_FIELD_ANY, &pix);
	/* 301 = 31 + 90*3 is odd; 298 is even */
	CHECK(pix.width == 298 && pix.height == 298, "oversize: %ux%u", pix.width, pix.height);
	try_fmt(&eng, CAP, V4L2_PIX_FMT_GREY, 1234, 567, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 1234 && pix.height == 567, "continuous keeps any size in range");
	try_fmt(&eng, CAP, V4L2_PIX_FMT_GREY, 5000, 0, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 4000 && pix.height == 1, "continuous clamps");

	hp.adjust = NC_ADJUST_NEAREST;
	negcam_engine_init(&eng, &hp);
	try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 45, 45, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 46 && pix.height == 46, "nearest: 46 is 1 away, 40 is 5: %ux%u",
	      pix.width, pix.height);
	try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 45, 45, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 46 && pix.height == 46, "nearest, 4:2:2: %ux%u", pix.width, pix.height);
	try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 43, 43, V4L2_FIELD_ANY, &pix);
	CHECK(pix.width == 46 && pix.height == 46, "nearest tie (40 and 46 both 3 away): larger");

	/* Every value the reference finds, for many requests */
	for (__u32 w = 0; w < 320; w += 7) {
		for (int fm = 0; fm < 2; fm++) {
			const struct negcam_format *rf = &hp.formats[fm];
			__u32 rw, rh;

			for (int a = 0; a < 2; a++) {
				hp.adjust = a;
				negcam_engine_init(&eng, &hp);
				ref_size(&hp, rf, V4L2_FIELD_NONE, w, 320 - w, &rw, &rh);
				try_fmt(&eng, CAP, rf->fourcc, w, 320 - w, V4L2_FIELD_ANY, &pix);
				CHECK(pix.width == rw && pix.height == rh,
				      "%s %s %ux%u -> %ux%u want %ux%u", FOURCC_STR(rf->fourcc),
				      a ? "nearest" : "down", w, 320 - w, pix.width, pix.height, rw,
				      rh);
			}
		}
	}
}

/* S_PARM on a discrete list: the nearest listed interval, exact fractions. */
static void intervals_discrete(void)
{
	struct v4l2_streamparm parm;

	CHECK(fract_eq(g_ival(&eng, CAP), 1, 25), "starts on the default interval");
	s_parm(&eng, CAP, 1001, 30000, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1001, 30000), "exact 29.97 kept");
	CHECK_EQ(parm.parm.capture.capability, V4L2_CAP_TIMEPERFRAME, "TIMEPERFRAME");
	/* 1/29 - 1001/30000 = 971/870000 < 1/29 - 1/30 = 1/870 = 1000/870000 */
	s_parm(&eng, CAP, 1, 29, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1001, 30000), "1/29 -> 1001/30000");
	/* 1/30 - 1/31 = 1000/930000 < 1001/30000 - 1/31 = 1031/930000 */
	s_parm(&eng, CAP, 1, 31, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "1/31 -> 1/30");
	s_parm(&eng, CAP, 1, 20, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 25) ||
	      fract_eq(parm.parm.capture.timeperframe, 1, 15), "1/20 -> a neighbour");
	/* 1/20 - 1/25 = 1/100 < 1/15 - 1/20 = 1/60 */
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 25), "1/20 -> 1/25");
	/* 4/75 is exactly between 1/25 (3/75) and 1/15 (5/75): the first listed wins */
	s_parm(&eng, CAP, 4, 75, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 25), "tie -> first listed");
	s_parm(&eng, CAP, 10, 1, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 15), "10 s -> the longest, 1/15");
	s_parm(&eng, CAP, 0, 0, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "0/0 -> first listed");
	s_parm(&eng, CAP, 1, 15, NULL);
	s_parm(&eng, CAP, 0, 1, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "0/1 -> first listed");
	s_parm(&eng, CAP, 1, 15, NULL);
	s_parm(&eng, CAP, 1, 0, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "1/0 -> first listed");
	s_parm(&eng, CAP, 0xffffffffu, 1, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 15), "huge interval: no overflow");
	s_parm(&eng, CAP, 1, 0xffffffffu, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "tiny interval: no overflow");
}

/* Stepwise intervals: 1/60 + k/60 up to 1 s (the NV12 format of test_intervals). */
static void intervals_stepwise(void)
{
	struct v4l2_streamparm parm;
	struct v4l2_pix_format pix;

	set_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 640, 480, V4L2_FIELD_ANY, &pix);
	CHECK(fract_eq(g_ival(&eng, CAP), 1, 15), "1/15 -> 4/60 = 1/15, reduced: %u/%u",
	      g_ival(&eng, CAP).numerator, g_ival(&eng, CAP).denominator);
	s_parm(&eng, CAP, 1001, 30000, &parm);
	/* (1001/30000 - 1/60) * 60 = 1.002 steps: k = 1, 2/60 = 1/30 */
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 30), "stepwise 29.97 -> 1/30");
	s_parm(&eng, CAP, 7, 120, &parm);
	/* 7/120 = 3.5/60: a tie between 3/60 and 4/60; the shorter interval wins */
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 20), "tie -> 3/60 = 1/20: %u/%u",
	      parm.parm.capture.timeperframe.numerator, parm.parm.capture.timeperframe.denominator);
	s_parm(&eng, CAP, 5, 1, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 1), "clamped to the maximum");
	s_parm(&eng, CAP, 1, 1000, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 60), "clamped to the minimum");
	for (__u32 d = 1; d < 200; d += 3) {
		struct v4l2_fract want = { 7, d }, ref;

		ref = ref_interval(&hp, &hp.sizes[hp.formats[1].size_first], want);
		s_parm(&eng, CAP, 7, d, &parm);
		CHECK(fract_eq(parm.parm.capture.timeperframe, ref.numerator, ref.denominator),
		      "stepwise 7/%u -> %u/%u want %u/%u", d,
		      parm.parm.capture.timeperframe.numerator,
		      parm.parm.capture.timeperframe.denominator, ref.numerator, ref.denominator);
	}
}

/* ENUM_FRAMEINTERVALS shapes: stepwise, off the step, unknown, continuous. */
static void intervals_enum(void)
{
	struct v4l2_frmivalenum fi;

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = V4L2_PIX_FMT_NV12;
	fi.width = 640;
	fi.height = 480;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), 0, "stepwise ival");
	CHECK(fi.type == V4L2_FRMIVAL_TYPE_STEPWISE && fract_eq(fi.stepwise.min, 1, 60) &&
	      fract_eq(fi.stepwise.max, 1, 1) && fract_eq(fi.stepwise.step, 1, 60), "stepwise");
	fi.index = 1;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -EINVAL, "index 1");
	fi.index = 0;
	fi.width = 641;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -EINVAL, "off step");
	fi.width = 640;
	fi.pixel_format = v4l2_fourcc('N', 'O', 'P', 'E');
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -EINVAL, "unknown");
	fi.pixel_format = V4L2_PIX_FMT_GREY;
	fi.width = 641;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), 0, "continuous size");
	CHECK(fi.type == V4L2_FRMIVAL_TYPE_CONTINUOUS && fract_eq(fi.stepwise.step, 1, 1),
	      "continuous: step 1/1");
}

static void test_intervals(void)
{
	struct negcam_format *f;
	struct negcam_size *s;
	struct v4l2_streamparm parm;
	struct v4l2_pix_format pix;

	hp_reset("ivals", 0, NC_ADJUST_DOWN);
	f = hp_format(V4L2_PIX_FMT_YUYV, CAP, V4L2_FIELD_NONE);
	s = hp_size(f, 640, 480);
	hp_ival(s, 1, 30);
	hp_ival(s, 1, 25);
	hp_ival(s, 1, 15);
	hp_ival(s, 1001, 30000);
	s = hp_size(f, 1920, 1080);
	hp_ival(s, 1, 5);
	f = hp_format(V4L2_PIX_FMT_NV12, CAP, V4L2_FIELD_NONE);
	s = hp_range(f, V4L2_FRMSIZE_TYPE_STEPWISE, 64, 1920, 16, 64, 1080, 8);
	hp_ival_range(s, V4L2_FRMIVAL_TYPE_STEPWISE, 1, 60, 1, 1, 1, 60);
	f = hp_format(V4L2_PIX_FMT_GREY, CAP, V4L2_FIELD_NONE);
	s = hp_range(f, V4L2_FRMSIZE_TYPE_CONTINUOUS, 64, 1920, 1, 64, 1080, 1);
	hp_ival_range(s, V4L2_FRMIVAL_TYPE_CONTINUOUS, 1, 60, 1, 1, 1, 1);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_YUYV, 640, 480, 1, 25);
	negcam_engine_init(&eng, &hp);

	intervals_discrete();

	/* The interval follows the size */
	s_parm(&eng, CAP, 1, 30, NULL);
	set_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 1920, 1080, V4L2_FIELD_ANY, &pix);
	CHECK(fract_eq(g_ival(&eng, CAP), 1, 5), "after S_FMT 1080p the interval is 1/5");
	set_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY, &pix);
	CHECK(fract_eq(g_ival(&eng, CAP), 1, 15), "back to VGA: nearest to 1/5 is 1/15");

	intervals_stepwise();

	/* Continuous: any interval in range, exactly */
	set_fmt(&eng, CAP, V4L2_PIX_FMT_GREY, 640, 480, V4L2_FIELD_ANY, &pix);
	s_parm(&eng, CAP, 1001, 30000, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1001, 30000), "continuous keeps 1001/30000");
	s_parm(&eng, CAP, 3, 1, &parm);
	CHECK(fract_eq(parm.parm.capture.timeperframe, 1, 1), "continuous clamps");
	intervals_enum();
}

static void test_quirks(void)
{
	struct negcam_format *f;
	struct negcam_size *s;
	struct v4l2_pix_format pix, before;
	struct v4l2_streamparm parm;
	struct v4l2_frmsizeenum fs;
	struct v4l2_frmivalenum fi;
	struct v4l2_format vf;

	hp_reset("old", NC_QUIRK_LEGACY_EINVAL, NC_ADJUST_DOWN);
	f = hp_format(V4L2_PIX_FMT_UYVY, CAP, V4L2_FIELD_INTERLACED);
	f->fields[1] = V4L2_FIELD_ALTERNATE;
	f->nfields = 2;
	s = hp_size(f, 720, 576);
	hp_ival(s, 1, 25);
	s = hp_size(f, 720, 480);
	hp_ival(s, 1001, 30000);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_UYVY, 720, 576, 1, 25);
	negcam_engine_init(&eng, &hp);
	before = get_fmt(&eng, CAP);
	CHECK_EQ(before.field, V4L2_FIELD_INTERLACED, "the first field is the default");
	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY, &pix), -EINVAL,
		 "2007: unknown fourcc is EINVAL");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 720, 480, V4L2_FIELD_ANY, &pix), -EINVAL,
		 "2007: S_FMT too");
	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_NONE, &pix), -EINVAL,
		 "2007: progressive on an interlaced device is EINVAL");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_NONE, &pix), -EINVAL,
		 "2007: S_FMT too");
	pix = get_fmt(&eng, CAP);
	CHECK(!memcmp(&pix, &before, sizeof(pix)), "a failed S_FMT changes nothing");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 240, V4L2_FIELD_ALTERNATE, &pix), 0,
		 "alternate: 240 field lines");
	CHECK(pix.field == V4L2_FIELD_ALTERNATE && pix.height == 240 &&
	      pix.bytesperline == 720 * 2 && pix.sizeimage == 720 * 2 * 240,
	      "alternate: height 240 of 480 lines, a buffer holds one field: %u %u", pix.height,
	      pix.sizeimage);
	CHECK(fract_eq(g_ival(&eng, CAP), 1001, 30000), "alternate: the 720x480 frame's rate");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 288, V4L2_FIELD_ALTERNATE, &pix), 0,
		 "alternate, PAL field");
	CHECK(pix.height == 288 && pix.sizeimage == 720 * 2 * 288, "288 field lines: 720x576");
	CHECK(fract_eq(g_ival(&eng, CAP), 1, 25), "the 720x576 frame's rate");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 576, V4L2_FIELD_ALTERNATE, &pix), 0,
		 "alternate, frame height asked");
	CHECK(pix.height == 288, "576 field lines fit no frame but the largest: %u", pix.height);
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_ANY, &pix), 0, "ANY");
	CHECK(pix.field == V4L2_FIELD_INTERLACED && pix.sizeimage == 720 * 2 * 480, "ANY -> first");
	CHECK(fract_eq(g_ival(&eng, CAP), 1001, 30000), "NTSC size: NTSC rate");

	hp.quirks = 0;
	negcam_engine_init(&eng, &hp);
	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_NONE, &pix), 0,
		 "today: unknown fourcc corrected");
	CHECK(pix.pixelformat == V4L2_PIX_FMT_UYVY && pix.field == V4L2_FIELD_INTERLACED &&
	      pix.width == 720 && pix.height == 480,
	      "to the default format, size and field adjusted");

	hp.quirks = NC_QUIRK_NO_TRY_FMT;
	negcam_engine_init(&eng, &hp);
	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_ANY, &pix), -ENOTTY,
		 "no TRY_FMT");
	memset(&vf, 0, sizeof(vf));
	vf.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &vf), -ENOTTY,
		 "no TRY_FMT: ENOTTY for every buffer type, as the kernel core answers");
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 100000, 100000, V4L2_FIELD_ANY, &pix), 0,
		 "S_FMT still adjusts");
	CHECK(pix.width == 720 && pix.height == 576, "S_FMT oversize -> 720x576");

	hp.quirks = NC_QUIRK_NO_ENUM_FRAMESIZES | NC_QUIRK_NO_ENUM_FRAMEINTERVALS |
		    NC_QUIRK_FIXED_RATE;
	negcam_engine_init(&eng, &hp);
	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = V4L2_PIX_FMT_UYVY;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMESIZES, &fs), -ENOTTY, "no sizes");
	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = V4L2_PIX_FMT_UYVY;
	fi.width = 720;
	fi.height = 576;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -ENOTTY, "no ivals");
	CHECK_EQ(s_parm(&eng, CAP, 1, 5, &parm), 0, "fixed rate S_PARM succeeds");
	CHECK(parm.parm.capture.capability == 0 && fract_eq(parm.parm.capture.timeperframe, 1, 25),
	      "fixed rate: no TIMEPERFRAME, the rate stays");
	CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_ANY, &pix), 0,
		 "TRY_FMT unaffected");
}

static void test_output_queue(void)
{
	struct negcam_format *f;
	struct negcam_size *s;
	struct v4l2_pix_format pix;
	struct v4l2_format fmt;
	struct v4l2_capability cap;
	struct v4l2_fmtdesc fd;

	hp_reset("m2m", 0, NC_ADJUST_DOWN);
	f = hp_format(V4L2_PIX_FMT_YUYV, CAP, V4L2_FIELD_NONE);
	f->stride_align = 64;
	s = hp_size(f, 100, 50);
	hp_ival(s, 1, 30);
	f = hp_format(V4L2_PIX_FMT_RGB24, OUT, V4L2_FIELD_NONE);
	s = hp_size(f, 640, 480);
	hp_ival(s, 1, 30);
	f = hp_format(V4L2_PIX_FMT_H264, OUT, V4L2_FIELD_NONE);
	s = hp_size(f, 640, 480);
	hp_ival(s, 1, 60);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_YUYV, 100, 50, 1, 30);
	hp_default(NC_OUTPUT, V4L2_PIX_FMT_RGB24, 640, 480, 1, 30);
	negcam_engine_init(&eng, &hp);

	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_QUERYCAP, &cap), 0, "QUERYCAP");
	CHECK((cap.device_caps & V4L2_CAP_VIDEO_OUTPUT) &&
	      (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE),
	      "both queues");
	pix = get_fmt(&eng, CAP);
	CHECK(pix.bytesperline == 256 && pix.sizeimage == 256 * 50, "64-byte stride: %u",
	      pix.bytesperline);

	memset(&fd, 0, sizeof(fd));
	fd.type = OUT;
	fd.index = 1;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), 0, "ENUM_FMT output");
	CHECK(fd.pixelformat == V4L2_PIX_FMT_H264 && (fd.flags & V4L2_FMT_FLAG_COMPRESSED) &&
	      !strcmp((char *)fd.description, "H.264"), "H.264 compressed");

	fmt = mkfmt(OUT, V4L2_PIX_FMT_RGB24, 640, 480, V4L2_FIELD_ANY);
	fmt.fmt.pix.colorspace = V4L2_COLORSPACE_REC709;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &fmt), 0, "TRY output");
	CHECK(fmt.fmt.pix.colorspace == V4L2_COLORSPACE_REC709 &&
	      fmt.fmt.pix.xfer_func == V4L2_XFER_FUNC_709 &&
	      fmt.fmt.pix.quantization == V4L2_QUANTIZATION_FULL_RANGE,
	      "output keeps the application's colorspace, fills the rest from it");
	fmt = mkfmt(OUT, V4L2_PIX_FMT_RGB24, 640, 480, V4L2_FIELD_ANY);
	fmt.fmt.pix.colorspace = V4L2_COLORSPACE_BT878;
	negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &fmt);
	CHECK_EQ(fmt.fmt.pix.colorspace, V4L2_COLORSPACE_SRGB, "deprecated colorspace replaced");
	fmt = mkfmt(CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY);
	fmt.fmt.pix.colorspace = V4L2_COLORSPACE_REC709;
	negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &fmt);
	CHECK(fmt.fmt.pix.colorspace == V4L2_COLORSPACE_SRGB &&
	      fmt.fmt.pix.quantization == V4L2_QUANTIZATION_LIM_RANGE,
	      "capture: the format's colorimetry");
	fmt = mkfmt(CAP, V4L2_PIX_FMT_RGB24, 640, 480, V4L2_FIELD_ANY);
	negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &fmt);
	CHECK_EQ(fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_YUYV, "an output fourcc is unknown on capture");

	/* busy is per queue */
	negcam_engine_set_busy(&eng, OUT, true);
	CHECK_EQ(set_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 100, 50, V4L2_FIELD_ANY, &pix), 0,
		 "capture free while output busy");
	CHECK_EQ(set_fmt(&eng, OUT, V4L2_PIX_FMT_H264, 640, 480, V4L2_FIELD_ANY, &pix), -EBUSY,
		 "output busy");
	CHECK_EQ(negcam_engine_set_profile(&eng, &hp), -EBUSY, "no profile swap while busy");
	negcam_engine_set_busy(&eng, OUT, false);
	CHECK_EQ(negcam_engine_set_profile(&eng, &hp), 0, "profile swap when idle");
}

/*
 * One fourcc on both queues with different sizes (a follow loop: discrete
 * camera sizes to consumers, any size to the producer): ENUM_FRAMESIZES
 * and ENUM_FRAMEINTERVALS, which carry no buffer type, answer from the
 * queue the caller names first; the ioctl entry point from capture.
 */
static void test_framesizes_per_queue(void)
{
	struct v4l2_frmsizeenum fs;
	struct v4l2_frmivalenum fi;
	struct negcam_format *f;
	struct negcam_size *s;

	hp_reset("both", 0, NC_ADJUST_DOWN);
	f = hp_format(V4L2_PIX_FMT_YUYV, CAP, V4L2_FIELD_NONE);
	s = hp_size(f, 320, 240);
	hp_ival(s, 1, 30);
	hp_ival(s, 1, 15);
	f = hp_format(V4L2_PIX_FMT_YUYV, OUT, V4L2_FIELD_NONE);
	s = hp_size(f, 1366, 768);
	hp_ival(s, 1, 60);
	hp_default(NC_CAPTURE, V4L2_PIX_FMT_YUYV, 320, 240, 1, 30);
	hp_default(NC_OUTPUT, V4L2_PIX_FMT_YUYV, 1366, 768, 1, 60);
	negcam_engine_init(&eng, &hp);

	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = V4L2_PIX_FMT_YUYV;
	CHECK_EQ(negcam_engine_enum_framesizes(&eng, NC_OUTPUT, &fs), 0, "output sizes");
	CHECK(fs.discrete.width == 1366 && fs.discrete.height == 768, "output: %ux%u",
	      fs.discrete.width, fs.discrete.height);
	fs.index = 0;
	CHECK_EQ(negcam_engine_enum_framesizes(&eng, NC_CAPTURE, &fs), 0, "capture sizes");
	CHECK(fs.discrete.width == 320 && fs.discrete.height == 240, "capture: %ux%u",
	      fs.discrete.width, fs.discrete.height);
	fs.index = 0;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMESIZES, &fs), 0, "ioctl sizes");
	CHECK_EQ(fs.discrete.width, 320u, "the ioctl entry point answers from capture");

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = V4L2_PIX_FMT_YUYV;
	fi.width = 1366;
	fi.height = 768;
	CHECK_EQ(negcam_engine_enum_frameintervals(&eng, NC_OUTPUT, &fi), 0,
		 "output interval at the output's size");
	CHECK(fi.discrete.numerator == 1 && fi.discrete.denominator == 60, "output: 1/%u",
	      fi.discrete.denominator);
	fi.index = 0;
	CHECK_EQ(negcam_engine_enum_frameintervals(&eng, NC_CAPTURE, &fi), -EINVAL,
		 "capture has no 1366x768");
}

/* The ioctl entry point behaves like the kernel core around the ops. */
/* Types the profile lacks: EINVAL from every format and parm ioctl. */
static void ioctl_bad_types(void)
{
	static const __u32 bad_types[] = {
		V4L2_BUF_TYPE_VIDEO_OVERLAY, V4L2_BUF_TYPE_VBI_CAPTURE,
		V4L2_BUF_TYPE_SLICED_VBI_CAPTURE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
		V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_META_CAPTURE, V4L2_BUF_TYPE_PRIVATE, 0,
	};
	struct v4l2_fmtdesc fd;
	struct v4l2_format f;
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(bad_types); i++) {
		struct v4l2_streamparm parm;

		memset(&fd, 0, sizeof(fd));
		fd.type = bad_types[i];
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), -EINVAL, "type %u", bad_types[i]);
		f = mkfmt(bad_types[i], V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY);
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_FMT, &f), -EINVAL, "G type %u", bad_types[i]);
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f), -EINVAL, "TRY type %u", bad_types[i]);
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_S_FMT, &f), -EINVAL, "S type %u", bad_types[i]);
		memset(&parm, 0, sizeof(parm));
		parm.type = bad_types[i];
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &parm), -EINVAL, "G_PARM %u", bad_types[i]);
	}
}

/* QUERYCAP from the profile, with read() offered, and with a driver's identity. */
static void ioctl_querycap(void)
{
	struct v4l2_capability cap;
	const struct negcam_identity id = { "negcam loop 0 output", "platform:negcam-loop-0",
					    V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING };
	const struct negcam_identity bus_only = { NULL, "platform:negcam-3", 0 };

	memset(&cap, 0xff, sizeof(cap));
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_QUERYCAP, &cap), 0, "QUERYCAP");
	CHECK(!strcmp((char *)cap.driver, "negcam") && !strcmp((char *)cap.card, "Card sizes") &&
	      !strcmp((char *)cap.bus_info, "platform:negcam"), "identity");
	CHECK(cap.device_caps == (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_EXT_PIX_FORMAT) &&
	      cap.capabilities == (cap.device_caps | V4L2_CAP_DEVICE_CAPS) && !cap.reserved[0],
	      "caps 0x%x 0x%x", cap.capabilities, cap.device_caps);
	negcam_engine_set_readbuffers(&eng, 2);
	negcam_engine_ioctl(&eng, VIDIOC_QUERYCAP, &cap);
	CHECK(cap.device_caps & V4L2_CAP_READWRITE, "read() offered when the caller has it");
	/* a driver's node: its own card, bus and caps (negcam.ko's loops) */
	memset(&cap, 0xff, sizeof(cap));
	CHECK_EQ(negcam_engine_querycap(&eng, &id, &cap), 0, "QUERYCAP with an identity");
	CHECK(!strcmp((char *)cap.card, "negcam loop 0 output") &&
	      !strcmp((char *)cap.bus_info, "platform:negcam-loop-0") &&
	      cap.device_caps == (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING) &&
	      cap.capabilities == (cap.device_caps | V4L2_CAP_DEVICE_CAPS) && !cap.reserved[0],
	      "the identity's card, bus and caps: %s %s 0x%x", (char *)cap.card,
	      (char *)cap.bus_info, cap.device_caps);
	negcam_engine_querycap(&eng, &bus_only, &cap);
	CHECK(!strcmp((char *)cap.card, "Card sizes") &&
	      !strcmp((char *)cap.bus_info, "platform:negcam-3") &&
	      (cap.device_caps & V4L2_CAP_READWRITE), "a bus alone: the rest from the profile");
}

/* The accessors read what G_FMT and G_PARM answer. */
static void ioctl_accessors(void)
{
	struct v4l2_format g = { .type = CAP };
	struct v4l2_streamparm gp = { .type = CAP };
	const struct v4l2_pix_format *cur;

	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_FMT, &g), 0, "G_FMT");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &gp), 0, "G_PARM");
	cur = negcam_engine_fmt(&eng, NC_CAPTURE);
	CHECK(cur->width == g.fmt.pix.width && cur->height == g.fmt.pix.height &&
	      cur->pixelformat == g.fmt.pix.pixelformat &&
	      cur->sizeimage == g.fmt.pix.sizeimage && cur->field == g.fmt.pix.field,
	      "negcam_engine_fmt is G_FMT's");
	CHECK(negcam_engine_interval(&eng, NC_CAPTURE).numerator ==
		      gp.parm.capture.timeperframe.numerator &&
	      negcam_engine_interval(&eng, NC_CAPTURE).denominator ==
		      gp.parm.capture.timeperframe.denominator,
	      "negcam_engine_interval is G_PARM's");
}

static void test_ioctl_entry(void)
{
	struct v4l2_format f, copy;
	struct v4l2_fmtdesc fd;
	struct v4l2_capability cap;
	static const unsigned long others[] = {
		VIDIOC_REQBUFS, VIDIOC_QBUF, VIDIOC_DQBUF, VIDIOC_STREAMON, VIDIOC_STREAMOFF,
		VIDIOC_G_CTRL, VIDIOC_S_INPUT, VIDIOC_G_SELECTION, 0, 0xdeadbeef,
	};
	__u8 junk[256];
	unsigned int i;

	build_sizes_profile(NC_ADJUST_DOWN);
	negcam_engine_init(&eng, &hp);
	for (i = 0; i < NC_ARRAY_SIZE(others); i++) {
		memset(junk, 0xa5, sizeof(junk));
		CHECK_EQ(negcam_engine_ioctl(&eng, others[i], junk), -ENOTTY, "%s is ENOTTY",
			 negcam_ioctl_name(others[i]));
	}
	CHECK(!strcmp(negcam_ioctl_name(VIDIOC_TRY_FMT), "VIDIOC_TRY_FMT"), "name");
	CHECK(!strcmp(negcam_ioctl_name(VIDIOC_DQBUF), "VIDIOC_DQBUF"), "name");
	CHECK(!strcmp(negcam_ioctl_name(0xdeadbeef), "?"), "unknown name");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_FMT, NULL), -EFAULT, "NULL arg");

	/* An old application: priv is not the magic, extended fields are garbage */
	memset(&f, 0xff, sizeof(f));
	f.type = CAP;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 640;
	f.fmt.pix.height = 480;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f), 0, "TRY with garbage");
	CHECK(f.fmt.pix.priv == V4L2_PIX_FMT_PRIV_MAGIC && f.fmt.pix.flags == 0 &&
	      f.fmt.pix.ycbcr_enc == V4L2_YCBCR_ENC_601, "sanitised like v4l_sanitize_format");
	CHECK(f.fmt.raw_data[sizeof(f.fmt.pix)] == 0, "the union after pix cleared");

	/* The per-operation functions answer what the ioctl answers */
	for (i = 0; i < 50; i++) {
		struct v4l2_format a = mkfmt(CAP, i % 3 ? V4L2_PIX_FMT_YUYV : 0, i * 41, i * 23,
					     i % 5);

		copy = a;
		CHECK_EQ(negcam_engine_try_fmt(&eng, &a), negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &copy),
			 "same status");
		CHECK(!memcmp(&a, &copy, sizeof(a)), "per-op TRY == ioctl TRY (%u)", i);
	}

	/* On error nothing is written back (video_usercopy) */
	negcam_engine_set_busy(&eng, CAP, true);
	f = mkfmt(CAP, V4L2_PIX_FMT_YUYV, 320, 240, V4L2_FIELD_ANY);
	copy = f;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_S_FMT, &f), -EBUSY, "busy");
	CHECK(!memcmp(&f, &copy, sizeof(f)), "failed ioctl leaves the argument alone");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f), 0, "TRY never EBUSY");
	CHECK_EQ(get_fmt(&eng, CAP).width, 640, "busy: still 640 wide");
	negcam_engine_set_busy(&eng, CAP, false);

	ioctl_bad_types();
	ioctl_querycap();
	ioctl_accessors();

	/* ENUM_FMT clears what the kernel clears */
	memset(&fd, 0xff, sizeof(fd));
	fd.index = 0;
	fd.type = CAP;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), 0, "ENUM_FMT");
	CHECK(fd.mbus_code == 0 && fd.reserved[0] == 0 && fd.reserved[2] == 0, "cleared");

	/* A profile with no format at all, and no profile */
	hp_reset("empty", 0, 0);
	negcam_engine_init(&eng, &hp);
	f = mkfmt(CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY);
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_FMT, &f), -EINVAL, "no formats");
	negcam_engine_init(&eng, NULL);
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f), -EINVAL, "no profile");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_QUERYCAP, &cap), 0, "QUERYCAP without profile");
}

/* ------------------------------------------------------------------ */
/* Every built-in profile, every format                               */

static struct negcam_profile bp;

static bool same_pix(const struct v4l2_pix_format *a, const struct v4l2_pix_format *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Check a TRY_FMT answer against the reference for format @f. */
static void check_answer(const struct negcam_profile *p, const struct negcam_format *f,
			 __u32 field, __u32 w, __u32 h, const struct v4l2_pix_format *pix,
			 const char *what)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);
	__u32 rw, rh, bpl, size;

	ref_size(p, f, field, w, h, &rw, &rh);
	CHECK(pix->pixelformat == f->fourcc && pix->width == rw && pix->height == rh &&
	      pix->field == field, "%s %s %s %ux%u -> %s %ux%u field %u, want %ux%u field %u",
	      p->name, what, FOURCC_STR(f->fourcc), w, h, FOURCC_STR(pix->pixelformat),
	      pix->width, pix->height, pix->field, rw, rh, field);
	negcam_fourcc_sizes(fi, rw, rh, f->stride_align, &bpl, &size);
	CHECK(pix->bytesperline == bpl && pix->sizeimage == size, "%s %s: bpl %u size %u",
	      p->name, FOURCC_STR(f->fourcc), pix->bytesperline, pix->sizeimage);
	CHECK(pix->colorspace == f->colorspace && pix->ycbcr_enc == f->ycbcr_enc &&
	      pix->quantization == f->quantization && pix->xfer_func == f->xfer_func &&
	      pix->flags == 0 && pix->priv == V4L2_PIX_FMT_PRIV_MAGIC,
	      "%s %s: colorimetry from the profile", p->name, FOURCC_STR(f->fourcc));
	CHECK(pix->field != V4L2_FIELD_ANY && pix->colorspace && pix->quantization &&
	      pix->xfer_func, "%s: answer complete", p->name);
}

/* TRY, then S on the same request: identical; then G equals S; TRY changed nothing. */
static void try_equals_set(const struct negcam_profile *p, __u32 fourcc, __u32 w, __u32 h,
			   __u32 field)
{
	struct v4l2_pix_format t, s, g, before = get_fmt(&eng, CAP);
	struct v4l2_fract ival = g_ival(&eng, CAP);
	bool no_try = p->quirks & NC_QUIRK_NO_TRY_FMT;
	int rt = try_fmt(&eng, CAP, fourcc, w, h, field, &t);
	int rs;

	g = get_fmt(&eng, CAP);
	CHECK(same_pix(&g, &before) && fract_eq(g_ival(&eng, CAP), ival.numerator, ival.denominator),
	      "%s: TRY_FMT changed the state", p->name);
	rs = set_fmt(&eng, CAP, fourcc, w, h, field, &s);
	if (no_try) {
		CHECK_EQ(rt, -ENOTTY, "%s: no TRY_FMT", p->name);
	} else {
		CHECK(rt == rs && (rt || same_pix(&t, &s)), "%s: TRY (%d) != S (%d) for %s %ux%u",
		      p->name, rt, rs, FOURCC_STR(fourcc), w, h);
	}
	g = get_fmt(&eng, CAP);
	if (!rs)
		CHECK(same_pix(&g, &s), "%s: G after S", p->name);
	else
		CHECK(same_pix(&g, &before), "%s: failed S_FMT changed the state", p->name);
}

/* Oversize -> largest, undersize -> smallest, and other probes. */
static void sweep_probes(const struct negcam_profile *p, const struct negcam_format *f)
{
	static const __u32 probe[][2] = {
		{ 100000, 100000 }, { 1, 1 }, { 0, 0 }, { 641, 479 }, { 1919, 1081 },
		{ 700, 500 }, { 160, 4000 }, { 4000, 100 }, { 0xffffffffu, 0xffffffffu },
	};
	struct v4l2_pix_format pix, big, small;
	bool nearest = p->adjust == NC_ADJUST_NEAREST;
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(probe); i++) {
		int ret = set_fmt(&eng, CAP, f->fourcc, probe[i][0], probe[i][1], V4L2_FIELD_ANY, &pix);

		CHECK_EQ(ret, 0, "%s %s probe %u", p->name, FOURCC_STR(f->fourcc), i);
		check_answer(p, f, f->fields[0], probe[i][0], probe[i][1], &pix, "S_FMT");
		try_equals_set(p, f->fourcc, probe[i][0], probe[i][1], V4L2_FIELD_ANY);
	}
	/* discrete: oversize is the largest size (area down, w + h nearest), undersize the smallest */
	if (ref_is_range(f))
		return;
	set_fmt(&eng, CAP, f->fourcc, 100000, 100000, V4L2_FIELD_ANY, &big);
	set_fmt(&eng, CAP, f->fourcc, 1, 1, V4L2_FIELD_ANY, &small);
	/* compare frames: a buffer of one field holds half the frame's lines */
	if (field_per_buffer(f->fields[0])) {
		big.height *= 2;
		small.height *= 2;
	}
	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];
		uint64_t a = nearest ? s->min_w + s->min_h : (uint64_t)s->min_w * s->min_h;

		CHECK(a <= (nearest ? big.width + big.height : (uint64_t)big.width * big.height),
		      "%s: oversize is the largest", p->name);
		CHECK(a >= (nearest ? small.width + small.height :
			    (uint64_t)small.width * small.height),
		      "%s: undersize is the smallest", p->name);
	}
}

/* Deterministic pseudo-random requests. */
static void sweep_random(const struct negcam_profile *p, const struct negcam_format *f)
{
	struct v4l2_pix_format pix;
	unsigned int k;
	__u32 seed;

	for (k = 0, seed = 12345; k < 300; k++) {
		__u32 w, h;

		seed = seed * 1103515245u + 12345u;
		w = (seed >> 8) % 2200;
		seed = seed * 1103515245u + 12345u;
		h = (seed >> 8) % 1300;
		if (try_fmt(&eng, CAP, f->fourcc, w, h, V4L2_FIELD_ANY, &pix) == -ENOTTY)
			set_fmt(&eng, CAP, f->fourcc, w, h, V4L2_FIELD_ANY, &pix);
		check_answer(p, f, f->fields[0], w, h, &pix, "random");
		if (k % 10 == 0)
			try_equals_set(p, f->fourcc, w, h, V4L2_FIELD_ANY);
	}
}

/* Fields: each listed one is kept, ANY gives the first, others per quirk. */
static void sweep_fields(const struct negcam_profile *p, const struct negcam_format *f)
{
	bool legacy = p->quirks & NC_QUIRK_LEGACY_EINVAL;
	__u32 field0 = f->fields[0];
	struct v4l2_pix_format pix, before;
	unsigned int i;

	for (i = 0; i < f->nfields; i++) {
		CHECK_EQ(set_fmt(&eng, CAP, f->fourcc, 640, 480, f->fields[i], &pix), 0, "field");
		CHECK_EQ(pix.field, f->fields[i], "%s: field %u kept", p->name, f->fields[i]);
		check_answer(p, f, f->fields[i], 640, 480, &pix, "field");
	}
	for (__u32 fl = V4L2_FIELD_NONE; fl <= V4L2_FIELD_INTERLACED_BT + 1; fl++) {
		bool listed = memchr(f->fields, (int)fl, f->nfields) != NULL;
		int ret;

		if (listed)
			continue;
		before = get_fmt(&eng, CAP);
		ret = set_fmt(&eng, CAP, f->fourcc, 640, 480, fl, &pix);
		if (legacy) {
			CHECK_EQ(ret, -EINVAL, "%s: impossible field %u", p->name, fl);
			pix = get_fmt(&eng, CAP);
			CHECK(same_pix(&pix, &before), "%s: unchanged after EINVAL", p->name);
		} else {
			CHECK(ret == 0 && pix.field == field0, "%s: field %u -> first", p->name, fl);
		}
		try_equals_set(p, f->fourcc, 640, 480, fl);
	}
}

/* A range's corners and one step in are kept; *@w x *@h the step in. */
static void sweep_range_corners(const struct negcam_profile *p, const struct negcam_format *f,
				const struct v4l2_frmsizeenum *fs, __u32 *w, __u32 *h)
{
	const struct negcam_size *s = &p->sizes[f->size_first];
	__u32 field0 = f->fields[0];
	struct v4l2_pix_format pix;
	unsigned int j;

	CHECK(ref_is_range(f) && fs->stepwise.min_width == s->min_w &&
	      fs->stepwise.max_height == s->max_h, "%s: range", p->name);
	CHECK((fs->type == V4L2_FRMSIZE_TYPE_CONTINUOUS) ==
	      (fs->stepwise.step_width == 1 && fs->stepwise.step_height == 1),
	      "continuous exactly when the step is 1");
	for (j = 0; j < 3; j++) {
		*w = j == 0 ? fs->stepwise.min_width : j == 1 ? fs->stepwise.max_width :
		     fs->stepwise.min_width + fs->stepwise.step_width;
		*h = j == 0 ? fs->stepwise.min_height : j == 1 ? fs->stepwise.max_height :
		     fs->stepwise.min_height + fs->stepwise.step_height;
		set_fmt(&eng, CAP, f->fourcc, *w, fmt_height(field0, *h), V4L2_FIELD_ANY, &pix);
		CHECK(pix.width == *w && pix.height == fmt_height(field0, *h),
		      "%s: range size %ux%u kept", p->name, *w, *h);
	}
}

/*
 * Size @i of @f into *@w x *@h: as ENUM_FRAMESIZES enumerates it (checked
 * against the profile), or from the profile under no-enum-framesizes.
 * False past the last size.
 */
static bool sweep_size_at(const struct negcam_profile *p, const struct negcam_format *f,
			  unsigned int i, __u32 *w, __u32 *h)
{
	struct v4l2_frmsizeenum fs;
	int ret;

	memset(&fs, 0, sizeof(fs));
	fs.index = i;
	fs.pixel_format = f->fourcc;
	if (p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES) {
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMESIZES, &fs), -ENOTTY, "quirk");
		if (i >= f->size_count)
			return false;
		*w = p->sizes[f->size_first + i].min_w;
		*h = p->sizes[f->size_first + i].min_h;
		return true;
	}
	ret = negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMESIZES, &fs);
	if (ret) {
		CHECK_EQ(ret, -EINVAL, "past the end");
		CHECK_EQ(i, ref_is_range(f) ? 1 : f->size_count, "%s %s: size count",
			 p->name, FOURCC_STR(f->fourcc));
		return false;
	}
	if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
		sweep_range_corners(p, f, &fs, w, h);
		return true;
	}
	*w = fs.discrete.width;
	*h = fs.discrete.height;
	CHECK(!ref_is_range(f) && *w == p->sizes[f->size_first + i].min_w &&
	      *h == p->sizes[f->size_first + i].min_h, "discrete size %u", i);
	return true;
}

/* Every interval enumerated for @w x @h is accepted by S_PARM; then the end. */
static void sweep_size_intervals(const struct negcam_profile *p, const struct negcam_format *f,
				 __u32 w, __u32 h)
{
	struct v4l2_frmivalenum fi;
	unsigned int j;

	for (j = 0;; j++) {
		struct v4l2_streamparm parm;
		struct v4l2_fract want;
		int ret;

		memset(&fi, 0, sizeof(fi));
		fi.index = j;
		fi.pixel_format = f->fourcc;
		fi.width = w;
		fi.height = h;
		ret = negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
		if (p->quirks & NC_QUIRK_NO_ENUM_FRAMEINTERVALS) {
			CHECK_EQ(ret, -ENOTTY, "quirk");
			break;
		}
		if (ret) {
			const struct negcam_size *s = ref_size_entry(p, f, w, h);

			CHECK_EQ(ret, -EINVAL, "past the end");
			CHECK_EQ(j, s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE ? s->ival_count : 1,
				 "%s: interval count", p->name);
			break;
		}
		want = fi.type == V4L2_FRMIVAL_TYPE_DISCRETE ? fi.discrete : fi.stepwise.max;
		s_parm(&eng, CAP, want.numerator, want.denominator, &parm);
		CHECK(fract_eq(parm.parm.capture.timeperframe, want.numerator, want.denominator),
		      "%s %s %ux%u: interval %u/%u accepted", p->name, FOURCC_STR(f->fourcc), w, h,
		      want.numerator, want.denominator);
		if (fi.type != V4L2_FRMIVAL_TYPE_DISCRETE) {
			want = fi.stepwise.min;
			s_parm(&eng, CAP, want.numerator, want.denominator, &parm);
			CHECK(fract_eq(parm.parm.capture.timeperframe, want.numerator,
				       want.denominator), "range minimum accepted");
		}
	}
	/* a size off the list has no intervals */
	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = f->fourcc;
	fi.width = w + 1;
	fi.height = h;
	if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMEINTERVALS))
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -EINVAL,
			 "%s: size %ux%u not in the profile", p->name, w + 1, h);
}

/* Every enumerated size comes back unchanged, with its intervals. */
static void sweep_sizes(const struct negcam_profile *p, const struct negcam_format *f)
{
	__u32 field0 = f->fields[0];
	struct v4l2_frmsizeenum fs;
	struct v4l2_pix_format pix;
	unsigned int i;
	__u32 w, h;

	for (i = 0; sweep_size_at(p, f, i, &w, &h); i++) {
		/* a frame size: its format height is a field's when a buffer holds one */
		const struct negcam_size *s;
		struct v4l2_fract cur, ref;

		CHECK_EQ(set_fmt(&eng, CAP, f->fourcc, w, fmt_height(field0, h), V4L2_FIELD_ANY, &pix),
			 0, "S_FMT");
		CHECK(pix.width == w && pix.height == fmt_height(field0, h),
		      "%s %s: size %ux%u accepted as is, got %ux%u", p->name, FOURCC_STR(f->fourcc), w,
		      h, pix.width, pix.height);
		/* the current interval is one of this size's */
		s = ref_size_entry(p, f, w, h);
		cur = g_ival(&eng, CAP);
		ref = ref_interval(p, s, cur);
		CHECK(fract_eq(cur, ref.numerator, ref.denominator),
		      "%s: interval %u/%u supported at %ux%u", p->name, cur.numerator,
		      cur.denominator, w, h);
		sweep_size_intervals(p, f, w, h);
	}
	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = v4l2_fourcc('N', 'O', 'P', 'E');
	if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES))
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FRAMESIZES, &fs), -EINVAL, "unknown");
}

/* EBUSY while busy, TRY still answers, nothing changes. */
static void sweep_busy(const struct negcam_profile *p, const struct negcam_format *f)
{
	struct v4l2_pix_format pix, before;

	set_fmt(&eng, CAP, f->fourcc, 1, 1, V4L2_FIELD_ANY, &pix);
	before = get_fmt(&eng, CAP);
	negcam_engine_set_busy(&eng, CAP, true);
	CHECK_EQ(set_fmt(&eng, CAP, f->fourcc, 100000, 100000, V4L2_FIELD_ANY, &pix), -EBUSY,
		 "%s: EBUSY", p->name);
	CHECK_EQ(set_fmt(&eng, CAP, f->fourcc, 1, 1, V4L2_FIELD_ANY, &pix), -EBUSY,
		 "%s: EBUSY even for the same format", p->name);
	if (!(p->quirks & NC_QUIRK_NO_TRY_FMT))
		CHECK_EQ(try_fmt(&eng, CAP, f->fourcc, 100000, 100000, V4L2_FIELD_ANY, &pix), 0,
			 "%s: TRY while busy", p->name);
	pix = get_fmt(&eng, CAP);
	CHECK(same_pix(&pix, &before), "%s: busy state unchanged", p->name);
	negcam_engine_set_busy(&eng, CAP, false);
}

/* One format of a built-in, every request kind in turn. */
static void sweep_format(const struct negcam_profile *p, const struct negcam_format *f)
{
	sweep_probes(p, f);
	sweep_random(p, f);
	sweep_fields(p, f);
	sweep_sizes(p, f);
	sweep_busy(p, f);
}

static void sweep_profile(const struct negcam_builtin *b)
{
	struct negcam_parse_error err;
	const struct negcam_profile *p = &bp;
	const struct negcam_format *def;
	struct v4l2_pix_format pix, before;
	struct v4l2_fmtdesc fd;
	unsigned int i, n = 0;
	int ret;

	ret = negcam_profile_parse(&bp, b->text, (__u32)strlen(b->text), &err);
	CHECK_EQ(ret, 0, "built-in %s parses: %u:%u %s", b->name, err.line, err.column, err.message);
	if (ret)
		return;
	negcam_engine_init(&eng, p);

	/* The start: the default format, complete */
	def = ref_default_format(p, NC_CAPTURE);
	pix = get_fmt(&eng, CAP);
	CHECK(def && pix.pixelformat == def->fourcc, "%s: starts on the default", b->name);
	if (def)
		check_answer(p, def, def->fields[0], p->def[NC_CAPTURE].width,
			     fmt_height(def->fields[0], p->def[NC_CAPTURE].height), &pix, "G_FMT");
	{
		struct v4l2_streamparm parm;

		memset(&parm, 0, sizeof(parm));
		parm.type = CAP;
		eng.readbuffers = 3;
		CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &parm), 0, "G_PARM");
		CHECK(fract_eq(parm.parm.capture.timeperframe, p->def[0].interval.numerator,
			       p->def[0].interval.denominator), "%s: the default interval", b->name);
		CHECK_EQ(parm.parm.capture.capability,
			 (p->quirks & NC_QUIRK_FIXED_RATE) ? 0 : V4L2_CAP_TIMEPERFRAME, "capability");
		CHECK_EQ(parm.parm.capture.readbuffers, 3, "readbuffers");
		eng.readbuffers = 0;
	}

	/* ENUM_FMT: exactly the profile's capture formats, in order, no duplicates */
	for (i = 0;; i++) {
		const struct negcam_fourcc_info *fi;

		memset(&fd, 0, sizeof(fd));
		fd.index = i;
		fd.type = CAP;
		if (negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd))
			break;
		while (n < p->nformats && p->formats[n].buf_type != CAP)
			n++;
		CHECK(n < p->nformats && fd.pixelformat == p->formats[n].fourcc, "%s: format %u",
		      b->name, i);
		CHECK(ref_find(p, NC_CAPTURE, fd.pixelformat) != NULL, "%s: listed", b->name);
		fi = negcam_fourcc_lookup(fd.pixelformat);
		CHECK(fi && !strcmp((char *)fd.description, fi->description) &&
		      !!(fd.flags & V4L2_FMT_FLAG_COMPRESSED) == (fi->layout == NC_LAYOUT_COMPRESSED),
		      "%s: description and flags of %s", b->name, FOURCC_STR(fd.pixelformat));
		for (__u32 j = 0; j < i; j++) {
			struct v4l2_fmtdesc o = { .index = j, .type = CAP };

			negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &o);
			CHECK(o.pixelformat != fd.pixelformat, "%s: duplicate", b->name);
		}
		n++;
	}
	CHECK(i > 0, "%s has formats", b->name);
	fd.index = 1000;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), -EINVAL, "far past the end");
	fd.index = 0;
	fd.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), -EINVAL, "overlay");

	for (i = 0; i < p->nformats; i++)
		if (p->formats[i].buf_type == CAP)
			sweep_format(p, &p->formats[i]);

	/* An unknown fourcc: the default format today, EINVAL in 2007 */
	before = get_fmt(&eng, CAP);
	ret = set_fmt(&eng, CAP, v4l2_fourcc('N', 'O', 'P', 'E'), 640, 480, V4L2_FIELD_ANY, &pix);
	if (p->quirks & NC_QUIRK_LEGACY_EINVAL) {
		CHECK_EQ(ret, -EINVAL, "%s: unknown fourcc", b->name);
		pix = get_fmt(&eng, CAP);
		CHECK(same_pix(&pix, &before), "%s: atomic failure", b->name);
	} else {
		CHECK_EQ(ret, 0, "%s: unknown fourcc corrected", b->name);
		check_answer(p, def, def->fields[0], 640, 480, &pix, "unknown fourcc");
	}
	try_equals_set(p, v4l2_fourcc('N', 'O', 'P', 'E'), 640, 480, V4L2_FIELD_ANY);
}

/* Fields the built-ins do not use: one field a buffer (height in field lines). */
static const struct negcam_builtin field_profiles[] = {
	{ "alternate-tv", "",
	  "name alternate-tv\ndefault NV12 720x576 fps 50\nfield alternate interlaced\n"
	  "format UYVY\n  size 720x576 fps 25\n  size 720x480 fps 30000/1001\n"
	  "format NV12\n  size 720x576 fps 25 50\n  size 352x288 fps 25\n" },
	{ "field-range", "",
	  "name field-range\nadjust nearest\nfield top bottom alternate\n"
	  "format NV12\n  size 64x64-1920x1080 step 16x8 fps 1-60\n"
	  "format YUYV\n  size 48x32-1280x722 step 2x2 fps 30 15\n"
	  "format YU12\n  size 32x32-1920x1088 step 4x4 interval 1/60-1/1 step 1/60\n" },
};

static void test_builtins(void)
{
	const struct negcam_builtin *b;
	unsigned int i;

	for (i = 0; (b = negcam_builtin_at(i)); i++)
		sweep_profile(b);
	for (b = field_profiles; b < field_profiles + NC_ARRAY_SIZE(field_profiles); b++)
		sweep_profile(b);
	CHECK(i >= 4, "at least four built-in profiles (%u)", i);
	CHECK(negcam_builtin_find("webcam") && negcam_builtin_find("tv-tuner"), "named ones");
}

/* The issue's own examples, on the built-in profiles */
static void test_builtin_examples(void)
{
	struct negcam_parse_error err;
	struct v4l2_pix_format pix;
	const struct negcam_builtin *b;

	b = negcam_builtin_find("webcam");
	if (b && !negcam_profile_parse(&bp, b->text, (__u32)strlen(b->text), &err)) {
		negcam_engine_init(&eng, &bp);
		try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 100000, 100000, V4L2_FIELD_ANY, &pix);
		CHECK(pix.width == 1920 && pix.height == 1080, "webcam YUYV oversize: %ux%u",
		      pix.width, pix.height);
		try_fmt(&eng, CAP, V4L2_PIX_FMT_MJPEG, 1280, 720, V4L2_FIELD_ANY, &pix);
		CHECK(pix.bytesperline == 0 && pix.sizeimage >= 1280 * 720 * 2, "MJPG bound");
	}
	b = negcam_builtin_find("vga");
	if (b && !negcam_profile_parse(&bp, b->text, (__u32)strlen(b->text), &err)) {
		negcam_engine_init(&eng, &bp);
		try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 1024, 768, V4L2_FIELD_ANY, &pix);
		CHECK(pix.width == 640 && pix.height == 480, "the seed's VGA device");
	}
	b = negcam_builtin_find("stepwise");
	if (b && !negcam_profile_parse(&bp, b->text, (__u32)strlen(b->text), &err)) {
		struct v4l2_streamparm parm;

		negcam_engine_init(&eng, &bp);
		try_fmt(&eng, CAP, V4L2_PIX_FMT_NV12, 1000, 999, V4L2_FIELD_ANY, &pix);
		/* 48 + 16k <= 1000: 992; 32 + 8k <= 999: 992 */
		CHECK(pix.width == 992 && pix.height == 992, "stepwise NV12 1000x999: %ux%u",
		      pix.width, pix.height);
		CHECK(pix.bytesperline == 992 && pix.sizeimage == 992 * 992 * 3 / 2, "NV12 sizes");
		s_parm(&eng, CAP, 1001, 30000, &parm);
		CHECK(fract_eq(parm.parm.capture.timeperframe, 1001, 30000), "continuous 29.97");
	}
	b = negcam_builtin_find("tv-tuner");
	if (b && !negcam_profile_parse(&bp, b->text, (__u32)strlen(b->text), &err)) {
		negcam_engine_init(&eng, &bp);
		CHECK_EQ(try_fmt(&eng, CAP, V4L2_PIX_FMT_YUYV, 720, 576, V4L2_FIELD_ANY, &pix), -EINVAL,
			 "tv-tuner: 2007 EINVAL");
		set_fmt(&eng, CAP, V4L2_PIX_FMT_UYVY, 720, 480, V4L2_FIELD_ANY, &pix);
		CHECK(fract_eq(g_ival(&eng, CAP), 1001, 30000), "NTSC rate follows the NTSC size");
	}
}

/* ---- ENUM_FMT CSC flags and V4L2_PIX_FMT_FLAG_SET_CSC ---- */

static struct negcam_profile cscp;

static struct v4l2_pix_format csc_try(struct negcam_engine *e, unsigned long req, __u32 fourcc,
				      __u32 flags, __u32 cs, __u32 enc, __u32 quant, __u32 xfer)
{
	struct v4l2_format f = mkfmt(CAP, fourcc, 640, 480, V4L2_FIELD_ANY);

	f.fmt.pix.flags = flags;
	f.fmt.pix.colorspace = cs;
	f.fmt.pix.ycbcr_enc = enc;
	f.fmt.pix.quantization = quant;
	f.fmt.pix.xfer_func = xfer;
	CHECK_EQ(negcam_engine_ioctl(e, req, &f), 0, "%s with CSC", negcam_ioctl_name(req));
	return f.fmt.pix;
}

#define CHECK_CSC(p, fl, cs, enc, q, x, why)                                           \
	do {                                                                            \
		CHECK_EQ((p).flags, fl, "%s: flags", why);                              \
		CHECK_EQ((p).colorspace, cs, "%s: colorspace", why);                    \
		CHECK_EQ((p).ycbcr_enc, enc, "%s: ycbcr_enc", why);                     \
		CHECK_EQ((p).quantization, q, "%s: quantization", why);                 \
		CHECK_EQ((p).xfer_func, x, "%s: xfer_func", why);                       \
	} while (0)

static void test_csc(void)
{
	static const char text[] =
		"name csc\n"
		"format YUYV\n flags csc-colorspace csc-xfer-func csc-ycbcr-enc csc-quantization\n"
		" size 640x480 fps 30\n"
		"format RGB3\n flags csc-quantization\n size 640x480 fps 30\n"
		"format GREY\n size 640x480 fps 30\n"
		"format HSV3\n flags csc-hsv\n size 640x480 fps 30\n"
		"format MJPG\n size 640x480 fps 30\n";
	const __u32 SET = V4L2_PIX_FMT_FLAG_SET_CSC;
	struct negcam_parse_error err;
	struct v4l2_pix_format p, g;
	struct v4l2_fmtdesc fd;
	struct v4l2_format f;
	struct negcam_engine e;
	static const __u32 want_flags[] = {
		V4L2_FMT_FLAG_CSC_COLORSPACE | V4L2_FMT_FLAG_CSC_XFER_FUNC |
			V4L2_FMT_FLAG_CSC_YCBCR_ENC | V4L2_FMT_FLAG_CSC_QUANTIZATION,
		V4L2_FMT_FLAG_CSC_QUANTIZATION, 0, V4L2_FMT_FLAG_CSC_HSV_ENC,
		V4L2_FMT_FLAG_COMPRESSED,
	};
	unsigned int i;

	if (negcam_profile_parse(&cscp, text, sizeof(text) - 1, &err)) {
		CHECK(0, "csc profile: %u:%u: %s", err.line, err.column, err.message);
		return;
	}
	negcam_engine_init(&e, &cscp);

	/* ENUM_FMT reports what the profile states */
	for (i = 0; i < 5; i++) {
		memset(&fd, 0, sizeof(fd));
		fd.type = CAP;
		fd.index = i;
		CHECK_EQ(negcam_engine_ioctl(&e, VIDIOC_ENUM_FMT, &fd), 0, "ENUM_FMT %u", i);
		CHECK_EQ(fd.flags, want_flags[i], "ENUM_FMT %u flags", i);
	}

	/* no SET_CSC: the profile's colorimetry, whatever is asked */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, 0, V4L2_COLORSPACE_REC709,
		    V4L2_YCBCR_ENC_709, V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_709);
	CHECK_CSC(p, 0, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "YUYV without SET_CSC");
	/* SET_CSC on a format with all four flags: every valid value kept */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, V4L2_COLORSPACE_REC709,
		    V4L2_YCBCR_ENC_709, V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_709);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
		  V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_709, "YUYV SET_CSC");
	/* DEFAULT fields keep what is received; one field alone changes */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, 0, 0,
		    V4L2_QUANTIZATION_FULL_RANGE, 0);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
		  V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_SRGB, "YUYV quantization only");
	/* invalid values are corrected to the profile's */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, 200, 99, 7, 99);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "YUYV invalid values");
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, V4L2_COLORSPACE_BT878,
		    V4L2_HSV_ENC_180, 0, 0);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "YUYV deprecated BT878, HSV encoding on Y'CbCr");
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, V4L2_COLORSPACE_JPEG, 0, 0, 0);
	CHECK_EQ(p.colorspace, V4L2_COLORSPACE_SRGB, "JPEG colorspace refused for YUYV");
	/* only the flagged fields convert */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_RGB24, SET, V4L2_COLORSPACE_REC709,
		    V4L2_YCBCR_ENC_709, V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_709);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "RGB3: quantization only");
	/* no CSC flag: SET_CSC is cleared */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_GREY, SET, V4L2_COLORSPACE_REC709,
		    V4L2_YCBCR_ENC_709, V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_709);
	CHECK_CSC(p, 0, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "GREY: no conversion");
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_MJPEG, SET, V4L2_COLORSPACE_REC709, 0, 0, 0);
	CHECK_EQ(p.flags, 0u, "MJPG: SET_CSC cleared");
	/* HSV: the hue encoding */
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_HSV24, SET, 0, V4L2_HSV_ENC_256, 0, 0);
	CHECK_CSC(p, SET, V4L2_COLORSPACE_SRGB, V4L2_HSV_ENC_256, V4L2_QUANTIZATION_FULL_RANGE,
		  V4L2_XFER_FUNC_SRGB, "HSV3 hsv_enc 256");
	p = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_HSV24, SET, 0, V4L2_YCBCR_ENC_709, 0, 0);
	CHECK_EQ(p.ycbcr_enc, V4L2_HSV_ENC_180, "HSV3: a Y'CbCr encoding is no hue encoding");

	/* S_FMT answers as TRY_FMT and G_FMT then reports it */
	g = csc_try(&e, VIDIOC_TRY_FMT, V4L2_PIX_FMT_YUYV, SET, V4L2_COLORSPACE_BT2020,
		    V4L2_YCBCR_ENC_BT2020, 0, V4L2_XFER_FUNC_709);
	p = csc_try(&e, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, SET, V4L2_COLORSPACE_BT2020,
		    V4L2_YCBCR_ENC_BT2020, 0, V4L2_XFER_FUNC_709);
	CHECK(!memcmp(&p, &g, sizeof(p)), "S_FMT with SET_CSC = TRY_FMT");
	g = get_fmt(&e, CAP);
	CHECK(!memcmp(&p, &g, sizeof(p)), "G_FMT after S_FMT with SET_CSC");
	p = csc_try(&e, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 0, 0, 0, 0, 0);
	CHECK_CSC(p, 0, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601, V4L2_QUANTIZATION_LIM_RANGE,
		  V4L2_XFER_FUNC_SRGB, "S_FMT without SET_CSC restores the profile's");

	/* an application without PRIV_MAGIC has its flags zeroed by the core */
	f = mkfmt(CAP, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_ANY);
	f.fmt.pix.priv = 0;
	f.fmt.pix.flags = SET;
	f.fmt.pix.colorspace = V4L2_COLORSPACE_REC709;
	CHECK_EQ(negcam_engine_ioctl(&e, VIDIOC_TRY_FMT, &f), 0, "TRY_FMT no magic");
	CHECK_CSC(f.fmt.pix, 0, V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_601,
		  V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_SRGB, "no PRIV_MAGIC");
}

/* ---- multiplanar profiles ---- */

#define CAP_MP V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE

static const char mp_text[] =
	"name mp\nmultiplanar\n"
	"format NV12\n size 640x480 fps 30\n size 320x240 fps 30\n"
	"format NM12\n size 640x480 fps 30\n size 320x240 fps 30\n"
	"format YM12\n size 32x16-800x600 step 8x8 fps 30\n"
	"format MJPG\n size 640x480 fps 30\n"
	"format RGB3 output\n size 640x480 fps 30\n";
static struct negcam_profile mp_prof, sp_prof;

/* mkfmt()'s request on the multiplanar capture queue. */
static struct v4l2_format mkfmt_mp(__u32 fourcc, __u32 w, __u32 h)
{
	struct v4l2_format f = mkfmt(CAP, fourcc, w, h, V4L2_FIELD_ANY);
	struct v4l2_pix_format pix = f.fmt.pix;

	f.type = CAP_MP;
	negcam_pix_to_mp(&pix, &f.fmt.pix_mp);
	return f;
}

static bool planes_are(const struct v4l2_pix_format_mplane *mp, unsigned int n,
		       const __u32 *bpl_size)
{
	unsigned int i;

	if (mp->num_planes != n)
		return false;
	for (i = 0; i < n; i++)
		if (mp->plane_fmt[i].bytesperline != bpl_size[2 * i] ||
		    mp->plane_fmt[i].sizeimage != bpl_size[2 * i + 1])
			return false;
	return true;
}

/* QUERYCAP, ENUM_FMT, G_PARM: the multiplanar types only. */
static void mp_types(void)
{
	struct v4l2_capability cap;
	struct v4l2_fmtdesc fd = { .type = CAP };
	struct v4l2_streamparm parm = { .type = CAP };

	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_QUERYCAP, &cap), 0, "mp: QUERYCAP");
	CHECK((cap.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) &&
	      (cap.device_caps & V4L2_CAP_VIDEO_OUTPUT_MPLANE) &&
	      !(cap.device_caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT)),
	      "mp: device caps are the multiplanar ones (0x%x)", cap.device_caps);
	CHECK_EQ(negcam_engine_buf_type(&mp_prof, NC_CAPTURE), CAP_MP, "mp: capture type");
	CHECK_EQ(negcam_engine_buf_type(&sp_prof, NC_OUTPUT), OUT, "sp: output type");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd), -EINVAL, "mp: no sp formats");
	fd.type = CAP_MP;
	fd.index = 1;
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_ENUM_FMT, &fd) &&
	      fd.pixelformat == V4L2_PIX_FMT_NV12M, "mp: ENUM_FMT lists the profile's formats");
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &parm), -EINVAL, "mp: no sp G_PARM");
	parm.type = CAP_MP;
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &parm) &&
	      parm.parm.capture.timeperframe.denominator == 30, "mp: G_PARM");
	parm.type = V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_G_PARM, &parm), "mp: output G_PARM");
}

/* G/TRY/S_FMT: planes per format, the same corrections as single-planar. */
static void mp_formats(void)
{
	static const __u32 nv12[] = { 640, 460800 }, nm12[] = { 640, 307200, 640, 153600 },
			   ym12[] = { 648, 311040, 324, 77760, 324, 77760 };
	static const __u32 asks[][3] = {
		{ V4L2_PIX_FMT_NV12, 700, 500 }, { V4L2_PIX_FMT_NV12M, 330, 250 },
		{ V4L2_PIX_FMT_YUV420M, 650, 481 }, { V4L2_PIX_FMT_YUYV, 1, 1 },
		{ V4L2_PIX_FMT_MJPEG, 640, 480 }, { V4L2_PIX_FMT_YUV420M, 9999, 9999 },
	};
	struct negcam_engine sp;
	struct v4l2_format f = mkfmt_mp(0, 0, 0), s;
	unsigned int i;

	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_G_FMT, &f) &&
	      planes_are(&f.fmt.pix_mp, 1, nv12), "mp: G_FMT NV12 has one plane");
	f = mkfmt_mp(V4L2_PIX_FMT_NV12M, 641, 481);
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f) &&
	      planes_are(&f.fmt.pix_mp, 2, nm12), "mp: NM12 has two planes");
	f = mkfmt_mp(V4L2_PIX_FMT_YUV420M, 650, 481);
	f.fmt.pix_mp.num_planes = 200; /* the core clamps it */
	f.fmt.pix_mp.plane_fmt[0].reserved[0] = 7;
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_S_FMT, &f) && f.fmt.pix_mp.width == 648 &&
	      planes_are(&f.fmt.pix_mp, 3, ym12) && !f.fmt.pix_mp.plane_fmt[0].reserved[0],
	      "mp: YM12 has three planes, snapped to the step (%ux%u)", f.fmt.pix_mp.width,
	      f.fmt.pix_mp.height);
	s = mkfmt_mp(0, 0, 0);
	CHECK(!negcam_engine_ioctl(&eng, VIDIOC_G_FMT, &s) && !memcmp(&s, &f, sizeof(s)),
	      "mp: G_FMT answers what S_FMT set");
	f = mkfmt(CAP, V4L2_PIX_FMT_NV12, 640, 480, V4L2_FIELD_ANY);
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_S_FMT, &f), -EINVAL, "mp: no sp S_FMT");
	negcam_engine_set_busy(&eng, CAP_MP, true);
	f = mkfmt_mp(V4L2_PIX_FMT_NV12, 640, 480);
	CHECK_EQ(negcam_engine_ioctl(&eng, VIDIOC_S_FMT, &f), -EBUSY, "mp: busy S_FMT");
	negcam_engine_set_busy(&eng, CAP_MP, false);
	/* the single-planar twin corrects every request alike */
	negcam_engine_init(&sp, &sp_prof);
	for (i = 0; i < NC_ARRAY_SIZE(asks); i++) {
		struct v4l2_pix_format pix;

		f = mkfmt_mp(asks[i][0], asks[i][1], asks[i][2]);
		s = mkfmt(CAP, asks[i][0], asks[i][1], asks[i][2], V4L2_FIELD_ANY);
		CHECK(!negcam_engine_ioctl(&eng, VIDIOC_TRY_FMT, &f) &&
		      !negcam_engine_ioctl(&sp, VIDIOC_TRY_FMT, &s), "mp: TRY %u", i);
		negcam_pix_from_mp(&pix, &f.fmt.pix_mp);
		pix.sizeimage = s.fmt.pix.sizeimage; /* the planes' sum, checked above */
		CHECK(!memcmp(&pix, &s.fmt.pix, sizeof(pix)), "mp: TRY %u as single-planar", i);
	}
}

/* The generator writes an 'M' format's planes into their own buffers. */
static void mp_framegen(void)
{
	static __u8 whole[460800], y[307200], uv[153600];
	struct v4l2_pix_format pix = { .width = 640, .height = 480,
				       .pixelformat = V4L2_PIX_FMT_NV12M, .bytesperline = 640,
				       .sizeimage = 460800 };
	void *bufs[2] = { y, uv };
	__u32 sizes[2] = { sizeof(y), sizeof(uv) }, used[2] = { 0, 0 };

	CHECK_EQ(negcam_framegen_draw(&pix, 0, 5, NC_FRAME_NONE, whole, sizeof(whole)),
		 460800, "NM12 drawn whole");
	CHECK_EQ(negcam_framegen_draw_planes(&pix, 0, 5, 5 * NC_SCENE_TICK_NS, NC_FRAME_NONE, 0,
					     bufs, sizes, 2, used), 460800, "NM12 drawn in planes");
	CHECK(used[0] == 307200 && used[1] == 153600 && !memcmp(whole, y, sizeof(y)) &&
	      !memcmp(whole + sizeof(y), uv, sizeof(uv)), "NM12 planes are the contiguous bytes");
	sizes[1] = 1000;
	CHECK_EQ(negcam_framegen_draw_planes(&pix, 0, 5, 0, NC_FRAME_NONE, 0, bufs, sizes, 2,
					     used), -ENOSPC, "NM12: short chroma buffer");
	pix.pixelformat = V4L2_PIX_FMT_NV12;
	CHECK_EQ(negcam_framegen_draw_planes(&pix, 0, 5, 0, NC_FRAME_NONE, 0, bufs, sizes, 2,
					     used), -EINVAL, "NV12 has no buffer per plane");
}

static void test_multiplanar(void)
{
	struct negcam_parse_error err;

	CHECK(!negcam_profile_parse(&mp_prof, mp_text, sizeof(mp_text) - 1, &err),
	      "mp profile: %s", err.message);
	/* its single-planar twin */
	memcpy(&sp_prof, &mp_prof, sizeof(sp_prof));
	sp_prof.multiplanar = 0;
	negcam_engine_init(&eng, &mp_prof);
	mp_types();
	mp_formats();
	mp_framegen();
}

int main(void)
{
	test_multiplanar();
	test_fourcc_table();
	test_adjust_down_vs_nearest();
	test_stepwise_rounding();
	test_intervals();
	test_quirks();
	test_output_queue();
	test_framesizes_per_queue();
	test_ioctl_entry();
	test_csc();
	test_builtins();
	test_builtin_examples();
	return check_done("test_engine");
}
