// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * --dump: a live V4L2 device to a negcam profile, by asking it what an
 * application asks: VIDIOC_QUERYCAP (card, queues), VIDIOC_ENUM_FMT,
 * VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS (exact fractions),
 * VIDIOC_TRY_FMT per format (default field, the fields it accepts,
 * colorimetry), VIDIOC_G_FMT and VIDIOC_G_PARM (the default format and
 * rate), and a few probes for the behaviours the profile language names
 * (adjust nearest or downward, the legacy quirks). A USB camera's ids
 * come from sysfs (the node's device is a USB interface whose parent has
 * idVendor and idProduct) and are written as its usb-id line.
 *
 * Nothing is changed on the device: only QUERYCAP, ENUM_*, TRY_FMT, G_FMT
 * and G_PARM are used. The result is parsed before it is written, so
 * what --dump prints always loads; anything the profile language cannot
 * express is said on stderr (and, for fourccs missing from negcam's
 * table, refused unless --drop-unknown says to leave them out).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctl.h"

#define DUMP_MAX_ENUM 100000 /* a driver that never says EINVAL is broken: stop */
#define DUMP_MAX_TERM 1000000u

struct dump_ival {
	int kind; /* V4L2_FRMIVAL_TYPE_* */
	struct v4l2_fract min, max, step;
};

struct dump_size {
	int kind; /* V4L2_FRMSIZE_TYPE_* */
	__u32 min_w, min_h, max_w, max_h, step_w, step_h;
	struct dump_ival *ivals;
	unsigned int nivals;
};

struct dump_format {
	__u32 fourcc;
	int queue;
	char desc[32];
	__u32 flags; /* the ENUM_FMT flags a profile states (CSC) */
	__u8 fields[NC_MAX_FIELDS];
	unsigned int nfields;
	__u32 colorspace, ycbcr_enc, quantization, xfer_func;
	struct dump_size *sizes;
	unsigned int nsizes;
	bool placeholder; /* no ENUM_FRAMESIZES: one size from TRY_FMT */
};

struct dump {
	const char *path;
	int fd;
	unsigned int errors, warnings;
	struct dump_format *formats;
	unsigned int nformats;
	bool mplane[NC_NQUEUES];
	bool no_sizes, no_ivals, no_try;
	__u32 warned_flags;
};

static void __attribute__((format(printf, 2, 3))) dump_error(struct dump *d, const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	ctl_warn("%s: ", d->path);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap); /* a device's strings may hold any byte */
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 2, 3))) dump_warn(struct dump *d, const char *fmt, ...)
{
	va_list ap;

	d->warnings++;
	ctl_warn("%s: warning: ", d->path);
	va_start(ap, fmt);
	ctl_vwarn(fmt, ap); /* a device's strings may hold any byte */
	va_end(ap);
	fputc('\n', stderr);
}

static void *dump_grow(void *p, unsigned int n, size_t elem)
{
	if (n && (n & (n - 1)))
		return p;
	p = realloc(p, (n ? 2 * (size_t)n : 4) * elem);
	if (!p) {
		fprintf(stderr, "negcam-ctl: --dump: out of memory\n");
		exit(CTL_EXIT_FAIL);
	}
	return p;
}

