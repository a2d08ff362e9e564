// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops, made and removed: the loops= module parameter, and the
 * loop directories of negcam-configfs.c (/sys/kernel/config/negcam/loops)
 * through negcam_loop_new() and negcam_loop_remove(), create a loop's
 * platform device (negcam-loop.N, named in its nodes' bus_info), its
 * profile and its nodes, each pointing at its node ops; removal
 * unregisters them, and each is freed when its last handle goes. What a
 * loop does once made is negcam-loop-formats.c (its node ops, formats)
 * and negcam-loop-frames.c (its frames).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/kref.h>

#include "negcam-loop.h"
#include "profile.h"

#define NEGCAM_MAX_LOOPS 8
#define NEGCAM_LOOP_PDEV "negcam-loop"

static unsigned int loops;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "number of loops, an output node feeding capture nodes (0-8, default 0)");

static unsigned int loop_captures = 1;
module_param(loop_captures, uint, 0444);
MODULE_PARM_DESC(loop_captures, "capture nodes per loop (1-4, default 1)");

static char *loop_profile = "webcam";
module_param(loop_profile, charp, 0444);
MODULE_PARM_DESC(loop_profile,
		 "built-in profile of the loops' capture side, or 'follow' (formats are the producer's; default webcam)");

static char *loop_labels[NEGCAM_MAX_LOOPS];
static int nr_loop_labels;
module_param_array(loop_labels, charp, &nr_loop_labels, 0444);
MODULE_PARM_DESC(loop_labels,
		 "names of the loops as applications list them, comma-separated, up to 22 characters each (default 'negcam loop N capture M')");


/*
 * follow: the producer may set any of these formats at any size (the
 * output queue); the consumers see what it set first (ENUM_FMT index 0,
 * G_FMT), as v4l2loopback does, and from its S_FMT on that format alone
 * (negcam-loop-formats.c, narrowing). With no producer format yet, the capture
 * side offers common camera sizes, discrete, as a browser requires to
 * list a camera (Chromium ignores a node whose sizes are stepwise).
 */
#define NEGCAM_FOLLOW_SIZES						\
	"  size 160x120 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 176x144 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 320x180 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 320x240 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 352x288 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 640x360 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 640x480 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 800x600 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 960x540 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 1024x768 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 1280x720 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 1280x960 fps 60 30 25 24 20 15 10 5\n"			\
	"  size 1920x1080 fps 60 30 25 24 20 15 10 5\n"		\
	"  size 2560x1440 fps 60 30 25 24 20 15 10 5\n"		\
	"  size 3840x2160 fps 60 30 25 24 20 15 10 5\n"
#define NEGCAM_FOLLOW(fcc)						\
	"format " fcc "\n" NEGCAM_FOLLOW_SIZES				\
	"format " fcc " output\n  size 16x16-3840x2160 step 2x2 fps 1-60\n"

static const char negcam_follow_text[] =
	"name follow\n"
	"card \"negcam loop\"\n"
	"adjust nearest\n"
	"default YUYV 640x480 fps 30\n"
	"default YUYV output 640x480 fps 30\n"
	NEGCAM_FOLLOW("YUYV") NEGCAM_FOLLOW("UYVY") NEGCAM_FOLLOW("NV12")
	NEGCAM_FOLLOW("YU12") NEGCAM_FOLLOW("RGB3") NEGCAM_FOLLOW("BGR3")
	NEGCAM_FOLLOW("XR24") NEGCAM_FOLLOW("AR24") NEGCAM_FOLLOW("GREY")
	NEGCAM_FOLLOW("MJPG");

static struct negcam_loop *negcam_loops[NEGCAM_MAX_LOOPS];
/*
 * A slot stays taken while its loop is being destroyed: the loop's
 * platform device negcam-loop.N is still registered until then, and a new
 * loop taking N would fail on the duplicate sysfs name (the storm found it).
 */
static bool negcam_loops_dying[NEGCAM_MAX_LOOPS];
/* Guards negcam_loops[] and negcam_loops_dying[]: creation and removal. */
static DEFINE_MUTEX(negcam_loops_lock);

/* ---- creation and removal ---- */

