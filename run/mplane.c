// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * NEGCAM_RUN_MPLANE=1: the nodes are multiplanar capture devices (as a
 * codec or an ISP is). QUERYCAP says V4L2_CAP_VIDEO_CAPTURE_MPLANE; the
 * format and rate requests take V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE and
 * struct v4l2_pix_format_mplane (one plane), translated here to the
 * engine's single-planar ones; the single-planar capture type is EINVAL.
 * For testing a program's (and negcam-ctl --dump's) multiplanar path:
 * the buffer queue stays single-planar (docs/negcam-run.md).
 */
#include <errno.h>
#include <string.h>

#include "preload.h"

#define CAPTURE V4L2_BUF_TYPE_VIDEO_CAPTURE
#define CAPTURE_MP V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE

/* The fields both format structs have, under the same names. */
#define COMMON_FIELDS(X) \
	X(width) X(height) X(pixelformat) X(field) X(colorspace) X(ycbcr_enc) X(quantization) \
	X(xfer_func) X(flags)
#define TO_SP(name) sp->name = mp->name;
#define TO_MP(name) mp->name = (__typeof__(mp->name))sp->name;

static void pix_from_mp(struct v4l2_pix_format *sp, const struct v4l2_pix_format_mplane *mp)
{
	COMMON_FIELDS(TO_SP)
	sp->priv = V4L2_PIX_FMT_PRIV_MAGIC;
}

static void mp_from_pix(struct v4l2_pix_format_mplane *mp, const struct v4l2_pix_format *sp)
{
	memset(mp, 0, sizeof(*mp));
	COMMON_FIELDS(TO_MP)
	mp->num_planes = 1;
	mp->plane_fmt[0].bytesperline = sp->bytesperline;
	mp->plane_fmt[0].sizeimage = sp->sizeimage;
}

static int mplane_fmt(struct negcam_engine *e, unsigned long request, struct v4l2_format *f)
{
	struct v4l2_format sp;
	int ret;

	if (f->type == CAPTURE)
		return -EINVAL; /* a multiplanar device has no single-planar queue */
	if (f->type != CAPTURE_MP)
		return negcam_engine_ioctl(e, request, f);
	memset(&sp, 0, sizeof(sp));
	sp.type = CAPTURE;
	pix_from_mp(&sp.fmt.pix, &f->fmt.pix_mp);
	ret = negcam_engine_ioctl(e, request, &sp);
	if (!ret)
		mp_from_pix(&f->fmt.pix_mp, &sp.fmt.pix);
	return ret;
}

/* QUERYCAP: the capture capability becomes the multiplanar one. */
static int mplane_querycap(struct negcam_engine *e, struct v4l2_capability *cap)
{
	int ret = negcam_engine_ioctl(e, VIDIOC_QUERYCAP, cap);

	if (!ret && (cap->device_caps & V4L2_CAP_VIDEO_CAPTURE)) {
		cap->device_caps &= ~(__u32)V4L2_CAP_VIDEO_CAPTURE;
		cap->device_caps |= V4L2_CAP_VIDEO_CAPTURE_MPLANE;
		cap->capabilities &= ~(__u32)V4L2_CAP_VIDEO_CAPTURE;
		cap->capabilities |= V4L2_CAP_VIDEO_CAPTURE_MPLANE;
	}
	return ret;
}

int nc_mplane_ioctl(struct negcam_engine *e, unsigned long request, void *arg)
{
	__u32 *type = arg; /* the first field of v4l2_streamparm */
	int ret;

	switch (request) {
	case VIDIOC_QUERYCAP:
		return mplane_querycap(e, arg);
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		return mplane_fmt(e, request, arg);
	case VIDIOC_ENUM_FMT:
		type = &((struct v4l2_fmtdesc *)arg)->type;
		/* fall through */
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		if (*type == CAPTURE)
			return -EINVAL;
		if (*type != CAPTURE_MP)
			break;
		*type = CAPTURE;
		ret = negcam_engine_ioctl(e, request, arg);
		*type = CAPTURE_MP;
		return ret;
	}
	return negcam_engine_ioctl(e, request, arg);
}
