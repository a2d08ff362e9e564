// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-ctl: inspect and exercise the negotiation engine from a shell,
 * with v4l2-ctl's options and output layouts. The options act in the
 * order given, on one engine, so "--set-fmt ... --get-fmt" shows the
 * format the engine committed. The command line is checked whole before
 * anything runs: a typo in the last option prints nothing but its error.
 *
 * Exit status: 0 all well; 1 a request failed or a file was bad;
 * 2 the command line was wrong (docs/negcam-ctl.md).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "profile-load.h"
#include "read-file.h"
#include "vbuf.h"

/* A FIFO or device silent this long (ms) has no writer: give up, do not hang. */
#define CTL_READ_TIMEOUT_MS 10000

enum ctl_opt {
	OPT_HELP = 'h',
	OPT_INFO = 'D',
	OPT_GET_FMT = 'V',
	OPT_SET_FMT = 'v',
	OPT_GET_PARM = 'P',
	OPT_SET_PARM = 'p',
	OPT_GET_FMT_OUT = 'X',
	OPT_SET_FMT_OUT = 'x',
	OPT_PROFILE = 256,
	OPT_LIST_PROFILES,
	OPT_SHOW_PROFILE,
	OPT_VALIDATE,
	OPT_LIST_FORMATS,
	OPT_LIST_FORMATS_EXT,
	OPT_LIST_FORMATS_OUT,
	OPT_LIST_FORMATS_OUT_EXT,
	OPT_LIST_FRAMESIZES,
	OPT_LIST_FRAMEINTERVALS,
	OPT_TRY_FMT,
	OPT_TRY_FMT_OUT,
	OPT_BUSY,
	OPT_IDLE,
	OPT_IMPORT,
	OPT_NAME,
	OPT_DUMP,
	OPT_DROP_UNKNOWN,
	OPT_ALL,
	OPT_LIST_DEVICES,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
	{ "show-profile", required_argument, NULL, OPT_SHOW_PROFILE },
	{ "validate", required_argument, NULL, OPT_VALIDATE },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },
	{ "list-formats-ext", no_argument, NULL, OPT_LIST_FORMATS_EXT },
	{ "list-formats-out", no_argument, NULL, OPT_LIST_FORMATS_OUT },
	{ "list-formats-out-ext", no_argument, NULL, OPT_LIST_FORMATS_OUT_EXT },
	{ "list-framesizes", required_argument, NULL, OPT_LIST_FRAMESIZES },
	{ "list-frameintervals", required_argument, NULL, OPT_LIST_FRAMEINTERVALS },
	{ "get-fmt", no_argument, NULL, OPT_GET_FMT },
	{ "get-fmt-video", no_argument, NULL, OPT_GET_FMT },
	{ "set-fmt", required_argument, NULL, OPT_SET_FMT },
	{ "set-fmt-video", required_argument, NULL, OPT_SET_FMT },
	{ "try-fmt", required_argument, NULL, OPT_TRY_FMT },
	{ "try-fmt-video", required_argument, NULL, OPT_TRY_FMT },
	{ "get-fmt-video-out", no_argument, NULL, OPT_GET_FMT_OUT },
	{ "set-fmt-video-out", required_argument, NULL, OPT_SET_FMT_OUT },
	{ "try-fmt-video-out", required_argument, NULL, OPT_TRY_FMT_OUT },
	{ "get-parm", no_argument, NULL, OPT_GET_PARM },
	{ "set-parm", required_argument, NULL, OPT_SET_PARM },
	{ "busy", no_argument, NULL, OPT_BUSY },
	{ "idle", no_argument, NULL, OPT_IDLE },
	{ "import", required_argument, NULL, OPT_IMPORT },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "dump", required_argument, NULL, OPT_DUMP },
	{ "drop-unknown", no_argument, NULL, OPT_DROP_UNKNOWN },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: negcam-ctl [--profile NAME|FILE] OPTION...\n"