/* ioctl() that retries on EINTR; 0 or -errno. */
static int xioctl(struct dump *d, unsigned long request, void *arg)
{
	int r;

	do {
		r = ioctl(d->fd, request, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

/*
 * Reduced, and within the profile language's terms (1 to 1000000). A
 * driver's fraction with larger terms is scaled down with a warning: the
 * only place --dump cannot keep a value exactly.
 */
static int fix_fract(struct dump *d, struct v4l2_fract *f, const char *what)
{
	__u64 n = f->numerator, m = f->denominator, g;

	if (!n || !m) {
		dump_error(d, "%s: the driver reports the interval %u/%u", what, f->numerator,
			   f->denominator);
		return -1;
	}
	g = ctl_gcd(n, m);
	n /= g;
	m /= g;
	if (n > DUMP_MAX_TERM || m > DUMP_MAX_TERM) {
		__u64 k = (n > m ? n : m) / DUMP_MAX_TERM + 1;
		__u64 n2 = (n + k / 2) / k, m2 = (m + k / 2) / k;

		if (!n2)
			n2 = 1;
		if (!m2)
			m2 = 1;
		g = ctl_gcd(n2, m2);
		dump_warn(d, "%s: interval %llu/%llu has terms above %u: written as %llu/%llu", what,
			  (unsigned long long)n, (unsigned long long)m, DUMP_MAX_TERM,
			  (unsigned long long)(n2 / g), (unsigned long long)(m2 / g));
		n = n2 / g;
		m = m2 / g;
	}
	f->numerator = (__u32)n;
	f->denominator = (__u32)m;
	return 0;
}

static __u32 buf_type(struct dump *d, int queue)
{
	if (queue == NC_CAPTURE)
		return d->mplane[queue] ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
					  V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return d->mplane[queue] ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE : V4L2_BUF_TYPE_VIDEO_OUTPUT;
}

/*
 * A request for @queue: @p's fields in its buffer type. A multiplanar
 * queue gets the engine's mapping (negcam_pix_to_mp) with no planes, so
 * the driver chooses them.
 */
static void fmt_set(struct dump *d, int queue, struct v4l2_format *f,
		    const struct v4l2_pix_format *p)
{
	memset(f, 0, sizeof(*f));
	f->type = buf_type(d, queue);
	if (d->mplane[queue]) {
		negcam_pix_to_mp(p, &f->fmt.pix_mp);
		f->fmt.pix_mp.num_planes = 0;
		memset(f->fmt.pix_mp.plane_fmt, 0, sizeof(f->fmt.pix_mp.plane_fmt));
	} else {
		f->fmt.pix = *p;
		f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	}
}

/* The single-planar view of the driver's answer: the engine's mapping (negcam_pix_from_mp). */
static void fmt_get(struct dump *d, int queue, const struct v4l2_format *f,
		    struct v4l2_pix_format *p)
{
	if (d->mplane[queue])
		negcam_pix_from_mp(p, &f->fmt.pix_mp);
	else
		*p = f->fmt.pix;
}

/* TRY_FMT; 0 or -errno, the answer in *out. */
static int try_fmt(struct dump *d, int queue, const struct v4l2_pix_format *req, struct v4l2_pix_format *out)
{
	struct v4l2_format f;
	int r;

	fmt_set(d, queue, &f, req);
	r = xioctl(d, VIDIOC_TRY_FMT, &f);
	if (!r)
		fmt_get(d, queue, &f, out);
	return r;
}

static void enum_intervals(struct dump *d, struct dump_format *f, struct dump_size *sz)
{
	struct v4l2_frmivalenum fi;
	char what[96], f4[8];
	unsigned int i;
	int r;

	snprintf(what, sizeof(what), "'%s' %ux%u", ctl_fcc(f->fourcc, f4), sz->min_w, sz->min_h);
	for (i = 0; i < DUMP_MAX_ENUM; i++) {
		struct dump_ival iv;
		unsigned int j;
		bool dup = false;

		memset(&fi, 0, sizeof(fi));
		fi.index = i;
		fi.pixel_format = f->fourcc;
		fi.width = sz->min_w;
		fi.height = sz->min_h;
		r = xioctl(d, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
		if (r == -ENOTTY && i == 0) {
			d->no_ivals = true;
			return;
		}
		if (r)
			return;
		memset(&iv, 0, sizeof(iv));
		iv.kind = (int)fi.type;
		if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
			iv.min = fi.discrete;
			if (fix_fract(d, &iv.min, what))
				return;
		} else {
			iv.min = fi.stepwise.min;
			iv.max = fi.stepwise.max;
			iv.step = fi.stepwise.step;
			if (fix_fract(d, &iv.min, what) || fix_fract(d, &iv.max, what) ||
			    (fi.type == V4L2_FRMIVAL_TYPE_STEPWISE && fix_fract(d, &iv.step, what)))
				return;
			if (fi.type != V4L2_FRMIVAL_TYPE_CONTINUOUS &&
			    fi.type != V4L2_FRMIVAL_TYPE_STEPWISE) {
				dump_error(d, "%s: unknown frame interval type %u", what, fi.type);
				return;
			}
		}
		for (j = 0; j < sz->nivals; j++)
			dup |= sz->ivals[j].kind == V4L2_FRMIVAL_TYPE_DISCRETE &&
			       iv.kind == V4L2_FRMIVAL_TYPE_DISCRETE &&
			       sz->ivals[j].min.numerator == iv.min.numerator &&
			       sz->ivals[j].min.denominator == iv.min.denominator;
		if (dup) {
			dump_warn(d, "%s: interval %u/%u enumerated twice: listed once", what,
				  iv.min.numerator, iv.min.denominator);
			continue;
		}
		sz->ivals = dump_grow(sz->ivals, sz->nivals, sizeof(*sz->ivals));
		sz->ivals[sz->nivals++] = iv;
		if (iv.kind != V4L2_FRMIVAL_TYPE_DISCRETE)
			return; /* a range is the only entry */
	}
}

static void enum_sizes(struct dump *d, struct dump_format *f)
{
	struct v4l2_frmsizeenum fs;
	unsigned int i, j;
	char f4[8];
	int r;

	for (i = 0; i < DUMP_MAX_ENUM; i++) {
		struct dump_size sz;
		bool dup = false;

		memset(&fs, 0, sizeof(fs));
		fs.index = i;
		fs.pixel_format = f->fourcc;
		r = xioctl(d, VIDIOC_ENUM_FRAMESIZES, &fs);
		if (r == -ENOTTY && i == 0) {
			d->no_sizes = true;
			return;
		}
		if (r)
			return;
		memset(&sz, 0, sizeof(sz));
		sz.kind = (int)fs.type;
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			sz.min_w = fs.discrete.width;
			sz.min_h = fs.discrete.height;
		} else if (fs.type == V4L2_FRMSIZE_TYPE_STEPWISE ||
			   fs.type == V4L2_FRMSIZE_TYPE_CONTINUOUS) {
			sz.min_w = fs.stepwise.min_width;
			sz.min_h = fs.stepwise.min_height;
			sz.max_w = fs.stepwise.max_width;
			sz.max_h = fs.stepwise.max_height;
			sz.step_w = fs.type == V4L2_FRMSIZE_TYPE_CONTINUOUS ? 1 : fs.stepwise.step_width;
			sz.step_h = fs.type == V4L2_FRMSIZE_TYPE_CONTINUOUS ? 1 : fs.stepwise.step_height;
		} else {
			dump_error(d, "'%s': unknown frame size type %u", ctl_fcc(f->fourcc, f4),
				   fs.type);
			return;
		}
		for (j = 0; j < f->nsizes && sz.kind == V4L2_FRMSIZE_TYPE_DISCRETE; j++)
			dup |= f->sizes[j].min_w == sz.min_w && f->sizes[j].min_h == sz.min_h;
		if (dup) {
			dump_warn(d, "'%s': %ux%u enumerated twice: listed once", ctl_fcc(f->fourcc, f4),
				  sz.min_w, sz.min_h);
			continue;
		}
		/* A range's rates: what the driver says for its smallest size. */
		enum_intervals(d, f, &sz);
		f->sizes = dump_grow(f->sizes, f->nsizes, sizeof(*f->sizes));
		f->sizes[f->nsizes++] = sz;
		if (sz.kind != V4L2_FRMSIZE_TYPE_DISCRETE)
			return;
	}
}

/* The default field first, then every other field TRY_FMT keeps. */
static void probe_fields(struct dump *d, struct dump_format *f, __u32 w, __u32 h)
{
	static const __u8 all[] = {
		V4L2_FIELD_NONE,       V4L2_FIELD_TOP,           V4L2_FIELD_BOTTOM,
		V4L2_FIELD_INTERLACED, V4L2_FIELD_SEQ_TB,        V4L2_FIELD_SEQ_BT,
		V4L2_FIELD_ALTERNATE,  V4L2_FIELD_INTERLACED_TB, V4L2_FIELD_INTERLACED_BT,
	};
	struct v4l2_pix_format req = { .width = w, .height = h, .pixelformat = f->fourcc,
				.field = V4L2_FIELD_ANY }, ans;
	unsigned int i, j;
	char f4[8];
	int r;

	r = try_fmt(d, f->queue, &req, &ans);
	if (r == -ENOTTY) {
		d->no_try = true;
		return;
	}
	if (r) {
		dump_warn(d, "'%s': TRY_FMT failed (%s): field and colorimetry left to the "
			  "defaults", ctl_fcc(f->fourcc, f4), strerror(-r));
		return;
	}
	if (ans.pixelformat != f->fourcc) {
		dump_warn(d, "'%s': TRY_FMT answers '%s' for it: field and colorimetry left to "
			  "the defaults", ctl_fcc(f->fourcc, f4), ctl_fcc(ans.pixelformat, f4));
		return;
	}
	f->colorspace = ans.colorspace;
	f->ycbcr_enc = ans.ycbcr_enc;
	f->quantization = ans.quantization;
	f->xfer_func = ans.xfer_func;
	if (ans.field == V4L2_FIELD_ANY || ans.field > V4L2_FIELD_INTERLACED_BT)
		return;
	f->fields[f->nfields++] = (__u8)ans.field;
	for (i = 0; i < NC_ARRAY_SIZE(all) && f->nfields < NC_MAX_FIELDS; i++) {
		bool have = false;

		for (j = 0; j < f->nfields; j++)
			have |= f->fields[j] == all[i];
		if (have)
			continue;
		req.field = all[i];
		if (!try_fmt(d, f->queue, &req, &ans) && ans.field == all[i] &&
		    ans.pixelformat == f->fourcc)
			f->fields[f->nfields++] = all[i];
	}
}

/*
 * A format without ENUM_FRAMESIZES: the one size the driver settles on
 * (TRY_FMT of 640x480) with its intervals, or the G_PARM rate, marked as
 * a placeholder in the profile since other sizes may exist.
 */
static void no_sizes(struct dump *d, struct dump_format *f)
{
	struct v4l2_pix_format req = { .width = 640, .height = 480, .pixelformat = f->fourcc,
				.field = V4L2_FIELD_ANY }, ans = { 0 };
	struct v4l2_streamparm parm;
	struct dump_size sz;

	probe_fields(d, f, 640, 480);
	memset(&sz, 0, sizeof(sz));
	sz.kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	sz.min_w = 640;
	sz.min_h = 480;
	struct v4l2_format g;
	struct v4l2_pix_format zero = { 0 };

	/* The current format's size when it is this one, else what TRY settles on. */
	fmt_set(d, f->queue, &g, &zero);
	if (!xioctl(d, VIDIOC_G_FMT, &g))
		fmt_get(d, f->queue, &g, &ans);
	if (ans.pixelformat == f->fourcc && ans.width && ans.height) {
		sz.min_w = ans.width;
		sz.min_h = ans.height;
	} else if (!try_fmt(d, f->queue, &req, &ans) && ans.pixelformat == f->fourcc &&
		   ans.width && ans.height) {
		sz.min_w = ans.width;
		sz.min_h = ans.height;
	}
	enum_intervals(d, f, &sz);
	memset(&parm, 0, sizeof(parm));
	parm.type = buf_type(d, f->queue);
	if (!sz.nivals && !xioctl(d, VIDIOC_G_PARM, &parm)) {
		struct dump_ival iv = { .kind = V4L2_FRMIVAL_TYPE_DISCRETE };

		iv.min = f->queue == NC_CAPTURE ? parm.parm.capture.timeperframe :
						  parm.parm.output.timeperframe;
		if (iv.min.numerator && iv.min.denominator && !fix_fract(d, &iv.min, "G_PARM")) {
			sz.ivals = dump_grow(sz.ivals, 0, sizeof(*sz.ivals));
			sz.ivals[sz.nivals++] = iv;
		}
	}
	f->placeholder = true;
	f->sizes = dump_grow(f->sizes, f->nsizes, sizeof(*f->sizes));
	f->sizes[f->nsizes++] = sz;
}

#define DUMP_CSC_FLAGS (V4L2_FMT_FLAG_CSC_COLORSPACE | V4L2_FMT_FLAG_CSC_XFER_FUNC | \
			V4L2_FMT_FLAG_CSC_YCBCR_ENC | V4L2_FMT_FLAG_CSC_QUANTIZATION)

static void enum_formats(struct dump *d, int queue, bool drop_unknown)
{
	struct v4l2_fmtdesc fd;
	unsigned int i;
	char f4[8];

	for (i = 0; i < DUMP_MAX_ENUM; i++) {
		const struct negcam_fourcc_info *fi;
		struct dump_format *f;
		__u32 other, csc;

		memset(&fd, 0, sizeof(fd));
		fd.index = i;
		fd.type = buf_type(d, queue);
		if (xioctl(d, VIDIOC_ENUM_FMT, &fd))
			return;
		fi = negcam_fourcc_lookup(fd.pixelformat);
		if (!fi) {
			if (drop_unknown)
				dump_warn(d, "[%u] '%s' (%.32s) is not in negcam's format table: left "
					  "out (--drop-unknown)", i, ctl_fcc(fd.pixelformat, f4),
					  (const char *)fd.description);
			else
				dump_error(d, "[%u] '%s' (%.32s) is not in negcam's format table "
					   "(--drop-unknown leaves such formats out)", i,
					   ctl_fcc(fd.pixelformat, f4), (const char *)fd.description);
			continue;
		}
		/* the CSC flags of a raw capture format go into the profile */
		csc = (queue == NC_CAPTURE && fi->layout != NC_LAYOUT_COMPRESSED) ?
		      fd.flags & DUMP_CSC_FLAGS : 0;
		other = fd.flags & ~(__u32)V4L2_FMT_FLAG_COMPRESSED & ~csc & ~d->warned_flags;
		if (other) {
			d->warned_flags |= other;
			dump_warn(d, "'%s' reports ENUM_FMT flags 0x%x (emulated, codec flags, csc-* on "
				  "output or compressed formats) that a profile cannot set: left out "
				  "(warned once per flag)", ctl_fcc(fd.pixelformat, f4), other);
		}
		d->formats = dump_grow(d->formats, d->nformats, sizeof(*d->formats));
		f = &d->formats[d->nformats++];
		memset(f, 0, sizeof(*f));
		f->fourcc = fd.pixelformat;
		f->queue = queue;
		snprintf(f->desc, sizeof(f->desc), "%.31s", (const char *)fd.description);
		f->flags = csc;
		enum_sizes(d, f);
		if (f->nsizes)
			probe_fields(d, f, f->sizes[0].min_w, f->sizes[0].min_h);
		else
			no_sizes(d, f);
	}
}

/* Does this format offer w x h (and, when iv is given, that interval there)? */
static bool offers(const struct dump_format *f, __u32 w, __u32 h, const struct v4l2_fract *iv)
{
	unsigned int i, j;

	for (i = 0; i < f->nsizes; i++) {
		const struct dump_size *sz = &f->sizes[i];

		if (sz->kind == V4L2_FRMSIZE_TYPE_DISCRETE ? (sz->min_w != w || sz->min_h != h) :
		    (w < sz->min_w || w > sz->max_w || h < sz->min_h || h > sz->max_h ||
		     (w - sz->min_w) % sz->step_w || (h - sz->min_h) % sz->step_h))
			continue;
		if (!iv)
			return true;
		for (j = 0; j < sz->nivals; j++) {
			const struct dump_ival *v = &sz->ivals[j];

			if (v->kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
				if (!nc_fract_cmp(*iv, v->min))
					return true;
				continue;
			}
			if (nc_fract_cmp(*iv, v->min) < 0 || nc_fract_cmp(*iv, v->max) > 0)
				return false;
			/* fractions fix_fract() reduced, terms at most 1e6 */
			return v->kind == V4L2_FRMIVAL_TYPE_CONTINUOUS || !v->step.numerator ||
			       nc_fract_on_step(*iv, v->min, v->step);
		}
		return false;
	}
	return false;
}

/* The device's current format and rate, when the profile can name them. */
static void build_default(struct dump *d, struct negcam_profile *p, int queue)
{
	struct v4l2_format f;
	struct v4l2_streamparm parm;
	struct v4l2_pix_format cur, zero = { 0 };
	const struct dump_format *df = NULL;
	struct v4l2_fract iv = { 0, 0 };
	struct negcam_default *def = &p->def[queue];
	unsigned int i;

	fmt_set(d, queue, &f, &zero);
	if (xioctl(d, VIDIOC_G_FMT, &f))
		return;
	fmt_get(d, queue, &f, &cur);
	for (i = 0; i < d->nformats; i++)
		if (d->formats[i].queue == queue && d->formats[i].fourcc == cur.pixelformat)
			df = &d->formats[i];
	if (!df)
		return;
	memset(&parm, 0, sizeof(parm));
	parm.type = buf_type(d, queue);
	if (!xioctl(d, VIDIOC_G_PARM, &parm)) {
		iv = queue == NC_CAPTURE ? parm.parm.capture.timeperframe :
					   parm.parm.output.timeperframe;
		if (!iv.numerator || !iv.denominator || fix_fract(d, &iv, "G_PARM"))
			iv.numerator = 0;
	}
	def->fourcc = cur.pixelformat;
	if (!df->nsizes || !offers(df, cur.width, cur.height, NULL))
		return; /* the parser's default size */
	def->width = cur.width;
	def->height = cur.height;
	if (iv.numerator && offers(df, cur.width, cur.height, &iv))
		def->interval = iv;
}

/*
 * adjust nearest or downward: ask for a hair less than the largest
 * discrete size of the current format. Downward gives a smaller size,
 * nearest gives the largest back. Unknown (no answer): the default.
 */
static const char *probe_adjust(struct dump *d)
{
	unsigned int i, j;

	for (i = 0; i < d->nformats; i++) {
		const struct dump_format *f = &d->formats[i];
		const struct dump_size *big = NULL;
		struct v4l2_pix_format req = { 0 }, ans;
		unsigned int smaller = 0;

		if (f->queue != NC_CAPTURE)
			continue;
		for (j = 0; j < f->nsizes; j++) {
			const struct dump_size *sz = &f->sizes[j];

			if (sz->kind != V4L2_FRMSIZE_TYPE_DISCRETE)
				break;
			if (!big || (__u64)sz->min_w * sz->min_h > (__u64)big->min_w * big->min_h)
				big = sz;
		}
		if (j < f->nsizes || !big || f->nsizes < 2)
			continue;
		for (j = 0; j < f->nsizes; j++)
			smaller += f->sizes[j].min_w < big->min_w && f->sizes[j].min_h < big->min_h;
		if (!smaller)
			continue;
		req.width = big->min_w - 1;
		req.height = big->min_h - 1;
		req.pixelformat = f->fourcc;
		req.field = V4L2_FIELD_ANY;
		if (try_fmt(d, NC_CAPTURE, &req, &ans) || ans.pixelformat != f->fourcc)
			return NULL;
		if (ans.width == big->min_w && ans.height == big->min_h)
			return "nearest";
		return "downward";
	}
	return NULL;
}

static bool probe_legacy_einval(struct dump *d)
{
	struct v4l2_pix_format req = { .width = 640, .height = 480, .field = V4L2_FIELD_ANY }, ans;

	/* A fourcc no driver has: today's drivers correct it, 2007's refused it. */
	req.pixelformat = v4l2_fourcc('N', 'C', '?', '!');
	return d->nformats && !d->no_try && try_fmt(d, NC_CAPTURE, &req, &ans) == -EINVAL;
}

static bool probe_fixed_rate(struct dump *d)
{
	struct v4l2_streamparm parm;
	int r;

	memset(&parm, 0, sizeof(parm));
	parm.type = buf_type(d, NC_CAPTURE);
	r = xioctl(d, VIDIOC_G_PARM, &parm);
	return r == -ENOTTY || (!r && !(parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME));
}

/* One size and its rates (fps 30 as a placeholder when it has none): 0, or -1 (b->why). */
static int build_size(struct dump *d, struct ctl_build *b, const struct dump_size *sz,
		      __u32 fourcc)
{
	static const struct v4l2_fract fps30 = { 1, 30 };
	struct negcam_size dims = { .min_w = sz->min_w, .max_w = sz->max_w, .step_w = sz->step_w,
				    .min_h = sz->min_h, .max_h = sz->max_h, .step_h = sz->step_h };
	const struct dump_ival *iv = sz->ivals;
	__u8 kind = (__u8)sz->kind;
	unsigned int i;
	char f4[8];

	if (kind != V4L2_FRMSIZE_TYPE_DISCRETE)
		kind = sz->step_w == 1 && sz->step_h == 1 ? V4L2_FRMSIZE_TYPE_CONTINUOUS :
							    V4L2_FRMSIZE_TYPE_STEPWISE;
	if (ctl_build_size(b, &dims, kind, 0))
		return -1;
	if (!sz->nivals) {
		if (!d->no_ivals)
			dump_warn(d, "'%s' %ux%u: ENUM_FRAMEINTERVALS gives nothing: wrote fps 30 "
				  "as a placeholder", ctl_fcc(fourcc, f4), sz->min_w, sz->min_h);
		if (ctl_build_rate(b, V4L2_FRMIVAL_TYPE_DISCRETE, fps30, fps30, fps30))
			return -1;
	} else if (iv->kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		for (i = 0; i < sz->nivals; i++)
			if (ctl_build_rate(b, V4L2_FRMIVAL_TYPE_DISCRETE, iv[i].min, iv[i].min,
					   iv[i].min))
				return -1;
	} else if (ctl_build_rate(b, iv->kind == V4L2_FRMIVAL_TYPE_STEPWISE && iv->step.numerator &&
					     !(iv->step.numerator == 1 && iv->step.denominator == 1) ?
					     V4L2_FRMIVAL_TYPE_STEPWISE : V4L2_FRMIVAL_TYPE_CONTINUOUS,
				  iv->min, iv->max, iv->step)) {
		return -1;
	}
	ctl_build_size_end(b, !sz->nivals);
	return 0;
}

/* A format as the device answers it; what the parser would default stays zero. */
static int build_format(struct dump *d, struct ctl_build *b, const struct dump_format *f)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);
	struct negcam_format *nf = ctl_build_format(b, f->fourcc, f->queue, 0);
	unsigned int j;

	if (!nf)
		return -1;
	if (fi && f->desc[0] && strcmp(fi->description, f->desc) && !strchr(f->desc, '"'))
		snprintf(nf->description, sizeof(nf->description), "%s", f->desc);
	nf->flags = f->flags;
	memcpy(nf->fields, f->fields, f->nfields);
	nf->nfields = (__u8)f->nfields;
	/* the driver's values: unnamed ones (DEFAULT) are not written */
	nf->colorspace = (__u8)(f->colorspace > 0xff ? 0xff : f->colorspace);
	nf->ycbcr_enc = (__u8)(f->ycbcr_enc > 0xff ? 0xff : f->ycbcr_enc);
	nf->quantization = (__u8)(f->quantization > 0xff ? 0xff : f->quantization);
	nf->xfer_func = (__u8)(f->xfer_func > 0xff ? 0xff : f->xfer_func);
	if (f->placeholder)
		b->format_note[b->p->nformats - 1] =
			"# no ENUM_FRAMESIZES: the size TRY_FMT settles on, G_PARM's rate";
	for (j = 0; j < f->nsizes; j++)
		if (build_size(d, b, &f->sizes[j], f->fourcc))
			return -1;
	return 0;
}

