// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The 'fault' lines (docs/faults.md): a fault's name, then its values:
 *   fault seed 42                    fault rate 15        (fps, or N/D)
 *   fault drop 5%                    fault timestamp-jump 500ms every 3s
 *   fault stall 2s every 10s         fault error 0.5%
 *   fault corrupt 10%                fault source-change 5s 640x480
 *   fault truncate 10%               fault unplug 10s
 * Percentages have at most one decimal (stored in tenths), times are an
 * integer with a unit (ns, us, ms, s) up to an hour. Each fault is given
 * at most once; they are profile-wide and may stand anywhere.
 */
#include "parse-private.h"

/* The value readers below: @t is the value's token, @what names it in messages. */

static int nc_fault_bad(struct nc_parser *p, const struct nc_tok *t, const char *why,
			const char *example)
{
	struct nc_strbuf m = nc_error(p, t->col);

	nc_msg_token(&m, t);
	nc_sb_str(&m, why);
	nc_sb_str(&m, ", as in '");
	nc_sb_str(&m, example);
	nc_sb_char(&m, '\'');
	return -EINVAL;
}

/* "5%" or "0.5%": tenths of a percent, 0 to 1000. */
static int nc_fault_percent(struct nc_parser *p, const struct nc_tok *t, __u32 *out,
			    const char *example)
{
	__u32 dot = nc_find(t->s, t->len, '.'), whole = 0, tenth = 0;
	int ret;

	if (t->len && t->s[0] == '-')
		return nc_fault_bad(p, t, " is negative: expected a percentage from 0% to 100%",
				    example);
	if (t->len < 2 || t->s[t->len - 1] != '%')
		return nc_fault_bad(p, t, " is not a percentage (N% or N.N%)", example);
	ret = nc_parse_u32(t->s, dot < t->len - 1 ? dot : t->len - 1, &whole);
	if (!ret && dot < t->len - 1 &&
	    (dot + 3 != t->len || nc_parse_u32(t->s + dot + 1, 1, &tenth)))
		ret = -EINVAL;
	if (ret == -EINVAL)
		return nc_fault_bad(p, t, " is not a percentage (N% or N.N%)", example);
	if (ret || whole > 100 || (whole == 100 && tenth))
		return nc_fault_bad(p, t, " is over 100%", example);
	*out = whole * 10 + tenth;
	return 0;
}

/* The next token, which must exist: "expected a value, as in 'EXAMPLE'". */
static int nc_fault_expect(struct nc_parser *p, struct nc_tok *t, const char *example)
{
	char what[80];
	struct nc_strbuf w = nc_sb_init(what, sizeof(what));

	nc_sb_str(&w, "a value, as in '");
	nc_sb_str(&w, example);
	nc_sb_char(&w, '\'');
	return nc_expect(p, t, what);
}

