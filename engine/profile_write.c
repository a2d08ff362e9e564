// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile writer: a struct negcam_profile back into the profile
 * language of docs/profiles.md, in one canonical form that the parser
 * reads back to the same struct (tests/engine/test_profile_write.c checks
 * every built-in and shelf camera, tests/fuzz/fuzz_roundtrip.c any text
 * the parser accepts).
 *
 * Everything is written explicitly, so nothing depends on the parser's
 * defaults: the card, the adjustment, one `default` line per queue, and
 * per format its description, fields and the four colorimetry values.
 * Freestanding like the parser: no allocation, no libc formatting.
 */
#include "profile.h"
#include "formats.h"
#include "profile_names.h"

struct nc_out {
	char *buf;
	__u32 size;
	__u32 len; /* as if @buf were large enough */
	bool bad;  /* a value with no name in the language */
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

/* As v4l2-ctl prints it: trailing spaces dropped, '-BE' for bit 31. */
static void w_fourcc(struct nc_out *o, __u32 fourcc)
{
	char s[5];
	int n = 4, i;

	for (i = 0; i < 4; i++)
		s[i] = (char)((fourcc >> (8 * i)) & (i == 3 ? 0x7f : 0xff));
	while (n > 1 && s[n - 1] == ' ')
		n--;
	s[n] = '\0';
	for (i = 0; i < n && s[i] != ' '; i++)
		;
	if (i < n) {
		w_char(o, '"');
		w_str(o, s);
		w_char(o, '"');
	} else {
		w_str(o, s);
	}
	if (fourcc & (1u << 31))
		w_str(o, "-BE");
}

/* " KEYWORD NAME" for a value the table names; nothing otherwise. */
static void w_named(struct nc_out *o, const char *kw, const struct nc_names *t,
		    __u32 v)
{
	const char *name = nc_name_of(t, v);

	if (!name)
		return;
	w_str(o, "  ");
	w_str(o, kw);
	w_char(o, ' ');
	w_str(o, name);
	w_char(o, '\n');
}

static void w_header(struct nc_out *o, const struct negcam_profile *p)
{
	__u32 bit;

	w_str(o, "name ");
	w_str(o, p->name);
	w_str(o, "\nadjust ");
	w_name(o, &nc_adjusts, p->adjust);
	w_char(o, '\n');
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
		w_str(o, q == NC_OUTPUT ? " output " : " ");
		w_wxh(o, d->width, d->height);
		if (d->interval.numerator) {
			w_str(o, " interval ");
			w_fract(o, d->interval);
		}
		w_char(o, '\n');
	}
}

static void w_flags(struct nc_out *o, const struct negcam_format *f,
		    const struct negcam_fourcc_info *fi)
{
	static const __u32 bits[] = { V4L2_FMT_FLAG_CSC_COLORSPACE,
				      V4L2_FMT_FLAG_CSC_XFER_FUNC,
				      V4L2_FMT_FLAG_CSC_YCBCR_ENC,
				      V4L2_FMT_FLAG_CSC_QUANTIZATION };
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

	w_str(o, " interval");
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		for (i = 0; i < s->ival_count; i++) {
			w_char(o, ' ');
			w_fract(o, iv[i].min);
		}
		return;
	}
	w_char(o, ' ');
	w_fract(o, iv->min);
	w_char(o, '-');
	w_fract(o, iv->max);
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_STEPWISE) {
		w_str(o, " step ");
		w_fract(o, iv->step);
	}
}

static void w_sizes(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_format *f)
{
	unsigned int i;

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
		w_char(o, '\n');
	}
}

static int w_format(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_format *f)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);
	unsigned int i;

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
	w_str(o, "  field");
	for (i = 0; i < f->nfields; i++) {
		w_char(o, ' ');
		w_name(o, &nc_fields, f->fields[i]);
	}
	w_char(o, '\n');
	w_named(o, "colorspace", &nc_colorspaces, f->colorspace);
	w_named(o, "ycbcr-enc", &nc_ycbcr_encs, f->ycbcr_enc);
	w_named(o, "quantization", &nc_quantizations, f->quantization);
	w_named(o, "xfer-func", &nc_xfer_funcs, f->xfer_func);
	if (f->stride_align > 1) {
		w_str(o, "  stride-align ");
		w_uint(o, f->stride_align);
		w_char(o, '\n');
	}
	w_sizes(o, p, f);
	return 0;
}

long negcam_profile_write(const struct negcam_profile *p, char *buf, __u32 size)
{
	struct nc_out o = { buf, size, 0, false };
	unsigned int i;

	if (!p->name[0])
		return -EINVAL;
	w_header(&o, p);
	if (p->card[0]) {
		w_str(&o, "card ");
		if (w_quoted(&o, p->card))
			return -EINVAL;
		w_char(&o, '\n');
	}
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