/* The profile the device answers as; 0, or -1 when a profile cannot hold it (b->why). */
static int generate(struct dump *d, struct ctl_build *b, bool *adjust_probed)
{
	const char *adjust = probe_adjust(d);
	bool legacy = probe_legacy_einval(d), fixed = probe_fixed_rate(d), sizes_missing = false;
	unsigned int i;
	int q;

	*adjust_probed = adjust != NULL;
	b->p->adjust = adjust && !strcmp(adjust, "nearest") ? NC_ADJUST_NEAREST : NC_ADJUST_DOWN;
	b->p->quirks = (legacy ? NC_QUIRK_LEGACY_EINVAL : 0) | (d->no_try ? NC_QUIRK_NO_TRY_FMT : 0) |
		       (d->no_sizes ? NC_QUIRK_NO_ENUM_FRAMESIZES : 0) |
		       (d->no_ivals ? NC_QUIRK_NO_ENUM_FRAMEINTERVALS : 0) |
		       (fixed ? NC_QUIRK_FIXED_RATE : 0);
	for (q = 0; q < NC_NQUEUES; q++)
		build_default(d, b->p, q);
	for (i = 0; i < d->nformats; i++) {
		sizes_missing |= d->formats[i].placeholder;
		if (build_format(d, b, &d->formats[i]))
			return -1;
	}
	if (sizes_missing && !d->no_sizes)
		dump_warn(d, "some formats enumerate no frame sizes: wrote the size TRY_FMT "
			  "settles on for them");
	else if (d->no_sizes)
		dump_warn(d, "no VIDIOC_ENUM_FRAMESIZES: wrote quirk no-enum-framesizes and, per "
			  "format, the one size TRY_FMT settles on; add the others the device takes");
	return 0;
}

