// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko core: module parameters, one platform device per negcam
 * device (bus_info platform:negcam-N), probe and remove, the profile swap
 * shared by module load and configfs, sysfs attributes and the simulated
 * unplug.
 *
 * Lifetime: struct negcam_dev is freed by the v4l2_device release, which
 * runs when the last reference goes: remove() drops the probe's, and the
 * video node holds one until its last file handle is closed. So a device
 * can vanish (unplug, rmmod) under open handles, which then get ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/workqueue.h>
#include <linux/kstrtox.h>
#include <linux/string.h>

#include "negcam.h"
#include "profile.h"

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of capture devices (0-32, default 1; 0 for loops only)");

static char *profile = "webcam";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "built-in profile of every device at load (default webcam; see negcam-ctl --list-profiles)");

/**
 * struct negcam_slot - a platform device created by this module
 * @pdev: the device, NULL once unregistered (under negcam_slots_lock)
 * @unplug_work: unregisters @pdev after a simulated unplug; a device
 *	cannot unregister itself from inside its own sysfs store
 */
struct negcam_slot {
	struct platform_device *pdev;
	struct work_struct unplug_work;
};

static struct negcam_slot negcam_slots[NEGCAM_MAX_DEVICES];
static DEFINE_MUTEX(negcam_slots_lock);

/* Refuse what this capture-only node cannot present. */
static int negcam_check_profile(const struct negcam_profile *p, char *why,
				size_t why_len)
{
	if (!p->def[NC_CAPTURE].fourcc) {
		snprintf(why, why_len,
			 "profile '%s' has no capture format (negcam.ko has capture nodes only)",
			 p->name);
		return -EINVAL;
	}
	return 0;
}

/* The name of the profile in force, copied under the lock (a swap frees it). */
static void negcam_profile_name(struct negcam_dev *dev, char *name, size_t len)
{
	mutex_lock(&dev->lock);
	strscpy(name, dev->profile ? dev->profile->name : "none", len);
	mutex_unlock(&dev->lock);
}

/*
 * The one way a profile gets into negcam.ko (module parameter, configfs,
 * a built-in by name): parse @len bytes of @text into a new profile and
 * refuse what a capture node cannot present. On success *@pp and *@textp
 * (a NUL-terminated copy of the text) are the caller's to free; on error
 * both are NULL and @why says what is wrong.
 */
