// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-run --each-profile (docs/matrix.md): CMD runs once per profile
 * on a node of its own, in its own process group, with stdin from
 * /dev/null and its stdout and stderr caught in files. The library
 * records what CMD asked and got (record.h) in the case's directory;
 * this file sums the records, prints one table row per case as it ends
 * and writes JUnit XML at the end. A case fails when CMD exits nonzero,
 * dies of a signal or outlives --timeout (SIGTERM, then SIGKILL 2 s later).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "formats.h"
#include "matrix.h"
#include "profile-load.h"
#include "record.h"

#define MX_TAIL_BYTES 65536 /* of CMD's stdout and stderr kept for the XML */
#define MX_MESSAGE_BYTES 1024 /* of stderr's end in the failure message */

struct mx_case {
	char spec[1024]; /* what the library loads */
	char name[256]; /* the table's profile column ("camera 'FCC '" with --all-formats) */
	char fourcc[5]; /* --all-formats: the case's format, in NEGCAM_FORMAT; "" for none */
	int status; /* waitpid()'s */
	bool timed_out;
	double seconds;
	struct nc_record rec; /* every process image's records summed */
	char *out, *err; /* the ends of CMD's stdout and stderr */
};

struct mx_list {
	struct mx_case *cases;
	unsigned int n;
};

static volatile sig_atomic_t running_pgid; /* killed when negcam-run is */
static int name_width = 18; /* the table's profile column: the longest name */

static void on_signal(int sig)
{
	if (running_pgid > 0)
		kill(-running_pgid, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the list of profiles ---- */

static int add_case(struct mx_list *l, const char *spec)
{
	struct mx_case *c;
	const char *base = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
	size_t len = strlen(base);

	if (strlen(spec) >= sizeof(c->spec) || strchr(spec, ';')) {
		fprintf(stderr, "negcam-run: profile %s: too long or contains ';'\n", spec);
		return -1;
	}
	c = realloc(l->cases, (l->n + 1) * sizeof(*c));
	if (!c)
		return -1;
	l->cases = c;
	c = &l->cases[l->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->spec, sizeof(c->spec), "%s", spec);
	if (len > 8 && !strcmp(base + len - 8, ".profile"))
		len -= 8;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)len, base);
	return 0;
}

static int is_profile_file(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 8 && !strcmp(d->d_name + len - 8, ".profile");
}

/* Every DIR/ *.profile, in name order; a directory without one is an error. */
static int add_dir(struct mx_list *l, const char *dir)
{
	struct dirent **names;
	char path[4096];
	int n = scandir(dir, &names, is_profile_file, alphasort), i, ret = 0;

	if (n < 0) {
		fprintf(stderr, "negcam-run: --profiles %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (n == 0)
		fprintf(stderr, "negcam-run: --profiles %s: no *.profile file in it\n", dir);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!ret)
			ret = add_case(l, path);
		free(names[i]);
	}
	free(names);
	return n ? ret : -1;
}

/* The word 'shelf' (docs/cameras.md): the built-ins that cite a source
 * (the real cameras; the synthetic ones do not), then the shelf's files. */
static int add_shelf(struct mx_list *l)
{
	char dir[4096];
	const char *d = negcam_shelf_dir(dir, sizeof(dir));
	const struct negcam_builtin *b;
	unsigned int i;

	for (i = 0; (b = negcam_builtin_at(i)); i++)
		if ((!strncmp(b->text, "# Source:", 9) || strstr(b->text, "\n# Source:")) &&
		    add_case(l, b->name))
			return -1;
	if (!d) {
		fprintf(stderr, "negcam-run: --profiles shelf: no camera shelf directory "
				"($NEGCAM_SHELF_DIR, the build tree's data/cameras, the installed one)\n");
		return -1;
	}
	return add_dir(l, d);
}

/* One item of --profiles: a directory, a file or name, or 'shelf' when no
 * file has that name. */
