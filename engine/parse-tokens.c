// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The words of a profile line and the values they hold. The tokens are
 * read lazily from the cursor of the current line (nc_next(), nc_expect(),
 * nc_expect_end()): words, quoted strings, comments, control characters
 * refused with a message. The values: unsigned numbers, fourccs (with a
 * "did you mean"), WxH sizes, rates and intervals as reduced fractions,
 * names copied into the profile, an optional queue name.
 */
#include "parse-private.h"
#include "fract.h"

#define NC_MAX_RATE_NUMBER 1000000u /* numerator or denominator of a rate */

__u32 nc_col(const struct nc_parser *p, __u32 offset)
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
int nc_next(struct nc_parser *p, struct nc_tok *t)
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
int nc_expect(struct nc_parser *p, struct nc_tok *t, const char *what)
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
int nc_expect_end(struct nc_parser *p, const char *what)
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

/* The rest of the line after a card name or description: a hint on quotes. */
int nc_expect_end_quoted(struct nc_parser *p, const struct nc_tok *value,
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

/* Copy @t (1..NC_NAME_LEN-1 bytes) into @dst, with @what in errors. */
int nc_copy_name(struct nc_parser *p, const struct nc_tok *t,
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

/* An optional 'capture' or 'output' after a fourcc. */
int nc_parse_queue(struct nc_parser *p, struct nc_tok *t, int *have,
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

/* Decimal digits only; -ERANGE above 999999999, -EINVAL if not a number. */
int nc_parse_u32(const char *s, __u32 len, __u32 *v)
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

__u32 nc_find(const char *s, __u32 len, char c)
{
	__u32 i;

	for (i = 0; i < len; i++)
		if (s[i] == c)
			return i;
	return len;
}

int nc_parse_fourcc(struct nc_parser *p, const struct nc_tok *t,
		    const struct negcam_fourcc_info **info, __u32 *value, bool opaque)
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
	*value = fourcc;
	if (fi || opaque) {
		/* an opaque fourcc keeps a layout documented outside the table */
		*info = negcam_fourcc_info_of(fourcc);
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

int nc_parse_wxh(const char *s, __u32 len, __u32 *w, __u32 *h)
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

int nc_bad_size(struct nc_parser *p, const struct nc_tok *t, int ret)
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

/*
 * A rate or interval value: "N" or "N/D" into a reduced interval.
 * @fps: the value is frames per second, the interval its inverse.
 */
int nc_parse_rate(struct nc_parser *p, const struct nc_tok *t,
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
