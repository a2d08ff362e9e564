// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile header, the lines before the first 'format': the keywords
 * name, card, usb-id, uvc-bugs, adjust, quirks, multiplanar and default. A 'default' line is checked
 * only after the last line, once all formats are known
 * (nc_finish_header(), which also gives the card its default name).
 */
#include "parse-private.h"
#include "fract.h"

int nc_kw_name(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt)
{
	struct nc_tok t;
	__u32 i;
	int ret = nc_expect(p, &t, "a profile name after 'name', as in 'name webcam'");

	if (ret)
		return ret;
	for (i = 0; i < t.len; i++) {
		char c = t.s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      nc_is_digit(c) || c == '-' || c == '_' || c == '.')) {
			struct nc_strbuf m = nc_error(p, t.col);

			nc_sb_str(&m, "profile name ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " may use only letters, digits, '-', '_' and '.'");
			return -EINVAL;
		}
	}
	ret = nc_copy_name(p, &t, p->out->name, "profile name");
	return ret ? ret : nc_expect_end(p, "the profile name");
}

int nc_kw_card(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt)
{
	struct nc_tok t;
	int ret = nc_expect(p, &t, "a card name after 'card', as in 'card \"My Camera\"'");

	if (ret)
		return ret;
	ret = nc_copy_name(p, &t, p->out->card, "card name");
	return ret ? ret : nc_expect_end_quoted(p, &t, "card name");
}

