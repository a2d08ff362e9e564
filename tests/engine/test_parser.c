// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile language: every built-in profile, the full example of
 * docs/profiles.md (which must equal tests/engine/profiles/example.profile),
 * the malformed profiles of tests/engine/profiles/bad/ (each starts with
 * "# expect: LINE:COL: message", the exact error), generated errors,
 * pool limits and boundaries, and random mutations that must fail
 * cleanly or parse, never crash or leave half a profile behind.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats.h"
#include "profile.h"

#define PROFILES_DIR NEGCAM_SOURCE_ROOT "/tests/engine/profiles"
#define DOCS NEGCAM_SOURCE_ROOT "/docs/profiles.md"

static struct negcam_profile prof, prof2;
static const struct negcam_profile zero_prof;

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Parse @text; on failure print the error with @what. */
static int parse(struct negcam_profile *p, const char *text, size_t len,
		 const char *what)
{
	struct negcam_parse_error err;
	int ret = negcam_profile_parse(p, text, (__u32)len, &err);

	if (ret)
		fprintf(stderr, "%s:%u:%u: %s\n", what, err.line, err.column,
			err.message);
	return ret;
}

static int parse_str(struct negcam_profile *p, const char *text)
{
	return parse(p, text, strlen(text), "inline profile");
}

/* The error of a text that must not parse, as "LINE:COL: message". */
static const char *parse_error(const char *text, size_t len)
{
	static char buf[256];
	struct negcam_parse_error err;
	int ret;

	memset(&prof, 0xa5, sizeof(prof));
	ret = negcam_profile_parse(&prof, text, (__u32)len, &err);
	if (ret != -EINVAL)
		return "(parsed)";
	CHECK(!memcmp(&prof, &zero_prof, sizeof(prof)),
	      "output zeroed after an error (%u:%u)", err.line, err.column);
	snprintf(buf, sizeof(buf), "%u:%u: %s", err.line, err.column, err.message);
	return buf;
}

#define CHECK_ERROR(text, expect)                                            \
	do {                                                                 \
		const char *got_ = parse_error(text, strlen(text));          \
		CHECK(!strcmp(got_, expect), "got '%s', expected '%s'", got_, \
		      expect);                                               \
	} while (0)

static const struct negcam_format *find_format(const struct negcam_profile *p,
					       __u32 fourcc, __u32 type)
{
	unsigned int i;

	for (i = 0; i < p->nformats; i++)
		if (p->formats[i].fourcc == fourcc && p->formats[i].buf_type == type)
			return &p->formats[i];
	return NULL;
}

static const struct negcam_size *size_at(const struct negcam_profile *p,
					 const struct negcam_format *f,
					 unsigned int i)
{
	return &p->sizes[f->size_first + i];
}

static const struct negcam_interval *ival_at(const struct negcam_profile *p,
					     const struct negcam_size *s,
					     unsigned int i)
{
	return &p->intervals[s->ival_first + i];
}

#define CHECK_FRACT(f, n, d, ...)                                            \
	do {                                                                 \
		CHECK_EQ((f).numerator, n, __VA_ARGS__);                     \
		CHECK_EQ((f).denominator, d, __VA_ARGS__);                   \
	} while (0)

/* Structural invariants every parsed profile satisfies. */
static void check_invariants(const struct negcam_profile *p, const char *what)
{
	unsigned int i, j, k;

	CHECK(p->name[0] && p->card[0], "%s: name and card set", what);
	CHECK(p->nformats >= 1 && p->nformats <= NC_MAX_FORMATS, "%s: formats", what);
	for (i = 0; i < p->nformats; i++) {
		const struct negcam_format *f = &p->formats[i];
		const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);

		CHECK(fi != NULL, "%s: format %u in the table", what, i);
		if (!fi)
			continue;
		CHECK(f->description[0], "%s: format %u has a description", what, i);
		CHECK(f->nfields >= 1 && f->nfields <= NC_MAX_FIELDS, "%s: fields", what);
		for (j = 0; j < f->nfields; j++)
			CHECK(f->fields[j] != V4L2_FIELD_ANY, "%s: field never ANY", what);
		CHECK(f->colorspace && f->ycbcr_enc && f->quantization && f->xfer_func,
		      "%s: format %u colorimetry explicit", what, i);
		CHECK(f->stride_align >= 1 && !(f->stride_align & (f->stride_align - 1)),
		      "%s: stride_align power of two", what);
		CHECK_EQ(!!(f->flags & V4L2_FMT_FLAG_COMPRESSED),
			 fi->layout == NC_LAYOUT_COMPRESSED, "%s: compressed flag", what);
		CHECK(f->size_count >= 1, "%s: format %u has sizes", what, i);
		CHECK(f->size_kind == V4L2_FRMSIZE_TYPE_DISCRETE || f->size_count == 1,
		      "%s: a range is the only size", what);
		CHECK(f->size_first + f->size_count <= p->nsizes, "%s: size run in pool", what);
		for (j = 0; j < f->size_count; j++) {
			const struct negcam_size *s = size_at(p, f, j);

			CHECK(s->min_w % fi->hsub == 0 && s->min_h % fi->vsub == 0,
			      "%s: subsampling %ux%u", what, s->min_w, s->min_h);
			CHECK(s->min_w >= 1 && s->min_w <= NC_MAX_DIM && s->min_h >= 1 &&
			      s->min_h <= NC_MAX_DIM, "%s: dimensions", what);
			if (f->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE) {
				CHECK(s->step_w && s->step_h, "%s: steps", what);
				CHECK(s->max_w <= NC_MAX_DIM && s->max_h <= NC_MAX_DIM &&
				      (s->max_w - s->min_w) % s->step_w == 0 &&
				      (s->max_h - s->min_h) % s->step_h == 0,
				      "%s: range on steps", what);
			}
			CHECK(s->ival_count >= 1, "%s: size has intervals", what);
			CHECK(s->ival_first + s->ival_count <= p->nintervals,
			      "%s: interval run in pool", what);
			CHECK(s->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE ||
			      s->ival_count == 1, "%s: an interval range stands alone", what);
			for (k = 0; k < s->ival_count; k++) {
				const struct negcam_interval *v = ival_at(p, s, k);

				CHECK(v->min.numerator && v->min.denominator,
				      "%s: interval non-zero", what);
			}
		}
	}
	for (i = 0; i < NC_NQUEUES; i++) {
		if (!p->def[i].fourcc)
			continue;
		CHECK(find_format(p, p->def[i].fourcc,
				  i ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
				      V4L2_BUF_TYPE_VIDEO_CAPTURE) != NULL,
		      "%s: default format exists", what);
		CHECK(p->def[i].width && p->def[i].height &&
		      p->def[i].interval.numerator && p->def[i].interval.denominator,
		      "%s: default complete", what);
	}
}

/* ---- built-in profiles ---- */

