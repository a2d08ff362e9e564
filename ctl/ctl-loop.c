// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-ctl loop add|list|remove: virtual webcams (negcam.ko loops) in
 * one command, on the module's own interfaces (docs/loopback.md):
 *
 *   configfs  /sys/kernel/config/negcam/loops/DIR/{captures,profile,label,
 *             enable,nodes}   a loop made and removed at run time
 *   sysfs     /sys/bus/platform/devices/negcam-loop.N/{label,profile,nodes,
 *             producer,consumers}   every loop, loops= ones included
 *
 * Everything the kernel would refuse is checked first, so a bad command
 * line changes nothing; a write the kernel still refuses removes the
 * half-made directory before the error is printed. NEGCAM_CONFIGFS and
 * NEGCAM_SYSFS_DEVICES replace the two roots (tests).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"
#include "profile.h"

#define LOOP_LABEL_MAX 22 /* NEGCAM_LABEL_MAX in kmod/negcam.h */
#define LOOP_CAPTURES_MAX 4
#define LOOP_NODES_MAX (1 + LOOP_CAPTURES_MAX)

struct loop_info {
	unsigned int index;           /* N of negcam-loop.N */
	char label[LOOP_LABEL_MAX + 2];
	char profile[40];
	char nodes[LOOP_NODES_MAX][16]; /* "video3": output first */
	unsigned int nnodes;
	char producer[16];            /* "live" or "none" */
	unsigned int consumers;       /* capture nodes streaming */
};

/* The environment's @name when set (tests), else @fallback. */
static const char *root(const char *name, const char *fallback)
{
	const char *r = getenv(name);

	return r && *r ? r : fallback;
}

#define cfs_root() root("NEGCAM_CONFIGFS", "/sys/kernel/config/negcam")
#define sys_root() root("NEGCAM_SYSFS_DEVICES", "/sys/bus/platform/devices")
#define class_root() root("NEGCAM_SYSFS_CLASS", "/sys/class/video4linux")
#define module_dir() root("NEGCAM_SYSFS_MODULE", "/sys/module/negcam")

static void __attribute__((format(printf, 1, 2))) loop_error(const char *fmt, ...)
{
	va_list ap;

	fputs("negcam-ctl loop: ", stderr);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The first line of @dir/@name into @buf, without its newline; -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	if (ferror(f))
		err = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return err;
}

/* @value into @dir/@name in one write; -errno (the kernel's refusal). */
static int write_attr(const char *dir, const char *name, const char *value)
{
	char path[512];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(value))
		err = -EIO;
	close(fd);
	return err;
}

/* Why configfs is not there, in words; 0 when it is. */
static int check_module(void)
{
	struct stat st;
	char loops[512];

	snprintf(loops, sizeof(loops), "%s/loops", cfs_root());
	if (stat(loops, &st) == 0)
		return 0;
	if (stat(module_dir(), &st) != 0)
		loop_error("the negcam module is not loaded: load it with "
			   "'sudo modprobe negcam' (or insmod kmod/negcam.ko in a build tree)");
	else if (errno == EACCES)
		loop_error("%s: permission denied: run negcam-ctl loop as root", loops);
	else
		loop_error("%s does not exist: mount configfs with "
			   "'sudo mount -t configfs none /sys/kernel/config'", loops);
	return -1;
}

/* A refused write or mkdir, in words. */
static void report_errno(const char *what, int err)
{
	if (err == -EACCES || err == -EPERM)
		loop_error("%s: permission denied: run negcam-ctl loop as root", what);
	else
		loop_error("%s: %s", what, strerror(-err));
}

static void parse_nodes(struct loop_info *li, const char *nodes)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", nodes);
	li->nnodes = 0;
	for (tok = strtok_r(buf, " ", &save); tok && li->nnodes < LOOP_NODES_MAX;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "output") || !strcmp(tok, "capture"))
			continue;
		snprintf(li->nodes[li->nnodes++], sizeof(li->nodes[0]), "%s", tok);
	}
}

