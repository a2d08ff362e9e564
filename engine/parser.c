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
 */
#include "compat.h"
#include "formats.h"
#include "profile.h"
#include "fract.h"
#include "profile-names.h"
#include "strbuf.h"

#define NC_MAX_RATE_NUMBER 1000000u /* numerator or denominator of a rate */
#define NC_MAX_STRIDE_ALIGN 4096u
#define NC_TOKEN_SHOWN 24 /* bytes of a token quoted in a message */
#define NC_SUGGEST_LEN 24 /* longest word "did you mean" considers */

struct nc_tok {
	const char *s; /* contents; inside the quotes for a quoted string */
	__u32 len;
	__u32 col;     /* 1-based; the opening quote for a quoted string */
	bool quoted;
};

/* Settings a format inherits from the profile header. */
enum {
	NC_SET_FIELD = 1u << 0,
	NC_SET_COLORSPACE = 1u << 1,
	NC_SET_YCBCR_ENC = 1u << 2,
	NC_SET_QUANTIZATION = 1u << 3,
	NC_SET_XFER_FUNC = 1u << 4,
	NC_SET_STRIDE_ALIGN = 1u << 5,
	NC_SET_DESCRIPTION = 1u << 6,
	NC_SET_FLAGS = 1u << 7,
};

struct nc_settings {
	__u8 fields[NC_MAX_FIELDS];
	__u8 nfields;
	__u8 colorspace, ycbcr_enc, quantization, xfer_func;
	__u32 stride_align;
	__u32 given; /* NC_SET_* */
};

/* A 'default' line, checked once all formats are known. */
struct nc_default_line {
	bool given;
	__u32 line;
	__u32 fourcc, fourcc_col;
	__u32 width, height, size_col;  /* size_col 0: no size given */
	struct v4l2_fract interval;
	__u32 rate_col;                 /* 0: no rate given */
	const char *rate;               /* the rate as written, for messages */
	__u32 rate_len;
	bool fps;
};

/* Header keywords seen (each at most once). */
enum {
	NC_HDR_NAME = 1u << 0,
	NC_HDR_CARD = 1u << 1,
	NC_HDR_ADJUST = 1u << 2,
	NC_HDR_QUIRKS = 1u << 3,
};

struct nc_parser {
	struct negcam_profile *out;
	struct negcam_parse_error *err;
	const char *text;
	__u32 len;
	__u32 line;       /* current line, 1-based */
	__u32 line_start; /* offset of its first byte */
	__u32 line_end;   /* offset past its contents (before "\r\n" or "\n") */
	__u32 pos;        /* token cursor within the line */
	__u32 header_seen;
	struct nc_settings wide; /* profile-wide settings */
	struct nc_settings cur;  /* the current format's, starting as a copy of wide */
	__u32 cur_seen;          /* settings given inside the current format block */
	__u32 cur_flags;         /* V4L2_FMT_FLAG_* from the block's 'flags' line */
	int cur_fmt;             /* index into out->formats, -1 before the first */
	__u32 cur_fmt_line, cur_fmt_col;
	__u32 cur_range_line;    /* line of the current format's size range, 0 if none */
	const struct negcam_fourcc_info *cur_fi;
	struct nc_default_line def[NC_NQUEUES];
};

/* ---- small freestanding helpers ---- */

static __u32 nc_strlen(const char *s)
{
	__u32 n = 0;

	while (s[n])
		n++;
	return n;
}

static bool nc_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char nc_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Names compare with '-' and '_' as the same character. */
static char nc_fold(char c)
{
	return c == '_' ? '-' : c;
}

static bool nc_tok_is(const struct nc_tok *t, const char *word)
{
	__u32 n = nc_strlen(word), i;

	if (t->len != n)
		return false;
	for (i = 0; i < n; i++)
		if (nc_fold(t->s[i]) != nc_fold(word[i]))
			return false;
	return true;
}

/* ---- messages ---- */

