// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * --import: the text of `v4l2-ctl --list-formats-ext` to a negcam profile.
 *
 * Reads the layouts of v4l-utils 1.16 and later ("[0]: 'YUYV' (YUYV
 * 4:2:2)") and of the releases before ("Index : 0 / Pixel Format:
 * 'YUYV' / Name : ..."), with or without the command line and the
 * "ioctl: VIDIOC_ENUM_FMT" header, capture, output and multiplanar types,
 * discrete, stepwise and continuous sizes, discrete, stepwise and
 * continuous intervals. Indentation may be tabs or spaces (pasted from a
 * web page). A line that fits none of these is an error, reported with
 * its number; nothing is written then.
 *
 * The listing prints intervals rounded ("0.033s (29.970 fps)"); the exact
 * fractions are recovered by the rule documented in docs/negcam-ctl.md
 * and implemented in recover_fraction(). Whatever the listing cannot say
 * (colorimetry, field, how sizes are adjusted, the rates of a size range)
 * keeps the profile language's defaults, and the output says so in
 * comments; where the importer must invent something (a size for a device
 * without ENUM_FRAMESIZES), it warns on stderr.
 *
 * The result is parsed again before it is written: what --import prints
 * always loads.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

#define IMP_MAX_ERRORS 20
#define IMP_MAX_WARNINGS 20
#define IMP_MAX_RATE 1000000u /* the profile language's limit for a fraction's terms */

enum imp_ival_kind { IV_DISCRETE, IV_CONTINUOUS, IV_STEPWISE };

struct imp_ival {
	int kind;
	struct v4l2_fract min, max, step; /* discrete: min */
	unsigned int line;
};

struct imp_size {
	int kind; /* V4L2_FRMSIZE_TYPE_* */
	__u32 min_w, min_h, max_w, max_h, step_w, step_h;
	unsigned int line;
	struct imp_ival *ivals;
	unsigned int nivals;
};

struct imp_format {
	__u32 fourcc;
	int queue; /* NC_CAPTURE or NC_OUTPUT */
	char desc[64];
	__u32 flags; /* CSC flags of the listing, for the profile's 'flags' line */
	unsigned int line;
	struct imp_size *sizes;
	unsigned int nsizes;
};

struct imp {
	const char *label;
	unsigned int line;  /* current input line */
	int queue;          /* current section, -1: skipped type */
	bool skip;          /* the current format was refused: its sizes go with it */
	bool mplane;        /* a multiplanar section was seen: the profile is multiplanar */
	bool splane;        /* a single-planar one was */
	bool prefixed;      /* a dump tool's line prefix was stripped (said once) */
	unsigned int cur;   /* the format sizes go to (a repeated fourcc: the first) */
	unsigned int errors, warnings;
	struct imp_format *formats;
	unsigned int nformats;
	/* The old layout names a format over several lines. */
	bool old_pending;
	__u32 old_fourcc;
	char old_flags[64];
	unsigned int old_line;
	unsigned int build_line; /* where the profile could hold no more (ctl_build's why) */
};

static void __attribute__((format(printf, 3, 4)))
imp_error(struct imp *im, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	im->errors++;
	if (im->errors > IMP_MAX_ERRORS)
		return;
	ctl_warn("%s:%u: ", im->label, line);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 3, 4)))
imp_warn(struct imp *im, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	im->warnings++;
	if (im->warnings > IMP_MAX_WARNINGS)
		return;
	if (line)
		ctl_warn("%s:%u: warning: ", im->label, line);
	else
		ctl_warn("%s: warning: ", im->label);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *grow(void *p, unsigned int n, size_t elem)
{
	/* Doubling at powers of two: n is the count before the append. */
	if (n && (n & (n - 1)))
		return p;
	p = realloc(p, (n ? 2 * (size_t)n : 4) * elem);
	if (!p) {
		fprintf(stderr, "negcam-ctl: --import: out of memory\n");
		exit(CTL_EXIT_FAIL);
	}
	return p;
}

/* v4l2-ctl's "%.3f" of a double quotient, compared with the listing's text. */
static bool prints_as(__u32 num, __u32 den, const char *text)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.3f", (1.0 * num) / den);
	return !strcmp(buf, text);
}

struct fraction_rule {
	const char *sec;  /* the interval as printed, seconds */
	const char *fps;  /* its rate as printed, or NULL (a step has none) */
	/* For a step: the range it must divide into whole steps. */
	const struct v4l2_fract *range_min, *range_max;
};

static bool fraction_fits(const struct fraction_rule *r, __u32 n, __u32 d)
{
	return n && d && n <= IMP_MAX_RATE && d <= IMP_MAX_RATE && prints_as(n, d, r->sec) &&
	       (!r->fps || prints_as(d, n, r->fps));
}