"Query and drive the negcam negotiation engine as v4l2-ctl drives a device.\n"
"Options act in the order given, on one engine.\n"
"\n"
"  --profile NAME|FILE   built-in profile NAME, else the profile file FILE\n"
"                        ('-' reads standard input); default: webcam\n"
"  --list-profiles       list the built-in profiles with a summary, then the\n"
"                        camera shelf grouped by kind (docs/cameras.md)\n"
"  --show-profile NAME   print the text of built-in or shelf profile NAME\n"
"  --validate FILE       check a profile file: 'FILE: ok' or 'FILE:LINE:COL: message'\n"
"  -D, --info            show the driver info [VIDIOC_QUERYCAP]\n"
"  --all                 what 'v4l2-ctl --all' shows: driver info, priority, input,\n"
"                        formats, streaming parameters, controls\n"
"  --list-devices        what 'v4l2-ctl --list-devices' shows for the device\n"
"                        negcam-run makes at /dev/video0 [VIDIOC_QUERYCAP]\n"
"  --list-formats        list the capture formats [VIDIOC_ENUM_FMT]\n"
"  --list-formats-ext    list the capture formats with frame sizes and intervals\n"
"                        [VIDIOC_ENUM_FMT, _FRAMESIZES, _FRAMEINTERVALS]\n"
"  --list-formats-out, --list-formats-out-ext\n"
"                        the same for the output queue\n"
"  --list-framesizes FOURCC\n"
"                        list the frame sizes of FOURCC [VIDIOC_ENUM_FRAMESIZES]\n"
"  --list-frameintervals width=W,height=H,pixelformat=FOURCC\n"
"                        list the intervals of one size [VIDIOC_ENUM_FRAMEINTERVALS]\n"
"  -V, --get-fmt         show the capture format [VIDIOC_G_FMT]\n"
"  --try-fmt KEY=VALUE[,KEY=VALUE...]\n"
"                        try a capture format and show the answer [VIDIOC_TRY_FMT]\n"
"  -v, --set-fmt KEY=VALUE[,KEY=VALUE...]\n"
"                        set the capture format and show the answer [VIDIOC_S_FMT]\n"
"                        keys: width, height, pixelformat (fourcc or format index),\n"
"                        field (any, none, top, bottom, interlaced, seq_tb, seq_bt,\n"
"                        alternate, interlaced_tb, interlaced_bt), colorspace, ycbcr,\n"
"                        quantization, xfer, bytesperline, sizeimage; the keys not\n"
"                        given keep the current format's values (as v4l2-ctl)\n"
"  -X, --get-fmt-video-out, --try-fmt-video-out KEY=VALUE[,...],\n"
"  -x, --set-fmt-video-out KEY=VALUE[,...]\n"
"                        the same for the output queue\n"
"  -P, --get-parm        show the streaming parameters [VIDIOC_G_PARM]\n"
"  -p, --set-parm FPS    set the frame rate [VIDIOC_S_PARM], at least 0.001\n"
"  --busy, --idle        mark the capture queue busy (buffers allocated) or idle\n"
"  --import FILE|-       convert v4l2-ctl --list-formats-ext output to a profile\n"
"  --dump /dev/videoN    query a live device and write the profile it answers as\n"
"                        [VIDIOC_QUERYCAP, ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS,\n"
"                        TRY_FMT, G_FMT, G_PARM; nothing is changed on the device]\n"
"  --drop-unknown        --dump: leave out formats negcam's table lacks (with a\n"
"                        warning) instead of failing\n"
"  --name NAME           the profile name --import/--dump write (default: imported,\n"
"                        dumped): 1 to 31 letters, digits, '-', '_', '.'\n"
"  -h, --help            this text\n"
"  --version             print negcam-ctl's version (negcam's, meson.build's)\n"
"\n"
"Exit status: 0 success, 1 a request failed or a file is bad, 2 bad command line.\n");
}

/* A --try-fmt/--set-fmt request: which keys were given and their values. */
enum {
	FMT_WIDTH = 1 << 0,
	FMT_HEIGHT = 1 << 1,
	FMT_PIXFMT = 1 << 2,
	FMT_PIXFMT_INDEX = 1 << 3,
	FMT_FIELD = 1 << 4,
	FMT_COLORSPACE = 1 << 5,
	FMT_YCBCR = 1 << 6,
	FMT_QUANT = 1 << 7,
	FMT_XFER = 1 << 8,
	FMT_BPL = 1 << 9,
	FMT_SIZEIMAGE = 1 << 10,
};

struct fmt_req {
	unsigned int set;
	__u32 width, height, pixfmt, field;
	__u32 colorspace, ycbcr, quant, xfer, bpl, sizeimage;
};

struct action {
	int opt;
	const char *arg;
	struct fmt_req fmt; /* --try-fmt, --set-fmt, --list-frameintervals */
	__u32 type;         /* --get/try/set-fmt: capture or output */
	__u32 fourcc;       /* --list-framesizes */
	double fps;         /* --set-parm */
};

static const char *prog = "negcam-ctl";

static void __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap); /* arguments quoted here may hold any byte */
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", prog);
	exit(CTL_EXIT_USAGE);
}

static void fail(struct ctl *c)
{
	c->status = CTL_EXIT_FAIL;
}

/*
 * A whole unsigned 32-bit number, decimal (a leading zero is no octal:
 * 010 is ten) or 0x hex; -1 otherwise.
 */
