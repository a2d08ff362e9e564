// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-run [--profile P]... [--node /dev/videoN]... [--faults FILE] [--list] -- CMD ARGS...
 * negcam-run --each-profile [--profiles LIST|DIR|shelf] [--junit FILE]
 *            [--markdown FILE [--append]] [--label APP] -- CMD ARGS...
 *
 * Runs CMD with libnegcam-preload.so in LD_PRELOAD: CMD and its children
 * see one V4L2 capture node per --profile (webcam when none is given),
 * served by the negcam engine in process, no kernel module. Every
 * profile is parsed here first, so a bad one stops before CMD runs.
 * --each-profile runs CMD once per profile instead (matrix.c).
 * See docs/negcam-run.md and docs/matrix.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix.h"
#include "profile-load.h"

#ifndef NEGCAM_PRELOAD_PATH
#define NEGCAM_PRELOAD_PATH "libnegcam-preload.so"
#endif

#define MAX_NODES 8

static const char *prog = "negcam-run";

static void usage(FILE *to, int status)
{
	fprintf(to,
		"usage: %s [--profile P]... [--node /dev/videoN]... [--faults FILE] [--list]\n"
		"                  -- CMD [ARGS...]\n"
		"       %s --each-profile [--profiles LIST|DIR|shelf] [--junit FILE] [--timeout S]\n"
		"                  [--markdown FILE [--append]] [--label APP] [--requests]\n"
		"                  [--all-formats]\n"
		"                  [--node /dev/videoN] -- CMD [ARGS...]\n"
		"  --profile P     a device on profile P (a built-in name or a profile file);\n"
		"                  repeat for several devices (default: webcam)\n"
		"  --node PATH     the path of the next device (default: the first free "
		"/dev/videoN)\n"
		"  --faults FILE   faults switched while CMD runs: FILE's list (docs/faults.md)\n"
		"                  replaces the profiles' faults whenever it changes\n"
		"  --list          print the nodes and profiles, run nothing\n"
		"  --each-profile  run CMD once per profile and print a table of what it\n"
		"                  negotiated; exit status 1 when a case failed\n"
		"  --profiles L    names, files or directories of *.profile, comma-separated\n"
		"                  (default: every built-in); 'shelf': every real camera\n"
		"  --junit FILE    write the cases as JUnit XML\n"
		"  --markdown FILE write the table as Markdown, a row per profile\n"
		"  --append        add the rows to --markdown's table (one per camera per APP)\n"
		"  --label APP     the application's name in the tables (default: CMD's)\n"
		"  --timeout S     seconds per case before CMD is killed (default 60)\n"
		"  --requests      every request's count under each row\n"
		"  --all-formats   a case per capture format of each profile, the format in\n"
		"                  $NEGCAM_FORMAT (as v4l2-ctl prints it: 'Z16 ')\n"
		"  --version       print negcam-run's version (negcam's, meson.build's)\n"
		"CMD and its children see the devices; see docs/negcam-run.md and "
		"docs/matrix.md.\n",
		prog, prog);
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

struct options {
	char nodes[MAX_NODES][256], specs[MAX_NODES][1024];
	unsigned int n;
	const char *pending_node; /* a --node not yet followed by --profile */
	const char *faults;       /* --faults FILE */
	bool list, each;
	struct nc_matrix matrix;
	int cmd; /* argv index of CMD */
};

/* One --profile or --node value; exits with status 2 on a bad one. */
static void add_device_option(struct options *o, bool is_node, const char *v)
{
	if (is_node &&
	    (strncmp(v, "/dev/", 5) || strlen(v) >= 256 || strchr(v, ';') || strchr(v, '='))) {
		fprintf(stderr, "%s: --node %s: a path under /dev/ without ';' or '='\n", prog, v);
		exit(2);
	}
	if (!is_node && (strlen(v) >= 1024 || strchr(v, ';'))) {
		fprintf(stderr, "%s: --profile %s: too long or contains ';'\n", prog, v);
		exit(2);
	}
	if (is_node) {
		o->pending_node = v;
		return;
	}
	if (o->n == MAX_NODES) {
		fprintf(stderr, "%s: at most %d devices\n", prog, MAX_NODES);
		exit(2);
	}
	snprintf(o->specs[o->n], sizeof(o->specs[o->n]), "%s", v);
	snprintf(o->nodes[o->n], sizeof(o->nodes[o->n]), "%s", o->pending_node ?: "");
	o->pending_node = NULL;
	o->n++;
}

/* --timeout's value: 1 to 86400 seconds. */
static unsigned int timeout_option(const char *v)
{
	char *end;
	unsigned long t = strtoul(v, &end, 10);

	if (*end || !*v || t < 1 || t > 86400) {
		fprintf(stderr, "%s: --timeout %s: a whole number of seconds, 1 to 86400\n", prog,
			v);
		exit(2);
	}
	return (unsigned int)t;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	int a;

	o->matrix.timeout = 60;
	for (a = 1; a < argc && strcmp(argv[a], "--"); a++) {
		const char *opt = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(opt, "--help") || !strcmp(opt, "-h"))
			usage(stdout, 0);
		else if (!strcmp(opt, "--version")) {
			printf("%s %s\n", prog, NEGCAM_VERSION);
			exit(0);
		} else if (!strcmp(opt, "--list"))
			o->list = true;
		else if (!strcmp(opt, "--each-profile"))
			o->each = true;
		else if (!strcmp(opt, "--requests"))
			o->matrix.requests = true;
		else if (!strcmp(opt, "--append"))
			o->matrix.append = true;
		else if (!strcmp(opt, "--all-formats"))
			o->matrix.all_formats = true;
		else if (!v)
			usage(stderr, 2);
		else if (!strcmp(opt, "--profile") || !strcmp(opt, "--node"))
			add_device_option(o, opt[2] == 'n', argv[++a]);
		else if (!strcmp(opt, "--faults"))
			o->faults = argv[++a];
		else if (!strcmp(opt, "--profiles"))
			o->matrix.profiles = argv[++a];
		else if (!strcmp(opt, "--junit"))
			o->matrix.junit = argv[++a];
		else if (!strcmp(opt, "--markdown"))
			o->matrix.markdown = argv[++a];
		else if (!strcmp(opt, "--label"))
			o->matrix.label = argv[++a];
		else if (!strcmp(opt, "--timeout"))
			o->matrix.timeout = timeout_option(argv[++a]);
		else {
			fprintf(stderr, "%s: unknown option %s\n", prog, opt);
			usage(stderr, 2);
		}
	}
	if (o->each && (o->n || o->list)) {
		fprintf(stderr, "%s: --each-profile takes --profiles, not --profile or --list\n",
			prog);
		exit(2);
	}
	if (!o->each && (o->matrix.profiles || o->matrix.junit || o->matrix.requests ||
			 o->matrix.markdown || o->matrix.label || o->matrix.append ||
			 o->matrix.all_formats)) {
		fprintf(stderr,
			"%s: --profiles, --all-formats, --junit, --markdown, --append, --label and "
			"--requests go with --each-profile\n",
			prog);
		exit(2);
	}
	if (o->matrix.append && !o->matrix.markdown) {
		fprintf(stderr, "%s: --append adds to a --markdown FILE: give one\n", prog);
		exit(2);
	}
	if (!o->list && a + 1 >= argc)
		usage(stderr, 2);
	o->cmd = a + 1;
}