/* 'token' in single quotes, long ones cut with "...", odd bytes as '?'. */
static void nc_msg_quoted(struct nc_strbuf *m, const char *s, __u32 len)
{
	__u32 i, shown = len > NC_TOKEN_SHOWN ? NC_TOKEN_SHOWN : len;

	nc_sb_char(m, '\'');
	for (i = 0; i < shown; i++)
		nc_sb_char(m, (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?');
	if (shown < len)
		nc_sb_str(m, "...");
	nc_sb_char(m, '\'');
}

static void nc_msg_token(struct nc_strbuf *m, const struct nc_tok *t)
{
	nc_msg_quoted(m, t->s, t->len);
}

/* 'YUYV'; trailing spaces dropped; the big-endian flag as v4l2-ctl's "-BE". */
static void nc_msg_fourcc(struct nc_strbuf *m, __u32 fourcc)
{
	char s[7];
	__u32 n = 4, i;

	for (i = 0; i < 4; i++)
		s[i] = (char)((fourcc >> (8 * i)) & (i == 3 ? 0x7f : 0xff));
	while (n > 1 && s[n - 1] == ' ')
		n--;
	if (fourcc & (1u << 31)) {
		memcpy(s + n, "-BE", 3);
		n += 3;
	}
	nc_msg_quoted(m, s, n);
}

/* Start the message of an error at @line:@col (the parse then stops). */
static struct nc_strbuf nc_error_at(struct nc_parser *p, __u32 line, __u32 col)
{
	p->err->line = line;
	p->err->column = col;
	return nc_sb_init(p->err->message, sizeof(p->err->message));
}

static struct nc_strbuf nc_error(struct nc_parser *p, __u32 col)
{
	return nc_error_at(p, p->line, col);
}

/* ---- "did you mean" ---- */

/* Edit distance of two short words, names folded as nc_tok_is() does. */
static __u32 nc_distance(const char *a, __u32 la, const char *b, __u32 lb,
			 bool icase)
{
	__u8 row[NC_SUGGEST_LEN + 1];
	__u32 i, j;

	for (j = 0; j <= lb; j++)
		row[j] = (__u8)j;
	for (i = 1; i <= la; i++) {
		__u8 diag = row[0];

		row[0] = (__u8)i;
		for (j = 1; j <= lb; j++) {
			char ca = nc_fold(a[i - 1]), cb = nc_fold(b[j - 1]);
			__u8 up = row[j], best;

			if (icase) {
				ca = nc_lower(ca);
				cb = nc_lower(cb);
			}
			best = (__u8)(diag + (ca != cb));
			if (up + 1 < best)
				best = (__u8)(up + 1);
			if (row[j - 1] + 1 < best)
				best = (__u8)(row[j - 1] + 1);
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/*
 * The entry closest to @t within a couple of edits, or NULL. @table holds
 * @n entries of @stride bytes, each starting with its name (struct
 * nc_name, struct nc_keyword).
 */
static const char *nc_suggest(const void *table, __u32 n, __u32 stride,
			      const struct nc_tok *t)
{
	const char *best = NULL;
	__u32 best_d = 3, i;

	if (t->len > NC_SUGGEST_LEN)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)table + i * stride);
		__u32 l = nc_strlen(name), d;

		if (l > NC_SUGGEST_LEN)
			continue;
		d = nc_distance(t->s, t->len, name, l, true);
		/* one edit for short words, two for longer ones */
		if (d < best_d && d <= (l <= 4 ? 1u : 2u)) {
			best = name;
			best_d = d;
		}
	}
	return best;
}

static void nc_msg_names(struct nc_strbuf *m, const struct nc_name *names, __u32 n)
{
	__u32 i, j;

	for (i = 0; i < n; i++) {
		/* aliases (a value already listed) are not repeated */
		for (j = 0; j < i; j++)
			if (names[j].value == names[i].value)
				break;
		if (j < i)
			continue;
		if (i)
			nc_sb_str(m, ", ");
		nc_sb_str(m, names[i].name);
	}
}

/*
 * Look @t up in @table. On failure: "unknown WHAT 'tok'; did you mean
 * 'x'?" or "unknown WHAT 'tok' (expected one of: ...)".
 */
static int nc_lookup(struct nc_parser *p, const struct nc_names *table,
		     const struct nc_tok *t, const char *what, __u32 *value)
{
	const struct nc_name *names = table->names;
	__u32 n = table->count, i;
	const char *hint;
	struct nc_strbuf m;

	for (i = 0; i < n; i++) {
		if (nc_tok_is(t, names[i].name)) {
			*value = names[i].value;
			return 0;
		}
	}
	m = nc_error(p, t->col);
	nc_sb_str(&m, "unknown ");
	nc_sb_str(&m, what);
	nc_sb_char(&m, ' ');
	nc_msg_token(&m, t);
	hint = nc_suggest(names, n, sizeof(*names), t);
	if (hint) {
		nc_sb_str(&m, "; did you mean '");
		nc_sb_str(&m, hint);
		nc_sb_str(&m, "'?");
	} else {
		nc_sb_str(&m, " (expected one of: ");
		nc_msg_names(&m, names, n);
		nc_sb_char(&m, ')');
	}
	return -EINVAL;
}

/* ---- lines and tokens ---- */

static __u32 nc_col(const struct nc_parser *p, __u32 offset)
{
	return offset - p->line_start + 1;
}

/* Column where a missing token was expected: the cursor after blanks. */
static __u32 nc_here(struct nc_parser *p)
{
	while (p->pos < p->line_end &&
	       (p->text[p->pos] == ' ' || p->text[p->pos] == '\t'))
		p->pos++;
	return nc_col(p, p->pos);
}

static int nc_control_char(struct nc_parser *p, __u32 offset, bool quoted)
{
	struct nc_strbuf m = nc_error(p, nc_col(p, offset));

	if (p->text[offset] == '\r') {
		nc_sb_str(&m, "stray carriage return: lines end with \"\\n\" or \"\\r\\n\"");
		return -EINVAL;
	}
	nc_sb_str(&m, "control character 0x");
	nc_sb_char(&m, "0123456789abcdef"[((__u8)p->text[offset]) >> 4]);
	nc_sb_char(&m, "0123456789abcdef"[((__u8)p->text[offset]) & 15]);
	nc_sb_str(&m, quoted ? " is not allowed inside quotes" :
			   " is not allowed (only spaces and tabs separate words)");
	return -EINVAL;
}

static bool nc_is_control(char c)
{
	return ((__u8)c < 0x20 && c != '\t') || c == 0x7f;
}

/*
 * Next token of the current line into @t: 1 if there is one, 0 at the
 * end of the line or at a comment, -EINVAL on malformed text.
 */
static int nc_next(struct nc_parser *p, struct nc_tok *t)
{
	const char *s = p->text;
	__u32 start;

	nc_here(p);
	if (p->pos >= p->line_end || s[p->pos] == '#')
		return 0;
	start = p->pos;
	t->col = nc_col(p, start);
	if (s[start] == '"') {
		__u32 i = start + 1;

		while (i < p->line_end && s[i] != '"') {
			if (nc_is_control(s[i]) || s[i] == '\t')
				return nc_control_char(p, i, true);
			i++;
		}
		if (i >= p->line_end) {
			struct nc_strbuf m = nc_error(p, t->col);

			nc_sb_str(&m, "unterminated quoted string: add the closing '\"' on the same line");
			return -EINVAL;
		}
		t->s = s + start + 1;
		t->len = i - start - 1;
		t->quoted = true;
		p->pos = i + 1;
		if (p->pos < p->line_end && s[p->pos] != ' ' &&
		    s[p->pos] != '\t' && s[p->pos] != '#') {
			struct nc_strbuf m = nc_error(p, nc_col(p, p->pos));

			nc_sb_str(&m, "expected a space after the closing '\"'");
			return -EINVAL;
		}
		return 1;
	}
	while (p->pos < p->line_end && s[p->pos] != ' ' && s[p->pos] != '\t' &&
	       s[p->pos] != '#') {
		if (nc_is_control(s[p->pos]))
			return nc_control_char(p, p->pos, false);
		if (s[p->pos] == '"') {
			struct nc_strbuf m = nc_error(p, nc_col(p, p->pos));

			nc_sb_str(&m, "unexpected '\"' inside a word: quote the whole value, as in \"My Camera\"");
			return -EINVAL;
		}
		p->pos++;
	}
	t->s = s + start;
	t->len = p->pos - start;
	t->quoted = false;
	return 1;
}

/* The next token, which must exist: else "expected WHAT". */
static int nc_expect(struct nc_parser *p, struct nc_tok *t, const char *what)
{
	int ret = nc_next(p, t);

	if (ret < 0)
		return ret;
	if (ret == 0) {
		struct nc_strbuf m = nc_error(p, nc_here(p));

		nc_sb_str(&m, "expected ");
		nc_sb_str(&m, what);
		return -EINVAL;
	}
	return 0;
}

/* Nothing may follow on the line: else "unexpected 'x' after WHAT". */
static int nc_expect_end(struct nc_parser *p, const char *what)
{
	struct nc_tok t;
	int ret = nc_next(p, &t);

	if (ret <= 0)
		return ret;
	{
		struct nc_strbuf m = nc_error(p, t.col);

		nc_sb_str(&m, "unexpected ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, " after ");
		nc_sb_str(&m, what);
	}
	return -EINVAL;
}

/* ---- numbers, fourccs, sizes and rates ---- */

/* Decimal digits only; -ERANGE above 999999999, -EINVAL if not a number. */
static int nc_parse_u32(const char *s, __u32 len, __u32 *v)
{
	__u32 i, x = 0;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!nc_is_digit(s[i]))
			return -EINVAL;
	for (i = 0; i < len; i++) {
		if (x > 99999999)
			return -ERANGE;
		x = x * 10 + (__u32)(s[i] - '0');
	}
	*v = x;
	return 0;
}

static __u32 nc_find(const char *s, __u32 len, char c)
{
	__u32 i;

	for (i = 0; i < len; i++)
		if (s[i] == c)
			return i;
	return len;
}

static int nc_parse_fourcc(struct nc_parser *p, const struct nc_tok *t,
			   const struct negcam_fourcc_info **info)
{
	const struct negcam_fourcc_info *fi, *hint = NULL;
	__u32 fourcc = 0, i, len = t->len;
	struct nc_strbuf m;

	/* v4l2-ctl writes the big-endian variant of 'Y16 ' as 'Y16 -BE' */
	if (len > 3 && !memcmp(t->s + len - 3, "-BE", 3)) {
		len -= 3;
		fourcc = 1u << 31;
	}
	if (len == 0 || len > 4) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, "bad pixel format ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, ": expected a fourcc of 1 to 4 characters, as YUYV or MJPG");
		return -EINVAL;
	}
	for (i = 0; i < 4; i++)
		fourcc |= (__u32)(__u8)(i < len ? t->s[i] : ' ') << (8 * i);
	fi = negcam_fourcc_lookup(fourcc);
	if (fi) {
		*info = fi;
		return 0;
	}
	/* "did you mean": a case slip first, else one changed character */
	for (i = 0; (fi = negcam_fourcc_at(i)) != NULL; i++) {
		char s[4];
		__u32 n = 4, j;

		for (j = 0; j < 4; j++)
			s[j] = (char)((fi->fourcc >> (8 * j)) & 0xff);
		while (n > 1 && s[n - 1] == ' ')
			n--;
		if (nc_distance(t->s, t->len, s, n, true) == 0) {
			hint = fi;
			break;
		}
		if (!hint && nc_distance(t->s, t->len, s, n, false) == 1)
			hint = fi;
	}
	m = nc_error(p, t->col);
	nc_sb_str(&m, "unknown pixel format ");
	nc_msg_token(&m, t);
	if (hint) {
		nc_sb_str(&m, "; did you mean ");
		nc_msg_fourcc(&m, hint->fourcc);
		nc_sb_char(&m, '?');
	} else {
		nc_sb_str(&m, " (not in negcam's format table; docs/profiles.md lists the known ones)");
	}
	return -EINVAL;
}

static int nc_parse_wxh(const char *s, __u32 len, __u32 *w, __u32 *h)
{
	__u32 x = nc_find(s, len, 'x');
	int ret;

	if (x == len)
		return -EINVAL;
	ret = nc_parse_u32(s, x, w);
	if (ret)
		return ret;
	return nc_parse_u32(s + x + 1, len - x - 1, h);
}

static int nc_bad_size(struct nc_parser *p, const struct nc_tok *t, int ret)
{
	struct nc_strbuf m = nc_error(p, t->col);

	if (ret == -ERANGE) {
		nc_sb_str(&m, "size ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, " is too large: a width or height is at most ");
		nc_sb_uint(&m, NC_MAX_DIM);
		return -EINVAL;
	}
	nc_sb_str(&m, "bad size ");
	nc_msg_token(&m, t);
	nc_sb_str(&m, ": expected WIDTHxHEIGHT (640x480) or a range MINxMIN-MAXxMAX (48x32-1920x1080)");
	return -EINVAL;
}

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

/*
 * A rate or interval value: "N" or "N/D" into a reduced interval.
 * @fps: the value is frames per second, the interval its inverse.
 */
static int nc_parse_rate(struct nc_parser *p, const struct nc_tok *t,
			 const char *s, __u32 len, bool fps,
			 struct v4l2_fract *out)
{
	__u32 slash = nc_find(s, len, '/'), num, den = 1;
	struct nc_strbuf m;
	int ret;

	ret = nc_parse_u32(s, slash, &num);
	if (!ret && slash < len)
		ret = nc_parse_u32(s + slash + 1, len - slash - 1, &den);
	if (ret == -EINVAL) {
		m = nc_error(p, t->col);
		if (fps) {
			nc_sb_str(&m, "bad frame rate ");
			nc_msg_token(&m, t);
			nc_sb_str(&m, ": expected frames per second as N or N/D (30, 30000/1001, 15/2) or a range (1-60)");
		} else {
			nc_sb_str(&m, "bad frame interval ");
			nc_msg_token(&m, t);
			nc_sb_str(&m, ": expected seconds per frame as N/D (1/30, 1001/30000) or a range (1/60-1/1)");
		}
		return -EINVAL;
	}
	if (ret == -ERANGE || num > NC_MAX_RATE_NUMBER ||
	    den > NC_MAX_RATE_NUMBER) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, fps ? "frame rate " : "frame interval ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, " is out of range: numerator and denominator are at most ");
		nc_sb_uint(&m, NC_MAX_RATE_NUMBER);
		return -EINVAL;
	}
	if (num == 0 || den == 0) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, fps ? "frame rate " : "frame interval ");
		nc_msg_token(&m, t);
		nc_sb_str(&m, num == 0 ? " is zero: it must be positive" : " divides by zero");
		return -EINVAL;
	}
	*out = fps ? nc_fract_reduced(den, num) : nc_fract_reduced(num, den);
	return 0;
}