/* "500ms": an integer and a unit, into ns; negative only when @sign. */
static int nc_fault_time(struct nc_parser *p, const struct nc_tok *t, bool sign, __s64 *out,
			 const char *example)
{
	static const struct { const char *unit; __u64 ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	__u32 neg = t->len && t->s[0] == '-', digits = neg, v, i;
	struct nc_tok u;

	if (neg && !sign)
		return nc_fault_bad(p, t, " is negative: expected a time", example);
	while (digits < t->len && nc_is_digit(t->s[digits]))
		digits++;
	u.s = t->s + digits;
	u.len = t->len - digits;
	for (i = 0; i < NC_ARRAY_SIZE(units); i++)
		if (nc_tok_is(&u, units[i].unit))
			break;
	if (digits == neg || i == NC_ARRAY_SIZE(units))
		return nc_fault_bad(p, t, " is not a time (an integer and ns, us, ms or s)",
				    example);
	if (nc_parse_u32(t->s + neg, digits - neg, &v) || (__u64)v * units[i].ns > NC_FAULT_MAX_NS)
		return nc_fault_bad(p, t, " is over an hour", example);
	*out = neg ? -(__s64)((__u64)v * units[i].ns) : (__s64)((__u64)v * units[i].ns);
	return 0;
}

/* The next token, a time: positive unless @zero allows 0. */
static int nc_fault_next_time(struct nc_parser *p, __u64 *out, bool zero, const char *example)
{
	struct nc_tok t;
	__s64 v;
	int ret = nc_fault_expect(p, &t, example);

	if (!ret)
		ret = nc_fault_time(p, &t, false, &v, example);
	if (!ret && !v && !zero)
		ret = nc_fault_bad(p, &t, " is zero: expected a positive time", example);
	if (!ret)
		*out = (__u64)v;
	return ret;
}

/* "T every S": a positive time each, into @len and @every. */
static int nc_fault_every(struct nc_parser *p, __s64 *len, bool sign, __u64 *every,
			  const char *example)
{
	struct nc_tok t;
	int ret = nc_fault_expect(p, &t, example);

	if (!ret)
		ret = nc_fault_time(p, &t, sign, len, example);
	if (!ret && !*len)
		ret = nc_fault_bad(p, &t, " is zero", example);
	if (!ret)
		ret = nc_fault_expect(p, &t, example);
	if (!ret && !nc_tok_is(&t, "every"))
		ret = nc_fault_bad(p, &t, ": expected 'every'", example);
	if (!ret)
		ret = nc_fault_next_time(p, every, false, example);
	if (!ret && (__u64)(*len < 0 ? -*len : *len) >= *every) {
		struct nc_strbuf m = nc_error(p, t.col);

		nc_sb_str(&m, "the period after 'every' must be longer than the fault's length, as in '");
		nc_sb_str(&m, example);
		nc_sb_char(&m, '\'');
		ret = -EINVAL;
	}
	return ret;
}

/* The percentage a fault of @kind holds, or NULL. */
static __u32 *nc_fault_pct(struct negcam_faults *f, __u32 kind)
{
	switch (kind) {
	case NC_FAULT_DROP:
		return &f->drop;
	case NC_FAULT_CORRUPT:
		return &f->corrupt;
	case NC_FAULT_TRUNCATE:
		return &f->truncate;
	case NC_FAULT_ERROR:
		return &f->error;
	}
	return NULL;
}

static int nc_fault_source_change(struct nc_parser *p, struct negcam_faults *f,
				  const char *example)
{
	struct nc_tok t;
	int ret = nc_fault_next_time(p, &f->source_change_ns, true, example);

	if (!ret)
		ret = nc_fault_expect(p, &t, example);
	if (ret)
		return ret;
	ret = nc_parse_wxh(t.s, t.len, &f->source_width, &f->source_height);
	if (!ret && (!f->source_width || !f->source_height))
		ret = -EINVAL;
	if (!ret && (f->source_width > NC_MAX_DIM || f->source_height > NC_MAX_DIM))
		ret = -ERANGE;
	return ret ? nc_bad_size(p, &t, ret) : 0;
}

static int nc_fault_value(struct nc_parser *p, __u32 kind, const char *example)
{
	struct negcam_faults *f = p->faults;
	struct nc_tok t;
	__s64 v;
	int ret;

	switch (kind) {
	case NC_FAULT_STALL:
		ret = nc_fault_every(p, &v, false, &f->stall_every_ns, example);
		f->stall_ns = ret ? 0 : (__u64)v;
		return ret;
	case NC_FAULT_TIMESTAMP_JUMP:
		return nc_fault_every(p, &f->jump_ns, true, &f->jump_every_ns, example);
	case NC_FAULT_UNPLUG:
		return nc_fault_next_time(p, &f->unplug_ns, true, example);
	case NC_FAULT_SOURCE_CHANGE:
		return nc_fault_source_change(p, f, example);
	}
	ret = nc_fault_expect(p, &t, example);
	if (ret)
		return ret;
	if (kind == NC_FAULT_SEED) {
		if (nc_parse_u32(t.s, t.len, &f->seed))
			return nc_fault_bad(p, &t, " is not a seed (0 to 999999999)", example);
		return 0;
	}
	if (kind == NC_FAULT_RATE)
		return nc_parse_rate(p, &t, t.s, t.len, true, &f->rate);
	return nc_fault_percent(p, &t, nc_fault_pct(f, kind), example);
}

/* Each fault's example, for messages (by enum negcam_fault_kind). */
static const char *const nc_fault_examples[NC_NFAULTS] = {
	[NC_FAULT_SEED] = "fault seed 42",
	[NC_FAULT_DROP] = "fault drop 5%",
	[NC_FAULT_STALL] = "fault stall 2s every 10s",
	[NC_FAULT_CORRUPT] = "fault corrupt 10%",
	[NC_FAULT_TRUNCATE] = "fault truncate 10%",
	[NC_FAULT_RATE] = "fault rate 15",
	[NC_FAULT_TIMESTAMP_JUMP] = "fault timestamp-jump 500ms every 3s",
	[NC_FAULT_ERROR] = "fault error 5%",
	[NC_FAULT_SOURCE_CHANGE] = "fault source-change 5s 640x480",
	[NC_FAULT_UNPLUG] = "fault unplug 10s",
};

/* A fault line from its name @t on. */
static int nc_fault_line(struct nc_parser *p, struct nc_tok *t)
{
	struct negcam_faults *f = p->faults;
	__u32 kind;
	int ret = nc_lookup(p, &nc_faults, t, "fault", &kind);

	if (ret)
		return ret;
	if (f->given & (1u << kind)) {
		struct nc_strbuf m = nc_error(p, t->col);

		nc_sb_str(&m, "fault ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, " is given twice");
		return -EINVAL;
	}
	ret = nc_fault_value(p, kind, nc_fault_examples[kind]);
	if (ret)
		return ret;
	f->given |= 1u << kind;
	return nc_expect_end(p, "the fault's values");
}

int nc_kw_fault(struct nc_parser *p, const struct nc_keyword *kw,
		const struct nc_tok *kwt)
{
	struct nc_tok t;
	int ret = nc_expect(p, &t, "a fault after 'fault', as in 'fault drop 5%'");

	return ret ? ret : nc_fault_line(p, &t);
}

/* One ';' or line-separated part of a list of faults; @p's cursor is on it. */
static int nc_fault_part(struct nc_parser *p)
{
	struct nc_tok t;
	int ret = nc_next(p, &t);

	if (ret <= 0)
		return ret;
	ret = 0;
	if (nc_tok_is(&t, "fault"))
		ret = nc_expect(p, &t, "a fault after 'fault', as in 'fault drop 5%'");
	return ret ? ret : nc_fault_line(p, &t);
}

int negcam_faults_parse(struct negcam_faults *out, const char *text, __u32 len,
			struct negcam_parse_error *err)
{
	struct negcam_parse_error local;
	struct nc_parser p;
	__u32 i = 0, end;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.err = err ? err : &local;
	memset(p.err, 0, sizeof(*p.err));
	p.faults = out;
	p.text = text ? text : "";
	p.len = text ? len : 0;
	p.cur_fmt = -1;
	p.line = 1;
	while (!ret && i <= p.len) {
		for (end = i; end < p.len && p.text[end] != ';' && p.text[end] != '\n'; end++)
			;
		p.pos = i;
		p.line_end = end;
		if (end < p.len && p.text[end] == '\n' && end > i && p.text[end - 1] == '\r')
			p.line_end--;
		ret = nc_fault_part(&p);
		if (end < p.len && p.text[end] == '\n') {
			p.line++;
			p.line_start = end + 1;
		}
		i = end + 1;
	}
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret ? -EINVAL : 0;
}
