// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The size lines of a format: one discrete size a line, or a range (with
 * an optional step) as the format's only size, each checked against the
 * format's chroma subsampling and field list; the rate clause that ends
 * the line is parse-rates.c's.
 */
#include "parse-private.h"

/* What the field list asks of a frame height. */
enum nc_rows {
	NC_ROWS_ANY,   /* progressive only */
	NC_ROWS_EVEN,  /* interlaced: two fields of equal height */
	NC_ROWS_FIELD, /* a buffer may hold one field: it needs whole chroma lines */
};

static enum nc_rows nc_fields_rows(const struct nc_settings *s)
{
	enum nc_rows rows = NC_ROWS_ANY;
	__u32 i;

	for (i = 0; i < s->nfields; i++) {
		__u32 fl = s->fields[i];

		if (fl == V4L2_FIELD_TOP || fl == V4L2_FIELD_BOTTOM ||
		    fl == V4L2_FIELD_ALTERNATE)
			return NC_ROWS_FIELD;
		if (fl != V4L2_FIELD_NONE)
			rows = NC_ROWS_EVEN;
	}
	return rows;
}

/*
 * One dimension of a size: 1..NC_MAX_DIM, a multiple of the chroma
 * subsampling @sub and, as @rows says for heights, of 2 (interlaced
 * frames hold two fields of equal height) or of 2 * @sub (a field alone
 * in a buffer holds whole chroma lines).
 */
static int nc_check_dim(struct nc_parser *p, const struct nc_tok *t,
			const char *what, __u32 v, __u32 sub, enum nc_rows rows)
{
	struct nc_strbuf m;

	if (v >= 1 && v <= NC_MAX_DIM && v % sub == 0 && (rows == NC_ROWS_ANY || v % 2 == 0) &&
	    (rows != NC_ROWS_FIELD || v % (2 * sub) == 0))
		return 0;
	m = nc_error(p, t->col);
	nc_sb_str(&m, "size ");
	nc_msg_token(&m, t);
	nc_sb_str(&m, ": ");
	nc_sb_str(&m, what);
	nc_sb_char(&m, ' ');
	nc_sb_uint(&m, v);
	if (v == 0) {
		nc_sb_str(&m, " must be at least 1");
	} else if (v > NC_MAX_DIM) {
		nc_sb_str(&m, " exceeds the maximum ");
		nc_sb_uint(&m, NC_MAX_DIM);
	} else if (v % sub) {
		nc_sb_str(&m, " is not a multiple of ");
		nc_sb_uint(&m, sub);
		nc_sb_str(&m, ", the chroma subsampling of ");
		nc_msg_fourcc(&m, p->cur_fi->fourcc);
	} else if (v % 2) {
		nc_sb_str(&m, " is odd, but an interlaced field list needs an even frame height");
	} else {
		nc_sb_str(&m, " is not a multiple of ");
		nc_sb_uint(&m, 2 * sub);
		nc_sb_str(&m, ": one field a buffer (top, bottom, alternate) needs whole chroma lines of ");
		nc_msg_fourcc(&m, p->cur_fi->fourcc);
	}
	return -EINVAL;
}

/* A discrete size: the format lists each size once. */
static int nc_size_discrete(struct nc_parser *p, const struct nc_tok *t,
			    struct negcam_format *f, const struct negcam_size *sz)
{
	const struct negcam_profile *out = p->out;
	__u32 i;

