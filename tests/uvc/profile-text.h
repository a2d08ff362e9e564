/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* The uvc tests' profiles from text (one static profile, reused by each call). */
#ifndef NEGCAM_TEST_UVC_PROFILE_TEXT_H
#define NEGCAM_TEST_UVC_PROFILE_TEXT_H

#include <stdio.h>
#include <string.h>

#include "profile.h"

static struct negcam_profile *load(const char *text)
{
	static struct negcam_profile p;
	struct negcam_parse_error err;

	if (negcam_profile_parse(&p, text, strlen(text), &err))
		fprintf(stderr, "parse: %s\n", err.message);
	return &p;
}

#endif