static int negcam_profile_load(const char *text, size_t len,
			       struct negcam_profile **pp, char **textp,
			       char *why, size_t why_len)
{
	struct negcam_parse_error *err = NULL;
	struct negcam_profile *p = NULL;
	char *copy = NULL;
	int ret;

	*pp = NULL;
	*textp = NULL;
	if (len > NEGCAM_PROFILE_TEXT_MAX) {
		snprintf(why, why_len, "profile text of %zu bytes, limit %u",
			 len, NEGCAM_PROFILE_TEXT_MAX);
		return -EFBIG;
	}
	p = kvzalloc(sizeof(*p), GFP_KERNEL);
	copy = kvmalloc(len + 1, GFP_KERNEL);
	err = kzalloc(sizeof(*err), GFP_KERNEL);
	if (!p || !copy || !err) {
		ret = -ENOMEM;
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	ret = negcam_profile_parse(p, copy, len, err);
	if (ret)
		snprintf(why, why_len, "line %u, column %u: %s", err->line,
			 err->column, err->message);
	else
		ret = negcam_check_profile(p, why, why_len);
out:
	kfree(err);
	if (ret) {
		kvfree(copy);
		kvfree(p);
		return ret;
	}
	*pp = p;
	*textp = copy;
	return 0;
}

/**
 * negcam_apply_profile_text - parse a profile and make it the device's
 * @dev: the device
 * @text: profile text, @len bytes, need not be NUL-terminated
 * @len: its length
 * @status: where to describe the outcome in one line, or NULL
 * @status_len: size of @status
 *
 * Parses into a new profile outside the device lock, then swaps it in
 * under the lock: -EBUSY while the queue has buffers. On any error the
 * old profile stays in force and the reason goes to the kernel log. On
 * success a V4L2_EVENT_SOURCE_CHANGE is queued.
 */
int negcam_apply_profile_text(struct negcam_dev *dev, const char *text,
			      size_t len, char *status, size_t status_len)
{
	struct negcam_profile *p = NULL;
	char name[NC_NAME_LEN], card[NC_NAME_LEN];
	char *copy = NULL;
	char why[160];
	int ret;

	ret = negcam_profile_load(text, len, &p, &copy, why, sizeof(why));
	if (ret)
		goto fail;

	mutex_lock(&dev->lock);
	negcam_engine_set_busy(&dev->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE,
			       vb2_is_busy(&dev->queue));
	ret = negcam_engine_set_profile(&dev->engine, p);
	if (!ret) {
		swap(dev->profile, p);
		swap(dev->profile_text, copy);
		dev->profile_len = len;
		dev->fmt_gen++;
		/* Copies: once unlocked, another swap may free the profile. */
		strscpy(name, dev->profile->name, sizeof(name));
		strscpy(card, dev->profile->card, sizeof(card));
	}
	mutex_unlock(&dev->lock);
	if (ret) {
		snprintf(why, sizeof(why), "%s",
			 ret == -EBUSY ? "device busy (buffers allocated or streaming)"
				       : "refused by the engine");
		goto fail;
	}

	pr_info("negcam-%u: profile '%s' (%s) in force\n", dev->index, name,
		card);
	if (status)
		snprintf(status, status_len, "ok: profile %s\n", name);
	negcam_vid_source_changed(dev);
	ret = 0;
	goto out;

fail:
	negcam_profile_name(dev, name, sizeof(name));
	pr_warn("negcam-%u: profile rejected: %s; old profile '%s' stays in force\n",
		dev->index, why, name);
	if (status)
		snprintf(status, status_len, "error %d: %s\n", ret, why);
out:
	kvfree(copy);
	kvfree(p);
	return ret;
}

/* Apply the built-in profile @name (NUL-terminated, no newline). */
int negcam_apply_builtin(struct negcam_dev *dev, const char *name,
			 char *status, size_t status_len)
{
	const struct negcam_builtin *b = negcam_builtin_find(name);

	if (!b) {
		pr_warn("negcam-%u: no built-in profile '%s'\n", dev->index,
			name);
		if (status)
			snprintf(status, status_len,
				 "error %d: no built-in profile '%s'\n",
				 -EINVAL, name);
		return -EINVAL;
	}
	return negcam_apply_profile_text(dev, b->text, strlen(b->text), status,
					 status_len);
}

/* The profile a device starts with, before its node exists. */
static int negcam_load_initial(struct negcam_dev *dev,
			       const struct negcam_builtin *b)
{
	size_t len = strlen(b->text);
	char why[160];
	int ret;

	ret = negcam_profile_load(b->text, len, &dev->profile,
				  &dev->profile_text, why, sizeof(why));
	if (ret) {
		pr_err("negcam-%u: built-in profile '%s': %s\n", dev->index,
		       b->name, why);
		return ret;
	}
	dev->profile_len = len;
	negcam_engine_init(&dev->engine, dev->profile);
	negcam_engine_set_readbuffers(&dev->engine, NEGCAM_READ_BUFFERS);
	return 0;
}

static void negcam_v4l2_release(struct v4l2_device *v4l2_dev)
{
	struct negcam_dev *dev =
		container_of(v4l2_dev, struct negcam_dev, v4l2_dev);

	negcam_vid_free(dev);
	v4l2_device_unregister(&dev->v4l2_dev);
	kvfree(dev->profile);
	kvfree(dev->profile_text);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

static struct negcam_dev *negcam_from_device(struct device *d)
{
	struct v4l2_device *v4l2_dev = dev_get_drvdata(d);

	return container_of(v4l2_dev, struct negcam_dev, v4l2_dev);
}

/* ---- sysfs, on the platform device: /sys/devices/platform/negcam.N/ ---- */

static ssize_t dropped_frames_show(struct device *d,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&negcam_from_device(d)->dropped));
}
static DEVICE_ATTR_RO(dropped_frames);

static ssize_t skipped_slots_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&negcam_from_device(d)->skipped));
}
static DEVICE_ATTR_RO(skipped_slots);

static ssize_t frames_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&negcam_from_device(d)->frames));
}
static DEVICE_ATTR_RO(frames);

static ssize_t video_node_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	return sysfs_emit(buf, "%s\n", negcam_from_device(d)->node_name);
}
static DEVICE_ATTR_RO(video_node);

static ssize_t profile_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	struct negcam_dev *dev = negcam_from_device(d);
	ssize_t n;

	mutex_lock(&dev->lock);
	n = sysfs_emit(buf, "%s\n", dev->profile->name);
	mutex_unlock(&dev->lock);
	return n;
}
static DEVICE_ATTR_RO(profile);

/*
 * Simulated unplug, as a USB camera vanishes: the video node and the
 * configfs directory go at once (open handles get ENODEV from then on),
 * the platform device follows from a work item.
 */
static ssize_t unplug_store(struct device *d, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct platform_device *pdev = to_platform_device(d);
	struct negcam_dev *dev = negcam_from_device(d);
	bool yes;
	int ret;

	ret = kstrtobool(buf, &yes);
	if (ret)
		return ret;
	if (!yes)
		return -EINVAL;
	if (pdev->id < 0 || pdev->id >= NEGCAM_MAX_DEVICES)
		return -EINVAL;
	pr_info("negcam-%u: simulated unplug\n", dev->index);
	negcam_configfs_remove(dev);
	negcam_vid_unregister(dev);
	schedule_work(&negcam_slots[pdev->id].unplug_work);
	return count;
}
static DEVICE_ATTR_WO(unplug);

static struct attribute *negcam_attrs[] = {
	&dev_attr_dropped_frames.attr,
	&dev_attr_skipped_slots.attr,
	&dev_attr_frames.attr,
	&dev_attr_video_node.attr,
	&dev_attr_profile.attr,
	&dev_attr_unplug.attr,
	NULL,
};
ATTRIBUTE_GROUPS(negcam);

