/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The negotiation engine: a driver's format logic over a profile.
 *
 * Every function returns 0 or a negative errno, as a kernel ioctl
 * handler does, and takes the uapi struct the matching VIDIOC_* takes.
 * The kernel module calls the per-operation functions (engine.c) from
 * its v4l2_ioctl_ops; user space calls negcam_engine_ioctl()
 * (engine-ioctl.c, the kernel's ioctl core emulated around them). Both get
 * the same answers because there is only this code.
 *
 * The engine never allocates and never sleeps; the caller serialises
 * calls on one engine (the kernel's vdev->lock, a mutex in user space).
 */
#ifndef NEGCAM_ENGINE_H
#define NEGCAM_ENGINE_H

#include "compat.h"
#include "formats.h"
#include "profile.h"

struct negcam_engine {
	const struct negcam_profile *profile;
	struct v4l2_pix_format fmt[NC_NQUEUES]; /* current format, complete */
	struct v4l2_fract interval[NC_NQUEUES]; /* current frame interval */
	__u32 busy;        /* bit (1 << queue): buffers allocated or streaming */
	__u32 readbuffers; /* reported by G_PARM; the caller's read() depth, 0 without read() */
};

/* Start on @p's defaults. @p must outlive the engine (or the next set_profile). */
void negcam_engine_init(struct negcam_engine *e, const struct negcam_profile *p);

/* Swap the profile and reset to its defaults; -EBUSY while any queue is busy. */
int negcam_engine_set_profile(struct negcam_engine *e, const struct negcam_profile *p);

/*
 * Answer from @p from now on, keeping the current formats and intervals
 * (a loop's capture node narrowed to its producer's format and back). The
 * caller makes sure they are valid under @p; @p must outlive its use.
 */
void negcam_engine_present(struct negcam_engine *e, const struct negcam_profile *p);

/* The caller tells the engine when a queue has buffers or streams (S_FMT is then EBUSY). */
void negcam_engine_set_busy(struct negcam_engine *e, __u32 buf_type, bool busy);

/* The depth of the caller's read() queue, for G_PARM and QUERYCAP; 0 without read(). */
void negcam_engine_set_readbuffers(struct negcam_engine *e, __u32 n);

/*
 * The buffer type of queue @q (enum negcam_queue) under @p: the
 * single-planar V4L2_BUF_TYPE_VIDEO_CAPTURE / _OUTPUT, or their _MPLANE
 * types when the profile says 'multiplanar'. The engine answers only the
 * profile's own types; the others are EINVAL.
 */
__u32 negcam_engine_buf_type(const struct negcam_profile *p, int q);

/*
 * The memory planes of a frame of @pix (a complete format, as
 * negcam_engine_fmt() gives it): one of its bytesperline and sizeimage on
 * a single-planar queue; on a multiplanar one (@multiplanar) one plane,
 * or an 'M' format's two or three, each its own buffer
 * (negcam_fourcc_planes()). Returns the count written to @p.
 */
unsigned int negcam_pix_planes(const struct v4l2_pix_format *pix, bool multiplanar,
			       struct negcam_plane_size p[NC_MAX_PLANES]);

/*
 * A multiplanar request as the single-planar one it asks for: the common
 * fields, plane 0's bytesperline, priv the extended-fields magic.
 */
void negcam_pix_from_mp(struct v4l2_pix_format *sp, const struct v4l2_pix_format_mplane *mp);

/* @sp (a complete format) as a multiplanar queue's G_FMT answers it. */
void negcam_pix_to_mp(const struct v4l2_pix_format *sp, struct v4l2_pix_format_mplane *mp);

/* A multiplanar video buffer type (V4L2_BUF_TYPE_VIDEO_*_MPLANE). */
static inline bool negcam_buf_type_mp(__u32 buf_type)
{
	return buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE ||
	       buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
}

/* The queue of a single-planar or multiplanar video buffer type, else -1. */
static inline int negcam_queue_of_any(__u32 buf_type)
{
	if (buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
		return NC_CAPTURE;
	if (buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE)
		return NC_OUTPUT;
	return negcam_queue_of(buf_type);
}

/* The profile emulates a driver without try_fmt: VIDIOC_TRY_FMT is ENOTTY. */
static inline bool negcam_engine_no_try_fmt(const struct negcam_engine *e)
{
	return e->profile && (e->profile->quirks & NC_QUIRK_NO_TRY_FMT);
}

/* The current format and frame interval of queue @q (enum negcam_queue). */
const struct v4l2_pix_format *negcam_engine_fmt(const struct negcam_engine *e, int q);
struct v4l2_fract negcam_engine_interval(const struct negcam_engine *e, int q);

/*
 * What QUERYCAP says that the profile cannot: a driver's per-node
 * identity. A NULL or 0 member is the engine's: the card is the
 * profile's card, else its name, else "negcam"; the bus "platform:negcam";
 * the device caps those of the profile's queues (and read() when
 * readbuffers is set). A kernel driver passes its video_device's caps,
 * which the V4L2 core requires QUERYCAP to keep.
 */
struct negcam_identity {
	const char *card;
	const char *bus_info;
	__u32 device_caps;
};

/* Per operation, as v4l2_ioctl_ops calls them. @id may be NULL. */
int negcam_engine_querycap(const struct negcam_engine *e, const struct negcam_identity *id,
			   struct v4l2_capability *cap);
int negcam_engine_enum_fmt(const struct negcam_engine *e, struct v4l2_fmtdesc *f);
int negcam_engine_g_fmt(const struct negcam_engine *e, struct v4l2_format *f);
int negcam_engine_try_fmt(const struct negcam_engine *e, struct v4l2_format *f);
int negcam_engine_s_fmt(struct negcam_engine *e, struct v4l2_format *f);
/*
 * ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS carry no buffer type: the format
 * is looked up on queue @q first (a node's own direction), then on the
 * other. The ioctl entry point answers for the capture queue first.
 */
int negcam_engine_enum_framesizes(const struct negcam_engine *e, int q,
				  struct v4l2_frmsizeenum *fs);
int negcam_engine_enum_frameintervals(const struct negcam_engine *e, int q,
				      struct v4l2_frmivalenum *fi);
int negcam_engine_g_parm(const struct negcam_engine *e, struct v4l2_streamparm *p);
int negcam_engine_s_parm(struct negcam_engine *e, struct v4l2_streamparm *p);

/*
 * The ioctl-shaped entry point: @request is a VIDIOC_* code, @arg its
 * struct. Handles QUERYCAP, ENUM_FMT, G/TRY/S_FMT, ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS, G/S_PARM; anything else is -ENOTTY. Like the
 * kernel core, it clears the reserved fields and sets
 * fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC on single-planar format answers.
 */
int negcam_engine_ioctl(struct negcam_engine *e, unsigned long request, void *arg);

/* Name of a VIDIOC_* request for logs ("VIDIOC_TRY_FMT"), "?" if unknown. */
const char *negcam_ioctl_name(unsigned long request);

#endif /* NEGCAM_ENGINE_H */
