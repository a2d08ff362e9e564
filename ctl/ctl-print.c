// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The layouts of v4l2-ctl 1.22.1 (utils/v4l2-ctl/v4l2-ctl.cpp,
 * v4l2-ctl-vidcap.cpp, v4l2-ctl-misc.cpp and utils/common/v4l2-info.cpp),
 * rewritten in C over the engine's ioctl entry point. Byte-for-byte
 * equality with v4l2-ctl's output is the point: text printed here can be
 * diffed against a listing from a real camera and fed back to --import.
 * The enumeration loops follow v4l2-ctl's too (stop at the first error,
 * intervals only under discrete sizes), so a driver quirk shows the same
 * way it would on a device.
 */
#include <stdio.h>
#include <string.h>

#include "ctl.h"

/* More entries than any profile can hold: a loop past it is an engine bug. */
#define CTL_ENUM_GUARD 100000

/* Every ioctl negcam-ctl makes goes through here to the engine. */
int ctl_ioctl(struct ctl *c, unsigned long request, void *arg)
{
	int ret = negcam_engine_ioctl(&c->engine, request, arg);

	/* The engine answers 0 or -errno; anything else is its bug, not ours to hide. */
	if (ret > 0) {
		fprintf(stderr, "negcam-ctl: %s returned %d, not 0 or a negative errno\n",
			negcam_ioctl_name(request), ret);
		ret = -EIO;
	}
	return ret;
}

const char *ctl_fcc(__u32 fourcc, char buf[8])
{
	buf[0] = fourcc & 0x7f;
	buf[1] = (fourcc >> 8) & 0x7f;
	buf[2] = (fourcc >> 16) & 0x7f;
	buf[3] = (fourcc >> 24) & 0x7f;
	buf[4] = '\0';
	if (fourcc & (1u << 31))
		strcpy(buf + 4, "-BE");
	return buf;
}

const char *ctl_buftype_name(__u32 type, char buf[32])
{
	switch (type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE:
		return "Video Capture";
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
		return "Video Capture Multiplanar";
	case V4L2_BUF_TYPE_VIDEO_OUTPUT:
		return "Video Output";
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		return "Video Output Multiplanar";
	case V4L2_BUF_TYPE_VIDEO_OVERLAY:
		return "Video Overlay";
	case V4L2_BUF_TYPE_VBI_CAPTURE:
		return "VBI Capture";
	case V4L2_BUF_TYPE_VBI_OUTPUT:
		return "VBI Output";
	case V4L2_BUF_TYPE_SLICED_VBI_CAPTURE:
		return "Sliced VBI Capture";
	case V4L2_BUF_TYPE_SLICED_VBI_OUTPUT:
		return "Sliced VBI Output";
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY:
		return "Video Output Overlay";
	case V4L2_BUF_TYPE_SDR_CAPTURE:
		return "SDR Capture";
	case V4L2_BUF_TYPE_SDR_OUTPUT:
		return "SDR Output";
	case V4L2_BUF_TYPE_META_CAPTURE:
		return "Metadata Capture";
	case V4L2_BUF_TYPE_META_OUTPUT:
		return "Metadata Output";
	case V4L2_BUF_TYPE_PRIVATE:
		return "Private";
	}
	snprintf(buf, 32, "Unknown (0x%08x)", type);
	return buf;
}

/* One name per value, the v4l2-ctl printing and its key=value parsing name. */
struct ctl_name {
	__u32 value;
	const char *print; /* as v4l2-ctl prints it */
	const char *key;   /* as v4l2-ctl's --set-fmt-video parses it; NULL: none */
};