/* A step: (max - min) / k for the whole number k that prints as the listing does. */
static int recover_step(const struct fraction_rule *r, struct v4l2_fract *out)
{
	const struct v4l2_fract *mn = r->range_min, *mx = r->range_max;
	__u64 a = (__u64)mx->numerator * mn->denominator, b;
	double x = strtod(r->sec, NULL), span, klo, khi;
	__u64 k, best_n = 0, best_d = 0;

	if (a <= (__u64)mn->numerator * mx->denominator)
		return -1; /* an empty or backward range has no step */
	a -= (__u64)mn->numerator * mx->denominator; /* max - min = a / b */
	b = (__u64)mx->denominator * mn->denominator;
	span = (double)a / b;
	klo = x + 0.0005 > 0 ? span / (x + 0.0005) : 1;
	khi = x > 0.0005 ? span / (x - 0.0005) : (double)IMP_MAX_RATE;
	if (klo < 1)
		klo = 1;
	if (khi > IMP_MAX_RATE)
		khi = IMP_MAX_RATE;
	if (khi - klo > 100000)
		khi = klo + 100000; /* bounds a contradictory listing */
	for (k = (__u64)klo; k <= (__u64)khi + 1; k++) {
		__u64 n = a, d = b * k, g = ctl_gcd(n, d);

		n /= g;
		d /= g;
		if (n > IMP_MAX_RATE || d > IMP_MAX_RATE || !prints_as((__u32)n, (__u32)d, r->sec))
			continue;
		/* Several k may print alike: the simplest step wins. */
		if (!best_d || d < best_d || (d == best_d && n < best_n)) {
			best_n = n;
			best_d = d;
		}
	}
	if (!best_d)
		return -1;
	out->numerator = (__u32)best_n;
	out->denominator = (__u32)best_d;
	return 0;
}

/*
 * The exact interval behind a printed one, by this rule (docs/negcam-ctl.md):
 *  1. the NTSC family 1001/(1000*N), when it prints the same: a rate shown
 *     as 29.970, 59.940, 23.976 or 14.985 fps is 30000/1001, 60000/1001 ...;
 *  2. otherwise the simplest fraction that prints the same: the smallest
 *     denominator, then the smallest numerator (1/30, 2/15 for 7.5 fps,
 *     2/25 for 12.5 fps, 2/1 for 0.5 fps), terms at most 1000000;
 *  3. a step (printed in seconds only) is (max - min) / k for a whole k,
 *     the simplest such fraction that prints the same.
 * Printing the result gives back the listing's text exactly; -1 if no
 * fraction does.
 */
static int recover_fraction(const struct fraction_rule *r, struct v4l2_fract *out)
{
	double x = strtod(r->sec, NULL), y = r->fps ? strtod(r->fps, NULL) : 0;
	double lo = x - 0.0005, hi = x + 0.0005;
	unsigned int tried = 0;
	__u32 d;

	if (r->range_min)
		return recover_step(r, out);
	if (r->fps && y > 0) {
		double nn = y * 1.001 + 0.5;

		if (nn >= 1 && nn * 1000 <= IMP_MAX_RATE) {
			__u32 num = 1001, den = (__u32)nn * 1000; /* (__u32) truncates: floor */
			__u64 g = ctl_gcd(num, den);

			if (fraction_fits(r, (__u32)(num / g), (__u32)(den / g))) {
				out->numerator = (__u32)(num / g);
				out->denominator = (__u32)(den / g);
				return 0;
			}
		}
	}
	/* Both printed numbers bound n/d: intersect the two windows (a hair wider). */
	if (r->fps) {
		double flo = 1 / (y + 0.0005), fhi = y > 0.0005 ? 1 / (y - 0.0005) : 1e300;

		if (flo > lo)
			lo = flo;
		if (fhi < hi)
			hi = fhi;
	}
	lo -= 1e-9 * (lo > 0 ? lo : 0) + 1e-15;
	hi += 1e-9 * hi + 1e-15;
	if (lo > hi)
		return -1;
	/*
	 * A window of width w holds a fraction with a denominator near 1/w:
	 * a short loop. Candidates inside the window almost always print
	 * alike; the budget only bounds a contradictory listing.
	 */
	for (d = 1; d <= IMP_MAX_RATE; d++) {
		double nlo = lo * d, nhi = hi * d;
		__u32 n = nlo < 1 ? 1 : (__u32)nlo + (nlo > (__u32)nlo);

		for (; n <= nhi && n <= IMP_MAX_RATE; n++) {
			if (++tried > 100000)
				return -1;
			if (ctl_gcd(n, d) != 1 || !fraction_fits(r, n, d))
				continue;
			out->numerator = n;
			out->denominator = d;
			return 0;
		}
	}
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* sscanf that must consume the whole line. */
#define FULL_MATCH(line, fmt, nargs, ...)                                      \
	({                                                                     \
		int n_ = -1;                                                   \
		sscanf(line, fmt "%n", __VA_ARGS__, &n_) == (nargs) && n_ >= 0 && \
			!(line)[n_];                                           \
	})

/* 'YUYV', 'Y10 ', 'Y16-BE' as v4l2-ctl's fcc2s() prints them; '' (no fourcc) is 0. */
static int parse_fourcc(const char *s, size_t len, __u32 *out)
{
	if (len == 0) {
		*out = 0;
		return 0;
	}
	if (len == 7 && !memcmp(s + 4, "-BE", 3)) {
		*out = v4l2_fourcc(s[0], s[1], s[2], s[3]) | (1u << 31);
		return 0;
	}
	if (len != 4)
		return -1;
	*out = v4l2_fourcc(s[0], s[1], s[2], s[3]);
	return 0;
}

static const char *const known_flags[] = {
	"compressed", "emulated", "continuous-bytestream", "dyn-resolution",
	"enc-cap-frame-interval", "csc-colorspace", "csc-ycbcr", "csc-hsv",
	"csc-quantization", "csc-xfer-func", "meta-line-based", NULL,
};

static bool is_known_flag(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; known_flags[i]; i++)
		if (strlen(known_flags[i]) == len && !memcmp(known_flags[i], s, len))
			return true;
	return len == 10 && !memcmp(s, "0x", 2); /* flags2s() prints unknown bits in hex */
}

