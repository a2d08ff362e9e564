/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The profile parser's own header: its state and the calls between its
 * files. Only engine/parser.c and engine/parse-*.c include it; the
 * parser's interface is negcam_profile_parse() in profile.h.
 *
 * The parser is split along the profile language (docs/profiles.md), one
 * concern a file, each calling only the files listed below it:
 *   parser.c          the line loop, the checks after the last line, the entry point
 *   parse-keywords.c  the keyword table (data), where each keyword may stand
 *   parse-header.c    name, card, usb-id, uvc-bugs, adjust, quirks, multiplanar and default lines
 *   parse-settings.c  field, colorimetry and stride-align, profile-wide or per format
 *   parse-format.c    a format block: format, description and flags lines, its closing
 *   parse-sizes.c     size lines
 *   parse-rates.c     the rate clause of a size line, the shared interval pool
 *   parse-fault.c     fault lines (docs/faults.md)
 *   parse-tokens.c    a line's words and the values they hold (numbers, fourccs, sizes, rates)
 *   parse-messages.c  error messages and "did you mean"
 * and below them all strbuf.c, the string builder the messages are written with.
 */
#ifndef NEGCAM_PARSE_PRIVATE_H
#define NEGCAM_PARSE_PRIVATE_H

#include "compat.h"
#include "formats.h"
#include "profile.h"
#include "profile-names.h"
#include "strbuf.h"

/* One word of a line. */
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
	NC_SET_SIZEIMAGE = 1u << 8,
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
	NC_HDR_MULTIPLANAR = 1u << 4,
	NC_HDR_UVC_BUGS = 1u << 5,
};

/* The parse in progress: where the cursor is, what is built so far. */
struct nc_parser {
	struct negcam_profile *out; /* NULL for a list of faults alone */
	struct negcam_faults *faults; /* where 'fault' lines go: out's, or the list's */
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
	__u32 cur_sizeimage_line, cur_sizeimage_col; /* its 'sizeimage' value */
	const struct negcam_fourcc_info *cur_fi;
	struct nc_default_line def[NC_NQUEUES];
};

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

static inline __u32 nc_strlen(const char *s)
{
	__u32 n = 0;

	while (s[n])
		n++;
	return n;
}

static inline bool nc_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Names compare with '-' and '_' as the same character. */
static inline char nc_fold(char c)
{
	return c == '_' ? '-' : c;
}

static inline bool nc_tok_is(const struct nc_tok *t, const char *word)
{
	__u32 n = nc_strlen(word), i;

	if (t->len != n)
		return false;
	for (i = 0; i < n; i++)
		if (nc_fold(t->s[i]) != nc_fold(word[i]))
			return false;
	return true;
}

/* The format being built (the parser is inside a format block). */
static inline struct negcam_format *nc_cur(struct nc_parser *p)
{
	return &p->out->formats[p->cur_fmt];
}

/* parse-keywords.c: the keyword a line starts with, and whether it may stand there */
const struct nc_keyword *nc_keyword_of(struct nc_parser *p,
				       const struct nc_tok *t);
int nc_keyword_placed(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *t);

/* parse-header.c: the header keywords' handlers; the card and defaults at the end */
int nc_kw_name(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt);
int nc_kw_card(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt);
int nc_kw_usb_id(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt);
int nc_kw_adjust(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt);
int nc_kw_uvc_bugs(struct nc_parser *p, const struct nc_keyword *kw,
		   const struct nc_tok *kwt);
int nc_kw_quirks(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt);
int nc_kw_multiplanar(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *kwt);
int nc_kw_default(struct nc_parser *p, const struct nc_keyword *kw,
		  const struct nc_tok *kwt);
int nc_finish_header(struct nc_parser *p);

/* parse-settings.c: the settings' value readers and their handler */
int nc_set_fields(struct nc_parser *p, const struct nc_keyword *kw,
		  struct nc_settings *s, struct nc_tok *t);
