// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko faults beyond what the capture thread applies on its own
 * (negcam-thread.c; docs/faults.md):
 *  - the configfs 'faults' files (a device's negcam-N/faults, a loop's
 *    loops/NAME/faults): a list of faults, checked by the engine's parser
 *    (negcam_faults_parse()), that replaces the profile's, taken by a
 *    running stream at its next frame slot;
 *  - a fault's source change: the engine's format becomes the new size,
 *    as S_FMT would adjust it, then V4L2_EVENT_SOURCE_CHANGE; the stream
 *    delivers nothing more until it is restarted;
 *  - a fault's unplug on a loop's capture node: every node of the loop
 *    vanishes (its output node and its capture nodes), as a device's
 *    node does on the simulated unplug (negcam-core.c).
 * The thread cannot take a node's lock (STREAMOFF holds it while it waits
 * for the thread), so the source change and the loop's unplug are done
 * by a work item on this file's workqueue, which holds a reference to the
 * node until it ran; module exit drains the queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "negcam.h"
#include "negcam-loop.h"
#include "fault.h"
#include "profile.h"

static struct workqueue_struct *negcam_faults_wq;

static void negcam_faults_work(struct work_struct *work);

/* The faults a stream of @dev starts with: the written list, else the profile's. */
static void negcam_faults_in_force(struct negcam_dev *dev, struct negcam_faults *f)
{
	if (dev->kf.own)
		*f = dev->kf.set;
	else if (dev->engine.profile)
		*f = dev->engine.profile->faults;
	else
		memset(f, 0, sizeof(*f));
}

/*
 * start_streaming, under dev->vlock: the thread's copy. The work item is
 * set up at the first (the node is zeroed at allocation; once set up it
 * may be pending from an earlier stream, so it is never set up again).
 */
void negcam_faults_stream_start(struct negcam_dev *dev)
{
	if (!dev->kf.work.func)
		INIT_WORK(&dev->kf.work, negcam_faults_work);
	spin_lock(&dev->slock);
	negcam_faults_in_force(dev, &dev->stream_faults);
	dev->kf.fresh = false;
	dev->kf.held = false;
	dev->kf.streams++;
	spin_unlock(&dev->slock);
}

/* The thread: faults written meanwhile become its own. True when they did. */
bool negcam_faults_take(struct negcam_dev *dev)
{
	bool fresh;

	spin_lock(&dev->slock);
	fresh = dev->kf.fresh;
	if (fresh)
		dev->stream_faults = dev->kf.live;
	dev->kf.fresh = false;
	spin_unlock(&dev->slock);
	return fresh;
}

/* ---- a source change ---- */

/* The source is now @w x @h: the engine's format follows, as S_FMT adjusts it. */
static bool negcam_faults_resize(struct negcam_dev *dev, u32 w, u32 h)
{
	struct v4l2_format f;
	u32 ow, oh;
	int ret;

	memset(&f, 0, sizeof(f));
	f.type = negcam_engine_buf_type(dev->engine.profile, NC_CAPTURE);
	if (negcam_engine_g_fmt(&dev->engine, &f))
		return false;
	if (f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		ow = f.fmt.pix_mp.width;
		oh = f.fmt.pix_mp.height;
		f.fmt.pix_mp.width = w;
		f.fmt.pix_mp.height = h;
	} else {
		ow = f.fmt.pix.width;
		oh = f.fmt.pix.height;
		f.fmt.pix.width = w;
		f.fmt.pix.height = h;
		f.fmt.pix.bytesperline = 0;
		f.fmt.pix.sizeimage = 0;
	}
	/* the source, not the application, changes it: busy or not */
	negcam_engine_set_busy(&dev->engine, f.type, false);
	ret = negcam_engine_s_fmt(&dev->engine, &f);
	negcam_engine_set_busy(&dev->engine, f.type, vb2_is_busy(&dev->queue));
	if (ret)
		return false;
	dev->fmt_gen++;
	return negcam_engine_fmt(&dev->engine, NC_CAPTURE)->width != ow ||
	       negcam_engine_fmt(&dev->engine, NC_CAPTURE)->height != oh;
}

