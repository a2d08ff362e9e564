// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko output nodes: a loop's output node, where a producer writes
 * frames. Their ioctls (formats from the engine, one output, no
 * SOURCE_CHANGE), write() I/O started by STREAMON as on v4l2loopback,
 * their videobuf2 ops (a queued buffer must hold a whole frame; it goes
 * to the loop at once, no pacing thread) and their standard control.
 * What the loop does with requests and frames comes through the node's
 * ops (dev->ops, negcam_loop_out_ops in negcam-loop-formats.c).
 */
#include <media/v4l2-event.h>

#include "negcam-vid.h"
#include "formats.h"

/* ---- ioctls ---- */

static int negcam_enum_fmt_vid_out(struct file *file, void *priv,
				   struct v4l2_fmtdesc *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	negcam_node_call(dev, sync);
	return negcam_engine_enum_fmt(&dev->engine, f);
}

static int negcam_try_fmt_vid_out(struct file *file, void *priv,
				  struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	negcam_node_call(dev, request, f);
	return negcam_engine_try_fmt(&dev->engine, f);
}

static int negcam_s_fmt_vid_out(struct file *file, void *priv,
				struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	negcam_node_call(dev, sync);
	negcam_node_call(dev, request, f);
	return negcam_vid_s_fmt(file, f);
}

static int negcam_g_parm_vid_out(struct file *file, void *priv,
				 struct v4l2_streamparm *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret = negcam_engine_g_parm(&dev->engine, p);

	if (!ret)
		negcam_node_call(dev, rate, p);
	return ret;
}

static int negcam_s_parm_vid_out(struct file *file, void *priv,
				 struct v4l2_streamparm *p)
{
	negcam_node_call(negcam_file_dev(file), rate, p);
	return negcam_vid_s_parm(file, p);
}

static int negcam_enum_output(struct file *file, void *priv,
			      struct v4l2_output *out)
{
	if (out->index)
		return -EINVAL;
	out->type = V4L2_OUTPUT_TYPE_ANALOG;
	strscpy(out->name, "Loop", sizeof(out->name));
	return 0;
}

static int negcam_g_output(struct file *file, void *priv, unsigned int *i)
{
	*i = 0;
	return 0;
}

static int negcam_s_output(struct file *file, void *priv, unsigned int i)
{
	return i ? -EINVAL : 0;
}

/*
 * Control events only: V4L2 defines SOURCE_CHANGE for what is received
 * (v4l2-compliance fails an output node that accepts it). The output
 * node tells its producer through control events instead.
 */
static int negcam_subscribe_event_out(struct v4l2_fh *fh,
				      const struct v4l2_event_subscription *sub)
{
	if (sub->type == V4L2_EVENT_SOURCE_CHANGE)
		return -EINVAL;
	return v4l2_ctrl_subscribe_event(fh, sub);
}

/* ---- buffers: videobuf2's, and write() I/O begun by STREAMON ---- */

static int negcam_reqbufs_out(struct file *file, void *priv,
			      struct v4l2_requestbuffers *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	negcam_file_fh(file)->asked_buffers = true;
	ret = vb2_ioctl_reqbufs(file, priv, p);
	/* The producer's own: a prober's REQBUFS(0) lets nothing go. */
	if (!ret && !p->count)
		negcam_node_call(dev, unhold, file->private_data);
	return ret;
}

static int negcam_create_bufs_out(struct file *file, void *priv,
				  struct v4l2_create_buffers *p)
{
	negcam_file_fh(file)->asked_buffers = true;
	return vb2_ioctl_create_bufs(file, priv, p);
}

/* @file does write() I/O on its output node: it never asked for buffers. */
static bool negcam_write_io(struct file *file, struct vb2_queue *q,
			    enum v4l2_buf_type type)
{
	return type == q->type && !negcam_file_fh(file)->asked_buffers;
}

/*
 * STREAMON from a file that never asked for buffers starts write() I/O,
 * and STREAMOFF ends it, as on v4l2loopback: OBS Studio's virtual camera
 * sets a format, calls STREAMON, then write()s frames (docs/loopback.md,
 * "OBS Studio"). videobuf2 alone answers EINVAL (no buffers), which a
 * file that did ask, even REQBUFS(0) as v4l2-compliance does, still gets.
 * vb2 starts its write() emulation from poll, the only way it exports;
 * the caller then owns the queue, as vb2_fop_poll would make it.
 */
static int negcam_streamon_out(struct file *file, void *priv,
			       enum v4l2_buf_type type)
{
	struct vb2_queue *q = video_devdata(file)->queue;

	if (!negcam_write_io(file, q, type))
		return vb2_ioctl_streamon(file, priv, type);
	if (vb2_fileio_is_active(q) && q->owner == file->private_data)
		return 0;	/* streaming already, by STREAMON or write() */
	if (q->num_buffers || !(vb2_core_poll(q, file, NULL) & EPOLLOUT) ||
	    !vb2_fileio_is_active(q))
		return vb2_ioctl_streamon(file, priv, type);
	q->owner = file->private_data;
	return 0;
}

static int negcam_streamoff_out(struct file *file, void *priv,
				enum v4l2_buf_type type)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	struct vb2_queue *q = video_devdata(file)->queue;

	if (!negcam_write_io(file, q, type) || !vb2_fileio_is_active(q) ||
	    q->owner != file->private_data)
		return vb2_ioctl_streamoff(file, priv, type);
	/* What closing the file does: the producer is gone. */
	vb2_core_queue_release(q);
	q->owner = NULL;
	negcam_node_call(dev, unhold, NULL);
	return 0;
}