static const struct ctl_name field_names[] = {
	{ V4L2_FIELD_ANY, "Any", "any" },
	{ V4L2_FIELD_NONE, "None", "none" },
	{ V4L2_FIELD_TOP, "Top", "top" },
	{ V4L2_FIELD_BOTTOM, "Bottom", "bottom" },
	{ V4L2_FIELD_INTERLACED, "Interlaced", "interlaced" },
	{ V4L2_FIELD_SEQ_TB, "Sequential Top-Bottom", "seq_tb" },
	{ V4L2_FIELD_SEQ_BT, "Sequential Bottom-Top", "seq_bt" },
	{ V4L2_FIELD_ALTERNATE, "Alternating", "alternate" },
	{ V4L2_FIELD_INTERLACED_TB, "Interlaced Top-Bottom", "interlaced_tb" },
	{ V4L2_FIELD_INTERLACED_BT, "Interlaced Bottom-Top", "interlaced_bt" },
	{ 0, NULL, NULL },
};

static const struct ctl_name colorspace_names[] = {
	{ V4L2_COLORSPACE_DEFAULT, "Default", NULL },
	{ V4L2_COLORSPACE_SMPTE170M, "SMPTE 170M", "smpte170m" },
	{ V4L2_COLORSPACE_SMPTE240M, "SMPTE 240M", "smpte240m" },
	{ V4L2_COLORSPACE_REC709, "Rec. 709", "rec709" },
	{ V4L2_COLORSPACE_BT878, "Broken Bt878", NULL },
	{ V4L2_COLORSPACE_470_SYSTEM_M, "470 System M", "470m" },
	{ V4L2_COLORSPACE_470_SYSTEM_BG, "470 System BG", "470bg" },
	{ V4L2_COLORSPACE_JPEG, "JPEG", "jpeg" },
	{ V4L2_COLORSPACE_SRGB, "sRGB", "srgb" },
	{ V4L2_COLORSPACE_OPRGB, "opRGB", "oprgb" },
	{ V4L2_COLORSPACE_DCI_P3, "DCI-P3", "dcip3" },
	{ V4L2_COLORSPACE_BT2020, "BT.2020", "bt2020" },
	{ V4L2_COLORSPACE_RAW, "Raw", NULL },
	{ 0, NULL, NULL },
};

static const struct ctl_name xfer_names[] = {
	{ V4L2_XFER_FUNC_DEFAULT, "Default", "default" },
	{ V4L2_XFER_FUNC_709, "Rec. 709", "709" },
	{ V4L2_XFER_FUNC_SRGB, "sRGB", "srgb" },
	{ V4L2_XFER_FUNC_OPRGB, "opRGB", "oprgb" },
	{ V4L2_XFER_FUNC_DCI_P3, "DCI-P3", "dcip3" },
	{ V4L2_XFER_FUNC_SMPTE2084, "SMPTE 2084", "smpte2084" },
	{ V4L2_XFER_FUNC_SMPTE240M, "SMPTE 240M", "smpte240m" },
	{ V4L2_XFER_FUNC_NONE, "None", "none" },
	{ 0, NULL, NULL },
};

static const struct ctl_name ycbcr_names[] = {
	{ V4L2_YCBCR_ENC_DEFAULT, "Default", "default" },
	{ V4L2_YCBCR_ENC_601, "ITU-R 601", "601" },
	{ V4L2_YCBCR_ENC_709, "Rec. 709", "709" },
	{ V4L2_YCBCR_ENC_XV601, "xvYCC 601", "xv601" },
	{ V4L2_YCBCR_ENC_XV709, "xvYCC 709", "xv709" },
	{ V4L2_YCBCR_ENC_BT2020, "BT.2020", "bt2020" },
	{ V4L2_YCBCR_ENC_BT2020_CONST_LUM, "BT.2020 Constant Luminance", "bt2020c" },
	{ V4L2_YCBCR_ENC_SMPTE240M, "SMPTE 240M", "smpte240m" },
	{ V4L2_HSV_ENC_180, "HSV with Hue 0-179", NULL },
	{ V4L2_HSV_ENC_256, "HSV with Hue 0-255", NULL },
	{ 0, NULL, NULL },
};

