// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: negcam-ctl --import on arbitrary text. Bug reports
 * are untrusted input; whatever they hold, the importer must not crash,
 * must finish quickly, and what it writes must be a profile that loads.
 */
#define _GNU_SOURCE

#include "ctl.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/*
	 * The importer reports through the stderr FILE; libFuzzer and the
	 * sanitizers took theirs (and fd 2) before this runs, so silencing
	 * the variable silences the importer alone.
	 */
	FILE *null = fopen("/dev/null", "w");

	if (!getenv("NEGCAM_FUZZ_VERBOSE") && null)
		stderr = null;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct negcam_profile p;
	struct negcam_parse_error err;
	char *out = NULL;
	size_t outlen = 0;
	FILE *in, *o;
	int ret;

	if (size > 65536)
		return 0;
	in = fmemopen((void *)data, size, "r");
	o = open_memstream(&out, &outlen);
	if (!in || !o)
		abort();
	ret = ctl_import(in, "fuzz", o, "fuzz");
	fclose(in);
	fclose(o);
	FUZZ_ASSERT(ret == 0 || outlen == 0, "import failed (%d) but wrote %zu bytes", ret, outlen);
	if (ret == 0)
		FUZZ_ASSERT(negcam_profile_parse(&p, out, (__u32)outlen, &err) == 0,
			    "imported profile does not load: %u:%u: %s\n%s", err.line, err.column,
			    err.message, out);
	free(out);
	return 0;
}