static int parse_u32(const char *s, __u32 *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9' || (hex && !isxdigit((unsigned char)s[2])))
		return -1;
	errno = 0;
	v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
	if (errno || *end || v > 0xffffffffull)
		return -1;
	*out = (__u32)v;
	return 0;
}

/* "YUYV", "Y10 -BE" style 7-character big-endian names, or a format index. */
static int parse_pixfmt(const char *opt, const char *v, struct fmt_req *r)
{
	size_t n = strlen(v);

	if (n == 4 || (n == 7 && !memcmp(v + 4, "-BE", 3))) {
		r->pixfmt = v4l2_fourcc(v[0], v[1], v[2], v[3]);
		if (n == 7)
			r->pixfmt |= 1u << 31;
		r->set |= FMT_PIXFMT;
		return 0;
	}
	if (!parse_u32(v, &r->pixfmt)) {
		/* As v4l2-ctl: a number below 256 is an ENUM_FMT index. */
		r->set |= FMT_PIXFMT | (r->pixfmt < 256 ? FMT_PIXFMT_INDEX : 0);
		return 0;
	}
	usage_error("%s: pixelformat '%s' is neither a fourcc (4 characters, e.g. YUYV) "
		    "nor a number", opt, v);
	return -1;
}

/*
 * width=W,height=H,pixelformat=F,... as v4l2-ctl's --set-fmt-video takes
 * it, but strict: an unknown key, a missing value, a malformed number or
 * an unknown name is an error (v4l2-ctl silently uses 0 or "any").
 */
static void parse_fmt_req(const char *opt, const char *arg, struct fmt_req *r,
			  bool only_size_keys)
{
	char buf[1024], *save = NULL, *kv;

	memset(r, 0, sizeof(*r));
	if (strlen(arg) >= sizeof(buf))
		usage_error("%s: argument too long", opt);
	strcpy(buf, arg);
	if (!*buf)
		usage_error("%s: empty argument, expected KEY=VALUE[,KEY=VALUE...]", opt);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *v = strchr(kv, '=');
		const char *k = kv;
		int bad = 0;

		if (!v)
			usage_error("%s: '%s' has no value (expected KEY=VALUE)", opt, kv);
		*v++ = '\0';
		if (!*v)
			usage_error("%s: key '%s' has an empty value", opt, k);
		if (!strcmp(k, "width")) {
			bad = parse_u32(v, &r->width);
			r->set |= FMT_WIDTH;
		} else if (!strcmp(k, "height")) {
			bad = parse_u32(v, &r->height);
			r->set |= FMT_HEIGHT;
		} else if (!strcmp(k, "pixelformat")) {
			parse_pixfmt(opt, v, r);
		} else if (only_size_keys) {
			usage_error("%s: unknown key '%s' (expected width, height, pixelformat)",
				    opt, k);
		} else if (!strcmp(k, "field")) {
			if (ctl_parse_field(v, &r->field))
				usage_error("%s: unknown field '%s' (expected any, none, top, bottom, "
					    "interlaced, seq_tb, seq_bt, alternate, interlaced_tb, "
					    "interlaced_bt)", opt, v);
			r->set |= FMT_FIELD;
		} else if (!strcmp(k, "colorspace")) {
			if (ctl_parse_colorspace(v, &r->colorspace))
				usage_error("%s: unknown colorspace '%s' (expected smpte170m, "
					    "smpte240m, rec709, 470m, 470bg, jpeg, srgb, oprgb, "
					    "bt2020, dcip3)", opt, v);
			r->set |= FMT_COLORSPACE;
		} else if (!strcmp(k, "ycbcr")) {
			if (ctl_parse_ycbcr(v, &r->ycbcr))
				usage_error("%s: unknown ycbcr encoding '%s' (expected default, 601, "
					    "709, xv601, xv709, bt2020, bt2020c, smpte240m)", opt, v);
			r->set |= FMT_YCBCR;
		} else if (!strcmp(k, "quantization")) {
			if (ctl_parse_quantization(v, &r->quant))
				usage_error("%s: unknown quantization '%s' (expected default, "
					    "full-range, lim-range)", opt, v);
			r->set |= FMT_QUANT;
		} else if (!strcmp(k, "xfer")) {
			if (ctl_parse_xfer(v, &r->xfer))
				usage_error("%s: unknown transfer function '%s' (expected default, "
					    "709, srgb, oprgb, smpte240m, smpte2084, dcip3, none)",
					    opt, v);
			r->set |= FMT_XFER;
		} else if (!strcmp(k, "bytesperline")) {
			bad = parse_u32(v, &r->bpl);
			r->set |= FMT_BPL;
		} else if (!strcmp(k, "sizeimage")) {
			bad = parse_u32(v, &r->sizeimage);
			r->set |= FMT_SIZEIMAGE;
		} else {
			usage_error("%s: unknown key '%s' (expected width, height, pixelformat, "
				    "field, colorspace, ycbcr, quantization, xfer, bytesperline, "
				    "sizeimage)", opt, k);
		}
		if (bad)
			usage_error("%s: %s=%s is not an unsigned 32-bit number", opt, k, v);
	}
}

