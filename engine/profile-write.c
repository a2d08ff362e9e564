// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile writer: a struct negcam_profile back into the profile
 * language of docs/profiles.md. The one writer of profile text: the
 * round trip, negcam-ctl --import and --dump all write through it.
 *
 * The canonical form (no options) writes everything explicitly, so
 * nothing depends on the parser's defaults: the card, the adjustment, one
 * `default` line per queue, and per format its description, fields and
 * the four colorimetry values. The parser reads it back to the same struct
 * (tests/engine/test_profile-write.c checks every built-in and shelf
 * camera, tests/fuzz/fuzz_roundtrip.c any text the parser accepts).
 *
 * The minimal form (NC_WRITE_MINIMAL) writes what a tool learnt about a
 * device and leaves the rest to the parser: see profile.h.
 * Freestanding like the parser: no allocation, no libc formatting.
 */
#include "profile.h"
#include "formats.h"
#include "profile-names.h"

struct nc_out {
	char *buf;
	__u32 size;
	__u32 len; /* as if @buf were large enough */
	bool bad;  /* a value with no name in the language */
	bool minimal;
	bool shared_fields, shared_color; /* written once before the formats */
	const struct negcam_write_opts *opts;
};

static void w_char(struct nc_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void w_str(struct nc_out *o, const char *s)
{
	while (*s)
		w_char(o, *s++);
}

static void w_uint(struct nc_out *o, __u32 v)
{
	char d[10];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		w_char(o, d[--n]);
}

/* The name of @v in @t; a value without one makes the profile unwritable. */
static void w_name(struct nc_out *o, const struct nc_names *t, __u32 v)
{
	const char *name = nc_name_of(t, v);

	if (name)
		w_str(o, name);
	else
		o->bad = true;
}

static void w_fract(struct nc_out *o, struct v4l2_fract f)
{
	w_uint(o, f.numerator);
	w_char(o, '/');
	w_uint(o, f.denominator);
}

static void w_wxh(struct nc_out *o, __u32 w, __u32 h)
{
	w_uint(o, w);
	w_char(o, 'x');
	w_uint(o, h);
}

/* A card name or description, quoted; the language has no escape for '"'. */
static int w_quoted(struct nc_out *o, const char *s)
{
	const char *c;

	for (c = s; *c; c++)
		if (*c == '"')
			return -EINVAL;
	w_char(o, '"');
	w_str(o, s);
	w_char(o, '"');
	return 0;
}

/* As v4l2-ctl's fcc2s() prints it ('-BE' for bit 31), quoted when it holds a space. */
static void w_fourcc(struct nc_out *o, __u32 fourcc)
{
	char s[8];
	int i;
	bool space = false;

	for (i = 0; i < 4; i++) {
		s[i] = (char)((fourcc >> (8 * i)) & 0x7f);
		space |= s[i] == ' ';
	}
	s[4] = '\0';
	if (space)
		w_char(o, '"');
	w_str(o, s);
	if (fourcc & (1u << 31))
		w_str(o, "-BE");
	if (space)
		w_char(o, '"');
}

/* "INDENT KEYWORD NAME" for a value the table names; nothing otherwise. */
static void w_named(struct nc_out *o, const char *indent, const char *kw,
		    const struct nc_names *t, __u32 v)
{
	const char *name = nc_name_of(t, v);

	if (!name)
		return;
	w_str(o, indent);
	w_str(o, kw);
	w_char(o, ' ');
	w_str(o, name);
	w_char(o, '\n');
}

static int w_header(struct nc_out *o, const struct negcam_profile *p)
{
	__u32 bit;

	if (o->opts && o->opts->header)
		w_str(o, o->opts->header);
	w_str(o, "name ");
	w_str(o, p->name);
	w_char(o, '\n');
	if (p->card[0]) {
		w_str(o, "card ");
		if (w_quoted(o, p->card))
			return -EINVAL;
		w_char(o, '\n');
	}
	if (!o->minimal || p->adjust != NC_ADJUST_DOWN ||
	    (o->opts->flags & NC_WRITE_ADJUST)) {
		w_str(o, "adjust ");
		w_name(o, &nc_adjusts, p->adjust);
		w_char(o, '\n');
	}
	if (p->quirks) {
		w_str(o, "quirks");
		for (bit = 1; bit; bit <<= 1) {
			if (p->quirks & bit) {
				w_char(o, ' ');
				w_name(o, &nc_quirks, bit);
			}
		}
		w_char(o, '\n');
	}
	return 0;
}

static void w_defaults(struct nc_out *o, const struct negcam_profile *p)
{
	int q;

	for (q = 0; q < NC_NQUEUES; q++) {
		const struct negcam_default *d = &p->def[q];

		if (!d->fourcc)
			continue;
		w_str(o, "default ");
		w_fourcc(o, d->fourcc);
		w_str(o, q == NC_OUTPUT ? " output" : "");
		if (d->width) { /* minimal: no size, the parser's default */
			w_char(o, ' ');
			w_wxh(o, d->width, d->height);
		}
		if (d->width && d->interval.numerator) {
			w_str(o, " interval ");
			w_fract(o, d->interval);
		}
		w_char(o, '\n');
	}
}

static void w_flags(struct nc_out *o, const struct negcam_format *f,
		    const struct negcam_fourcc_info *fi)
{
	/* in v4l2-ctl's order */
	static const __u32 bits[] = { V4L2_FMT_FLAG_CSC_COLORSPACE,
				      V4L2_FMT_FLAG_CSC_YCBCR_ENC,
				      V4L2_FMT_FLAG_CSC_QUANTIZATION,
				      V4L2_FMT_FLAG_CSC_XFER_FUNC };
	unsigned int i;
	bool any = false;

	for (i = 0; i < NC_ARRAY_SIZE(bits); i++) {
		if (!(f->flags & bits[i]))
			continue;
		w_str(o, any ? " " : "  flags ");
		any = true;
		/* the encoding bit is named for HSV formats as v4l2-ctl does */
		if (bits[i] == V4L2_FMT_FLAG_CSC_YCBCR_ENC && fi && fi->color == NC_COLOR_OTHER)
			w_str(o, "csc-hsv");
		else
			w_name(o, &nc_fmt_flags, bits[i]);
	}
	if (any)
		w_char(o, '\n');
}

static void w_rates(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_size *s)
{
	const struct negcam_interval *iv = &p->intervals[s->ival_first];
	unsigned int i;

	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		w_str(o, o->minimal ? " fps" : " interval");
		for (i = 0; i < s->ival_count; i++) {
			w_char(o, ' ');
			if (!o->minimal)
				w_fract(o, iv[i].min);
			else if (iv[i].min.numerator == 1)
				w_uint(o, iv[i].min.denominator);
			else
				w_fract(o, (struct v4l2_fract){ iv[i].min.denominator,
								 iv[i].min.numerator });
		}
		return;
	}
	w_str(o, " interval ");
	w_fract(o, iv->min);
	w_char(o, '-');
	w_fract(o, iv->max);
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_STEPWISE) {
		w_str(o, " step ");
		w_fract(o, iv->step);
	}
}

