/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * negcam.ko video nodes, inside: what negcam-vid.c shares with the two
 * directions (negcam-vid-cap.c, negcam-vid-out.c), and the one table
 * per direction that registration reads (struct negcam_vid_kind).
 */
#ifndef NEGCAM_VID_H
#define NEGCAM_VID_H

#include <media/v4l2-ioctl.h>

#include "negcam.h"

/**
 * struct negcam_fh - an open file of a node
 * @fh: the V4L2 file handle; first, so that v4l2_fh_release() frees this
 * @asked_buffers: it called REQBUFS or CREATE_BUFS (streaming I/O), so
 *	STREAMON and STREAMOFF follow videobuf2's rules; until then an output
 *	node's STREAMON starts write() I/O (negcam-vid-out.c)
 */
struct negcam_fh {
	struct v4l2_fh fh;
	bool asked_buffers;
};

static inline struct negcam_fh *negcam_file_fh(struct file *file)
{
	return container_of(file->private_data, struct negcam_fh, fh);
}

static inline struct negcam_dev *negcam_file_dev(struct file *file)
{
	return video_drvdata(file);
}

/**
 * struct negcam_vid_kind - one direction of node, as registration sets it up
 * @ioctl_ops: its ioctls
 * @qops: its videobuf2 ops
 * @ctrls: add its standard controls (before the node ops' own)
 * @buf_type: its buffer type
 * @io_mode: VB2_READ or VB2_WRITE, beside streaming I/O
 * @tstamp_src: V4L2_BUF_FLAG_TSTAMP_SRC_* of its buffers
 * @min_buffers: buffers vb2 needs before streaming starts
 * @vfl_dir: VFL_DIR_RX or VFL_DIR_TX
 * @caps: its one direction's device capability
 */
struct negcam_vid_kind {
	const struct v4l2_ioctl_ops *ioctl_ops;
	const struct vb2_ops *qops;
	void (*ctrls)(struct negcam_dev *dev);
	enum v4l2_buf_type buf_type;
	unsigned int io_mode;
	u32 tstamp_src;
	unsigned int min_buffers;
	enum vfl_devnode_direction vfl_dir;
	u32 caps;
};

/* negcam-vid-cap.c, negcam-vid-out.c */
extern const struct negcam_vid_kind negcam_vid_cap_kind;
extern const struct negcam_vid_kind negcam_vid_out_kind;

/* negcam-vid.c: ioctls both directions answer alike */
int negcam_vid_querycap(struct file *file, void *priv,
			struct v4l2_capability *cap);
int negcam_vid_g_fmt(struct file *file, void *priv, struct v4l2_format *f);
int negcam_vid_s_fmt(struct file *file, struct v4l2_format *f);
int negcam_vid_enum_framesizes(struct file *file, void *priv,
			       struct v4l2_frmsizeenum *fs);
int negcam_vid_enum_frameintervals(struct file *file, void *priv,
				   struct v4l2_frmivalenum *fi);
int negcam_vid_s_parm(struct file *file, struct v4l2_streamparm *p);

/* negcam-vid.c: videobuf2 ops both directions share */
int negcam_vid_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			   unsigned int *nplanes, unsigned int sizes[],
			   unsigned int min);
int negcam_vid_buf_init(struct vb2_buffer *vb);
int negcam_vid_buf_prepare(struct vb2_buffer *vb);

#endif /* NEGCAM_VID_H */