/* Loop @index as sysfs shows it; -errno when there is none. */
static int loop_read(unsigned int index, struct loop_info *li)
{
	char dir[512], nodes[256], n[16];
	int err;

	memset(li, 0, sizeof(*li));
	li->index = index;
	snprintf(dir, sizeof(dir), "%s/negcam-loop.%u", sys_root(), index);
	err = read_attr(dir, "nodes", nodes, sizeof(nodes));
	if (err)
		return err;
	parse_nodes(li, nodes);
	read_attr(dir, "label", li->label, sizeof(li->label));
	read_attr(dir, "profile", li->profile, sizeof(li->profile));
	read_attr(dir, "producer", li->producer, sizeof(li->producer));
	if (!read_attr(dir, "consumers", n, sizeof(n)))
		li->consumers = (unsigned int)strtoul(n, NULL, 10);
	return 0;
}

static int index_cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* The N of every negcam-loop.N, sorted; their count. */
static unsigned int loop_indices(unsigned int *out, unsigned int max)
{
	DIR *d = opendir(sys_root());
	struct dirent *e;
	unsigned int n = 0, i;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max)
		if (sscanf(e->d_name, "negcam-loop.%u", &i) == 1)
			out[n++] = i;
	closedir(d);
	qsort(out, n, sizeof(*out), index_cmp);
	return n;
}

/* The stable name udev gives node @k of a loop (data/udev/60-negcam.rules). */
static void stable_name(const struct loop_info *li, unsigned int k, char *buf, size_t len)
{
	char who[64];
	size_t i;

	if (li->label[0])
		snprintf(who, sizeof(who), "%s", li->label);
	else
		snprintf(who, sizeof(who), "loop%u", li->index);
	for (i = 0; who[i]; i++)
		if (!(who[i] >= 'A' && who[i] <= 'Z') && !(who[i] >= 'a' && who[i] <= 'z') &&
		    !(who[i] >= '0' && who[i] <= '9') && who[i] != '-' && who[i] != '.' &&
		    !((unsigned char)who[i] & 0x80))
			who[i] = '_';
	if (k == 0)
		snprintf(buf, len, "/dev/v4l/by-id/negcam-%s-output", who);
	else
		snprintf(buf, len, "/dev/v4l/by-id/negcam-%s-capture%u", who, k - 1);
}

/* The format a loop's output node holds now: "YUYV 640x480" or "-". */
static void current_format(const struct loop_info *li, char *buf, size_t len)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	char path[64], fcc[8];
	int fd;

	snprintf(buf, len, "-");
	if (!li->nnodes)
		return;
	snprintf(path, sizeof(path), "/dev/%s", li->nodes[0]);
	fd = open(path, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		return;
	if (ioctl(fd, VIDIOC_G_FMT, &f) == 0)
		snprintf(buf, len, "%s %ux%u", ctl_fcc(f.fmt.pix.pixelformat, fcc),
			 f.fmt.pix.width, f.fmt.pix.height);
	close(fd);
}

static void print_nodes(const struct loop_info *li)
{
	char name[160];
	unsigned int k;

	for (k = 0; k < li->nnodes; k++) {
		stable_name(li, k, name, sizeof(name));
		if (k == 0)
			printf("  output    /dev/%-8s %s\n", li->nodes[k], name);
		else
			printf("  capture%u  /dev/%-8s %s\n", k - 1, li->nodes[k], name);
	}
}

static int loop_list(void)
{
	unsigned int idx[64], n, i;
	struct loop_info li;
	char fmt[64];

	if (check_module())
		return CTL_EXIT_FAIL;
	n = loop_indices(idx, 64);
	if (!n) {
		printf("no loops (negcam-ctl loop add makes one)\n");
		return CTL_EXIT_OK;
	}
	for (i = 0; i < n; i++) {
		if (loop_read(idx[i], &li))
			continue;
		current_format(&li, fmt, sizeof(fmt));
		printf("loop %u \"%s\": profile %s, producer %s, %u consumer%s streaming, format %s\n",
		       li.index, li.label[0] ? li.label : "", li.profile[0] ? li.profile : "?",
		       li.producer[0] ? li.producer : "?", li.consumers,
		       li.consumers == 1 ? "" : "s", fmt);
		print_nodes(&li);
	}
	return CTL_EXIT_OK;
}

