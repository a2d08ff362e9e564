// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The settings a format may take from the profile header or give itself:
 * field, colorspace, ycbcr-enc, quantization, xfer-func and stride-align.
 * Each is read into a struct nc_settings, the header's or the current
 * format's (which starts as a copy of the header's); nc_finish_format()
 * resolves them.
 */
#include "parse-private.h"

#define NC_MAX_STRIDE_ALIGN 4096u

/* field NAME... */
int nc_set_fields(struct nc_parser *p, const struct nc_keyword *kw,
		  struct nc_settings *s, struct nc_tok *t)
{
	__u32 i, v;
	int ret;

	/* entries past nfields stay zero, so equal profiles are equal bytes */
	memset(s->fields, 0, sizeof(s->fields));
	s->nfields = 0;
	while (1) {
		if (nc_tok_is(t, "any")) {
			struct nc_strbuf m = nc_error(p, t->col);

			nc_sb_str(&m, "field 'any' is for requests; list the fields the device delivers (none, interlaced, ...)");
			return -EINVAL;
		}
		ret = nc_lookup(p, &nc_fields, t,
				"field", &v);
		if (ret)
			return ret;
		for (i = 0; i < s->nfields; i++) {
			if (s->fields[i] == v) {
				struct nc_strbuf m = nc_error(p, t->col);

				nc_sb_str(&m, "field ");
				nc_msg_token(&m, t);
				nc_sb_str(&m, " is listed twice");
				return -EINVAL;
			}
		}
		if (s->nfields == NC_MAX_FIELDS) {
			struct nc_strbuf m = nc_error(p, t->col);

			nc_sb_str(&m, "too many fields: at most ");
			nc_sb_uint(&m, NC_MAX_FIELDS);
			return -EINVAL;
		}
		s->fields[s->nfields++] = (__u8)v;
		ret = nc_next(p, t);
		if (ret <= 0)
			return ret;
	}
}

/* stride-align N */
int nc_set_stride(struct nc_parser *p, const struct nc_keyword *kw,
		  struct nc_settings *s, struct nc_tok *t)
{
	__u32 v;
	int ret = nc_parse_u32(t->s, t->len, &v);

	if (ret || v == 0 || v > NC_MAX_STRIDE_ALIGN || (v & (v - 1))) {
		struct nc_strbuf m = nc_error(p, t->col);

		nc_sb_str(&m, "bad stride alignment ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, ": expected a power of two from 1 to ");
		nc_sb_uint(&m, NC_MAX_STRIDE_ALIGN);
		return -EINVAL;
	}
	s->stride_align = v;
	return nc_expect_end(p, "the stride alignment");
}

/* colorspace, ycbcr-enc, quantization, xfer-func: one name of a table */
int nc_set_named(struct nc_parser *p, const struct nc_keyword *kw,
		 struct nc_settings *s, struct nc_tok *t)
{
	__u32 v;
	int ret = nc_lookup(p, kw->values, t, kw->name, &v);

	if (ret)
		return ret;
	*((__u8 *)s + kw->member) = (__u8)v;
	return nc_expect_end(p, kw->name);
}

/* Per-format or profile-wide settings: field, colorimetry, stride-align. */
int nc_kw_setting(struct nc_parser *p, const struct nc_keyword *kw,
		  const struct nc_tok *kwt)
{
	struct nc_settings *s = p->cur_fmt >= 0 ? &p->cur : &p->wide;
	struct nc_tok t;
	int ret;

	if (p->cur_fmt >= 0 && nc_cur(p)->size_count) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_msg_token(&m, kwt);
		nc_sb_str(&m, " must come before the format's first 'size' line");
		return -EINVAL;
	}
	if ((p->cur_fmt >= 0 ? p->cur_seen : p->wide.given) & kw->once) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_msg_token(&m, kwt);
		nc_sb_str(&m, p->cur_fmt >= 0 ? " is given twice for this format" :
					    " is given twice in the profile header");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, kw->expect);
	if (!ret)
		ret = kw->set(p, kw, s, &t);
	if (ret)
		return ret;
	s->given |= kw->once;
	if (p->cur_fmt >= 0)
		p->cur_seen |= kw->once;
	return 0;
}