/* ---- the format being built ---- */

static struct negcam_format *nc_cur(struct nc_parser *p)
{
	return &p->out->formats[p->cur_fmt];
}

/* Copy @t (1..NC_NAME_LEN-1 bytes) into @dst, with @what in errors. */
static int nc_copy_name(struct nc_parser *p, const struct nc_tok *t,
			char *dst, const char *what)
{
	struct nc_strbuf m;

	if (t->len == 0 || t->len >= NC_NAME_LEN) {
		m = nc_error(p, t->col);
		nc_sb_str(&m, what);
		nc_sb_char(&m, ' ');
		nc_msg_token(&m, t);
		if (t->len) {
			nc_sb_str(&m, " is ");
			nc_sb_uint(&m, t->len);
			nc_sb_str(&m, " bytes long; at most ");
			nc_sb_uint(&m, NC_NAME_LEN - 1);
			nc_sb_str(&m, " fit");
		} else {
			nc_sb_str(&m, " is empty");
		}
		return -EINVAL;
	}
	memcpy(dst, t->s, t->len);
	dst[t->len] = '\0';
	return 0;
}

/* The rest of the line after a card name or description: a hint on quotes. */
static int nc_expect_end_quoted(struct nc_parser *p, const struct nc_tok *value,
				const char *what)
{
	struct nc_tok t;
	int ret = nc_next(p, &t);
	struct nc_strbuf m;

	if (ret <= 0)
		return ret;
	m = nc_error(p, t.col);
	nc_sb_str(&m, "unexpected ");
	nc_msg_token(&m, &t);
	nc_sb_str(&m, " after the ");
	nc_sb_str(&m, what);
	if (!value->quoted)
		nc_sb_str(&m, ": put a value with spaces in double quotes");
	return -EINVAL;
}