/* The loop whose output node is @node ("video3"); -1 when none. */
static int loop_of_node(const char *node)
{
	unsigned int idx[64], n, i;
	struct loop_info li;

	n = loop_indices(idx, 64);
	for (i = 0; i < n; i++)
		if (!loop_read(idx[i], &li) && li.nnodes && !strcmp(li.nodes[0], node))
			return (int)idx[i];
	return -1;
}

struct loop_args {
	const char *label, *profile, *target;
	unsigned int captures;
	bool force;
};

static bool label_ok(const char *s)
{
	if (strlen(s) > LOOP_LABEL_MAX) {
		loop_error("--label is %zu bytes long: a label is at most %d (the output node "
			   "adds \" (output)\" to it)", strlen(s), LOOP_LABEL_MAX);
		return false;
	}
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			loop_error("--label: no control characters");
			return false;
		}
	return true;
}

static bool add_args_ok(const struct loop_args *a)
{
	if (a->label && !label_ok(a->label))
		return false;
	if (a->captures < 1 || a->captures > LOOP_CAPTURES_MAX) {
		loop_error("--captures %u: a loop has 1 to %d capture nodes", a->captures,
			   LOOP_CAPTURES_MAX);
		return false;
	}
	if (a->profile && strcmp(a->profile, "follow") && !negcam_builtin_find(a->profile)) {
		loop_error("--profile '%s': no built-in profile of that name (negcam-ctl "
			   "--list-profiles), nor 'follow'", a->profile);
		return false;
	}
	return true;
}

/* A configfs directory name for a new loop: "ctl-0", "ctl-1"... unused. */
static void new_dir(char *dir, size_t len)
{
	struct stat st;
	unsigned int i;

	for (i = 0;; i++) {
		snprintf(dir, len, "%s/loops/ctl-%u", cfs_root(), i);
		if (stat(dir, &st) != 0)
			return;
	}
}

/* Fill and enable configfs directory @dir; -errno with @what set. */
static int configure(const char *dir, const struct loop_args *a, const char **what)
{
	char n[16];
	int err;

	snprintf(n, sizeof(n), "%u", a->captures);
	*what = "captures";
	err = write_attr(dir, "captures", n);
	if (!err && a->profile) {
		*what = "profile";
		err = write_attr(dir, "profile", a->profile);
	}
	if (!err && a->label) {
		*what = "label";
		err = write_attr(dir, "label", a->label);
	}
	if (!err) {
		*what = "enable";
		err = write_attr(dir, "enable", "1");
	}
	return err;
}

static bool label_taken(const char *label)
{
	unsigned int idx[64], n, i;
	struct loop_info li;

	n = loop_indices(idx, 64);
	for (i = 0; i < n; i++)
		if (!loop_read(idx[i], &li) && !strcmp(li.label, label))
			return true;
	return false;
}

static int loop_add(const struct loop_args *a)
{
	char dir[512], nodes[256], what_path[600];
	const char *what = "mkdir";
	struct loop_info li;
	int err, index;

	if (!add_args_ok(a) || check_module())
		return CTL_EXIT_FAIL;
	if (a->label && *a->label && label_taken(a->label)) {
		loop_error("a loop labelled '%s' exists already (negcam-ctl loop list)", a->label);
		return CTL_EXIT_FAIL;
	}
	new_dir(dir, sizeof(dir));
	err = mkdir(dir, 0755) ? -errno : configure(dir, a, &what);
	if (!err)
		err = read_attr(dir, "nodes", nodes, sizeof(nodes));
	if (err) {
		rmdir(dir); /* nothing half-made stays */
		snprintf(what_path, sizeof(what_path), "%s (%s)", dir, what);
		report_errno(what_path, err);
		return CTL_EXIT_FAIL;
	}
	memset(&li, 0, sizeof(li));
	parse_nodes(&li, nodes);
	index = li.nnodes ? loop_of_node(li.nodes[0]) : -1;
	if (index < 0 || loop_read((unsigned int)index, &li)) {
		printf("loop \"%s\": %s\n", a->label ? a->label : "", nodes);
		return CTL_EXIT_OK;
	}
	printf("loop %u \"%s\" (%s)\n", li.index, li.label, dir);
	print_nodes(&li);
	return CTL_EXIT_OK;
}