static const struct v4l2_ioctl_ops negcam_vid_out_ioctl_ops = {
	.vidioc_querycap = negcam_vid_querycap,

	.vidioc_enum_fmt_vid_out = negcam_enum_fmt_vid_out,
	.vidioc_g_fmt_vid_out = negcam_vid_g_fmt,
	.vidioc_try_fmt_vid_out = negcam_try_fmt_vid_out,
	.vidioc_s_fmt_vid_out = negcam_s_fmt_vid_out,
	.vidioc_enum_framesizes = negcam_vid_enum_framesizes,
	.vidioc_enum_frameintervals = negcam_vid_enum_frameintervals,
	.vidioc_g_parm = negcam_g_parm_vid_out,
	.vidioc_s_parm = negcam_s_parm_vid_out,

	.vidioc_enum_output = negcam_enum_output,
	.vidioc_g_output = negcam_g_output,
	.vidioc_s_output = negcam_s_output,

	.vidioc_reqbufs = negcam_reqbufs_out,
	.vidioc_create_bufs = negcam_create_bufs_out,
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vb2_ioctl_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = negcam_streamon_out,
	.vidioc_streamoff = negcam_streamoff_out,

	.vidioc_log_status = v4l2_ctrl_log_status,
	.vidioc_subscribe_event = negcam_subscribe_event_out,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

/* ---- videobuf2 ---- */

static int negcam_queue_setup_out(struct vb2_queue *vq, unsigned int *nbuffers,
				  unsigned int *nplanes, unsigned int sizes[],
				  struct device *alloc_devs[])
{
	return negcam_vid_queue_setup(vq, nbuffers, nplanes, sizes,
				      NEGCAM_ALLOC_BUFFERS);
}

/* Output buffers queued with V4L2_FIELD_ANY carry the format's field. */
static int negcam_buf_out_validate(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);

	if (vbuf->field == V4L2_FIELD_ANY)
		vbuf->field = negcam_engine_fmt(&dev->engine, dev->qi)->field;
	return 0;
}

/*
 * An output buffer must hold a whole frame of the format: a raw frame
 * fills sizeimage, a compressed one is not empty. So no consumer can be
 * handed a short frame.
 */
static int negcam_buf_prepare_out(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	const struct v4l2_pix_format *fmt = negcam_engine_fmt(&dev->engine, dev->qi);
	const struct negcam_fourcc_info *fi;
	unsigned long used;

	if (negcam_vid_buf_prepare(vb))
		return -EINVAL;
	/*
	 * write(): vb2's emulation queues only full buffers but leaves the
	 * payload unset (it is overwritten by the v4l2 layer's copy).
	 */
	if (vb2_fileio_is_active(vb->vb2_queue))
		vb2_set_plane_payload(vb, 0, vb2_plane_size(vb, 0));
	used = vb2_get_plane_payload(vb, 0);
	if (used >= fmt->sizeimage)
		return 0;
	/* Shorter: only a compressed frame, not empty. */
	fi = negcam_fourcc_lookup(fmt->pixelformat);
	if (used && fi && fi->layout == NC_LAYOUT_COMPRESSED)
		return 0;
	dev_dbg(dev->v4l2_dev.dev, "output buffer of %lu bytes, %u needed\n",
		used, fmt->sizeimage);
	return -EINVAL;
}

/* The producer's frame goes to the loop at once, in its QBUF. */
static void negcam_buf_queue_out(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);

	negcam_node_call(dev, buf_queue, to_negcam_buffer(vb));
}

/* The buffers went to the loop in buf_queue already: nothing to start. */
static int negcam_start_streaming_out(struct vb2_queue *vq, unsigned int count)
{
	return 0;
}

static void negcam_stop_streaming_out(struct vb2_queue *vq)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);

	negcam_node_call(dev, stop);
}

static const struct vb2_ops negcam_vid_out_qops = {
	.queue_setup = negcam_queue_setup_out,
	.buf_out_validate = negcam_buf_out_validate,
	.buf_init = negcam_vid_buf_init,
	.buf_prepare = negcam_buf_prepare_out,
	.buf_queue = negcam_buf_queue_out,
	.start_streaming = negcam_start_streaming_out,
	.stop_streaming = negcam_stop_streaming_out,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};

/* ---- controls ---- */

static void negcam_ctrls_out(struct negcam_dev *dev)
{
	v4l2_ctrl_new_std(&dev->ctrl_handler, NULL,
			  V4L2_CID_MIN_BUFFERS_FOR_OUTPUT, NEGCAM_OUT_QUEUED,
			  NEGCAM_OUT_QUEUED, 1, NEGCAM_OUT_QUEUED);
}

/* An output buffer gets the time the loop let go of it: no SRC flag. */
const struct negcam_vid_kind negcam_vid_out_kind = {
	.ioctl_ops = &negcam_vid_out_ioctl_ops,
	.qops = &negcam_vid_out_qops,
	.ctrls = negcam_ctrls_out,
	.buf_type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
	.io_mode = VB2_WRITE,
	.tstamp_src = 0,
	.min_buffers = NEGCAM_OUT_MIN_BUFFERS,
	.vfl_dir = VFL_DIR_TX,
	.caps = V4L2_CAP_VIDEO_OUTPUT,
};