/* ---- platform driver ---- */

static int negcam_probe(struct platform_device *pdev)
{
	const struct negcam_builtin *b = negcam_builtin_find(profile);
	struct negcam_dev *dev;
	int ret;

	if (!b)
		return -EINVAL;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->index = pdev->id;
	mutex_init(&dev->lock);
	dev->vlock = &dev->lock;
	dev->qi = NC_CAPTURE;
	spin_lock_init(&dev->slock);
	INIT_LIST_HEAD(&dev->buf_list);
	atomic64_set(&dev->frames, 0);
	atomic64_set(&dev->dropped, 0);
	atomic64_set(&dev->skipped, 0);

	ret = v4l2_device_register(&pdev->dev, &dev->v4l2_dev);
	if (ret) {
		mutex_destroy(&dev->lock);
		kfree(dev);
		return ret;
	}
	/* From here on the release callback frees everything. */
	dev->v4l2_dev.release = negcam_v4l2_release;

	ret = negcam_load_initial(dev, b);
	if (ret)
		goto fail;

	ret = negcam_vid_register(dev);
	if (ret)
		goto fail;
	ret = negcam_configfs_add(dev);
	if (ret)
		goto fail_vid;

	v4l2_info(&dev->v4l2_dev, "negcam-%u: /dev/%s, profile '%s'\n",
		  dev->index, dev->node_name,
		  dev->profile->name);
	return 0;

fail_vid:
	negcam_vid_unregister(dev);
fail:
	v4l2_device_put(&dev->v4l2_dev);
	return ret;
}

static int negcam_remove(struct platform_device *pdev)
{
	struct negcam_dev *dev = negcam_from_device(&pdev->dev);

	negcam_configfs_remove(dev);
	negcam_vid_unregister(dev);
	v4l2_device_put(&dev->v4l2_dev);
	return 0;
}

static struct platform_driver negcam_driver = {
	.probe = negcam_probe,
	.remove = negcam_remove,
	.driver = {
		.name = NEGCAM_DRV_NAME,
		.dev_groups = negcam_groups,
	},
};

/* Take the slot's device, if still there, and unregister it. */
static void negcam_slot_unregister(struct negcam_slot *slot)
{
	struct platform_device *pdev;

	mutex_lock(&negcam_slots_lock);
	pdev = slot->pdev;
	slot->pdev = NULL;
	mutex_unlock(&negcam_slots_lock);
	if (pdev)
		platform_device_unregister(pdev);
}

static void negcam_unplug_work(struct work_struct *work)
{
	negcam_slot_unregister(container_of(work, struct negcam_slot,
					    unplug_work));
}

static void negcam_destroy_devices(void)
{
	unsigned int i;

	for (i = 0; i < NEGCAM_MAX_DEVICES; i++) {
		negcam_slot_unregister(&negcam_slots[i]);
		/* No store can queue it again: the attributes are gone. */
		cancel_work_sync(&negcam_slots[i].unplug_work);
	}
}

static int __init negcam_init(void)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	negcam_share_init();
	if (devices > NEGCAM_MAX_DEVICES) {
		pr_err("devices=%u: must be 0 to %u\n", devices,
		       NEGCAM_MAX_DEVICES);
		return -EINVAL;
	}
	if (!negcam_builtin_find(profile)) {
		pr_err("profile=%s: no such built-in profile\n", profile);
		return -EINVAL;
	}
	for (i = 0; i < NEGCAM_MAX_DEVICES; i++)
		INIT_WORK(&negcam_slots[i].unplug_work, negcam_unplug_work);

	ret = negcam_configfs_init();
	if (ret)
		return ret;
	ret = platform_driver_register(&negcam_driver);
	if (ret)
		goto fail_cfs;

	for (i = 0; i < devices; i++) {
		pdev = platform_device_register_simple(NEGCAM_DRV_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto fail_devs;
		}
		mutex_lock(&negcam_slots_lock);
		negcam_slots[i].pdev = pdev;
		mutex_unlock(&negcam_slots_lock);
		/* A failed probe leaves the device without a driver. */
		if (!pdev->dev.driver) {
			pr_err("negcam-%u: probe failed\n", i);
			ret = -ENODEV;
			goto fail_devs;
		}
	}
	ret = negcam_loops_init();
	if (ret)
		goto fail_devs;
	return 0;

fail_devs:
	negcam_destroy_devices();
	platform_driver_unregister(&negcam_driver);
fail_cfs:
	negcam_configfs_exit();
	return ret;
}

static void __exit negcam_exit(void)
{
	negcam_loops_exit();
	negcam_destroy_devices();
	platform_driver_unregister(&negcam_driver);
	negcam_configfs_exit();
}

module_init(negcam_init);
module_exit(negcam_exit);

MODULE_DESCRIPTION("negcam: V4L2 capture devices on the negcam negotiation engine");
MODULE_AUTHOR("negcam developers");
MODULE_LICENSE("GPL");