/*
 * Follow mode, or a profile with no output queue: the output node offers
 * the capture queue's formats (the producer is offered what the consumers
 * may ask), without the capture side's colorimetry conversion flags.
 */
static int negcam_loop_offer_output(struct negcam_loop *loop,
				    struct negcam_profile *p, const char *name)
{
	unsigned int i, n = p->nformats;

	if (p->def[NC_OUTPUT].fourcc)
		return 0;
	if (2 * n > NC_MAX_FORMATS) {
		pr_err("loop %u: profile '%s': too many formats to offer them on the output node\n",
		       loop->index, name);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct negcam_format *f = &p->formats[p->nformats];

		if (p->formats[i].buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
			continue;
		*f = p->formats[i];
		f->buf_type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		f->flags &= ~(V4L2_FMT_FLAG_CSC_COLORSPACE |
			      V4L2_FMT_FLAG_CSC_YCBCR_ENC |
			      V4L2_FMT_FLAG_CSC_QUANTIZATION |
			      V4L2_FMT_FLAG_CSC_XFER_FUNC);
		p->nformats++;
	}
	p->def[NC_OUTPUT] = p->def[NC_CAPTURE];
	return 0;
}

/*
 * The loop's profile: @name's text (a built-in, or "follow"), through the
 * module's one parse-and-check (negcam-profile.c), with the capture queue
 * offered on the output node when the profile has no output queue.
 */
static int negcam_loop_profile(struct negcam_loop *loop, const char *name)
{
	const struct negcam_builtin *b = NULL;
	struct negcam_profile *p;
	const char *text;
	char why[160];
	int ret;

	if (strcmp(name, "follow")) {
		b = negcam_builtin_find(name);
		if (!b) {
			pr_err("loop %u: no built-in profile '%s'\n",
			       loop->index, name);
			return -EINVAL;
		}
	}
	text = b ? b->text : negcam_follow_text;
	ret = negcam_profile_from_text(text, strlen(text), &p, NULL, why,
				       sizeof(why));
	if (ret) {
		pr_err("loop %u: profile '%s': %s\n", loop->index, name, why);
		return ret;
	}
	if (p->multiplanar) { /* a loop's nodes are single-planar */
		pr_err("loop %u: profile '%s' is multiplanar: loops are single-planar\n",
		       loop->index, name);
		kvfree(p);
		return -EINVAL;
	}
	ret = negcam_loop_offer_output(loop, p, name);
	if (!ret && !b) {
		loop->narrow = kvzalloc(sizeof(*loop->narrow), GFP_KERNEL);
		if (!loop->narrow)
			ret = -ENOMEM;
	}
	if (ret) {
		kvfree(p);
		return ret;
	}
	strscpy(loop->profile_name, name, sizeof(loop->profile_name));
	loop->follow = !b;
	loop->profile = p;
	return 0;
}

static void negcam_loop_free(struct kref *ref)
{
	struct negcam_loop *loop = container_of(ref, struct negcam_loop, ref);

	kvfree(loop->profile);
	kvfree(loop->narrow);
	mutex_destroy(&loop->lock);
	kfree(loop);
}

/* Last reference to a node gone (its last file handle closed). */
static void negcam_loop_node_release(struct v4l2_device *v4l2_dev)
{
	struct negcam_dev *dev =
		container_of(v4l2_dev, struct negcam_dev, v4l2_dev);
	struct negcam_loop *loop = dev->loop;

	negcam_vid_free(dev);
	v4l2_device_unregister(&dev->v4l2_dev);
	mutex_destroy(&dev->lock);
	kfree(dev);
	kref_put(&loop->ref, negcam_loop_free);
}

/*
 * A label names a loop for the applications that list cameras by card
 * name (browsers, call apps, OBS): printable, UTF-8 allowed, short enough
 * for the output node's " (output)".
 */
bool negcam_loop_label_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n > NEGCAM_LABEL_MAX)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/*
 * The card name of a node: "LABEL", "LABEL (2)"... for the capture nodes
 * and "LABEL (output)" with a label; else "negcam loop N capture M" and
 * "negcam loop N output".
 */