/*
 * A FIFO or device silent for CTL_READ_TIMEOUT_MS (NEGCAM_CTL_READ_TIMEOUT_MS
 * overrides it, for tests) has no writer: reading it fails with ETIMEDOUT.
 */
static int read_timeout_ms(void)
{
	const char *env = getenv("NEGCAM_CTL_READ_TIMEOUT_MS");
	int ms = env ? atoi(env) : 0;

	return ms > 0 ? ms : CTL_READ_TIMEOUT_MS;
}

/*
 * Reads a whole file ("-": standard input) by the user-space layer's one
 * reader (user/read-file.c), FIFOs and devices included with a timeout:
 * a malloc'd, NUL-terminated buffer, or NULL with *@err an errno (EFBIG
 * past NC_READ_MAX_BYTES, ETIMEDOUT for a silent FIFO).
 */
static char *read_file(const char *path, __u32 *len, int *err)
{
	struct nc_read r;

	*err = nc_read_file(path, NC_READ_STREAMS, read_timeout_ms(), &r) ? r.err : 0;
	*len = (__u32)r.len;
	return r.text;
}

/* Why read_file() failed, in words. */
static const char *read_error(int err)
{
	static char msg[96];

	if (err == EFBIG)
		snprintf(msg, sizeof(msg), "larger than %u MiB, which no profile or listing is",
			 NC_READ_MAX_BYTES >> 20);
	else if (err == ETIMEDOUT)
		snprintf(msg, sizeof(msg), "no data for %.1f s (a FIFO nobody writes to?)",
			 read_timeout_ms() / 1000.0);
	else
		snprintf(msg, sizeof(msg), "%s", strerror(err));
	return msg;
}

/* --profile: a built-in name first, else a file ("-": standard input), by
 * the one user-space loader. Exits on failure. */
static void load_profile(struct ctl *c, const char *spec)
{
	char msg[1024];
	int ret, err;

	c->profile = calloc(1, sizeof(*c->profile));
	if (!c->profile) {
		fprintf(stderr, "%s: out of memory for a profile\n", prog);
		exit(CTL_EXIT_FAIL);
	}
	snprintf(c->profile_label, sizeof(c->profile_label), "%s", spec);
	if (!strcmp(spec, "-")) {
		__u32 len = 0;
		char *text = read_file(spec, &len, &err);

		if (!text) {
			ctl_warn("%s: --profile -: %s\n", prog, read_error(err));
			exit(CTL_EXIT_FAIL);
		}
		ret = negcam_profile_load_text("<stdin>", text, len, c->profile, msg, sizeof(msg));
		free(text);
	} else {
		ret = negcam_profile_load(spec, c->profile, msg, sizeof(msg));
	}
	if (ret == NC_LOAD_EPARSE)
		ctl_warn("%s\n", msg);
	else if (ret)
		ctl_warn("%s: --profile: %s\n", prog, msg);
	if (ret)
		exit(CTL_EXIT_FAIL);
	negcam_engine_init(&c->engine, c->profile);
	/* read() as negcam.ko and negcam-run's nodes have it: QUERYCAP says
	 * V4L2_CAP_READWRITE, G_PARM its read buffers */
	/* as negcam.ko and negcam-run: a multiplanar node has no read() */
	c->engine.readbuffers = c->profile->multiplanar ? 0 : NC_VB_READ_BUFFERS;
}

static const struct negcam_format *profile_format(const struct negcam_profile *p,
						  __u32 buf_type, __u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < p->nformats && i < NC_MAX_FORMATS; i++)
		if (p->formats[i].buf_type == buf_type && p->formats[i].fourcc == fourcc)
			return &p->formats[i];
	return NULL;
}