/* v4l2-ctl's names of the CSC flags (fmtdesc2s), which a raw capture format keeps. */
static __u32 csc_flag(const char *s, size_t n)
{
	static const struct { const char *name; __u32 flag; } t[] = {
		{ "csc-colorspace", V4L2_FMT_FLAG_CSC_COLORSPACE },
		{ "csc-ycbcr", V4L2_FMT_FLAG_CSC_YCBCR_ENC },
		{ "csc-hsv", V4L2_FMT_FLAG_CSC_HSV_ENC },
		{ "csc-quantization", V4L2_FMT_FLAG_CSC_QUANTIZATION },
		{ "csc-xfer-func", V4L2_FMT_FLAG_CSC_XFER_FUNC },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strlen(t[i].name) == n && !memcmp(t[i].name, s, n))
			return t[i].flag;
	return 0;
}

/*
 * Checks the flags the listing shows against what the profile will
 * report; the CSC flags of a raw capture format go into @f.
 */
static void check_flags(struct imp *im, struct imp_format *f, unsigned int line,
			__u32 fourcc, const char *flags)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourcc);
	bool compressed = false;
	const char *p = flags;
	char f4[8];

	while (*p) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		__u32 csc = csc_flag(p, n);
		bool hsv = fi && fi->color == NC_COLOR_OTHER;

		if (n == 10 && !memcmp(p, "compressed", 10))
			compressed = true;
		else if (csc && f->queue == NC_CAPTURE && fi &&
			 fi->layout != NC_LAYOUT_COMPRESSED &&
			 (csc != V4L2_FMT_FLAG_CSC_YCBCR_ENC || (n == 7) == hsv))
			f->flags |= csc;
		else if (n)
			imp_warn(im, line, "flag '%.*s' of '%s' cannot be set in a profile; "
				 "dropped", (int)n, p, ctl_fcc(fourcc, f4));
		p += n + (e ? 2 : 0);
	}
	if (!fi && compressed)
		imp_warn(im, line, "'%s' is not in negcam's format table and an opaque format is "
			 "never compressed: flag 'compressed' dropped", ctl_fcc(fourcc, f4));
	else if (fi && compressed != (fi->layout == NC_LAYOUT_COMPRESSED))
		imp_warn(im, line, "'%s' is %scompressed in negcam's format table, the listing "
			 "says otherwise; the table wins", ctl_fcc(fourcc, f4),
			 fi->layout == NC_LAYOUT_COMPRESSED ? "" : "not ");
}

static struct imp_format *add_format(struct imp *im, __u32 fourcc, const char *desc,
				     unsigned int line)
{
	struct imp_format *f;
	unsigned int i;
	char f4[8];

	im->skip = true;
	if (im->queue < 0)
		return NULL;
	if (!fourcc) {
		/* uvcvideo prints '' and the GUID as name for a format it cannot map */
		imp_warn(im, line, "a format without a fourcc ('', named '%s'): the driver could not "
			 "map it, so no application can select it; dropped", desc);
		return NULL;
	}
	for (i = 0; i < im->nformats; i++) {
		if (im->formats[i].fourcc == fourcc && im->formats[i].queue == im->queue) {
			imp_warn(im, line, "'%s' listed again (first on line %u): a profile lists a "
				 "format once, so its sizes join the first's", ctl_fcc(fourcc, f4),
				 im->formats[i].line);
			im->skip = false;
			im->cur = i;
			return NULL;
		}
	}
	if (!negcam_fourcc_lookup(fourcc))
		imp_warn(im, line, "pixel format '%s' is not in negcam's format table: imported "
			 "as an opaque format with the listing's description (docs/profiles.md)",
			 ctl_fcc(fourcc, f4));
	im->skip = false;
	im->formats = grow(im->formats, im->nformats, sizeof(*im->formats));
	im->cur = im->nformats;
	f = &im->formats[im->nformats++];
	memset(f, 0, sizeof(*f));
	f->fourcc = fourcc;
	f->queue = im->queue;
	f->line = line;
	snprintf(f->desc, sizeof(f->desc), "%s", desc);
	return f;
}

static struct imp_format *current_format(struct imp *im)
{
	return im->cur < im->nformats ? &im->formats[im->cur] : NULL;
}

