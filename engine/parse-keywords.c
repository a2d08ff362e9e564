// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The keywords of the profile language as one table of descriptors
 * (struct nc_keyword in parse-private.h): adding a keyword is one row and
 * its handler. nc_keyword_of() finds a line's keyword (or suggests one),
 * nc_keyword_placed() checks that it may stand where it does.
 */
#include "parse-private.h"

#define NC_SETTING(word, bit, fn, what) \
	{ .name = word, .place = NC_PLACE_ANY, .parse = nc_kw_setting, \
	  .once = bit, .set = fn, .expect = what }

#define NC_NAMED_SETTING(word, bit, table, field, what) \
	{ .name = word, .place = NC_PLACE_ANY, .parse = nc_kw_setting, \
	  .once = bit, .set = nc_set_named, .expect = what, .values = &table, \
	  .member = offsetof(struct nc_settings, field) }

/* The profile language's keywords: adding one is one row (docs/profiles.md). */
static const struct nc_keyword nc_keywords[] = {
	{ "name", NC_PLACE_HEADER, nc_kw_name, NC_HDR_NAME },
	{ "card", NC_PLACE_HEADER, nc_kw_card, NC_HDR_CARD },
	{ "usb-id", NC_PLACE_HEADER, nc_kw_usb_id, 0 },
	{ "uvc-bugs", NC_PLACE_HEADER, nc_kw_uvc_bugs, NC_HDR_UVC_BUGS },
	{ "adjust", NC_PLACE_HEADER, nc_kw_adjust, NC_HDR_ADJUST },
	{ "quirks", NC_PLACE_HEADER, nc_kw_quirks, NC_HDR_QUIRKS },
	{ "multiplanar", NC_PLACE_HEADER, nc_kw_multiplanar, NC_HDR_MULTIPLANAR },
	{ "default", NC_PLACE_HEADER, nc_kw_default, 0 },
	NC_SETTING("field", NC_SET_FIELD, nc_set_fields,
		   "field names after 'field', as in 'field none' or 'field interlaced seq-tb'"),
	NC_NAMED_SETTING("colorspace", NC_SET_COLORSPACE, nc_colorspaces, colorspace,
			 "a colorspace after 'colorspace', as in 'colorspace srgb'"),
	NC_NAMED_SETTING("ycbcr-enc", NC_SET_YCBCR_ENC, nc_ycbcr_encs, ycbcr_enc,
			 "an encoding after 'ycbcr-enc', as in 'ycbcr-enc 601'"),
	NC_NAMED_SETTING("quantization", NC_SET_QUANTIZATION, nc_quantizations, quantization,
			 "'full' or 'limited' after 'quantization'"),
	NC_NAMED_SETTING("xfer-func", NC_SET_XFER_FUNC, nc_xfer_funcs, xfer_func,
			 "a transfer function after 'xfer-func', as in 'xfer-func srgb'"),
	NC_SETTING("stride-align", NC_SET_STRIDE_ALIGN, nc_set_stride,
		   "a power of two after 'stride-align', as in 'stride-align 64'"),
	{ "fault", NC_PLACE_ANY, nc_kw_fault },
	{ "format", NC_PLACE_ANY, nc_kw_format },
	{ "description", NC_PLACE_FORMAT, nc_kw_description },
	{ "flags", NC_PLACE_FORMAT, nc_kw_flags },
	{ "sizeimage", NC_PLACE_FORMAT, nc_kw_sizeimage },
	{ "size", NC_PLACE_FORMAT, nc_kw_size },
};

/* The keyword @t names, or NULL with the message said. */
const struct nc_keyword *nc_keyword_of(struct nc_parser *p,
				       const struct nc_tok *t)
{
	const char *hint;
	struct nc_strbuf m;
	__u32 i;

	for (i = 0; i < NC_ARRAY_SIZE(nc_keywords); i++)
		if (nc_tok_is(t, nc_keywords[i].name))
			return &nc_keywords[i];
	hint = nc_suggest(nc_keywords, NC_ARRAY_SIZE(nc_keywords),
			  sizeof(nc_keywords[0]), t);
	m = nc_error(p, t->col);
	if (!nc_msg_unknown(&m, "keyword", t, hint))
		nc_sb_str(&m, " (docs/profiles.md lists the keywords)");
	return NULL;
}

/* Whether @kw may stand here; header keywords given once are noted. */
int nc_keyword_placed(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *t)
{
	const char *why = NULL;

	if (kw->place == NC_PLACE_HEADER && p->cur_fmt >= 0)
		why = " belongs to the profile header, before the first 'format' line";
	else if (kw->place == NC_PLACE_HEADER && (p->header_seen & kw->once))
		why = " is given twice";
	else if (kw->place == NC_PLACE_FORMAT && p->cur_fmt < 0)
		why = " outside a format: add a 'format FOURCC' line before it";
	if (why) {
		struct nc_strbuf m = nc_error(p, t->col);

		nc_msg_token(&m, t);
		nc_sb_str(&m, why);
		return -EINVAL;
	}
	if (kw->place == NC_PLACE_HEADER)
		p->header_seen |= kw->once;
	return 0;
}