int nc_set_stride(struct nc_parser *p, const struct nc_keyword *kw,
		  struct nc_settings *s, struct nc_tok *t);
int nc_set_named(struct nc_parser *p, const struct nc_keyword *kw,
		 struct nc_settings *s, struct nc_tok *t);
int nc_kw_setting(struct nc_parser *p, const struct nc_keyword *kw,
		  const struct nc_tok *kwt);

/* parse-format.c: a format block's handlers; closing the format being built */
int nc_finish_format(struct nc_parser *p);
int nc_kw_format(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt);
int nc_kw_description(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *kwt);
int nc_kw_flags(struct nc_parser *p, const struct nc_keyword *kw,
		const struct nc_tok *kwt);
int nc_kw_sizeimage(struct nc_parser *p, const struct nc_keyword *kw,
		    const struct nc_tok *kwt);

/* parse-sizes.c: the size line's handler */
int nc_kw_size(struct nc_parser *p, const struct nc_keyword *kw,
	       const struct nc_tok *kwt);

/* parse-rates.c: a size line's rate clause */
int nc_parse_rates(struct nc_parser *p, const struct nc_tok *size_tok,
		   struct negcam_size *sz);

/* parse-fault.c: the fault line's handler */
int nc_kw_fault(struct nc_parser *p, const struct nc_keyword *kw,
		const struct nc_tok *kwt);

/* parse-tokens.c: the line's tokens and the values they hold */
__u32 nc_col(const struct nc_parser *p, __u32 offset);
int nc_next(struct nc_parser *p, struct nc_tok *t);
int nc_expect(struct nc_parser *p, struct nc_tok *t, const char *what);
int nc_expect_end(struct nc_parser *p, const char *what);
int nc_parse_u32(const char *s, __u32 len, __u32 *v);
__u32 nc_find(const char *s, __u32 len, char c);
/*
 * A fourcc token: *@info its table entry, *@value its code. A fourcc not
 * in the table is an error unless @opaque ('format X opaque', or a
 * 'default' line, checked against the formats later): then *@info is
 * negcam_fourcc_info_of()'s (a documented layout, else negcam_fourcc_opaque).
 */
int nc_parse_fourcc(struct nc_parser *p, const struct nc_tok *t,
		    const struct negcam_fourcc_info **info, __u32 *value, bool opaque);
int nc_parse_wxh(const char *s, __u32 len, __u32 *w, __u32 *h);
int nc_bad_size(struct nc_parser *p, const struct nc_tok *t, int ret);
int nc_parse_rate(struct nc_parser *p, const struct nc_tok *t,
		  const char *s, __u32 len, bool fps,
		  struct v4l2_fract *out);
int nc_copy_name(struct nc_parser *p, const struct nc_tok *t,
		 char *dst, const char *what);
int nc_expect_end_quoted(struct nc_parser *p, const struct nc_tok *value,
			 const char *what);
int nc_parse_queue(struct nc_parser *p, struct nc_tok *t, int *have,
		   enum negcam_queue *q);

/* parse-messages.c: an error's message, "did you mean" */
void nc_msg_quoted(struct nc_strbuf *m, const char *s, __u32 len);
void nc_msg_token(struct nc_strbuf *m, const struct nc_tok *t);
void nc_msg_fourcc(struct nc_strbuf *m, __u32 fourcc);
bool nc_msg_unknown(struct nc_strbuf *m, const char *what, const struct nc_tok *t,
		    const char *hint);
struct nc_strbuf nc_error_at(struct nc_parser *p, __u32 line, __u32 col);
struct nc_strbuf nc_error(struct nc_parser *p, __u32 col);
__u32 nc_distance(const char *a, __u32 la, const char *b, __u32 lb,
		  bool icase);
const char *nc_suggest(const void *table, __u32 n, __u32 stride,
		       const struct nc_tok *t);
int nc_lookup(struct nc_parser *p, const struct nc_names *table,
	      const struct nc_tok *t, const char *what, __u32 *value);

#endif /* NEGCAM_PARSE_PRIVATE_H */
