/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The engine tests' only framework: CHECK() records a failure with its
 * place and goes on; check_done() prints "N passed, N failed" and gives
 * the exit status.
 */
#ifndef NEGCAM_CHECK_H
#define NEGCAM_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static unsigned int check_passed, check_failed;

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		if (cond) {                                                  \
			check_passed++;                                      \
		} else {                                                     \
			check_failed++;                                      \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, \
				__LINE__, #cond);                            \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
		}                                                            \
	} while (0)

#define CHECK_EQ(a, b, ...)                                                  \
	do {                                                                 \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
		if (check_a_ != check_b_)                                    \
			fprintf(stderr, "  %s = %lld, %s = %lld\n", #a,      \
				check_a_, #b, check_b_);                     \
		CHECK(check_a_ == check_b_, __VA_ARGS__);                    \
	} while (0)

static inline int check_done(const char *suite)
{
	printf("%s: %u passed, %u failed\n", suite, check_passed, check_failed);
	return check_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* NEGCAM_CHECK_H */