/* webcam: UVC-like, YUYV rates fall as sizes grow, MJPG 1080p30 */
static void builtin_webcam(void)
{
	__u64 prev_area = 0;
	__u32 prev_fps_num = ~0u;
	const struct negcam_format *f;
	const struct negcam_size *s;
	unsigned int i;

	if (parse_str(&prof, negcam_builtin_find("webcam")->text))
		return;
	CHECK_EQ(prof.adjust, NC_ADJUST_NEAREST, "webcam adjusts as uvcvideo");
	CHECK_EQ(prof.quirks, 0, "webcam has no quirks");
	CHECK_EQ(prof.def[NC_CAPTURE].fourcc, V4L2_PIX_FMT_YUYV, "webcam default");
	CHECK_EQ(prof.def[NC_CAPTURE].width, 640, "webcam default width");
	CHECK_FRACT(prof.def[NC_CAPTURE].interval, 1, 30, "webcam default rate");
	CHECK_EQ(prof.def[NC_OUTPUT].fourcc, 0, "webcam captures only");
	f = find_format(&prof, V4L2_PIX_FMT_YUYV, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK(f && f->size_kind == V4L2_FRMSIZE_TYPE_DISCRETE && f->size_count >= 6,
	      "webcam YUYV discrete sizes");
	for (i = 0; f && i < f->size_count; i++) {
		const struct negcam_interval *fast;

		s = size_at(&prof, f, i);
		fast = ival_at(&prof, s, 0);
		CHECK((__u64)s->min_w * s->min_h > prev_area, "YUYV sizes ascend");
		/* fastest rate (den/num fps) never rises with the size */
		CHECK((__u64)fast->min.denominator * 1 <=
			      (__u64)prev_fps_num,
		      "YUYV rate falls at %ux%u", s->min_w, s->min_h);
		prev_fps_num = fast->min.denominator / fast->min.numerator;
		prev_area = (__u64)s->min_w * s->min_h;
		CHECK_EQ(s->ival_kind, V4L2_FRMIVAL_TYPE_DISCRETE, "discrete rates");
	}
	if (f) {
		s = size_at(&prof, f, 0);
		CHECK(s->min_w == 160 && s->min_h == 120, "YUYV from 160x120");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 30, "30 fps at 160x120");
		s = size_at(&prof, f, f->size_count - 1);
		CHECK(s->min_w == 1920 && s->min_h == 1080, "YUYV up to 1920x1080");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 5, "5 fps at 1920x1080");
	}
	f = find_format(&prof, V4L2_PIX_FMT_MJPEG, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK(f && (f->flags & V4L2_FMT_FLAG_COMPRESSED), "webcam MJPG compressed");
	if (f) {
		s = size_at(&prof, f, f->size_count - 1);
		CHECK(s->min_w == 1920 && s->min_h == 1080, "MJPG up to 1920x1080");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 30, "MJPG 1080p at 30 fps");
		CHECK_EQ(f->quantization, V4L2_QUANTIZATION_FULL_RANGE, "JPEG full range");
	}
}

/* vga: the seed's device */
static void builtin_vga(void)
{
	if (parse_str(&prof, negcam_builtin_find("vga")->text))
		return;
	CHECK_EQ(prof.nformats, 1, "vga one format");
	CHECK_EQ(prof.nsizes, 1, "vga one size");
	CHECK(prof.sizes[0].min_w == 640 && prof.sizes[0].min_h == 480, "vga 640x480");
	CHECK_FRACT(prof.intervals[0].min, 1, 30, "vga 30 fps");
	CHECK_EQ(prof.adjust, NC_ADJUST_DOWN, "vga adjusts downward");
}

/* stepwise: NV12 and YU12 over a 4:2:0-aligned range, continuous intervals */
static void builtin_stepwise(void)
{
	__u32 fccs[2] = { V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_YUV420 };
	const struct negcam_format *f;
	const struct negcam_size *s;
	unsigned int i;

	if (parse_str(&prof, negcam_builtin_find("stepwise")->text))
		return;
	for (i = 0; i < 2; i++) {
		f = find_format(&prof, fccs[i], V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f != NULL, "stepwise format %u", i);
		if (!f)
			continue;
		CHECK_EQ(f->size_kind, V4L2_FRMSIZE_TYPE_STEPWISE, "stepwise sizes");
		s = size_at(&prof, f, 0);
		CHECK(s->min_w == 48 && s->min_h == 32 && s->max_w == 1920 &&
		      s->max_h == 1088 && s->step_w == 16 && s->step_h == 8,
		      "stepwise range");
		CHECK(s->step_w % 2 == 0 && s->step_h % 2 == 0, "4:2:0 steps");
		CHECK_EQ(s->ival_kind, V4L2_FRMIVAL_TYPE_CONTINUOUS, "continuous rates");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 60, "fastest 1/60");
		CHECK_FRACT(ival_at(&prof, s, 0)->max, 1, 1, "slowest 1/1");
		CHECK_FRACT(ival_at(&prof, s, 0)->step, 1, 1, "continuous step 1/1");
	}
	CHECK(prof.def[NC_CAPTURE].width == 1280 && prof.def[NC_CAPTURE].height == 720,
	      "stepwise default 1280x720");
}

/* tv-tuner: interlaced UYVY PAL and NTSC with the 2007 quirks */
static void builtin_tv_tuner(void)
{
	const struct negcam_format *f;
	const struct negcam_size *s;

	if (parse_str(&prof, negcam_builtin_find("tv-tuner")->text))
		return;
	f = find_format(&prof, V4L2_PIX_FMT_UYVY, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK(f != NULL, "tv-tuner UYVY");
	CHECK(prof.quirks & NC_QUIRK_LEGACY_EINVAL, "tv-tuner legacy EINVAL");
	if (f) {
		CHECK_EQ(f->fields[0], V4L2_FIELD_INTERLACED, "interlaced by default");
		CHECK_EQ(f->colorspace, V4L2_COLORSPACE_SMPTE170M, "SDTV colorspace");
		CHECK_EQ(f->size_count, 2, "PAL and NTSC");
		s = size_at(&prof, f, 0);
		CHECK(s->min_w == 720 && s->min_h == 576, "PAL size");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 25, "PAL rate");
		s = size_at(&prof, f, 1);
		CHECK(s->min_w == 720 && s->min_h == 480, "NTSC size");
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1001, 30000, "NTSC rate");
	}
}

static void test_builtins(void)
{
	const struct negcam_builtin *b;
	unsigned int i, n = 0;
	bool seen[4] = { false };

	for (i = 0; (b = negcam_builtin_at(i)) != NULL; i++) {
		n++;
		CHECK(b->name && b->summary && b->summary[0] && b->text,
		      "builtin %u complete", i);
		CHECK(negcam_builtin_find(b->name) == b, "find('%s')", b->name);
		if (parse(&prof, b->text, strlen(b->text), b->name)) {
			CHECK(0, "built-in profile '%s' parses", b->name);
			continue;
		}
		CHECK(!strcmp(prof.name, b->name), "profile '%s' names itself", b->name);
		CHECK(!strchr(b->summary, '\n'), "summary of '%s' is one line", b->name);
		check_invariants(&prof, b->name);
		if (!strcmp(b->name, "webcam"))
			seen[0] = true;
		else if (!strcmp(b->name, "vga"))
			seen[1] = true;
		else if (!strcmp(b->name, "stepwise"))
			seen[2] = true;
		else if (!strcmp(b->name, "tv-tuner"))
			seen[3] = true;
	}
	CHECK(n >= 4, "at least four built-in profiles (%u)", n);
	CHECK(seen[0] && seen[1] && seen[2] && seen[3], "webcam, vga, stepwise, tv-tuner");
	CHECK(!strcmp(negcam_builtin_at(0)->name, "webcam"), "webcam is the default (first)");
	CHECK(negcam_builtin_find("webca") == NULL, "no prefix match");
	CHECK(negcam_builtin_find("webcam2") == NULL, "no longer match");
	CHECK(negcam_builtin_find("") == NULL, "empty name");
	CHECK(negcam_builtin_find(NULL) == NULL, "NULL name");

	builtin_webcam();
	builtin_vga();
	builtin_stepwise();
	builtin_tv_tuner();
}