static int add_item(struct mx_list *l, const char *item)
{
	struct stat sb;

	if (stat(item, &sb))
		return strcmp(item, "shelf") ? add_case(l, item) : add_shelf(l);
	return S_ISDIR(sb.st_mode) ? add_dir(l, item) : add_case(l, item);
}

/*
 * --all-formats: each profile's case becomes one per capture format, in
 * profile order, named "camera 'FCC '"; CMD finds the format in
 * NEGCAM_FORMAT (four characters, as v4l2-ctl prints them).
 */
static int expand_formats(struct mx_list *l)
{
	static struct negcam_profile p;
	struct mx_list out = {0};
	const struct negcam_format *f;
	char msg[512], base[200];
	unsigned int i, k;

	for (i = 0; i < l->n; i++) {
		if (negcam_profile_load(l->cases[i].spec, &p, msg, sizeof(msg)))
			return -1;
		snprintf(base, sizeof(base), "%.199s", l->cases[i].name);
		for (k = 0; k < p.nformats; k++) {
			f = &p.formats[k];
			if (negcam_queue_of(f->buf_type) != NC_CAPTURE)
				continue;
			if (add_case(&out, l->cases[i].spec))
				return -1;
			negcam_fourcc_str(f->fourcc, out.cases[out.n - 1].fourcc);
			snprintf(out.cases[out.n - 1].name, sizeof(out.cases[0].name), "%s '%s'",
				 base, out.cases[out.n - 1].fourcc);
		}
	}
	free(l->cases);
	*l = out;
	return 0;
}

/* --profiles: names, files and directories separated by commas; every
 * built-in without it. Each profile is loaded once here, so a bad one stops
 * the run before any case. */
static int collect(const char *profiles, bool all_formats, struct mx_list *l)
{
	static struct negcam_profile p;
	char item[1024], msg[512];
	const char *s = profiles;
	unsigned int i;

	for (i = 0; !profiles && negcam_builtin_at(i); i++)
		if (add_case(l, negcam_builtin_at(i)->name))
			return -1;
	while (s && *s) {
		size_t len = strcspn(s, ",");

		snprintf(item, sizeof(item), "%.*s", (int)len, s);
		s += len + (s[len] == ',');
		if (!item[0])
			continue;
		if (add_item(l, item))
			return -1;
	}
	for (i = 0; i < l->n; i++)
		if (negcam_profile_load(l->cases[i].spec, &p, msg, sizeof(msg))) {
			fprintf(stderr, "negcam-run: %s\n", msg);
			return -1;
		}
	if (all_formats && l->n && expand_formats(l))
		return -1;
	if (!l->n)
		fprintf(stderr, "negcam-run: --profiles %s: no profile\n", profiles);
	return l->n ? 0 : -1;
}

/* ---- one case ---- */

