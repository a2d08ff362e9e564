// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile language (docs/profiles.md) into struct negcam_profile.
 *
 * One pass over the text, one line at a time, tokens read lazily from a
 * cursor: no recursion, no allocation, a few hundred bytes of stack, so
 * the same code parses a profile written to sysfs in the kernel and a
 * file in negcam-ctl. Integer and fraction arithmetic only; the only
 * 64-bit division is nc_div_u64() by a 32-bit divisor.
 *
 * Every error stops the parse with a line, the 1-based column of the
 * offending token and a message saying what is wrong and what was
 * expected; the output is then zeroed so nothing half-parsed is used.
 *
 * This file holds the line loop and the checks after the last line;
 * parse-private.h says which file reads what.
 */
#include "parse-private.h"

static int nc_parse_line(struct nc_parser *p)
{
	const struct nc_keyword *kw;
	struct nc_tok t;
	int ret = nc_next(p, &t);

	if (ret <= 0)
		return ret;
	kw = nc_keyword_of(p, &t);
	if (!kw)
		return -EINVAL;
	ret = nc_keyword_placed(p, kw, &t);
	return ret ? ret : kw->parse(p, kw, &t);
}

/* After the last line: close the last format, require the essentials, the header's defaults. */
static int nc_finish(struct nc_parser *p)
{
	struct negcam_profile *out = p->out;
	__u32 eof_col = nc_col(p, p->len);
	struct nc_strbuf m;
	int ret;

	ret = nc_finish_format(p);
	if (ret)
		return ret;
	if (!out->nformats && !(p->header_seen & NC_HDR_NAME)) {
		m = nc_error_at(p, p->line, eof_col);
		nc_sb_str(&m, "empty profile: expected a 'name' line and at least one 'format' block");
		return -EINVAL;
	}
	if (!(p->header_seen & NC_HDR_NAME)) {
		m = nc_error_at(p, p->line, eof_col);
		nc_sb_str(&m, "missing 'name' line: every profile needs a name, as in 'name webcam'");
		return -EINVAL;
	}
	if (!out->nformats) {
		m = nc_error_at(p, p->line, eof_col);
		nc_sb_str(&m, "the profile has no formats: add a 'format FOURCC' line and its 'size' lines");
		return -EINVAL;
	}
	return nc_finish_header(p);
}

static int nc_parse(struct nc_parser *p)
{
	__u32 next = 0;
	int ret;

	p->line = 0;
	while (1) {
		__u32 nl;

		p->line++;
		p->line_start = next;
		nl = p->line_start + nc_find(p->text + p->line_start,
					     p->len - p->line_start, '\n');
		p->line_end = nl;
		if (nl > p->line_start && p->text[nl - 1] == '\r')
			p->line_end--;
		p->pos = p->line_start;
		ret = nc_parse_line(p);
		if (ret)
			return ret;
		if (nl >= p->len)
			break;
		next = nl + 1;
		if (next == p->len) {
			/* the end of input sits at the start of the next line */
			p->line++;
			p->line_start = next;
			break;
		}
	}
	return nc_finish(p);
}

int negcam_profile_parse(struct negcam_profile *out, const char *text,
			 __u32 len, struct negcam_parse_error *err)
{
	struct negcam_parse_error local;
	struct nc_parser p;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	if (!err)
		err = &local;
	memset(err, 0, sizeof(*err));
	p.out = out;
	p.faults = &out->faults;
	p.err = err;
	p.text = text ? text : "";
	p.len = text ? len : 0;
	p.cur_fmt = -1;
	ret = nc_parse(&p);
	if (ret) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}
