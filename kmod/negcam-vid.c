// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko video nodes, what every node shares: the file operations, the
 * ioctls both directions answer alike (every format question goes to the
 * engine), the videobuf2 ops common to both, the controls and the node's
 * registration. A node is a capture node (a device, or a loop's capture
 * side: negcam-vid-cap.c) or a loop's output node (negcam-vid-out.c);
 * registration takes the ioctl and vb2 tables of its direction from
 * struct negcam_vid_kind. What a loop adds comes through dev->ops
 * (struct negcam_node_ops, negcam-loop-formats.c), never from a test here.
 *
 * Locking: dev->vlock is both vdev->lock and q->lock, so the V4L2 core
 * serialises every ioctl and file operation on the device, and the engine
 * (which never locks) sees one caller at a time. For the nodes of a loop
 * dev->vlock is the loop's lock, so one node may read and set the engine
 * of another (negcam-loop-formats.c). The pacing thread never takes dev->vlock:
 * it shares only dev->buf_list and the stream_* fields, under dev->slock.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <media/v4l2-event.h>
#include <media/videobuf2-vmalloc.h>

#include "negcam-vid.h"
#include "framegen.h"

static int negcam_open(struct file *file)
{
	struct negcam_fh *nfh = kzalloc(sizeof(*nfh), GFP_KERNEL);

	if (!nfh)
		return -ENOMEM;
	v4l2_fh_init(&nfh->fh, video_devdata(file));
	file->private_data = &nfh->fh;
	v4l2_fh_add(&nfh->fh);
	return 0;
}

/* A producer that set the output node's format holds it no longer. */
static int negcam_release(struct file *file)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	if (negcam_node_has(dev, unhold)) {
		mutex_lock(dev->vlock);
		dev->ops->unhold(dev, file->private_data);
		mutex_unlock(dev->vlock);
	}
	return vb2_fop_release(file);
}

static const struct v4l2_file_operations negcam_fops = {
	.owner = THIS_MODULE,
	.open = negcam_open,
	.release = negcam_release,
	/* vb2 refuses the one its queue's io_modes lack (EINVAL). */
	.read = vb2_fop_read,
	.write = vb2_fop_write,
	.poll = vb2_fop_poll,
	.mmap = vb2_fop_mmap,
	.unlocked_ioctl = video_ioctl2,
};

/* ---- ioctls ---- */

/* A loop node's own name, else the profile's card, else "negcam". */
static const char *negcam_card(const struct negcam_dev *dev)
{
	if (dev->card[0])
		return dev->card;
	return dev->profile->card[0] ? dev->profile->card : "negcam";
}

/* The engine answers; the node says who it is. */
int negcam_vid_querycap(struct file *file, void *priv,
			struct v4l2_capability *cap)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	struct video_device *vdev = video_devdata(file);
	struct negcam_identity id = { negcam_card(dev), dev->bus_info,
				      vdev->device_caps };

	return negcam_engine_querycap(&dev->engine, &id, cap);
}

int negcam_vid_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	negcam_node_call(dev, sync);
	return negcam_engine_g_fmt(&dev->engine, f);
}

/*
 * S_FMT once the node's direction has shaped the request: the engine's
 * S_FMT is try, busy check, commit; it learns "busy" from vb2.
 */
int negcam_vid_s_fmt(struct file *file, struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	negcam_engine_set_busy(&dev->engine, f->type, vb2_is_busy(&dev->queue));
	ret = negcam_engine_s_fmt(&dev->engine, f);
	if (ret)
		return ret;
	dev->fmt_gen++;
	negcam_node_call(dev, fmt_set, file->private_data);
	return 0;
}

int negcam_vid_enum_framesizes(struct file *file, void *priv,
			       struct v4l2_frmsizeenum *fs)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	return negcam_engine_enum_framesizes(&dev->engine, dev->qi, fs);
}

int negcam_vid_enum_frameintervals(struct file *file, void *priv,
				   struct v4l2_frmivalenum *fi)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	return negcam_engine_enum_frameintervals(&dev->engine, dev->qi, fi);
}

