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
	n1 = negcam_profile_write(&a, text1, sizeof(text1));
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
	n2 = negcam_profile_write(&b, text2, sizeof(text2));
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
	full = negcam_profile_write(&a, text1, sizeof(text1));
	memset(small, 'x', sizeof(small));
	cut = negcam_profile_write(&a, small, sizeof(small));
	CHECK_EQ(cut, full, "a short buffer still gets the full length");
	CHECK(small[15] == '\0' && !strncmp(small, text1, 15), "cut short and terminated");
	CHECK_EQ(negcam_profile_write(&a, NULL, 0), full, "size 0 only measures");
}

static void test_unwritable(void)
{
	const struct negcam_builtin *bi = negcam_builtin_find("vga");
	struct negcam_parse_error err;

	CHECK(!negcam_profile_parse(&a, bi->text, (__u32)strlen(bi->text), &err), "vga parses");
	b = a;
	strcpy(b.card, "a \"quoted\" card");
	CHECK_EQ(negcam_profile_write(&b, text1, sizeof(text1)), -EINVAL, "a '\"' cannot be written");
	b = a;
	b.quirks |= 1u << 30;
	CHECK_EQ(negcam_profile_write(&b, text1, sizeof(text1)), -EINVAL, "an unnamed quirk is refused");
	b = a;
	b.formats[0].fields[0] = 99;
	CHECK_EQ(negcam_profile_write(&b, text1, sizeof(text1)), -EINVAL, "an unnamed field is refused");
}

int main(void)
{
	test_builtins();
	test_files();
	test_field_list_override();
	test_short_buffer();
	test_unwritable();
	return check_done("test_profile_write");
}
