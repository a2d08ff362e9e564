// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The descriptor table of libnegcam-preload.so: which descriptor is which
 * open file of which node. fdmap is read without the lock (atomic);
 * files[] and attaching/detaching are under nc_lock. Used by the
 * interposers (preload.c) and the controls (controls.c); calls neither.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "preload.h"
#include "record.h"

static struct nc_file files[NC_RUN_MAX_FILES];
static _Atomic unsigned short fdmap[NC_RUN_FDMAX]; /* file index + 1 */

int nc_node_of_fd(int fd)
{
	unsigned int f = fd >= 0 && fd < NC_RUN_FDMAX ? atomic_load(&fdmap[fd]) : 0;

	return f ? files[f - 1].node : -1;
}

/* ---- the descriptor table (under nc_lock) ---- */

struct nc_file *nc_file_of_fd(int fd)
{
	unsigned int f = fd >= 0 && fd < NC_RUN_FDMAX ? atomic_load(&fdmap[fd]) : 0;

	return f ? &files[f - 1] : NULL;
}

struct nc_file *nc_file_at(unsigned int i)
{
	return i < NC_RUN_MAX_FILES && files[i].refs ? &files[i] : NULL;
}

/* @fd now refers to @f (a new file when @f is NULL, on @node). */
int nc_fd_attach(int fd, struct nc_file *f, int node)
{
	unsigned int i;

	if (fd < 0 || fd >= NC_RUN_FDMAX)
		return -EMFILE;
	for (i = 0; !f && i < NC_RUN_MAX_FILES; i++)
		if (!files[i].refs) {
			f = &files[i];
			memset(f, 0, sizeof(*f));
			f->node = node;
			f->prio = V4L2_PRIORITY_DEFAULT;
			nc_nodes[node].priority[f->prio]++;
		}
	if (!f)
		return -EMFILE;
	f->refs++;
	atomic_store(&fdmap[fd], (unsigned short)(f - files + 1));
	return 0;
}

/* @fd no longer refers to its file; the file's last descriptor releases it. */
void nc_fd_detach(int fd)
{
	struct nc_file *f = nc_file_of_fd(fd);
	struct nc_node *n;

	if (!f)
		return;
	atomic_store(&fdmap[fd], 0);
	if (--f->refs)
		return;
	n = &nc_nodes[f->node];
	n->priority[f->prio]--;
	nc_vbq_release(&n->vbq, f);
	nc_record_close(f->node);
}
