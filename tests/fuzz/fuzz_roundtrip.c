// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: the profile writer against the parser. Any text the
 * parser accepts is written back (negcam_profile_write), the written text
 * must parse to the same struct byte for byte, and writing that struct
 * again must give the same text (a fixed point). Rejected text is the
 * parser harness's business.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TEXT_MAX (1u << 20)

static struct negcam_profile first, second;
static char text1[TEXT_MAX], text2[TEXT_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct negcam_parse_error err;
	long n1, n2;

	if (size > UINT32_MAX ||
	    negcam_profile_parse(&first, (const char *)data, (__u32)size, &err))
		return 0;
	n1 = negcam_profile_write(&first, NULL, text1, sizeof(text1));
	FUZZ_ASSERT(n1 > 0 && n1 < (long)sizeof(text1), "an accepted profile is written (%ld)", n1);
	FUZZ_ASSERT(!negcam_profile_parse(&second, text1, (__u32)n1, &err),
		    "the written text parses: %u:%u: %s", err.line, err.column, err.message);
	FUZZ_ASSERT(!memcmp(&first, &second, sizeof(first)), "parse(write(p)) == p");
	n2 = negcam_profile_write(&second, NULL, text2, sizeof(text2));
	FUZZ_ASSERT(n2 == n1 && !memcmp(text1, text2, (size_t)n1), "the written text is a fixed point");
	return 0;
}