/* One hexadecimal digit's value, or -1. */
static int nc_hex_digit(char c)
{
	if (nc_is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * usb-id VVVV:PPPP: the USB vendor and product ids a USB device made from
 * the profile shows (negcam-uvc); four hexadecimal digits each, as lsusb
 * prints them, vendor 0000 refused (no vendor has it; 0:0 means none).
 */
int nc_kw_usb_id(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt)
{
	struct nc_strbuf m;
	struct nc_tok t;
	__u32 v = 0, i;
	int d = 0, ret = nc_expect(p, &t, "a USB id after 'usb-id', as in 'usb-id 046d:082d'");

	if (ret)
		return ret;
	if (p->out->usb_vendor) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'usb-id' is given twice");
		return -EINVAL;
	}
	for (i = 0; i < t.len && i < 9 && d >= 0; i++) {
		d = i == 4 ? (t.s[i] == ':' ? 0 : -1) : nc_hex_digit(t.s[i]);
		if (i != 4)
			v = v << 4 | (__u32)d;
	}
	if (t.len != 9 || d < 0 || !(v >> 16)) {
		m = nc_error(p, t.col);
		nc_sb_str(&m, "USB id ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, " is not VENDOR:PRODUCT, four hexadecimal digits each"
			   " and a vendor other than 0000, as in 'usb-id 046d:082d'");
		return -EINVAL;
	}
	p->out->usb_vendor = (__u16)(v >> 16);
	p->out->usb_product = (__u16)v;
	return nc_expect_end(p, "the USB id");
}

int nc_kw_adjust(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt)
{
	struct nc_tok t;
	__u32 v;
	int ret = nc_expect(p, &t, "'downward' or 'nearest' after 'adjust'");

	if (!ret)
		ret = nc_lookup(p, &nc_adjusts, &t,
				"size adjustment", &v);
	if (ret)
		return ret;
	p->out->adjust = v;
	return nc_expect_end(p, "the size adjustment");
}

/* 'multiplanar': the device's queues are the _MPLANE buffer types. */
int nc_kw_multiplanar(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *kwt)
{
	p->out->multiplanar = 1;
	return nc_expect_end(p, "'multiplanar' (it takes no value)");
}

/* Names from @table into the bits of *@bits, each once; @what names one in messages. */
static int nc_name_list(struct nc_parser *p, const struct nc_names *table, const char *what,
			const char *expect, __u32 *bits)
{
	struct nc_tok t;
	__u32 v;
	int ret = nc_expect(p, &t, expect);

	while (!ret) {
		ret = nc_lookup(p, table, &t, what, &v);
		if (ret)
			return ret;
		if (*bits & v) {
			struct nc_strbuf m = nc_error(p, t.col);

			nc_sb_str(&m, what);
			nc_sb_char(&m, ' ');
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is listed twice");
			return -EINVAL;
		}
		*bits |= v;
		ret = nc_next(p, &t);
		if (ret == 0)
			return 0;
		if (ret > 0)
			ret = 0;
	}
	return ret;
}

int nc_kw_quirks(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt)
{
	return nc_name_list(p, &nc_quirks, "quirk",
			    "quirk names after 'quirks', as in 'quirks legacy-einval'",
			    &p->out->quirks);
}

/* 'uvc-bugs NAME...': the USB camera's firmware bugs (negcam-uvc, docs/uvc.md). */
int nc_kw_uvc_bugs(struct nc_parser *p, const struct nc_keyword *kw,
		   const struct nc_tok *kwt)
{
	return nc_name_list(p, &nc_uvc_bugs, "uvc bug",
			    "bug names after 'uvc-bugs', as in 'uvc-bugs no-fid'",
			    &p->out->uvc_bugs);
}

/* default FOURCC [capture|output] [WxH [fps R | interval I]] */
int nc_kw_default(struct nc_parser *p, const struct nc_keyword *kw,
		  const struct nc_tok *kwt)
{
	const struct negcam_fourcc_info *fi;
	struct nc_default_line d;
	enum negcam_queue q;
	struct nc_tok t;
	int have, ret;

	memset(&d, 0, sizeof(d));
	ret = nc_expect(p, &t, "a pixel format after 'default', as in 'default YUYV 640x480 fps 30'");
	if (!ret)
		ret = nc_parse_fourcc(p, &t, &fi, &d.fourcc, true);
	if (ret)
		return ret;
	d.given = true;
	d.line = p->line;
	d.fourcc_col = t.col;
	have = nc_next(p, &t);
	ret = nc_parse_queue(p, &t, &have, &q);
	if (ret)
		return ret;
	if (p->def[q].given) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_sb_str(&m, "a second 'default' for the ");
		nc_sb_str(&m, q == NC_OUTPUT ? "output" : "capture");
		nc_sb_str(&m, " queue (the first is on line ");
		nc_sb_uint(&m, p->def[q].line);
		nc_sb_char(&m, ')');
		return -EINVAL;
	}
	if (have > 0) {
		ret = nc_parse_wxh(t.s, t.len, &d.width, &d.height);
		if (ret)
			return nc_bad_size(p, &t, ret);
		d.size_col = t.col;
		have = nc_next(p, &t);
	}
	if (have > 0) {
		bool fps = nc_tok_is(&t, "fps");
		struct nc_tok v;

		if (!fps && !nc_tok_is(&t, "interval")) {
			struct nc_strbuf m = nc_error(p, t.col);

			nc_sb_str(&m, "expected 'fps' or 'interval' after the default size, found ");
			nc_msg_token(&m, &t);
			return -EINVAL;
		}
		ret = nc_expect(p, &v, fps ? "a frame rate after 'fps'" :
					     "a frame interval after 'interval'");
		if (!ret)
			ret = nc_parse_rate(p, &v, v.s, v.len, fps, &d.interval);
		if (ret)
			return ret;
		d.rate_col = v.col;
		d.rate = v.s;
		d.rate_len = v.len;
		d.fps = fps;
		have = 0;
		ret = nc_expect_end(p, "the default frame rate");
		if (ret)
			return ret;
	}
	if (have < 0)
		return have;
	p->def[q] = d;
	return 0;
}

static bool nc_size_has(const struct negcam_size *s, __u8 kind, __u32 w, __u32 h)
{
	if (kind == V4L2_FRMSIZE_TYPE_DISCRETE)
		return s->min_w == w && s->min_h == h;
	return w >= s->min_w && w <= s->max_w && h >= s->min_h &&
	       h <= s->max_h && (w - s->min_w) % s->step_w == 0 &&
	       (h - s->min_h) % s->step_h == 0;
}

