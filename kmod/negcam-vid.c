// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko video nodes: the ioctl glue (every format question goes to
 * the engine), the videobuf2 queue and the controls. A node is a capture
 * node (a device, or a loop's capture side) or a loop's output node.
 *
 * Locking: dev->vlock is both vdev->lock and q->lock, so the V4L2 core
 * serialises every ioctl and file operation on the device, and the engine
 * (which never locks) sees one caller at a time. For the nodes of a loop
 * dev->vlock is the loop's lock, so one node may read and set the engine
 * of another (negcam-loop-link.c). The pacing thread never takes dev->vlock:
 * it shares only dev->buf_list and the stream_* fields, under dev->slock.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-event.h>
#include <media/videobuf2-vmalloc.h>

#include "negcam.h"
#include "framegen.h"
#include "formats.h"

static struct negcam_dev *negcam_file_dev(struct file *file)
{
	return video_drvdata(file);
}

/**
 * struct negcam_fh - an open file of a node
 * @fh: the V4L2 file handle; first, so that v4l2_fh_release() frees this
 * @asked_buffers: it called REQBUFS or CREATE_BUFS (streaming I/O), so
 *	STREAMON and STREAMOFF follow videobuf2's rules; until then an output
 *	node's STREAMON starts write() I/O (negcam_streamon)
 */
struct negcam_fh {
	struct v4l2_fh fh;
	bool asked_buffers;
};

static struct negcam_fh *negcam_file_fh(struct file *file)
{
	return container_of(file->private_data, struct negcam_fh, fh);
}

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

	if (dev->qi == NC_OUTPUT) {
		mutex_lock(dev->vlock);
		negcam_loop_out_unhold(dev, file->private_data);
		mutex_unlock(dev->vlock);
	}
	return vb2_fop_release(file);
}

/* ---- ioctls ---- */

/* A loop node's own name, else the profile's card, else "negcam". */
static const char *negcam_card(const struct negcam_dev *dev)
{
	if (dev->loop)
		return dev->card;
	return dev->profile->card[0] ? dev->profile->card : "negcam";
}

/*
 * The node's bus_info: platform:negcam-N for a device; for a loop,
 * platform:negcam-loop-N on its output node and capture node 0, and
 * platform:negcam-loop-N-M on capture node M from 1. Firefox opens a
 * camera as the first /dev/videoN whose bus_info starts with the one it
 * listed, so two capture nodes sharing one would both open capture node 0.
 */
static void negcam_bus_info(const struct negcam_dev *dev, char *bus, size_t n)
{
	if (!dev->loop)
		snprintf(bus, n, "platform:negcam-%u", dev->index);
	else if (dev->qi == NC_CAPTURE && dev->loop_idx)
		snprintf(bus, n, "platform:negcam-loop-%u-%u", dev->index,
			 dev->loop_idx);
	else
		snprintf(bus, n, "platform:negcam-loop-%u", dev->index);
}

/* The engine answers; the node says who it is. */
static int negcam_querycap(struct file *file, void *priv,
			   struct v4l2_capability *cap)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	struct video_device *vdev = video_devdata(file);
	struct negcam_identity id = { negcam_card(dev), NULL,
				      vdev->device_caps };
	char bus[sizeof(cap->bus_info)];

	negcam_bus_info(dev, bus, sizeof(bus));
	id.bus_info = bus;
	return negcam_engine_querycap(&dev->engine, &id, cap);
}

static int negcam_enum_fmt_vid_cap(struct file *file, void *priv,
				   struct v4l2_fmtdesc *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	if (dev->loop)
		return negcam_loop_enum_fmt(dev, f);
	return negcam_engine_enum_fmt(&dev->engine, f);
}

static int negcam_g_fmt_vid_cap(struct file *file, void *priv,
				struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	if (dev->loop)
		negcam_loop_sync(dev);
	return negcam_engine_g_fmt(&dev->engine, f);
}

static int negcam_try_fmt_vid_cap(struct file *file, void *priv,
				  struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	if (dev->qi == NC_OUTPUT)
		negcam_loop_out_request(dev, f);
	return negcam_engine_try_fmt(&dev->engine, f);
}

/* The engine's S_FMT is try, busy check, commit; it learns "busy" from vb2. */
static int negcam_s_fmt_vid_cap(struct file *file, void *priv,
				struct v4l2_format *f)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	if (dev->loop)
		negcam_loop_sync(dev);
	if (dev->qi == NC_OUTPUT)
		negcam_loop_out_request(dev, f);
	negcam_engine_set_busy(&dev->engine, f->type, vb2_is_busy(&dev->queue));
	ret = negcam_engine_s_fmt(&dev->engine, f);
	if (ret)
		return ret;
	dev->fmt_gen++;
	if (dev->loop)
		negcam_loop_fmt_set(dev, file->private_data);
	return 0;
}