/* Asked by stream @asked: not done once another stream started. */
static void negcam_faults_source_change(struct negcam_dev *dev, u32 w, u32 h, u32 asked)
{
	bool changed = false;

	mutex_lock(dev->vlock);
	if (atomic_read(&dev->registered) && dev->engine.profile && asked == dev->kf.streams)
		changed = negcam_faults_resize(dev, w, h);
	if (changed) {
		spin_lock(&dev->slock);
		dev->kf.held = true; /* the thread delivers nothing more */
		spin_unlock(&dev->slock);
	}
	mutex_unlock(dev->vlock);
	if (changed) {
		dev_info(dev->v4l2_dev.dev, "%s: source changed to %ux%u by a fault\n",
			 dev->node_name, w, h);
		negcam_source_changed(dev);
	}
}

/* ---- a loop's unplug ---- */

static void negcam_faults_loop_unplug(struct negcam_loop *loop)
{
	struct negcam_dev *nodes[NEGCAM_LOOP_MAX_NODES];
	unsigned int i, n;

	n = negcam_loop_nodes(loop, nodes, true);
	if (!n)
		return; /* removed meanwhile */
	pr_info("loop %u: unplugged by a fault\n", loop->index);
	/* a DQBUF waiting now fails with EIO, as on uvcvideo's disconnect */
	for (i = 0; i < n; i++)
		vb2_queue_error(&nodes[i]->queue);
	/* each takes loop->lock itself; the loop goes at rmdir or rmmod */
	for (i = 0; i < n; i++)
		negcam_vid_unregister(nodes[i]);
	for (i = 0; i < n; i++)
		v4l2_device_put(&nodes[i]->v4l2_dev);
}

static void negcam_faults_work(struct work_struct *work)
{
	struct negcam_dev *dev = container_of(work, struct negcam_dev, kf.work);
	u32 todo, w, h, asked;

	spin_lock(&dev->slock);
	todo = dev->kf.todo;
	w = dev->kf.width;
	h = dev->kf.height;
	asked = dev->kf.asked;
	dev->kf.todo = 0;
	spin_unlock(&dev->slock);
	if ((todo & NC_DO_UNPLUG) && dev->loop)
		negcam_faults_loop_unplug(dev->loop);
	else if (todo & NC_DO_SOURCE_CHANGE)
		negcam_faults_source_change(dev, w, h, asked);
	v4l2_device_put(&dev->v4l2_dev); /* negcam_faults_ask()'s */
}

/*
 * The thread asks for @what (NC_DO_SOURCE_CHANGE: its stream_faults give
 * the size; NC_DO_UNPLUG: a loop's node only). False when nothing is done.
 */
bool negcam_faults_ask(struct negcam_dev *dev, u32 what)
{
	/* a device's unplug is negcam-core.c's; a loop's consumer has its
	 * producer's size, no source of its own */
	if (!!(what & NC_DO_UNPLUG) != !!dev->loop)
		return false;
	spin_lock(&dev->slock);
	dev->kf.todo |= what;
	dev->kf.width = dev->stream_faults.source_width;
	dev->kf.height = dev->stream_faults.source_height;
	dev->kf.asked = dev->kf.streams;
	spin_unlock(&dev->slock);
	v4l2_device_get(&dev->v4l2_dev);
	if (!queue_work(negcam_faults_wq, &dev->kf.work))
		v4l2_device_put(&dev->v4l2_dev); /* queued already: that one does it */
	return true;
}

/* ---- configfs 'faults' ---- */