/* A four-digit hexadecimal id from sysfs file @name of @dir; 0 when absent. */
static unsigned int sysfs_id(const char *dir, const char *name)
{
	char path[160];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%4x", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* The USB ids of @d's device into @p when it is a USB device (uvcvideo, gspca...). */
static void dump_usb_id(const struct dump *d, struct negcam_profile *p)
{
	struct stat st;
	char dir[96];

	if (fstat(d->fd, &st) || !S_ISCHR(st.st_mode))
		return;
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/..", major(st.st_rdev),
		 minor(st.st_rdev));
	p->usb_vendor = (__u16)sysfs_id(dir, "idVendor");
	p->usb_product = p->usb_vendor ? (__u16)sysfs_id(dir, "idProduct") : 0;
}

/* The profile's text, parsed again before it is written: NULL on an error said. */
static char *dump_text(struct dump *d, const char *name, const struct v4l2_capability *cap,
		       size_t *len)
{
	static struct negcam_profile p; /* large: not on the stack */
	struct negcam_parse_error err;
	struct ctl_build b;
	char header[512], *text = NULL;
	bool adjust;
	unsigned int i;

	ctl_build_init(&b, name);
	b.p->multiplanar = d->mplane[NC_CAPTURE] || d->mplane[NC_OUTPUT];
	snprintf(b.p->card, sizeof(b.p->card), "%.31s", (const char *)cap->card);
	for (i = 0; b.p->card[i]; i++)
		if (b.p->card[i] == '"' || (unsigned char)b.p->card[i] < ' ')
			b.p->card[i] = '\'';
	dump_usb_id(d, b.p);
	snprintf(header, sizeof(header),
		 "# Dumped by negcam-ctl --dump from %s (driver '%.16s', card '%s').\n"
		 "# Sizes and intervals are the driver's own fractions; field and colorimetry\n"
		 "# come from TRY_FMT, the default from G_FMT/G_PARM at the time of the dump.\n",
		 d->path, (const char *)cap->driver, b.p->card);
	if (generate(d, &b, &adjust))
		dump_error(d, "the dumped profile does not load: %s", b.why);
	else if (!(text = ctl_build_write(&b, header, adjust ? NC_WRITE_ADJUST : 0, len, NULL, NULL)))
		dump_error(d, "the dumped profile cannot be written");
	else if (negcam_profile_parse(&p, text, (__u32)*len, &err))
		dump_error(d, "the dumped profile does not load: %u:%u: %s", err.line, err.column,
			   err.message);
	ctl_build_free(&b);
	if (d->errors) {
		free(text);
		return NULL;
	}
	return text;
}