static bool nc_size_has_interval(const struct negcam_profile *out,
				 const struct negcam_size *s,
				 struct v4l2_fract x)
{
	const struct negcam_interval *iv = &out->intervals[s->ival_first];
	__u32 i;

	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		for (i = 0; i < s->ival_count; i++)
			if (!nc_fract_cmp(iv[i].min, x))
				return true;
		return false;
	}
	if (nc_fract_cmp(x, iv->min) < 0 || nc_fract_cmp(x, iv->max) > 0)
		return false;
	return s->ival_kind == V4L2_FRMIVAL_TYPE_CONTINUOUS ||
	       nc_fract_on_step(x, iv->min, iv->step);
}

/* Resolve one queue's default: the 'default' line, checked, or the first of all. */
static int nc_resolve_default(struct nc_parser *p, enum negcam_queue q)
{
	struct negcam_profile *out = p->out;
	const struct nc_default_line *d = &p->def[q];
	const struct negcam_format *f = NULL;
	const struct negcam_size *s = NULL;
	struct negcam_default *r = &out->def[q];
	struct nc_strbuf m;
	__u32 i;

	for (i = 0; i < out->nformats; i++) {
		const struct negcam_format *c = &out->formats[i];

		if (negcam_queue_of(c->buf_type) != (int)q)
			continue;
		if (!d->given || c->fourcc == d->fourcc) {
			f = c;
			break;
		}
	}
	if (!f) {
		if (!d->given)
			return 0; /* no format on this queue */
		m = nc_error_at(p, d->line, d->fourcc_col);
		nc_sb_str(&m, "default format ");
		nc_msg_fourcc(&m, d->fourcc);
		nc_sb_str(&m, q == NC_OUTPUT ? " is not an output" : " is not a capture");
		nc_sb_str(&m, " format of this profile: add a 'format' block for it");
		return -EINVAL;
	}
	r->fourcc = f->fourcc;
	if (d->size_col) {
		for (i = 0; i < f->size_count; i++) {
			if (nc_size_has(&out->sizes[f->size_first + i], f->size_kind,
					d->width, d->height)) {
				s = &out->sizes[f->size_first + i];
				break;
			}
		}
		if (!s) {
			m = nc_error_at(p, d->line, d->size_col);
			nc_sb_str(&m, "default size ");
			nc_sb_wxh(&m, d->width, d->height);
			nc_sb_str(&m, " is not a size of ");
			nc_msg_fourcc(&m, f->fourcc);
			return -EINVAL;
		}
		r->width = d->width;
		r->height = d->height;
	} else {
		s = &out->sizes[f->size_first];
		r->width = s->min_w;
		r->height = s->min_h;
	}
	if (d->rate_col) {
		if (!nc_size_has_interval(out, s, d->interval)) {
			m = nc_error_at(p, d->line, d->rate_col);
			nc_sb_str(&m, d->fps ? "default frame rate " : "default frame interval ");
			nc_msg_quoted(&m, d->rate, d->rate_len);
			nc_sb_str(&m, " is not offered by ");
			nc_msg_fourcc(&m, f->fourcc);
			nc_sb_char(&m, ' ');
			nc_sb_wxh(&m, r->width, r->height);
			return -EINVAL;
		}
		r->interval = d->interval;
	} else {
		r->interval = out->intervals[s->ival_first].min;
	}
	return 0;
}

/* After the last line: the card's default name, each queue's default. */
int nc_finish_header(struct nc_parser *p)
{
	struct negcam_profile *out = p->out;
	int ret;

	if (!(p->header_seen & NC_HDR_CARD)) {
		/* "Negcam <name>", cut to fit v4l2_capability.card */
		static const char prefix[] = "Negcam ";
		__u32 n = sizeof(prefix) - 1, l = nc_strlen(out->name);

		memcpy(out->card, prefix, n);
		if (l > NC_NAME_LEN - 1 - n)
			l = NC_NAME_LEN - 1 - n;
		memcpy(out->card + n, out->name, l);
		out->card[n + l] = '\0';
	}
	ret = nc_resolve_default(p, NC_CAPTURE);
	if (!ret)
		ret = nc_resolve_default(p, NC_OUTPUT);
	return ret;
}
