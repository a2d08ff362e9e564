// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko capture nodes: a device's node and a loop's capture nodes.
 * Their ioctls (formats from the engine, one camera input, SOURCE_CHANGE
 * events), their videobuf2 ops (buffers go on the pacing thread's list,
 * negcam-thread.c) and their controls (minimum buffers, test pattern).
 * A loop's capture node differs only through its node ops (dev->ops,
 * negcam_loop_cap_ops in negcam-loop-formats.c): the producer's format
 * listed first, its frames handed over in the producer's QBUF.
 */
#include <media/v4l2-event.h>

#include "negcam-vid.h"
#include "framegen.h"

/* ---- ioctls ---- */

static int negcam_enum_fmt_vid_cap(struct file *file, void *priv,
				   struct v4l2_fmtdesc *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	if (negcam_node_has(dev, enum_fmt))
		return dev->ops->enum_fmt(dev, f);
	return negcam_engine_enum_fmt(&dev->engine, f);
}

static int negcam_try_fmt_vid_cap(struct file *file, void *priv,
				  struct v4l2_format *f)
{
	return negcam_engine_try_fmt(&negcam_file_dev(file)->engine, f);
}

static int negcam_s_fmt_vid_cap(struct file *file, void *priv,
				struct v4l2_format *f)
{
	negcam_node_call(negcam_file_dev(file), sync);
	return negcam_vid_s_fmt(file, f);
}

static int negcam_g_parm_vid_cap(struct file *file, void *priv,
				 struct v4l2_streamparm *p)
{
	return negcam_engine_g_parm(&negcam_file_dev(file)->engine, p);
}

static int negcam_s_parm_vid_cap(struct file *file, void *priv,
				 struct v4l2_streamparm *p)
{
	return negcam_vid_s_parm(file, p);
}

static int negcam_enum_input(struct file *file, void *priv,
			     struct v4l2_input *inp)
{
	if (inp->index)
		return -EINVAL;
	inp->type = V4L2_INPUT_TYPE_CAMERA;
	strscpy(inp->name, "Camera", sizeof(inp->name));
	return 0;
}

static int negcam_g_input(struct file *file, void *priv, unsigned int *i)
{
	*i = 0;
	return 0;
}

static int negcam_s_input(struct file *file, void *priv, unsigned int i)
{
	return i ? -EINVAL : 0;
}

/* SOURCE_CHANGE: the format changed under a reader (V4L2 defines it for receivers). */
static int negcam_subscribe_event_cap(struct v4l2_fh *fh,
				      const struct v4l2_event_subscription *sub)
{
	if (sub->type == V4L2_EVENT_SOURCE_CHANGE)
		return v4l2_src_change_event_subscribe(fh, sub);
	return v4l2_ctrl_subscribe_event(fh, sub);
}

static const struct v4l2_ioctl_ops negcam_vid_cap_ioctl_ops = {
	.vidioc_querycap = negcam_vid_querycap,

	.vidioc_enum_fmt_vid_cap = negcam_enum_fmt_vid_cap,
	.vidioc_g_fmt_vid_cap = negcam_vid_g_fmt,
	.vidioc_try_fmt_vid_cap = negcam_try_fmt_vid_cap,
	.vidioc_s_fmt_vid_cap = negcam_s_fmt_vid_cap,
	/* a multiplanar profile's node (negcam_vid_follow_profile()); the engine
	 * answers EINVAL for the type the profile does not have */
	.vidioc_g_fmt_vid_cap_mplane = negcam_vid_g_fmt,
	.vidioc_try_fmt_vid_cap_mplane = negcam_try_fmt_vid_cap,
	.vidioc_s_fmt_vid_cap_mplane = negcam_s_fmt_vid_cap,
	.vidioc_enum_framesizes = negcam_vid_enum_framesizes,
	.vidioc_enum_frameintervals = negcam_vid_enum_frameintervals,
	.vidioc_g_parm = negcam_g_parm_vid_cap,
	.vidioc_s_parm = negcam_s_parm_vid_cap,

	.vidioc_enum_input = negcam_enum_input,
	.vidioc_g_input = negcam_g_input,
	.vidioc_s_input = negcam_s_input,

	.vidioc_reqbufs = vb2_ioctl_reqbufs,
	.vidioc_create_bufs = vb2_ioctl_create_bufs,
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vb2_ioctl_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = vb2_ioctl_streamon,
	.vidioc_streamoff = vb2_ioctl_streamoff,

	.vidioc_log_status = v4l2_ctrl_log_status,
	.vidioc_subscribe_event = negcam_subscribe_event_cap,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

/* ---- videobuf2 ---- */

/* Capture node 0 of a loop: two of its own beside the shared ones. */
static int negcam_queue_setup_cap(struct vb2_queue *vq, unsigned int *nbuffers,
				  unsigned int *nplanes, unsigned int sizes[],
				  struct device *alloc_devs[])
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);

	return negcam_vid_queue_setup(vq, nbuffers, nplanes, sizes,
				      NEGCAM_ALLOC_BUFFERS +
				      (dev->shares ? NEGCAM_LOOP_OWN_BUFFERS : 0));
}

