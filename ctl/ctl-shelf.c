// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The camera shelf on the command line: --list-profiles after the
 * built-ins lists every NAME.profile of the shelf directory
 * (negcam_shelf_dir(), docs/cameras.md) grouped by the kind its
 * "# Kind:" line names, each with its first comment line (the camera);
 * --show-profile prints a shelf profile's text as it does a built-in's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "profile-load.h"

struct shelf_entry {
	char name[64];
	char kind[64];
	char camera[160];
};

/* "# TEXT" first lines of @path: the first is the camera, "# Kind: K" the kind. */
static void read_head(const char *path, struct shelf_entry *e)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned int n = 0;

	snprintf(e->kind, sizeof(e->kind), "other");
	e->camera[0] = '\0';
	while (f && n++ < 12 && fgets(line, sizeof(line), f) && line[0] == '#') {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "# Kind: ", 8))
			snprintf(e->kind, sizeof(e->kind), "%.63s", line + 8);
		else if (n == 1)
			snprintf(e->camera, sizeof(e->camera), "%.159s", line + 2);
	}
	if (f)
		fclose(f);
}

static int by_kind(const void *a, const void *b)
{
	const struct shelf_entry *x = a, *y = b;
	int k = strcmp(x->kind, y->kind);

	return k ? k : strcmp(x->name, y->name);
}

/* The shelf's entries, sorted by kind then name; *@n of them, NULL when none. */
static struct shelf_entry *shelf_entries(const char *dir, unsigned int *n)
{
	struct shelf_entry *v = NULL;
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4400];

	*n = 0;
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct shelf_entry *nv;

		if (len <= 8 || len - 8 >= sizeof(v->name) || strcmp(de->d_name + len - 8, ".profile"))
			continue;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		snprintf(v[*n].name, sizeof(v->name), "%.*s", (int)(len - 8), de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		read_head(path, &v[(*n)++]);
	}
	if (d)
		closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), by_kind);
	return v;
}

void ctl_list_shelf(void)
{
	char buf[4200];
	const char *dir = negcam_shelf_dir(buf, sizeof(buf));
	struct shelf_entry *v;
	unsigned int n, i;

	if (!dir || !(v = shelf_entries(dir, &n)))
		return;
	/* a blank line ends the built-ins: scripts read names up to it */
	printf("\ncamera shelf, %u cameras by kind (%s):\n", n, dir);
	for (i = 0; i < n; i++) {
		if (!i || strcmp(v[i].kind, v[i - 1].kind))
			printf("%s:\n", v[i].kind);
		printf("  %-30s %s\n", v[i].name, v[i].camera);
	}
	free(v);
}

int ctl_show_shelf(const char *name)
{
	char buf[4200], path[4400];
	const char *dir = negcam_shelf_dir(buf, sizeof(buf));
	struct nc_read r;

	if (!dir || strchr(name, '/'))
		return -1;
	snprintf(path, sizeof(path), "%s/%s.profile", dir, name);
	if (nc_read_file(path, 0, 0, &r))
		return -1;
	fwrite(r.text, 1, r.len, stdout);
	free(r.text);
	return 0;
}