/* Close the current format: require sizes, resolve inherited settings. */
static int nc_finish_format(struct nc_parser *p)
{
	const struct negcam_fourcc_info *fi = p->cur_fi;
	const struct nc_settings *s = &p->cur;
	struct negcam_format *f;
	__u32 cs, enc, quant, xfer;

	if (p->cur_fmt < 0)
		return 0;
	f = nc_cur(p);
	if (!f->size_count) {
		struct nc_strbuf m = nc_error_at(p, p->cur_fmt_line, p->cur_fmt_col);

		nc_sb_str(&m, "format ");
		nc_msg_fourcc(&m, f->fourcc);
		nc_sb_str(&m, " has no sizes: add a line such as 'size 640x480 fps 30' after it");
		return -EINVAL;
	}
	if (s->nfields) {
		memcpy(f->fields, s->fields, sizeof(f->fields));
		f->nfields = s->nfields;
	} else {
		f->fields[0] = V4L2_FIELD_NONE;
		f->nfields = 1;
	}
	f->stride_align = (s->given & NC_SET_STRIDE_ALIGN) ? s->stride_align : 1;

	/*
	 * Colorimetry: the format table's default; a named colorspace
	 * brings its own defaults (V4L2_MAP_*_DEFAULT, but JPEG data is
	 * always full range); fields named explicitly win.
	 */
	negcam_fourcc_colorimetry(fi, &cs, &enc, &quant, &xfer);
	if (s->given & NC_SET_COLORSPACE) {
		bool rgb = fi->color == NC_COLOR_RGB ||
			   fi->color == NC_COLOR_BAYER ||
			   fi->color == NC_COLOR_OTHER;

		cs = s->colorspace;
		/* HSV keeps its hue encoding in ycbcr_enc: the table's */
		if (fi->color != NC_COLOR_OTHER)
			enc = V4L2_MAP_YCBCR_ENC_DEFAULT(cs);
		xfer = V4L2_MAP_XFER_FUNC_DEFAULT(cs);
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(rgb, cs, enc);
		if (fi->color == NC_COLOR_JPEG)
			quant = V4L2_QUANTIZATION_FULL_RANGE;
	}
	if (s->given & NC_SET_YCBCR_ENC)
		enc = s->ycbcr_enc;
	if (s->given & NC_SET_QUANTIZATION)
		quant = s->quantization;
	if (s->given & NC_SET_XFER_FUNC)
		xfer = s->xfer_func;
	f->colorspace = (__u8)cs;
	f->ycbcr_enc = (__u8)enc;
	f->quantization = (__u8)quant;
	f->xfer_func = (__u8)xfer;

	if (!(p->cur_seen & NC_SET_DESCRIPTION) && fi->description) {
		__u32 n = nc_strlen(fi->description);

		if (n >= NC_NAME_LEN)
			n = NC_NAME_LEN - 1;
		memcpy(f->description, fi->description, n);
		f->description[n] = '\0';
	}
	f->flags = fi->layout == NC_LAYOUT_COMPRESSED ? V4L2_FMT_FLAG_COMPRESSED : 0;
	f->flags |= p->cur_flags;
	return 0;
}

