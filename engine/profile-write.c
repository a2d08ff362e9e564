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
 * (tests/engine/test_profile_write.c checks every built-in and shelf
 * camera, tests/fuzz/fuzz_roundtrip.c any text the parser accepts).
 *
 * The minimal form (NC_WRITE_MINIMAL) writes what a tool learnt about a
 * device and leaves the rest to the parser: see profile.h.
 * Freestanding like the parser: no allocation, no libc formatting; the
 * text is built with strbuf.h, as the parser's messages are.
 */
#include "profile.h"
#include "formats.h"
#include "profile-names.h"
#include "strbuf.h"

struct nc_out {
	struct nc_strbuf sb;
	bool bad;  /* a value with no name in the language */
	bool minimal;
	bool shared_fields, shared_color; /* written once before the formats */
	const struct negcam_write_opts *opts;
};

/* The name of @v in @t; a value without one makes the profile unwritable. */
static void w_name(struct nc_out *o, const struct nc_names *t, __u32 v)
{
	const char *name = nc_name_of(t, v);

	if (name)
		nc_sb_str(&o->sb, name);
	else
		o->bad = true;
}

/* A card name or description, quoted; the language has no escape for '"'. */
static int w_quoted(struct nc_out *o, const char *s)
{
	const char *c;

	for (c = s; *c; c++)
		if (*c == '"')
			return -EINVAL;
	nc_sb_char(&o->sb, '"');
	nc_sb_str(&o->sb, s);
	nc_sb_char(&o->sb, '"');
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
		nc_sb_char(&o->sb, '"');
	nc_sb_str(&o->sb, s);
	if (fourcc & (1u << 31))
		nc_sb_str(&o->sb, "-BE");
	if (space)
		nc_sb_char(&o->sb, '"');
}

/* "INDENT KEYWORD NAME" for a value the table names; nothing otherwise. */
static void w_named(struct nc_out *o, const char *indent, const char *kw,
		    const struct nc_names *t, __u32 v)
{
	const char *name = nc_name_of(t, v);

	if (!name)
		return;
	nc_sb_str(&o->sb, indent);
	nc_sb_str(&o->sb, kw);
	nc_sb_char(&o->sb, ' ');
	nc_sb_str(&o->sb, name);
	nc_sb_char(&o->sb, '\n');
}

/* "usb-id 046d:082d", lowercase as lsusb prints it; nothing when not given. */
static void w_usb_id(struct nc_out *o, const struct negcam_profile *p)
{
	static const char hex[] = "0123456789abcdef";
	__u32 v = (__u32)p->usb_vendor << 16 | p->usb_product;
	char s[10];
	int i;

	if (!p->usb_vendor)
		return;
	for (i = 8; i >= 0; i--) {
		if (i == 4)
			continue;
		s[i] = hex[v & 15];
		v >>= 4;
	}
	s[4] = ':';
	s[9] = '\0';
	nc_sb_str(&o->sb, "usb-id ");
	nc_sb_str(&o->sb, s);
	nc_sb_char(&o->sb, '\n');
}

/* "KEYWORD name name...", a name per bit of @bits; nothing when none is set. */
static void w_name_list(struct nc_out *o, const char *keyword, const struct nc_names *table,
			__u32 bits)
{
	__u32 bit;

	if (!bits)
		return;
	nc_sb_str(&o->sb, keyword);
	for (bit = 1; bit; bit <<= 1) {
		if (bits & bit) {
			nc_sb_char(&o->sb, ' ');
			w_name(o, table, bit);
		}
	}
	nc_sb_char(&o->sb, '\n');
}

static int w_header(struct nc_out *o, const struct negcam_profile *p)
{
	if (o->opts && o->opts->header)
		nc_sb_str(&o->sb, o->opts->header);
	nc_sb_str(&o->sb, "name ");
	nc_sb_str(&o->sb, p->name);
	nc_sb_char(&o->sb, '\n');
	if (p->card[0]) {
		nc_sb_str(&o->sb, "card ");
		if (w_quoted(o, p->card))
			return -EINVAL;
		nc_sb_char(&o->sb, '\n');
	}
	w_usb_id(o, p);
	if (!o->minimal || p->adjust != NC_ADJUST_DOWN ||
	    (o->opts->flags & NC_WRITE_ADJUST)) {
		nc_sb_str(&o->sb, "adjust ");
		w_name(o, &nc_adjusts, p->adjust);
		nc_sb_char(&o->sb, '\n');
	}
	w_name_list(o, "quirks", &nc_quirks, p->quirks);
	w_name_list(o, "uvc-bugs", &nc_uvc_bugs, p->uvc_bugs);
	if (p->multiplanar)
		nc_sb_str(&o->sb, "multiplanar\n");
	return 0;
}

