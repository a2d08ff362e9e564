// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam_profile_write(): parse(write(p)) == p byte for byte, for every
 * built-in profile (the camera shelf included) and every profile file in
 * the tree; the written text is a fixed point (writing it again gives the
 * same text); short buffers are cut and terminated with the full length
 * returned; values the language cannot express are refused.
 */
#include "check.h"
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#define TEXT_MAX (1u << 20)

static struct negcam_profile a, b;
static char text1[TEXT_MAX], text2[TEXT_MAX];

static void round_trip(const char *what, const char *src, size_t len)
{
	struct negcam_parse_error err;
	long n1, n2;

	if (negcam_profile_parse(&a, src, (__u32)len, &err)) {
		CHECK(0, "%s does not parse: %u:%u: %s", what, err.line, err.column, err.message);
		return;
	}
	n1 = negcam_profile_write(&a, NULL, text1, sizeof(text1));
	CHECK(n1 > 0 && (size_t)n1 < sizeof(text1), "%s: written (%ld)", what, n1);
	if (n1 <= 0)
		return;
	CHECK_EQ(strlen(text1), n1, "%s: length returned is the text's", what);
	if (negcam_profile_parse(&b, text1, (__u32)n1, &err)) {
		CHECK(0, "%s: written text does not parse: %u:%u: %s\n%s", what, err.line,
		      err.column, err.message, text1);
		return;
	}
	CHECK(!memcmp(&a, &b, sizeof(a)), "%s: parse(write(p)) == p\n%s", what, text1);
	n2 = negcam_profile_write(&b, NULL, text2, sizeof(text2));
	CHECK(n2 == n1 && !strcmp(text1, text2), "%s: the written text is a fixed point", what);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(TEXT_MAX);
	*len = buf ? fread(buf, 1, TEXT_MAX, f) : 0;
	fclose(f);
	return buf;
}

static void test_files(void)
{
	static const char *const files[] = { "tests/engine/profiles/example.profile",
					     "tests/engine/profiles/faults.profile",
					     "tests/gst/alternate.profile",
					     "tests/bench/bench.profile" };
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(files); i++) {
		char path[512];
		size_t len;
		char *s;

		snprintf(path, sizeof(path), "%s/%s", NEGCAM_SOURCE_ROOT, files[i]);
		s = slurp(path, &len);
		CHECK(s != NULL, "%s readable", path);
		if (s)
			round_trip(files[i], s, len);
		free(s);
	}
}

static void test_builtins(void)
{
	const struct negcam_builtin *bi;
	unsigned int i;

	for (i = 0; (bi = negcam_builtin_at(i)) != NULL; i++)
		round_trip(bi->name, bi->text, strlen(bi->text));
	CHECK(i >= 10, "every built-in (%u) written", i);
}

/*
 * A format's own field list shorter than the header's: the entries past
 * nfields must not keep the header's values (found by fuzz_roundtrip).
 */
static void test_field_list_override(void)
{
	static const char text[] = "name f\nfield none interlaced-bt\n"
				   "format UYVY\n  field interlaced\n  size 720x576 fps 25\n";

	round_trip("field list override", text, sizeof(text) - 1);
	CHECK(a.formats[0].nfields == 1 && a.formats[0].fields[1] == 0,
	      "fields past nfields are zero (got %u)", a.formats[0].fields[1]);
}

static void test_short_buffer(void)
{
	const struct negcam_builtin *bi = negcam_builtin_find("webcam");
	struct negcam_parse_error err;
	char small[16];
	long full, cut;

	CHECK(!negcam_profile_parse(&a, bi->text, (__u32)strlen(bi->text), &err), "webcam parses");
	full = negcam_profile_write(&a, NULL, text1, sizeof(text1));
	memset(small, 'x', sizeof(small));
	cut = negcam_profile_write(&a, NULL, small, sizeof(small));
	CHECK_EQ(cut, full, "a short buffer still gets the full length");
	CHECK(small[15] == '\0' && !strncmp(small, text1, 15), "cut short and terminated");
	CHECK_EQ(negcam_profile_write(&a, NULL, NULL, 0), full, "size 0 only measures");
}

