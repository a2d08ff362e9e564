// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The engine's ioctl-shaped entry point, negcam_engine_ioctl(), for user
 * space (negcam-run, negcam-ctl, negcamsrc's embedded device): what the
 * kernel's V4L2 ioctl core does around a driver's format ops, emulated
 * over the per-operation functions of engine.c, so that a request answered
 * here gets the answer negcam.ko gives: the reserved fields cleared
 * (INFO_FL_CLEAR), a format request sanitised (v4l_sanitize_format), the
 * extended-fields magic set, V4L2_CAP_EXT_PIX_FORMAT added to QUERYCAP,
 * and nothing written back on failure (video_usercopy). negcam.ko calls
 * engine.c directly and never this file. Also the VIDIOC_* names for logs.
 */
#include "engine.h"

/* Zero a struct after one of its fields, as the core's INFO_FL_CLEAR. */
#define NC_CLEAR_AFTER(p, field)                                              \
	memset((__u8 *)(p) + offsetof(__typeof__(*(p)), field) +              \
		       sizeof((p)->field), 0,                                  \
	       sizeof(*(p)) - offsetof(__typeof__(*(p)), field) - sizeof((p)->field))

/* What the kernel core does to a multiplanar request (v4l_s_fmt, v4l_try_fmt). */
static void nc_sanitize_mp(struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
	unsigned int i;

	if (mp->num_planes > VIDEO_MAX_PLANES)
		mp->num_planes = VIDEO_MAX_PLANES;
	NC_CLEAR_AFTER(mp, xfer_func);
	memset((__u8 *)&f->fmt + sizeof(*mp), 0, sizeof(f->fmt) - sizeof(*mp));
	for (i = 0; i < mp->num_planes; i++)
		NC_CLEAR_AFTER(&mp->plane_fmt[i], bytesperline);
}

/* What the kernel core does around the format ops (v4l_sanitize_format). */
static void nc_sanitize_format(struct v4l2_format *f)
{
	size_t off = offsetof(struct v4l2_pix_format, priv) + sizeof(f->fmt.pix.priv);

	if (negcam_buf_type_mp(f->type))
		nc_sanitize_mp(f);
	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE && f->type != V4L2_BUF_TYPE_VIDEO_OUTPUT)
		return;
	/* old applications leave the extended fields uninitialised */
	if (f->fmt.pix.priv != V4L2_PIX_FMT_PRIV_MAGIC) {
		f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
		memset((__u8 *)&f->fmt.pix + off, 0, sizeof(f->fmt.pix) - off);
	}
	/* the rest of the union after pix */
	memset((__u8 *)&f->fmt + sizeof(f->fmt.pix), 0,
	       sizeof(f->fmt) - sizeof(f->fmt.pix));
}

static int nc_ioctl_fmt(struct negcam_engine *e, unsigned long request,
			struct v4l2_format *f)
{
	int ret;

	if (request == VIDIOC_TRY_FMT && negcam_engine_no_try_fmt(e))
		return -ENOTTY;
	if (negcam_queue_of_any(f->type) < 0)
		return -EINVAL;
	if (request == VIDIOC_G_FMT) {
		memset(&f->fmt, 0, sizeof(f->fmt));
		if (!negcam_buf_type_mp(f->type))
			f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
		ret = negcam_engine_g_fmt(e, f);
	} else {
		nc_sanitize_format(f);
		ret = request == VIDIOC_S_FMT ? negcam_engine_s_fmt(e, f) :
						negcam_engine_try_fmt(e, f);
	}
	if (!negcam_buf_type_mp(f->type))
		f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	return ret;
}