static int negcam_enum_framesizes(struct file *file, void *priv,
				  struct v4l2_frmsizeenum *fs)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	return negcam_engine_enum_framesizes(&dev->engine, dev->qi, fs);
}

static int negcam_enum_frameintervals(struct file *file, void *priv,
				      struct v4l2_frmivalenum *fi)
{
	struct negcam_dev *dev = negcam_file_dev(file);

	return negcam_engine_enum_frameintervals(&dev->engine, dev->qi, fi);
}

static int negcam_g_parm(struct file *file, void *priv,
			 struct v4l2_streamparm *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret = negcam_engine_g_parm(&dev->engine, p);

	if (!ret && dev->qi == NC_OUTPUT)
		negcam_loop_out_rate(dev, p);
	return ret;
}

/* A new interval applies to a running stream from the next frame on. */
static int negcam_s_parm(struct file *file, void *priv,
			 struct v4l2_streamparm *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	if (dev->qi == NC_OUTPUT)
		negcam_loop_out_rate(dev, p);
	negcam_engine_set_busy(&dev->engine, p->type, vb2_is_busy(&dev->queue));
	ret = negcam_engine_s_parm(&dev->engine, p);
	if (ret)
		return ret;
	spin_lock(&dev->slock);
	dev->stream_ival = negcam_engine_interval(&dev->engine, dev->qi);
	dev->stream_resync = true;
	spin_unlock(&dev->slock);
	if (dev->loop)
		negcam_loop_parm_set(dev);
	return 0;
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
 * SOURCE_CHANGE on capture nodes only: V4L2 defines it for what is
 * received (v4l2-compliance fails an output node that accepts it). A
 * loop's output node tells its producer through control events instead.
 */
static int negcam_subscribe_event(struct v4l2_fh *fh,
				  const struct v4l2_event_subscription *sub)
{
	struct negcam_dev *dev = video_get_drvdata(fh->vdev);

	if (sub->type == V4L2_EVENT_SOURCE_CHANGE)
		return dev->qi == NC_OUTPUT ? -EINVAL :
		       v4l2_src_change_event_subscribe(fh, sub);
	return v4l2_ctrl_subscribe_event(fh, sub);
}

/* ---- buffers: videobuf2's, and write() I/O begun by STREAMON ---- */

static int negcam_reqbufs(struct file *file, void *priv,
			  struct v4l2_requestbuffers *p)
{
	struct negcam_dev *dev = negcam_file_dev(file);
	int ret;

	negcam_file_fh(file)->asked_buffers = true;
	ret = vb2_ioctl_reqbufs(file, priv, p);
	/* The producer's own: a prober's REQBUFS(0) lets nothing go. */
	if (!ret && !p->count && dev->qi == NC_OUTPUT)
		negcam_loop_out_unhold(dev, file->private_data);
	return ret;
}

static int negcam_create_bufs(struct file *file, void *priv,
			      struct v4l2_create_buffers *p)
{
	negcam_file_fh(file)->asked_buffers = true;
	return vb2_ioctl_create_bufs(file, priv, p);
}

/* @file does write() I/O on its output node: it never asked for buffers. */
static bool negcam_write_io(struct file *file, struct vb2_queue *q,
			    enum v4l2_buf_type type)
{
	return type == q->type && q->is_output &&
	       !negcam_file_fh(file)->asked_buffers;
}

/*
 * STREAMON on an output node from a file that never asked for buffers
 * starts write() I/O, and STREAMOFF ends it, as on v4l2loopback: OBS
 * Studio's virtual camera sets a format, calls STREAMON, then write()s
 * frames (docs/loopback.md, "OBS Studio"). videobuf2 alone answers EINVAL
 * (no buffers), which a file that did ask, even REQBUFS(0) as
 * v4l2-compliance does, still gets. vb2 starts its write() emulation from
 * poll, the only way it exports; the caller then owns the queue, as
 * vb2_fop_poll would make it.
 */
static int negcam_streamon(struct file *file, void *priv,
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

static int negcam_streamoff(struct file *file, void *priv,
			    enum v4l2_buf_type type)
{
	struct vb2_queue *q = video_devdata(file)->queue;

	if (!negcam_write_io(file, q, type) || !vb2_fileio_is_active(q) ||
	    q->owner != file->private_data)
		return vb2_ioctl_streamoff(file, priv, type);
	/* What closing the file does: the producer is gone. */
	vb2_core_queue_release(q);
	q->owner = NULL;
	negcam_loop_out_unhold(negcam_file_dev(file), NULL);
	return 0;
}

/*
 * Capture and output callbacks in one table: the V4L2 core enables those
 * of the node's direction only (vfl_dir), so a node answers for its own.
 */
static const struct v4l2_ioctl_ops negcam_ioctl_ops = {
	.vidioc_querycap = negcam_querycap,

	.vidioc_enum_fmt_vid_cap = negcam_enum_fmt_vid_cap,
	.vidioc_g_fmt_vid_cap = negcam_g_fmt_vid_cap,
	.vidioc_try_fmt_vid_cap = negcam_try_fmt_vid_cap,
	.vidioc_s_fmt_vid_cap = negcam_s_fmt_vid_cap,
	.vidioc_enum_framesizes = negcam_enum_framesizes,
	.vidioc_enum_frameintervals = negcam_enum_frameintervals,
	.vidioc_g_parm = negcam_g_parm,
	.vidioc_s_parm = negcam_s_parm,

	.vidioc_enum_input = negcam_enum_input,
	.vidioc_g_input = negcam_g_input,
	.vidioc_s_input = negcam_s_input,

	/* A loop's output node: the same calls on the output buffer type. */
	.vidioc_enum_fmt_vid_out = negcam_enum_fmt_vid_cap,
	.vidioc_g_fmt_vid_out = negcam_g_fmt_vid_cap,
	.vidioc_try_fmt_vid_out = negcam_try_fmt_vid_cap,
	.vidioc_s_fmt_vid_out = negcam_s_fmt_vid_cap,
	.vidioc_enum_output = negcam_enum_output,
	.vidioc_g_output = negcam_g_output,
	.vidioc_s_output = negcam_s_output,

	.vidioc_reqbufs = negcam_reqbufs,
	.vidioc_create_bufs = negcam_create_bufs,
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vb2_ioctl_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = negcam_streamon,
	.vidioc_streamoff = negcam_streamoff,

	.vidioc_log_status = v4l2_ctrl_log_status,
	.vidioc_subscribe_event = negcam_subscribe_event,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

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

/* ---- videobuf2 ---- */

static int negcam_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			      unsigned int *nplanes, unsigned int sizes[],
			      struct device *alloc_devs[])
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);
	unsigned int size = negcam_engine_fmt(&dev->engine, dev->qi)->sizeimage;
	unsigned int min;

	if (!size)
		return -EINVAL;
	/*
	 * CREATE_BUFS: any size that holds a frame of the current format, up
	 * to twice that or NEGCAM_CREATE_MAX: an absurd size (the storm asked
	 * 2 GiB) would only make vmalloc fail with a stack dump in the log.
	 */
	if (*nplanes)
		return *nplanes != 1 || sizes[0] < size ||
		       sizes[0] > max_t(unsigned long, 2UL * size, NEGCAM_CREATE_MAX) ?
		       -EINVAL : 0;
	/* Capture node 0 of a loop: two of its own beside the shared ones. */
	min = NEGCAM_ALLOC_BUFFERS;
	if (dev->qi == NC_CAPTURE && negcam_loop_shares(dev))
		min += NEGCAM_LOOP_OWN_BUFFERS;
	if (vq->num_buffers + *nbuffers < min)
		*nbuffers = min - vq->num_buffers;
	*nplanes = 1;
	sizes[0] = size;
	return 0;
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

static int negcam_buf_init(struct vb2_buffer *vb)
{
	struct negcam_buffer *buf = to_negcam_buffer(vb);

	buf->last_frame = NC_FRAME_NONE;
	return 0;
}

/*
 * An output buffer must hold a whole frame of the format: a raw frame
 * fills sizeimage, a compressed one is not empty. So no consumer can be
 * handed a short frame.
 */
static int negcam_buf_prepare(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	const struct v4l2_pix_format *fmt = negcam_engine_fmt(&dev->engine, dev->qi);
	const struct negcam_fourcc_info *fi;
	unsigned long used;

	if (vb2_plane_size(vb, 0) < fmt->sizeimage)
		return -EINVAL;
	if (dev->qi != NC_OUTPUT)
		return 0;
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

static void negcam_buf_queue(struct vb2_buffer *vb)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	struct negcam_buffer *buf = to_negcam_buffer(vb);

	if (dev->qi == NC_OUTPUT) {
		negcam_loop_out_queue(dev, buf);
		return;
	}
	if (dev->loop) {
		negcam_loop_cap_queued(dev, buf);
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
	list_for_each_entry(buf, &dev->buf_list, list)
		buf->in_driver = false;
	list_splice_init(&dev->buf_list, &done);
	spin_unlock(&dev->slock);
	list_for_each_entry_safe(buf, tmp, &done, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

static int negcam_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);
	int ret;

	/* An output node's buffers went to the loop in buf_queue already. */
	if (dev->qi == NC_OUTPUT)
		return 0;
	spin_lock(&dev->slock);
	dev->stream_fmt = *negcam_engine_fmt(&dev->engine, NC_CAPTURE);
	dev->stream_ival = negcam_engine_interval(&dev->engine, NC_CAPTURE);
	dev->stream_resync = false;
	dev->stream_gen = dev->fmt_gen;
	dev->last_ts = 0;
	spin_unlock(&dev->slock);
	if (dev->loop)
		negcam_loop_cap_start(dev);

	ret = negcam_thread_start(dev);
	if (ret) {
		negcam_return_all(dev, VB2_BUF_STATE_QUEUED);
		if (dev->loop)
			negcam_loop_cap_stop(dev);
	}
	return ret;
}

static void negcam_stop_streaming(struct vb2_queue *vq)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vq);

	if (dev->qi == NC_OUTPUT) {
		negcam_loop_out_stop(dev);
		return;
	}
	negcam_thread_stop(dev);
	negcam_return_all(dev, VB2_BUF_STATE_ERROR);
	if (dev->loop)
		negcam_loop_cap_stop(dev);
}