static const struct ctl_name quantization_names[] = {
	{ V4L2_QUANTIZATION_DEFAULT, "Default", "default" },
	{ V4L2_QUANTIZATION_FULL_RANGE, "Full Range", "full-range" },
	{ V4L2_QUANTIZATION_LIM_RANGE, "Limited Range", "lim-range" },
	{ 0, NULL, NULL },
};

/* Returns the printed name, or "Unknown (0x...)" in @buf as v4l2-ctl does. */
static const char *name_of(const struct ctl_name *t, __u32 v, char buf[32])
{
	for (; t->print; t++)
		if (t->value == v)
			return t->print;
	snprintf(buf, 32, "Unknown (0x%08x)", v);
	return buf;
}

static int parse_name(const struct ctl_name *t, const char *s, __u32 *out)
{
	for (; t->print; t++) {
		if (t->key && !strcmp(t->key, s)) {
			*out = t->value;
			return 0;
		}
	}
	return -1;
}

const char *ctl_field_name(__u32 field)
{
	static char buf[32];

	return name_of(field_names, field, buf);
}

const char *ctl_field_key(__u32 field)
{
	const struct ctl_name *t;

	for (t = field_names; t->print; t++)
		if (t->value == field)
			return t->key;
	return "?";
}

int ctl_parse_field(const char *s, __u32 *out)
{
	return parse_name(field_names, s, out);
}

int ctl_parse_colorspace(const char *s, __u32 *out)
{
	return parse_name(colorspace_names, s, out);
}

int ctl_parse_ycbcr(const char *s, __u32 *out)
{
	return parse_name(ycbcr_names, s, out);
}

int ctl_parse_quantization(const char *s, __u32 *out)
{
	return parse_name(quantization_names, s, out);
}

int ctl_parse_xfer(const char *s, __u32 *out)
{
	return parse_name(xfer_names, s, out);
}

void ctl_print_flags(__u32 val, const struct ctl_flag *t)
{
	bool first = true;

	for (; t->flag; t++) {
		if (val & t->flag) {
			printf("%s%s", first ? "" : ", ", t->name);
			first = false;
			val &= ~t->flag;
		}
	}
	if (val)
		printf("%s0x%08x", first ? "" : ", ", val);
}

static const struct ctl_flag fmtdesc_ycbcr_flags[] = {
	{ V4L2_FMT_FLAG_COMPRESSED, "compressed" },
	{ V4L2_FMT_FLAG_EMULATED, "emulated" },
	{ V4L2_FMT_FLAG_CONTINUOUS_BYTESTREAM, "continuous-bytestream" },
	{ V4L2_FMT_FLAG_DYN_RESOLUTION, "dyn-resolution" },
	{ V4L2_FMT_FLAG_ENC_CAP_FRAME_INTERVAL, "enc-cap-frame-interval" },
	{ V4L2_FMT_FLAG_CSC_COLORSPACE, "csc-colorspace" },
	{ V4L2_FMT_FLAG_CSC_YCBCR_ENC, "csc-ycbcr" },
	{ V4L2_FMT_FLAG_CSC_QUANTIZATION, "csc-quantization" },
	{ V4L2_FMT_FLAG_CSC_XFER_FUNC, "csc-xfer-func" },
	{ 0, NULL },
};

static const struct ctl_flag fmtdesc_hsv_flags[] = {
	{ V4L2_FMT_FLAG_COMPRESSED, "compressed" },
	{ V4L2_FMT_FLAG_EMULATED, "emulated" },
	{ V4L2_FMT_FLAG_CONTINUOUS_BYTESTREAM, "continuous-bytestream" },
	{ V4L2_FMT_FLAG_DYN_RESOLUTION, "dyn-resolution" },
	{ V4L2_FMT_FLAG_ENC_CAP_FRAME_INTERVAL, "enc-cap-frame-interval" },
	{ V4L2_FMT_FLAG_CSC_COLORSPACE, "csc-colorspace" },
	{ V4L2_FMT_FLAG_CSC_HSV_ENC, "csc-hsv" },
	{ V4L2_FMT_FLAG_CSC_QUANTIZATION, "csc-quantization" },
	{ V4L2_FMT_FLAG_CSC_XFER_FUNC, "csc-xfer-func" },
	{ 0, NULL },
};