static void w_defaults(struct nc_out *o, const struct negcam_profile *p)
{
	int q;

	for (q = 0; q < NC_NQUEUES; q++) {
		const struct negcam_default *d = &p->def[q];

		if (!d->fourcc)
			continue;
		nc_sb_str(&o->sb, "default ");
		w_fourcc(o, d->fourcc);
		nc_sb_str(&o->sb, q == NC_OUTPUT ? " output" : "");
		if (d->width) { /* minimal: no size, the parser's default */
			nc_sb_char(&o->sb, ' ');
			nc_sb_wxh(&o->sb, d->width, d->height);
		}
		if (d->width && d->interval.numerator) {
			nc_sb_str(&o->sb, " interval ");
			nc_sb_fract(&o->sb, d->interval);
		}
		nc_sb_char(&o->sb, '\n');
	}
}

/* A time as the largest unit that holds it exactly: 2s, 500ms, 250us, 7ns. */
static void w_time(struct nc_strbuf *sb, __s64 t)
{
	static const struct { const char *unit; __u32 ns; } units[] = {
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	__u64 v = t < 0 ? (__u64)-t : (__u64)t;
	__u32 i = 0;

	while (i + 1 < NC_ARRAY_SIZE(units) && nc_div_u64(v, units[i].ns) * units[i].ns != v)
		i++;
	if (t < 0)
		nc_sb_char(sb, '-');
	nc_sb_uint(sb, (__u32)nc_div_u64(v, units[i].ns));
	nc_sb_str(sb, units[i].unit);
}

/* Tenths of a percent as "5%" or "0.5%". */
static void w_percent(struct nc_strbuf *sb, __u32 tenths)
{
	nc_sb_uint(sb, tenths / 10);
	if (tenths % 10) {
		nc_sb_char(sb, '.');
		nc_sb_uint(sb, tenths % 10);
	}
	nc_sb_char(sb, '%');
}

/* One fault's values, after its name. */
static void w_fault_values(struct nc_strbuf *sb, const struct negcam_faults *f, __u32 kind)
{
	const __u32 pct[NC_NFAULTS] = {
		[NC_FAULT_DROP] = f->drop, [NC_FAULT_CORRUPT] = f->corrupt,
		[NC_FAULT_TRUNCATE] = f->truncate, [NC_FAULT_ERROR] = f->error,
	};

	switch (kind) {
	case NC_FAULT_SEED:
		nc_sb_uint(sb, f->seed);
		return;
	case NC_FAULT_STALL:
	case NC_FAULT_TIMESTAMP_JUMP:
		w_time(sb, kind == NC_FAULT_STALL ? (__s64)f->stall_ns : f->jump_ns);
		nc_sb_str(sb, " every ");
		w_time(sb, (__s64)(kind == NC_FAULT_STALL ? f->stall_every_ns : f->jump_every_ns));
		return;
	case NC_FAULT_RATE:
		nc_sb_fract(sb, (struct v4l2_fract){ f->rate.denominator, f->rate.numerator });
		return;
	case NC_FAULT_SOURCE_CHANGE:
		w_time(sb, (__s64)f->source_change_ns);
		nc_sb_char(sb, ' ');
		nc_sb_wxh(sb, f->source_width, f->source_height);
		return;
	case NC_FAULT_UNPLUG:
		w_time(sb, (__s64)f->unplug_ns);
		return;
	}
	w_percent(sb, pct[kind]);
}

/* The faults @f gives, each @prefix NAME VALUES, separated by @sep. */
static void w_fault_list(struct nc_strbuf *sb, const struct negcam_faults *f,
			 const char *prefix, const char *sep)
{
	bool first = true;
	__u32 kind;

	for (kind = 0; kind < NC_NFAULTS; kind++) {
		if (!(f->given & (1u << kind)))
			continue;
		if (!first)
			nc_sb_str(sb, sep);
		first = false;
		nc_sb_str(sb, prefix);
		nc_sb_str(sb, nc_name_of(&nc_faults, kind));
		nc_sb_char(sb, ' ');
		w_fault_values(sb, f, kind);
	}
}

long negcam_faults_write(const struct negcam_faults *f, const char *prefix, const char *sep,
			 char *buf, __u32 size)
{
	struct nc_strbuf sb = nc_sb_init(buf, size);

	w_fault_list(&sb, f, prefix, sep);
	return sb.len;
}

/* The profile's 'fault' lines, after its defaults. */
static void w_faults(struct nc_out *o, const struct negcam_profile *p)
{
	if (!p->faults.given)
		return;
	w_fault_list(&o->sb, &p->faults, "fault ", "\n");
	nc_sb_char(&o->sb, '\n');
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
		nc_sb_str(&o->sb, any ? " " : "  flags ");
		any = true;
		/* the encoding bit is named for HSV formats as v4l2-ctl does */
		if (bits[i] == V4L2_FMT_FLAG_CSC_YCBCR_ENC && fi && fi->color == NC_COLOR_OTHER)
			nc_sb_str(&o->sb, "csc-hsv");
		else
			w_name(o, &nc_fmt_flags, bits[i]);
	}
	if (any)
		nc_sb_char(&o->sb, '\n');
}