/* Says why, when the profile explains it: the quirk that made a driver refuse. */
static void explain_failure(struct ctl *c, unsigned long request, int err,
			    const struct v4l2_format *asked)
{
	const struct negcam_profile *p = c->profile;
	const struct negcam_format *f;
	char fcc[8];
	unsigned int i;

	if (err == -EBUSY) {
		fprintf(stderr, " (the queue is busy: buffers allocated or streaming)");
		return;
	}
	if (err == -ENOTTY && request == VIDIOC_TRY_FMT && (p->quirks & NC_QUIRK_NO_TRY_FMT)) {
		fprintf(stderr, " (quirk: this profile's driver does not implement TRY_FMT)");
		return;
	}
	if (err == -ENOTTY && (p->quirks & NC_QUIRK_FIXED_RATE) && request == VIDIOC_S_PARM) {
		fprintf(stderr, " (quirk: this profile's frame rate is fixed)");
		return;
	}
	if (err != -EINVAL || !asked ||
	    (request != VIDIOC_TRY_FMT && request != VIDIOC_S_FMT && request != VIDIOC_G_FMT))
		return;
	if (negcam_queue_of(asked->type) < 0 || !p->def[negcam_queue_of(asked->type)].fourcc) {
		char buf[32];

		fprintf(stderr, " (the profile has no %s formats)",
			ctl_buftype_name(asked->type, buf));
		return;
	}
	if (request == VIDIOC_G_FMT)
		return;
	if (!(p->quirks & NC_QUIRK_LEGACY_EINVAL))
		return;
	f = profile_format(p, asked->type, asked->fmt.pix.pixelformat);
	if (!f) {
		ctl_warn(" (2007 quirk: unknown fourcc '%s')",
			 ctl_fcc(asked->fmt.pix.pixelformat, fcc));
		return;
	}
	if (asked->fmt.pix.field == V4L2_FIELD_ANY)
		return;
	for (i = 0; i < f->nfields && i < NC_MAX_FIELDS; i++)
		if (f->fields[i] == asked->fmt.pix.field)
			return;
	fprintf(stderr, " (2007 quirk: field %s is not offered by '%s')",
		ctl_field_key(asked->fmt.pix.field), ctl_fcc(f->fourcc, fcc));
}

void ctl_report_failure(struct ctl *c, unsigned long request, int err,
			const struct v4l2_format *asked)
{
	fflush(stdout);
	fprintf(stderr, "%s: failed: %s", negcam_ioctl_name(request), strerror(-err));
	explain_failure(c, request, err, asked);
	fprintf(stderr, "\n");
	fail(c);
}

/* An ioctl whose failure is reported; returns 0 or -errno. */
static int do_ioctl(struct ctl *c, unsigned long request, void *arg)
{
	int ret = ctl_ioctl(c, request, arg);

	if (ret)
		ctl_report_failure(c, request, ret, NULL);
	return ret;
}

static void get_fmt(struct ctl *c, __u32 type)
{
	struct v4l2_format f, asked;
	int ret;

	memset(&f, 0, sizeof(f));
	f.type = type;
	f.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	asked = f;
	ret = ctl_ioctl(c, VIDIOC_G_FMT, &f);
	if (ret)
		ctl_report_failure(c, VIDIOC_G_FMT, ret, &asked);
	else
		ctl_print_fmt(c, &f);
}

/* The profile's buffer type for the queue of @type (multiplanar or not). */
static __u32 queue_type(const struct ctl *c, __u32 type)
{
	return negcam_engine_buf_type(c->engine.profile,
				      type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? NC_OUTPUT : NC_CAPTURE);
}

/* The fourcc at ENUM_FMT @index, 0 when there is none. */
static __u32 fourcc_at_index(struct ctl *c, __u32 type, __u32 index)
{
	struct v4l2_fmtdesc fd;

	memset(&fd, 0, sizeof(fd));
	fd.type = type;
	fd.index = index;
	return ctl_ioctl(c, VIDIOC_ENUM_FMT, &fd) ? 0 : fd.pixelformat;
}

