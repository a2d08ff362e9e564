// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The engine's string builder; see strbuf.h. */
#include "strbuf.h"

struct nc_strbuf nc_sb_init(char *buf, __u32 cap)
{
	struct nc_strbuf sb = { buf, cap, 0 };

	if (cap)
		buf[0] = '\0';
	return sb;
}

void nc_sb_char(struct nc_strbuf *sb, char c)
{
	if (sb->len + 1 < sb->cap) {
		sb->buf[sb->len] = c;
		sb->buf[sb->len + 1] = '\0';
	}
	sb->len++;
}

void nc_sb_str(struct nc_strbuf *sb, const char *s)
{
	while (*s)
		nc_sb_char(sb, *s++);
}

void nc_sb_uint(struct nc_strbuf *sb, __u32 v)
{
	char digits[10];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		nc_sb_char(sb, digits[--n]);
}

void nc_sb_wxh(struct nc_strbuf *sb, __u32 w, __u32 h)
{
	nc_sb_uint(sb, w);
	nc_sb_char(sb, 'x');
	nc_sb_uint(sb, h);
}

void nc_sb_fract(struct nc_strbuf *sb, struct v4l2_fract f)
{
	nc_sb_uint(sb, f.numerator);
	nc_sb_char(sb, '/');
	nc_sb_uint(sb, f.denominator);
}
