/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * negcam-run --each-profile: run a command once per profile and report,
 * per profile, how it negotiated (docs/matrix.md).
 */
#ifndef NEGCAM_RUN_MATRIX_H
#define NEGCAM_RUN_MATRIX_H

#include <stdbool.h>

struct nc_matrix {
	const char *node; /* the /dev/videoN every case gets */
	const char *profiles; /* --profiles LIST|DIR|shelf, or NULL for every built-in */
	const char *junit; /* --junit FILE, or NULL */
	const char *markdown; /* --markdown FILE, or NULL */
	bool append; /* --append: add rows to --markdown's table */
	const char *label; /* --label: the application's name, or NULL for CMD's */
	unsigned int timeout; /* seconds per case */
	bool requests; /* --requests: every request's count under each row */
	bool all_formats; /* --all-formats: a case per capture format of each profile */
	char **argv; /* CMD ARGS..., NULL-terminated; LD_PRELOAD is already set */
};

/* 0 when every case passed, 1 when one failed, 2 on bad input or a system
 * error (with a message on stderr). */
int nc_matrix_run(const struct nc_matrix *m);

#endif /* NEGCAM_RUN_MATRIX_H */