	f->size_kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	for (i = f->size_first; i < out->nsizes; i++) {
		if (out->sizes[i].min_w == sz->min_w && out->sizes[i].min_h == sz->min_h) {
			struct nc_strbuf m = nc_error(p, t->col);

			nc_sb_str(&m, "size ");
			nc_sb_wxh(&m, sz->min_w, sz->min_h);
			nc_sb_str(&m, " is listed twice for ");
			nc_msg_fourcc(&m, f->fourcc);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The optional 'step WxH' after a size range (without: continuous, 1x1);
 * *@at is the token later messages point at, *@given whether a step was.
 */
static int nc_size_step(struct nc_parser *p, const struct nc_tok *range,
			struct negcam_size *sz, struct nc_tok *at, bool *given)
{
	struct nc_tok st, v;
	int ret = nc_next(p, &st);

	if (ret < 0)
		return ret;
	*given = ret > 0 && nc_tok_is(&st, "step");
	sz->step_w = 1;
	sz->step_h = 1;
	if (!*given) {
		/* give back the token read ahead: the rate clause is next */
		if (ret > 0)
			p->pos = p->line_start + (st.col - 1);
		/* no step: continuous; the checks point at the range */
		*at = *range;
		return 0;
	}
	ret = nc_expect(p, &v, "a step after 'step', as in 'step 16x8'");
	if (ret)
		return ret;
	ret = nc_parse_wxh(v.s, v.len, &sz->step_w, &sz->step_h);
	if (ret || !sz->step_w || !sz->step_h) {
		struct nc_strbuf m = nc_error(p, v.col);

		nc_sb_str(&m, "bad size step ");
		nc_msg_token(&m, &v);
		nc_sb_str(&m, ": expected WIDTHxHEIGHT with both at least 1, as in 16x8");
		return -EINVAL;
	}
	*at = v;
	return 0;
}

/*
 * The step keeps every size of the range valid and divides it whole. A
 * step of 1 written out is what some drivers report (unicam: 'Stepwise
 * 16x16 - 16376x16376 with step 1/1' for YUYV too) and is kept: the
 * engine then adjusts a size to the chroma subsampling as such a driver
 * does, while ENUM_FRAMESIZES reports the step as written.
 */
static int nc_size_step_fits(struct nc_parser *p, const struct nc_tok *at,
			     const struct negcam_format *f, const struct negcam_size *sz,
			     __u32 hs, __u32 vs, bool given)
{
	bool w_ok = sz->step_w % hs == 0 || (given && sz->step_w == 1);
	bool h_ok = sz->step_h % vs == 0 || (given && sz->step_h == 1);
	struct nc_strbuf m;

	if (!w_ok || !h_ok) {
		m = nc_error(p, at->col);
		nc_sb_str(&m, "size step ");
		nc_sb_wxh(&m, sz->step_w, sz->step_h);
		nc_sb_str(&m, " must be a multiple of ");
		nc_sb_wxh(&m, hs, vs);
		nc_sb_str(&m, " for ");
		nc_msg_fourcc(&m, f->fourcc);
		if (!given)
			nc_sb_str(&m, ": add 'step WxH' after the range");
		return -EINVAL;
	}
	if ((sz->max_w - sz->min_w) % sz->step_w || (sz->max_h - sz->min_h) % sz->step_h) {
		m = nc_error(p, at->col);
		nc_sb_str(&m, "size step ");
		nc_sb_wxh(&m, sz->step_w, sz->step_h);
		nc_sb_str(&m, " does not divide the range ");
		nc_sb_wxh(&m, sz->min_w, sz->min_h);
		nc_sb_char(&m, '-');
		nc_sb_wxh(&m, sz->max_w, sz->max_h);
		nc_sb_str(&m, " into whole steps");
		return -EINVAL;
	}
	return 0;
}

/* A size range MIN-MAX [step WxH]: the format's only size. */
static int nc_size_range(struct nc_parser *p, const struct nc_tok *t,
			 struct negcam_format *f, struct negcam_size *sz)
{
	const struct negcam_fourcc_info *fi = p->cur_fi;
	enum nc_rows rows = nc_fields_rows(&p->cur);
	__u32 hs = fi->hsub ? fi->hsub : 1, vs = fi->vsub ? fi->vsub : 1;
	bool one = sz->min_w == sz->max_w && sz->min_h == sz->max_h, given;
	struct nc_tok at;
	struct nc_strbuf m;
	int ret;

	if (f->size_count) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "format ");
		nc_msg_fourcc(&m, f->fourcc);
		nc_sb_str(&m, " already has sizes; a size range must be the format's only size");
		return -EINVAL;
	}
	ret = nc_check_dim(p, t, "width", sz->max_w, hs, NC_ROWS_ANY);
	if (!ret)
		ret = nc_check_dim(p, t, "height", sz->max_h, vs, rows);
	if (ret)
		return ret;
	if (sz->min_w > sz->max_w || sz->min_h > sz->max_h || one) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "size range ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, one ? " holds one size: write it without a range" :
				" runs backwards: write the smaller size first");
		return -EINVAL;
	}
	ret = nc_size_step(p, t, sz, &at, &given);
	if (ret)
		return ret;
	/* the step keeps every height of the range valid */
	if (rows == NC_ROWS_FIELD || (rows == NC_ROWS_EVEN && vs % 2))
		vs *= 2;
	ret = nc_size_step_fits(p, &at, f, sz, hs, vs, given);
	if (ret)
		return ret;
	/* a step written out, 1x1 included, is Stepwise; none is Continuous */
	f->size_kind = given ? V4L2_FRMSIZE_TYPE_STEPWISE : V4L2_FRMSIZE_TYPE_CONTINUOUS;
	p->cur_range_line = p->line;
	return 0;
}

/* size WxH rates | size WxH-WxH [step WxH] rates */
int nc_kw_size(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt)
{
	struct negcam_profile *out = p->out;
	const struct negcam_fourcc_info *fi = p->cur_fi;
	struct negcam_format *f = nc_cur(p);
	struct negcam_size sz;
	struct nc_tok t;
	struct nc_strbuf m;
	__u32 dash;
	int ret;

	memset(&sz, 0, sizeof(sz));
	ret = nc_expect(p, &t, "a size after 'size', as in 'size 640x480 fps 30'");
	if (ret)
		return ret;
	if (p->cur_range_line) {
		m = nc_error(p, t.col);
		nc_sb_str(&m, "format ");
		nc_msg_fourcc(&m, f->fourcc);
		nc_sb_str(&m, " has a size range on line ");
		nc_sb_uint(&m, p->cur_range_line);
		nc_sb_str(&m, "; a range must be the format's only size");
		return -EINVAL;
	}
	if (out->nsizes == NC_MAX_SIZES) {
		m = nc_error(p, t.col);
		nc_sb_str(&m, "too many sizes: a profile holds at most ");
		nc_sb_uint(&m, NC_MAX_SIZES);
		return -EINVAL;
	}
	dash = nc_find(t.s, t.len, '-');
	ret = nc_parse_wxh(t.s, dash, &sz.min_w, &sz.min_h);
	if (!ret && dash < t.len)
		ret = nc_parse_wxh(t.s + dash + 1, t.len - dash - 1, &sz.max_w, &sz.max_h);
	if (ret)
		return nc_bad_size(p, &t, ret);
	ret = nc_check_dim(p, &t, "width", sz.min_w, fi->hsub ? fi->hsub : 1, NC_ROWS_ANY);
	if (!ret)
		ret = nc_check_dim(p, &t, "height", sz.min_h, fi->vsub ? fi->vsub : 1,
				   nc_fields_rows(&p->cur));
	if (!ret)
		ret = dash == t.len ? nc_size_discrete(p, &t, f, &sz) :
				      nc_size_range(p, &t, f, &sz);
	if (!ret)
		ret = nc_parse_rates(p, &t, &sz);
	if (ret)
		return ret;
	out->sizes[out->nsizes++] = sz;
	f->size_count++;
	return 0;
}