static void test_unwritable(void)
{
	const struct negcam_builtin *bi = negcam_builtin_find("vga");
	struct negcam_parse_error err;

	CHECK(!negcam_profile_parse(&a, bi->text, (__u32)strlen(bi->text), &err), "vga parses");
	b = a;
	strcpy(b.card, "a \"quoted\" card");
	CHECK_EQ(negcam_profile_write(&b, NULL, text1, sizeof(text1)), -EINVAL, "a '\"' cannot be written");
	b = a;
	b.quirks |= 1u << 30;
	CHECK_EQ(negcam_profile_write(&b, NULL, text1, sizeof(text1)), -EINVAL, "an unnamed quirk is refused");
	b = a;
	b.formats[0].fields[0] = 99;
	CHECK_EQ(negcam_profile_write(&b, NULL, text1, sizeof(text1)), -EINVAL, "an unnamed field is refused");
}

static const char *test_note(const void *ctx, unsigned int format, int size)
{
	(void)ctx;
	if (size < 0)
		return format == 1 ? "# a note on MJPG" : NULL;
	return size == 1 ? "   # placeholder" : NULL;
}

/*
 * The minimal form (negcam-ctl --import and --dump): zeros are left to
 * the parser, a shared field list and colorimetry come first, discrete
 * intervals as rates, the caller's header and notes.
 */
/* 'multiplanar' is written back, in both forms, and read back the same. */
static void test_multiplanar(void)
{
	static const char text[] = "name m\nmultiplanar\nformat NM12\n  size 640x480 fps 30\n";
	const struct negcam_write_opts opts = { NC_WRITE_MINIMAL };
	char out[512];

	round_trip("multiplanar", text, sizeof(text) - 1);
	CHECK(a.multiplanar == 1, "multiplanar parsed");
	CHECK(negcam_profile_write(&a, NULL, out, sizeof(out)) > 0 &&
	      strstr(out, "\nmultiplanar\n"), "canonical form says multiplanar:\n%s", out);
	CHECK(negcam_profile_write(&a, &opts, out, sizeof(out)) > 0 &&
	      strstr(out, "\nmultiplanar\n"), "minimal form says multiplanar:\n%s", out);
	a.multiplanar = 0;
	CHECK(negcam_profile_write(&a, &opts, out, sizeof(out)) > 0 &&
	      !strstr(out, "multiplanar"), "single-planar: no multiplanar line:\n%s", out);
}