/*
 * S_PARM once the node's direction has shaped the request. A new interval
 * applies to a running stream from the next frame on.
 */
int negcam_vid_s_parm(struct file *file, struct v4l2_streamparm *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	negcam_engine_set_busy(&dev->engine, p->type, vb2_is_busy(&dev->queue));
	ret = negcam_engine_s_parm(&dev->engine, p);
	if (ret)
		return ret;
	spin_lock(&dev->slock);
	dev->stream_ival = negcam_engine_interval(&dev->engine, dev->qi);
	dev->stream_resync = true;
	spin_unlock(&dev->slock);
	negcam_node_call(dev, parm_set);
	return 0;
}

/* ---- videobuf2 ---- */

/*
 * The memory planes of a frame of the current format on @vq: one, or on a
 * multiplanar queue an 'M' format's two or three (negcam_pix_planes()).
 */
static unsigned int negcam_vid_planes(struct negcam_dev *dev, struct vb2_queue *vq,
				      struct negcam_plane_size p[NC_MAX_PLANES])
{
	return negcam_pix_planes(negcam_engine_fmt(&dev->engine, dev->qi),
				 vq->is_multiplanar, p);
}

/* A queue of at least @min buffers, each holding a frame of the format. */
int negcam_vid_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			   unsigned int *nplanes, unsigned int sizes[],
			   unsigned int min)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);
	struct negcam_plane_size p[NC_MAX_PLANES];
	unsigned int n = negcam_vid_planes(dev, vq, p), i;

	for (i = 0; i < n; i++)
		if (!p[i].sizeimage)
			return -EINVAL;
	/*
	 * CREATE_BUFS: any size that holds a plane of the current format, up
	 * to twice that or NEGCAM_CREATE_MAX: an absurd size (the storm asked
	 * 2 GiB) would only make vmalloc fail with a stack dump in the log.
	 */
	if (*nplanes) {
		if (*nplanes != n)
			return -EINVAL;
		for (i = 0; i < n; i++)
			if (sizes[i] < p[i].sizeimage ||
			    sizes[i] > max_t(unsigned long, 2UL * p[i].sizeimage,
					     NEGCAM_CREATE_MAX))
				return -EINVAL;
		return 0;
	}
	if (vq->num_buffers + *nbuffers < min)
		*nbuffers = min - vq->num_buffers;
	*nplanes = n;
	for (i = 0; i < n; i++)
		sizes[i] = p[i].sizeimage;
	return 0;
}

int negcam_vid_buf_init(struct vb2_buffer *vb)
{
	struct negcam_buffer *buf = to_negcam_buffer(vb);

	buf->last_frame = NC_FRAME_NONE;
	return 0;
}

/*
 * A buffer must hold a frame of the format, each plane its own. Every
 * QBUF comes here: a single-planar queue (every loop node's) checks its
 * one plane without asking the engine for the planes.
 */
