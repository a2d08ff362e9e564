// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * --dump: a live V4L2 device to a negcam profile, by asking it what an
 * application asks: VIDIOC_QUERYCAP (card, queues), VIDIOC_ENUM_FMT,
 * VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS (exact fractions),
 * VIDIOC_TRY_FMT per format (default field, the fields it accepts,
 * colorimetry), VIDIOC_G_FMT and VIDIOC_G_PARM (the default format and
 * rate), and a few probes for the behaviours the profile language names
 * (adjust nearest or downward, the legacy quirks).
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

static __u64 dump_gcd(__u64 a, __u64 b)
{
	while (b) {
		__u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
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
	g = dump_gcd(n, m);
	n /= g;
	m /= g;
	if (n > DUMP_MAX_TERM || m > DUMP_MAX_TERM) {
		__u64 k = (n > m ? n : m) / DUMP_MAX_TERM + 1;
		__u64 n2 = (n + k / 2) / k, m2 = (m + k / 2) / k;

		if (!n2)
			n2 = 1;
		if (!m2)
			m2 = 1;
		g = dump_gcd(n2, m2);
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

/* The single-planar view of a (possibly multiplanar) format. */
struct dump_pix {
	__u32 width, height, pixelformat, field;
	__u32 colorspace, ycbcr_enc, quantization, xfer_func;
};

static void fmt_set(struct dump *d, int queue, struct v4l2_format *f, const struct dump_pix *p)
{
	memset(f, 0, sizeof(*f));
	f->type = buf_type(d, queue);
	if (d->mplane[queue]) {
		f->fmt.pix_mp.width = p->width;
		f->fmt.pix_mp.height = p->height;
		f->fmt.pix_mp.pixelformat = p->pixelformat;
		f->fmt.pix_mp.field = p->field;
	} else {
		f->fmt.pix.width = p->width;
		f->fmt.pix.height = p->height;
		f->fmt.pix.pixelformat = p->pixelformat;
		f->fmt.pix.field = p->field;
		f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	}
}

static void fmt_get(struct dump *d, int queue, const struct v4l2_format *f, struct dump_pix *p)
{
	if (d->mplane[queue]) {
		p->width = f->fmt.pix_mp.width;
		p->height = f->fmt.pix_mp.height;
		p->pixelformat = f->fmt.pix_mp.pixelformat;
		p->field = f->fmt.pix_mp.field;
		p->colorspace = f->fmt.pix_mp.colorspace;
		p->ycbcr_enc = f->fmt.pix_mp.ycbcr_enc;
		p->quantization = f->fmt.pix_mp.quantization;
		p->xfer_func = f->fmt.pix_mp.xfer_func;
	} else {
		p->width = f->fmt.pix.width;
		p->height = f->fmt.pix.height;
		p->pixelformat = f->fmt.pix.pixelformat;
		p->field = f->fmt.pix.field;
		p->colorspace = f->fmt.pix.colorspace;
		p->ycbcr_enc = f->fmt.pix.ycbcr_enc;
		p->quantization = f->fmt.pix.quantization;
		p->xfer_func = f->fmt.pix.xfer_func;
	}
}

/* TRY_FMT; 0 or -errno, the answer in *out. */
static int try_fmt(struct dump *d, int queue, const struct dump_pix *req, struct dump_pix *out)
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
	struct dump_pix req = { .width = w, .height = h, .pixelformat = f->fourcc,
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
	struct dump_pix req = { .width = 640, .height = 480, .pixelformat = f->fourcc,
				.field = V4L2_FIELD_ANY }, ans = { 0 };
	struct v4l2_streamparm parm;
	struct dump_size sz;

	probe_fields(d, f, 640, 480);
	memset(&sz, 0, sizeof(sz));
	sz.kind = V4L2_FRMSIZE_TYPE_DISCRETE;
	sz.min_w = 640;
	sz.min_h = 480;
	struct v4l2_format g;
	struct dump_pix zero = { 0 };

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

/* Names of the profile language (docs/profiles.md), NULL when it has none. */
static const char *colorspace_name(__u32 v)
{
	static const char *const n[] = {
		[V4L2_COLORSPACE_SMPTE170M] = "smpte170m", [V4L2_COLORSPACE_SMPTE240M] = "smpte240m",
		[V4L2_COLORSPACE_REC709] = "rec709",       [V4L2_COLORSPACE_470_SYSTEM_M] = "470m",
		[V4L2_COLORSPACE_470_SYSTEM_BG] = "470bg", [V4L2_COLORSPACE_JPEG] = "jpeg",
		[V4L2_COLORSPACE_SRGB] = "srgb",           [V4L2_COLORSPACE_OPRGB] = "oprgb",
		[V4L2_COLORSPACE_BT2020] = "bt2020",       [V4L2_COLORSPACE_RAW] = "raw",
		[V4L2_COLORSPACE_DCI_P3] = "dcip3",
	};
	return v < NC_ARRAY_SIZE(n) ? n[v] : NULL;
}

static const char *ycbcr_name(__u32 v)
{
	static const char *const n[] = {
		[V4L2_YCBCR_ENC_601] = "601",       [V4L2_YCBCR_ENC_709] = "709",
		[V4L2_YCBCR_ENC_XV601] = "xv601",   [V4L2_YCBCR_ENC_XV709] = "xv709",
		[V4L2_YCBCR_ENC_BT2020] = "bt2020", [V4L2_YCBCR_ENC_BT2020_CONST_LUM] = "bt2020c",
		[V4L2_YCBCR_ENC_SMPTE240M] = "smpte240m",
	};
	return v < NC_ARRAY_SIZE(n) ? n[v] : NULL;
}

static const char *quant_name(__u32 v)
{
	return v == V4L2_QUANTIZATION_FULL_RANGE ? "full" :
	       v == V4L2_QUANTIZATION_LIM_RANGE  ? "limited" : NULL;
}

static const char *xfer_name(__u32 v)
{
	static const char *const n[] = {
		[V4L2_XFER_FUNC_709] = "709",           [V4L2_XFER_FUNC_SRGB] = "srgb",
		[V4L2_XFER_FUNC_OPRGB] = "oprgb",       [V4L2_XFER_FUNC_SMPTE240M] = "smpte240m",
		[V4L2_XFER_FUNC_NONE] = "none",         [V4L2_XFER_FUNC_DCI_P3] = "dcip3",
		[V4L2_XFER_FUNC_SMPTE2084] = "smpte2084",
	};
	return v < NC_ARRAY_SIZE(n) ? n[v] : NULL;
}

static const char *field_name(__u32 v)
{
	static const char *const n[] = {
		[V4L2_FIELD_NONE] = "none",           [V4L2_FIELD_TOP] = "top",
		[V4L2_FIELD_BOTTOM] = "bottom",       [V4L2_FIELD_INTERLACED] = "interlaced",
		[V4L2_FIELD_SEQ_TB] = "seq-tb",       [V4L2_FIELD_SEQ_BT] = "seq-bt",
		[V4L2_FIELD_ALTERNATE] = "alternate", [V4L2_FIELD_INTERLACED_TB] = "interlaced-tb",
		[V4L2_FIELD_INTERLACED_BT] = "interlaced-bt",
	};
	return v < NC_ARRAY_SIZE(n) ? n[v] : NULL;
}

/* Growing text buffer. */
struct dump_out {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) put(struct dump_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->s ? o->s + o->len : NULL, o->s ? o->cap - o->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (o->s && o->len + (size_t)n < o->cap)
			break;
		o->cap = (o->cap + (size_t)n) * 2 + 4096;
		o->s = realloc(o->s, o->cap);
		if (!o->s) {
			fprintf(stderr, "negcam-ctl: --dump: out of memory\n");
			exit(CTL_EXIT_FAIL);
		}
	}
	o->len += (size_t)n;
}

static void put_colorimetry(struct dump_out *o, const char *indent, const struct dump_format *f)
{
	if (colorspace_name(f->colorspace))
		put(o, "%scolorspace %s\n", indent, colorspace_name(f->colorspace));
	if (ycbcr_name(f->ycbcr_enc))
		put(o, "%sycbcr-enc %s\n", indent, ycbcr_name(f->ycbcr_enc));
	if (quant_name(f->quantization))
		put(o, "%squantization %s\n", indent, quant_name(f->quantization));
	if (xfer_name(f->xfer_func))
		put(o, "%sxfer-func %s\n", indent, xfer_name(f->xfer_func));
}

static bool same_colorimetry(const struct dump_format *a, const struct dump_format *b)
{
	return a->colorspace == b->colorspace && a->ycbcr_enc == b->ycbcr_enc &&
	       a->quantization == b->quantization && a->xfer_func == b->xfer_func;
}

static bool same_fields(const struct dump_format *a, const struct dump_format *b)
{
	return a->nfields == b->nfields && !memcmp(a->fields, b->fields, a->nfields);
}

static void put_fields(struct dump_out *o, const char *indent, const struct dump_format *f)
{
	unsigned int i;

	if (!f->nfields || (f->nfields == 1 && f->fields[0] == V4L2_FIELD_NONE))
		return;
	put(o, "%sfield", indent);
	for (i = 0; i < f->nfields; i++)
		put(o, " %s", field_name(f->fields[i]));
	put(o, "\n");
}

static void put_fract_fps(struct dump_out *o, const struct v4l2_fract *iv)
{
	if (iv->numerator == 1)
		put(o, " %u", iv->denominator);
	else
		put(o, " %u/%u", iv->denominator, iv->numerator);
}

static void put_size(struct dump *d, struct dump_out *o, const struct dump_size *sz,
		     __u32 fourcc)
{
	unsigned int i;
	char f4[8];

	if (sz->kind == V4L2_FRMSIZE_TYPE_DISCRETE)
		put(o, "  size %ux%u", sz->min_w, sz->min_h);
	else if (sz->step_w == 1 && sz->step_h == 1)
		put(o, "  size %ux%u-%ux%u", sz->min_w, sz->min_h, sz->max_w, sz->max_h);
	else
		put(o, "  size %ux%u-%ux%u step %ux%u", sz->min_w, sz->min_h, sz->max_w, sz->max_h,
		    sz->step_w, sz->step_h);
	if (!sz->nivals) {
		if (!d->no_ivals)
			dump_warn(d, "'%s' %ux%u: ENUM_FRAMEINTERVALS gives nothing: wrote fps 30 "
				  "as a placeholder", ctl_fcc(fourcc, f4), sz->min_w, sz->min_h);
		put(o, " fps 30          # placeholder\n");
		return;
	}
	if (sz->ivals[0].kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
		put(o, " fps");
		for (i = 0; i < sz->nivals; i++)
			put_fract_fps(o, &sz->ivals[i].min);
	} else {
		const struct dump_ival *iv = &sz->ivals[0];

		put(o, " interval %u/%u-%u/%u", iv->min.numerator, iv->min.denominator,
		    iv->max.numerator, iv->max.denominator);
		if (iv->kind == V4L2_FRMIVAL_TYPE_STEPWISE &&
		    !(iv->step.numerator == 1 && iv->step.denominator == 1) &&
		    !(iv->step.numerator == 0))
			put(o, " step %u/%u", iv->step.numerator, iv->step.denominator);
	}
	put(o, "\n");
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
			/* Cross products: iv vs min, iv vs max. */
			__u64 a = (__u64)iv->numerator * v->min.denominator;
			__u64 b = (__u64)v->min.numerator * iv->denominator;
			__u64 c = (__u64)iv->numerator * v->max.denominator;
			__u64 e = (__u64)v->max.numerator * iv->denominator;

			if (v->kind == V4L2_FRMIVAL_TYPE_DISCRETE) {
				if (a == b)
					return true;
				continue;
			}
			if (a < b || c > e)
				return false;
			if (v->kind == V4L2_FRMIVAL_TYPE_CONTINUOUS || !v->step.numerator)
				return true;
			/* (iv - min) / step must be whole: exact in 128-bit-free form. */
			{
				__u64 num = (__u64)iv->numerator * v->min.denominator -
					    (__u64)v->min.numerator * iv->denominator;
				__u64 den = (__u64)iv->denominator * v->min.denominator;

				/* num/den / (sn/sd) = num*sd / (den*sn) */
				return den && (num * v->step.denominator) %
						      (den * v->step.numerator) == 0;
			}
		}
		return false;
	}
	return false;
}

/* The device's current format and rate, when the profile can name them. */
static void put_default(struct dump *d, struct dump_out *o, int queue)
{
	struct v4l2_format f;
	struct v4l2_streamparm parm;
	struct dump_pix cur, zero = { 0 };
	const struct dump_format *df = NULL;
	struct v4l2_fract iv = { 0, 0 };
	unsigned int i;
	char f4[8];

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
	ctl_fcc(cur.pixelformat, f4);
	put(o, strchr(f4, ' ') ? "default \"%s\"%s" : "default %s%s", f4,
	    queue == NC_OUTPUT ? " output" : "");
	if (!df->nsizes || !offers(df, cur.width, cur.height, NULL)) {
		put(o, "\n");
		return;
	}
	put(o, " %ux%u", cur.width, cur.height);
	if (iv.numerator && offers(df, cur.width, cur.height, &iv))
		put(o, " interval %u/%u", iv.numerator, iv.denominator);
	put(o, "\n");
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
		struct dump_pix req = { 0 }, ans;
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
	struct dump_pix req = { .width = 640, .height = 480, .field = V4L2_FIELD_ANY }, ans;

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

static void generate(struct dump *d, struct dump_out *o, const char *name,
		     const struct v4l2_capability *cap)
{
	bool all_same_color = true, all_same_fields = true, sizes_missing = false;
	const char *adjust = probe_adjust(d);
	bool legacy = probe_legacy_einval(d), fixed = probe_fixed_rate(d);
	char card[32], f4[8];
	unsigned int i, j;
	int q;

	for (i = 1; i < d->nformats; i++) {
		all_same_color &= same_colorimetry(&d->formats[0], &d->formats[i]);
		all_same_fields &= same_fields(&d->formats[0], &d->formats[i]);
	}
	snprintf(card, sizeof(card), "%.31s", (const char *)cap->card);
	for (i = 0; card[i]; i++)
		if (card[i] == '"' || (unsigned char)card[i] < ' ')
			card[i] = '\'';

	put(o, "# Dumped by negcam-ctl --dump from %s (driver '%.16s', card '%s').\n", d->path,
	    (const char *)cap->driver, card);
	put(o, "# Sizes and intervals are the driver's own fractions; field and colorimetry\n");
	put(o, "# come from TRY_FMT, the default from G_FMT/G_PARM at the time of the dump.\n");
	put(o, "name %s\n", name);
	if (card[0])
		put(o, "card \"%s\"\n", card);
	if (adjust)
		put(o, "adjust %s\n", adjust);
	if (d->no_sizes || d->no_ivals || d->no_try || legacy || fixed) {
		put(o, "quirks");
		if (legacy)
			put(o, " legacy-einval");
		if (d->no_try)
			put(o, " no-try-fmt");
		if (d->no_sizes)
			put(o, " no-enum-framesizes");
		if (d->no_ivals)
			put(o, " no-enum-frameintervals");
		if (fixed)
			put(o, " fixed-rate");
		put(o, "\n");
	}
	if (d->nformats && all_same_fields)
		put_fields(o, "", &d->formats[0]);
	if (d->nformats && all_same_color)
		put_colorimetry(o, "", &d->formats[0]);
	for (q = 0; q < NC_NQUEUES; q++)
		put_default(d, o, q);

	for (i = 0; i < d->nformats; i++) {
		const struct dump_format *f = &d->formats[i];
		const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(f->fourcc);

		ctl_fcc(f->fourcc, f4);
		put(o, strchr(f4, ' ') ? "\nformat \"%s\"%s\n" : "\nformat %s%s\n", f4,
		    f->queue == NC_OUTPUT ? " output" : "");
		if (fi && f->desc[0] && strcmp(fi->description, f->desc) && !strchr(f->desc, '"'))
			put(o, "  description \"%s\"\n", f->desc);
		if (f->flags) {
			/* in v4l2-ctl's order; the encoding bit is the hue's on HSV */
			put(o, "  flags%s%s%s%s\n",
			    f->flags & V4L2_FMT_FLAG_CSC_COLORSPACE ? " csc-colorspace" : "",
			    !(f->flags & V4L2_FMT_FLAG_CSC_YCBCR_ENC) ? "" :
			    fi && fi->color == NC_COLOR_OTHER ? " csc-hsv" : " csc-ycbcr-enc",
			    f->flags & V4L2_FMT_FLAG_CSC_QUANTIZATION ? " csc-quantization" : "",
			    f->flags & V4L2_FMT_FLAG_CSC_XFER_FUNC ? " csc-xfer-func" : "");
		}
		if (!all_same_fields)
			put_fields(o, "  ", f);
		if (!all_same_color)
			put_colorimetry(o, "  ", f);
		if (f->placeholder) {
			sizes_missing = true;
			put(o, "  # no ENUM_FRAMESIZES: the size TRY_FMT settles on, G_PARM's rate\n");
		}
		for (j = 0; j < f->nsizes; j++)
			put_size(d, o, &f->sizes[j], f->fourcc);
	}
	if (sizes_missing && !d->no_sizes)
		dump_warn(d, "some formats enumerate no frame sizes: wrote the size TRY_FMT "
			  "settles on for them");
	else if (d->no_sizes)
		dump_warn(d, "no VIDIOC_ENUM_FRAMESIZES: wrote quirk no-enum-framesizes and, per "
			  "format, the one size TRY_FMT settles on; add the others the device takes");
}

int ctl_dump(const char *path, FILE *out, const char *name, bool drop_unknown)
{
	struct v4l2_capability cap;
	struct dump d;
	struct dump_out o = { 0 };
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
		if (d.mplane[q])
			dump_warn(&d, "%s formats are multiplanar: written as single-planar ones "
				  "(negcam devices are single-planar)",
				  q == NC_CAPTURE ? "capture" : "output");
		enum_formats(&d, q, drop_unknown);
	}
	if (!d.errors && !d.nformats)
		dump_error(&d, "the device enumerates no formats negcam can hold");
	if (!d.errors)
		generate(&d, &o, name, &cap);
	if (!d.errors) {
		static struct negcam_profile p; /* large: not on the stack */
		struct negcam_parse_error err;

		if (negcam_profile_parse(&p, o.s, (__u32)o.len, &err))
			dump_error(&d, "the dumped profile does not load: %u:%u: %s", err.line,
				   err.column, err.message);
	}
	if (!d.errors) {
		fwrite(o.s, 1, o.len, out);
		ret = fflush(out) ? -1 : 0;
	}
	close(d.fd);
	for (i = 0; i < d.nformats; i++) {
		for (j = 0; j < d.formats[i].nsizes; j++)
			free(d.formats[i].sizes[j].ivals);
		free(d.formats[i].sizes);
	}
	free(d.formats);
	free(o.s);
	return ret;
}
