// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-run [--profile P]... [--node /dev/videoN]... [--list] -- CMD ARGS...
 *
 * Runs CMD with libnegcam-preload.so in LD_PRELOAD: CMD and its children
 * see one V4L2 capture node per --profile (webcam when none is given),
 * served by the negcam engine in process, no kernel module. Every
 * profile is parsed here first, so a bad one stops before CMD runs.
 * See docs/negcam-run.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile-load.h"

#ifndef NEGCAM_PRELOAD_PATH
#define NEGCAM_PRELOAD_PATH "libnegcam-preload.so"
#endif

#define MAX_NODES 8

static const char *prog = "negcam-run";

static void usage(FILE *to, int status)
{
	fprintf(to,
		"usage: %s [--profile P]... [--node /dev/videoN]... [--list] -- CMD [ARGS...]\n"
		"  --profile P   a device on profile P (a built-in name or a profile file);\n"
		"                repeat for several devices (default: webcam)\n"
		"  --node PATH   the path of the next device (default: the first free "
		"/dev/videoN)\n"
		"  --list        print the nodes and profiles, run nothing\n"
		"CMD and its children see the devices; see docs/negcam-run.md.\n",
		prog);
	exit(status);
}

/* The library: NEGCAM_RUN_PRELOAD, else beside this program, else the built-in path. */
static const char *preload_path(char *buf, size_t len)
{
	const char *env = getenv("NEGCAM_RUN_PRELOAD");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/libnegcam-preload.so", self);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	}
	return NEGCAM_PRELOAD_PATH;
}

/* Names node @self the first /dev/videoN that neither exists nor is another's. */
static void free_node(char (*nodes)[256], unsigned int n, unsigned int self)
{
	char name[64];
	struct stat sb;
	unsigned int v, i;

	for (v = 0;; v++) {
		snprintf(name, sizeof(name), "/dev/video%u", v);
		for (i = 0; i < n && (i == self || strcmp(nodes[i], name)); i++)
			;
		if (i == n && lstat(name, &sb) && errno == ENOENT)
			break;
	}
	snprintf(nodes[self], sizeof(nodes[self]), "%s", name);
}

int main(int argc, char **argv)
{
	static char nodes[MAX_NODES][256], specs[MAX_NODES][1024];
	static struct negcam_profile profile;
	char env[MAX_NODES * 1300] = "", lib[PATH_MAX + 32], msg[512];
	const char *pending_node = NULL, *old, *path;
	unsigned int n = 0, given = 0, i;
	bool list = false;
	int a;

	for (a = 1; a < argc && strcmp(argv[a], "--"); a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h"))
			usage(stdout, 0);
		else if (!strcmp(argv[a], "--list"))
			list = true;
		else if ((!strcmp(argv[a], "--profile") || !strcmp(argv[a], "--node")) &&
			 a + 1 < argc) {
			bool is_node = argv[a][2] == 'n';
			const char *v = argv[++a];

			if (is_node && (strncmp(v, "/dev/", 5) || strlen(v) >= 256 ||
					strchr(v, ';') || strchr(v, '='))) {
				fprintf(stderr,
					"%s: --node %s: a path under /dev/ without ';' or '='\n",
					prog, v);
				return 2;
			}
			if (!is_node && (strlen(v) >= 1024 || strchr(v, ';'))) {
				fprintf(stderr, "%s: --profile %s: too long or contains ';'\n",
					prog, v);
				return 2;
			}
			if (is_node) {
				pending_node = v;
				continue;
			}
			if (n == MAX_NODES) {
				fprintf(stderr, "%s: at most %d devices\n", prog, MAX_NODES);
				return 2;
			}
			snprintf(specs[n], sizeof(specs[n]), "%s", v);
			snprintf(nodes[n], sizeof(nodes[n]), "%s",
				 pending_node ? pending_node : "");
			given += pending_node != NULL;
			pending_node = NULL;
			n++;
		} else {
			fprintf(stderr, "%s: unknown option %s\n", prog, argv[a]);
			usage(stderr, 2);
		}
	}
	if (n == 0) { /* the default device, at --node when one was given */
		snprintf(specs[0], sizeof(specs[0]), "webcam");
		snprintf(nodes[0], sizeof(nodes[0]), "%s", pending_node ? pending_node : "");
		n = 1;
	}
	if (!list && a + 1 >= argc)
		usage(stderr, 2);
	for (i = 0; i < n; i++) {
		if (negcam_profile_load(specs[i], &profile, msg, sizeof(msg))) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			return 2;
		}
		if (!nodes[i][0])
			free_node(nodes, n, i);
		snprintf(env + strlen(env), sizeof(env) - strlen(env), "%s%s=%s", i ? ";" : "",
			 nodes[i], specs[i]);
		if (list)
			printf("%s\t%s\t%s\n", nodes[i], specs[i],
			       profile.card[0] ? profile.card : profile.name);
	}
	(void)given;
	if (list)
		return 0;
	old = getenv("LD_PRELOAD");
	path = preload_path(lib, sizeof(lib));
	if (old && *old) {
		char *both = malloc(strlen(path) + strlen(old) + 2);

		if (!both)
			return 2;
		sprintf(both, "%s:%s", path, old);
		setenv("LD_PRELOAD", both, 1);
	} else {
		setenv("LD_PRELOAD", path, 1);
	}
	setenv("NEGCAM_RUN_NODES", env, 1);
	execvp(argv[a + 1], argv + a + 1);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[a + 1], strerror(errno));
	return 127;
}