static pid_t spawn(const struct nc_matrix *m, const struct mx_case *c, const char *dir)
{
	char path[1200], nodes[1400];
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	setpgid(0, 0);
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, 0);
	snprintf(path, sizeof(path), "%s/out", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	snprintf(path, sizeof(path), "%s/err", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	snprintf(nodes, sizeof(nodes), "%s=%s", m->node, c->spec);
	setenv("NEGCAM_RUN_NODES", nodes, 1);
	setenv("NEGCAM_RUN_RECORD", dir, 1);
	if (c->fourcc[0])
		setenv("NEGCAM_FORMAT", c->fourcc, 1);
	execvp(m->argv[0], m->argv);
	fprintf(stderr, "negcam-run: cannot run %s: %s\n", m->argv[0], strerror(errno));
	_exit(127);
}

/* Waits for @pid at most @timeout seconds, then stops its group; what
 * is left of the group when @pid has ended is killed too. */
static void wait_case(pid_t pid, unsigned int timeout, struct mx_case *c)
{
	double start = now_s(), kill_at = start + timeout;
	const struct timespec tick = {0, 10000000};
	int sig = SIGTERM;

	setpgid(pid, pid);
	running_pgid = pid;
	while (waitpid(pid, &c->status, WNOHANG) == 0) {
		if (now_s() >= kill_at) {
			c->timed_out = true;
			kill(-pid, sig);
			sig = SIGKILL;
			kill_at = now_s() + 2;
		}
		nanosleep(&tick, NULL);
	}
	kill(-pid, SIGKILL); /* what CMD left running in the background */
	running_pgid = 0;
	c->seconds = now_s() - start;
}

/* The last @cap bytes of @dir/@name, as a string. */
static char *read_tail(const char *dir, const char *name, size_t cap)
{
	char path[1200];
	FILE *f;
	char *buf = calloc(1, cap + 1);
	long size;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f && buf) {
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fseek(f, size > (long)cap ? size - (long)cap : 0, SEEK_SET);
		n = fread(buf, 1, cap, f);
		buf[n] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

/* Adds @r to @sum; the format is the one that went furthest, then the latest. */
static void add_record(struct nc_record *sum, const struct nc_record *r)
{
	unsigned int i;

	if (r->stage > sum->stage || (r->stage == sum->stage && r->when_ns > sum->when_ns)) {
		sum->stage = r->stage;
		sum->when_ns = r->when_ns;
		sum->pix = r->pix;
		sum->interval = r->interval;
	}
	sum->frames += r->frames;
	sum->einval += r->einval;
	sum->ebusy += r->ebusy;
	sum->enotty += r->enotty;
	sum->other += r->other;
	sum->requests += r->requests;
	sum->before_stream += r->before_stream;
	sum->foreign += r->foreign;
	for (i = 0; i < NC_REC_NR; i++) {
		sum->count[i] += r->count[i];
		sum->count_before[i] += r->count_before[i];
		if (r->request[i])
			sum->request[i] = r->request[i];
	}
}

/* Sums the records of node 0 in @dir's rec-* files, and removes @dir. */
static void collect_records(const char *dir, struct nc_record *sum)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct nc_record r;
	char path[1400];
	FILE *f;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = strncmp(e->d_name, "rec-", 4) ? NULL : fopen(path, "r");
		if (f && fread(&r, sizeof(r), 1, f) == 1 && r.magic == NC_REC_MAGIC && r.node == 0)
			add_record(sum, &r);
		if (f)
			fclose(f);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static bool failed(const struct mx_case *c)
{
	return c->timed_out || !WIFEXITED(c->status) || WEXITSTATUS(c->status);
}

static int run_case(const struct nc_matrix *m, struct mx_case *c, const char *tmp, unsigned int i)
{
	char dir[1100];
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/case-%u", tmp, i);
	if (mkdir(dir, 0700)) {
		fprintf(stderr, "negcam-run: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = spawn(m, c, dir);
	if (pid < 0) {
		fprintf(stderr, "negcam-run: fork: %s\n", strerror(errno));
		rmdir(dir);
		return -1;
	}
	wait_case(pid, m->timeout, c);
	c->out = read_tail(dir, "out", MX_TAIL_BYTES);
	c->err = read_tail(dir, "err", MX_TAIL_BYTES);
	collect_records(dir, &c->rec);
	return 0;
}

/* ---- the table ---- */

/* The exit column, one word: "0", "1", "SIGSEGV", "timeout" */
static void result_text(const struct mx_case *c, char *buf, size_t len)
{
	if (c->timed_out)
		snprintf(buf, len, "timeout");
	else if (WIFEXITED(c->status))
		snprintf(buf, len, "%d", WEXITSTATUS(c->status));
	else
		snprintf(buf, len, "SIG%s", sigabbrev_np(WTERMSIG(c->status)) ?: "?");
}

/* "YUYV 640x480 30fps none"; "-" when CMD never opened the node. */
static void format_text(const struct nc_record *r, char *buf, size_t len)
{
	const struct v4l2_fract *t = &r->interval;
	const char *field = negcam_field_name(r->pix.field);
	char cc[5], rate[32];

	if (r->stage == NC_REC_NONE) {
		snprintf(buf, len, "-");
		return;
	}
	if (!t->numerator)
		snprintf(rate, sizeof(rate), "?fps");
	else if (t->denominator % t->numerator == 0)
		snprintf(rate, sizeof(rate), "%ufps", t->denominator / t->numerator);
	else
		snprintf(rate, sizeof(rate), "%.2ffps", (double)t->denominator / t->numerator);
	snprintf(buf, len, "%s %ux%u %s %s", negcam_fourcc_str(r->pix.pixelformat, cc),
		 r->pix.width, r->pix.height, rate, field ? field : "?");
}

#define NR(req) _IOC_NR(req)

static void print_header(void)
{
	printf("%-*s %-7s %-28s %6s %6s %6s %6s %6s %7s %7s %6s %6s %6s\n", name_width, "profile",
	       "exit", "format", "TRY", "S_FMT", "G_FMT", "ENUM", "S_PARM", "setup", "frames", "EINVAL",
	       "EBUSY", "other");
}

static void print_row(const struct mx_case *c)
{
	const struct nc_record *r = &c->rec;
	char res[32], fmt[64];

	result_text(c, res, sizeof(res));
	format_text(r, fmt, sizeof(fmt));
	printf("%-*s %-7s %-28s %6u %6u %6u %6u %6u %7u %7llu %6u %6u %6u\n", name_width, c->name,
	       res, fmt,
	       r->count[NR(VIDIOC_TRY_FMT)], r->count[NR(VIDIOC_S_FMT)], r->count[NR(VIDIOC_G_FMT)],
	       r->count[NR(VIDIOC_ENUM_FMT)] + r->count[NR(VIDIOC_ENUM_FRAMESIZES)] +
		       r->count[NR(VIDIOC_ENUM_FRAMEINTERVALS)],
	       r->count[NR(VIDIOC_S_PARM)], r->before_stream, (unsigned long long)r->frames,
	       r->einval, r->ebusy, r->enotty + r->other);
}

/* "ENUM_FRAMEINTERVALS 146, ENUM_FRAMESIZES 22, ..." by count, then number. */
static void requests_text(const struct nc_record *r, const uint32_t *count, FILE *to)
{
	uint32_t done[NC_REC_NR] = {0};
	unsigned int i, best, k;

	for (k = 0;; k++) {
		for (best = NC_REC_NR, i = 0; i < NC_REC_NR; i++)
			if (count[i] && !done[i] && (best == NC_REC_NR || count[i] > count[best]))
				best = i;
		if (best == NC_REC_NR)
			break;
		done[best] = 1;
		fprintf(to, "%s%s %u", k ? ", " : "",
			negcam_ioctl_name(r->request[best]) +
				(sizeof("VIDIOC_") - 1) *
					!strncmp(negcam_ioctl_name(r->request[best]), "VIDIOC_", 7),
			count[best]);
	}
	if (!k)
		fprintf(to, "none");
}

static void print_requests(const struct mx_case *c, FILE *to)
{
	const struct nc_record *r = &c->rec;

	fprintf(to, "  %u before STREAMON: ", r->before_stream);
	requests_text(r, r->count_before, to);
	fprintf(to, "\n  %u in all: ", r->requests);
	requests_text(r, r->count, to);
	fprintf(to, "\n  errors: EINVAL %u, EBUSY %u, ENOTTY %u, other %u; other requests %u\n",
		r->einval, r->ebusy, r->enotty, r->other, r->foreign);
}

/* ---- JUnit XML ---- */

enum mx_escape {
	MX_XML_TEXT, /* XML character data */
	MX_XML_ATTR, /* an attribute's value: line breaks kept as references */
	MX_MD_CELL, /* a Markdown table cell: line breaks as spaces, '|' and
		     * Markdown's own punctuation behind a backslash */
};

/* @s as @how says: markup escaped, control characters and bytes that are
 * not UTF-8 replaced by '?', as XML 1.0 cannot carry them. */
static void escaped(FILE *to, const char *s, enum mx_escape how)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned int len = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1, i;

		for (i = 1; i < len && (p[i] & 0xc0) == 0x80; i++)
			;
		if (*p >= 0x80 && (i < len || *p < 0xc2 || *p > 0xf4)) {
			fputc('?', to);
			p++;
			continue;
		}
		if (*p == '<')
			fputs("&lt;", to);
		else if (*p == '>')
			fputs("&gt;", to);
		else if (*p == '&')
			fputs("&amp;", to);
		else if (*p == '"')
			fputs("&quot;", to);
		else if (how == MX_MD_CELL && strchr("\\|*_`[]", *p))
			fprintf(to, "\\%c", *p);
		else if ((*p == '\n' || *p == '\t' || *p == '\r') && how == MX_MD_CELL)
			fputc(' ', to);
		else if (*p == '\n' || *p == '\t')
			fprintf(to, how == MX_XML_ATTR ? "&#%d;" : "%c", *p);
		else if (*p == '\r')
			fputs("&#13;", to);
		else if (*p < 0x20 || *p == 0x7f)
			fputc('?', to);
		else
			fwrite(p, 1, len, to);
		p += len;
	}
}

static void xml_text(FILE *to, const char *s)
{
	escaped(to, s, MX_XML_TEXT);
}

static void xml_escaped(FILE *to, const char *s, bool attr)
{
	escaped(to, s, attr ? MX_XML_ATTR : MX_XML_TEXT);
}

/* The end of @err: the last MX_MESSAGE_BYTES, from a line start. */
static const char *message_of(const char *err)
{
	size_t len = strlen(err);
	const char *m = len > MX_MESSAGE_BYTES ? err + len - MX_MESSAGE_BYTES : err;
	const char *nl = m > err ? strchr(m, '\n') : NULL;

	return nl && nl[1] ? nl + 1 : m;
}

/* The application: --label, else CMD's file name. */
static const char *app_name(const struct nc_matrix *m)
{
	if (m->label)
		return m->label;
	return strrchr(m->argv[0], '/') ? strrchr(m->argv[0], '/') + 1 : m->argv[0];
}

static void junit_case(FILE *to, const struct nc_matrix *m, const struct mx_case *c)
{
	char res[32], fmt[64];
	const char *cmd = app_name(m);

	result_text(c, res, sizeof(res));
	format_text(&c->rec, fmt, sizeof(fmt));
	fprintf(to, "    <testcase classname=\"negcam-run.");
	xml_text(to, cmd);
	fprintf(to, "\" name=\"");
	xml_text(to, c->name);
	fprintf(to, "\" time=\"%.3f\">\n", c->seconds);
	if (failed(c)) {
		fprintf(to, "      <failure type=\"%s%s\" message=\"",
			WIFEXITED(c->status) && !c->timed_out ? "exit " : "", res);
		xml_escaped(to, message_of(c->err), true);
		fprintf(to, "\">");
		if (c->timed_out)
			fprintf(to, "killed after the %u s timeout\n", m->timeout);
		xml_text(to, message_of(c->err));
		fprintf(to, "</failure>\n");
	}
	fprintf(to, "      <system-out>profile %s: exit %s, format %s, %llu frames\n", c->name, res,
		fmt, (unsigned long long)c->rec.frames);
	print_requests(c, to);
	xml_text(to, c->out);
	fprintf(to, "</system-out>\n      <system-err>");
	xml_text(to, c->err);
	fprintf(to, "</system-err>\n    </testcase>\n");
}

/* @started: when the run began, ISO 8601 in UTC. */
static int write_junit(const struct nc_matrix *m, const struct mx_list *l, double seconds,
		       const char *started)
{
	FILE *to = fopen(m->junit, "w");
	unsigned int i, nfail = 0;
	char host[256] = "localhost";
	int ret;

	gethostname(host, sizeof(host) - 1);
	if (!to) {
		fprintf(stderr, "negcam-run: --junit %s: %s\n", m->junit, strerror(errno));
		return -1;
	}
	for (i = 0; i < l->n; i++)
		nfail += failed(&l->cases[i]);
	fprintf(to, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(to, "<testsuites tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\">\n", l->n,
		nfail, seconds);
	fprintf(to,
		"  <testsuite name=\"negcam-run --each-profile\" tests=\"%u\" failures=\"%u\" "
		"errors=\"0\" skipped=\"0\" time=\"%.3f\" timestamp=\"%s\" hostname=\"",
		l->n, nfail, seconds, started);
	xml_escaped(to, host, true);
	fprintf(to, "\">\n");
	for (i = 0; i < l->n; i++)
		junit_case(to, m, &l->cases[i]);
	fprintf(to, "  </testsuite>\n</testsuites>\n");
	ret = ferror(to) | fclose(to);
	if (ret)
		fprintf(stderr, "negcam-run: --junit %s: write failed\n", m->junit);
	return ret ? -1 : 0;
}

/* ---- Markdown ---- */

#define MX_MD_HEADER                                                                         \
	"| camera | application | result | format reached | setup | requests | frames | errors " \
	"| why it failed |"
#define MX_MD_WHY_BYTES 240 /* of stderr's end in the last column */

/* "0", or "3 EINVAL, 8 ENOTTY": the errors the device returned, by kind. */
static void errors_text(const struct nc_record *r, char *buf, size_t len)
{
	const unsigned int n[] = {r->einval, r->ebusy, r->enotty, r->other};
	const char *name[] = {"EINVAL", "EBUSY", "ENOTTY", "other"};
	size_t at = 0;
	unsigned int i;

	snprintf(buf, len, "0");
	for (i = 0; i < 4; i++)
		if (n[i] && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%u %s", at ? ", " : "", n[i],
					       name[i]);
}

/* The last two lines of @err that are not blank, joined by " / ", at most
 * MX_MD_WHY_BYTES (the end kept): what a failed case said last. */
static void why_text(const char *err, char *buf, size_t len)
{
	const char *from[2] = {"", ""}, *to[2] = {"", ""}, *p = err + strlen(err);
	size_t n = 0, all;

	while (n < 2 && p > err) {
		const char *end = p, *start;

		while (end > err && strchr(" \t\r\n", end[-1]))
			end--;
		for (start = end; start > err && start[-1] != '\n'; start--)
			;
		if (end > start) {
			from[n] = end - start > MX_MD_WHY_BYTES ? end - MX_MD_WHY_BYTES : start;
			to[n++] = end;
		}
		p = start;
	}
	snprintf(buf, len, "%.*s%s%.*s", (int)(to[1] - from[1]), from[1], n == 2 ? " / " : "",
		 (int)(to[0] - from[0]), from[0]);
	all = strlen(buf);
	if (all > MX_MD_WHY_BYTES)
		memmove(buf, buf + all - MX_MD_WHY_BYTES, MX_MD_WHY_BYTES + 1);
}

static void md_row(FILE *to, const struct nc_matrix *m, const struct mx_case *c)
{
	const struct nc_record *r = &c->rec;
	char res[32], fmt[64], errs[96], why[MX_MD_WHY_BYTES * 2 + 8] = "";

	result_text(c, res, sizeof(res));
	format_text(r, fmt, sizeof(fmt));
	errors_text(r, errs, sizeof(errs));
	if (c->timed_out)
		snprintf(why, sizeof(why), "killed after the %u s timeout", m->timeout);
	else if (failed(c))
		why_text(c->err, why, sizeof(why));
	fprintf(to, "| ");
	escaped(to, c->name, MX_MD_CELL);
	fprintf(to, " | ");
	escaped(to, app_name(m), MX_MD_CELL);
	fprintf(to, " | %s%s | %s | %u | %u | %llu | %s | ",
		!failed(c) ? "pass" : WIFEXITED(c->status) && !c->timed_out ? "exit " : "",
		failed(c) ? res : "", fmt,
		r->before_stream, r->requests, (unsigned long long)r->frames, errs);
	escaped(to, why, MX_MD_CELL);
	fprintf(to, " |\n");
}

/* Without --append, or when FILE is missing or empty: a new table. With
 * --append, FILE must start with the table's header: rows are added. */
static FILE *md_open(const struct nc_matrix *m)
{
	char first[sizeof(MX_MD_HEADER) + 2] = "";
	FILE *f = m->append ? fopen(m->markdown, "r") : NULL;
	bool fresh = true;

	if (f) {
		fresh = !fgets(first, sizeof(first), f);
		fclose(f);
		first[strcspn(first, "\n")] = '\0';
		if (!fresh && strcmp(first, MX_MD_HEADER)) {
			fprintf(stderr, "negcam-run: --markdown %s --append: its first line is not the "
					"header of negcam-run's table, so rows cannot be added to it\n",
				m->markdown);
			return NULL;
		}
	}
	f = fopen(m->markdown, fresh ? "w" : "a");
	if (!f)
		fprintf(stderr, "negcam-run: --markdown %s: %s\n", m->markdown, strerror(errno));
	else if (fresh)
		fprintf(f, "%s\n|---|---|---|---|--:|--:|--:|---|---|\n", MX_MD_HEADER);
	return f;
}

static int write_markdown(const struct nc_matrix *m, const struct mx_list *l)
{
	FILE *to = md_open(m);
	unsigned int i;
	int ret;

	if (!to)
		return -1;
	for (i = 0; i < l->n; i++)
		md_row(to, m, &l->cases[i]);
	ret = ferror(to) | fclose(to);
	if (ret)
		fprintf(stderr, "negcam-run: --markdown %s: write failed\n", m->markdown);
	return ret ? -1 : 0;
}

/* ---- the run ---- */

static int run_all(const struct nc_matrix *m, struct mx_list *l, unsigned int *nfail)
{
	char tmp[1024];
	const char *base = getenv("TMPDIR");
	unsigned int i;

	snprintf(tmp, sizeof(tmp), "%s/negcam-run-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "negcam-run: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	for (i = 0; i < l->n; i++)
		if ((int)strlen(l->cases[i].name) > name_width)
			name_width = (int)strlen(l->cases[i].name);
	print_header();
	for (i = 0; i < l->n; i++) {
		struct mx_case *c = &l->cases[i];

		if (run_case(m, c, tmp, i))
			break;
		print_row(c);
		if (m->requests)
			print_requests(c, stdout);
		fflush(stdout);
		if (failed(c)) {
			(*nfail)++;
			fprintf(stderr, "negcam-run: %s failed:\n%s", c->name, message_of(c->err));
		}
	}
	rmdir(tmp);
	return i == l->n ? 0 : -1;
}

int nc_matrix_run(const struct nc_matrix *m)
{
	struct mx_list l = {0};
	unsigned int nfail = 0, i;
	double start = now_s();
	time_t wall = time(NULL);
	char started[32];
	struct tm tm;
	int ret = collect(m->profiles, m->all_formats, &l) ? 2 : 0;

	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%S", gmtime_r(&wall, &tm));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (!ret && run_all(m, &l, &nfail))
		ret = 2;
	if (!ret && m->junit && write_junit(m, &l, now_s() - start, started))
		ret = 2;
	if (!ret && m->markdown && write_markdown(m, &l))
		ret = 2;
	if (!ret) {
		fprintf(stderr, "negcam-run: %u profile%s, %u passed, %u failed\n", l.n,
			l.n == 1 ? "" : "s", l.n - nfail, nfail);
		ret = nfail ? 1 : 0;
	}
	for (i = 0; i < l.n; i++) {
		free(l.cases[i].out);
		free(l.cases[i].err);
	}
	free(l.cases);
	return ret;
}