static const struct ctl_flag pix_flags[] = {
	{ V4L2_PIX_FMT_FLAG_PREMUL_ALPHA, "premultiplied-alpha" },
	{ 0, NULL },
};

static const char *frmtype_name(__u32 type)
{
	static const char *const names[] = { "Unknown", "Discrete", "Continuous", "Stepwise" };

	return names[type > 3 ? 0 : type];
}

/*
 * v4l2-ctl's fract2sec()/fract2fps(): "%.3f" of a double quotient. Floating
 * point is fine here (user space, printing only) and must be exactly this
 * expression for the digits to match, including "inf" for a zero divisor.
 */
static void print_sec(const struct v4l2_fract *f)
{
	printf("%.3f", (1.0 * f->numerator) / f->denominator);
}

static void print_fps(const struct v4l2_fract *f)
{
	printf("%.3f", (1.0 * f->denominator) / f->numerator);
}

void ctl_print_frmsize(const struct v4l2_frmsizeenum *fs, const char *prefix)
{
	printf("%s\tSize: %s ", prefix, frmtype_name(fs->type));
	if (fs->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		printf("%dx%d", fs->discrete.width, fs->discrete.height);
	} else if (fs->type == V4L2_FRMSIZE_TYPE_CONTINUOUS) {
		printf("%dx%d - %dx%d", fs->stepwise.min_width, fs->stepwise.min_height,
		       fs->stepwise.max_width, fs->stepwise.max_height);
	} else if (fs->type == V4L2_FRMSIZE_TYPE_STEPWISE) {
		printf("%dx%d - %dx%d with step %d/%d", fs->stepwise.min_width,
		       fs->stepwise.min_height, fs->stepwise.max_width,
		       fs->stepwise.max_height, fs->stepwise.step_width,
		       fs->stepwise.step_height);
	}
	printf("\n");
}

void ctl_print_frmival(const struct v4l2_frmivalenum *fi, const char *prefix)
{
	/* As in v4l2-ctl, an unknown type prints no newline. */
	printf("%s\tInterval: %s ", prefix, frmtype_name(fi->type));
	if (fi->type == V4L2_FRMIVAL_TYPE_DISCRETE) {
		print_sec(&fi->discrete);
		printf("s (");
		print_fps(&fi->discrete);
		printf(" fps)\n");
	} else if (fi->type == V4L2_FRMIVAL_TYPE_CONTINUOUS ||
		   fi->type == V4L2_FRMIVAL_TYPE_STEPWISE) {
		print_sec(&fi->stepwise.min);
		printf("s - ");
		print_sec(&fi->stepwise.max);
		printf("s");
		if (fi->type == V4L2_FRMIVAL_TYPE_STEPWISE) {
			printf(" with step ");
			print_sec(&fi->stepwise.step);
			printf("s");
		}
		printf(" (");
		print_fps(&fi->stepwise.max);
		printf("-");
		print_fps(&fi->stepwise.min);
		printf(" fps)\n");
	}
}

static void list_intervals(struct ctl *c, __u32 fourcc, __u32 w, __u32 h)
{
	struct v4l2_frmivalenum fi;
	unsigned int n = 0;

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = fourcc;
	fi.width = w;
	fi.height = h;
	if (ctl_ioctl(c, VIDIOC_ENUM_FRAMEINTERVALS, &fi))
		return;
	do {
		ctl_print_frmival(&fi, "\t\t");
		fi.index++;
	} while (++n < CTL_ENUM_GUARD && !ctl_ioctl(c, VIDIOC_ENUM_FRAMEINTERVALS, &fi));
}