/* As v4l2-ctl: start from G_FMT, overwrite the keys given, then TRY or S. */
static void try_or_set_fmt(struct ctl *c, const struct fmt_req *r, __u32 type, bool set)
{
	unsigned long request = set ? VIDIOC_S_FMT : VIDIOC_TRY_FMT;
	struct v4l2_format f, asked;
	struct v4l2_pix_format sp, *pix = &f.fmt.pix;
	bool mp = type != V4L2_BUF_TYPE_VIDEO_CAPTURE && type != V4L2_BUF_TYPE_VIDEO_OUTPUT;
	int ret;

	memset(&f, 0, sizeof(f));
	f.type = type;
	pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
	if (do_ioctl(c, VIDIOC_G_FMT, &f))
		return;
	if (mp) { /* edit the single-planar view, send the multiplanar request */
		negcam_pix_from_mp(&sp, &f.fmt.pix_mp);
		pix = &sp;
	}
	if (r->set & FMT_WIDTH)
		pix->width = r->width;
	if (r->set & FMT_HEIGHT)
		pix->height = r->height;
	if (r->set & FMT_PIXFMT_INDEX) {
		pix->pixelformat = fourcc_at_index(c, f.type, r->pixfmt);
		if (!pix->pixelformat) {
			fprintf(stderr, "%s: pixelformat index %u: no such format "
				"(see --list-formats%s)\n", prog, r->pixfmt,
				V4L2_TYPE_IS_OUTPUT(type) ? "-out" : "");
			fail(c);
			return;
		}
	} else if (r->set & FMT_PIXFMT) {
		/*
		 * Unlike v4l2-ctl, which refuses a fourcc the device does not
		 * enumerate, send it: what the driver answers is the point.
		 */
		pix->pixelformat = r->pixfmt;
	}
	if (r->set & FMT_FIELD)
		pix->field = r->field;
	/* G_FMT's stride would pin the old width; 0 lets the driver choose. */
	pix->bytesperline = (r->set & FMT_BPL) ? r->bpl : 0;
	if (r->set & FMT_SIZEIMAGE)
		pix->sizeimage = r->sizeimage;
	if (r->set & FMT_COLORSPACE) {
		pix->flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		pix->colorspace = r->colorspace;
	}
	if (r->set & FMT_YCBCR) {
		pix->flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		pix->ycbcr_enc = r->ycbcr;
	}
	if (r->set & FMT_QUANT) {
		pix->flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		pix->quantization = r->quant;
	}
	if (r->set & FMT_XFER) {
		pix->flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		pix->xfer_func = r->xfer;
	}
	if (mp)
		negcam_pix_to_mp(pix, &f.fmt.pix_mp);
	asked = f;
	ret = ctl_ioctl(c, request, &f);
	if (ret) {
		ctl_report_failure(c, request, ret, &asked);
		return;
	}
	ctl_print_fmt(c, &f);
}

static void get_parm(struct ctl *c)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE; /* as v4l2-ctl 1.22, multiplanar or not */
	if (!do_ioctl(c, VIDIOC_G_PARM, &p))
		ctl_print_parm(&p);
}

static void set_parm(struct ctl *c, double fps)
{
	struct v4l2_streamparm p;
	struct v4l2_fract *tf = &p.parm.capture.timeperframe;

	/* v4l2-ctl's arithmetic: 1000 / (fps * 1000), truncated. */
	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE; /* as v4l2-ctl 1.22, multiplanar or not */
	tf->numerator = 1000;
	tf->denominator = (__u32)(fps * tf->numerator);
	if (do_ioctl(c, VIDIOC_S_PARM, &p))
		return;
	if (!tf->denominator || !tf->numerator)
		printf("Invalid frame rate\n");
	else
		printf("Frame rate set to %.3f fps\n", 1.0 * tf->denominator / tf->numerator);
}

static void list_framesizes(struct ctl *c, __u32 fourcc)
{
	struct v4l2_frmsizeenum fs;

	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = fourcc;
	printf("ioctl: VIDIOC_ENUM_FRAMESIZES\n");
	while (fs.index < 100000 && ctl_ioctl(c, VIDIOC_ENUM_FRAMESIZES, &fs) >= 0) {
		ctl_print_frmsize(&fs, "");
		fs.index++;
	}
}

static void list_frameintervals(struct ctl *c, const struct fmt_req *r)
{
	struct v4l2_frmivalenum fi;

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = r->pixfmt;
	if (r->set & FMT_PIXFMT_INDEX) {
		fi.pixel_format = fourcc_at_index(c, queue_type(c, V4L2_BUF_TYPE_VIDEO_CAPTURE),
						  r->pixfmt);
		if (!fi.pixel_format) {
			fprintf(stderr, "%s: pixelformat index %u: no such format\n", prog,
				r->pixfmt);
			fail(c);
			return;
		}
	}
	fi.width = r->width;
	fi.height = r->height;
	printf("ioctl: VIDIOC_ENUM_FRAMEINTERVALS\n");
	while (fi.index < 100000 && ctl_ioctl(c, VIDIOC_ENUM_FRAMEINTERVALS, &fi) >= 0) {
		ctl_print_frmival(&fi, "");
		fi.index++;
	}
}

static void list_profiles(void)
{
	const struct negcam_builtin *b;
	unsigned int i;

	for (i = 0; (b = negcam_builtin_at(i)); i++)
		printf("%-16s %s\n", b->name, b->summary ? b->summary : "");
	ctl_list_shelf();
}

static void show_profile(struct ctl *c, const char *name)
{
	const struct negcam_builtin *b = negcam_builtin_find(name);

	if (!b && !ctl_show_shelf(name))
		return;
	if (!b) {
		ctl_warn("%s: --show-profile: no built-in or shelf profile '%s' "
			 "(see --list-profiles)\n", prog, name);
		fail(c);
		return;
	}
	fputs(b->text, stdout);
	if (*b->text && b->text[strlen(b->text) - 1] != '\n')
		putchar('\n');
}

