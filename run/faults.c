// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: faults switched while a program runs
 * (negcam-run --faults FILE, docs/negcam-run.md). NEGCAM_RUN_FAULTS names
 * a file holding a list of faults (docs/faults.md). At most every
 * NC_FAULTS_CHECK_MS, on the program's next request to a node, the file
 * is looked at: when it appeared, changed (time, size or inode) or went,
 * every node's queue takes its faults, or back its profile's when the
 * file is gone. A list that does not parse is said once on stderr, with
 * FILE:LINE:COL, and changes nothing. Under nc_lock.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fault-file.h"
#include "preload.h"

#define NC_FAULTS_CHECK_MS 100

static struct {
	bool init;
	uint64_t next_ns;
	struct nc_fault_file file; /* user/fault-file.c */
} watch;

static uint64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

void nc_faults_apply(struct nc_node *n)
{
	if (n->profile)
		nc_vbq_set_faults(&n->vbq, watch.file.present && watch.file.ok
						   ? &watch.file.faults
						   : &n->profile->faults);
}

void nc_faults_check(void)
{
	uint64_t now = mono_ms();
	char msg[512];
	unsigned int i;

	if (!watch.init) {
		watch.init = true;
		watch.file.path = getenv("NEGCAM_RUN_FAULTS");
	}
	if (!watch.file.path || !*watch.file.path || now < watch.next_ns)
		return;
	watch.next_ns = now + NC_FAULTS_CHECK_MS;
	if (!nc_fault_file_check(&watch.file, msg, sizeof(msg)))
		return;
	if (watch.file.present && !watch.file.ok) {
		fprintf(stderr, "libnegcam-preload: %s (faults unchanged)\n", msg);
		return;
	}
	for (i = 0; i < nc_nnodes; i++)
		nc_faults_apply(&nc_nodes[i]);
}