/* The caller's note on format @fi (@size -1) or on one of its sizes, or NULL. */
static const char *w_note(const struct nc_out *o, unsigned int fi, int size)
{
	if (!o->opts || !o->opts->note)
		return NULL;
	return o->opts->note(o->opts->ctx, fi, size);
}

static void w_sizes(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_format *f)
{
	unsigned int i, fi = (unsigned int)(f - p->formats);
	const char *note = w_note(o, fi, -1);

	if (note) {
		w_str(o, "  ");
		w_str(o, note);
		w_char(o, '\n');
	}
	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];

		w_str(o, "  size ");
		w_wxh(o, s->min_w, s->min_h);
		if (f->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
			w_char(o, '-');
			w_wxh(o, s->max_w, s->max_h);
		}
		if (f->size_kind == V4L2_FRMSIZE_TYPE_STEPWISE) {
			w_str(o, " step ");
			w_wxh(o, s->step_w, s->step_h);
		}
		w_rates(o, p, s);
		note = w_note(o, fi, (int)i);
		if (note)
			w_str(o, note);
		w_char(o, '\n');
	}
}

/*
 * The field list: always in the canonical form; in the minimal form
 * unless it is empty or [none] (the parser's default either way).
 */
static void w_fields(struct nc_out *o, const char *indent, const struct negcam_format *f)
{
	unsigned int i;

	if (o->minimal && (!f->nfields || (f->nfields == 1 && f->fields[0] == V4L2_FIELD_NONE)))
		return;
	w_str(o, indent);
	w_str(o, "field");
	for (i = 0; i < f->nfields; i++) {
		w_char(o, ' ');
		w_name(o, &nc_fields, f->fields[i]);
	}
	w_char(o, '\n');
}