/* ---- keywords ---- */

struct nc_keyword;

/*
 * A keyword's handler: @kwt is the keyword's token, the line's next
 * token is still to be read.
 */
typedef int (*nc_kw_fn)(struct nc_parser *p, const struct nc_keyword *kw,
			const struct nc_tok *kwt);
/* A setting's value reader: @t is the value's first token. */
typedef int (*nc_set_fn)(struct nc_parser *p, const struct nc_keyword *kw,
			 struct nc_settings *s, struct nc_tok *t);

/* Where a keyword may stand. */
enum nc_place {
	NC_PLACE_HEADER, /* before the first 'format' line */
	NC_PLACE_FORMAT, /* inside a format block */
	NC_PLACE_ANY,    /* either (settings: profile-wide or per format) */
};

/**
 * struct nc_keyword - one keyword of the profile language
 * @name: the keyword; first, so nc_suggest() reads it at any stride
 * @place: where it may stand
 * @parse: its handler
 * @once: header keywords: the NC_HDR_* bit of a keyword given once (0: the
 *	handler checks); settings: the NC_SET_* bit
 * @set: settings: reads the value into struct nc_settings
 * @expect: settings: what a missing value should have been
 * @values: settings with named values: the names, the value stored as
 *	one byte at @member of struct nc_settings
 */