int ctl_dump(const char *path, FILE *out, const char *name, bool drop_unknown)
{
	struct v4l2_capability cap;
	struct dump d;
	char *text = NULL;
	size_t len = 0;
	__u32 caps;
	unsigned int i, j;
	int ret = -1, q;

	memset(&d, 0, sizeof(d));
	d.path = path;
	d.fd = open(path, O_RDWR);
	if (d.fd < 0) {
		ctl_warn("%s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(&cap, 0, sizeof(cap));
	if (xioctl(&d, VIDIOC_QUERYCAP, &cap)) {
		ctl_warn("%s: VIDIOC_QUERYCAP failed: %s (not a V4L2 device?)\n", path,
			 strerror(errno));
		close(d.fd);
		return -1;
	}
	caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
	if (!(caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE |
		      V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE | V4L2_CAP_VIDEO_M2M |
		      V4L2_CAP_VIDEO_M2M_MPLANE))) {
		ctl_warn("%s: neither a video capture nor a video output device "
			 "(device caps 0x%08x)\n", path, caps);
		close(d.fd);
		return -1;
	}
	if (caps & V4L2_CAP_VIDEO_M2M)
		caps |= V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT;
	if (caps & V4L2_CAP_VIDEO_M2M_MPLANE)
		caps |= V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_VIDEO_OUTPUT_MPLANE;
	for (q = 0; q < NC_NQUEUES; q++) {
		__u32 sp = q == NC_CAPTURE ? V4L2_CAP_VIDEO_CAPTURE : V4L2_CAP_VIDEO_OUTPUT;
		__u32 mp = q == NC_CAPTURE ? V4L2_CAP_VIDEO_CAPTURE_MPLANE :
					     V4L2_CAP_VIDEO_OUTPUT_MPLANE;

		if (!(caps & (sp | mp)))
			continue;
		d.mplane[q] = !(caps & sp);
		if (q == NC_OUTPUT && d.mplane[NC_OUTPUT] != d.mplane[NC_CAPTURE] &&
		    (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)))
			dump_warn(&d, "one queue single-planar, the other multiplanar: a "
				  "profile's queues are one or the other, so both are multiplanar");
		enum_formats(&d, q, drop_unknown);
	}
	if (!d.errors && !d.nformats)
		dump_error(&d, "the device enumerates no formats negcam can hold");
	if (!d.errors)
		text = dump_text(&d, name, &cap, &len);
	if (text) {
		fwrite(text, 1, len, out);
		ret = fflush(out) ? -1 : 0;
	}
	close(d.fd);
	for (i = 0; i < d.nformats; i++) {
		for (j = 0; j < d.formats[i].nsizes; j++)
			free(d.formats[i].sizes[j].ivals);
		free(d.formats[i].sizes);
	}
	free(d.formats);
	free(text);
	return ret;
}