/* "[0]: 'YUYV' (YUYV 4:2:2)" or "[1]: 'MJPG' (Motion-JPEG, compressed)". */
static void parse_format_line(struct imp *im, char *s)
{
	char *q1 = strchr(s, '\''), *q2, *open, *close, *flags;
	struct imp_format *f;
	unsigned int index;
	size_t dlen;
	__u32 fourcc;
	int n = -1;

	if (sscanf(s, "[%u]: %n", &index, &n) != 1 || n < 0 || !q1 || q1 != s + n ||
	    !(q2 = strchr(q1 + 1, '\'')) || parse_fourcc(q1 + 1, (size_t)(q2 - q1 - 1), &fourcc)) {
		imp_error(im, im->line, "cannot understand this format line: '%s'", s);
		im->skip = true;
		return;
	}
	open = q2 + 1;
	close = s + strlen(s) - 1;
	if (open[0] != ' ' || open[1] != '(' || *close != ')' || close < open + 2) {
		imp_error(im, im->line, "cannot understand this format line: '%s'", s);
		im->skip = true;
		return;
	}
	*close = '\0';
	open += 2;
	/*
	 * "DESC, flag, flag": trailing ", item"s that are flag names are the
	 * flags; the rest, commas and parentheses included, the description.
	 */
	dlen = strlen(open);
	for (;;) {
		char *p, *last = NULL;

		for (p = open; (p = strstr(p, ", ")) && p + 2 <= open + dlen; p++)
			last = p;
		if (!last || !is_known_flag(last + 2, (size_t)(open + dlen - last - 2)))
			break;
		dlen = (size_t)(last - open);
	}
	flags = open[dlen] ? open + dlen + 2 : open + dlen;
	open[dlen] = '\0';
	f = add_format(im, fourcc, open, im->line);
	if (f)
		check_flags(im, f, im->line, fourcc, flags);
}

/*
 * A number of a size line: digits only, and within 32 bits. scanf's %u
 * would wrap 4294967936 to 640 without a word.
 */
static int size_number(struct imp *im, const char *text, const char *field, __u32 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end || v > 0xffffffffull) {
		imp_error(im, im->line, "the %s %s does not fit in 32 bits (at most 4294967295)",
			  field, text);
		return -1;
	}
	*out = (__u32)v;
	return 0;
}

static void parse_size_line(struct imp *im, const char *s)
{
	static const char *const field[] = { "width", "height", "maximum width",
					     "maximum height", "step width", "step height" };
	struct imp_format *f = current_format(im);
	struct imp_size sz;
	char t[6][32];
	__u32 *v[6];
	unsigned int i, n;

	memset(&sz, 0, sizeof(sz));
	sz.line = im->line;
	v[0] = &sz.min_w, v[1] = &sz.min_h, v[2] = &sz.max_w, v[3] = &sz.max_h;
	v[4] = &sz.step_w, v[5] = &sz.step_h;
	if (FULL_MATCH(s, "Size: Discrete %31[0-9]x%31[0-9]", 2, t[0], t[1])) {
		sz.kind = V4L2_FRMSIZE_TYPE_DISCRETE;
		n = 2;
	} else if (FULL_MATCH(s, "Size: Stepwise %31[0-9]x%31[0-9] - %31[0-9]x%31[0-9] with "
			      "step %31[0-9]/%31[0-9]", 6, t[0], t[1], t[2], t[3], t[4], t[5])) {
		sz.kind = V4L2_FRMSIZE_TYPE_STEPWISE;
		n = 6;
	} else if (FULL_MATCH(s, "Size: Continuous %31[0-9]x%31[0-9] - %31[0-9]x%31[0-9]", 4,
			      t[0], t[1], t[2], t[3])) {
		sz.kind = V4L2_FRMSIZE_TYPE_CONTINUOUS;
		n = 4;
	} else {
		imp_error(im, im->line, "cannot understand this size line: '%s'", s);
		return;
	}
	for (i = 0; i < n; i++)
		if (size_number(im, t[i], field[i], v[i]))
			return;
	if (sz.kind == V4L2_FRMSIZE_TYPE_CONTINUOUS)
		sz.step_w = sz.step_h = 1;
	if (im->queue < 0 || im->skip)
		return;
	if (!f || (im->nformats && f->queue != im->queue)) {
		imp_error(im, im->line, "a size before any format line");
		return;
	}
	if (sz.kind != V4L2_FRMSIZE_TYPE_DISCRETE && (sz.max_w < sz.min_w || sz.max_h < sz.min_h)) {
		imp_warn(im, im->line, "the range %ux%u - %ux%u ends below its start (the driver "
			 "reported it so): no size of it can be set, dropped", sz.min_w, sz.min_h,
			 sz.max_w, sz.max_h);
		sz.kind = -1; /* a marker, as for a repeated size */
	}
	for (i = 0; i < f->nsizes; i++) {
		if (sz.kind == V4L2_FRMSIZE_TYPE_DISCRETE &&
		    f->sizes[i].kind == V4L2_FRMSIZE_TYPE_DISCRETE &&
		    f->sizes[i].min_w == sz.min_w && f->sizes[i].min_h == sz.min_h) {
			imp_warn(im, im->line, "%ux%u listed again (first on line %u): a profile "
				 "lists a size once, this one and its intervals are dropped",
				 sz.min_w, sz.min_h, f->sizes[i].line);
			/* Kept as a marker so that its interval lines are dropped too. */
			sz.kind = -1;
			break;
		}
	}
	f->sizes = grow(f->sizes, f->nsizes, sizeof(*f->sizes));
	f->sizes[f->nsizes++] = sz;
}