static int nc_ioctl_parm(struct negcam_engine *e, unsigned long request,
			 struct v4l2_streamparm *p)
{
	if (request == VIDIOC_G_PARM) {
		NC_CLEAR_AFTER(p, type);
		return negcam_engine_g_parm(e, p);
	}
	if (negcam_queue_of_any(p->type) == NC_OUTPUT) {
		memset(p->parm.output.reserved, 0, sizeof(p->parm.output.reserved));
		p->parm.output.extendedmode = 0;
		p->parm.output.outputmode &= V4L2_MODE_HIGHQUALITY;
	} else {
		memset(p->parm.capture.reserved, 0, sizeof(p->parm.capture.reserved));
		p->parm.capture.extendedmode = 0;
		p->parm.capture.capturemode &= V4L2_MODE_HIGHQUALITY;
	}
	return negcam_engine_s_parm(e, p);
}

static int nc_ioctl_dispatch(struct negcam_engine *e, unsigned long request, void *arg)
{
	switch (request) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *cap = arg;
		int ret = negcam_engine_querycap(e, NULL, cap);

		/* added by the core for every driver */
		cap->capabilities |= V4L2_CAP_EXT_PIX_FORMAT;
		cap->device_caps |= V4L2_CAP_EXT_PIX_FORMAT;
		return ret;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *fd = arg;

		NC_CLEAR_AFTER(fd, type);
		return negcam_engine_enum_fmt(e, fd);
	}
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		return nc_ioctl_fmt(e, request, arg);
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *fs = arg;

		NC_CLEAR_AFTER(fs, pixel_format);
		return negcam_engine_enum_framesizes(e, NC_CAPTURE, fs);
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *fi = arg;

		NC_CLEAR_AFTER(fi, height);
		return negcam_engine_enum_frameintervals(e, NC_CAPTURE, fi);
	}
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		return nc_ioctl_parm(e, request, arg);
	}
	return -ENOTTY;
}

/* Argument size of the requests the engine answers, 0 for the others. */
static size_t nc_ioctl_size(unsigned long request)
{
	switch (request) {
	case VIDIOC_QUERYCAP:
		return sizeof(struct v4l2_capability);
	case VIDIOC_ENUM_FMT:
		return sizeof(struct v4l2_fmtdesc);
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		return sizeof(struct v4l2_format);
	case VIDIOC_ENUM_FRAMESIZES:
		return sizeof(struct v4l2_frmsizeenum);
	case VIDIOC_ENUM_FRAMEINTERVALS:
		return sizeof(struct v4l2_frmivalenum);
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		return sizeof(struct v4l2_streamparm);
	}
	return 0;
}

/*
 * Works on a copy and writes back only on success, as video_usercopy()
 * copies nothing back to user space when the driver fails.
 */
int negcam_engine_ioctl(struct negcam_engine *e, unsigned long request, void *arg)
{
	union {
		struct v4l2_capability cap;
		struct v4l2_fmtdesc fmtdesc;
		struct v4l2_format fmt;
		struct v4l2_frmsizeenum fsize;
		struct v4l2_frmivalenum fival;
		struct v4l2_streamparm parm;
	} buf;
	size_t size = nc_ioctl_size(request);
	int ret;

	if (!size)
		return -ENOTTY;
	if (!arg)
		return -EFAULT;
	if (request == VIDIOC_QUERYCAP)
		memset(&buf, 0, size); /* _IOR: the core hands the driver zeroes */
	else
		memcpy(&buf, arg, size);
	ret = nc_ioctl_dispatch(e, request, &buf);
	if (!ret)
		memcpy(arg, &buf, size);
	return ret;
}

struct nc_ioctl_name {
	unsigned long request;
	const char *name;
};