static void validate(struct ctl *c, const char *path)
{
	static struct negcam_profile p; /* large: not on the stack */
	const char *label = strcmp(path, "-") ? path : "<stdin>";
	__u32 len = 0;
	int err;
	char *text = read_file(path, &len, &err), msg[1024];

	if (!text) {
		ctl_warn("%s: %s\n", label, read_error(err));
		fail(c);
		return;
	}
	if (negcam_profile_load_text(label, text, len, &p, msg, sizeof(msg))) {
		ctl_warn("%s\n", msg);
		fail(c);
	} else {
		printf("%s: ok\n", label);
	}
	free(text);
}

static void import(struct ctl *c, const char *path, const char *name)
{
	const char *label = strcmp(path, "-") ? path : "<stdin>";
	__u32 len = 0;
	int err;
	char *text = read_file(path, &len, &err);
	FILE *in = text ? fmemopen(text, len, "r") : NULL;

	if (!in) {
		ctl_warn("%s: --import '%s': %s\n", prog, path,
			 read_error(text ? errno : err));
		free(text);
		fail(c);
		return;
	}
	if (ctl_import(in, label, stdout, name))
		fail(c);
	fclose(in);
	free(text);
}

static void dump(struct ctl *c, const char *path, const char *name, bool drop_unknown)
{
	if (ctl_dump(path, stdout, name ? name : "dumped", drop_unknown))
		fail(c);
}

/* The parser's rule for 'name' (docs/profiles.md), checked before anything runs. */
static bool valid_profile_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 31 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n;
}

static bool needs_engine(int opt)
{
	switch (opt) {
	case OPT_INFO:
	case OPT_LIST_FORMATS:
	case OPT_LIST_FORMATS_EXT:
	case OPT_LIST_FORMATS_OUT:
	case OPT_LIST_FORMATS_OUT_EXT:
	case OPT_LIST_FRAMESIZES:
	case OPT_LIST_FRAMEINTERVALS:
	case OPT_GET_FMT:
	case OPT_TRY_FMT:
	case OPT_SET_FMT:
	case OPT_GET_FMT_OUT:
	case OPT_TRY_FMT_OUT:
	case OPT_SET_FMT_OUT:
	case OPT_GET_PARM:
	case OPT_SET_PARM:
	case OPT_BUSY:
	case OPT_IDLE:
	case OPT_ALL:
	case OPT_LIST_DEVICES:
		return true;
	}
	return false;
}

static bool drop_unknown;

static void run(struct ctl *c, const struct action *a, const char *import_name)
{
	struct v4l2_capability cap;

	switch (a->opt) {
	case OPT_LIST_PROFILES:
		list_profiles();
		break;
	case OPT_SHOW_PROFILE:
		show_profile(c, a->arg);
		break;
	case OPT_VALIDATE:
		validate(c, a->arg);
		break;
	case OPT_IMPORT:
		import(c, a->arg, import_name ? import_name : "imported");
		break;
	case OPT_DUMP:
		dump(c, a->arg, import_name, drop_unknown);
		break;
	case OPT_INFO:
		memset(&cap, 0, sizeof(cap));
		if (!do_ioctl(c, VIDIOC_QUERYCAP, &cap))
			ctl_print_querycap(&cap);
		break;
	case OPT_ALL:
		ctl_all(c);
		break;
	case OPT_LIST_DEVICES:
		ctl_list_devices(c, "/dev/video0");
		break;
	case OPT_LIST_FORMATS:
	case OPT_LIST_FORMATS_EXT:
		ctl_list_formats(c, queue_type(c, V4L2_BUF_TYPE_VIDEO_CAPTURE),
				 a->opt == OPT_LIST_FORMATS_EXT);
		break;
	case OPT_LIST_FORMATS_OUT:
	case OPT_LIST_FORMATS_OUT_EXT:
		ctl_list_formats(c, queue_type(c, V4L2_BUF_TYPE_VIDEO_OUTPUT),
				 a->opt == OPT_LIST_FORMATS_OUT_EXT);
		break;
	case OPT_LIST_FRAMESIZES:
		list_framesizes(c, a->fourcc);
		break;
	case OPT_LIST_FRAMEINTERVALS:
		list_frameintervals(c, &a->fmt);
		break;
	case OPT_GET_FMT:
	case OPT_GET_FMT_OUT:
		get_fmt(c, queue_type(c, a->type));
		break;
	case OPT_TRY_FMT:
	case OPT_TRY_FMT_OUT:
	case OPT_SET_FMT:
	case OPT_SET_FMT_OUT:
		try_or_set_fmt(c, &a->fmt, queue_type(c, a->type),
			       a->opt == OPT_SET_FMT || a->opt == OPT_SET_FMT_OUT);
		break;
	case OPT_GET_PARM:
		get_parm(c);
		break;
	case OPT_SET_PARM:
		set_parm(c, a->fps);
		break;
	case OPT_BUSY:
	case OPT_IDLE:
		negcam_engine_set_busy(&c->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE,
				       a->opt == OPT_BUSY);
		break;
	}
	fflush(stdout);
}