static void negcam_buf_queue_cap(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	struct negcam_buffer *buf = to_negcam_buffer(vb);

	if (negcam_node_has(dev, buf_queue)) {
		dev->ops->buf_queue(dev, buf);
		return;
	}
	spin_lock(&dev->slock);
	negcam_buf_enlist(dev, buf);
	spin_unlock(&dev->slock);
}

static void negcam_return_all(struct negcam_dev *dev,
			      enum vb2_buffer_state state)
{
	struct negcam_buffer *buf, *tmp;
	LIST_HEAD(done);

	spin_lock(&dev->slock);
	negcam_ready_drop_locked(dev);
	list_for_each_entry(buf, &dev->buf_list, list)
		buf->in_driver = false;
	list_splice_init(&dev->buf_list, &done);
	spin_unlock(&dev->slock);
	list_for_each_entry_safe(buf, tmp, &done, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

static int negcam_start_streaming_cap(struct vb2_queue *vq, unsigned int count)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);
	int ret;

	spin_lock(&dev->slock);
	dev->stream_fmt = *negcam_engine_fmt(&dev->engine, NC_CAPTURE);
	dev->stream_ival = negcam_engine_interval(&dev->engine, NC_CAPTURE);
	dev->stream_resync = false;
	dev->stream_gen = dev->fmt_gen;
	dev->last_ts = 0;
	spin_unlock(&dev->slock);
	negcam_faults_stream_start(dev); /* the profile's, or configfs 'faults' */
	negcam_node_call(dev, start);

	ret = negcam_thread_start(dev);
	if (ret) {
		negcam_return_all(dev, VB2_BUF_STATE_QUEUED);
		negcam_node_call(dev, stop);
	}
	return ret;
}

static void negcam_stop_streaming_cap(struct vb2_queue *vq)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);

	negcam_thread_stop(dev);
	negcam_return_all(dev, VB2_BUF_STATE_ERROR);
	negcam_node_call(dev, stop);
}

static const struct vb2_ops negcam_vid_cap_qops = {
	.queue_setup = negcam_queue_setup_cap,
	.buf_init = negcam_vid_buf_init,
	.buf_prepare = negcam_vid_buf_prepare,
	.buf_queue = negcam_buf_queue_cap,
	.start_streaming = negcam_start_streaming_cap,
	.stop_streaming = negcam_stop_streaming_cap,
	.wait_prepare = vb2_ops_wait_prepare,
	.wait_finish = vb2_ops_wait_finish,
};

/* ---- controls ---- */

static const char * const negcam_pattern_names[] = {
	[NC_PATTERN_BARS] = "Colour Bars",
	[NC_PATTERN_GRADIENT] = "Gradient",
	[NC_PATTERN_SOLID] = "Solid Grey",
	NULL,
};

static int negcam_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct negcam_dev *dev =
		container_of(ctrl->handler, struct negcam_dev, ctrl_handler);

	switch (ctrl->id) {
	case V4L2_CID_TEST_PATTERN:
		spin_lock(&dev->slock);
		dev->pattern = ctrl->val;
		spin_unlock(&dev->slock);
		return 0;
	}
	return -EINVAL;
}

static const struct v4l2_ctrl_ops negcam_ctrl_ops = {
	.s_ctrl = negcam_s_ctrl,
};

static void negcam_ctrls_cap(struct negcam_dev *dev)
{
	struct v4l2_ctrl_handler *hdl = &dev->ctrl_handler;

	/* Read-only by definition; what a buffer pool must start from. */
	v4l2_ctrl_new_std(hdl, NULL, V4L2_CID_MIN_BUFFERS_FOR_CAPTURE,
			  NEGCAM_MIN_BUFFERS, NEGCAM_MIN_BUFFERS, 1,
			  NEGCAM_MIN_BUFFERS);
	dev->ctrl_pattern = v4l2_ctrl_new_std_menu_items(hdl, &negcam_ctrl_ops,
			V4L2_CID_TEST_PATTERN, NC_PATTERN_COUNT - 1, 0,
			NC_PATTERN_BARS, negcam_pattern_names);
}

const struct negcam_vid_kind negcam_vid_cap_kind = {
	.ioctl_ops = &negcam_vid_cap_ioctl_ops,
	.qops = &negcam_vid_cap_qops,
	.ctrls = negcam_ctrls_cap,
	.buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
	.io_mode = VB2_READ,
	.tstamp_src = V4L2_BUF_FLAG_TSTAMP_SRC_EOF,
	.min_buffers = NEGCAM_MIN_BUFFERS,
	.vfl_dir = VFL_DIR_RX,
	.caps = V4L2_CAP_VIDEO_CAPTURE,
};