static const struct vb2_ops negcam_qops = {
	.queue_setup = negcam_queue_setup,
	.buf_out_validate = negcam_buf_out_validate,
	.buf_init = negcam_buf_init,
	.buf_prepare = negcam_buf_prepare,
	.buf_queue = negcam_buf_queue,
	.start_streaming = negcam_start_streaming,
	.stop_streaming = negcam_stop_streaming,
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

static int negcam_ctrls_init(struct negcam_dev *dev)
{
	struct v4l2_ctrl_handler *hdl = &dev->ctrl_handler;

	v4l2_ctrl_handler_init(hdl, 6);
	if (dev->qi == NC_OUTPUT) {
		v4l2_ctrl_new_std(hdl, NULL, V4L2_CID_MIN_BUFFERS_FOR_OUTPUT,
				  NEGCAM_OUT_QUEUED, NEGCAM_OUT_QUEUED, 1,
				  NEGCAM_OUT_QUEUED);
		negcam_loop_out_ctrls(dev);
		goto done;
	}
	/* Read-only by definition; what a buffer pool must start from. */
	v4l2_ctrl_new_std(hdl, NULL, V4L2_CID_MIN_BUFFERS_FOR_CAPTURE,
			  NEGCAM_MIN_BUFFERS, NEGCAM_MIN_BUFFERS, 1,
			  NEGCAM_MIN_BUFFERS);
	dev->ctrl_pattern = v4l2_ctrl_new_std_menu_items(hdl, &negcam_ctrl_ops,
			V4L2_CID_TEST_PATTERN, NC_PATTERN_COUNT - 1, 0,
			NC_PATTERN_BARS, negcam_pattern_names);
done:
	if (hdl->error)
		return hdl->error;
	dev->v4l2_dev.ctrl_handler = hdl;
	return 0;
}

/* ---- registration ---- */

int negcam_vid_register(struct negcam_dev *dev)
{
	struct video_device *vdev = &dev->vdev;
	struct vb2_queue *q = &dev->queue;
	bool out = dev->qi == NC_OUTPUT;
	int ret;

	ret = negcam_ctrls_init(dev);
	if (ret)
		return ret;

	q->type = out ? V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF |
		      (out ? VB2_WRITE : VB2_READ);
	q->drv_priv = dev;
	q->buf_struct_size = sizeof(struct negcam_buffer);
	q->ops = &negcam_qops;
	/* A loop's producer and first consumer may share frames. */
	q->mem_ops = negcam_loop_shares(dev) ? &negcam_share_memops :
					       &vb2_vmalloc_memops;
	/* An output buffer gets the time the loop let go of it. */
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
			     (out ? 0 : V4L2_BUF_FLAG_TSTAMP_SRC_EOF);
	q->min_buffers_needed = out ? NEGCAM_OUT_MIN_BUFFERS : NEGCAM_MIN_BUFFERS;
	q->lock = dev->vlock;
	q->dev = dev->v4l2_dev.dev;
	ret = vb2_queue_init(q);
	if (ret)
		return ret;

	strscpy(vdev->name, negcam_card(dev), sizeof(vdev->name));
	vdev->fops = &negcam_fops;
	vdev->ioctl_ops = &negcam_ioctl_ops;
	vdev->release = video_device_release_empty;
	vdev->v4l2_dev = &dev->v4l2_dev;
	vdev->ctrl_handler = &dev->ctrl_handler;
	vdev->queue = q;
	vdev->lock = dev->vlock;
	/* Each node names its own direction only (browsers require it). */
	vdev->vfl_dir = out ? VFL_DIR_TX : VFL_DIR_RX;
	vdev->device_caps = (out ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE) |
			    V4L2_CAP_STREAMING | V4L2_CAP_READWRITE;
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
