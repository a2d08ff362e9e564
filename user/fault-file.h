/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A control file of faults (docs/faults.md, "Switching faults while
 * streaming"): negcam-run's, negcam-pw's and negcam-uvc's --faults
 * FILE. Whether FILE appeared, changed (time, size or inode) or went
 * since it was last looked at, and the list it holds (negcam_faults_load).
 * Each program decides when to look (negcam-run on a request, negcam-pw
 * and negcam-uvc on a timer) and what a change does.
 */
#ifndef NEGCAM_USER_FAULT_FILE_H
#define NEGCAM_USER_FAULT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "profile.h"

struct nc_fault_file {
	const char *path;
	bool present; /* FILE exists */
	bool ok;      /* and its list parsed: @faults holds it */
	struct stat st;
	struct negcam_faults faults;
};

/*
 * Look at @ff->path: 0 when it is as last seen; 1 when it appeared,
 * changed or went, @ff then says what it holds (a list that does not
 * parse: present, not ok, the reason "FILE:LINE:COL: ..." in @msg).
 */
int nc_fault_file_check(struct nc_fault_file *ff, char *msg, size_t msglen);

#endif /* NEGCAM_USER_FAULT_FILE_H */