static struct imp_size *current_size(struct imp *im)
{
	struct imp_format *f = current_format(im);

	return f && f->nsizes ? &f->sizes[f->nsizes - 1] : NULL;
}

/* v4l2-ctl prints every interval number as "%.3f": digits, a point, three digits. */
static bool is_printed_number(const char *t)
{
	size_t n = strspn(t, "0123456789");

	return n > 0 && t[n] == '.' && strspn(t + n + 1, "0123456789") == 3 && !t[n + 4];
}

/*
 * The fractions an interval line's printed numbers stand for, into @iv:
 * @a and @fa the minimum in seconds and fps, @b and @fb the maximum, @c
 * the step; -1 (reported) when no fraction prints so.
 */
static int interval_fractions(struct imp *im, struct imp_ival *iv, const char *a, const char *b,
			      const char *c, const char *fa, const char *fb)
{
	struct fraction_rule r = { 0 };

	r.sec = a;
	r.fps = fa;
	if (recover_fraction(&r, &iv->min)) {
		imp_error(im, im->line, "no fraction with terms up to %u prints as %ss (%s fps)",
			  IMP_MAX_RATE, a, fa);
		return -1;
	}
	if (iv->kind != IV_DISCRETE) {
		r.sec = b;
		r.fps = fb;
		if (recover_fraction(&r, &iv->max)) {
			imp_error(im, im->line, "no fraction with terms up to %u prints as %ss "
				  "(%s fps)", IMP_MAX_RATE, b, fb);
			return -1;
		}
	}
	if (iv->kind == IV_STEPWISE) {
		r.sec = c;
		r.fps = NULL;
		r.range_min = &iv->min;
		r.range_max = &iv->max;
		if (recover_fraction(&r, &iv->step)) {
			imp_error(im, im->line, "no step printing as %ss divides %ss - %ss into "
				  "whole steps", c, a, b);
			return -1;
		}
	}
	return 0;
}

static void parse_interval_line(struct imp *im, const char *s)
{
	char a[32], b[32], c[32], fa[32], fb[32];
	struct imp_size *sz = current_size(im);
	struct imp_ival iv;
	unsigned int i;

	memset(&iv, 0, sizeof(iv));
	iv.line = im->line;
	if (FULL_MATCH(s, "Interval: Discrete %31[0-9.]s (%31[0-9.] fps)", 2, a, fa)) {
		iv.kind = IV_DISCRETE;
	} else if (FULL_MATCH(s, "Interval: Continuous %31[0-9.]s - %31[0-9.]s (%31[0-9.]-%31[0-9.] fps)",
			      4, a, b, fb, fa)) {
		iv.kind = IV_CONTINUOUS;
	} else if (FULL_MATCH(s, "Interval: Stepwise %31[0-9.]s - %31[0-9.]s with step %31[0-9.]s "
			      "(%31[0-9.]-%31[0-9.] fps)", 5, a, b, c, fb, fa)) {
		iv.kind = IV_STEPWISE;
	} else {
		imp_error(im, im->line, "cannot understand this interval line: '%s'", s);
		return;
	}
	if (!is_printed_number(a) || !is_printed_number(fa) ||
	    (iv.kind != IV_DISCRETE && (!is_printed_number(b) || !is_printed_number(fb))) ||
	    (iv.kind == IV_STEPWISE && !is_printed_number(c))) {
		imp_error(im, im->line, "cannot understand this interval line: '%s' (numbers are "
			  "printed with three decimals)", s);
		return;
	}
	if (im->queue < 0 || im->skip)
		return;
	if (!sz || sz->kind < 0) {
		if (!sz)
			imp_error(im, im->line, "an interval before any size line");
		return; /* the intervals of a dropped duplicate size go with it */
	}
	if (sz->kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
		imp_error(im, im->line, "an interval under a size range (v4l2-ctl lists "
			  "intervals under discrete sizes only)");
		return;
	}
	if (interval_fractions(im, &iv, a, b, c, fa, fb))
		return;
	if ((iv.kind != IV_DISCRETE || (sz->nivals && sz->ivals[0].kind != IV_DISCRETE)) &&
	    sz->nivals) {
		imp_error(im, im->line, "an interval range must be the only interval of its "
			  "size (line %u)", sz->line);
		return;
	}
	for (i = 0; i < sz->nivals; i++) {
		if (sz->ivals[i].min.numerator == iv.min.numerator &&
		    sz->ivals[i].min.denominator == iv.min.denominator) {
			imp_warn(im, im->line, "interval %u/%u listed again (first on line %u): "
				 "dropped", iv.min.numerator, iv.min.denominator,
				 sz->ivals[i].line);
			return;
		}
	}
	sz->ivals = grow(sz->ivals, sz->nivals, sizeof(*sz->ivals));
	sz->ivals[sz->nivals++] = iv;
}

