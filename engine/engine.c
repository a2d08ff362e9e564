// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The negotiation engine: the format logic of a V4L2 capture driver,
 * driven by a profile. The rules are documented in docs/engine.md; in
 * short, TRY_FMT corrects a request to something the profile offers,
 * S_FMT is TRY_FMT plus a busy check plus an atomic commit, and the
 * frame interval follows the frame size. These are the per-operation
 * functions negcam.ko calls; engine-ioctl.c wraps them in the kernel
 * ioctl core's steps for user space (negcam_engine_ioctl).
 *
 * Integer arithmetic only. Frame intervals are compared exactly: products
 * of two 32-bit terms fit 64 bits, and the few places that need more use
 * the 128-bit helpers of fract.c (no libgcc division on 32-bit kernels).
 */
#include "engine.h"
#include "formats.h"
#include "fract.h"

#define NC_DRIVER_NAME "negcam"
#define NC_BUS_INFO "platform:negcam"

/* ------------------------------------------------------------------ */
/* Profile lookups                                                    */

/* A fourcc missing from the table ('format FOURCC opaque') is negcam_fourcc_opaque. */
static const struct negcam_fourcc_info *nc_info(const struct negcam_format *f)
{
	return negcam_fourcc_info_of(f->fourcc);
}

static bool nc_format_on(const struct negcam_format *f, int q)
{
	return negcam_queue_of(f->buf_type) == q;
}

/* The @index-th format of queue @q, in profile order. */
static const struct negcam_format *nc_format_at(const struct negcam_profile *p,
						int q, __u32 index)
{
	unsigned int i;

	if (!p || q < 0)
		return NULL;
	for (i = 0; i < p->nformats && i < NC_MAX_FORMATS; i++) {
		if (!nc_format_on(&p->formats[i], q))
			continue;
		if (index-- == 0)
			return &p->formats[i];
	}
	return NULL;
}

static const struct negcam_format *nc_find_format(const struct negcam_profile *p,
						  int q, __u32 fourcc)
{
	unsigned int i;

	if (!p || q < 0)
		return NULL;
	for (i = 0; i < p->nformats && i < NC_MAX_FORMATS; i++)
		if (nc_format_on(&p->formats[i], q) && p->formats[i].fourcc == fourcc)
			return &p->formats[i];
	return NULL;
}

/* The profile's default format of queue @q, else its first one. */
static const struct negcam_format *nc_default_format(const struct negcam_profile *p,
						     int q)
{
	const struct negcam_format *f;

	if (!p || q < 0)
		return NULL;
	f = nc_find_format(p, q, p->def[q].fourcc);
	return f ? f : nc_format_at(p, q, 0);
}