static void list_sizes(struct ctl *c, __u32 fourcc)
{
	struct v4l2_frmsizeenum fs;
	unsigned int n = 0;

	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = fourcc;
	if (ctl_ioctl(c, VIDIOC_ENUM_FRAMESIZES, &fs))
		return;
	do {
		ctl_print_frmsize(&fs, "\t");
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE)
			list_intervals(c, fourcc, fs.discrete.width, fs.discrete.height);
		fs.index++;
	} while (++n < CTL_ENUM_GUARD && !ctl_ioctl(c, VIDIOC_ENUM_FRAMESIZES, &fs));
}

void ctl_list_formats(struct ctl *c, __u32 type, bool ext)
{
	struct v4l2_fmtdesc fd;
	char tbuf[32], fcc[8];
	unsigned int n = 0;

	printf("ioctl: VIDIOC_ENUM_FMT\n");
	printf("\tType: %s\n\n", ctl_buftype_name(type, tbuf));
	memset(&fd, 0, sizeof(fd));
	fd.type = type;
	if (ctl_ioctl(c, VIDIOC_ENUM_FMT, &fd))
		return;
	do {
		bool hsv = fd.pixelformat == V4L2_PIX_FMT_HSV24 ||
			   fd.pixelformat == V4L2_PIX_FMT_HSV32;

		printf("\t[%d]: '%s' (%.32s", fd.index, ctl_fcc(fd.pixelformat, fcc),
		       (const char *)fd.description);
		if (fd.flags) {
			printf(", ");
			ctl_print_flags(fd.flags, hsv ? fmtdesc_hsv_flags : fmtdesc_ycbcr_flags);
		}
		printf(")\n");
		if (ext)
			list_sizes(c, fd.pixelformat);
		fd.index++;
	} while (++n < CTL_ENUM_GUARD && !ctl_ioctl(c, VIDIOC_ENUM_FMT, &fd));
}

/* v4l2-ctl's is_rgb_or_hsv(), from negcam's own format table. */
static bool is_rgb_or_hsv(__u32 fourcc)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourcc);

	return !fi || (fi->color != NC_COLOR_YUV && fi->color != NC_COLOR_JPEG);
}

/* " (description)" from ENUM_FMT, empty when the format is not enumerated. */
static void print_fmt_name(struct ctl *c, __u32 type, __u32 fourcc)
{
	struct v4l2_fmtdesc fd;
	unsigned int n;

	memset(&fd, 0, sizeof(fd));
	fd.type = type;
	for (n = 0; n < CTL_ENUM_GUARD && !ctl_ioctl(c, VIDIOC_ENUM_FMT, &fd); n++) {
		if (fd.pixelformat == fourcc) {
			printf(" (%.32s)", (const char *)fd.description);
			return;
		}
		fd.index++;
	}
}

/* A multiplanar format's own lines, as v4l2-ctl prints them: the planes come last. */
static void print_mp_planes(const struct v4l2_pix_format_mplane *mp)
{
	unsigned int i;

	for (i = 0; i < mp->num_planes && i < VIDEO_MAX_PLANES; i++) {
		printf("\tPlane %u           :\n", i);
		printf("\t   Bytes per Line : %u\n", mp->plane_fmt[i].bytesperline);
		printf("\t   Size Image     : %u\n", mp->plane_fmt[i].sizeimage);
	}
}