/* The configfs directory that made loop @li, into @dir; -ENOENT: none
 * (a loops= loop, which goes with the module). */
static int find_dir(const struct loop_info *li, char *dir, size_t len)
{
	char loops[256], nodes[256];
	struct loop_info other;
	struct dirent *e;
	DIR *d;
	int err = -ENOENT;

	snprintf(loops, sizeof(loops), "%.200s/loops", cfs_root());
	d = opendir(loops);
	if (!d)
		return -errno;
	while (err && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, len, "%s/%s", loops, e->d_name);
		if (read_attr(dir, "nodes", nodes, sizeof(nodes)))
			continue;
		parse_nodes(&other, nodes);
		if (other.nnodes && li->nnodes && !strcmp(other.nodes[0], li->nodes[0]))
			err = 0;
	}
	closedir(d);
	return err;
}

/* The loop @target names: its number, else its label; -1 when none. */
static int find_loop(const char *target, struct loop_info *li)
{
	unsigned int idx[64], n, i;
	char *end;
	unsigned long v = strtoul(target, &end, 10);

	if (*target && !*end)
		return loop_read((unsigned int)v, li) ? -1 : 0;
	n = loop_indices(idx, 64);
	for (i = 0; i < n; i++)
		if (!loop_read(idx[i], li) && li->label[0] && !strcmp(li->label, target))
			return 0;
	return -1;
}

static int loop_remove(const struct loop_args *a)
{
	struct loop_info li;
	char dir[512];
	int err;

	if (check_module())
		return CTL_EXIT_FAIL;
	if (find_loop(a->target, &li)) {
		loop_error("no loop '%s' (negcam-ctl loop list shows them by number and label)",
			   a->target);
		return CTL_EXIT_FAIL;
	}
	if (find_dir(&li, dir, sizeof(dir))) {
		loop_error("loop %u was made by the module's loops= parameter: it goes when the "
			   "module is removed (rmmod negcam)", li.index);
		return CTL_EXIT_FAIL;
	}
	if (!a->force && (!strcmp(li.producer, "live") || li.consumers)) {
		loop_error("loop %u \"%s\" is busy: producer %s, %u consumer%s streaming; stop "
			   "them first, or --force (their handles then get ENODEV)", li.index,
			   li.label, li.producer, li.consumers, li.consumers == 1 ? "" : "s");
		return CTL_EXIT_FAIL;
	}
	err = rmdir(dir) ? -errno : 0;
	if (err) {
		report_errno(dir, err);
		return CTL_EXIT_FAIL;
	}
	printf("removed loop %u \"%s\"\n", li.index, li.label);
	return CTL_EXIT_OK;
}

/* Node @k of a loop (0 the output, 1 + M capture M) from its card name, as
 * kmod/negcam-loop-create.c names it; -1 when it is no loop node. */
static int role_of(const char *card, const struct loop_info *li)
{
	size_t n = strlen(li->label);
	unsigned int i, m;
	int end = 0;

	if (!n) {
		if (sscanf(card, "negcam loop %u output%n", &i, &end) == 1 && end && !card[end])
			return 0;
		end = 0;
		if (sscanf(card, "negcam loop %u capture %u%n", &i, &m, &end) == 2 && end &&
		    !card[end])
			return 1 + (int)m;
		return -1;
	}
	if (strncmp(card, li->label, n))
		return -1;
	if (!card[n])
		return 1;
	if (!strcmp(card + n, " (output)"))
		return 0;
	if (sscanf(card + n, " (%u)%n", &m, &end) == 1 && end && !card[n + end] && m >= 2)
		return (int)m;
	return -1;
}

/* For data/udev/60-negcam.rules: NEGCAM_LINK=<stable name> of node @node
 * ("video3") of a loop, from its card name and its loop's label (both set
 * before the node's uevent); exit 1 when it is no loop node. */