static void negcam_loop_card(const struct negcam_loop *loop, int qi,
			     unsigned int m, char *card, size_t len)
{
	if (!loop->label[0] && qi == NC_OUTPUT)
		snprintf(card, len, "negcam loop %u output", loop->index);
	else if (!loop->label[0])
		snprintf(card, len, "negcam loop %u capture %u", loop->index, m);
	else if (qi == NC_OUTPUT)
		snprintf(card, len, "%s (output)", loop->label);
	else if (m)
		snprintf(card, len, "%s (%u)", loop->label, m + 1);
	else
		strscpy(card, loop->label, len);
}

/*
 * The node's bus_info: platform:negcam-loop-N on the output node and
 * capture node 0, and platform:negcam-loop-N-M on capture node M from 1.
 * Firefox opens a camera as the first /dev/videoN whose bus_info starts
 * with the one it listed, so two capture nodes sharing one would both
 * open capture node 0.
 */
static void negcam_loop_bus_info(const struct negcam_loop *loop, int qi,
				 unsigned int m, char *bus, size_t n)
{
	if (qi == NC_CAPTURE && m)
		snprintf(bus, n, "platform:negcam-loop-%u-%u", loop->index, m);
	else
		snprintf(bus, n, "platform:negcam-loop-%u", loop->index);
}

/*
 * Create a node of @loop, not yet registered: output (@qi NC_OUTPUT) or
 * capture @m, with the node ops of its side (negcam-loop-formats.c).
 */
static struct negcam_dev *negcam_loop_node(struct negcam_loop *loop, int qi,
					   unsigned int m)
{
	struct negcam_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->index = loop->index;
	dev->loop = loop;
	dev->loop_idx = m;
	dev->qi = qi;
	dev->ops = qi == NC_OUTPUT ? &negcam_loop_out_ops : &negcam_loop_cap_ops;
	/* The producer and the first consumer share frames. */
	dev->shares = qi == NC_OUTPUT || m == 0;
	mutex_init(&dev->lock);
	dev->vlock = &loop->lock;
	spin_lock_init(&dev->slock);
	INIT_LIST_HEAD(&dev->buf_list);
	negcam_loop_card(loop, qi, m, dev->card, sizeof(dev->card));
	negcam_loop_bus_info(loop, qi, m, dev->bus_info, sizeof(dev->bus_info));
	snprintf(dev->v4l2_dev.name, sizeof(dev->v4l2_dev.name),
		 "negcam-loop-%u-%s%u", loop->index,
		 qi == NC_OUTPUT ? "out" : "cap", m);
	ret = v4l2_device_register(&loop->pdev->dev, &dev->v4l2_dev);
	if (ret) {
		mutex_destroy(&dev->lock);
		kfree(dev);
		return ERR_PTR(ret);
	}
	/* From here on the release callback frees the node. */
	kref_get(&loop->ref);
	dev->v4l2_dev.release = negcam_loop_node_release;
	negcam_engine_init(&dev->engine, loop->profile);
	negcam_engine_set_readbuffers(&dev->engine, NEGCAM_READ_BUFFERS);
	return dev;
}

/*
 * Register the loop's nodes, capture nodes first: they take the lower
 * /dev/videoN. The output node shares capture node 0's bus_info, and some
 * consumers open the first node that carries it (Firefox: the first
 * /dev/videoN whose bus_info starts with the camera's it listed), as they
 * would a camera's capture node before its metadata node.
 */
static int negcam_loop_register(struct negcam_loop *loop)
{
	unsigned int i;
	int ret;

	for (i = 0; i < loop->ncap; i++) {
		ret = negcam_vid_register(loop->cap[i]);
		if (ret)
			return ret;
	}
	return negcam_vid_register(loop->out);
}

/*
 * The loop's nodes, output first, into @nodes (NEGCAM_LOOP_MAX_NODES), under
 * loop->lock; with @ref each comes with a reference on its v4l2_device
 * (v4l2_device_put when done). Returns how many.
 */