void ctl_print_fmt(struct ctl *c, const struct v4l2_format *f)
{
	const struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
	bool is_mp = f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE ||
		     f->type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
	struct v4l2_pix_format view, *pix = &view;
	__u32 colsp, enc;
	char buf[32], fcc[8];

	printf("Format %s:\n", ctl_buftype_name(f->type, buf));
	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE && f->type != V4L2_BUF_TYPE_VIDEO_OUTPUT &&
	    !is_mp)
		return;
	if (is_mp)
		negcam_pix_from_mp(&view, mp);
	else
		view = f->fmt.pix;
	colsp = pix->colorspace, enc = pix->ycbcr_enc;
	printf("\tWidth/Height      : %u/%u\n", pix->width, pix->height);
	printf("\tPixel Format      : '%s'", ctl_fcc(pix->pixelformat, fcc));
	print_fmt_name(c, f->type, pix->pixelformat);
	printf("\n");
	printf("\tField             : %s\n", ctl_field_name(pix->field));
	if (is_mp) {
		printf("\tNumber of planes  : %u\n", mp->num_planes);
		printf("\tFlags             : ");
		ctl_print_flags(mp->flags, pix_flags);
		printf("\n");
	} else {
		printf("\tBytes per Line    : %u\n", pix->bytesperline);
		printf("\tSize Image        : %u\n", pix->sizeimage);
	}
	printf("\tColorspace        : %s\n", name_of(colorspace_names, colsp, buf));
	printf("\tTransfer Function : %s", name_of(xfer_names, pix->xfer_func, buf));
	if (pix->xfer_func == V4L2_XFER_FUNC_DEFAULT)
		printf(" (maps to %s)",
		       name_of(xfer_names, V4L2_MAP_XFER_FUNC_DEFAULT(colsp), buf));
	printf("\n");
	printf("\tYCbCr/HSV Encoding: %s", name_of(ycbcr_names, enc, buf));
	if (enc == V4L2_YCBCR_ENC_DEFAULT) {
		enc = V4L2_MAP_YCBCR_ENC_DEFAULT(colsp);
		printf(" (maps to %s)", name_of(ycbcr_names, enc, buf));
	}
	printf("\n");
	printf("\tQuantization      : %s", name_of(quantization_names, pix->quantization, buf));
	if (pix->quantization == V4L2_QUANTIZATION_DEFAULT)
		printf(" (maps to %s)",
		       name_of(quantization_names,
			       V4L2_MAP_QUANTIZATION_DEFAULT(is_rgb_or_hsv(pix->pixelformat),
							     colsp, enc), buf));
	printf("\n");
	if (!is_mp && pix->priv == V4L2_PIX_FMT_PRIV_MAGIC) {
		printf("\tFlags             : ");
		ctl_print_flags(pix->flags, pix_flags);
		printf("\n");
	}
	if (is_mp)
		print_mp_planes(mp);
}

void ctl_print_parm(const struct v4l2_streamparm *p)
{
	const struct v4l2_captureparm *cp = &p->parm.capture;
	const struct v4l2_fract *tf = &cp->timeperframe;
	bool out = p->type == V4L2_BUF_TYPE_VIDEO_OUTPUT;
	char buf[32];

	/* captureparm and outputparm share their layout up to the buffers count. */
	printf("Streaming Parameters %s:\n", ctl_buftype_name(p->type, buf));
	if (cp->capability & V4L2_CAP_TIMEPERFRAME)
		printf("\tCapabilities     : timeperframe\n");
	if (cp->capturemode & V4L2_MODE_HIGHQUALITY)
		printf(out ? "\tOutput mode      : high quality\n"
			   : "\tCapture mode     : high quality\n");
	if (!tf->denominator || !tf->numerator)
		printf("\tFrames per second: invalid (%d/%d)\n", tf->denominator, tf->numerator);
	else
		printf("\tFrames per second: %.3f (%d/%d)\n",
		       (1.0 * tf->denominator) / tf->numerator, tf->denominator,
		       tf->numerator);
	if (out)
		printf("\tWrite buffers    : %d\n", p->parm.output.writebuffers);
	else
		printf("\tRead buffers     : %d\n", cp->readbuffers);
}