/* The named colorimetry values (0, DEFAULT, is left to the parser). */
static void w_colorimetry(struct nc_out *o, const char *indent, const struct negcam_format *f)
{
	w_named(o, indent, "colorspace", &nc_colorspaces, f->colorspace);
	w_named(o, indent, "ycbcr-enc", &nc_ycbcr_encs, f->ycbcr_enc);
	w_named(o, indent, "quantization", &nc_quantizations, f->quantization);
	w_named(o, indent, "xfer-func", &nc_xfer_funcs, f->xfer_func);
}

/*
 * Minimal form: a field list or colorimetry that every format shares is
 * written once, before the formats, where it applies to all of them.
 */
static void w_shared(struct nc_out *o, const struct negcam_profile *p)
{
	const struct negcam_format *a = &p->formats[0];
	unsigned int i;

	if (!o->minimal || !p->nformats)
		return;
	o->shared_fields = o->shared_color = true;
	for (i = 1; i < p->nformats; i++) {
		const struct negcam_format *b = &p->formats[i];

		o->shared_fields &= a->nfields == b->nfields &&
				    !memcmp(a->fields, b->fields, a->nfields);
		o->shared_color &= a->colorspace == b->colorspace &&
				   a->ycbcr_enc == b->ycbcr_enc &&
				   a->quantization == b->quantization &&
				   a->xfer_func == b->xfer_func;
	}
	if (o->shared_fields)
		w_fields(o, "", a);
	if (o->shared_color)
		w_colorimetry(o, "", a);
}

static int w_format(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_format *f)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);

	w_str(o, "\nformat ");
	w_fourcc(o, f->fourcc);
	w_str(o, f->buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? " output\n" : "\n");
	if (f->description[0]) {
		w_str(o, "  description ");
		if (w_quoted(o, f->description))
			return -EINVAL;
		w_char(o, '\n');
	}
	w_flags(o, f, fi);
	if (!o->shared_fields)
		w_fields(o, "  ", f);
	if (!o->shared_color)
		w_colorimetry(o, "  ", f);
	if (f->stride_align > 1) {
		w_str(o, "  stride-align ");
		w_uint(o, f->stride_align);
		w_char(o, '\n');
	}
	w_sizes(o, p, f);
	return 0;
}

long negcam_profile_write(const struct negcam_profile *p,
			  const struct negcam_write_opts *opts, char *buf, __u32 size)
{
	struct nc_out o = { buf, size, 0, false, false, false, false, opts };
	unsigned int i;

	if (!p->name[0])
		return -EINVAL;
	o.minimal = opts && (opts->flags & NC_WRITE_MINIMAL);
	if (w_header(&o, p))
		return -EINVAL;
	w_shared(&o, p);
	w_defaults(&o, p);
	for (i = 0; i < p->nformats; i++)
		if (w_format(&o, p, &p->formats[i]))
			return -EINVAL;
	if (o.bad)
		return -EINVAL;
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}
