/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Text built into a caller's fixed buffer: the engine's one string
 * builder, through which the parser writes its error messages and the
 * profile writer its profile text.
 *
 * The text is cut short when the buffer is too small and is always
 * NUL-terminated (a buffer of 0 bytes is never touched); @len counts the
 * whole text as if the buffer were large enough, as snprintf's return
 * value does, so a caller can size its buffer. Freestanding: no
 * allocation, no libc formatting, integers only.
 */
#ifndef NEGCAM_STRBUF_H
#define NEGCAM_STRBUF_H

#include "compat.h"

struct nc_strbuf {
	char *buf;
	__u32 cap; /* bytes of @buf, its terminating NUL included */
	__u32 len; /* of the whole text, as if @buf were large enough */
};

/* An empty text in @buf (@cap bytes; NULL when @cap is 0). */
struct nc_strbuf nc_sb_init(char *buf, __u32 cap);
void nc_sb_char(struct nc_strbuf *sb, char c);
void nc_sb_str(struct nc_strbuf *sb, const char *s);
/* Decimal, no sign, no padding. */
void nc_sb_uint(struct nc_strbuf *sb, __u32 v);
/* A size as "640x480". */
void nc_sb_wxh(struct nc_strbuf *sb, __u32 w, __u32 h);
/* A fraction as "1/30". */
void nc_sb_fract(struct nc_strbuf *sb, struct v4l2_fract f);

#endif /* NEGCAM_STRBUF_H */