/* LD_PRELOAD: the library first, an existing LD_PRELOAD kept after it. */
static int set_preload(void)
{
	char lib[PATH_MAX + 32];
	const char *old = getenv("LD_PRELOAD"), *path = preload_path(lib, sizeof(lib));
	char *both;

	if (!old || !*old)
		return setenv("LD_PRELOAD", path, 1);
	both = malloc(strlen(path) + strlen(old) + 2);
	if (!both)
		return -1;
	sprintf(both, "%s:%s", path, old);
	return setenv("LD_PRELOAD", both, 1);
}

/* Loads every profile, names the nodes, and sets NEGCAM_RUN_NODES (or lists them). */
static int set_nodes(struct options *o)
{
	static struct negcam_profile profile;
	static char env[MAX_NODES * 1300];
	char msg[512];
	unsigned int i;

	for (i = 0; i < o->n; i++) {
		if (negcam_profile_load(o->specs[i], &profile, msg, sizeof(msg))) {
			fprintf(stderr, "%s: %s\n", prog, msg);
			return -1;
		}
		if (!o->nodes[i][0])
			free_node(o->nodes, o->n, i);
		snprintf(env + strlen(env), sizeof(env) - strlen(env), "%s%s=%s", i ? ";" : "",
			 o->nodes[i], o->specs[i]);
		if (o->list)
			printf("%s\t%s\t%s\n", o->nodes[i], o->specs[i],
			       profile.card[0] ? profile.card : profile.name);
	}
	return setenv("NEGCAM_RUN_NODES", env, 1);
}

/* The library runs in CMD's processes, whose program is not beside the
 * build tree's data/cameras: it is told where the shelf this program
 * found is, so a shelf camera given by name loads there too. */
static int set_shelf_dir(void)
{
	char dir[4096];
	const char *d = getenv("NEGCAM_SHELF_DIR");

	if (d && *d)
		return 0;
	d = negcam_shelf_dir(dir, sizeof(dir));
	return d ? setenv("NEGCAM_SHELF_DIR", d, 1) : 0;
}

/*
 * --faults FILE: checked now when it exists (a bad list stops here, as a
 * bad profile does), then named to the library by absolute path in
 * NEGCAM_RUN_FAULTS; it may be created later.
 */
static int set_faults(const char *file)
{
	static struct negcam_faults f;
	char msg[512], path[PATH_MAX];

	if (!file)
		return 0;
	if (access(file, F_OK) == 0 && negcam_faults_load(file, &f, msg, sizeof(msg))) {
		fprintf(stderr, "%s: --faults %s\n", prog, msg);
		return -1;
	}
	if (file[0] != '/' && getcwd(path, sizeof(path) - strlen(file) - 2)) {
		strcat(path, "/");
		strcat(path, file);
		file = path;
	}
	return setenv("NEGCAM_RUN_FAULTS", file, 1);
}

int main(int argc, char **argv)
{
	static struct options o;

	parse_args(argc, argv, &o);
	if (set_shelf_dir())
		return 2;
	if (o.n == 0) { /* the default device, or the node every case gets */
		snprintf(o.specs[0], sizeof(o.specs[0]), "webcam");
		snprintf(o.nodes[0], sizeof(o.nodes[0]), "%s", o.pending_node ?: "");
		o.n = 1;
	}
	if (o.each) {
		if (!o.nodes[0][0])
			free_node(o.nodes, 1, 0);
		o.matrix.node = o.nodes[0];
		o.matrix.argv = argv + o.cmd;
		return set_preload() ? 2 : nc_matrix_run(&o.matrix);
	}
	if (set_nodes(&o) || set_faults(o.faults))
		return 2;
	if (o.list)
		return 0;
	if (set_preload())
		return 2;
	execvp(argv[o.cmd], argv + o.cmd);
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[o.cmd], strerror(errno));
	return 127;
}