struct nc_keyword {
	const char *name;
	enum nc_place place;
	nc_kw_fn parse;
	__u32 once;
	nc_set_fn set;
	const char *expect;
	const struct nc_names *values;
	__u32 member;
};


static int nc_kw_name(struct nc_parser *p, const struct nc_keyword *kw,
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

static int nc_kw_card(struct nc_parser *p, const struct nc_keyword *kw,
			 const struct nc_tok *kwt)
{
	struct nc_tok t;
	int ret = nc_expect(p, &t, "a card name after 'card', as in 'card \"My Camera\"'");

	if (ret)
		return ret;
	ret = nc_copy_name(p, &t, p->out->card, "card name");
	return ret ? ret : nc_expect_end_quoted(p, &t, "card name");
}

static int nc_kw_adjust(struct nc_parser *p, const struct nc_keyword *kw,
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

static int nc_kw_quirks(struct nc_parser *p, const struct nc_keyword *kw,
			 const struct nc_tok *kwt)
{
	struct nc_tok t;
	__u32 v;
	int ret = nc_expect(p, &t, "quirk names after 'quirks', as in 'quirks legacy-einval'");

	while (!ret) {
		ret = nc_lookup(p, &nc_quirks, &t,
				"quirk", &v);
		if (ret)
			return ret;
		if (p->out->quirks & v) {
			struct nc_strbuf m = nc_error(p, t.col);

			nc_sb_str(&m, "quirk ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is listed twice");
			return -EINVAL;
		}
		p->out->quirks |= v;
		ret = nc_next(p, &t);
		if (ret == 0)
			return 0;
		if (ret > 0)
			ret = 0;
	}
	return ret;
}

/* An optional 'capture' or 'output' after a fourcc. */
static int nc_parse_queue(struct nc_parser *p, struct nc_tok *t, int *have,
			  enum negcam_queue *q)
{
	*q = NC_CAPTURE;
	if (*have <= 0)
		return 0;
	if (nc_tok_is(t, "capture") || nc_tok_is(t, "output")) {
		*q = nc_tok_is(t, "output") ? NC_OUTPUT : NC_CAPTURE;
		*have = nc_next(p, t);
		if (*have < 0)
			return *have;
	}
	return 0;
}

/* default FOURCC [capture|output] [WxH [fps R | interval I]] */
static int nc_kw_default(struct nc_parser *p, const struct nc_keyword *kw,
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
		ret = nc_parse_fourcc(p, &t, &fi);
	if (ret)
		return ret;
	d.given = true;
	d.line = p->line;
	d.fourcc = fi->fourcc;
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

/* field NAME... */
static int nc_set_fields(struct nc_parser *p, const struct nc_keyword *kw,
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
static int nc_set_stride(struct nc_parser *p, const struct nc_keyword *kw,
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
static int nc_set_named(struct nc_parser *p, const struct nc_keyword *kw,
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
static int nc_kw_setting(struct nc_parser *p, const struct nc_keyword *kw,
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

/* format FOURCC [capture|output] */
static int nc_kw_format(struct nc_parser *p, const struct nc_keyword *kw,
			 const struct nc_tok *kwt)
{
	struct negcam_profile *out = p->out;
	const struct negcam_fourcc_info *fi;
	struct negcam_format *f;
	enum negcam_queue q;
	struct nc_tok t;
	__u32 i, col;
	int have, ret;

	ret = nc_finish_format(p);
	if (!ret)
		ret = nc_expect(p, &t, "a pixel format after 'format', as in 'format YUYV'");
	if (!ret)
		ret = nc_parse_fourcc(p, &t, &fi);
	if (ret)
		return ret;
	col = t.col;
	have = nc_next(p, &t);
	ret = nc_parse_queue(p, &t, &have, &q);
	if (ret)
		return ret;
	if (have > 0) {
		struct nc_strbuf m = nc_error(p, t.col);

		nc_sb_str(&m, "unexpected ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, " after the pixel format: expected 'capture', 'output' or the end of the line");
		return -EINVAL;
	}
	if (have < 0)
		return have;
	for (i = 0; i < out->nformats; i++) {
		f = &out->formats[i];
		if (f->fourcc == fi->fourcc && negcam_queue_of(f->buf_type) == (int)q) {
			struct nc_strbuf m = nc_error(p, col);

			nc_sb_str(&m, "format ");
			nc_msg_fourcc(&m, fi->fourcc);
			nc_sb_str(&m, q == NC_OUTPUT ? " (output)" : "");
			nc_sb_str(&m, " is defined twice: put all its sizes in one block");
			return -EINVAL;
		}
	}
	if (out->nformats == NC_MAX_FORMATS) {
		struct nc_strbuf m = nc_error(p, col);

		nc_sb_str(&m, "too many formats: a profile holds at most ");
		nc_sb_uint(&m, NC_MAX_FORMATS);
		return -EINVAL;
	}
	p->cur_fmt = out->nformats++;
	p->cur_fmt_line = p->line;
	p->cur_fmt_col = col;
	p->cur_fi = fi;
	p->cur = p->wide;
	p->cur_seen = 0;
	p->cur_flags = 0;
	p->cur_range_line = 0;
	f = nc_cur(p);
	f->fourcc = fi->fourcc;
	f->buf_type = q == NC_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
				       V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->size_first = out->nsizes;
	return 0;
}

static int nc_kw_description(struct nc_parser *p, const struct nc_keyword *kw,
			 const struct nc_tok *kwt)
{
	struct nc_tok t;
	int ret;

	if (nc_cur(p)->size_count) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_sb_str(&m, "'description' must come before the format's first 'size' line");
		return -EINVAL;
	}
	if (p->cur_seen & NC_SET_DESCRIPTION) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_sb_str(&m, "'description' is given twice for this format");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "a description after 'description', as in 'description \"YUYV 4:2:2\"'");
	if (!ret)
		ret = nc_copy_name(p, &t, nc_cur(p)->description, "description");
	if (ret)
		return ret;
	p->cur_seen |= NC_SET_DESCRIPTION;
	return nc_expect_end_quoted(p, &t, "description");
}

/* flags csc-colorspace csc-xfer-func csc-ycbcr-enc csc-quantization */
static int nc_kw_flags(struct nc_parser *p, const struct nc_keyword *kw,
			 const struct nc_tok *kwt)
{
	const struct negcam_format *f = nc_cur(p);
	struct nc_tok t;
	struct nc_strbuf m;
	__u32 v;
	int ret;

	if (f->size_count) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'flags' must come before the format's first 'size' line");
		return -EINVAL;
	}
	if (p->cur_seen & NC_SET_FLAGS) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'flags' is given twice for this format: list all flags on one line");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "flag names after 'flags', as in 'flags csc-colorspace csc-quantization'");
	while (!ret) {
		ret = nc_lookup(p, &nc_fmt_flags, &t,
				"format flag", &v);
		if (ret)
			return ret;
		if (v == NC_FMT_FLAG_EMULATED_NAME) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag 'emulated' is set by libv4l for the formats it converts, "
				  "never by a driver: list the device without libv4l");
			return -EINVAL;
		}
		if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is for capture formats only: colorspace conversion is requested on capture");
			return -EINVAL;
		}
		if (p->cur_fi->layout == NC_LAYOUT_COMPRESSED) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " needs a raw format: ");
			nc_msg_fourcc(&m, f->fourcc);
			nc_sb_str(&m, " is compressed");
			return -EINVAL;
		}
		if ((v == V4L2_FMT_FLAG_CSC_YCBCR_ENC) &&
		    (nc_tok_is(&t, "csc-hsv") || nc_tok_is(&t, "csc-hsv-enc")) !=
		    (p->cur_fi->color == NC_COLOR_OTHER)) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, p->cur_fi->color == NC_COLOR_OTHER ?
				  " is for Y'CbCr formats: an HSV format has 'csc-hsv'" :
				  " is for HSV formats: use 'csc-ycbcr-enc'");
			return -EINVAL;
		}
		if (p->cur_flags & v) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is listed twice");
			return -EINVAL;
		}
		p->cur_flags |= v;
		ret = nc_next(p, &t);
		if (ret == 0)
			break;
		if (ret > 0)
			ret = 0;
	}
	if (ret)
		return ret;
	p->cur_seen |= NC_SET_FLAGS;
	return 0;
}

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
static int nc_parse_rates(struct nc_parser *p, const struct nc_tok *size_tok,
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
 * The optional 'step WxH' after a size range (1x1 without: continuous);
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

/* The step keeps every size of the range valid and divides it whole. */
static int nc_size_step_fits(struct nc_parser *p, const struct nc_tok *at,
			     const struct negcam_format *f, const struct negcam_size *sz,
			     __u32 hs, __u32 vs, bool given)
{
	struct nc_strbuf m;

	if (sz->step_w % hs || sz->step_h % vs) {
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
	f->size_kind = (sz->step_w == 1 && sz->step_h == 1) ? V4L2_FRMSIZE_TYPE_CONTINUOUS :
							      V4L2_FRMSIZE_TYPE_STEPWISE;
	p->cur_range_line = p->line;
	return 0;
}

/* size WxH rates | size WxH-WxH [step WxH] rates */
static int nc_kw_size(struct nc_parser *p, const struct nc_keyword *kw,
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

/* ---- lines ---- */

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
	{ "adjust", NC_PLACE_HEADER, nc_kw_adjust, NC_HDR_ADJUST },
	{ "quirks", NC_PLACE_HEADER, nc_kw_quirks, NC_HDR_QUIRKS },
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
	{ "format", NC_PLACE_ANY, nc_kw_format },
	{ "description", NC_PLACE_FORMAT, nc_kw_description },
	{ "flags", NC_PLACE_FORMAT, nc_kw_flags },
	{ "size", NC_PLACE_FORMAT, nc_kw_size },
};

/* The keyword @t names, or NULL with the message said. */
static const struct nc_keyword *nc_keyword_of(struct nc_parser *p,
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
	nc_sb_str(&m, "unknown keyword ");
	nc_msg_token(&m, t);
	if (hint) {
		nc_sb_str(&m, "; did you mean '");
		nc_sb_str(&m, hint);
		nc_sb_str(&m, "'?");
	} else {
		nc_sb_str(&m, " (docs/profiles.md lists the keywords)");
	}
	return NULL;
}

/* Whether @kw may stand here; header keywords given once are noted. */
static int nc_keyword_placed(struct nc_parser *p, const struct nc_keyword *kw,
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

/* After the last line: close the last format, require the essentials, defaults. */
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