/* ---- the documented example ---- */

/* The text between "<!-- NAME:begin -->" and "<!-- NAME:end -->", fences dropped. */
static char *docs_section(const char *docs, const char *name)
{
	char begin[64], end[64];
	const char *a, *b;
	char *out;

	snprintf(begin, sizeof(begin), "<!-- %s:begin -->\n", name);
	snprintf(end, sizeof(end), "<!-- %s:end -->", name);
	a = strstr(docs, begin);
	if (!a)
		return NULL;
	a += strlen(begin);
	b = strstr(a, end);
	if (!b)
		return NULL;
	if (!strncmp(a, "```", 3))
		a = strchr(a, '\n') + 1;
	if (b - a >= 4 && !strncmp(b - 4, "```\n", 4))
		b -= 4;
	out = malloc((size_t)(b - a) + 1);
	memcpy(out, a, (size_t)(b - a));
	out[b - a] = '\0';
	return out;
}

static void check_example(const struct negcam_profile *p)
{
	const struct negcam_format *f;
	const struct negcam_size *s;

	check_invariants(p, "example");
	CHECK(!strcmp(p->name, "example"), "example name");
	CHECK(!strcmp(p->card, "Negcam Example Grabber"), "example card");
	CHECK_EQ(p->adjust, NC_ADJUST_NEAREST, "example adjust");
	CHECK_EQ(p->quirks, NC_QUIRK_LEGACY_EINVAL, "example quirks");
	CHECK_EQ(p->nformats, 5, "example formats");
	CHECK_EQ(p->nsizes, 10, "example sizes");
	/* 4+2+2 YUYV, MJPG 1280x720 shares YUYV's list, 3, 1, 1+1, 1+1 */
	CHECK_EQ(p->nintervals, 16, "example intervals, one list shared");

	CHECK_EQ(p->def[NC_CAPTURE].fourcc, V4L2_PIX_FMT_YUYV, "capture default");
	CHECK(p->def[NC_CAPTURE].width == 1280 && p->def[NC_CAPTURE].height == 720,
	      "capture default size");
	CHECK_FRACT(p->def[NC_CAPTURE].interval, 1001, 30000, "capture default rate");
	/* no 'default ... output': the first output format, size and interval */
	CHECK_EQ(p->def[NC_OUTPUT].fourcc, V4L2_PIX_FMT_RGB24, "output default");
	CHECK(p->def[NC_OUTPUT].width == 640 && p->def[NC_OUTPUT].height == 480,
	      "output default size");
	CHECK_FRACT(p->def[NC_OUTPUT].interval, 1, 60, "output default rate: range minimum");

	f = find_format(p, V4L2_PIX_FMT_YUYV, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK(f == &p->formats[0], "YUYV first");
	if (f) {
		CHECK(!strcmp(f->description, "YUYV 4:2:2 (grabber)"), "description");
		CHECK_EQ(f->stride_align, 4, "profile-wide stride-align inherited");
		CHECK(f->nfields == 1 && f->fields[0] == V4L2_FIELD_NONE, "field none");
		CHECK_EQ(f->colorspace, V4L2_COLORSPACE_SRGB, "srgb");
		CHECK_EQ(f->ycbcr_enc, V4L2_YCBCR_ENC_601, "srgb's encoding");
		CHECK_EQ(f->quantization, V4L2_QUANTIZATION_LIM_RANGE, "YCbCr limited");
		CHECK_EQ(f->xfer_func, V4L2_XFER_FUNC_SRGB, "srgb transfer");
		CHECK_EQ(f->flags, 0, "not compressed");
		CHECK_EQ(f->size_count, 3, "YUYV sizes");
		s = size_at(p, f, 0);
		CHECK(s->min_w == 640 && s->min_h == 480 && s->ival_count == 4, "640x480");
		CHECK_FRACT(ival_at(p, s, 0)->min, 1, 60, "fps 60");
		CHECK_FRACT(ival_at(p, s, 2)->min, 1001, 30000, "fps 30000/1001");
		CHECK_FRACT(ival_at(p, s, 3)->min, 1, 15, "fps 15");
		s = size_at(p, f, 2);
		CHECK(s->min_w == 1920 && s->min_h == 1080 && s->ival_count == 2, "1080p");
		CHECK_FRACT(ival_at(p, s, 1)->min, 2, 15, "interval 2/15");
	}
	f = find_format(p, V4L2_PIX_FMT_MJPEG, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	if (f) {
		const struct negcam_format *y = &p->formats[0];

		CHECK(!strcmp(f->description, "Motion-JPEG"), "table description");
		CHECK_EQ(f->flags, V4L2_FMT_FLAG_COMPRESSED, "compressed flag");
		CHECK_EQ(f->quantization, V4L2_QUANTIZATION_FULL_RANGE, "JPEG full range");
		CHECK_EQ(size_at(p, f, 0)->ival_first, size_at(p, y, 1)->ival_first,
			 "identical interval lists shared");
	} else {
		CHECK(0, "MJPG present");
	}
	f = find_format(p, V4L2_PIX_FMT_NV12, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	if (f) {
		CHECK_EQ(f->size_kind, V4L2_FRMSIZE_TYPE_STEPWISE, "NV12 stepwise");
		CHECK_EQ(f->stride_align, 64, "per-format stride-align");
		CHECK_EQ(f->colorspace, V4L2_COLORSPACE_REC709, "rec709");
		CHECK_EQ(f->ycbcr_enc, V4L2_YCBCR_ENC_709, "rec709's encoding");
		CHECK_EQ(f->quantization, V4L2_QUANTIZATION_FULL_RANGE, "explicit full");
		CHECK_EQ(f->xfer_func, V4L2_XFER_FUNC_709, "rec709's transfer");
		s = size_at(p, f, 0);
		CHECK(s->min_w == 64 && s->min_h == 32 && s->max_w == 3840 &&
		      s->max_h == 2160 && s->step_w == 16 && s->step_h == 8, "NV12 range");
		CHECK_EQ(s->ival_kind, V4L2_FRMIVAL_TYPE_STEPWISE, "stepwise intervals");
		CHECK_FRACT(ival_at(p, s, 0)->min, 1, 60, "min");
		CHECK_FRACT(ival_at(p, s, 0)->max, 1, 1, "max");
		CHECK_FRACT(ival_at(p, s, 0)->step, 1, 60, "step");
	} else {
		CHECK(0, "NV12 present");
	}
	f = find_format(p, V4L2_PIX_FMT_UYVY, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	if (f) {
		CHECK(f->nfields == 2 && f->fields[0] == V4L2_FIELD_INTERLACED &&
		      f->fields[1] == V4L2_FIELD_SEQ_TB, "per-format fields");
		CHECK_EQ(f->colorspace, V4L2_COLORSPACE_SMPTE170M, "smpte170m");
		CHECK_EQ(f->xfer_func, V4L2_XFER_FUNC_709, "smpte170m's transfer");
	} else {
		CHECK(0, "UYVY present");
	}
	f = find_format(p, V4L2_PIX_FMT_RGB24, V4L2_BUF_TYPE_VIDEO_OUTPUT);
	if (f) {
		CHECK(f == &p->formats[4], "output format last");
		CHECK_EQ(f->quantization, V4L2_QUANTIZATION_FULL_RANGE, "RGB full range");
		s = size_at(p, f, 1);
		CHECK_EQ(s->ival_kind, V4L2_FRMIVAL_TYPE_CONTINUOUS, "fps range continuous");
		CHECK_FRACT(ival_at(p, s, 0)->min, 1, 30, "fps 1-30 min interval");
		CHECK_FRACT(ival_at(p, s, 0)->max, 1, 1, "fps 1-30 max interval");
	} else {
		CHECK(0, "RGB3 output present");
	}
}

/* LF to CRLF, two-space indents to tabs, spaces between words to tabs. */
static char *to_crlf_tabs(const char *text, size_t *len)
{
	char *out = malloc(strlen(text) * 2 + 1);
	size_t o = 0;
	bool quoted = false;

	for (; *text; text++) {
		if (*text == '"')
			quoted = !quoted;
		if (*text == '\n') {
			out[o++] = '\r';
			quoted = false;
		}
		if (*text == ' ' && !quoted) {
			out[o++] = '\t';
			while (text[1] == ' ')
				text++;
			continue;
		}
		out[o++] = *text;
	}
	out[o] = '\0';
	*len = o;
	return out;
}

static void test_example(void)
{
	size_t dlen, elen, clen;
	char *docs = read_file(DOCS, &dlen);
	char *file = read_file(PROFILES_DIR "/example.profile", &elen);
	char *ex, *crlf;

	CHECK(docs && file, "docs/profiles.md and example.profile readable");
	if (!docs || !file)
		return;
	ex = docs_section(docs, "example");
	CHECK(ex != NULL, "docs/profiles.md has the example between markers");
	if (!ex)
		return;
	CHECK(!strcmp(ex, file), "the docs example equals tests/engine/profiles/example.profile");
	if (!parse(&prof, ex, strlen(ex), "docs example"))
		check_example(&prof);
	else
		CHECK(0, "docs example parses");

	/* the same text with CRLF line ends and tabs parses to the same bytes */
	crlf = to_crlf_tabs(ex, &clen);
	CHECK(strchr(crlf, '\t') && strchr(crlf, '\r'), "variant has tabs and CRs");
	if (!parse(&prof2, crlf, clen, "CRLF example"))
		CHECK(!memcmp(&prof, &prof2, sizeof(prof)), "CRLF/tab variant identical");
	else
		CHECK(0, "CRLF/tab example parses");
	/* no final newline: still the same */
	if (!parse(&prof2, ex, strlen(ex) - 1, "example without final newline"))
		CHECK(!memcmp(&prof, &prof2, sizeof(prof)), "no final newline");
	/* deterministic */
	if (!parse(&prof2, ex, strlen(ex), "example again"))
		CHECK(!memcmp(&prof, &prof2, sizeof(prof)), "same text, same bytes");
	/* err may be NULL */
	CHECK_EQ(negcam_profile_parse(&prof2, ex, (__u32)strlen(ex), NULL), 0, "NULL err");
	CHECK_EQ(negcam_profile_parse(&prof2, "name x", 6, NULL), -EINVAL, "NULL err, error");
	CHECK(!memcmp(&prof2, &zero_prof, sizeof(prof2)), "zeroed with NULL err");

	/* every fourcc of the table is listed in the docs */
	{
		char *list = docs_section(docs, "fourccs");
		const struct negcam_fourcc_info *fi;
		unsigned int i;

		CHECK(list != NULL, "docs/profiles.md lists the fourccs between markers");
		for (i = 0; list && (fi = negcam_fourcc_at(i)) != NULL; i++) {
			char want[16], s[5];
			int n;

			negcam_fourcc_str(fi->fourcc, s);
			n = 4;
			while (n > 1 && s[n - 1] == ' ')
				n--;
			s[n] = '\0';
			snprintf(want, sizeof(want), "`%s%s`", s,
				 (fi->fourcc & (1u << 31)) ? "-BE" : "");
			CHECK(strstr(list, want) != NULL, "docs list %s", want);
		}
		free(list);
	}
	free(crlf);
	free(ex);
	free(docs);
	free(file);
}

/* ---- malformed profiles: tests/engine/profiles/bad/ ---- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_bad_files(void)
{
	DIR *d = opendir(PROFILES_DIR "/bad");
	struct dirent *e;
	char *names[256];
	unsigned int n = 0, i;

	CHECK(d != NULL, "tests/engine/profiles/bad exists");
	if (!d)
		return;
	while ((e = readdir(d)) != NULL && n < NC_ARRAY_SIZE(names)) {
		size_t l = strlen(e->d_name);

		if (l > 8 && !strcmp(e->d_name + l - 8, ".profile"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	CHECK(n >= 30, "at least 30 malformed profiles (%u)", n);
	for (i = 0; i < n; i++) {
		char path[512], expect[256];
		const char *got, *nl;
		size_t len;
		char *text;

		snprintf(path, sizeof(path), PROFILES_DIR "/bad/%s", names[i]);
		text = read_file(path, &len);
		CHECK(text != NULL, "read %s", names[i]);
		if (!text)
			continue;
		nl = strchr(text, '\n');
		CHECK(!strncmp(text, "# expect: ", 10) && nl, "%s: first line '# expect: ...'",
		      names[i]);
		if (strncmp(text, "# expect: ", 10) || !nl) {
			free(text);
			continue;
		}
		snprintf(expect, sizeof(expect), "%.*s", (int)(nl - text - 10), text + 10);
		got = parse_error(text, len);
		CHECK(!strcmp(got, expect), "%s:\n    got      %s\n    expected %s",
		      names[i], got, expect);
		free(text);
		free(names[i]);
	}
}

/* ---- generated errors and boundaries ---- */

static char big[1 << 20];

static void test_bytes_and_names(void)
{
	CHECK_ERROR("name x\nformat YUYV\x01\n",
		    "2:12: control character 0x01 is not allowed (only spaces and tabs separate words)");
	{
		static const char nul[] = "name\0x\n";
		const char *got = parse_error(nul, sizeof(nul) - 1);

		CHECK(!strcmp(got, "1:5: control character 0x00 is not allowed (only spaces and tabs separate words)"),
		      "NUL byte: %s", got);
	}
	CHECK_ERROR("name x\rcard y\n", "1:7: stray carriage return: lines end with \"\\n\" or \"\\r\\n\"");
	CHECK_ERROR("name x\ncard \"a\tb\"\n", "2:8: control character 0x09 is not allowed inside quotes");
	CHECK_ERROR("", "1:1: empty profile: expected a 'name' line and at least one 'format' block");
	CHECK_ERROR("name x", "1:7: the profile has no formats: add a 'format FOURCC' line and its 'size' lines");
	{
		const char *got = parse_error(NULL, 5);

		CHECK(!strcmp(got, "1:1: empty profile: expected a 'name' line and at least one 'format' block"),
		      "NULL text: %s", got);
	}

	/* names: 31 bytes fit, 32 do not */
	CHECK(!parse_str(&prof, "name abcdefghijklmnopqrstuvwxyz01234\n"
				"card \"0123456789012345678901234567890\"\n"
				"format YUYV\n size 2x1 fps 1\n"),
	      "31-byte name and card");
	CHECK_EQ(strlen(prof.name), 31, "31-byte name kept");
	CHECK_EQ(strlen(prof.card), 31, "31-byte card kept");
	CHECK_ERROR("name abcdefghijklmnopqrstuvwxyz012345\n",
		    "1:6: profile name 'abcdefghijklmnopqrstuvwx...' is 32 bytes long; at most 31 fit");
	CHECK_ERROR("name x\nformat YUYV\n description \"0123456789012345678901234567890x\"\n",
		    "3:14: description '012345678901234567890123...' is 32 bytes long; at most 31 fit");
	/* no card: "Negcam <name>", cut to 31 bytes */
	if (!parse_str(&prof, "name a-very-long-profile-name-here\nformat YUYV\n size 2x1 fps 1\n"))
		CHECK(!strcmp(prof.card, "Negcam a-very-long-profile-name"), "default card '%s'", prof.card);
	if (!parse_str(&prof, "name cam\nformat YUYV\n size 2x1 fps 1\n"))
		CHECK(!strcmp(prof.card, "Negcam cam"), "default card '%s'", prof.card);

	/* dimensions: NC_MAX_DIM fits, one more does not */
	CHECK(!parse_str(&prof, "name x\nformat YUYV\n size 16384x16384 fps 1\n"), "16384x16384");
	CHECK(!parse_str(&prof, "name x\nformat GREY\n size 1x1-16384x16384 step 1x1 fps 1\n"),
	      "stepwise 1x1-16384x16384 step 1x1");
	/* a step written out, 1x1 included, is what the camera reported: Stepwise */
	CHECK_EQ(prof.formats[0].size_kind, V4L2_FRMSIZE_TYPE_STEPWISE, "step 1x1 is stepwise");
	CHECK(!parse_str(&prof, "name x\nformat YUYV\n size 16x16-16376x16376 step 1x1 fps 1\n"),
	      "YUYV with step 1x1 (unicam)");
	CHECK_EQ(prof.formats[0].size_kind, V4L2_FRMSIZE_TYPE_STEPWISE, "YUYV step 1x1 stepwise");
	CHECK_ERROR("name x\nformat YUYV\n size 16x16-16376x16376 step 3x1 fps 1\n",
		    "3:30: size step 3x1 must be a multiple of 2x1 for 'YUYV'");
	/* a fourcc negcam does not know: opaque, kept with its description */
	CHECK(!parse_str(&prof, "name x\nformat INVZ opaque\n description \"Depth 16-bit (INVZ)\"\n"
			 " size 641x479 fps 30\n"), "opaque INVZ");
	CHECK_EQ(prof.formats[0].fourcc, v4l2_fourcc('I', 'N', 'V', 'Z'), "opaque fourcc kept");
	CHECK(!strcmp(prof.formats[0].description, "Depth 16-bit (INVZ)"), "opaque description");
	CHECK_EQ(prof.formats[0].flags, 0u, "opaque: no flags");
	CHECK_ERROR("name x\nformat YUYV opaque\n size 2x1 fps 1\n",
		    "2:13: format 'YUYV' is in negcam's format table: drop 'opaque'");
	CHECK_ERROR("name x\nformat INVZ\n size 2x1 fps 1\n",
		    "2:8: unknown pixel format 'INVZ' (not in negcam's format table; docs/profiles.md lists the known ones)");
	CHECK(!parse_str(&prof, "name x\nformat GREY\n size 1x1-16384x16384 fps 1\n"),
	      "range without step");
	CHECK_EQ(prof.formats[0].size_kind, V4L2_FRMSIZE_TYPE_CONTINUOUS, "no step is continuous");
	CHECK_ERROR("name x\nformat GREY\n size 1x1-16384x16385 fps 1\n",
		    "3:7: size '1x1-16384x16385': height 16385 exceeds the maximum 16384");
	CHECK_ERROR("name x\nformat YUYV\n size 2x16385 fps 1\n",
		    "3:7: size '2x16385': height 16385 exceeds the maximum 16384");
	/* rates: 1000000 fits, 1000001 does not */
	if (!parse_str(&prof, "name x\nformat YUYV\n size 2x1 fps 1000000/999999\n"))
		CHECK_FRACT(prof.intervals[0].min, 999999, 1000000, "large rate");
	CHECK_ERROR("name x\nformat YUYV\n size 2x1 interval 1/1000001\n",
		    "3:20: frame interval '1/1000001' is out of range: numerator and denominator are at most 1000000");
}

static size_t append(size_t o, const char *s)
{
	size_t l = strlen(s);

	memcpy(big + o, s, l);
	big[o + l] = '\0';
	return o + l;
}

static void test_pool_limits(void)
{
	const struct negcam_fourcc_info *fi;
	char line[128], expect[160];
	unsigned int i, nf = 0, lines;
	size_t o;
	int q;

	/* formats: exactly NC_MAX_FORMATS parse; one more is refused */
	o = append(0, "name many-formats\n");
	lines = 1;
	for (q = 0; q < 2; q++) {
		for (i = 0; (fi = negcam_fourcc_at(i)) != NULL && nf <= NC_MAX_FORMATS; i++) {
			char s[5];

			negcam_fourcc_str(fi->fourcc, s);
			if (fi->fourcc & (1u << 31) || strchr(s, ' ') || strchr(s, '.'))
				continue; /* padded or flagged fourccs: keep the lines simple */
			if (nf == NC_MAX_FORMATS) {
				snprintf(expect, sizeof(expect),
					 "%u:8: too many formats: a profile holds at most %u",
					 lines + 1, NC_MAX_FORMATS);
				snprintf(line, sizeof(line), "format %s %s\n", s,
					 q ? "output" : "capture");
				append(o, line);
				CHECK_ERROR(big, expect);
				big[o] = '\0';
				nf++;
				break;
			}
			snprintf(line, sizeof(line), "format %s %s\n size 64x64 fps 30\n", s,
				 q ? "output" : "capture");
			o = append(o, line);
			lines += 2;
			nf++;
		}
	}
	CHECK_EQ(nf, NC_MAX_FORMATS + 1, "enough fourccs for the format limit test");
	if (!parse(&prof, big, o, "128 formats")) {
		CHECK_EQ(prof.nformats, NC_MAX_FORMATS, "128 formats");
		CHECK_EQ(prof.nintervals, 1, "one shared interval list");
	} else {
		CHECK(0, "128 formats parse");
	}

	/* sizes: NC_MAX_SIZES fit; one more is refused */
	o = append(0, "name many-sizes\nformat GREY\n");
	for (i = 1; i <= NC_MAX_SIZES; i++) {
		snprintf(line, sizeof(line), " size %ux1 fps 30\n", i);
		o = append(o, line);
	}
	if (!parse(&prof, big, o, "1024 sizes")) {
		CHECK_EQ(prof.nsizes, NC_MAX_SIZES, "1024 sizes");
		CHECK_EQ(prof.nintervals, 1, "1024 sizes share one list");
	} else {
		CHECK(0, "1024 sizes parse");
	}
	append(o, " size 1x2 fps 30\n");
	snprintf(expect, sizeof(expect), "%u:7: too many sizes: a profile holds at most %u",
		 NC_MAX_SIZES + 3, NC_MAX_SIZES);
	CHECK_ERROR(big, expect);

	/* intervals: NC_MAX_INTERVALS distinct ones fit; one more is refused */
	o = append(0, "name many-intervals\nformat GREY\n");
	for (i = 0; i < NC_MAX_SIZES; i++) {
		snprintf(line, sizeof(line), " size %ux1 fps %u %u %u %u\n", i + 1,
			 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4);
		o = append(o, line);
	}
	if (!parse(&prof, big, o, "4096 intervals"))
		CHECK_EQ(prof.nintervals, NC_MAX_INTERVALS, "4096 intervals");
	else
		CHECK(0, "4096 intervals parse");
	big[o - 1] = '\0';
	o = append(o - 1, " 5000\n");
	snprintf(expect, sizeof(expect),
		 "%u:%zu: too many frame intervals: a profile holds at most %u (identical lists are stored once)",
		 NC_MAX_SIZES + 2, strlen(" size 1024x1 fps 4093 4094 4095 4096 ") + 1,
		 NC_MAX_INTERVALS);
	CHECK_ERROR(big, expect);

	/* fields: NC_MAX_FIELDS fit */
	if (!parse_str(&prof, "name x\nfield none top bottom interlaced seq-tb seq-bt\n"
			      "format YUYV\n size 2x2 fps 1\n"))
		CHECK_EQ(prof.formats[0].nfields, NC_MAX_FIELDS, "six fields");
}

/* ---- semantics ---- */

/* The default lines: absent (the firsts), explicit inside ranges and steps, refused. */
static void semantics_defaults(void)
{
	static const char defaults[] =
		"name d\n"
		"format MJPG\n size 320x240 fps 15 30\n size 640x480 fps 30\n"
		"format NV12\n size 48x32-1920x1088 step 16x8 fps 1-60\n"
		"format YUYV output\n size 640x480-1280x720 step 2x2 interval 1/30-1/10 step 1/30\n";
	char text[1024];

	/* no default lines: first format, first size (range minimum), first interval */
	if (!parse_str(&prof, defaults)) {
		CHECK_EQ(prof.def[NC_CAPTURE].fourcc, V4L2_PIX_FMT_MJPEG, "first capture format");
		CHECK(prof.def[NC_CAPTURE].width == 320 && prof.def[NC_CAPTURE].height == 240,
		      "first size");
		CHECK_FRACT(prof.def[NC_CAPTURE].interval, 1, 15, "first listed interval");
		CHECK_EQ(prof.def[NC_OUTPUT].fourcc, V4L2_PIX_FMT_YUYV, "first output format");
		CHECK(prof.def[NC_OUTPUT].width == 640 && prof.def[NC_OUTPUT].height == 480,
		      "range minimum");
		CHECK_FRACT(prof.def[NC_OUTPUT].interval, 1, 30, "interval range minimum");
	} else {
		CHECK(0, "defaults profile parses");
	}
	/* explicit defaults inside ranges and steps */
	snprintf(text, sizeof(text), "default NV12 1920x1088 interval 1/45\n"
		 "default YUYV output 1280x720 interval 1/15\n%s", defaults);
	if (!parse_str(&prof, text)) {
		CHECK_EQ(prof.def[NC_CAPTURE].fourcc, V4L2_PIX_FMT_NV12, "default NV12");
		CHECK_EQ(prof.def[NC_CAPTURE].height, 1088, "range maximum");
		CHECK_FRACT(prof.def[NC_CAPTURE].interval, 1, 45, "inside continuous range");
		CHECK_FRACT(prof.def[NC_OUTPUT].interval, 1, 15, "on the interval step");
	} else {
		CHECK(0, "explicit defaults parse");
	}
	snprintf(text, sizeof(text), "default NV12 1920x1084\n%s", defaults);
	CHECK_ERROR(text, "1:14: default size 1920x1084 is not a size of 'NV12'");
	snprintf(text, sizeof(text), "default NV12 48x32 fps 61\n%s", defaults);
	CHECK_ERROR(text, "1:24: default frame rate '61' is not offered by 'NV12' 48x32");
	snprintf(text, sizeof(text), "default YUYV output 640x480 interval 1/20\n%s", defaults);
	CHECK_ERROR(text, "1:38: default frame interval '1/20' is not offered by 'YUYV' 640x480");
	snprintf(text, sizeof(text), "default MJPG 640x480 fps 60/2\n%s", defaults);
	if (!parse_str(&prof, text))
		CHECK_FRACT(prof.def[NC_CAPTURE].interval, 1, 30, "60/2 fps is 1/30");
}

/* Rates become reduced intervals. */
static void semantics_rates(void)
{
	const struct negcam_size *s;

	if (!parse_str(&prof, "name r\nformat GREY\n size 8x8 fps 30000/1001 15/2 50/2\n"
			      " size 16x16 interval 2/30 1001/30000 3\n")) {
		s = &prof.sizes[0];
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1001, 30000, "NTSC");
		CHECK_FRACT(ival_at(&prof, s, 1)->min, 2, 15, "7.5 fps");
		CHECK_FRACT(ival_at(&prof, s, 2)->min, 1, 25, "50/2 fps reduced");
		s = &prof.sizes[1];
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 15, "2/30 reduced");
		CHECK_FRACT(ival_at(&prof, s, 2)->min, 3, 1, "interval 3 is 3/1");
	} else {
		CHECK(0, "rates profile parses");
	}
}

/* Colorimetry: table defaults, colorspace-derived, explicit overrides, inheritance. */
static void semantics_colorimetry(void)
{
	const struct negcam_format *f;

	if (!parse_str(&prof, "name c\ncolorspace bt2020\nfield interlaced\nstride-align 16\n"
			      "format GREY\n colorspace srgb\n field none\n size 8x8 fps 1\n"
			      "format MJPG\n colorspace rec709\n size 8x8 fps 1\n"
			      "format RGB3\n colorspace smpte170m\n size 8x8 fps 1\n"
			      "format YUYV\n colorspace rec709\n ycbcr_enc 601\n quantization full-range\n"
			      " xfer-func srgb\n stride-align 1\n size 8x8 fps 1\n"
			      "format UYVY\n size 8x8 fps 1\n")) {
		f = find_format(&prof, V4L2_PIX_FMT_GREY, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f && f->colorspace == V4L2_COLORSPACE_SRGB &&
		      f->quantization == V4L2_QUANTIZATION_LIM_RANGE &&
		      f->xfer_func == V4L2_XFER_FUNC_SRGB, "GREY srgb limited");
		CHECK(f && f->nfields == 1 && f->fields[0] == V4L2_FIELD_NONE, "field overridden");
		CHECK(f && f->stride_align == 16, "stride-align inherited");
		f = find_format(&prof, V4L2_PIX_FMT_MJPEG, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f && f->colorspace == V4L2_COLORSPACE_REC709 &&
		      f->ycbcr_enc == V4L2_YCBCR_ENC_709 &&
		      f->quantization == V4L2_QUANTIZATION_FULL_RANGE &&
		      f->xfer_func == V4L2_XFER_FUNC_709, "MJPG rec709, full range");
		CHECK(f && f->fields[0] == V4L2_FIELD_INTERLACED, "field inherited");
		f = find_format(&prof, V4L2_PIX_FMT_RGB24, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f && f->colorspace == V4L2_COLORSPACE_SMPTE170M &&
		      f->quantization == V4L2_QUANTIZATION_FULL_RANGE &&
		      f->xfer_func == V4L2_XFER_FUNC_709, "RGB smpte170m full range");
		f = find_format(&prof, V4L2_PIX_FMT_YUYV, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f && f->colorspace == V4L2_COLORSPACE_REC709 &&
		      f->ycbcr_enc == V4L2_YCBCR_ENC_601 &&
		      f->quantization == V4L2_QUANTIZATION_FULL_RANGE &&
		      f->xfer_func == V4L2_XFER_FUNC_SRGB && f->stride_align == 1,
		      "explicit overrides");
		f = find_format(&prof, V4L2_PIX_FMT_UYVY, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(f && f->colorspace == V4L2_COLORSPACE_BT2020 &&
		      f->ycbcr_enc == V4L2_YCBCR_ENC_BT2020 &&
		      f->quantization == V4L2_QUANTIZATION_LIM_RANGE, "profile-wide bt2020");
	} else {
		CHECK(0, "colorimetry profile parses");
	}
	/* nothing named: the format table's defaults */
	CHECK_ERROR("name t\nformat SBGGR8\n",
		    "2:8: bad pixel format 'SBGGR8': expected a fourcc of 1 to 4 characters, as YUYV or MJPG");
	if (!parse_str(&prof, "name t\nformat BA81\n size 8x8 fps 1\nformat YUYV\n size 8x8 fps 1\n")) {
		const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(V4L2_PIX_FMT_SBGGR8);
		__u32 cs, enc, qu, xf;

		negcam_fourcc_colorimetry(fi, &cs, &enc, &qu, &xf);
		f = &prof.formats[0];
		CHECK(f->colorspace == cs && f->ycbcr_enc == enc && f->quantization == qu &&
		      f->xfer_func == xf, "Bayer: table colorimetry");
		CHECK(!strcmp(f->description, fi->description), "table description");
	}
}

/* Fourcc spellings (padded, quoted, big-endian) and one fourcc on both queues. */
static void semantics_fourccs(void)
{
	/* fourcc spellings: padded, quoted, big-endian */
	if (!parse_str(&prof, "name f\nformat Y16\n size 8x8 fps 1\nformat \"Y10 \"\n size 8x8 fps 1\n"
			      "format Y16-BE\n size 8x8 fps 1\n")) {
		CHECK_EQ(prof.formats[0].fourcc, V4L2_PIX_FMT_Y16, "Y16 padded");
		CHECK_EQ(prof.formats[1].fourcc, V4L2_PIX_FMT_Y10, "quoted 'Y10 '");
		CHECK_EQ(prof.formats[2].fourcc, V4L2_PIX_FMT_Y16_BE, "Y16-BE");
	}
	/* the same fourcc on both queues is two formats */
	if (!parse_str(&prof, "name q\nformat YUYV\n size 8x8 fps 1\nformat YUYV output\n size 8x8 fps 1\n")) {
		CHECK_EQ(prof.nformats, 2, "capture and output YUYV");
		CHECK_EQ(prof.formats[1].buf_type, V4L2_BUF_TYPE_VIDEO_OUTPUT, "output type");
		CHECK_EQ(prof.def[NC_OUTPUT].fourcc, V4L2_PIX_FMT_YUYV, "output default");
	}
	CHECK_ERROR("name q\nformat YUYV output\n size 8x8 fps 1\nformat YUYV output\n",
		    "4:8: format 'YUYV' (output) is defined twice: put all its sizes in one block");
}

static void test_semantics(void)
{
	const struct negcam_size *s;

	semantics_defaults();
	semantics_rates();
	semantics_colorimetry();
	semantics_fourccs();
	/* comments, blank lines, trailing comments after quotes */
	if (!parse_str(&prof, "\n# c\n  name q # c\ncard \"a # b\"# c\n\n\tformat YUYV#c\n size 8x8 fps 1#c\n"))
		CHECK(!strcmp(prof.card, "a # b"), "'#' inside quotes is text");
	/* stepwise intervals and continuous ones; discrete lists are order-preserving */
	if (!parse_str(&prof, "name s\nformat GREY\n size 8x8 fps 5 30 15\n")) {
		s = &prof.sizes[0];
		CHECK_FRACT(ival_at(&prof, s, 0)->min, 1, 5, "order kept");
		CHECK_FRACT(ival_at(&prof, s, 1)->min, 1, 30, "order kept");
	}
}

/* ---- mutations: fail cleanly or parse, never crash ---- */

static __u32 rng = 12345;

static __u32 next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static void test_mutations(void)
{
	static const char alphabet[] = "0123456789x-/ \t\n\r\"#abYUVMJPGN12:fpsinterval.";
	const struct negcam_builtin *b;
	char *docs, *ex;
	size_t dlen;
	const char *bases[8];
	unsigned int nbases = 0, i, failed = 0, ok = 0, bad_where = 0, not_zero = 0;
	/* NEGCAM_PARSER_MUTATIONS=N runs longer (e.g. under a sanitizer) */
	const char *env = getenv("NEGCAM_PARSER_MUTATIONS");
	unsigned int iterations = env ? (unsigned int)strtoul(env, NULL, 10) : 20000;

	docs = read_file(DOCS, &dlen);
	ex = docs ? docs_section(docs, "example") : NULL;
	if (ex)
		bases[nbases++] = ex;
	for (i = 0; (b = negcam_builtin_at(i)) != NULL && nbases < 8; i++)
		bases[nbases++] = b->text;

	for (i = 0; i < iterations; i++) {
		const char *base = bases[i % nbases];
		size_t len = strlen(base), lines = 1, longest = 0, cur = 0, k;
		unsigned int m, nm = 1 + next_rand() % 4;
		struct negcam_parse_error err;

		memcpy(big, base, len);
		for (m = 0; m < nm && len > 2; m++) {
			size_t at = next_rand() % len;

			switch (next_rand() % 4) {
			case 0: /* replace */
				big[at] = alphabet[next_rand() % (sizeof(alphabet) - 1)];
				break;
			case 1: /* delete */
				memmove(big + at, big + at + 1, len - at - 1);
				len--;
				break;
			case 2: /* insert */
				memmove(big + at + 1, big + at, len - at);
				big[at] = alphabet[next_rand() % (sizeof(alphabet) - 1)];
				len++;
				break;
			default: /* any byte */
				big[at] = (char)(next_rand() & 0xff);
				break;
			}
		}
		for (k = 0; k < len; k++) {
			if (big[k] == '\n') {
				lines++;
				cur = 0;
			} else if (++cur > longest) {
				longest = cur;
			}
		}
		memset(&prof, 0x5a, sizeof(prof));
		if (negcam_profile_parse(&prof, big, (__u32)len, &err)) {
			failed++;
			/* the end of the text is at most one past the longest line */
			if (err.line < 1 || err.line > lines || err.column < 1 ||
			    err.column > longest + 1 ||
			    !err.message[0] || !memchr(err.message, '\0', sizeof(err.message)))
				bad_where++;
			if (memcmp(&prof, &zero_prof, sizeof(prof)))
				not_zero++;
		} else {
			ok++;
			check_invariants(&prof, "mutant");
		}
	}
	CHECK_EQ(bad_where, 0, "every error has a line, column and message");
	CHECK_EQ(not_zero, 0, "every error leaves the output zeroed");
	CHECK(failed > iterations / 20 && ok > iterations / 200,
	      "mutations both fail and parse (%u failed, %u parsed)", failed, ok);
	printf("mutations: %u, %u rejected, %u parsed\n", iterations, failed, ok);
	free(ex);
	free(docs);
}

/* 'flags': the CSC flags land in the format, spellings as v4l2-ctl prints them */
static void test_flags(void)
{
	const struct negcam_format *f;
	static const char text[] =
		"name f\n"
		"format YUYV\n flags csc-colorspace csc_xfer_func csc-ycbcr csc-quantization\n"
		" size 640x480 fps 30\n"
		"format HSV3\n flags csc-hsv\n size 640x480 fps 30\n"
		"format RGB3\n flags csc-quantization\n size 640x480 fps 30\n"
		"format MJPG\n size 640x480 fps 30\n"
		"format GREY\n size 640x480 fps 30\n";

	if (parse_str(&prof, text)) {
		CHECK(0, "flags profile parses");
		return;
	}
	f = find_format(&prof, V4L2_PIX_FMT_YUYV, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK_EQ(f ? f->flags : 0, V4L2_FMT_FLAG_CSC_COLORSPACE | V4L2_FMT_FLAG_CSC_XFER_FUNC |
		 V4L2_FMT_FLAG_CSC_YCBCR_ENC | V4L2_FMT_FLAG_CSC_QUANTIZATION, "YUYV: four flags");
	f = find_format(&prof, V4L2_PIX_FMT_HSV24, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK_EQ(f ? f->flags : 0, V4L2_FMT_FLAG_CSC_HSV_ENC, "HSV3: csc-hsv");
	f = find_format(&prof, V4L2_PIX_FMT_RGB24, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK_EQ(f ? f->flags : 0, V4L2_FMT_FLAG_CSC_QUANTIZATION, "RGB3: one flag");
	f = find_format(&prof, V4L2_PIX_FMT_MJPEG, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK_EQ(f ? f->flags : 0, V4L2_FMT_FLAG_COMPRESSED, "MJPG: compressed only");
	f = find_format(&prof, V4L2_PIX_FMT_GREY, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	CHECK_EQ(f ? f->flags : 1, 0, "no flags line: no flags (not inherited from the last block)");
}

/* 'usb-id': the ids land in the profile, either case; written back lower case; none is 0:0 */
static void test_usb_id(void)
{
	static char out[4096];

	if (parse_str(&prof, "name u\nusb-id 046D:082d\nformat YUYV\n size 640x480 fps 30\n")) {
		CHECK(0, "usb-id profile parses");
		return;
	}
	CHECK_EQ(prof.usb_vendor, 0x046d, "usb-id vendor");
	CHECK_EQ(prof.usb_product, 0x082d, "usb-id product");
	CHECK(negcam_profile_write(&prof, NULL, out, sizeof(out)) > 0 &&
	      strstr(out, "\nusb-id 046d:082d\n"), "written back as 'usb-id 046d:082d':\n%s", out);
	CHECK(!parse_str(&prof2, out) && !memcmp(&prof, &prof2, sizeof(prof)), "the written text reads back the same");
	if (!parse_str(&prof, "name u\nusb-id ffff:0000\nformat YUYV\n size 640x480 fps 30\n"))
		CHECK(prof.usb_vendor == 0xffff && prof.usb_product == 0, "usb-id ffff:0000 (product 0 allowed)");
	else
		CHECK(0, "usb-id ffff:0000 parses");
	if (!parse_str(&prof, "name u\nformat YUYV\n size 640x480 fps 30\n")) {
		CHECK(prof.usb_vendor == 0 && prof.usb_product == 0, "no usb-id: 0:0");
		CHECK(negcam_profile_write(&prof, NULL, out, sizeof(out)) > 0 && !strstr(out, "usb-id"),
		      "no usb-id written when none was given");
	}
}

/*
 * 'sizeimage' (issue 40): a floor for a raw format's sizeimage, an opaque
 * one's whole size; below what the format needs at one of its sizes it
 * is refused at its own line; written back and read the same.
 */
static void test_sizeimage(void)
{
	static const char small[] = "name s\nformat NV12\n  size 320x240 fps 30\n"
				    "  size 640x480 fps 30\n  sizeimage 400000\n";
	static const char opaque_small[] = "name s\nformat ABCD opaque\n sizeimage 99\n"
					   " size 10x10 fps 30\n";
	static const char zero[] = "name s\nformat YUYV\n sizeimage 0\n size 8x8 fps 1\n";
	static char out[4096];
	const char *e;

	if (parse_str(&prof, "name s\nformat YUYV\n sizeimage 700000\n size 640x480 fps 30\n"
			     "format ABCD opaque\n sizeimage 100\n size 10x10 fps 30\n")) {
		CHECK(0, "sizeimage profile parses");
		return;
	}
	CHECK_EQ(prof.formats[0].sizeimage, 700000, "sizeimage kept");
	CHECK_EQ(prof.formats[1].sizeimage, 100, "an opaque format's sizeimage kept (10x10 needs 100)");
	CHECK(negcam_profile_write(&prof, NULL, out, sizeof(out)) > 0 &&
	      strstr(out, "\n  sizeimage 700000\n"), "written back:\n%s", out);
	CHECK(!parse_str(&prof2, out) && !memcmp(&prof, &prof2, sizeof(prof)),
	      "the written text reads back the same");
	e = parse_error(small, sizeof(small) - 1);
	CHECK(e && !strcmp(e, "5:13: sizeimage 400000 is smaller than 'NV12' needs at 640x480 "
			      "(460800 bytes)"), "too small for the larger size: %s", e ? e : "parsed");
	e = parse_error(opaque_small, sizeof(opaque_small) - 1);
	CHECK(e && !strncmp(e, "3:12: sizeimage 99 is smaller than 'ABCD' needs at 10x10", 56),
	      "too small for an opaque picture: %s", e ? e : "parsed");
	e = parse_error(zero, sizeof(zero) - 1);
	CHECK(e && strstr(e, "bad sizeimage"), "sizeimage 0: %s", e ? e : "parsed");
}

/* 'multiplanar': a header keyword without value, off unless given. */
static void test_multiplanar(void)
{
	static const char text[] = "name m\nmultiplanar\nformat NM12\n size 640x480 fps 30\n";

	CHECK(!parse_str(&prof, text), "multiplanar profile parses");
	CHECK_EQ(prof.multiplanar, 1, "'multiplanar' sets the profile multiplanar");
	CHECK(!parse_str(&prof, "name m\nformat NM12\n size 640x480 fps 30\n"),
	      "the same without the line parses");
	CHECK_EQ(prof.multiplanar, 0, "without 'multiplanar' the profile is single-planar");
	CHECK(!parse_str(&prof, "name m\nmultiplanar  # ISP\nformat NV12\n size 64x48 fps 30\n") &&
	      prof.multiplanar, "a comment after the keyword");
}

int main(void)
{
	test_multiplanar();
	test_builtins();
	test_example();
	test_bad_files();
	test_bytes_and_names();
	test_pool_limits();
	test_semantics();
	test_flags();
	test_usb_id();
	test_sizeimage();
	test_mutations();
	return check_done("test_parser");
}