static void w_rates(struct nc_out *o, const struct negcam_profile *p,
		    const struct negcam_size *s)
{
	const struct negcam_interval *iv = &p->intervals[s->ival_first];
	unsigned int i;

	if (s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		nc_sb_str(&o->sb, o->minimal ? " fps" : " interval");
		for (i = 0; i < s->ival_count; i++) {
			nc_sb_char(&o->sb, ' ');
			if (!o->minimal)
				nc_sb_fract(&o->sb, iv[i].min);
			else if (iv[i].min.numerator == 1)
				nc_sb_uint(&o->sb, iv[i].min.denominator);
			else
				nc_sb_fract(&o->sb, (struct v4l2_fract){ iv[i].min.denominator,
								 iv[i].min.numerator });
		}
		return;
	}
	nc_sb_str(&o->sb, " interval ");
	nc_sb_fract(&o->sb, iv->min);
	nc_sb_char(&o->sb, '-');
	nc_sb_fract(&o->sb, iv->max);
	if (s->ival_kind == V4L2_FRMIVAL_TYPE_STEPWISE) {
		nc_sb_str(&o->sb, " step ");
		nc_sb_fract(&o->sb, iv->step);
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
		nc_sb_str(&o->sb, "  ");
		nc_sb_str(&o->sb, note);
		nc_sb_char(&o->sb, '\n');
	}
	for (i = 0; i < f->size_count; i++) {
		const struct negcam_size *s = &p->sizes[f->size_first + i];

		nc_sb_str(&o->sb, "  size ");
		nc_sb_wxh(&o->sb, s->min_w, s->min_h);
		if (f->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
			nc_sb_char(&o->sb, '-');
			nc_sb_wxh(&o->sb, s->max_w, s->max_h);
		}
		if (f->size_kind == V4L2_FRMSIZE_TYPE_STEPWISE) {
			nc_sb_str(&o->sb, " step ");
			nc_sb_wxh(&o->sb, s->step_w, s->step_h);
		}
		w_rates(o, p, s);
		note = w_note(o, fi, (int)i);
		if (note)
			nc_sb_str(&o->sb, note);
		nc_sb_char(&o->sb, '\n');
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
	nc_sb_str(&o->sb, indent);
	nc_sb_str(&o->sb, "field");
	for (i = 0; i < f->nfields; i++) {
		nc_sb_char(&o->sb, ' ');
		w_name(o, &nc_fields, f->fields[i]);
	}
	nc_sb_char(&o->sb, '\n');
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

	nc_sb_str(&o->sb, "\nformat ");
	w_fourcc(o, f->fourcc);
	if (!fi)
		nc_sb_str(&o->sb, " opaque");
	nc_sb_str(&o->sb, f->buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? " output\n" : "\n");
	if (f->description[0]) {
		nc_sb_str(&o->sb, "  description ");
		if (w_quoted(o, f->description))
			return -EINVAL;
		nc_sb_char(&o->sb, '\n');
	}
	w_flags(o, f, fi);
	if (!o->shared_fields)
		w_fields(o, "  ", f);
	if (!o->shared_color)
		w_colorimetry(o, "  ", f);
	if (f->stride_align > 1) {
		nc_sb_str(&o->sb, "  stride-align ");
		nc_sb_uint(&o->sb, f->stride_align);
		nc_sb_char(&o->sb, '\n');
	}
	if (f->sizeimage) {
		nc_sb_str(&o->sb, "  sizeimage ");
		nc_sb_uint(&o->sb, f->sizeimage);
		nc_sb_char(&o->sb, '\n');
	}
	w_sizes(o, p, f);
	return 0;
}

long negcam_profile_write(const struct negcam_profile *p,
			  const struct negcam_write_opts *opts, char *buf, __u32 size)
{
	struct nc_out o = { .opts = opts };
	unsigned int i;

	if (!p->name[0])
		return -EINVAL;
	o.sb = nc_sb_init(buf, size);
	o.minimal = opts && (opts->flags & NC_WRITE_MINIMAL);
	if (w_header(&o, p))
		return -EINVAL;
	w_shared(&o, p);
	w_defaults(&o, p);
	w_faults(&o, p);
	for (i = 0; i < p->nformats; i++)
		if (w_format(&o, p, &p->formats[i]))
			return -EINVAL;
	if (o.bad)
		return -EINVAL;
	return o.sb.len;
}