static void parse_type(struct imp *im, const char *type)
{
	im->skip = false;
	if (!strcmp(type, "Video Capture") || !strcmp(type, "Video Capture Multiplanar")) {
		im->queue = NC_CAPTURE;
	} else if (!strcmp(type, "Video Output") || !strcmp(type, "Video Output Multiplanar")) {
		im->queue = NC_OUTPUT;
	} else {
		imp_warn(im, im->line, "type '%s' has no place in a negcam profile: its formats "
			 "are skipped", type);
		im->queue = -1;
		return;
	}
	/* A profile's queues are all single-planar or all multiplanar. */
	if (strstr(type, "Multiplanar") ? im->splane : im->mplane)
		imp_warn(im, im->line, "single-planar and multiplanar sections: a "
			 "profile's queues are one or the other, so all are multiplanar");
	if (strstr(type, "Multiplanar"))
		im->mplane = true;
	else
		im->splane = true;
}

/* The layout before v4l-utils 1.16: Index / Type / Pixel Format / Name lines. */
static bool parse_old_layout(struct imp *im, char *s)
{
	struct imp_format *f;
	char type[64], fcc[16];
	unsigned int index;
	int n = -1;

	/* A space in a scanf format matches any run of blanks, none included. */
	if (FULL_MATCH(s, "Index : %u", 1, &index))
		return true;
	if (sscanf(s, "Type : %63[^\n]%n", type, &n) == 1) {
		parse_type(im, trim(type));
		return true;
	}
	if ((sscanf(s, "Pixel Format: '%15[^']'%n", fcc, &n) == 1 && n > 0) ||
	    (!strncmp(s, "Pixel Format: ''", 16) && (fcc[0] = '\0', n = 16))) {
		char *rest = trim(s + n);
		size_t len = strlen(rest);

		if (parse_fourcc(fcc, strlen(fcc), &im->old_fourcc) ||
		    (len && (rest[0] != '(' || rest[len - 1] != ')'))) {
			imp_error(im, im->line, "cannot understand this format line: '%s'", s);
			im->skip = true;
			return true;
		}
		snprintf(im->old_flags, sizeof(im->old_flags), "%.*s",
			 len ? (int)len - 2 : 0, len ? rest + 1 : "");
		im->old_pending = true;
		im->old_line = im->line;
		return true;
	}
	if (!strncmp(s, "Name", 4)) {
		char *colon = strchr(s, ':');
		char *p = s + 4;

		while (p < colon && *p == ' ')
			p++;
		if (!colon || p != colon)
			return false;
		if (!im->old_pending) {
			imp_error(im, im->line, "a Name line without a Pixel Format line before it");
			return true;
		}
		im->old_pending = false;
		f = add_format(im, im->old_fourcc, trim(colon + 1), im->old_line);
		if (f)
			check_flags(im, f, im->old_line, im->old_fourcc, im->old_flags);
		return true;
	}
	return false;
}

/* A shell command line that ran v4l2-ctl: "$ v4l2-ctl -d /dev/video0 --list-formats-ext". */
static bool is_command_line(const char *s)
{
	const char *v = strstr(s, "v4l2-ctl");

	if (!v)
		return false;
	if (v == s)
		return true;
	return v >= s + 2 && (v[-1] == ' ') && (v[-2] == '$' || v[-2] == '#' || v[-2] == '>');
}

/*
 * What dump tools and web pages add around a listing, stripped: the
 * "/dev/video0 | " of camera-streamer's and crowsnest's dump scripts,
 * the "[06/16/22 10:07:47] crowsnest: " of crowsnest's log, and the
 * backticks of a Markdown code span. Said once; the line numbers stay
 * the file's.
 */
static char *strip_debris(struct imp *im, char *s)
{
	unsigned int dev, a, b, c, h, m, sec;
	char *e;
	int n = -1;

	s = trim(s);
	if ((sscanf(s, "/dev/video%u |%n", &dev, &n) == 1 && n > 0) ||
	    (sscanf(s, "[%u/%u/%u %u:%u:%u] crowsnest:%n", &a, &b, &c, &h, &m, &sec, &n) == 6 &&
	     n > 0)) {
		if (!im->prefixed)
			imp_warn(im, im->line, "stripped the dump tool's prefix '%.*s' from this "
				 "line and the next ones", n, s);
		im->prefixed = true;
		s = trim(s + n);
	}
	while (*s == '`')
		s++;
	e = s + strlen(s);
	while (e > s && e[-1] == '`')
		*--e = '\0';
	return trim(s);
}

static void parse_line(struct imp *im, char *raw)
{
	char *s = strip_debris(im, raw), type[64];
	int n = -1;

	/* crowsnest's log says "Supported Formats:" where v4l2-ctl says "ioctl: ..." */
	if (!*s || !strcmp(s, "ioctl: VIDIOC_ENUM_FMT") || !strcmp(s, "Supported Formats:") ||
	    is_command_line(s))
		return;
	if (sscanf(s, "Type: %63[^\n]%n", type, &n) == 1) {
		parse_type(im, trim(type));
		return;
	}
	if (s[0] == '[') {
		parse_format_line(im, s);
		return;
	}
	if (!strncmp(s, "Size:", 5)) {
		parse_size_line(im, s);
		return;
	}
	if (!strncmp(s, "Interval:", 9)) {
		parse_interval_line(im, s);
		return;
	}
	if (parse_old_layout(im, s))
		return;
	imp_error(im, im->line, "cannot understand this line: '%s'", s);
}