static const struct {
	__u32 cap;
	const char *name;
} cap_names[] = {
	{ V4L2_CAP_VIDEO_CAPTURE, "Video Capture" },
	{ V4L2_CAP_VIDEO_CAPTURE_MPLANE, "Video Capture Multiplanar" },
	{ V4L2_CAP_VIDEO_OUTPUT, "Video Output" },
	{ V4L2_CAP_VIDEO_OUTPUT_MPLANE, "Video Output Multiplanar" },
	{ V4L2_CAP_VIDEO_M2M, "Video Memory-to-Memory" },
	{ V4L2_CAP_VIDEO_M2M_MPLANE, "Video Memory-to-Memory Multiplanar" },
	{ V4L2_CAP_VIDEO_OVERLAY, "Video Overlay" },
	{ V4L2_CAP_VIDEO_OUTPUT_OVERLAY, "Video Output Overlay" },
	{ V4L2_CAP_VBI_CAPTURE, "VBI Capture" },
	{ V4L2_CAP_VBI_OUTPUT, "VBI Output" },
	{ V4L2_CAP_SLICED_VBI_CAPTURE, "Sliced VBI Capture" },
	{ V4L2_CAP_SLICED_VBI_OUTPUT, "Sliced VBI Output" },
	{ V4L2_CAP_RDS_CAPTURE, "RDS Capture" },
	{ V4L2_CAP_RDS_OUTPUT, "RDS Output" },
	{ V4L2_CAP_SDR_CAPTURE, "SDR Capture" },
	{ V4L2_CAP_SDR_OUTPUT, "SDR Output" },
	{ V4L2_CAP_META_CAPTURE, "Metadata Capture" },
	{ V4L2_CAP_META_OUTPUT, "Metadata Output" },
	{ V4L2_CAP_TUNER, "Tuner" },
	{ V4L2_CAP_TOUCH, "Touch Device" },
	{ V4L2_CAP_HW_FREQ_SEEK, "HW Frequency Seek" },
	{ V4L2_CAP_MODULATOR, "Modulator" },
	{ V4L2_CAP_AUDIO, "Audio" },
	{ V4L2_CAP_RADIO, "Radio" },
	{ V4L2_CAP_READWRITE, "Read/Write" },
	{ V4L2_CAP_ASYNCIO, "Async I/O" },
	{ V4L2_CAP_STREAMING, "Streaming" },
	{ V4L2_CAP_EXT_PIX_FORMAT, "Extended Pix Format" },
	{ V4L2_CAP_DEVICE_CAPS, "Device Capabilities" },
};

static void print_caps(__u32 caps)
{
	unsigned int i;

	for (i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
		if (caps & cap_names[i].cap)
			printf("\t\t%s\n", cap_names[i].name);
}

void ctl_print_querycap(const struct v4l2_capability *cap)
{
	printf("Driver Info:\n");
	printf("\tDriver name      : %.16s\n", (const char *)cap->driver);
	printf("\tCard type        : %.32s\n", (const char *)cap->card);
	printf("\tBus info         : %.32s\n", (const char *)cap->bus_info);
	printf("\tDriver version   : %d.%d.%d\n", cap->version >> 16,
	       (cap->version >> 8) & 0xff, cap->version & 0xff);
	printf("\tCapabilities     : 0x%08x\n", cap->capabilities);
	print_caps(cap->capabilities);
	if (cap->capabilities & V4L2_CAP_DEVICE_CAPS) {
		printf("\tDevice Caps      : 0x%08x\n", cap->device_caps);
		print_caps(cap->device_caps);
	}
}

void ctl_vwarn(const char *fmt, va_list ap)
{
	char msg[4096];
	size_t i, n;
	int len = vsnprintf(msg, sizeof(msg), fmt, ap);

	if (len < 0)
		return;
	n = (size_t)len < sizeof(msg) ? (size_t)len : sizeof(msg) - 1;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)msg[i];

		if ((ch < 0x20 || ch == 0x7f) && !(ch == '\n' && i == n - 1))
			fprintf(stderr, "\\x%02x", ch);
		else
			fputc(ch, stderr);
	}
}

void ctl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_vwarn(fmt, ap);
	va_end(ap);
}
