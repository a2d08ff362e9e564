// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-ctl as a user runs it: a subprocess, its stdout, stderr and exit
 * status. Expected output is derived from the engine itself (linked in
 * here), never typed in: the listing of every built-in profile must be
 * what v4l2-ctl 1.22.1 would print for a device answering as the engine
 * does, line for line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine.h"
#include "formats.h"
#include "profile.h"

#ifndef NEGCAM_CTL
#error "NEGCAM_CTL must name the negcam-ctl binary"
#endif

struct run {
	int status; /* exit status, or 128 + signal */
	char *out, *err;
};

/* A growing string. */
struct buf {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		b->cap = b->cap ? b->cap * 2 + (size_t)n : 4096 + (size_t)n;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

static char *slurp_fd(int fd)
{
	struct buf b = { 0 };
	char chunk[4096];
	ssize_t n;

	bprintf(&b, "%s", "");
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		bprintf(&b, "%.*s", (int)n, chunk);
	return b.s;
}

static int tmpfd(void)
{
	char name[] = "/tmp/negcam-test-ctl-XXXXXX";
	int fd = mkstemp(name);

	if (fd < 0) {
		perror("mkstemp");
		exit(2);
	}
	unlink(name);
	return fd;
}

/*
 * Runs @prog (a path, or a name looked up in PATH) with a NULL-terminated
 * argument list; @in feeds stdin; @env is NULL or NAME=VALUE strings to
 * add; @merged sends stderr into stdout, as a terminal would show them.
 */
static struct run run_prog(const char *prog, const char *const *env, bool merged,
			   const char *in, const char *const *args)
{
	const char *argv[64];
	struct run r = { 0 };
	int ofd = tmpfd(), efd = tmpfd(), ifd = tmpfd();
	unsigned int n = 0;
	pid_t pid;
	int st;

	argv[n++] = prog;
	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (in && write(ifd, in, strlen(in)) != (ssize_t)strlen(in))
		exit(2);
	lseek(ifd, 0, SEEK_SET);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		while (env && *env)
			putenv((char *)*env++);
		dup2(ifd, 0);
		dup2(ofd, 1);
		dup2(merged ? ofd : efd, 2);
		execvp(prog, (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = slurp_fd(ofd);
	r.err = slurp_fd(efd);
	close(ofd);
	close(efd);
	close(ifd);
	return r;
}

static struct run run_ctlv(const char *in, const char *const *args)
{
	return run_prog(NEGCAM_CTL, NULL, false, in, args);
}

#define run_ctl(...) run_ctlv(NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The first line of @text that starts with @prefix, or NULL. */
static const char *find_line(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static unsigned int count_lines(const char *text, const char *prefix)
{
	unsigned int n = 0;
	const char *p = text;

	while ((p = find_line(p, prefix))) {
		n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

/* Prints the first differing line of two texts, to make a failure readable. */
static void show_diff(const char *want, const char *got)
{
	unsigned int line = 1;

	while (*want && *want == *got) {
		if (*want == '\n')
			line++;
		want++;
		got++;
	}
	fprintf(stderr, "  first difference at line %u:\n  want: %.80s\n  got:  %.80s\n", line,
		want, got);
}

static struct negcam_profile *load_builtin(const struct negcam_builtin *b)
{
	struct negcam_profile *p = calloc(1, sizeof(*p));
	struct negcam_parse_error err;

	if (!p)
		abort();
	if (negcam_profile_parse(p, b->text, (__u32)strlen(b->text), &err)) {
		fprintf(stderr, "built-in %s: %u:%u: %s\n", b->name, err.line, err.column,
			err.message);
		free(p);
		return NULL;
	}
	return p;
}

static const char *fcc(__u32 f, char b[8])
{
	return negcam_fourcc_str(f, b);
}

/* v4l2-ctl's fmtdesc flags as negcam's formats can carry them. */
static void expect_flags(struct buf *b, __u32 flags)
{
	const char *sep = ", ";

	if (flags & V4L2_FMT_FLAG_COMPRESSED) {
		bprintf(b, "%scompressed", sep);
		sep = ", ";
		flags &= ~V4L2_FMT_FLAG_COMPRESSED;
	}
	if (flags & V4L2_FMT_FLAG_EMULATED) {
		bprintf(b, "%semulated", sep);
		flags &= ~V4L2_FMT_FLAG_EMULATED;
	}
	if (flags)
		bprintf(b, "%s0x%08x", sep, flags);
}

struct counts {
	unsigned int formats, sizes, intervals;
};

/*
 * The listing v4l2-ctl 1.22.1 prints for a device answering as @e does,
 * written from the v4l2-ctl source's format strings, and the counts.
 */
static void expected_listing(struct negcam_engine *e, struct buf *b, struct counts *c)
{
	struct v4l2_fmtdesc fd;
	char f4[8];

	memset(c, 0, sizeof(*c));
	bprintf(b, "ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n");
	for (memset(&fd, 0, sizeof(fd)), fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	     !negcam_engine_ioctl(e, VIDIOC_ENUM_FMT, &fd); fd.index++) {
		struct v4l2_frmsizeenum fs;

		c->formats++;
		bprintf(b, "\t[%u]: '%s' (%s", fd.index, fcc(fd.pixelformat, f4),
			(const char *)fd.description);
		if (fd.flags)
			expect_flags(b, fd.flags);
		bprintf(b, ")\n");
		for (memset(&fs, 0, sizeof(fs)), fs.pixel_format = fd.pixelformat;
		     !negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMESIZES, &fs); fs.index++) {
			struct v4l2_frmivalenum fi;

			c->sizes++;
			if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
				bprintf(b, "\t\tSize: Discrete %ux%u\n", fs.discrete.width,
					fs.discrete.height);
			} else {
				bprintf(b, "\t\tSize: %s %ux%u - %ux%u",
					fs.type == V4L2_FRMSIZE_TYPE_STEPWISE ? "Stepwise" : "Continuous",
					fs.stepwise.min_width, fs.stepwise.min_height,
					fs.stepwise.max_width, fs.stepwise.max_height);
				if (fs.type == V4L2_FRMSIZE_TYPE_STEPWISE)
					bprintf(b, " with step %u/%u", fs.stepwise.step_width,
						fs.stepwise.step_height);
				bprintf(b, "\n");
				continue; /* v4l2-ctl lists intervals of discrete sizes only */
			}
			for (memset(&fi, 0, sizeof(fi)), fi.pixel_format = fd.pixelformat,
			     fi.width = fs.discrete.width, fi.height = fs.discrete.height;
			     !negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMEINTERVALS, &fi); fi.index++) {
				const struct v4l2_fract *mn = &fi.stepwise.min, *mx = &fi.stepwise.max;

				c->intervals++;
				if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
					bprintf(b, "\t\t\tInterval: Discrete %.3fs (%.3f fps)\n",
						(double)fi.discrete.numerator / fi.discrete.denominator,
						(double)fi.discrete.denominator / fi.discrete.numerator);
					continue;
				}
				bprintf(b, "\t\t\tInterval: %s %.3fs - %.3fs",
					fi.type == V4L2_FRMIVAL_TYPE_STEPWISE ? "Stepwise" : "Continuous",
					(double)mn->numerator / mn->denominator,
					(double)mx->numerator / mx->denominator);
				if (fi.type == V4L2_FRMIVAL_TYPE_STEPWISE)
					bprintf(b, " with step %.3fs",
						(double)fi.stepwise.step.numerator /
							fi.stepwise.step.denominator);
				bprintf(b, " (%.3f-%.3f fps)\n",
					(double)mx->denominator / mx->numerator,
					(double)mn->denominator / mn->numerator);
				if (fi.index > 10000)
					break;
			}
			if (fs.index > 10000)
				break;
		}
		if (fd.index > 1000)
			break;
	}
}

static void test_listing(const struct negcam_builtin *b, struct negcam_profile *p)
{
	struct negcam_engine e;
	struct buf want = { 0 };
	struct counts c;
	struct run r;

	negcam_engine_init(&e, p);
	expected_listing(&e, &want, &c);
	r = run_ctl("--profile", b->name, "--list-formats-ext");
	CHECK_EQ(r.status, 0, "%s: --list-formats-ext exit status (stderr: %s)", b->name, r.err);
	CHECK(c.formats > 0, "%s: the engine enumerates formats", b->name);
	CHECK(!strcmp(r.out, want.s), "%s: listing is v4l2-ctl's layout of the engine's answers",
	      b->name);
	if (strcmp(r.out, want.s))
		show_diff(want.s, r.out);
	/* The same counts, seen from the text alone. */
	CHECK_EQ(count_lines(r.out, "\t["), c.formats, "%s: format lines", b->name);
	CHECK_EQ(count_lines(r.out, "\t\tSize: "), c.sizes, "%s: size lines", b->name);
	CHECK_EQ(count_lines(r.out, "\t\t\tInterval: "), c.intervals, "%s: interval lines",
		 b->name);
	CHECK(starts_with(r.out, "ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n\t[0]: '"),
	      "%s: header lines", b->name);
	run_free(&r);

	/* --list-formats: the same format lines, no sizes. */
	r = run_ctl("--profile", b->name, "--list-formats");
	CHECK_EQ(r.status, 0, "%s: --list-formats", b->name);
	CHECK_EQ(count_lines(r.out, "\t["), c.formats, "%s: --list-formats lines", b->name);
	CHECK_EQ(count_lines(r.out, "\t\tSize"), 0, "%s: --list-formats has no sizes", b->name);
	run_free(&r);
	free(want.s);
}

/* Reads "\tWidth/Height      : W/H" and the fourcc from a format block. */
static int parse_fmt_block(const char *out, __u32 *w, __u32 *h, char f4[5])
{
	const char *l = find_line(out, "\tWidth/Height      : ");
	const char *pf = find_line(out, "\tPixel Format      : '");

	if (!l || !pf || sscanf(l, "\tWidth/Height      : %u/%u", w, h) != 2)
		return -1;
	memcpy(f4, pf + strlen("\tPixel Format      : '"), 4);
	f4[4] = '\0';
	return 0;
}

/* The largest (by area) size the engine enumerates for @fourcc. */
static int largest_size(struct negcam_engine *e, __u32 fourcc, __u32 *w, __u32 *h)
{
	struct v4l2_frmsizeenum fs;
	unsigned long long best = 0;

	for (memset(&fs, 0, sizeof(fs)), fs.pixel_format = fourcc;
	     !negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMESIZES, &fs) && fs.index < 10000; fs.index++) {
		__u32 fw = fs.type == V4L2_FRMSIZE_TYPE_DISCRETE ? fs.discrete.width
								 : fs.stepwise.max_width;
		__u32 fh = fs.type == V4L2_FRMSIZE_TYPE_DISCRETE ? fs.discrete.height
								 : fs.stepwise.max_height;

		if ((unsigned long long)fw * fh > best) {
			best = (unsigned long long)fw * fh;
			*w = fw;
			*h = fh;
		}
	}
	return best ? 0 : -1;
}

static void test_try_fmt_webcam(struct negcam_profile *p)
{
	struct negcam_engine e;
	struct v4l2_format g;
	__u32 w = 0, h = 0, gw, gh;
	char f4[5], def4[8];
	struct run r;

	negcam_engine_init(&e, p);
	CHECK(!largest_size(&e, V4L2_PIX_FMT_YUYV, &w, &h), "webcam offers YUYV sizes");
	r = run_ctl("--profile", "webcam", "--try-fmt",
		    "width=100000,height=100000,pixelformat=YUYV");
	CHECK_EQ(r.status, 0, "oversize --try-fmt succeeds (stderr: %s)", r.err);
	CHECK(!parse_fmt_block(r.out, &gw, &gh, f4), "--try-fmt prints a format block: %s", r.out);
	CHECK(!strcmp(f4, "YUYV"), "oversize TRY keeps YUYV, got %s", f4);
	CHECK_EQ(gw, w, "oversize TRY answers the largest YUYV width");
	CHECK_EQ(gh, h, "oversize TRY answers the largest YUYV height");
	CHECK(starts_with(r.out, "Format Video Capture:\n\tWidth/Height      : "),
	      "v4l2-ctl's format block layout");
	CHECK(find_line(r.out, "\tField             : None"), "progressive webcam: field None");
	CHECK(find_line(r.out, "\tPixel Format      : 'YUYV' ("), "format name from ENUM_FMT");
	CHECK(find_line(r.out, "\tBytes per Line    : ") && find_line(r.out, "\tSize Image        : ") &&
	      find_line(r.out, "\tColorspace        : ") &&
	      find_line(r.out, "\tTransfer Function : ") &&
	      find_line(r.out, "\tYCbCr/HSV Encoding: ") &&
	      find_line(r.out, "\tQuantization      : ") && find_line(r.out, "\tFlags             : "),
	      "every line of the format block");
	run_free(&r);

	/* Unknown fourcc: today's rule answers the default format. */
	memset(&g, 0, sizeof(g));
	g.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK_EQ(negcam_engine_ioctl(&e, VIDIOC_G_FMT, &g), 0, "engine G_FMT");
	negcam_fourcc_str(p->def[NC_CAPTURE].fourcc, def4);
	r = run_ctl("--profile", "webcam", "--try-fmt", "width=640,height=480,pixelformat=XXXX");
	CHECK_EQ(r.status, 0, "unknown fourcc is not an error on webcam (stderr: %s)", r.err);
	CHECK(!parse_fmt_block(r.out, &gw, &gh, f4), "format block");
	CHECK(!strcmp(f4, def4), "unknown fourcc answers the default %s, got %s", def4, f4);
	run_free(&r);

	/* The same through a format index, as v4l2-ctl allows. */
	r = run_ctl("--profile", "webcam", "--try-fmt", "pixelformat=0");
	CHECK_EQ(r.status, 0, "pixelformat=0 is ENUM_FMT index 0");
	run_free(&r);
	r = run_ctl("--profile", "webcam", "--try-fmt", "pixelformat=200");
	CHECK_EQ(r.status, 1, "pixelformat index past the end fails");
	CHECK(strstr(r.err, "index 200") != NULL, "says which index: %s", r.err);
	run_free(&r);
}

static void test_tv_tuner_quirk(struct negcam_profile *p)
{
	struct run r;

	CHECK(p->quirks & NC_QUIRK_LEGACY_EINVAL, "tv-tuner has the 2007 quirk");
	r = run_ctl("--profile", "tv-tuner", "--try-fmt", "width=720,height=576,pixelformat=XXXX");
	CHECK_EQ(r.status, 1, "2007 quirk: unknown fourcc fails");
	CHECK(strstr(r.err, "VIDIOC_TRY_FMT: failed: Invalid argument "
			    "(2007 quirk: unknown fourcc 'XXXX')") != NULL,
	      "error names the ioctl, errno and quirk: %s", r.err);
	CHECK(!find_line(r.out, "Format Video Capture:"), "no format printed on failure");
	run_free(&r);

	/* A field the format cannot deliver (progressive, for this interlaced card). */
	{
		const struct negcam_format *f = &p->formats[0];
		bool offers_none = false;
		unsigned int i;

		for (i = 0; i < f->nfields; i++)
			offers_none |= f->fields[i] == V4L2_FIELD_NONE;
		r = run_ctl("--profile", "tv-tuner", "--try-fmt", "field=none");
		CHECK_EQ(r.status, offers_none ? 0 : 1, "2007 quirk: field none");
		if (!offers_none)
			CHECK(strstr(r.err, "VIDIOC_TRY_FMT: failed: Invalid argument (2007 quirk: "
					    "field none is not offered by") != NULL,
			      "field error explained: %s", r.err);
		run_free(&r);
	}

	/* S_FMT too, and the engine's state is unchanged afterwards. */
	r = run_ctl("--profile", "tv-tuner", "--get-fmt", "--set-fmt", "pixelformat=XXXX",
		    "--get-fmt");
	CHECK_EQ(r.status, 1, "2007 quirk: S_FMT with unknown fourcc fails");
	CHECK(strstr(r.err, "VIDIOC_S_FMT: failed: Invalid argument (2007 quirk") != NULL,
	      "S_FMT error: %s", r.err);
	CHECK_EQ(count_lines(r.out, "Format Video Capture:"), 2, "two G_FMT blocks");
	{
		const char *second = strstr(r.out + 1, "Format Video Capture:");

		CHECK(second && !strncmp(r.out, second, (size_t)(second - r.out)),
		      "failed S_FMT left the format unchanged");
	}
	run_free(&r);
}

static void test_set_then_get(const struct negcam_builtin *b, struct negcam_profile *p)
{
	struct v4l2_fmtdesc fd;
	char arg[128], f4[8], got4[5];
	__u32 w, h, gw, gh;
	const char *second;
	struct run r;

	/*
	 * The last capture format and its last size, from the profile itself
	 * (a quirk may hide ENUM_FRAMESIZES): rarely the default.
	 */
	const struct negcam_format *last = NULL;
	const struct negcam_size *sz;
	unsigned int i;

	for (i = 0; i < p->nformats; i++)
		if (p->formats[i].buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
			last = &p->formats[i];
	if (!last || !last->size_count) {
		CHECK(0, "%s: no capture format with sizes", b->name);
		return;
	}
	sz = &p->sizes[last->size_first + last->size_count - 1];
	/* Stepwise: the maximum is always a valid size. */
	w = sz->max_w ? sz->max_w : sz->min_w;
	h = sz->max_h ? sz->max_h : sz->min_h;
	fd.pixelformat = last->fourcc;
	snprintf(arg, sizeof(arg), "width=%u,height=%u,pixelformat=%s", w, h,
		 negcam_fourcc_str(fd.pixelformat, f4));
	r = run_ctl("--profile", b->name, "--set-fmt", arg, "--get-fmt");
	CHECK_EQ(r.status, 0, "%s: --set-fmt %s --get-fmt (stderr: %s)", b->name, arg, r.err);
	CHECK_EQ(count_lines(r.out, "Format Video Capture:"), 2, "%s: S and G blocks", b->name);
	second = strstr(r.out + 1, "Format Video Capture:");
	CHECK(second && strlen(second) == (size_t)(second - r.out) &&
	      !strncmp(r.out, second, strlen(second)),
	      "%s: G_FMT after S_FMT prints what S_FMT answered:\n%s", b->name, r.out);
	CHECK(second && !parse_fmt_block(second, &gw, &gh, got4) && gw == w && gh == h &&
	      !strcmp(got4, f4), "%s: G_FMT shows %s", b->name, arg);
	run_free(&r);

	/* Busy queue: S_FMT is EBUSY and nothing changes. */
	r = run_ctl("--profile", b->name, "--busy", "--set-fmt", arg, "--idle", "--get-fmt");
	CHECK_EQ(r.status, 1, "%s: S_FMT while busy fails", b->name);
	CHECK(strstr(r.err, "VIDIOC_S_FMT: failed: Device or resource busy") != NULL,
	      "%s: EBUSY reported: %s", b->name, r.err);
	run_free(&r);
}

static void test_parm(struct negcam_profile *p)
{
	struct negcam_engine e;
	struct v4l2_streamparm sp;
	struct run r;
	char want[128];

	/* Whatever the engine snaps 1000/15000 to, negcam-ctl must print it. */
	negcam_engine_init(&e, p);
	memset(&sp, 0, sizeof(sp));
	sp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp.parm.capture.timeperframe.numerator = 1000;
	sp.parm.capture.timeperframe.denominator = 15000;
	if (negcam_engine_ioctl(&e, VIDIOC_S_PARM, &sp)) {
		CHECK(0, "webcam S_PARM 15 fps");
		return;
	}
	snprintf(want, sizeof(want), "Frame rate set to %.3f fps\n",
		 (double)sp.parm.capture.timeperframe.denominator /
			 sp.parm.capture.timeperframe.numerator);
	r = run_ctl("--profile", "webcam", "--set-parm", "15", "--get-parm");
	CHECK_EQ(r.status, 0, "--set-parm 15 --get-parm (stderr: %s)", r.err);
	CHECK(!strncmp(r.out, want, strlen(want)), "prints '%s', got '%s'", want, r.out);
	CHECK(find_line(r.out, "Streaming Parameters Video Capture:"), "G_PARM block");
	snprintf(want, sizeof(want), "\tFrames per second: %.3f (%u/%u)",
		 (double)sp.parm.capture.timeperframe.denominator /
			 sp.parm.capture.timeperframe.numerator,
		 sp.parm.capture.timeperframe.denominator, sp.parm.capture.timeperframe.numerator);
	CHECK(find_line(r.out, want), "G_PARM after S_PARM shows %s:\n%s", want, r.out);
	run_free(&r);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static void test_files(void)
{
	const struct negcam_builtin *b = negcam_builtin_at(0);
	static const char *const bad[] = {
		"this is not a profile\n",
		"\x01\x02\x03",
	};
	char dir[] = "/tmp/negcam-test-ctl-dir-XXXXXX", path[128], want[512];
	struct negcam_parse_error err;
	struct negcam_profile *p = calloc(1, sizeof(*p));
	unsigned int i;
	struct run r;

	if (!p || !mkdtemp(dir))
		exit(2);

	/* A good file: a built-in profile's text. */
	snprintf(path, sizeof(path), "%s/good.profile", dir);
	write_file(path, b->text);
	r = run_ctl("--validate", path);
	snprintf(want, sizeof(want), "%s: ok\n", path);
	CHECK_EQ(r.status, 0, "--validate good file (stderr: %s)", r.err);
	CHECK(!strcmp(r.out, want), "prints '%s', got '%s'", want, r.out);
	run_free(&r);
	r = run_ctl("--profile", path, "--list-formats-ext");
	CHECK_EQ(r.status, 0, "--profile FILE");
	{
		struct run r2 = run_ctl("--profile", b->name, "--list-formats-ext");

		CHECK(!strcmp(r.out, r2.out), "a file with %s's text lists as %s does", b->name,
		      b->name);
		run_free(&r2);
	}
	run_free(&r);

	/* Bad files: exactly the parser's FILE:LINE:COL: message, exit 1. */
	for (i = 0; i < NC_ARRAY_SIZE(bad); i++) {
		snprintf(path, sizeof(path), "%s/bad%u.profile", dir, i);
		write_file(path, bad[i]);
		memset(&err, 0, sizeof(err));
		CHECK(negcam_profile_parse(p, bad[i], (__u32)strlen(bad[i]), &err) != 0,
		      "bad profile %u rejected by the parser", i);
		snprintf(want, sizeof(want), "%s:%u:%u: %s\n", path, err.line, err.column,
			 err.message);
		r = run_ctl("--validate", path);
		CHECK_EQ(r.status, 1, "--validate bad file %u", i);
		CHECK(!strcmp(r.err, want), "want '%s', got '%s'", want, r.err);
		CHECK(err.line >= 1 && err.column >= 1, "line and column are 1-based");
		run_free(&r);
		r = run_ctl("--profile", path, "--get-fmt");
		CHECK_EQ(r.status, 1, "--profile bad file %u", i);
		CHECK(!strcmp(r.err, want), "want '%s', got '%s'", want, r.err);
		CHECK(!*r.out, "nothing printed from a bad profile");
		run_free(&r);
	}

	/* A malformed line in the middle of a good profile: its line number. */
	{
		struct buf t = { 0 };
		const char *nl = strchr(b->text, '\n');

		bprintf(&t, "%.*s\n@@@ garbage\n%s", (int)(nl - b->text), b->text, nl + 1);
		snprintf(path, sizeof(path), "%s/mid.profile", dir);
		write_file(path, t.s);
		r = run_ctl("--validate", path);
		snprintf(want, sizeof(want), "%s:2:", path);
		CHECK_EQ(r.status, 1, "garbage on line 2");
		CHECK(!strncmp(r.err, want, strlen(want)), "reported at line 2: %s", r.err);
		run_free(&r);
		free(t.s);
	}

	/* Standard input. */
	r = run_ctlv(b->text, (const char *const[]){ "--validate", "-", NULL });
	CHECK_EQ(r.status, 0, "--validate - reads stdin");
	CHECK(!strcmp(r.out, "<stdin>: ok\n"), "stdin labelled: %s", r.out);
	run_free(&r);

	/* Unreadable files: strerror. */
	snprintf(path, sizeof(path), "%s/missing.profile", dir);
	r = run_ctl("--validate", path);
	CHECK_EQ(r.status, 1, "--validate missing file");
	CHECK(strstr(r.err, path) && strstr(r.err, strerror(ENOENT)), "names file and errno: %s",
	      r.err);
	run_free(&r);
	r = run_ctl("--profile", path, "--list-formats-ext");
	CHECK_EQ(r.status, 1, "--profile missing file");
	CHECK(strstr(r.err, "not a built-in profile") && strstr(r.err, strerror(ENOENT)),
	      "says neither built-in nor readable: %s", r.err);
	run_free(&r);
	r = run_ctl("--profile", dir, "--list-formats-ext");
	CHECK_EQ(r.status, 1, "--profile on a directory");
	CHECK(strstr(r.err, strerror(EISDIR)) != NULL, "directory: %s", r.err);
	run_free(&r);

	for (i = 0; i < NC_ARRAY_SIZE(bad); i++) {
		snprintf(path, sizeof(path), "%s/bad%u.profile", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/good.profile", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/mid.profile", dir);
	unlink(path);
	rmdir(dir);
	free(p);
}

static void expect_usage_error(const char *what, int status, const char *needle, struct run r)
{
	CHECK_EQ(r.status, status, "%s: exit status", what);
	CHECK(strstr(r.err, needle) != NULL, "%s: message mentions '%s': %s", what, needle, r.err);
	CHECK(!*r.out, "%s: nothing on stdout: %s", what, r.out);
	run_free(&r);
}

static void test_bad_command_lines(void)
{
	expect_usage_error("unknown option", 2, "unknown option '--frobnicate'",
			   run_ctl("--frobnicate"));
	expect_usage_error("missing value", 2, "needs a value", run_ctl("--try-fmt"));
	expect_usage_error("no '='", 2, "'width' has no value", run_ctl("--try-fmt", "width"));
	expect_usage_error("unknown key", 2, "unknown key 'colour'",
			   run_ctl("--try-fmt", "colour=red"));
	expect_usage_error("bad number", 2, "width=12x is not",
			   run_ctl("--set-fmt", "width=12x,height=4"));
	expect_usage_error("bad fourcc", 2, "pixelformat 'YUYVY'",
			   run_ctl("--try-fmt", "pixelformat=YUYVY"));
	expect_usage_error("bad field", 2, "unknown field 'sideways'",
			   run_ctl("--try-fmt", "field=sideways"));
	expect_usage_error("bad fps", 2, "'fast' is not a frame rate",
			   run_ctl("--set-parm", "fast"));
	expect_usage_error("stray argument", 2, "unexpected argument 'webcam'",
			   run_ctl("--list-formats-ext", "webcam"));
	expect_usage_error("profile twice", 2, "--profile given twice",
			   run_ctl("--profile", "vga", "--profile", "webcam"));
	/* The whole command line is checked before anything runs. */
	expect_usage_error("late error", 2, "unknown key", run_ctl("--list-formats-ext",
								     "--try-fmt", "bogus=1"));
	expect_usage_error("unknown profile", 1, "not a built-in profile",
			   run_ctl("--profile", "no-such-camera", "--get-fmt"));
	expect_usage_error("unknown --show-profile", 1, "no built-in or shelf profile 'nope'",
			   run_ctl("--show-profile", "nope"));
	{
		struct run r = run_ctl(NULL);

		CHECK_EQ(r.status, 2, "no arguments: usage, exit 2");
		CHECK(strstr(r.err, "Usage:") != NULL, "usage on stderr");
		run_free(&r);
		r = run_ctl("--help");
		CHECK_EQ(r.status, 0, "--help exit 0");
		CHECK(strstr(r.out, "--list-formats-ext") != NULL, "--help lists the options");
		run_free(&r);
	}
}

static void test_profiles_listing(void)
{
	const struct negcam_builtin *b;
	unsigned int i;
	struct run r = run_ctl("--list-profiles");

	CHECK_EQ(r.status, 0, "--list-profiles");
	for (i = 0; (b = negcam_builtin_at(i)); i++) {
		char want[128];

		snprintf(want, sizeof(want), "%s ", b->name);
		CHECK(find_line(r.out, want), "--list-profiles lists %s", b->name);
		{
			struct run s = run_ctl("--show-profile", b->name);

			CHECK_EQ(s.status, 0, "--show-profile %s", b->name);
			CHECK(!strncmp(s.out, b->text, strlen(b->text)),
			      "--show-profile %s prints the built-in text", b->name);
			run_free(&s);
		}
	}
	{
		/* the built-ins, one a line, end at the blank line before the shelf */
		char *blank = strstr(r.out, "\n\n");

		if (blank)
			blank[1] = '\0';
		CHECK_EQ(count_lines(r.out, ""), i, "one line per built-in profile");
		CHECK(blank && strstr(blank + 2, "camera shelf, ") == blank + 2,
		      "then the camera shelf: %s", blank ? blank + 2 : "(no blank line)");
	}
	CHECK(i >= 4, "at least webcam, vga, stepwise, tv-tuner");
	run_free(&r);
}

static void test_default_profile(void)
{
	struct run a = run_ctl("--list-formats-ext");
	struct run b = run_ctl("--profile", "webcam", "--list-formats-ext");

	CHECK_EQ(a.status, 0, "default profile");
	CHECK(!strcmp(a.out, b.out), "the default profile is webcam");
	run_free(&a);
	run_free(&b);
}

static void test_order(void)
{
	struct run r = run_ctl("--profile", "webcam", "--get-fmt", "--list-formats",
			       "--get-parm");
	const char *g = strstr(r.out, "Format Video Capture:");
	const char *l = strstr(r.out, "ioctl: VIDIOC_ENUM_FMT");
	const char *p = strstr(r.out, "Streaming Parameters");

	CHECK_EQ(r.status, 0, "three options");
	CHECK(g && l && p && g < l && l < p, "options act in the order given");
	run_free(&r);
}

/*
 * The reference: the real v4l2-ctl, its open/ioctl calls routed to an
 * in-process engine by libnegcam-preload.so (negcam-run's library, built
 * once by meson; docs/negcam-run.md), must print what negcam-ctl prints
 * for the same options, byte for byte. The one difference allowed:
 * negcam-ctl adds "(why)" to a failure line, and sends unknown fourccs to
 * the engine where v4l2-ctl refuses them (not compared here). v4l2-ctl
 * runs all sets before all gets, so each command line below puts its sets
 * first. The node is /dev/negcam-test/video0, a path no real device has
 * (v4l2-ctl wants a basename video*).
 */
static bool find_preload(char *so, size_t len)
{
	bool ok;

	snprintf(so, len, "%s", NEGCAM_PRELOAD);
	ok = access(so, R_OK) == 0;
	CHECK(ok, "libnegcam-preload.so is built: %s", so);
	return ok;
}

/* The environment that gives a program /dev/negcam-test/video0 on @profile. */
static void node_env(const char *so, const char *profile, char *preload, size_t plen,
		     char *nodes, size_t nlen)
{
	snprintf(preload, plen, "LD_PRELOAD=%s", so);
	snprintf(nodes, nlen, "NEGCAM_RUN_NODES=/dev/negcam-test/video0=%s", profile);
}

/* Drops negcam-ctl's " (explanation)" from "VIDIOC_...: failed: ..." lines. */
static void strip_explanations(char *text)
{
	char *line = text, *out = text;

	while (*line) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char *paren;

		memmove(out, line, n);
		out[n] = '\0';
		if (strstr(out, ": failed: ") && n && out[n - 1] == ')' &&
		    (paren = strstr(out, " (")))
			n = (size_t)(paren - out);
		out += n;
		if (nl)
			*out++ = '\n';
		line = nl ? nl + 1 : line + n;
		if (!nl)
			break;
	}
	*out = '\0';
}

static void compare_with_v4l2ctl(const char *so, const char *profile, const char *const *args)
{
	char preload[600], prof[300];
	const char *env[] = { preload, prof, NULL };
	const char *vargs[40] = { "-d", "/dev/negcam-test/video0" };
	const char *nargs[40] = { "--profile", profile };
	unsigned int n;
	struct run v, c;
	char what[512] = "";

	node_env(so, profile, preload, sizeof(preload), prof, sizeof(prof));
	for (n = 0; args[n] && n < 36; n++) {
		vargs[2 + n] = nargs[2 + n] = args[n];
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s", args[n]);
	}
	vargs[2 + n] = nargs[2 + n] = NULL;
	v = run_prog("v4l2-ctl", env, true, NULL, vargs);
	c = run_prog(NEGCAM_CTL, NULL, true, NULL, nargs);
	strip_explanations(c.out);
	if ((!strcmp(args[0], "--set-fmt-video") || !strcmp(args[0], "--set-fmt-video-out")) &&
	    c.status == 0) {
		/* negcam-ctl shows what S_FMT answered; v4l2-ctl only with -v. */
		char *blk = strstr(c.out, strcmp(args[0], "--set-fmt-video") ?
					  "Format Video Output:\n" : "Format Video Capture:\n"),
		     *end;

		CHECK(blk != NULL, "%s%s: --set-fmt prints its answer", profile, what);
		if (blk) {
			for (end = strchr(blk, '\n') + 1; *end == '\t';)
				end = strchr(end, '\n') ? strchr(end, '\n') + 1 : end + strlen(end);
			memmove(blk, end, strlen(end) + 1);
		}
	}
	CHECK(v.status != 127, "v4l2-ctl runs");
	CHECK_EQ(v.status == 0, c.status == 0, "%s%s: both succeed or both fail (v4l2-ctl %d)",
		 profile, what, v.status);
	CHECK(!strcmp(v.out, c.out), "%s%s: negcam-ctl prints what v4l2-ctl prints", profile,
	      what);
	if (strcmp(v.out, c.out))
		show_diff(v.out, c.out);
	run_free(&v);
	run_free(&c);
}

/* -X/-x/--try-fmt-video-out and --list-formats-out as v4l2-ctl prints them. */
static void test_output_against_v4l2ctl(const char *so, const char *profile)
{
#define CMP(...) compare_with_v4l2ctl(so, profile, (const char *const[]){ __VA_ARGS__, NULL })
	CMP("--list-formats-out");
	CMP("--get-fmt-video-out");
	CMP("--try-fmt-video-out", "width=333,height=333");
	CMP("--try-fmt-video-out", "pixelformat=BGR3,width=100000,height=100000");
	CMP("--try-fmt-video-out", "pixelformat=1,width=1,height=1");
	CMP("--set-fmt-video-out", "pixelformat=BGR3,width=50,height=40", "--get-fmt-video-out");
	CMP("--set-fmt-video-out", "width=1280,height=720", "--get-fmt-video-out");
#undef CMP
}

static void test_against_v4l2ctl(const char *name, const struct negcam_profile *p, const char *so)
{
	const struct negcam_format *f, *last = NULL;
	char big[96], small[96], sizes[16], setf[96], ivals[96], f4[8];
	unsigned int i, nf = 0;

#define CMP(...) compare_with_v4l2ctl(so, name, (const char *const[]){ __VA_ARGS__, NULL })
	CMP("--list-formats-ext");
	CMP("--list-formats");
	CMP("--list-formats-out-ext");
	CMP("--info");
	CMP("--get-fmt-video", "--get-parm");
	CMP("--try-fmt-video", "width=333,height=333");
	CMP("--try-fmt-video", "field=interlaced");
	CMP("--try-fmt-video", "field=none,width=0,height=0");
	CMP("--set-parm", "15", "--get-parm");
	CMP("--set-parm", "29.97", "--get-parm");
	CMP("--set-parm", "1000", "--get-parm");
	for (i = 0; i < p->nformats && nf < 8; i++) {
		f = &p->formats[i];
		if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
			continue;
		nf++;
		last = f;
		negcam_fourcc_str(f->fourcc, f4);
		snprintf(big, sizeof(big), "width=100000,height=100000,pixelformat=%s", f4);
		snprintf(small, sizeof(small), "width=1,height=1,pixelformat=%s", f4);
		snprintf(sizes, sizeof(sizes), "%s", f4);
		CMP("--try-fmt-video", big);
		CMP("--try-fmt-video", small);
		CMP("--list-framesizes", sizes);
		if (f->size_count) {
			const struct negcam_size *sz = &p->sizes[f->size_first];

			snprintf(ivals, sizeof(ivals), "width=%u,height=%u,pixelformat=%s",
				 sz->min_w, sz->min_h, f4);
			CMP("--list-frameintervals", ivals);
		}
	}
	if (last && last->size_count) {
		const struct negcam_size *sz = &p->sizes[last->size_first + last->size_count - 1];

		snprintf(setf, sizeof(setf), "width=%u,height=%u,pixelformat=%s",
			 sz->max_w ? sz->max_w : sz->min_w, sz->max_h ? sz->max_h : sz->min_h,
			 negcam_fourcc_str(last->fourcc, f4));
		CMP("--set-fmt-video", setf, "--get-fmt-video", "--get-parm");
		CMP("--set-fmt-video", setf, "--set-parm", "7", "--get-fmt-video", "--get-parm");
	}
#undef CMP
}

/*
 * --import: v4l2-ctl's listing back to a profile. The round trip must give
 * the same listing, and the profile must hold the exact fractions the
 * original held, not just ones that print alike.
 */
static struct negcam_profile *parse_text(const char *what, const char *text)
{
	struct negcam_profile *p = calloc(1, sizeof(*p));
	struct negcam_parse_error err;

	if (!p)
		abort();
	if (negcam_profile_parse(p, text, (__u32)strlen(text), &err)) {
		CHECK(0, "%s does not parse: %u:%u: %s\n%s", what, err.line, err.column,
		      err.message, text);
		free(p);
		return NULL;
	}
	return p;
}

/* Every discrete size of every format holds the same exact intervals in both. */
static void compare_intervals(const char *what, const struct negcam_profile *a,
			      const struct negcam_profile *b)
{
	unsigned int i, j, k, compared = 0;

	CHECK_EQ(a->nformats, b->nformats, "%s: formats", what);
	for (i = 0; i < a->nformats && i < b->nformats; i++) {
		const struct negcam_format *fa = &a->formats[i], *fb = &b->formats[i];

		CHECK(fa->fourcc == fb->fourcc && fa->buf_type == fb->buf_type,
		      "%s: format %u is the same", what, i);
		CHECK_EQ(fa->size_count, fb->size_count, "%s: sizes of format %u", what, i);
		for (j = 0; j < fa->size_count && j < fb->size_count; j++) {
			const struct negcam_size *sa = &a->sizes[fa->size_first + j];
			const struct negcam_size *sb = &b->sizes[fb->size_first + j];

			CHECK(sa->min_w == sb->min_w && sa->min_h == sb->min_h &&
			      sa->max_w == sb->max_w && sa->max_h == sb->max_h,
			      "%s: size %u of format %u", what, j, i);
			if (fa->size_kind != V4L2_FRMSIZE_TYPE_DISCRETE)
				continue; /* a listing shows no intervals for ranges */
			CHECK_EQ(sa->ival_kind, sb->ival_kind, "%s: interval kind", what);
			CHECK_EQ(sa->ival_count, sb->ival_count, "%s: interval count", what);
			for (k = 0; k < sa->ival_count && k < sb->ival_count; k++) {
				const struct negcam_interval *ia = &a->intervals[sa->ival_first + k];
				const struct negcam_interval *ib = &b->intervals[sb->ival_first + k];

				compared++;
				CHECK(!memcmp(ia, ib, sizeof(*ia)) ||
				      (sa->ival_kind == V4L2_FRMIVAL_TYPE_DISCRETE &&
				       !memcmp(&ia->min, &ib->min, sizeof(ia->min))),
				      "%s: %ux%u interval %u: %u/%u (max %u/%u step %u/%u) "
				      "imported as %u/%u (max %u/%u step %u/%u)", what, sa->min_w,
				      sa->min_h, k, ia->min.numerator, ia->min.denominator,
				      ia->max.numerator, ia->max.denominator, ia->step.numerator,
				      ia->step.denominator, ib->min.numerator, ib->min.denominator,
				      ib->max.numerator, ib->max.denominator, ib->step.numerator,
				      ib->step.denominator);
			}
		}
	}
	(void)compared;
}

/* list -> import -> list; returns the imported profile text (caller frees). */
static char *round_trip(const char *what, const char *profile_arg, const char *profile_text,
			const char *const *list_args, const char *listing_override)
{
	const char *largs[8] = { "--profile", profile_arg };
	struct run l1, imp, l2;
	unsigned int n;
	char *text = NULL;

	for (n = 0; list_args[n] && n < 5; n++)
		largs[2 + n] = list_args[n];
	largs[2 + n] = NULL;
	l1 = run_ctlv(profile_text, largs);
	CHECK_EQ(l1.status, 0, "%s: listing", what);
	imp = run_ctlv(listing_override ? listing_override : l1.out,
		       (const char *const[]){ "--import", "-", "--name", "imported", NULL });
	CHECK_EQ(imp.status, 0, "%s: --import exit status (stderr: %s)", what, imp.err);
	largs[1] = "-";
	l2 = run_ctlv(imp.out, largs);
	CHECK_EQ(l2.status, 0, "%s: the imported profile loads (%s)", what, l2.err);
	CHECK(!strcmp(l1.out, l2.out), "%s: the imported profile lists as the original:\n%s",
	      what, imp.out);
	if (strcmp(l1.out, l2.out))
		show_diff(l1.out, l2.out);
	text = imp.out;
	imp.out = NULL;
	run_free(&l1);
	run_free(&imp);
	run_free(&l2);
	return text;
}

static const char *const list_ext[] = { "--list-formats-ext", NULL };

static void test_import_builtin(const struct negcam_builtin *b, const struct negcam_profile *p)
{
	char what[64];
	char *text;

	snprintf(what, sizeof(what), "import %s", b->name);
	text = round_trip(what, b->name, NULL, list_ext, NULL);
	if (text && *text) {
		struct negcam_profile *q = parse_text(what, text);

		if (q) {
			/* Quirks that hide sizes or intervals must come back too. */
			CHECK_EQ(q->quirks & (NC_QUIRK_NO_ENUM_FRAMESIZES |
					      NC_QUIRK_NO_ENUM_FRAMEINTERVALS),
				 p->quirks & (NC_QUIRK_NO_ENUM_FRAMESIZES |
					      NC_QUIRK_NO_ENUM_FRAMEINTERVALS) &
					 (p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES
						  ? NC_QUIRK_NO_ENUM_FRAMESIZES
						  : ~0u),
				 "%s: quirks", what);
			if (!(p->quirks & (NC_QUIRK_NO_ENUM_FRAMESIZES)))
				compare_intervals(what, p, q);
			free(q);
		}
	}
	free(text);
}

/* Rates whose printed form loses the fraction, every interval kind, both queues. */
static const char rates_profile[] =
	"name rates\n"
	"format YUYV\n"
	"  size 640x480 fps 30000/1001 60000/1001 24000/1001 15000/1001 120000/1001 25 50 15/2"
	" 25/2 1/2 1/5 2 120 1000 3/7 100/3 144 31\n"
	"  size 320x240 interval 1/60-1/1 step 1/60\n"
	"  size 160x120 interval 1/30-2/1\n"
	"  size 352x288 fps 1-60\n"
	"  size 800x600 interval 1001/60000-1001/6000 step 1001/60000\n"
	"  size 1024x768 interval 1/25 2/25 3/25 1/1 2/1 10/1\n"
	"format \"Y10 \"\n"
	"  size 64x64 fps 7\n"
	"format MJPG\n"
	"  size 1280x720 interval 1/30-1/1 step 1/30\n"
	"  size 1920x1080 fps 30 15\n"
	"format NV12\n"
	"  size 16x16-4096x4096 step 16x16 fps 30\n"
	"format RGB3 output\n"
	"  size 640x480 fps 1-60\n"
	"  size 1280x720 fps 60 30\n"
	"format BGR3 output\n"
	"  size 1x1-100x100 fps 5\n";

/* The layout of v4l-utils before 1.16, rewritten from a current listing. */
static char *old_layout(const char *listing)
{
	struct buf b = { 0 };
	const char *line = listing;

	bprintf(&b, "%s", "");
	while (*line) {
		const char *nl = strchr(line, '\n');
		int n = nl ? (int)(nl - line) : (int)strlen(line);
		unsigned int idx;
		char fcc[16], rest[256];

		/* (A blank format character would skip the newline: match by hand first.) */
		if (line[0] == '\t' && line[1] == '[' &&
		    sscanf(line, "\t[%u]: '%15[^']' (%255[^\n]", &idx, fcc, rest) == 3) {
			char *close = strrchr(rest, ')'), *comp = strstr(rest, ", compressed");

			if (close)
				*close = '\0';
			if (comp)
				*comp = '\0';
			bprintf(&b, "\tIndex       : %u\n\tType        : Video Capture\n"
				    "\tPixel Format: '%s'%s\n\tName        : %s\n",
				idx, fcc, comp ? " (compressed)" : "", rest);
		} else if (!strncmp(line, "\tType: ", 7) || (n == 0 && line != listing)) {
			/* the old layout had neither */
		} else {
			bprintf(&b, "%.*s\n", n, line);
		}
		line = nl ? nl + 1 : line + n;
	}
	return b.s;
}

/* The old layout, and a paste from a web page, import as the current layout does. */
static void import_layouts(const char *listing)
{
	struct run a, o, r;
	char *old, *spaced;

	old = old_layout(listing);
	CHECK(strstr(old, "\tPixel Format: 'MJPG' (compressed)\n") != NULL,
	      "old layout written:\n%s", old);
	a = run_ctlv(listing, (const char *const[]){ "--import", "-", NULL });
	o = run_ctlv(old, (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(o.status, 0, "old layout imports (stderr: %s)", o.err);
	CHECK(!strcmp(a.out, o.out), "old layout imports as the current one:\n%s\n%s",
	      a.out, o.out);

	/* Pasted from a web page: spaces for tabs, a prompt, CRLF line ends. */
	{
		struct buf sp = { 0 };
		const char *c;

		bprintf(&sp, "user@host:~$ v4l2-ctl -d /dev/video0 --list-formats-ext\r\n");
		for (c = listing; *c; c++)
			bprintf(&sp, "%s", *c == '\t' ? "    " : *c == '\n' ? "\r\n" : (char[]){ *c, 0 });
		spaced = sp.s;
	}
	r = run_ctlv(spaced, (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 0, "spaces, prompt and CRLF import (stderr: %s)", r.err);
	CHECK(!strcmp(a.out, r.out), "spaces and CRLF import as tabs do");
	run_free(&r);
	run_free(&a);
	run_free(&o);
	free(old);
	free(spaced);
}

/* Listings --import refuses or warns about, each reported at its line. */
static void import_bad_listings(const char *listing)
{
	struct run r;

	/* An unknown line: reported by its number, nothing written. */
	{
		struct buf bad = { 0 };
		const char *third = strchr(strchr(listing, '\n') + 1, '\n') + 1;

		bprintf(&bad, "%.*sDriver Info:\n%s", (int)(third - listing), listing, third);
		r = run_ctlv(bad.s, (const char *const[]){ "--import", "-", NULL });
		CHECK_EQ(r.status, 1, "unknown line: exit 1");
		CHECK(strstr(r.err, "<stdin>:3: cannot understand this line: 'Driver Info:'") !=
			      NULL, "unknown line reported with its number: %s", r.err);
		CHECK(!*r.out, "nothing written on error");
		run_free(&r);
		free(bad.s);
	}
	/* Two printed numbers that no fraction matches. */
	r = run_ctlv("\t[0]: 'YUYV' (YUYV 4:2:2)\n\t\tSize: Discrete 640x480\n"
		     "\t\t\tInterval: Discrete 0.033s (15.000 fps)\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 1, "inconsistent interval: exit 1");
	CHECK(strstr(r.err, "<stdin>:3: no fraction") != NULL, "reported: %s", r.err);
	run_free(&r);
	/* An old kernel's description: Linux and negcam report today's. */
	r = run_ctlv("\t[0]: 'YUYV' (YUV 4:2:2 (YUYV))\n\t\tSize: Discrete 640x480\n"
		     "\t\t\tInterval: Discrete 0.033s (30.000 fps)\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 0, "old description imports (stderr: %s)", r.err);
	CHECK(strstr(r.err, "<stdin>:1: warning: 'YUYV' is described as 'YUV 4:2:2 (YUYV)'"),
	      "description warning: %s", r.err);
	CHECK(strstr(r.out, "format YUYV\n  size 640x480 fps 30\n") != NULL,
	      "description parsed off the flags and size: %s", r.out);
	run_free(&r);
	/* Flags after the description; one a profile cannot set. */
	r = run_ctlv("\t[0]: 'MJPG' (Motion-JPEG, compressed, emulated)\n"
		     "\t\tSize: Discrete 640x480\n"
		     "\t\t\tInterval: Discrete 0.033s (30.000 fps)\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 0, "flags import (stderr: %s)", r.err);
	CHECK(strstr(r.err, "<stdin>:1: warning: flag 'emulated' of 'MJPG' cannot be set") &&
	      !strstr(r.err, "described as"), "flags split off the description: %s", r.err);
	run_free(&r);
	/* A fourcc negcam does not know: an opaque format, with a warning (issue 35). */
	r = run_ctlv("\t[0]: 'QQQQ' (Mystery)\n\t\tSize: Discrete 640x480\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 0, "unknown fourcc: imported (stderr: %s)", r.err);
	CHECK(strstr(r.err, "<stdin>:1: warning: pixel format 'QQQQ' is not in negcam's") != NULL,
	      "reported: %s", r.err);
	CHECK(strstr(r.out, "format QQQQ opaque\n  description \"Mystery\"\n") != NULL,
	      "opaque with the listing's description: %s", r.out);
	run_free(&r);
	/* What the profile language refuses is reported at the listing's line. */
	r = run_ctlv("\t[0]: 'YUYV' (YUYV 4:2:2)\n\t\tSize: Discrete 641x480\n"
		     "\t\t\tInterval: Discrete 0.033s (30.000 fps)\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 1, "odd YUYV width: exit 1");
	CHECK(strstr(r.err, "<stdin>:2: ") && strstr(r.err, "641"), "reported at line 2: %s",
	      r.err);
	run_free(&r);
	r = run_ctl("--import", "/nonexistent/listing.txt");
	CHECK_EQ(r.status, 1, "unreadable listing: exit 1");
	CHECK(strstr(r.err, strerror(ENOENT)) != NULL, "strerror: %s", r.err);
	run_free(&r);
}

static void test_import(void)
{
	struct negcam_profile *orig = parse_text("rates profile", rates_profile), *q;
	struct run l;
	char *text;

	/* Both queues, every interval kind, exact fractions back. */
	text = round_trip("import rates", "-", rates_profile,
			  (const char *const[]){ "--list-formats-ext", "--list-formats-out-ext",
						 NULL }, NULL);
	if (!text)
		text = strdup("");
	q = parse_text("imported rates", text);
	if (orig && q)
		compare_intervals("import rates", orig, q);
	CHECK(strstr(text, "fps 30000/1001 60000/1001 24000/1001 15000/1001 120000/1001 "
			   "25 50 15/2 25/2 1/2 1/5 2 120 1000 3/7 100/3 144 31"),
	      "rates written as fps with exact fractions:\n%s", text);
	CHECK(strstr(text, "format \"Y10 \""), "a fourcc with a space is quoted");
	CHECK(strstr(text, "format RGB3 output"), "output formats stay output");
	free(q);

	/* Its capture listing in other layouts, and broken listings. */
	l = run_ctlv(rates_profile, (const char *const[]){ "--profile", "-", "--list-formats-ext",
							     NULL });
	import_layouts(l.out);
	import_bad_listings(l.out);
	run_free(&l);
	free(text);
	free(orig);
}


/*
 * --dump: the real negcam-ctl queries /dev/negcam-test/video0 (the engine behind
 * libnegcam-preload.so, on a built-in profile; NEGCAM_RUN_MPLANE=1 makes it
 * a multiplanar node) by open() and ioctl(), as it
 * would a camera. The dumped profile must enumerate exactly as the
 * built-in does, and answer G_FMT, G_PARM, TRY_FMT and QUERYCAP alike.
 */
static struct run dump_node_env(const char *so, const char *profile, bool mplane,
				const char *const *extra)
{
	char preload[600], prof[300];
	const char *env[] = { preload, prof, mplane ? "NEGCAM_RUN_MPLANE=1" : NULL, NULL };
	const char *args[16] = { "--dump", "/dev/negcam-test/video0" };
	unsigned int n = 2;

	node_env(so, profile, preload, sizeof(preload), prof, sizeof(prof));
	while (extra && *extra && n < 15)
		args[n++] = *extra++;
	args[n] = NULL;
	return run_prog(NEGCAM_CTL, env, false, NULL, args);
}

static struct run dump_node(const char *so, const char *profile, const char *const *extra)
{
	return dump_node_env(so, profile, false, extra);
}

/* @builtin's answers, or (@builtin "-") those of the profile text @text. */
static void same_answers_as(const char *what, const char *builtin, const char *text,
			    const char *dumped, const char *const *args)
{
	const char *a1[16] = { "--profile", builtin }, *a2[16] = { "--profile", "-" };
	unsigned int n;
	struct run r1, r2;
	char label[256] = "";

	for (n = 0; args[n] && n < 13; n++) {
		a1[2 + n] = a2[2 + n] = args[n];
		snprintf(label + strlen(label), sizeof(label) - strlen(label), " %s", args[n]);
	}
	a1[2 + n] = a2[2 + n] = NULL;
	r1 = run_ctlv(text, a1);
	r2 = run_ctlv(dumped, a2);
	CHECK_EQ(r2.status, r1.status, "%s:%s: same exit status (%s)", what, label, r2.err);
	CHECK(!strcmp(r1.out, r2.out), "%s:%s: the dumped profile answers as the built-in",
	      what, label);
	if (strcmp(r1.out, r2.out))
		show_diff(r1.out, r2.out);
	run_free(&r1);
	run_free(&r2);
}

static void same_answers(const char *what, const char *builtin, const char *dumped,
			 const char *const *args)
{
	same_answers_as(what, builtin, NULL, dumped, args);
}

/* Built-in @b's text made multiplanar: 'multiplanar' before its first format. */
static char *multiplanar_text(const struct negcam_builtin *b)
{
	const char *fmt = strstr(b->text, "\nformat ");
	size_t head = fmt ? (size_t)(fmt - b->text) + 1 : 0;
	char *t = malloc(strlen(b->text) + 16);

	if (t)
		sprintf(t, "%.*smultiplanar\n%s", (int)head, b->text, b->text + head);
	return t;
}

static void test_dump_builtin(const char *so, const struct negcam_builtin *b,
			      const struct negcam_profile *p)
{
	char what[96];
	struct run d = dump_node(so, b->name, (const char *const[]){ "--name", b->name, NULL });
	char *mp;

	snprintf(what, sizeof(what), "dump %s", b->name);
	CHECK_EQ(d.status, 0, "%s: exit status (stderr: %s)", what, d.err);
	if (d.status == 0) {
		struct negcam_profile *q = parse_text(what, d.out);

		same_answers(what, b->name, d.out, (const char *const[]){ "--list-formats-ext", NULL });
		same_answers(what, b->name, d.out, (const char *const[]){ "--list-formats-out-ext", NULL });
		same_answers(what, b->name, d.out, (const char *const[]){ "--info", NULL });
		same_answers(what, b->name, d.out, (const char *const[]){ "--get-fmt-video",
									  "--get-parm", NULL });
		same_answers(what, b->name, d.out,
			     (const char *const[]){ "--try-fmt-video", "pixelformat=XXXX", NULL });
		same_answers(what, b->name, d.out,
			     (const char *const[]){ "--try-fmt-video", "field=interlaced", NULL });
		if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES)) {
			/* Sizes between the offered ones: adjust nearest/downward came back. */
			same_answers(what, b->name, d.out, (const char *const[]){
					     "--try-fmt-video", "width=333,height=333", NULL });
			same_answers(what, b->name, d.out, (const char *const[]){
					     "--try-fmt-video", "width=1900,height=1070", NULL });
			same_answers(what, b->name, d.out, (const char *const[]){
					     "--try-fmt-video", "width=100000,height=100000", NULL });
		}
		if (q) {
			CHECK_EQ(q->quirks, p->quirks, "%s: the quirks come back", what);
			CHECK_EQ(q->adjust, p->adjust, "%s: adjust comes back", what);
			CHECK(!strcmp(q->card, p->card), "%s: card '%s'", what, q->card);
			CHECK(!strcmp(q->name, b->name), "%s: --name", what);
			if (!(p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES))
				compare_intervals(what, p, q);
			free(q);
		}
	}
	run_free(&d);

	/* The same device behind a multiplanar capture queue (a codec, an ISP). */
	snprintf(what, sizeof(what), "dump %s (multiplanar)", b->name);
	d = dump_node_env(so, b->name, true, (const char *const[]){ "--name", b->name, NULL });
	CHECK_EQ(d.status, 0, "%s: exit status (stderr: %s)", what, d.err);
	CHECK(strstr(d.out, "\nmultiplanar\n") && !strstr(d.err, "planar"),
	      "%s: the profile says multiplanar, no warning: %s", what, d.err);
	mp = multiplanar_text(b);
	if (d.status == 0 && mp) {
		same_answers_as(what, "-", mp, d.out, (const char *const[]){ "--list-formats-ext",
									     NULL });
		same_answers_as(what, "-", mp, d.out, (const char *const[]){ "--get-fmt-video",
									     "--get-parm", NULL });
		same_answers_as(what, "-", mp, d.out,
				(const char *const[]){ "--try-fmt-video", "field=interlaced", NULL });
	}
	free(mp);
	run_free(&d);
}

/*
 * ENUM_FMT CSC flags: the listing prints them as v4l2-ctl 1.22 does (the
 * real v4l2-ctl on libnegcam-preload.so), --dump records them, --import reads them
 * back; each copy lists byte for byte as the original. Flags a profile
 * cannot state (on output, on compressed formats) are warned about.
 */
static const char csc_profile[] =
	"name csc\n"
	"format YUYV\n flags csc-colorspace csc-ycbcr-enc csc-quantization csc-xfer-func\n"
	" size 640x480 fps 30\n size 320x240 fps 30 15\n"
	"format HSV4\n flags csc-hsv csc-xfer-func\n size 640x480 fps 30\n"
	"format RGB3\n flags csc-quantization\n size 640x480 fps 30\n"
	"format GREY\n size 640x480 fps 30\n"
	"format MJPG\n size 640x480 fps 30\n";

static void test_csc_flags(const char *so)
{
	char path[] = "/tmp/negcam-test-ctl-csc-XXXXXX";
	struct negcam_profile *p = parse_text("csc profile", csc_profile);
	int fd = mkstemp(path);
	struct run list, d, im, again;

	if (fd < 0 || !p ||
	    write(fd, csc_profile, strlen(csc_profile)) != (ssize_t)strlen(csc_profile)) {
		CHECK(0, "csc profile written");
		goto out;
	}
	list = run_ctl("--profile", path, "--list-formats-ext");
	CHECK(strstr(list.out, "[0]: 'YUYV' (YUYV 4:2:2, csc-colorspace, csc-ycbcr, "
			       "csc-quantization, csc-xfer-func)") != NULL,
	      "YUYV flags listed:\n%s", list.out);
	CHECK(strstr(list.out, "[1]: 'HSV4' (32-bit XHSV 8-8-8-8, csc-hsv, csc-xfer-func)") != NULL,
	      "HSV4: csc-hsv");
	CHECK(strstr(list.out, "[3]: 'GREY' (8-bit Greyscale)\n") != NULL, "GREY: no flags");
	if (so) {
		/* v4l2-ctl itself on the engine: same text */
		compare_with_v4l2ctl(so, path, (const char *const[]){ "--list-formats-ext", NULL });
		test_against_v4l2ctl(path, p, so);
		d = dump_node(so, path, (const char *const[]){ "--name", "csc", NULL });
		CHECK_EQ(d.status, 0, "dump csc: exit status (%s)", d.err);
		CHECK(strstr(d.out, "\nformat YUYV\n  flags csc-colorspace csc-ycbcr-enc "
				    "csc-quantization csc-xfer-func\n") != NULL,
		      "dump writes the flags line:\n%s", d.out);
		CHECK(!strstr(d.err, "cannot set"), "dump: no flag warning: %s", d.err);
		same_answers("dump csc", path, d.out, (const char *const[]){ "--list-formats-ext", NULL });
		run_free(&d);
	}
	im = run_ctlv(list.out, (const char *const[]){ "--import", "-", "--name", "csc", NULL });
	CHECK_EQ(im.status, 0, "import csc: exit status (%s)", im.err);
	CHECK(strstr(im.out, "\nformat HSV4\n  flags csc-hsv csc-xfer-func\n") != NULL,
	      "import writes the flags line:\n%s", im.out);
	again = run_ctlv(im.out, (const char *const[]){ "--profile", "-", "--list-formats-ext", NULL });
	CHECK(!strcmp(again.out, list.out), "import csc: lists as the original");
	if (strcmp(again.out, list.out))
		show_diff(list.out, again.out);
	run_free(&again);
	run_free(&im);

	/* a flag on a compressed format cannot be stated: warned, dropped */
	im = run_ctlv("ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n"
		      "\t[0]: 'MJPG' (Motion-JPEG, compressed, csc-colorspace)\n"
		      "\t\tSize: Discrete 640x480\n\t\t\tInterval: Discrete 0.033s (30.000 fps)\n",
		      (const char *const[]){ "--import", "-", NULL });
	CHECK(strstr(im.err, "flag 'csc-colorspace' of 'MJPG' cannot be set in a profile") != NULL,
	      "compressed csc flag warned: %s", im.err);
	CHECK(!strstr(im.out, "flags"), "no flags line for MJPG:\n%s", im.out);
	run_free(&im);
	/* csc-hsv on a Y'CbCr format is not what v4l2-ctl prints for it */
	im = run_ctlv("ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n"
		      "\t[0]: 'YUYV' (YUYV 4:2:2, csc-hsv)\n"
		      "\t\tSize: Discrete 640x480\n\t\t\tInterval: Discrete 0.033s (30.000 fps)\n",
		      (const char *const[]){ "--import", "-", NULL });
	CHECK(strstr(im.err, "flag 'csc-hsv' of 'YUYV' cannot be set") != NULL,
	      "csc-hsv on YUYV warned: %s", im.err);
	run_free(&im);
	run_free(&list);
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(p);
}

static void test_dump_errors(const char *so)
{
	struct run r = run_ctl("--dump", "/nonexistent/video0");

	CHECK_EQ(r.status, 1, "--dump of a missing device: exit 1");
	CHECK(strstr(r.err, strerror(ENOENT)) != NULL, "--dump names the error: %s", r.err);
	CHECK(!*r.out, "--dump writes nothing on error");
	run_free(&r);
	r = run_ctl("--dump", "/dev/null");
	CHECK_EQ(r.status, 1, "--dump of a non-V4L2 file: exit 1");
	CHECK(strstr(r.err, "VIDIOC_QUERYCAP failed") != NULL, "--dump says why: %s", r.err);
	run_free(&r);
	/* The default name, and the dump's own header comment. */
	r = dump_node(so, "vga", NULL);
	CHECK(strstr(r.out, "\nname dumped\n") && strstr(r.out, "# Dumped by negcam-ctl --dump"),
	      "--dump without --name: 'dumped':\n%s", r.out);
	run_free(&r);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct buf b = { 0 };
	char chunk[4096];
	size_t n;

	bprintf(&b, "%s", "");
	if (!f)
		return b.s;
	while ((n = fread(chunk, 1, sizeof(chunk) - 1, f)) > 0) {
		chunk[n] = '\0';
		bprintf(&b, "%s", chunk);
	}
	fclose(f);
	return b.s;
}

/* From the "ioctl:" line on, without blank lines: what v4l2-ctl printed. */
static char *listing_body(const char *text, bool keep_blank)
{
	const char *p = strstr(text, "ioctl: VIDIOC_ENUM_FMT\n");
	struct buf b = { 0 };

	bprintf(&b, "%s", "");
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		if (n || keep_blank)
			bprintf(&b, "%.*s\n", n, p);
		p = nl ? nl + 1 : p + n;
	}
	return b.s;
}

/*
 * The shelf of real cameras: each listing in tests/engine/profiles/cameras/
 * imports to the sizes and rates of the built-in profile of that name, and
 * the built-in lists exactly as the camera did (except where the camera
 * repeats entries, which a profile cannot).
 */
static void test_cameras(void)
{
	static const struct {
		const char *name;
		bool builtin, exact;
	} cams[] = {
		{ "logitech-c920", true, true },    { "elp-4k", true, true },
		{ "usb-hdmi-capture", true, true }, { "arducam-1080p", true, false },
		{ "usb2-vga-camera", true, true },  { "mjpg-720p60", true, true },
		{ "arducam-1080p-h264", false, false },
	};
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(cams); i++) {
		char path[512];
		char *listing, *orig;
		struct run imp, l1, l2;

		snprintf(path, sizeof(path), "%s/tests/engine/profiles/cameras/%s.txt",
			 NEGCAM_SOURCE_ROOT, cams[i].name);
		listing = read_text(path);
		CHECK(*listing, "camera listing %s is there", path);
		imp = run_ctl("--import", path, "--name", cams[i].name);
		CHECK_EQ(imp.status, 0, "import %s (%s)", cams[i].name, imp.err);
		l2 = run_ctlv(imp.out, (const char *const[]){ "--profile", "-",
							      "--list-formats-ext", NULL });
		CHECK_EQ(l2.status, 0, "imported %s loads", cams[i].name);
		if (cams[i].builtin) {
			const struct negcam_builtin *b = negcam_builtin_find(cams[i].name);

			CHECK(b != NULL, "%s is a built-in profile", cams[i].name);
			CHECK(b && strstr(b->text, "# Source: ") && strstr(b->text, "https://github.com/"),
			      "%s cites its source", cams[i].name);
			l1 = run_ctl("--profile", cams[i].name, "--list-formats-ext");
			CHECK(!strcmp(l1.out, l2.out), "%s: the listing imports to the built-in's "
			      "sizes and rates", cams[i].name);
			if (strcmp(l1.out, l2.out))
				show_diff(l1.out, l2.out);
			if (cams[i].exact) {
				char *a = listing_body(listing, false), *c = listing_body(l1.out, false);

				CHECK(!strcmp(a, c), "%s: the built-in lists as the camera did",
				      cams[i].name);
				if (strcmp(a, c))
					show_diff(a, c);
				free(a);
				free(c);
			} else {
				CHECK(strstr(imp.err, "listed again") != NULL,
				      "%s: the camera's repeated entries are reported: %s",
				      cams[i].name, imp.err);
			}
			run_free(&l1);
		}
		orig = listing_body(listing, true);
		free(orig);
		run_free(&imp);
		run_free(&l2);
		free(listing);
	}
}

/* Multiplanar capture (a codec, an ISP): a multiplanar profile; a mixed listing warns. */
static void test_import_mplane(void)
{
	static const char mp[] =
		"ioctl: VIDIOC_ENUM_FMT\n"
		"\tType: Video Capture Multiplanar\n\n"
		"\t[0]: 'NV12' (Y/UV 4:2:0)\n"
		"\t\tSize: Stepwise 32x32 - 1920x1920 with step 2/2\n"
		"\t[1]: 'GREY' (8-bit Greyscale)\n"
		"\t\tSize: Continuous 2x2 - 4096x4096\n"
		"\t[2]: 'H264' (H.264, compressed, meta-line-based)\n"
		"\t\tSize: Discrete 1920x1080\n"
		"\t\t\tInterval: Discrete 0.033s (29.970 fps)\n";
	struct run r = run_ctlv(mp, (const char *const[]){ "--import", "-", NULL });

	CHECK_EQ(r.status, 0, "multiplanar capture imports (%s)", r.err);
	CHECK(strstr(r.out, "\nmultiplanar\n") != NULL, "multiplanar: the profile says so:\n%s",
	      r.out);
	CHECK(!strstr(r.err, "planar"), "multiplanar alone: no warning on planes: %s", r.err);
	CHECK(strstr(r.out, "format NV12\n  size 32x32-1920x1920 step 2x2 fps 30") &&
	      strstr(r.out, "format GREY\n  size 2x2-4096x4096 fps 30") &&
	      strstr(r.out, "format H264\n  size 1920x1080 fps 30000/1001\n") &&
	      !strstr(r.out, " output"), "multiplanar: capture formats, ranges, NTSC:\n%s", r.out);
	CHECK(strstr(r.err, "flag 'meta-line-based'") != NULL,
	      "a recent v4l-utils flag is known and dropped with a warning: %s", r.err);
	run_free(&r);
	r = run_ctlv("ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n"
		     "\t[0]: 'NV12' (Y/UV 4:2:0)\n\t\tSize: Discrete 64x48\n\n"
		     "ioctl: VIDIOC_ENUM_FMT\n\tType: Video Output Multiplanar\n\n"
		     "\t[0]: 'NV12' (Y/UV 4:2:0)\n\t\tSize: Discrete 64x48\n",
		     (const char *const[]){ "--import", "-", NULL });
	CHECK(r.status == 0 && strstr(r.out, "\nmultiplanar\n") &&
	      strstr(r.err, "<stdin>:8: warning: single-planar and multiplanar sections"),
	      "mixed planes: multiplanar, with a warning at the line (%d): %s", r.status, r.err);
	run_free(&r);
}

/*
 * Issue 35: listings as people publish them and as cameras really report.
 * A dump tool's prefix and a Markdown backtick are stripped; Stepwise
 * step 1/1 stays Stepwise (and lists back so); a repeated fourcc joins
 * its first block; a backward range, a format without fourcc are dropped;
 * an unknown fourcc is opaque, with the listing's description.
 */
static void test_import_published(void)
{
	static const char in[] =
		"/dev/video2 | ioctl: VIDIOC_ENUM_FMT\n"
		"/dev/video2 | \tType: Video Capture\n"
		"/dev/video2 | \n"
		"/dev/video2 | \t[0]: 'YUYV' (YUYV 4:2:2)\n"
		"/dev/video2 | \t\tSize: Stepwise 16x16 - 16376x16376 with step 1/1\n"
		"/dev/video2 | \t[1]: 'NV12' (Y/UV 4:2:0)\n"
		"/dev/video2 | \t\tSize: Stepwise 32x16 - 0x0 with step 8/8\n"
		"/dev/video2 | \t\tSize: Stepwise 32x32 - 1920x1080 with step 8/8\n"
		"/dev/video2 | \t[2]: 'INVZ' (Depth 16-bit (INVZ))\n"
		"/dev/video2 | \t\tSize: Discrete 640x480\n"
		"/dev/video2 | \t\t\tInterval: Discrete 0.033s (30.000 fps)\n"
		"/dev/video2 | \t[3]: '' (435a4e49-b602-480f-978c-e4e88ae)\n"
		"/dev/video2 | \t[4]: 'INVZ' (Depth 16-bit (INVZ))\n"
		"/dev/video2 | \t\tSize: Discrete 320x240\n"
		"/dev/video2 | \t\t\tInterval: Discrete 0.017s (60.000 fps)`\n";
	struct run r = run_ctlv(in, (const char *const[]){ "--import", "-", "--name", "pub", NULL });
	char path[] = "/tmp/negcam-test-pub-XXXXXX";
	int fd;

	CHECK_EQ(r.status, 0, "a published listing imports (%s)", r.err);
	CHECK(strstr(r.err, "<stdin>:1: warning: stripped the dump tool's prefix '/dev/video2 |'"),
	      "prefix stripped, said once: %s", r.err);
	CHECK(strstr(r.out, "format YUYV\n  size 16x16-16376x16376 step 1x1 fps 30"),
	      "step 1/1 kept as a step: %s", r.out);
	CHECK(strstr(r.err, "<stdin>:7: warning: the range 32x16 - 0x0 ends below its start"),
	      "backward range dropped: %s", r.err);
	CHECK(strstr(r.out, "format NV12\n  size 32x32-1920x1080 step 8x8"), "NV12 keeps its range");
	CHECK(strstr(r.err, "<stdin>:12: warning: a format without a fourcc ('', named "),
	      "no fourcc: dropped: %s", r.err);
	CHECK(strstr(r.err, "<stdin>:13: warning: 'INVZ' listed again (first on line 9)"),
	      "repeated fourcc: warned: %s", r.err);
	CHECK(strstr(r.out, "format INVZ opaque\n  description \"Depth 16-bit (INVZ)\"\n"
			 "  size 640x480 fps 30\n  size 320x240 fps 60\n"),
	      "repeated fourcc merged, opaque, backtick gone: %s", r.out);
	fd = mkstemp(path);
	if (fd >= 0) {
		struct run l;

		CHECK(write(fd, r.out, strlen(r.out)) == (ssize_t)strlen(r.out), "write profile");
		close(fd);
		l = run_ctl("--profile", path, "--list-formats-ext");
		CHECK(strstr(l.out, "\t\tSize: Stepwise 16x16 - 16376x16376 with step 1/1\n") &&
		      strstr(l.out, "\t[2]: 'INVZ' (Depth 16-bit (INVZ))\n"),
		      "lists back Stepwise 1/1 and the opaque format: %s", l.out);
		run_free(&l);
		unlink(path);
	}
	run_free(&r);
}

/*
 * Issue 16 item 8: bad input gets a clear refusal, never a silent
 * misreading, a hang, a flood or a raw terminal escape.
 */
static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static bool has_control_byte(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f)
			return true;
	return false;
}

static void test_ctl_bad_input(void)
{
	static const char wrap[] =
		"ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n\n"
		"\t[0]: 'YUYV' (YUYV 4:2:2)\n"
		"\t\tSize: Discrete 4294967936x480\n"
		"\t\t\tInterval: Discrete 0.033s (30.000 fps)\n";
	const char *timeout_env[] = { "NEGCAM_CTL_READ_TIMEOUT_MS=300", NULL };
	char fifo[64], *dups;
	struct buf b = { 0 };
	struct run r;
	double t;
	unsigned int i;

	/* 32-bit overflow: refused with file:line and the field */
	r = run_ctlv(wrap, (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 1, "--import of a wrapping width fails");
	CHECK(strstr(r.err, "<stdin>:5: the width 4294967936 does not fit in 32 bits"),
	      "the overflow is named with its line and field: %s", r.err);
	CHECK(!*r.out, "no profile written for an overflow: %s", r.out);
	run_free(&r);

	/* /dev/zero: the 64 MiB cap, fast and in words */
	t = seconds_now();
	r = run_ctl("--import", "/dev/zero");
	t = seconds_now() - t;
	CHECK_EQ(r.status, 1, "--import /dev/zero fails");
	CHECK(strstr(r.err, "larger than 64 MiB"), "/dev/zero: says why: %s", r.err);
	CHECK(t < 10, "/dev/zero: fails fast (%.1f s)", t);
	run_free(&r);

	/* a FIFO nobody writes to: a timeout, not a hang */
	snprintf(fifo, sizeof(fifo), "/tmp/negcam-test-ctl-fifo-%d", (int)getpid());
	CHECK_EQ(mkfifo(fifo, 0600), 0, "mkfifo %s", fifo);
	r = run_prog(NEGCAM_CTL, timeout_env, false, NULL,
		     (const char *const[]){ "--import", fifo, NULL });
	CHECK_EQ(r.status, 1, "--import of a silent FIFO fails");
	CHECK(strstr(r.err, "no data for 0.3 s"), "silent FIFO: says why: %s", r.err);
	run_free(&r);
	r = run_prog(NEGCAM_CTL, timeout_env, false, NULL,
		     (const char *const[]){ "--validate", fifo, NULL });
	CHECK(r.status == 1 && strstr(r.err, "no data for"), "--validate of a silent FIFO: %s",
	      r.err);
	run_free(&r);
	unlink(fifo);

	/* warnings capped: 30 duplicate sizes give 20 lines and a count */
	bprintf(&b, "\t[0]: 'YUYV' (YUYV 4:2:2)\n");
	for (i = 0; i < 31; i++)
		bprintf(&b, "\t\tSize: Discrete 640x480\n"
			    "\t\t\tInterval: Discrete 0.033s (30.000 fps)\n");
	dups = b.s;
	r = run_ctlv(dups, (const char *const[]){ "--import", "-", NULL });
	CHECK_EQ(r.status, 0, "duplicates import with warnings: %s", r.err);
	CHECK_EQ(count_lines(r.err, "<stdin>:"), 21, "20 warnings and the count:\n%s", r.err);
	CHECK(strstr(r.err, "<stdin>: ... 10 more warnings\n"), "the rest counted:\n%s", r.err);
	run_free(&r);
	free(dups);

	/* control bytes quoted from input or arguments come out escaped */
	r = run_ctlv("bad \033[31mred\n", (const char *const[]){ "--import", "-", NULL });
	CHECK(strstr(r.err, "'bad \\x1b[31mred'"), "ESC escaped: %s", r.err);
	CHECK(!has_control_byte(r.err), "no raw control byte in: %s", r.err);
	run_free(&r);
	r = run_ctl("--try-fmt", "\033]0;owned\007=1");
	CHECK(r.status == 2 && strstr(r.err, "\\x1b]0;owned\\x07"), "argument escaped: %s",
	      r.err);
	CHECK(!has_control_byte(r.err), "no raw control byte in: %s", r.err);
	run_free(&r);

	r = run_ctl("--show-profile", "\033[2J");
	CHECK(r.status == 1 && strstr(r.err, "'\\x1b[2J'"), "--show-profile escaped: %s", r.err);
	run_free(&r);
	r = run_ctl("--profile", "tv-tuner", "--try-fmt", "pixelformat=\033[2J");
	CHECK(r.status == 1 && strstr(r.err, "unknown fourcc '\\x1b[2J'"), "fourcc escaped: %s",
	      r.err);
	CHECK(!has_control_byte(r.err), "no raw control byte in: %s", r.err);
	run_free(&r);

	/* --name: the parser's rule, checked up front */
	expect_usage_error("--name a#b", 2, "--name 'a#b': a profile name is",
			   run_ctl("--name", "a#b", "--import", "-"));
	r = run_ctlv(wrap + 0, (const char *const[]){ "--name", "cam-1.b_2", "--list-profiles",
						      NULL });
	CHECK_EQ(r.status, 0, "a good --name is taken");
	run_free(&r);

	/* numbers are decimal: 0100 is a hundred (stepwise rounds it to 96), not 64 */
	r = run_ctl("--profile", "stepwise", "--try-fmt", "width=0100,height=0x100");
	CHECK(strstr(r.out, "Width/Height      : 96/256\n"), "width=0100 is decimal:\n%s",
	      r.out);
	run_free(&r);

	/* -p 0 would ask the default rate: refused */
	expect_usage_error("-p 0", 2, "give at least 0.001", run_ctl("-p", "0"));
	expect_usage_error("--set-parm 0.0001", 2, "give at least 0.001",
			   run_ctl("--set-parm", "0.0001"));
}

/*
 * Issue 12 item 7: the output queue through -X/-x/--try-fmt-video-out,
 * on a profile with output formats; the capture format stays as it was.
 */
static void test_output_fmt(void)
{
	struct run r = run_ctlv(rates_profile, (const char *const[]){
		"--profile", "-", "--set-fmt-video-out", "pixelformat=BGR3,width=50,height=40",
		"-X", "--try-fmt-video-out", "width=100000,height=100000", "-V", NULL });
	const char *set = strstr(r.out, "Format Video Output:\n");
	const char *get = set ? strstr(set + 1, "Format Video Output:\n") : NULL;
	const char *try = get ? strstr(get + 1, "Format Video Output:\n") : NULL;
	const char *cap = try ? strstr(try, "Format Video Capture:\n") : NULL;

	CHECK_EQ(r.status, 0, "output formats set and read back: %s", r.err);
	CHECK(set && get && try && cap, "three output blocks, then capture:\n%s", r.out);
	if (get && try && cap) {
		CHECK(strstr(get, "Width/Height      : 50/40\n") < try &&
		      strstr(get, "'BGR3'") < try, "-X reads the output format set:\n%s", r.out);
		CHECK(strstr(try, "Width/Height      : 100/100\n") < cap,
		      "TRY on output clamps to BGR3's range:\n%s", r.out);
		CHECK(strstr(cap, "'YUYV'") != NULL, "the capture format is untouched:\n%s", cap);
	}
	run_free(&r);
	expect_usage_error("-x needs a value", 2, "needs a value", run_ctl("-x"));
	r = run_ctl("--profile", "webcam", "--get-fmt-video-out");
	CHECK(r.status == 1 && strstr(r.err, "VIDIOC_G_FMT: failed: Invalid argument (the "
					  "profile has no Video Output formats)"),
	      "no output queue on webcam, said in words: %s", r.err);
	run_free(&r);
}

int main(void)
{
	const struct negcam_builtin *b;
	struct negcam_profile *webcam = NULL, *tuner = NULL;
	unsigned int i;

	char lib[256];
	bool have_v4l2ctl = !system("v4l2-ctl --version >/dev/null 2>&1");
	bool have_lib = have_v4l2ctl && find_preload(lib, sizeof(lib));

	if (!have_v4l2ctl)
		printf("test_ctl: v4l2-ctl not installed, reference comparison skipped\n");
	for (i = 0; (b = negcam_builtin_at(i)); i++) {
		struct negcam_profile *p = load_builtin(b);

		CHECK(p != NULL, "built-in %s parses", b->name);
		if (!p)
			continue;
		test_listing(b, p);
		test_set_then_get(b, p);
		if (have_lib)
			test_against_v4l2ctl(b->name, p, lib);
		test_import_builtin(b, p);
		if (have_lib)
			test_dump_builtin(lib, b, p);
		if (!strcmp(b->name, "webcam"))
			webcam = p;
		else if (!strcmp(b->name, "tv-tuner"))
			tuner = p;
		else
			free(p);
	}
	CHECK(webcam && tuner, "webcam and tv-tuner are built in");
	if (webcam) {
		test_try_fmt_webcam(webcam);
		test_parm(webcam);
	}
	if (tuner)
		test_tv_tuner_quirk(tuner);
	test_files();
	test_bad_command_lines();
	test_profiles_listing();
	test_default_profile();
	test_order();
	test_import();
	test_import_mplane();
	test_import_published();
	test_ctl_bad_input();
	test_output_fmt();
	test_cameras();
	if (have_lib)
		test_dump_errors(lib);
	test_csc_flags(have_lib ? lib : NULL);
	if (have_lib) {
		/* Every interval kind, NTSC and fractional rates, an output queue. */
		char path[] = "/tmp/negcam-test-ctl-rates-XXXXXX";
		int fd = mkstemp(path);
		struct negcam_profile *rates = parse_text("rates profile", rates_profile);

		if (fd >= 0 && rates &&
		    write(fd, rates_profile, strlen(rates_profile)) == (ssize_t)strlen(rates_profile)) {
			test_against_v4l2ctl(path, rates, lib);
			compare_with_v4l2ctl(lib, path, (const char *const[]){
						     "--list-formats-out-ext", NULL });
			test_output_against_v4l2ctl(lib, path);
		}
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(rates);
	}
	free(webcam);
	free(tuner);
	return check_done("test_ctl");
}