unsigned int negcam_loop_nodes(struct negcam_loop *loop, struct negcam_dev **nodes, bool ref)
{
	unsigned int i, n = 0;

	mutex_lock(&loop->lock);
	if (loop->out)
		nodes[n++] = loop->out;
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i])
			nodes[n++] = loop->cap[i];
	for (i = 0; ref && i < n; i++)
		v4l2_device_get(&nodes[i]->v4l2_dev);
	mutex_unlock(&loop->lock);
	return n;
}

/*
 * Remove a loop: every node vanishes (open handles get ENODEV, streams
 * stop), then the loop's own reference goes; the last closed handle
 * frees what is left.
 */
static void negcam_loop_destroy(struct negcam_loop *loop)
{
	struct negcam_dev *nodes[NEGCAM_LOOP_MAX_NODES];
	unsigned int i, n;

	n = negcam_loop_nodes(loop, nodes, false);
	/* vb2_video_unregister_device takes loop->lock itself. */
	for (i = 0; i < n; i++)
		negcam_vid_unregister(nodes[i]);
	mutex_lock(&loop->lock);
	for (i = 0; i < n; i++)
		nodes[i]->share_node = NULL;
	loop->out = NULL;
	memset(loop->cap, 0, sizeof(loop->cap));
	mutex_unlock(&loop->lock);
	for (i = 0; i < n; i++)
		v4l2_device_put(&nodes[i]->v4l2_dev);
	if (loop->pdev) {
		negcam_loop_sysfs_remove(loop);
		platform_device_unregister(loop->pdev);
	}
	kref_put(&loop->ref, negcam_loop_free);
}

/* Create loop @index with @ncap capture nodes on profile @name, @label. */
static struct negcam_loop *negcam_loop_create(unsigned int index,
					      const char *name,
					      unsigned int ncap,
					      const char *label)
{
	struct negcam_loop *loop;
	struct negcam_dev *dev;
	unsigned int i;
	int ret;

	loop = kzalloc(sizeof(*loop), GFP_KERNEL);
	if (!loop)
		return ERR_PTR(-ENOMEM);
	kref_init(&loop->ref);
	mutex_init(&loop->lock);
	spin_lock_init(&loop->flock);
	INIT_LIST_HEAD(&loop->held);
	atomic64_set(&loop->copies, 0);
	atomic64_set(&loop->shared, 0);
	loop->index = index;
	strscpy(loop->label, label, sizeof(loop->label));
	ret = negcam_loop_profile(loop, name);
	if (ret) {
		kref_put(&loop->ref, negcam_loop_free);
		return ERR_PTR(ret);
	}
	loop->pdev = platform_device_register_simple(NEGCAM_LOOP_PDEV, index,
						     NULL, 0);
	if (IS_ERR(loop->pdev)) {
		ret = PTR_ERR(loop->pdev);
		loop->pdev = NULL;
		goto fail;
	}
	ret = negcam_loop_sysfs_add(loop);
	if (ret)
		goto fail;
	for (i = 0; i <= ncap; i++) {
		dev = negcam_loop_node(loop, i ? NC_CAPTURE : NC_OUTPUT,
				       i ? i - 1 : 0);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto fail;
		}
		mutex_lock(&loop->lock);
		if (i)
			loop->cap[loop->ncap++] = dev;
		else
			loop->out = dev;
		if (i == 1) {
			/* The producer and the first consumer share frames. */
			loop->out->share_node = dev;
			dev->share_node = loop->out;
		}
		mutex_unlock(&loop->lock);
	}
	ret = negcam_loop_register(loop);
	if (ret)
		goto fail;
	pr_info("loop %u: output /dev/%s, %u capture node(s) from /dev/%s, profile '%s'\n",
		index, loop->out->node_name, ncap, loop->cap[0]->node_name,
		loop->profile_name);
	return loop;

fail:
	pr_err("loop %u: cannot create it: %d\n", index, ret);
	negcam_loop_destroy(loop);
	return ERR_PTR(ret);
}

/*
 * Create a loop in the first free slot (its N). Under negcam_loops_lock,
 * so two creations never take one slot.
 */