/* The rates of the discrete size @sz into @b: 0, or -1 (an error said, or b->why). */
static int import_rates(struct imp *im, struct ctl_build *b, const struct imp_size *sz)
{
	const struct imp_ival *iv = &sz->ivals[0];
	size_t used = 3; /* the text of "fps 30 15/2 ...", within v4l2-ctl's line budget */
	unsigned int k;
	char one[32];

	if (iv->kind != IV_DISCRETE)
		return ctl_build_rate(b, iv->kind == IV_CONTINUOUS ? V4L2_FRMIVAL_TYPE_CONTINUOUS :
				      V4L2_FRMIVAL_TYPE_STEPWISE, iv->min, iv->max, iv->step);
	for (k = 0; k < sz->nivals; k++) {
		const struct v4l2_fract *f = &sz->ivals[k].min;

		used += (size_t)snprintf(one, sizeof(one), f->numerator == 1 ? " %u" : " %u/%u",
					 f->denominator, f->numerator);
		if (used + 1 >= 8192) {
			imp_error(im, sz->ivals[k].line, "too many intervals for one size");
			return -1;
		}
		if (ctl_build_rate(b, V4L2_FRMIVAL_TYPE_DISCRETE, *f, *f, *f))
			return -1;
	}
	return 0;
}

/* Size @sz into @b, its rates or a placeholder's fps 30: 0, or -1 (said, or b->why). */
static int import_build_size(struct imp *im, struct ctl_build *b, const struct imp_size *sz,
			     bool placeholder)
{
	static const struct v4l2_fract fps30 = { 1, 30 };
	struct negcam_size dims = { .min_w = sz->min_w, .max_w = sz->max_w, .step_w = sz->step_w,
				    .min_h = sz->min_h, .max_h = sz->max_h, .step_h = sz->step_h };
	/* as listed: Stepwise (step 1/1 included) or Continuous */
	__u8 kind = (__u8)sz->kind;

	if (ctl_build_size(b, &dims, kind, sz->line) ||
	    (placeholder ? ctl_build_rate(b, V4L2_FRMIVAL_TYPE_DISCRETE, fps30, fps30, fps30) :
			   import_rates(im, b, sz))) {
		im->build_line = sz->line;
		return -1;
	}
	ctl_build_size_end(b, placeholder);
	return 0;
}

/*
 * One size of a listing, or its placeholder, into @b when @build: 0, or
 * -1 when it was not built (an error said, or b->why set).
 */
static int import_size(struct imp *im, struct ctl_build *b, const struct imp_size *sz,
		       bool no_ivals, bool build)
{
	if (sz->kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
		imp_warn(im, sz->line, "v4l2-ctl lists no intervals for a size range: wrote fps 30 "
			 "as a placeholder");
	} else if (!sz->nivals && !no_ivals) {
		imp_error(im, sz->line, "%ux%u lists no intervals while other sizes do: a profile "
			  "cannot express that", sz->min_w, sz->min_h);
		return -1;
	} else if (!sz->nivals) {
		imp_warn(im, sz->line, "%ux%u lists no intervals (no VIDIOC_ENUM_FRAMEINTERVALS): "
			 "wrote quirk no-enum-frameintervals and fps 30 as a placeholder",
			 sz->min_w, sz->min_h);
	}
	if (!build)
		return -1;
	return import_build_size(im, b, sz, sz->kind != V4L2_FRMSIZE_TYPE_DISCRETE || !sz->nivals);
}

/* The sizes of @f that are built: not repeats, not backward ranges. */
static unsigned int live_sizes(const struct imp_format *f)
{
	unsigned int j, n = 0;

	for (j = 0; j < f->nsizes; j++)
		n += f->sizes[j].kind >= 0;
	return n;
}

/* One format of a listing into @b when @build: 0, or -1 when it was not built. */
static int import_format(struct imp *im, struct ctl_build *b, const struct imp_format *f,
			 bool some_sizes, bool no_ivals, bool build)
{
	static const struct imp_size none = { .kind = V4L2_FRMSIZE_TYPE_DISCRETE, .min_w = 640,
					      .min_h = 480 };
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);
	struct negcam_format *nf = NULL;
	struct imp_size placeholder = none;
	unsigned int j;
	char f4[8];

	ctl_fcc(f->fourcc, f4);
	if (build) {
		nf = ctl_build_format(b, f->fourcc, f->queue, f->line);
		if (!nf) {
			im->build_line = f->line;
			build = false;
		} else {
			nf->flags = f->flags;
			if (!fi) /* opaque: the listing's description is all there is */
				snprintf(nf->description, sizeof(nf->description), "%.31s", f->desc);
		}
	}
	/*
	 * The Linux core overwrites the description of every fourcc it
	 * knows and negcam does the same, so a listing's own description
	 * (an old kernel's "YUV 4:2:2 (YUYV)") cannot come back.
	 */
	if (fi && strcmp(fi->description, f->desc))
		imp_warn(im, f->line, "'%s' is described as '%s'; Linux (and negcam) report '%s' "
			 "for it today", f4, f->desc, fi->description);
	if (!live_sizes(f)) {
		if (some_sizes) {
			imp_error(im, f->line, "'%s' lists no sizes while other formats do: a "
				  "profile cannot express that", f4);
			return -1;
		}
		imp_warn(im, f->line, "'%s' lists no sizes (no VIDIOC_ENUM_FRAMESIZES): wrote quirk "
			 "no-enum-framesizes and a placeholder size 640x480 at 30 fps; set them to "
			 "what the device's G_FMT reports", f4);
		placeholder.line = f->line;
		return build ? import_build_size(im, b, &placeholder, true) : -1;
	}
	for (j = 0; j < f->nsizes; j++)
		if (f->sizes[j].kind >= 0) /* else a duplicate, dropped */
			build = !import_size(im, b, &f->sizes[j], no_ivals, build) && build;
	return build ? 0 : -1;
}