static int loop_udev(const char *node)
{
	char path[512], card[64], dev[512], *base;
	struct loop_info li;
	unsigned int index;
	ssize_t n;
	int k;

	snprintf(path, sizeof(path), "%s/%s", class_root(), node);
	if (read_attr(path, "name", card, sizeof(card)))
		return CTL_EXIT_FAIL;
	snprintf(path, sizeof(path), "%s/%s/device", class_root(), node);
	n = readlink(path, dev, sizeof(dev) - 1);
	if (n <= 0)
		return CTL_EXIT_FAIL;
	dev[n] = 0;
	base = strrchr(dev, '/');
	if (sscanf(base ? base + 1 : dev, "negcam-loop.%u", &index) != 1)
		return CTL_EXIT_FAIL;
	memset(&li, 0, sizeof(li));
	li.index = index;
	snprintf(path, sizeof(path), "%s/negcam-loop.%u", sys_root(), index);
	read_attr(path, "label", li.label, sizeof(li.label));
	k = role_of(card, &li);
	if (k < 0)
		return CTL_EXIT_FAIL;
	stable_name(&li, (unsigned int)k, path, sizeof(path));
	printf("NEGCAM_LINK=%s\n", path + strlen("/dev/v4l/by-id/"));
	return CTL_EXIT_OK;
}

static void loop_usage(FILE *f)
{
	fputs("Usage: negcam-ctl loop add [--label NAME] [--profile NAME|follow] [--captures N]\n"
	      "       negcam-ctl loop list\n"
	      "       negcam-ctl loop remove [--force] NUMBER|LABEL\n"
	      "Virtual webcams: negcam.ko loops (an output node a producer writes, 1 to 4\n"
	      "capture nodes applications read), made and removed through configfs (root).\n"
	      "A label is the name applications list (at most 22 bytes); udev names the\n"
	      "nodes /dev/v4l/by-id/negcam-LABEL-output and ...-capture0 (docs/loopback.md).\n",
	      f);
}

static int loop_usage_error(const char *fmt, const char *arg)
{
	fputs("negcam-ctl loop: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	loop_usage(stderr);
	return CTL_EXIT_USAGE;
}

/* Options of add and remove into @a; -1 after a usage error. */
static int parse_loop_args(int argc, char **argv, struct loop_args *a)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "profile", required_argument, NULL, 'p' },
		{ "captures", required_argument, NULL, 'c' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch;

	opterr = 0;
	optind = 2;
	while ((ch = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'l': a->label = optarg; break;
		case 'p': a->profile = optarg; break;
		case 'f': a->force = true; break;
		case 'h': loop_usage(stdout); exit(CTL_EXIT_OK);
		case 'c':
			a->captures = (unsigned int)strtoul(optarg, &end, 10);
			if (!*optarg || *end || strlen(optarg) > 3)
				return loop_usage_error("--captures '%s' is not a number", optarg), -1;
			break;
		case ':': return loop_usage_error("option '%s' needs a value", argv[optind - 1]), -1;
		default: return loop_usage_error("unknown option '%s'", argv[optind - 1]), -1;
		}
	}
	return 0;
}

int ctl_loop_main(int argc, char **argv)
{
	struct loop_args a = { .captures = 1 };
	const char *verb = argc > 1 ? argv[1] : "";

	if (!strcmp(verb, "--help") || !strcmp(verb, "-h")) {
		loop_usage(stdout);
		return CTL_EXIT_OK;
	}
	if (!strcmp(verb, "udev") && argc == 3)
		return loop_udev(argv[2]);
	if (strcmp(verb, "add") && strcmp(verb, "list") && strcmp(verb, "remove"))
		return loop_usage_error("'%s': the verb is add, list or remove", verb);
	if (parse_loop_args(argc, argv, &a))
		return CTL_EXIT_USAGE;
	if (!strcmp(verb, "remove")) {
		if (optind != argc - 1)
			return loop_usage_error("%s", "remove takes one loop: its number or label");
		a.target = argv[optind];
		return loop_remove(&a);
	}
	if (optind < argc)
		return loop_usage_error("unexpected argument '%s'", argv[optind]);
	return !strcmp(verb, "add") ? loop_add(&a) : loop_list();
}