/* Parse @len bytes: 0, or -EINVAL with "faults:LINE:COL: why" in @status. */
static int negcam_faults_parse_text(const char *text, size_t len, struct negcam_faults *f,
				    bool *empty, char *status, size_t status_len)
{
	struct negcam_parse_error err;
	size_t i;

	*empty = true;
	for (i = 0; i < len; i++)
		if (!isspace(text[i]))
			*empty = false;
	if (len >= PAGE_SIZE - 1) {
		snprintf(status, status_len, "error -27: a list of faults of a page or more\n");
		return -EFBIG;
	}
	if (!negcam_faults_parse(f, text, len, &err))
		return 0;
	snprintf(status, status_len, "error -22: faults:%u:%u: %s\n", err.line, err.column,
		 err.message);
	return -EINVAL;
}

/* Under dev->vlock: @f (or the profile's when !@own) in force from now on. */
static void negcam_faults_set_locked(struct negcam_dev *dev, const struct negcam_faults *f,
				     bool own)
{
	spin_lock(&dev->slock);
	dev->kf.own = own;
	if (own)
		dev->kf.set = *f;
	negcam_faults_in_force(dev, &dev->kf.live);
	dev->kf.fresh = true; /* a stream takes them at its next slot */
	spin_unlock(&dev->slock);
}

int negcam_faults_store(struct negcam_dev *dev, const char *text, size_t len,
			char *status, size_t status_len)
{
	struct negcam_faults f;
	bool empty;
	int ret = negcam_faults_parse_text(text, len, &f, &empty, status, status_len);

	if (ret) {
		dev_warn(dev->v4l2_dev.dev, "%s: %s", dev->node_name, status);
		return ret;
	}
	mutex_lock(dev->vlock);
	negcam_faults_set_locked(dev, &f, !empty);
	mutex_unlock(dev->vlock);
	snprintf(status, status_len, "ok: faults %s\n", empty ? "of the profile" : "set");
	return 0;
}

/* The faults in force, one "fault NAME VALUES" line each; under dev->vlock. */
static ssize_t negcam_faults_show_locked(struct negcam_dev *dev, char *page)
{
	struct negcam_faults f;
	long n;

	negcam_faults_in_force(dev, &f);
	n = negcam_faults_write(&f, "fault ", "\n", page, PAGE_SIZE - 1);
	if (n < 0 || n >= PAGE_SIZE - 1)
		return -EOVERFLOW;
	if (n)
		page[n++] = '\n';
	return n;
}

ssize_t negcam_faults_show(struct negcam_dev *dev, char *page)
{
	ssize_t n;

	mutex_lock(dev->vlock);
	n = negcam_faults_show_locked(dev, page);
	mutex_unlock(dev->vlock);
	return n;
}

/* A loop's: every capture node takes the list. */
int negcam_faults_loop_store(struct negcam_loop *loop, const char *text, size_t len,
			     char *status, size_t status_len)
{
	struct negcam_faults f;
	unsigned int i;
	bool empty;
	int ret = negcam_faults_parse_text(text, len, &f, &empty, status, status_len);

	if (ret) {
		pr_warn("loop %u: %s", loop->index, status);
		return ret;
	}
	mutex_lock(&loop->lock);
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i])
			negcam_faults_set_locked(loop->cap[i], &f, !empty);
	mutex_unlock(&loop->lock);
	snprintf(status, status_len, "ok: faults %s\n", empty ? "of the profile" : "set");
	return 0;
}

ssize_t negcam_faults_loop_show(struct negcam_loop *loop, char *page)
{
	ssize_t n = 0;

	mutex_lock(&loop->lock);
	if (loop->cap[0])
		n = negcam_faults_show_locked(loop->cap[0], page);
	mutex_unlock(&loop->lock);
	return n;
}

int negcam_faults_init(void)
{
	negcam_faults_wq = alloc_workqueue("negcam-faults", 0, 0);
	return negcam_faults_wq ? 0 : -ENOMEM;
}

void negcam_faults_exit(void)
{
	destroy_workqueue(negcam_faults_wq); /* drains: each work puts its node */
}