static struct negcam_loop *negcam_loop_add(const char *name,
					   unsigned int ncap,
					   const char *label)
{
	struct negcam_loop *loop;
	unsigned int i;

	lockdep_assert_held(&negcam_loops_lock);
	for (i = 0; i < NEGCAM_MAX_LOOPS; i++)
		if (!negcam_loops[i] && !negcam_loops_dying[i])
			break;
	if (i == NEGCAM_MAX_LOOPS)
		return ERR_PTR(-ENOSPC);
	loop = negcam_loop_create(i, name, ncap, label);
	if (!IS_ERR(loop))
		negcam_loops[i] = loop;
	return loop;
}

/*
 * A loop on profile @profile with @ncap capture nodes, labelled @label,
 * in the first free slot (a configfs loop directory enabled).
 */
struct negcam_loop *negcam_loop_new(const char *profile, unsigned int ncap,
				    const char *label)
{
	struct negcam_loop *loop;

	mutex_lock(&negcam_loops_lock);
	loop = negcam_loop_add(profile, ncap, label);
	mutex_unlock(&negcam_loops_lock);
	return loop;
}

/* Take @loop out of its slot and remove it; the slot is free again after. */
void negcam_loop_remove(struct negcam_loop *loop)
{
	unsigned int index = loop->index;
	bool owned;

	mutex_lock(&negcam_loops_lock);
	owned = negcam_loops[index] == loop;
	if (owned) {
		negcam_loops[index] = NULL;
		negcam_loops_dying[index] = true;
	}
	mutex_unlock(&negcam_loops_lock);
	negcam_loop_destroy(loop);
	if (!owned)
		return;
	mutex_lock(&negcam_loops_lock);
	negcam_loops_dying[index] = false;
	mutex_unlock(&negcam_loops_lock);
}

/* Remove the loops of the module parameter; module exit. */
void negcam_loops_exit(void)
{
	struct negcam_loop *loop;
	unsigned int i;

	for (i = 0; i < NEGCAM_MAX_LOOPS; i++) {
		mutex_lock(&negcam_loops_lock);
		loop = negcam_loops[i];
		mutex_unlock(&negcam_loops_lock);
		if (loop)
			negcam_loop_remove(loop);
	}
}

/* Module load: the loops= loops. */
int negcam_loops_init(void)
{
	struct negcam_loop *loop;
	unsigned int i;

	if (loops > NEGCAM_MAX_LOOPS) {
		pr_err("loops=%u: must be 0 to %u\n", loops, NEGCAM_MAX_LOOPS);
		return -EINVAL;
	}
	if (loop_captures < 1 || loop_captures > NEGCAM_LOOP_MAX_CAPTURES) {
		pr_err("loop_captures=%u: must be 1 to %u\n", loop_captures,
		       NEGCAM_LOOP_MAX_CAPTURES);
		return -EINVAL;
	}
	for (i = 0; i < nr_loop_labels; i++) {
		if (!negcam_loop_label_ok(loop_labels[i])) {
			pr_err("loop_labels: '%s': at most %u printable characters\n",
			       loop_labels[i], NEGCAM_LABEL_MAX);
			return -EINVAL;
		}
	}
	for (i = 0; i < loops; i++) {
		loop = negcam_loop_new(loop_profile, loop_captures,
				       i < nr_loop_labels ? loop_labels[i] : "");
		if (IS_ERR(loop)) {
			negcam_loops_exit();
			return PTR_ERR(loop);
		}
	}
	return 0;
}

/* What a new configfs loop directory starts from: loop_profile=, loop_captures=. */
void negcam_loop_defaults(char *profile, size_t len, unsigned int *captures)
{
	strscpy(profile, loop_profile, len);
	*captures = clamp(loop_captures, 1u, NEGCAM_LOOP_MAX_CAPTURES);
}

/* "output videoN capture videoM ...": @loop's nodes, for configfs. */
ssize_t negcam_loop_nodes_show(const struct negcam_loop *loop, char *page)
{
	unsigned int i;
	ssize_t n;

	n = sysfs_emit(page, "output %s", loop->out->node_name);
	for (i = 0; i < loop->ncap; i++)
		n += sysfs_emit_at(page, n, " capture %s",
				   loop->cap[i]->node_name);
	return n;
}