static void parse_action(struct action *a)
{
	struct fmt_req r;
	char *end;

	a->type = a->opt == OPT_GET_FMT_OUT || a->opt == OPT_TRY_FMT_OUT ||
			  a->opt == OPT_SET_FMT_OUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
						      V4L2_BUF_TYPE_VIDEO_CAPTURE;
	switch (a->opt) {
	case OPT_TRY_FMT:
	case OPT_SET_FMT:
	case OPT_TRY_FMT_OUT:
	case OPT_SET_FMT_OUT:
		parse_fmt_req(a->opt == OPT_TRY_FMT ? "--try-fmt" :
			      a->opt == OPT_SET_FMT ? "--set-fmt" :
			      a->opt == OPT_TRY_FMT_OUT ? "--try-fmt-video-out" :
							  "--set-fmt-video-out",
			      a->arg, &a->fmt, false);
		break;
	case OPT_LIST_FRAMEINTERVALS:
		parse_fmt_req("--list-frameintervals", a->arg, &a->fmt, true);
		if ((a->fmt.set & (FMT_WIDTH | FMT_HEIGHT | FMT_PIXFMT)) !=
		    (FMT_WIDTH | FMT_HEIGHT | FMT_PIXFMT))
			usage_error("--list-frameintervals: needs width=W,height=H,pixelformat=F");
		break;
	case OPT_LIST_FRAMESIZES:
		memset(&r, 0, sizeof(r));
		parse_pixfmt("--list-framesizes", a->arg, &r);
		if (r.set & FMT_PIXFMT_INDEX)
			usage_error("--list-framesizes: give a fourcc, not a number");
		a->fourcc = r.pixfmt;
		break;
	case OPT_SET_PARM:
		errno = 0;
		a->fps = strtod(a->arg, &end);
		if (errno || end == a->arg || *end || !isfinite(a->fps) || a->fps < 0 ||
		    a->fps * 1000 > 4294967295.0)
			usage_error("--set-parm: '%s' is not a frame rate (frames per second, "
				    "e.g. 30 or 29.97)", a->arg);
		/* 1000/0 would ask the driver's default rate, not the one given */
		if (a->fps * 1000 < 1)
			usage_error("--set-parm: %s fps is no frame rate: give at least 0.001 "
				    "(frames per second, e.g. 30 or 29.97)", a->arg);
		break;
	}
}

int main(int argc, char **argv)
{
	static struct ctl ctl;
	struct action *actions;
	const char *profile_spec = NULL, *import_name = NULL;
	unsigned int nactions = 0, i;
	bool engine_needed = false;
	int ch;

	if (argc > 1 && !strcmp(argv[1], "loop"))
		return ctl_loop_main(argc - 1, argv + 1);
	actions = calloc((size_t)argc + 1, sizeof(*actions));
	if (!actions)
		return CTL_EXIT_FAIL;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:hDVv:Pp:Xx:", long_options, NULL)) != -1) {
		switch (ch) {
		case OPT_HELP:
			usage(stdout);
			return CTL_EXIT_OK;
		case OPT_VERSION:
			printf("negcam-ctl %s\n", NEGCAM_VERSION);
			return CTL_EXIT_OK;
		case OPT_PROFILE:
			if (profile_spec)
				usage_error("--profile given twice ('%s' and '%s')", profile_spec,
					    optarg);
			profile_spec = optarg;
			break;
		case OPT_NAME:
			if (!valid_profile_name(optarg))
				usage_error("--name '%s': a profile name is 1 to 31 letters, digits, "
					    "'-', '_' or '.'", optarg);
			import_name = optarg;
			break;
		case OPT_DROP_UNKNOWN:
			drop_unknown = true;
			break;
		case ':':
			usage_error("option '%s' needs a value", argv[optind - 1]);
			break;
		case '?':
			if (optopt)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
			break;
		default:
			actions[nactions].opt = ch;
			actions[nactions].arg = optarg;
			parse_action(&actions[nactions]);
			engine_needed |= needs_engine(ch);
			nactions++;
			break;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!nactions && !profile_spec) {
		usage(stderr);
		return CTL_EXIT_USAGE;
	}
	if (engine_needed || profile_spec)
		load_profile(&ctl, profile_spec ? profile_spec : "webcam");
	for (i = 0; i < nactions; i++)
		run(&ctl, &actions[i], import_name);
	free(actions);
	free(ctl.profile);
	return ctl.status;
}
