// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: the profile parser on arbitrary bytes.
 *
 * Rejected input: the error has a 1-based line and column inside the
 * text, a non-empty terminated message, and the output profile is all
 * zero (nothing half-parsed). Accepted input: the profile is bounded by
 * its pools, and an engine on it answers every enumeration consistently
 * (fuzz_common.h).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct negcam_profile profile;

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	/* Word steps: this runs on every rejected input. */
	while (n >= sizeof(uint64_t)) {
		uint64_t w;

		memcpy(&w, b, sizeof(w));
		if (w)
			return 0;
		b += sizeof(w);
		n -= sizeof(w);
	}
	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static void check_rejected(const uint8_t *data, size_t size, const struct negcam_parse_error *err,
			   bool deep)
{
	unsigned int lines = 1, longest = 0, cur = 0;
	size_t i;

	for (i = 0; i < size; i++) {
		if (data[i] == '\n') {
			lines++;
			cur = 0;
		} else if (++cur > longest) {
			longest = cur;
		}
	}
	FUZZ_ASSERT(err->line >= 1 && err->line <= lines, "error line %u of %u", err->line, lines);
	FUZZ_ASSERT(err->column >= 1 && err->column <= longest + 1, "error column %u, longest line %u",
		    err->column, longest);
	FUZZ_ASSERT(memchr(err->message, 0, sizeof(err->message)) && err->message[0],
		    "error message empty or unterminated");
	FUZZ_ASSERT(!deep || all_zero(&profile, sizeof(profile)),
		    "rejected input left a half-parsed profile (%u:%u: %s)", err->line, err->column,
		    err->message);
}

static void check_accepted(void)
{
	const struct negcam_profile *p = &profile;
	struct negcam_engine e;
	unsigned int i;

	FUZZ_ASSERT(p->nformats <= NC_MAX_FORMATS && p->nsizes <= NC_MAX_SIZES &&
			    p->nintervals <= NC_MAX_INTERVALS,
		    "pool counts %u/%u/%u", p->nformats, p->nsizes, p->nintervals);
	FUZZ_ASSERT(memchr(p->name, 0, sizeof(p->name)) && memchr(p->card, 0, sizeof(p->card)),
		    "name or card unterminated");
	for (i = 0; i < p->nformats; i++) {
		const struct negcam_format *f = &p->formats[i];

		FUZZ_ASSERT((unsigned int)f->size_first + f->size_count <= p->nsizes,
			    "format %u sizes %u+%u past %u", i, f->size_first, f->size_count,
			    p->nsizes);
		FUZZ_ASSERT(f->nfields >= 1 && f->nfields <= NC_MAX_FIELDS, "format %u nfields %u",
			    i, f->nfields);
		FUZZ_ASSERT(memchr(f->description, 0, sizeof(f->description)),
			    "format %u description unterminated", i);
	}
	for (i = 0; i < p->nsizes; i++)
		FUZZ_ASSERT((unsigned int)p->sizes[i].ival_first + p->sizes[i].ival_count <=
				    p->nintervals,
			    "size %u intervals %u+%u past %u", i, p->sizes[i].ival_first,
			    p->sizes[i].ival_count, p->nintervals);
	FUZZ_ASSERT(p->def[NC_CAPTURE].fourcc || p->def[NC_OUTPUT].fourcc,
		    "accepted a profile without formats");
	FUZZ_ASSERT(p->multiplanar <= 1, "multiplanar %u", p->multiplanar);

	/*
	 * The enumeration checks ask the single-planar types: a multiplanar
	 * profile answers the same through the _MPLANE ones (test_engine's
	 * single-planar twin), so check its single-planar twin.
	 */
	profile.multiplanar = 0;
	negcam_engine_init(&e, p);
	fz_check_enumerations(&e, 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct negcam_parse_error err;
	bool deep;
	int ret;

	if (size > 1 << 20)
		return 0;
	/*
	 * Dirty the output storage: the parser must overwrite it whole either
	 * way. The profile is 136 KiB, so dirtying and checking it dominates
	 * the run time: do it for one input in four (chosen by the input, so
	 * a finding reproduces).
	 */
	deep = size % 4 == 0;
	memset(&err, 0, sizeof(err));
	if (deep)
		memset(&profile, 0xa5, sizeof(profile));
	ret = negcam_profile_parse(&profile, (const char *)data, (__u32)size, &err);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL, "parse returned %d", ret);
	if (ret)
		check_rejected(data, size, &err, deep);
	else
		check_accepted();
	return 0;
}
