// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The rate clause of a size line ('fps' or 'interval' and its values)
 * into the profile's interval pool: a list of discrete values, or one
 * range (continuous, or stepwise with 'step'); an identical list already
 * in the pool is shared (negcam_profile_share_intervals(), which
 * negcam-ctl uses too).
 */
#include "parse-private.h"
#include "fract.h"

/* 'fps' or 'interval' after the size; *@fps says which. */
static int nc_rates_keyword(struct nc_parser *p, const struct nc_tok *size_tok,
			    bool *fps)
{
	struct nc_tok kw;
	struct nc_strbuf m;
	int ret = nc_next(p, &kw);

	if (ret < 0)
		return ret;
	if (ret == 0) {
		m = nc_error(p, size_tok->col);
		nc_sb_str(&m, "size ");
		nc_msg_token(&m, size_tok);
		nc_sb_str(&m, " has no frame rates: add 'fps 30' or 'interval 1/30' to the line");
		return -EINVAL;
	}
	*fps = nc_tok_is(&kw, "fps");
	if (!*fps && !nc_tok_is(&kw, "interval")) {
		m = nc_error(p, kw.col);
		nc_sb_str(&m, "expected 'fps' or 'interval' after the size, found ");
		nc_msg_token(&m, &kw);
		return -EINVAL;
	}
	return 0;
}

/* Whether rate token @t may stand here: room in the pool, a range alone. */
static int nc_rate_placed(struct nc_parser *p, const struct nc_tok *t,
			  __u32 dash, __u32 first)
{
	struct nc_strbuf m;

	if (p->out->nintervals == NC_MAX_INTERVALS) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "too many frame intervals: a profile holds at most ");
		nc_sb_uint(&m, NC_MAX_INTERVALS);
		nc_sb_str(&m, " (identical lists are stored once)");
		return -EINVAL;
	}
	if (dash < t->len && p->out->nintervals > first) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "a rate range must be the only rate of its size: write it on its own line");
		return -EINVAL;
	}
	if (nc_tok_is(t, "step")) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "'step' follows an interval range, as in 'interval 1/60-1/1 step 1/60'");
		return -EINVAL;
	}
	return 0;
}

/* One discrete rate into the pool; refused when the size lists it already. */
static int nc_rate_discrete(struct nc_parser *p, const struct nc_tok *t,
			    __u32 first, bool fps)
{
	struct negcam_profile *out = p->out;
	struct negcam_interval *iv = &out->intervals[out->nintervals];
	__u32 i;
	int ret = nc_parse_rate(p, t, t->s, t->len, fps, &iv->min);

	if (ret)
		return ret;
	for (i = first; i < out->nintervals; i++) {
		if (!nc_fract_cmp(out->intervals[i].min, iv->min)) {
			struct nc_strbuf m = nc_error(p, t->col);

			nc_sb_str(&m, fps ? "frame rate " : "frame interval ");
			nc_msg_token(&m, t);
			nc_sb_str(&m, " is listed twice for this size (interval ");
			nc_sb_fract(&m, iv->min);
			nc_sb_char(&m, ')');
			return -EINVAL;
		}
	}
	out->nintervals++;
	return 0;
}

/* 'step S' after an interval range: the range becomes stepwise. */
static int nc_rate_step(struct nc_parser *p, const struct nc_tok *st, bool fps,
			struct negcam_interval *iv, struct negcam_size *sz)
{
	struct nc_tok t;
	struct nc_strbuf m;
	int ret;