static void test_minimal(void)
{
	static const char want[] =
		"# head\n"
		"name m\n"
		"adjust nearest\n"
		"quirks no-enum-frameintervals\n"
		"field interlaced\n"
		"colorspace rec709\n"
		"default YUYV\n"
		"default RGB3 output 640x480 interval 1001/30000\n"
		"\nformat YUYV\n"
		"  size 640x480 fps 30 15/2\n"
		"  size 320x240 fps 30   # placeholder\n"
		"\nformat MJPG\n"
		"  # a note on MJPG\n"
		"  size 64x32-1920x1080 step 16x8 interval 1/60-1/1 step 1/60\n"
		"\nformat RGB3 output\n"
		"  description \"Rgb\"\n"
		"  size 640x480 fps 30000/1001\n";
	const struct negcam_write_opts opts = { NC_WRITE_MINIMAL, "# head\n", test_note, NULL };
	struct negcam_parse_error err;
	const struct v4l2_fract f30 = { 1, 30 }, f7 = { 2, 15 }, ntsc = { 1001, 30000 };
	long n;
	int i;

	memset(&a, 0, sizeof(a));
	strcpy(a.name, "m");
	a.adjust = NC_ADJUST_NEAREST;
	a.quirks = NC_QUIRK_NO_ENUM_FRAMEINTERVALS;
	a.def[NC_CAPTURE].fourcc = V4L2_PIX_FMT_YUYV; /* no size: the parser's */
	a.def[NC_OUTPUT] = (struct negcam_default){ V4L2_PIX_FMT_RGB24, 640, 480, ntsc };
	a.nformats = 3;
	for (i = 0; i < 3; i++) {
		a.formats[i].nfields = 1;
		a.formats[i].fields[0] = V4L2_FIELD_INTERLACED;
		a.formats[i].colorspace = V4L2_COLORSPACE_REC709;
	}
	a.formats[0] = (struct negcam_format){ .fourcc = V4L2_PIX_FMT_YUYV, .nfields = 1,
		.fields = { V4L2_FIELD_INTERLACED }, .colorspace = V4L2_COLORSPACE_REC709,
		.buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .size_kind = V4L2_FRMSIZE_TYPE_DISCRETE,
		.size_first = 0, .size_count = 2 };
	a.formats[1].fourcc = V4L2_PIX_FMT_MJPEG;
	a.formats[1].buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	a.formats[1].size_kind = V4L2_FRMSIZE_TYPE_STEPWISE;
	a.formats[1].size_first = 2;
	a.formats[1].size_count = 1;
	a.formats[2].fourcc = V4L2_PIX_FMT_RGB24;
	a.formats[2].buf_type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	a.formats[2].size_kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	strcpy(a.formats[2].description, "Rgb");
	a.formats[2].size_first = 3;
	a.formats[2].size_count = 1;
	a.sizes[0] = (struct negcam_size){ .min_w = 640, .min_h = 480, .ival_first = 0, .ival_count = 2,
				     .ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE };
	a.sizes[1] = (struct negcam_size){ .min_w = 320, .min_h = 240, .ival_first = 0, .ival_count = 1,
				     .ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE };
	a.sizes[2] = (struct negcam_size){ 64, 1920, 16, 32, 1080, 8, 2, 1, V4L2_FRMIVAL_TYPE_STEPWISE };
	a.sizes[3] = (struct negcam_size){ .min_w = 640, .min_h = 480, .ival_first = 3, .ival_count = 1,
				     .ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE };
	a.nsizes = 4;
	a.intervals[0].min = f30;
	a.intervals[1].min = f7;
	a.intervals[2] = (struct negcam_interval){ { 1, 60 }, { 1, 1 }, { 1, 60 } };
	a.intervals[3].min = ntsc;
	a.nintervals = 4;
	n = negcam_profile_write(&a, &opts, text1, sizeof(text1));
	CHECK(n == (long)strlen(want) && !strcmp(text1, want), "the minimal form:\n%s", text1);
	CHECK(!negcam_profile_parse(&b, text1, (__u32)n, &err), "it parses: %u:%u: %s", err.line,
	      err.column, err.message);
	CHECK(b.formats[0].fields[0] == V4L2_FIELD_INTERLACED && b.formats[2].colorspace ==
	      V4L2_COLORSPACE_REC709 && b.def[NC_CAPTURE].width == 640, "the parser fills in the rest");
	a.adjust = NC_ADJUST_DOWN;
	negcam_profile_write(&a, &opts, text1, sizeof(text1));
	CHECK(!strstr(text1, "adjust"), "downward is the default: not written");
	negcam_profile_write(&a, &(struct negcam_write_opts){ NC_WRITE_MINIMAL | NC_WRITE_ADJUST },
			     text1, sizeof(text1));
	CHECK(strstr(text1, "\nadjust downward\n") && !strstr(text1, "#"),
	      "NC_WRITE_ADJUST writes it; no header or notes without them");
}

int main(void)
{
	test_minimal();
	test_multiplanar();
	test_builtins();
	test_files();
	test_field_list_override();
	test_short_buffer();
	test_unwritable();
	return check_done("test_profile_write");
}
