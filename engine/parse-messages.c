// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The parser's error messages and its "did you mean": an error starts a
 * message at a line and column (nc_error(), nc_error_at()), which the
 * caller words with strbuf.h and the quoting helpers here; a word looked
 * up in a table of names (nc_lookup()) or of keywords (nc_suggest()) that
 * is not there gets the closest entry suggested, or the list of all.
 */
#include "parse-private.h"

#define NC_TOKEN_SHOWN 24 /* bytes of a token quoted in a message */

#define NC_SUGGEST_LEN 24 /* longest word "did you mean" considers */

static char nc_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* 'token' in single quotes, long ones cut with "...", odd bytes as '?'. */
void nc_msg_quoted(struct nc_strbuf *m, const char *s, __u32 len)
{
	__u32 i, shown = len > NC_TOKEN_SHOWN ? NC_TOKEN_SHOWN : len;

	nc_sb_char(m, '\'');
	for (i = 0; i < shown; i++)
		nc_sb_char(m, (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?');
	if (shown < len)
		nc_sb_str(m, "...");
	nc_sb_char(m, '\'');
}

void nc_msg_token(struct nc_strbuf *m, const struct nc_tok *t)
{
	nc_msg_quoted(m, t->s, t->len);
}

/* 'YUYV'; trailing spaces dropped; the big-endian flag as v4l2-ctl's "-BE". */
void nc_msg_fourcc(struct nc_strbuf *m, __u32 fourcc)
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
struct nc_strbuf nc_error_at(struct nc_parser *p, __u32 line, __u32 col)
{
	p->err->line = line;
	p->err->column = col;
	return nc_sb_init(p->err->message, sizeof(p->err->message));
}

struct nc_strbuf nc_error(struct nc_parser *p, __u32 col)
{
	return nc_error_at(p, p->line, col);
}

/* Edit distance of two short words, names folded as nc_tok_is() does. */
__u32 nc_distance(const char *a, __u32 la, const char *b, __u32 lb,
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
const char *nc_suggest(const void *table, __u32 n, __u32 stride,
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

/* "unknown WHAT 'tok'" and "; did you mean 'HINT'?" when there is a @hint, else false. */
bool nc_msg_unknown(struct nc_strbuf *m, const char *what, const struct nc_tok *t,
		    const char *hint)
{
	nc_sb_str(m, "unknown ");
	nc_sb_str(m, what);
	nc_sb_char(m, ' ');
	nc_msg_token(m, t);
	if (!hint)
		return false;
	nc_sb_str(m, "; did you mean '");
	nc_sb_str(m, hint);
	nc_sb_str(m, "'?");
	return true;
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
int nc_lookup(struct nc_parser *p, const struct nc_names *table,
	      const struct nc_tok *t, const char *what, __u32 *value)
{
	const struct nc_name *names = table->names;
	__u32 n = table->count, i;
	struct nc_strbuf m;

	for (i = 0; i < n; i++) {
		if (nc_tok_is(t, names[i].name)) {
			*value = names[i].value;
			return 0;
		}
	}
	m = nc_error(p, t->col);
	if (!nc_msg_unknown(&m, what, t, nc_suggest(names, n, sizeof(*names), t))) {
		nc_sb_str(&m, " (expected one of: ");
		nc_msg_names(&m, names, n);
		nc_sb_char(&m, ')');
	}
	return -EINVAL;
}