	if (!nc_tok_is(st, "step")) {
		m = nc_error(p, st->col);
		nc_sb_str(&m, "unexpected ");
		nc_msg_token(&m, st);
		nc_sb_str(&m, " after the range: expected 'step' or the end of the line");
		return -EINVAL;
	}
	if (fps) {
		m = nc_error(p, st->col);
		nc_sb_str(&m, "an fps range has no 'step' (equal rate steps are not equal interval steps): write 'interval MIN-MAX step S'");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "an interval after 'step', as in 'step 1/60'");
	if (!ret)
		ret = nc_parse_rate(p, &t, t.s, t.len, false, &iv->step);
	if (ret)
		return ret;
	if (!nc_fract_on_step(iv->max, iv->min, iv->step)) {
		m = nc_error(p, t.col);
		nc_sb_str(&m, "step ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, " does not divide the range ");
		nc_sb_fract(&m, iv->min);
		nc_sb_char(&m, '-');
		nc_sb_fract(&m, iv->max);
		nc_sb_str(&m, " into whole steps");
		return -EINVAL;
	}
	sz->ival_kind = V4L2_FRMIVAL_TYPE_STEPWISE;
	return nc_expect_end(p, "the interval step");
}

/* A range LO-HI (the dash at @dash), the size's only rate: fps LO-HI
 * means intervals 1/HI .. 1/LO. Ends the rate clause. */
static int nc_rate_range(struct nc_parser *p, const struct nc_tok *t,
			 __u32 dash, bool fps, struct negcam_size *sz)
{
	struct negcam_interval *iv = &p->out->intervals[p->out->nintervals];
	struct v4l2_fract a, b;
	struct nc_tok st;
	int ret = nc_parse_rate(p, t, t->s, dash, fps, &a);

	if (!ret)
		ret = nc_parse_rate(p, t, t->s + dash + 1, t->len - dash - 1, fps, &b);
	if (ret)
		return ret;
	iv->min = fps ? b : a;
	iv->max = fps ? a : b;
	if (nc_fract_cmp(iv->min, iv->max) >= 0) {
		struct nc_strbuf m = nc_error(p, t->col);

		nc_sb_str(&m, fps ? "frame rate range " : "frame interval range ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, nc_fract_cmp(iv->min, iv->max) ?
			  " runs backwards: write the smaller value first" :
			  " is empty: write a single value");
		return -EINVAL;
	}
	iv->step = nc_fract(1, 1);
	sz->ival_kind = V4L2_FRMIVAL_TYPE_CONTINUOUS;
	p->out->nintervals++;
	ret = nc_next(p, &st);
	if (ret <= 0)
		return ret;
	return nc_rate_step(p, &st, fps, iv, sz);
}

/* Store the size's intervals once: an identical run already in the pool is
 * shared and the new one given back (profile.h). */
void negcam_profile_share_intervals(struct negcam_profile *out,
				    struct negcam_size *sz, __u32 first)
{
	__u32 i;

	sz->ival_count = (__u16)(out->nintervals - first);
	sz->ival_first = (__u16)first;
	for (i = 0; i < out->nsizes; i++) {
		const struct negcam_size *o = &out->sizes[i];

		if (o->ival_kind == sz->ival_kind && o->ival_count == sz->ival_count &&
		    !memcmp(&out->intervals[o->ival_first], &out->intervals[first],
			    sz->ival_count * sizeof(struct negcam_interval))) {
			memset(&out->intervals[first], 0,
			       sz->ival_count * sizeof(struct negcam_interval));
			out->nintervals = (__u16)first;
			sz->ival_first = o->ival_first;
			return;
		}
	}
}

/*
 * The rate clause of a size line into the interval pool at
 * out->nintervals: a list of discrete values, or one range (continuous,
 * or stepwise with 'step').
 */
int nc_parse_rates(struct nc_parser *p, const struct nc_tok *size_tok,
		   struct negcam_size *sz)
{
	struct negcam_profile *out = p->out;
	__u32 first = out->nintervals;
	struct nc_tok t;
	bool fps;
	int ret = nc_rates_keyword(p, size_tok, &fps);

	if (ret)
		return ret;
	ret = nc_expect(p, &t, fps ? "frame rates after 'fps', as in 'fps 30 15'" :
				     "frame intervals after 'interval', as in 'interval 1/30 1/15'");
	sz->ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE;
	while (!ret) {
		__u32 dash = nc_find(t.s, t.len, '-');

		ret = nc_rate_placed(p, &t, dash, first);
		if (ret)
			return ret;
		memset(&out->intervals[out->nintervals], 0, sizeof(struct negcam_interval));
		if (dash < t.len) {
			ret = nc_rate_range(p, &t, dash, fps, sz);
			break;
		}
		ret = nc_rate_discrete(p, &t, first, fps);
		if (ret)
			return ret;
		ret = nc_next(p, &t);
		if (ret == 0)
			break;
		if (ret > 0)
			ret = 0;
	}
	if (ret < 0)
		return ret;
	negcam_profile_share_intervals(out, sz, first);
	return 0;
}