int negcam_vid_buf_prepare(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	struct negcam_plane_size p[NC_MAX_PLANES];
	unsigned int n, i;

	if (!vb->vb2_queue->is_multiplanar)
		return vb->num_planes == 1 && vb2_plane_size(vb, 0) >=
		       negcam_engine_fmt(&dev->engine, dev->qi)->sizeimage ?
		       0 : -EINVAL;
	n = negcam_vid_planes(dev, vb->vb2_queue, p);
	if (vb->num_planes != n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (vb2_plane_size(vb, i) < p[i].sizeimage)
			return -EINVAL;
	return 0;
}

/* ---- controls: the direction's, then the node ops' own ---- */

static int negcam_ctrls_init(struct negcam_dev *dev,
			     const struct negcam_vid_kind *kind)
{
	struct v4l2_ctrl_handler *hdl = &dev->ctrl_handler;

	v4l2_ctrl_handler_init(hdl, 6);
	kind->ctrls(dev);
	negcam_node_call(dev, ctrls);
	if (hdl->error)
		return hdl->error;
	dev->v4l2_dev.ctrl_handler = hdl;
	return 0;
}

/* ---- registration ---- */

/*
 * A device's capture node is single-planar or multiplanar as its profile
 * is (a loop's nodes are always single-planar): the queue's type, its
 * read() and the node's caps follow the profile, at registration and
 * whenever a profile is swapped in (the queue is idle then: the engine
 * refuses a swap while it is busy, and the caller holds dev->vlock). A
 * multiplanar node has no read(): vb2 reads single-plane buffers only,
 * and the multiplanar drivers of SoC cameras offer none either.
 */
void negcam_vid_follow_profile(struct negcam_dev *dev)
{
	const struct negcam_vid_kind *kind = dev->qi == NC_OUTPUT ?
		&negcam_vid_out_kind : &negcam_vid_cap_kind;
	bool mp = dev->engine.profile && dev->engine.profile->multiplanar &&
		  dev->qi == NC_CAPTURE;
	struct vb2_queue *q = &dev->queue;

	q->type = mp ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : kind->buf_type;
	q->is_multiplanar = mp;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF | (mp ? 0 : kind->io_mode);
	dev->vdev.device_caps = V4L2_CAP_STREAMING |
		(mp ? V4L2_CAP_VIDEO_CAPTURE_MPLANE : kind->caps | V4L2_CAP_READWRITE);
	negcam_engine_set_readbuffers(&dev->engine, mp ? 0 : NEGCAM_READ_BUFFERS);
}

static int negcam_queue_init(struct negcam_dev *dev,
			     const struct negcam_vid_kind *kind)
{
	struct vb2_queue *q = &dev->queue;

	negcam_vid_follow_profile(dev); /* the type and I/O modes */
	q->drv_priv = dev;
	q->buf_struct_size = sizeof(struct negcam_buffer);
	q->ops = kind->qops;
	/* A loop's producer and first consumer may share frames. */
	q->mem_ops = dev->shares ? &negcam_share_memops : &vb2_vmalloc_memops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     kind->tstamp_src;
	q->min_buffers_needed = kind->min_buffers;
	q->lock = dev->vlock;
	q->dev = dev->v4l2_dev.dev;
	return vb2_queue_init(q);
}

int negcam_vid_register(struct negcam_dev *dev)
{
	const struct negcam_vid_kind *kind = dev->qi == NC_OUTPUT ?
		&negcam_vid_out_kind : &negcam_vid_cap_kind;
	struct video_device *vdev = &dev->vdev;
	int ret;

	ret = negcam_ctrls_init(dev, kind);
	if (ret)
		return ret;
	ret = negcam_queue_init(dev, kind);
	if (ret)
		return ret;

	strscpy(vdev->name, negcam_card(dev), sizeof(vdev->name));
	vdev->fops = &negcam_fops;
	vdev->ioctl_ops = kind->ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &dev->v4l2_dev;
	vdev->ctrl_handler = &dev->ctrl_handler;
	vdev->queue = &dev->queue;
	vdev->lock = dev->vlock;
	/* Each node names its own direction only (browsers require it). */
	vdev->vfl_dir = kind->vfl_dir;
	negcam_vid_follow_profile(dev); /* the caps */
	video_set_drvdata(vdev, dev);

	ret = video_register_device(vdev, VFL_TYPE_VIDEO, -1);
	if (ret)
		return ret;
	strscpy(dev->node_name, video_device_node_name(vdev),
		sizeof(dev->node_name));
	atomic_set(&dev->registered, 1);
	return 0;
}

/*
 * Make the node vanish: stops streaming, frees the owner's buffers, and
 * from now on every file operation on an open handle gets ENODEV. Safe to
 * call twice (unplug, then remove).
 */
void negcam_vid_unregister(struct negcam_dev *dev)
{
	if (atomic_xchg(&dev->registered, 0))
		vb2_video_unregister_device(&dev->vdev);
}

/* Last reference gone: free what registration allocated. */
void negcam_vid_free(struct negcam_dev *dev)
{
	v4l2_ctrl_handler_free(&dev->ctrl_handler);
}