__u32 negcam_engine_buf_type(const struct negcam_profile *p, int q)
{
	bool mp = p && p->multiplanar;

	if (q == NC_OUTPUT)
		return mp ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT;
	return mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

/*
 * Queue index of @buf_type when it is the type of the profile's planes
 * (single- or multiplanar) and the profile has formats there, else -1.
 */
static int nc_queue(const struct negcam_engine *e, __u32 buf_type)
{
	int q = negcam_queue_of_any(buf_type);

	if (q < 0 || negcam_engine_buf_type(e->profile, q) != buf_type ||
	    !nc_format_at(e->profile, q, 0))
		return -1;
	return q;
}

/* Size entries of a format, bounded by the pool. */
static const struct negcam_size *nc_size_at(const struct negcam_profile *p,
					    const struct negcam_format *f,
					    unsigned int i)
{
	unsigned int idx = (unsigned int)f->size_first + i;

	if (i >= f->size_count || idx >= p->nsizes || idx >= NC_MAX_SIZES)
		return NULL;
	return &p->sizes[idx];
}

static const struct negcam_interval *nc_ival_at(const struct negcam_profile *p,
						const struct negcam_size *s,
						unsigned int i)
{
	unsigned int idx = (unsigned int)s->ival_first + i;

	if (i >= s->ival_count || idx >= p->nintervals || idx >= NC_MAX_INTERVALS)
		return NULL;
	return &p->intervals[idx];
}

static bool nc_is_range(const struct negcam_format *f)
{
	return f->size_kind == V4L2_FRMSIZE_TYPE_STEPWISE ||
	       f->size_kind == V4L2_FRMSIZE_TYPE_CONTINUOUS;
}

static __u32 nc_step(__u32 step, bool continuous)
{
	return (continuous || step == 0) ? 1 : step;
}

/*
 * Fields whose buffers hold one field (TOP, BOTTOM, ALTERNATE): there the
 * format's height counts the lines of one field, half the frame height
 * that sizes (ENUM_FRAMESIZES, the profile) are given in, as vivid does.
 */
static bool nc_field_per_buffer(__u32 field)
{
	return field == V4L2_FIELD_TOP || field == V4L2_FIELD_BOTTOM ||
	       field == V4L2_FIELD_ALTERNATE;
}

/* The frame height of a format height @h in @field (saturating). */
static __u32 nc_frame_height(__u32 field, __u32 h)
{
	if (!nc_field_per_buffer(field))
		return h;
	return h > 0x7fffffffu ? 0xffffffffu : h * 2;
}

/* The format height of a frame height @h in @field. */
static __u32 nc_buffer_height(__u32 field, __u32 h)
{
	return nc_field_per_buffer(field) ? h / 2 : h;
}

/* Whether w x h is one of the format's sizes (stepwise: in range and on a step). */
static bool nc_size_has(const struct negcam_format *f, const struct negcam_size *s,
			__u32 w, __u32 h)
{
	bool cont = f->size_kind == V4L2_FRMSIZE_TYPE_CONTINUOUS;
	__u32 sw = nc_step(s->step_w, cont), sh = nc_step(s->step_h, cont);

	if (!nc_is_range(f))
		return w == s->min_w && h == s->min_h;
	return w >= s->min_w && w <= s->max_w && h >= s->min_h && h <= s->max_h &&
	       (w - s->min_w) % sw == 0 && (h - s->min_h) % sh == 0;
}

static const struct negcam_size *nc_size_lookup(const struct negcam_profile *p,
						const struct negcam_format *f,
						__u32 w, __u32 h)
{
	const struct negcam_size *s;
	unsigned int i;

	for (i = 0; (s = nc_size_at(p, f, i)); i++) {
		if (nc_size_has(f, s, w, h))
			return s;
		if (nc_is_range(f))
			break; /* a range format has one size entry */
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Size adjustment                                                    */

/* Whether candidate @c beats @best as an adjustment of @v. */
static bool nc_dim_better(__u32 c, __u32 best, __u32 v, bool nearest)
{
	if (nearest) {
		__u32 dc = c > v ? c - v : v - c, db = best > v ? best - v : v - best;

		return dc < db || (dc == db && c > best);
	}
	/* downward: the largest value <= v, else the smallest above it */
	if (c <= v)
		return best > v || c > best;
	return best > v && c < best;
}

/*
 * One dimension of a range: clamp @v into [min, max] and round it to a
 * value min + k * step that is also a multiple of the chroma subsampling
 * @sub. Valid values recur at most every @sub steps, so looking @sub steps
 * either side of the clamped value finds the best one.
 */
static __u32 nc_snap_dim(__u32 v, __u32 min, __u32 max, __u32 step, __u32 sub,
			 bool nearest)
{
	__u32 k, kmax, best = 0;
	bool found = false;
	__s64 i, kk;

	if (max < min)
		max = min;
	if (!sub)
		sub = 1;
	v = v < min ? min : v > max ? max : v;
	kmax = (max - min) / step;
	k = (v - min) / step;
	for (i = -(__s64)sub; i <= (__s64)sub; i++) {
		__u32 c;

		kk = (__s64)k + i;
		if (kk < 0 || kk > kmax)
			continue;
		c = min + (__u32)kk * step;
		if (c % sub)
			continue;
		if (!found || nc_dim_better(c, best, v, nearest)) {
			best = c;
			found = true;
		}
	}
	/* No value honours the subsampling: the profile is inconsistent; keep the step. */
	return found ? best : min + k * step;
}

static __u64 nc_absdiff(__u32 a, __u32 b)
{
	return a > b ? a - b : b - a;
}

/* Downward (the seed): the largest size inside the request, else the smallest. */
static const struct negcam_size *nc_pick_down(const struct negcam_profile *p,
					      const struct negcam_format *f,
					      __u32 w, __u32 h)
{
	const struct negcam_size *s, *fit = NULL, *small = NULL;
	unsigned int i;

	for (i = 0; (s = nc_size_at(p, f, i)); i++) {
		__u64 area = (__u64)s->min_w * s->min_h;

		if (s->min_w <= w && s->min_h <= h &&
		    (!fit || area > (__u64)fit->min_w * fit->min_h ||
		     (area == (__u64)fit->min_w * fit->min_h && s->min_w > fit->min_w)))
			fit = s;
		if (!small || area < (__u64)small->min_w * small->min_h ||
		    (area == (__u64)small->min_w * small->min_h && s->min_w < small->min_w))
			small = s;
	}
	return fit ? fit : small;
}

/* Nearest, as v4l2_find_nearest_size(): least |dw| + |dh|, the later entry on a tie. */
static const struct negcam_size *nc_pick_nearest(const struct negcam_profile *p,
						 const struct negcam_format *f,
						 __u32 w, __u32 h)
{
	const struct negcam_size *s, *best = NULL;
	__u64 err, min_err = ~0ull;
	unsigned int i;

	for (i = 0; (s = nc_size_at(p, f, i)); i++) {
		err = nc_absdiff(s->min_w, w) + nc_absdiff(s->min_h, h);
		if (err > min_err)
			continue;
		min_err = err;
		best = s;
		if (!err)
			break;
	}
	return best;
}


/* Adjust *w x *h to a size of @f; returns its size entry (NULL: no sizes). */
static const struct negcam_size *nc_pick_size(const struct negcam_profile *p,
					      const struct negcam_format *f,
					      __u32 field, __u32 *w, __u32 *h)
{
	const struct negcam_fourcc_info *fi = nc_info(f);
	bool nearest = p->adjust == NC_ADJUST_NEAREST;
	const struct negcam_size *s;

	if (nc_is_range(f)) {
		bool cont = f->size_kind == V4L2_FRMSIZE_TYPE_CONTINUOUS;
		__u32 vsub = fi->vsub * (nc_field_per_buffer(field) ? 2 : 1);

		s = nc_size_at(p, f, 0);
		if (!s)
			return NULL;
		*w = nc_snap_dim(*w, s->min_w, s->max_w, nc_step(s->step_w, cont),
				 fi->hsub, nearest);
		*h = nc_snap_dim(*h, s->min_h, s->max_h, nc_step(s->step_h, cont),
				 vsub, nearest);
		return s;
	}
	s = nearest ? nc_pick_nearest(p, f, *w, *h) : nc_pick_down(p, f, *w, *h);
	if (s) {
		*w = s->min_w;
		*h = s->min_h;
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Field and colorimetry                                              */

static __u32 nc_default_field(const struct negcam_format *f)
{
	if (!f->nfields || f->fields[0] == V4L2_FIELD_ANY)
		return V4L2_FIELD_NONE;
	return f->fields[0];
}

/* The requested field if the format has it, else its first (EINVAL under the 2007 quirk). */
static int nc_pick_field(const struct negcam_format *f, __u32 want, bool legacy,
			 __u32 *field)
{
	unsigned int i;

	*field = nc_default_field(f);
	if (want == V4L2_FIELD_ANY)
		return 0;
	for (i = 0; i < f->nfields && i < NC_MAX_FIELDS; i++) {
		if (f->fields[i] == want) {
			*field = want;
			return 0;
		}
	}
	if (!f->nfields && want == V4L2_FIELD_NONE)
		return 0;
	return legacy ? -EINVAL : 0;
}

static void nc_format_colorimetry(const struct negcam_format *f,
				  struct v4l2_pix_format *pix)
{
	__u32 cs, enc, quant, xfer;

	negcam_fourcc_colorimetry(nc_info(f), &cs, &enc, &quant, &xfer);
	pix->colorspace = f->colorspace ? f->colorspace : cs;
	pix->ycbcr_enc = f->ycbcr_enc ? f->ycbcr_enc : enc;
	pix->quantization = f->quantization ? f->quantization : quant;
	pix->xfer_func = f->xfer_func ? f->xfer_func : xfer;
}

static bool nc_colorspace_valid(__u32 cs)
{
	/* BT878 is deprecated: v4l2-compliance fails a driver that reports it */
	return cs >= V4L2_COLORSPACE_SMPTE170M && cs <= V4L2_COLORSPACE_DCI_P3 &&
	       cs != V4L2_COLORSPACE_BT878;
}

/*
 * Capture with V4L2_PIX_FMT_FLAG_SET_CSC: the application asks for a
 * colorimetry. Each field whose CSC flag the format has (ENUM_FMT) takes
 * the requested value when valid; DEFAULT and invalid values keep the
 * format's. The flag stays set in the answer only when the format offers
 * some conversion, as a driver without the CSC API clears it.
 */
static void nc_capture_csc(const struct negcam_format *f,
			   const struct v4l2_pix_format *req,
			   struct v4l2_pix_format *pix)
{
	const struct negcam_fourcc_info *fi = nc_info(f);
	__u32 csc = f->flags & (V4L2_FMT_FLAG_CSC_COLORSPACE | V4L2_FMT_FLAG_CSC_XFER_FUNC |
				V4L2_FMT_FLAG_CSC_YCBCR_ENC | V4L2_FMT_FLAG_CSC_QUANTIZATION);

	if (!(req->flags & V4L2_PIX_FMT_FLAG_SET_CSC) || !csc)
		return;
	pix->flags = V4L2_PIX_FMT_FLAG_SET_CSC;
	/* JPEG colorspace only for JFIF data, as v4l2-compliance checks */
	if ((csc & V4L2_FMT_FLAG_CSC_COLORSPACE) && nc_colorspace_valid(req->colorspace) &&
	    (req->colorspace != V4L2_COLORSPACE_JPEG || fi->fourcc == V4L2_PIX_FMT_JPEG))
		pix->colorspace = req->colorspace;
	if ((csc & V4L2_FMT_FLAG_CSC_XFER_FUNC) && req->xfer_func &&
	    req->xfer_func <= V4L2_XFER_FUNC_SMPTE2084)
		pix->xfer_func = req->xfer_func;
	if (csc & V4L2_FMT_FLAG_CSC_YCBCR_ENC) {
		if (fi->color == NC_COLOR_OTHER) {
			if (req->ycbcr_enc == V4L2_HSV_ENC_180 || req->ycbcr_enc == V4L2_HSV_ENC_256)
				pix->ycbcr_enc = req->ycbcr_enc;
		} else if (req->ycbcr_enc && req->ycbcr_enc <= V4L2_YCBCR_ENC_SMPTE240M) {
			pix->ycbcr_enc = req->ycbcr_enc;
		}
	}
	if ((csc & V4L2_FMT_FLAG_CSC_QUANTIZATION) &&
	    (req->quantization == V4L2_QUANTIZATION_FULL_RANGE ||
	     req->quantization == V4L2_QUANTIZATION_LIM_RANGE))
		pix->quantization = req->quantization;
}

/*
 * Output queue: the application says what it sends. Keep a valid
 * colorspace and fill the other three from it where they are unset.
 */
static void nc_output_colorimetry(const struct negcam_format *f,
				  const struct v4l2_pix_format *req,
				  struct v4l2_pix_format *pix)
{
	const struct negcam_fourcc_info *fi = nc_info(f);
	bool rgb = fi->color == NC_COLOR_RGB || fi->color == NC_COLOR_OTHER ||
		   fi->color == NC_COLOR_BAYER;
	__u32 cs = req->colorspace;

	if (!nc_colorspace_valid(cs)) {
		nc_format_colorimetry(f, pix);
		return;
	}
	pix->colorspace = cs;
	pix->xfer_func = (req->xfer_func && req->xfer_func <= V4L2_XFER_FUNC_SMPTE2084) ?
			 req->xfer_func : V4L2_MAP_XFER_FUNC_DEFAULT(cs);
	if (fi->color == NC_COLOR_OTHER)
		pix->ycbcr_enc = (req->ycbcr_enc == V4L2_HSV_ENC_180 ||
				  req->ycbcr_enc == V4L2_HSV_ENC_256) ?
				 req->ycbcr_enc : V4L2_HSV_ENC_180;
	else
		pix->ycbcr_enc = (req->ycbcr_enc && req->ycbcr_enc <= V4L2_YCBCR_ENC_SMPTE240M) ?
				 req->ycbcr_enc : V4L2_MAP_YCBCR_ENC_DEFAULT(cs);
	pix->quantization = (req->quantization == V4L2_QUANTIZATION_FULL_RANGE ||
			     req->quantization == V4L2_QUANTIZATION_LIM_RANGE) ?
			    req->quantization :
			    V4L2_MAP_QUANTIZATION_DEFAULT(rgb, cs, pix->ycbcr_enc);
}

/* ------------------------------------------------------------------ */
/* The one format adjustment TRY_FMT and S_FMT share                  */

/*
 * Correct @req (a pix format of queue @q) to what the profile offers,
 * into @out; @req is not modified. Returns the size entry of the answer
 * through @size, or a negative errno (only under the 2007 quirk, or when
 * the queue has no format).
 */
static int nc_adjust(const struct negcam_profile *p, int q,
		     const struct v4l2_pix_format *req, struct v4l2_pix_format *out,
		     const struct negcam_size **size)
{
	bool legacy = p->quirks & NC_QUIRK_LEGACY_EINVAL;
	const struct negcam_format *f = nc_find_format(p, q, req->pixelformat);
	struct v4l2_pix_format pix;
	const struct negcam_size *s;
	__u32 field, w = req->width, h;
	int ret;

	if (!f) {
		if (legacy)
			return -EINVAL;
		f = nc_default_format(p, q);
		if (!f)
			return -EINVAL;
	}
	ret = nc_pick_field(f, req->field, legacy, &field);
	if (ret)
		return ret;
	h = nc_frame_height(field, req->height);
	s = nc_pick_size(p, f, field, &w, &h);
	if (!s)
		return -EINVAL;

	memset(&pix, 0, sizeof(pix));
	pix.width = w;
	pix.height = nc_buffer_height(field, h);
	pix.pixelformat = f->fourcc;
	pix.field = field;
	negcam_fourcc_sizes(nc_info(f), w, pix.height, f->stride_align, &pix.bytesperline,
			    &pix.sizeimage);
	/* the profile's 'sizeimage': a floor, an opaque format's whole size */
	if (f->sizeimage > pix.sizeimage ||
	    (f->sizeimage && nc_info(f)->layout == NC_LAYOUT_OPAQUE))
		pix.sizeimage = f->sizeimage;
	if (q == NC_OUTPUT) {
		nc_output_colorimetry(f, req, &pix);
	} else {
		nc_format_colorimetry(f, &pix);
		nc_capture_csc(f, req, &pix);
	}
	pix.priv = req->priv; /* the kernel core owns priv */
	*out = pix;
	*size = s;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Frame intervals                                                    */

/* Nearest point of a stepwise interval range (ties: the shorter interval). */
static struct v4l2_fract nc_snap_stepwise(const struct negcam_interval *iv,
					  struct v4l2_fract t)
{
	struct nc_u128 k, kmax, rem, den, two_rem;
	struct v4l2_fract out;

	if (!nc_fract_valid(iv->step))
		return t;
	kmax = nc_fract_steps(iv->max, iv->min, iv->step, &rem, &den);
	k = nc_fract_steps(t, iv->min, iv->step, &rem, &den);
	two_rem = nc_u128_shl1(rem);
	if (nc_u128_cmp(two_rem, den) > 0)
		k = nc_u128_add(k, nc_u128_from(1));
	if (nc_u128_cmp(k, kmax) > 0)
		k = kmax;
	if (!nc_fract_at_step(iv->min, iv->step, k, &out))
		return iv->min; /* not expressible in 32 bits: the range's start */
	return out;
}

/* One interval entry's answer to @t (already known valid). */
static struct v4l2_fract nc_snap_range(const struct negcam_size *s,
				       const struct negcam_interval *iv,
				       struct v4l2_fract t)
{
	if (!nc_fract_valid(iv->min) || nc_fract_cmp(t, iv->min) <= 0)
		return iv->min;
	if (nc_fract_valid(iv->max) && nc_fract_cmp(t, iv->max) >= 0)
		return iv->max;
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_CONTINUOUS)
		return t;
	return nc_snap_stepwise(iv, t);
}

/*
 * The supported interval of size entry @s nearest to @want: the first
 * listed one for 0/1, 1/0 and 0/0; exact fraction comparisons, the first
 * listed wins a tie. @cur when the size lists no intervals.
 */
static struct v4l2_fract nc_snap_interval(const struct negcam_profile *p,
					  const struct negcam_size *s,
					  struct v4l2_fract want,
					  struct v4l2_fract cur)
{
	const struct negcam_interval *iv, *first;
	struct v4l2_fract best;
	unsigned int i;

	first = s ? nc_ival_at(p, s, 0) : NULL;
	if (!first)
		return cur;
	if (!nc_fract_valid(want))
		return first->min;
	if (s->ival_kind != V4L2_FRMIVAL_TYPE_DISCRETE)
		return nc_snap_range(s, first, want);
	best = first->min;
	for (i = 1; (iv = nc_ival_at(p, s, i)); i++)
		if (nc_fract_nearer(want, iv->min, best))
			best = iv->min;
	return best;
}

/* The size entry of the current format of queue @q. */
static const struct negcam_size *nc_current_size(const struct negcam_engine *e, int q)
{
	const struct negcam_format *f;

	f = nc_find_format(e->profile, q, e->fmt[q].pixelformat);
	if (!f)
		return NULL;
	return nc_size_lookup(e->profile, f, e->fmt[q].width,
			      nc_frame_height(e->fmt[q].field, e->fmt[q].height));
}

/* ------------------------------------------------------------------ */
/* State                                                              */

static void nc_reset_queue(struct negcam_engine *e, int q)
{
	const struct negcam_profile *p = e->profile;
	const struct negcam_format *f = nc_default_format(p, q);
	const struct negcam_size *s;
	struct v4l2_pix_format req;

	memset(&e->fmt[q], 0, sizeof(e->fmt[q]));
	e->interval[q] = nc_fract(0, 0);
	if (!f)
		return;
	memset(&req, 0, sizeof(req));
	req.pixelformat = f->fourcc;
	req.width = p->def[q].width;
	req.field = V4L2_FIELD_ANY;
	req.height = nc_buffer_height(nc_default_field(f), p->def[q].height);
	if (nc_adjust(p, q, &req, &e->fmt[q], &s))
		return;
	e->interval[q] = nc_snap_interval(p, s, p->def[q].interval,
					  p->def[q].interval);
}

void negcam_engine_init(struct negcam_engine *e, const struct negcam_profile *p)
{
	int q;

	memset(e, 0, sizeof(*e));
	e->profile = p;
	for (q = 0; q < NC_NQUEUES; q++)
		nc_reset_queue(e, q);
}

int negcam_engine_set_profile(struct negcam_engine *e, const struct negcam_profile *p)
{
	__u32 readbuffers = e->readbuffers;

	if (e->busy)
		return -EBUSY;
	negcam_engine_init(e, p);
	e->readbuffers = readbuffers;
	return 0;
}

void negcam_engine_present(struct negcam_engine *e, const struct negcam_profile *p)
{
	e->profile = p;
}

void negcam_engine_set_readbuffers(struct negcam_engine *e, __u32 n)
{
	e->readbuffers = n;
}

const struct v4l2_pix_format *negcam_engine_fmt(const struct negcam_engine *e, int q)
{
	return &e->fmt[q];
}

struct v4l2_fract negcam_engine_interval(const struct negcam_engine *e, int q)
{
	return e->interval[q];
}

void negcam_engine_set_busy(struct negcam_engine *e, __u32 buf_type, bool busy)
{
	int q = negcam_queue_of_any(buf_type);

	if (q < 0)
		return;
	if (busy)
		e->busy |= 1u << q;
	else
		e->busy &= ~(1u << q);
}

/* ------------------------------------------------------------------ */
/* Per-operation entry points                                         */

static void nc_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = 0;

	while (n + 1 < size && src[n]) {
		dst[n] = src[n];
		n++;
	}
	memset(dst + n, 0, size - n);
}

int negcam_engine_querycap(const struct negcam_engine *e, const struct negcam_identity *id,
			   struct v4l2_capability *cap)
{
	const struct negcam_profile *p = e->profile;
	const char *card = p && p->card[0] ? p->card : p && p->name[0] ? p->name : NC_DRIVER_NAME;
	bool mp = p && p->multiplanar;
	__u32 caps = V4L2_CAP_STREAMING;

	if (nc_format_at(p, NC_CAPTURE, 0))
		caps |= mp ? V4L2_CAP_VIDEO_CAPTURE_MPLANE : V4L2_CAP_VIDEO_CAPTURE;
	if (nc_format_at(p, NC_OUTPUT, 0))
		caps |= mp ? V4L2_CAP_VIDEO_OUTPUT_MPLANE : V4L2_CAP_VIDEO_OUTPUT;
	if (e->readbuffers)
		caps |= V4L2_CAP_READWRITE;
	memset(cap, 0, sizeof(*cap));
	nc_strlcpy((char *)cap->driver, NC_DRIVER_NAME, sizeof(cap->driver));
	nc_strlcpy((char *)cap->card, id && id->card ? id->card : card, sizeof(cap->card));
	nc_strlcpy((char *)cap->bus_info, id && id->bus_info ? id->bus_info : NC_BUS_INFO,
		   sizeof(cap->bus_info));
	cap->version = LINUX_VERSION_CODE;
	cap->device_caps = id && id->device_caps ? id->device_caps : caps;
	cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
	return 0;
}

int negcam_engine_enum_fmt(const struct negcam_engine *e, struct v4l2_fmtdesc *f)
{
	int q = nc_queue(e, f->type);
	const struct negcam_format *fmt;
	const struct negcam_fourcc_info *fi;
	__u32 index = f->index, type = f->type;

	if (q < 0)
		return -EINVAL;
	fmt = nc_format_at(e->profile, q, index);
	if (!fmt)
		return -EINVAL;
	fi = negcam_fourcc_lookup(fmt->fourcc);
	memset(f, 0, sizeof(*f));
	f->index = index;
	f->type = type;
	f->pixelformat = fmt->fourcc;
	f->flags = fmt->flags;
	if (fi && fi->layout == NC_LAYOUT_COMPRESSED)
		f->flags |= V4L2_FMT_FLAG_COMPRESSED;
	/* The kernel core overwrites the description of every fourcc it knows. */
	if (fi)
		nc_strlcpy((char *)f->description, fi->description, sizeof(f->description));
	else if (fmt->description[0])
		nc_strlcpy((char *)f->description, fmt->description, sizeof(f->description));
	else
		negcam_fourcc_str(fmt->fourcc, (char *)f->description);
	return 0;
}

/* ---- multiplanar formats: the engine's single-planar one, in planes ---- */

/* The fields both format structs have, under the same names. */
#define NC_COMMON_FIELDS(X) \
	X(width) X(height) X(pixelformat) X(field) X(colorspace) X(ycbcr_enc) \
	X(quantization) X(xfer_func) X(flags)
#define NC_TO_SP(name) sp->name = mp->name;
#define NC_TO_MP(name) mp->name = (__typeof__(mp->name))sp->name;

void negcam_pix_from_mp(struct v4l2_pix_format *sp, const struct v4l2_pix_format_mplane *mp)
{
	memset(sp, 0, sizeof(*sp));
	NC_COMMON_FIELDS(NC_TO_SP)
	sp->bytesperline = mp->num_planes ? mp->plane_fmt[0].bytesperline : 0;
	sp->priv = V4L2_PIX_FMT_PRIV_MAGIC;
}

unsigned int negcam_pix_planes(const struct v4l2_pix_format *pix, bool multiplanar,
			       struct negcam_plane_size p[NC_MAX_PLANES])
{
	if (!multiplanar) {
		p[0].bytesperline = pix->bytesperline;
		p[0].sizeimage = pix->sizeimage;
		return 1;
	}
	return negcam_fourcc_planes(negcam_fourcc_info_of(pix->pixelformat), pix->bytesperline,
				    pix->height, pix->sizeimage, p);
}

void negcam_pix_to_mp(const struct v4l2_pix_format *sp, struct v4l2_pix_format_mplane *mp)
{
	struct negcam_plane_size p[NC_MAX_PLANES];
	unsigned int i;

	memset(mp, 0, sizeof(*mp));
	NC_COMMON_FIELDS(NC_TO_MP)
	mp->num_planes = (__u8)negcam_pix_planes(sp, true, p);
	for (i = 0; i < mp->num_planes; i++) {
		mp->plane_fmt[i].bytesperline = p[i].bytesperline;
		mp->plane_fmt[i].sizeimage = p[i].sizeimage;
	}
}

int negcam_engine_g_fmt(const struct negcam_engine *e, struct v4l2_format *f)
{
	int q = nc_queue(e, f->type);
	__u32 priv;

	if (q < 0)
		return -EINVAL;
	if (negcam_buf_type_mp(f->type)) {
		negcam_pix_to_mp(&e->fmt[q], &f->fmt.pix_mp);
		return 0;
	}
	priv = f->fmt.pix.priv;
	f->fmt.pix = e->fmt[q];
	f->fmt.pix.priv = priv;
	return 0;
}

int negcam_engine_try_fmt(const struct negcam_engine *e, struct v4l2_format *f)
{
	const struct negcam_size *s;
	int q;

	if (negcam_engine_no_try_fmt(e))
		return -ENOTTY;
	q = nc_queue(e, f->type);
	if (q < 0)
		return -EINVAL;
	if (negcam_buf_type_mp(f->type)) {
		struct v4l2_pix_format pix;
		int ret;

		negcam_pix_from_mp(&pix, &f->fmt.pix_mp);
		ret = nc_adjust(e->profile, q, &pix, &pix, &s);
		if (!ret)
			negcam_pix_to_mp(&pix, &f->fmt.pix_mp);
		return ret;
	}
	return nc_adjust(e->profile, q, &f->fmt.pix, &f->fmt.pix, &s);
}

int negcam_engine_s_fmt(struct negcam_engine *e, struct v4l2_format *f)
{
	const struct negcam_size *s;
	struct v4l2_pix_format pix;
	struct v4l2_fract ival;
	int q = nc_queue(e, f->type);
	bool mp = negcam_buf_type_mp(f->type);
	int ret;

	if (q < 0)
		return -EINVAL;
	if (mp)
		negcam_pix_from_mp(&pix, &f->fmt.pix_mp);
	ret = nc_adjust(e->profile, q, mp ? &pix : &f->fmt.pix, &pix, &s);
	if (ret)
		return ret;
	if (mp)
		negcam_pix_to_mp(&pix, &f->fmt.pix_mp);
	else
		f->fmt.pix = pix;
	if (e->busy & (1u << q))
		return -EBUSY;
	ival = nc_snap_interval(e->profile, s, e->interval[q], e->interval[q]);
	/* Commit: nothing can fail past this point. */
	e->fmt[q] = pix;
	e->fmt[q].priv = 0;
	e->interval[q] = ival;
	return 0;
}

/*
 * The format of @fourcc on queue @q, else on the other queue: frame sizes
 * carry no buffer type, so a node answers from its own queue first.
 */
static const struct negcam_format *nc_any_format(const struct negcam_engine *e,
						 int q, __u32 fourcc)
{
	const struct negcam_format *f = nc_find_format(e->profile, q, fourcc);

	return f ? f : nc_find_format(e->profile, q == NC_CAPTURE ? NC_OUTPUT : NC_CAPTURE,
				      fourcc);
}

int negcam_engine_enum_framesizes(const struct negcam_engine *e, int q,
				  struct v4l2_frmsizeenum *fs)
{
	const struct negcam_format *f;
	const struct negcam_size *s;
	__u32 index = fs->index, fourcc = fs->pixel_format;
	bool cont;

	if (e->profile && (e->profile->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES))
		return -ENOTTY;
	f = nc_any_format(e, q, fourcc);
	if (!f || (nc_is_range(f) && index > 0))
		return -EINVAL;
	s = nc_size_at(e->profile, f, index);
	if (!s)
		return -EINVAL;
	memset(fs, 0, sizeof(*fs));
	fs->index = index;
	fs->pixel_format = fourcc;
	if (!nc_is_range(f)) {
		fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		fs->discrete.width = s->min_w;
		fs->discrete.height = s->min_h;
		return 0;
	}
	/* as the profile says: a Stepwise range with step 1x1 stays Stepwise */
	cont = f->size_kind == V4L2_FRMSIZE_TYPE_CONTINUOUS;
	fs->type = cont ? V4L2_FRMSIZE_TYPE_CONTINUOUS : V4L2_FRMSIZE_TYPE_STEPWISE;
	fs->stepwise.min_width = s->min_w;
	fs->stepwise.max_width = s->max_w;
	fs->stepwise.step_width = nc_step(s->step_w, cont);
	fs->stepwise.min_height = s->min_h;
	fs->stepwise.max_height = s->max_h;
	fs->stepwise.step_height = nc_step(s->step_h, cont);
	return 0;
}

int negcam_engine_enum_frameintervals(const struct negcam_engine *e, int q,
				      struct v4l2_frmivalenum *fi)
{
	const struct negcam_format *f;
	const struct negcam_size *s;
	const struct negcam_interval *iv;
	__u32 index = fi->index, fourcc = fi->pixel_format;
	__u32 w = fi->width, h = fi->height;

	if (e->profile && (e->profile->quirks & NC_QUIRK_NO_ENUM_FRAMEINTERVALS))
		return -ENOTTY;
	f = nc_any_format(e, q, fourcc);
	s = f ? nc_size_lookup(e->profile, f, w, h) : NULL;
	if (!s || (s->ival_kind != V4L2_FRMIVAL_TYPE_DISCRETE && index > 0))
		return -EINVAL;
	iv = nc_ival_at(e->profile, s, index);
	if (!iv)
		return -EINVAL;
	memset(fi, 0, sizeof(*fi));
	fi->index = index;
	fi->pixel_format = fourcc;
	fi->width = w;
	fi->height = h;
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
		fi->discrete = iv->min;
		return 0;
	}
	fi->type = s->ival_kind == V4L2_FRMIVAL_TYPE_CONTINUOUS ?
		   V4L2_FRMIVAL_TYPE_CONTINUOUS : V4L2_FRMIVAL_TYPE_STEPWISE;
	fi->stepwise.min = iv->min;
	fi->stepwise.max = iv->max;
	fi->stepwise.step = fi->type == V4L2_FRMIVAL_TYPE_CONTINUOUS ?
			    nc_fract(1, 1) : iv->step;
	return 0;
}

/* Fill a G_PARM/S_PARM answer for queue @q: everything but the type. */
static void nc_fill_parm(const struct negcam_engine *e, int q,
			 struct v4l2_streamparm *p)
{
	__u32 type = p->type;
	__u32 cap = (e->profile->quirks & NC_QUIRK_FIXED_RATE) ? 0 : V4L2_CAP_TIMEPERFRAME;

	memset(p, 0, sizeof(*p));
	p->type = type;
	if (q == NC_OUTPUT) {
		p->parm.output.capability = cap;
		p->parm.output.timeperframe = e->interval[q];
		p->parm.output.writebuffers = e->readbuffers;
	} else {
		p->parm.capture.capability = cap;
		p->parm.capture.timeperframe = e->interval[q];
		p->parm.capture.readbuffers = e->readbuffers;
	}
}

int negcam_engine_g_parm(const struct negcam_engine *e, struct v4l2_streamparm *p)
{
	int q = nc_queue(e, p->type);

	if (q < 0)
		return -EINVAL;
	nc_fill_parm(e, q, p);
	return 0;
}

int negcam_engine_s_parm(struct negcam_engine *e, struct v4l2_streamparm *p)
{
	int q = nc_queue(e, p->type);
	struct v4l2_fract want;

	if (q < 0)
		return -EINVAL;
	want = q == NC_OUTPUT ? p->parm.output.timeperframe :
				p->parm.capture.timeperframe;
	if (!(e->profile->quirks & NC_QUIRK_FIXED_RATE))
		e->interval[q] = nc_snap_interval(e->profile, nc_current_size(e, q),
						  want, e->interval[q]);
	nc_fill_parm(e, q, p);
	return 0;
}