static void generate(struct imp *im, struct ctl_build *b)
{
	bool some_sizes = false, some_ivals = false, some_discrete = false, build = true;
	unsigned int i, j;

	/* A device without ENUM_FRAMESIZES/INTERVALS shows no sizes/intervals at all. */
	for (i = 0; i < im->nformats; i++) {
		const struct imp_format *f = &im->formats[i];

		some_sizes |= live_sizes(f) > 0;
		for (j = 0; j < f->nsizes; j++) {
			if (f->sizes[j].kind != V4L2_FRMSIZE_TYPE_DISCRETE)
				continue;
			some_discrete = true;
			some_ivals |= f->sizes[j].nivals > 0;
		}
	}
	b->p->multiplanar = im->mplane;
	if (!some_sizes)
		b->p->quirks |= NC_QUIRK_NO_ENUM_FRAMESIZES;
	if (some_discrete && !some_ivals)
		b->p->quirks |= NC_QUIRK_NO_ENUM_FRAMEINTERVALS;
	for (i = 0; i < im->nformats; i++)
		build = !import_format(im, b, &im->formats[i], some_sizes,
				       some_discrete && !some_ivals, build) && build;
}

/* The generated profile, parsed again: errors in it point at the listing's lines. */
static char *import_text(struct imp *im, struct ctl_build *b, size_t *len)
{
	static struct negcam_profile p; /* large: not on the stack */
	struct negcam_parse_error err;
	unsigned int *src = NULL, nlines = 0, line;
	char header[512], *text;

	snprintf(header, sizeof(header),
		 "# Imported by negcam-ctl --import from %s.\n"
		 "# A --list-formats-ext listing does not show the colorimetry, the field,\n"
		 "# the default format or how the driver adjusts sizes: they keep the\n"
		 "# defaults of docs/profiles.md (add colorspace, field, default, adjust).\n",
		 im->label);
	text = ctl_build_write(b, header, 0, len, &src, &nlines);
	if (!text) {
		ctl_warn("%s: the imported profile cannot be written\n", im->label);
		im->errors++;
		return NULL;
	}
	if (negcam_profile_parse(&p, text, (__u32)*len, &err)) {
		line = err.line >= 1 && err.line <= nlines ? src[err.line - 1] : 0;
		if (line)
			imp_error(im, line, "%s", err.message);
		else
			ctl_warn("%s: the imported profile does not load: %u:%u: %s\n", im->label,
				 err.line, err.column, err.message);
		im->errors++;
		free(text);
		text = NULL;
	}
	free(src);
	return text;
}

int ctl_import(FILE *in, const char *label, FILE *out, const char *name)
{
	struct imp im;
	struct ctl_build b;
	char *line = NULL, *text = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;
	int ret = -1;
	unsigned int i, j;

	memset(&im, 0, sizeof(im));
	im.label = label;
	im.queue = NC_CAPTURE; /* a listing pasted without its "Type:" line */
	while ((n = getline(&line, &cap, in)) >= 0) {
		im.line++;
		if (memchr(line, '\0', (size_t)n)) {
			imp_error(&im, im.line, "a NUL byte: this is not v4l2-ctl output");
			continue;
		}
		parse_line(&im, line);
	}
	if (ferror(in))
		imp_error(&im, im.line, "read error: %s", strerror(errno));
	if (im.old_pending)
		imp_error(&im, im.old_line, "a Pixel Format line without its Name line");
	if (!im.errors && !im.nformats)
		imp_error(&im, im.line ? im.line : 1, "no formats found: is this the output of "
			  "v4l2-ctl --list-formats-ext?");
	ctl_build_init(&b, name);
	if (!im.errors)
		generate(&im, &b);
	if (!im.errors && b.why[0])
		imp_error(&im, im.build_line, "%s", b.why);
	else if (!im.errors)
		text = import_text(&im, &b, &len);
	if (im.warnings > IMP_MAX_WARNINGS)
		ctl_warn("%s: ... %u more warnings\n", label, im.warnings - IMP_MAX_WARNINGS);
	if (im.errors > IMP_MAX_ERRORS)
		ctl_warn("%s: ... %u more errors\n", label, im.errors - IMP_MAX_ERRORS);
	if (!im.errors && text) {
		fputs(text, out);
		ret = fflush(out) ? -1 : 0;
	}
	for (i = 0; i < im.nformats; i++) {
		for (j = 0; j < im.formats[i].nsizes; j++)
			free(im.formats[i].sizes[j].ivals);
		free(im.formats[i].sizes);
	}
	ctl_build_free(&b);
	free(im.formats);
	free(text);
	free(line);
	return ret;
}