#define NC_IOCTL(x) { x, #x }
static const struct nc_ioctl_name nc_ioctl_names[] = {
	NC_IOCTL(VIDIOC_QUERYCAP),
	NC_IOCTL(VIDIOC_ENUM_FMT),
	NC_IOCTL(VIDIOC_G_FMT),
	NC_IOCTL(VIDIOC_S_FMT),
	NC_IOCTL(VIDIOC_TRY_FMT),
	NC_IOCTL(VIDIOC_REQBUFS),
	NC_IOCTL(VIDIOC_QUERYBUF),
	NC_IOCTL(VIDIOC_G_FBUF),
	NC_IOCTL(VIDIOC_S_FBUF),
	NC_IOCTL(VIDIOC_OVERLAY),
	NC_IOCTL(VIDIOC_QBUF),
	NC_IOCTL(VIDIOC_EXPBUF),
	NC_IOCTL(VIDIOC_DQBUF),
	NC_IOCTL(VIDIOC_STREAMON),
	NC_IOCTL(VIDIOC_STREAMOFF),
	NC_IOCTL(VIDIOC_G_PARM),
	NC_IOCTL(VIDIOC_S_PARM),
	NC_IOCTL(VIDIOC_G_STD),
	NC_IOCTL(VIDIOC_S_STD),
	NC_IOCTL(VIDIOC_ENUMSTD),
	NC_IOCTL(VIDIOC_ENUMINPUT),
	NC_IOCTL(VIDIOC_G_CTRL),
	NC_IOCTL(VIDIOC_S_CTRL),
	NC_IOCTL(VIDIOC_G_TUNER),
	NC_IOCTL(VIDIOC_S_TUNER),
	NC_IOCTL(VIDIOC_G_AUDIO),
	NC_IOCTL(VIDIOC_S_AUDIO),
	NC_IOCTL(VIDIOC_QUERYCTRL),
	NC_IOCTL(VIDIOC_QUERYMENU),
	NC_IOCTL(VIDIOC_G_INPUT),
	NC_IOCTL(VIDIOC_S_INPUT),
	NC_IOCTL(VIDIOC_G_OUTPUT),
	NC_IOCTL(VIDIOC_S_OUTPUT),
	NC_IOCTL(VIDIOC_ENUMOUTPUT),
	NC_IOCTL(VIDIOC_G_FREQUENCY),
	NC_IOCTL(VIDIOC_S_FREQUENCY),
	NC_IOCTL(VIDIOC_CROPCAP),
	NC_IOCTL(VIDIOC_G_CROP),
	NC_IOCTL(VIDIOC_S_CROP),
	NC_IOCTL(VIDIOC_G_JPEGCOMP),
	NC_IOCTL(VIDIOC_S_JPEGCOMP),
	NC_IOCTL(VIDIOC_QUERYSTD),
	NC_IOCTL(VIDIOC_G_PRIORITY),
	NC_IOCTL(VIDIOC_S_PRIORITY),
	NC_IOCTL(VIDIOC_LOG_STATUS),
	NC_IOCTL(VIDIOC_G_EXT_CTRLS),
	NC_IOCTL(VIDIOC_S_EXT_CTRLS),
	NC_IOCTL(VIDIOC_TRY_EXT_CTRLS),
	NC_IOCTL(VIDIOC_ENUM_FRAMESIZES),
	NC_IOCTL(VIDIOC_ENUM_FRAMEINTERVALS),
	NC_IOCTL(VIDIOC_ENCODER_CMD),
	NC_IOCTL(VIDIOC_TRY_ENCODER_CMD),
	NC_IOCTL(VIDIOC_DQEVENT),
	NC_IOCTL(VIDIOC_SUBSCRIBE_EVENT),
	NC_IOCTL(VIDIOC_UNSUBSCRIBE_EVENT),
	NC_IOCTL(VIDIOC_CREATE_BUFS),
	NC_IOCTL(VIDIOC_PREPARE_BUF),
	NC_IOCTL(VIDIOC_G_SELECTION),
	NC_IOCTL(VIDIOC_S_SELECTION),
	NC_IOCTL(VIDIOC_DECODER_CMD),
	NC_IOCTL(VIDIOC_TRY_DECODER_CMD),
	NC_IOCTL(VIDIOC_QUERY_EXT_CTRL),
};
#undef NC_IOCTL

const char *negcam_ioctl_name(unsigned long request)
{
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(nc_ioctl_names); i++)
		if (nc_ioctl_names[i].request == request)
			return nc_ioctl_names[i].name;
	return "?";
}
