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
 * @fault_work: the unplug a profile's fault asks for (docs/faults.md): the
 *	whole of it from a work item, as the capture thread cannot stop itself
 */
struct negcam_slot {
	struct platform_device *pdev;
	struct work_struct unplug_work;
	struct work_struct fault_work;
};

static struct negcam_slot negcam_slots[NEGCAM_MAX_DEVICES];
static DEFINE_MUTEX(negcam_slots_lock);

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
	snprintf(dev->bus_info, sizeof(dev->bus_info), "platform:negcam-%u",
		 dev->index);
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

	ret = negcam_profile_initial(dev, b);
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

/* A fault's unplug: what unplug_store does, then the platform device. */
static void negcam_fault_unplug_work(struct work_struct *work)
{
	struct negcam_slot *slot = container_of(work, struct negcam_slot, fault_work);
	struct negcam_dev *dev;

	mutex_lock(&negcam_slots_lock);
	if (slot->pdev) {
		dev = negcam_from_device(&slot->pdev->dev);
		pr_info("negcam-%u: unplugged by a fault\n", dev->index);
		/* a DQBUF waiting now fails with EIO, as on uvcvideo's disconnect */
		vb2_queue_error(&dev->queue);
		negcam_configfs_remove(dev);
		negcam_vid_unregister(dev);
	}
	mutex_unlock(&negcam_slots_lock);
	negcam_slot_unregister(slot);
}

bool negcam_fault_unplug(struct negcam_dev *dev)
{
	if (dev->loop || dev->index >= NEGCAM_MAX_DEVICES)
		return false;
	schedule_work(&negcam_slots[dev->index].fault_work);
	return true;
}

static void negcam_destroy_devices(void)
{
	unsigned int i;

	for (i = 0; i < NEGCAM_MAX_DEVICES; i++) {
		negcam_slot_unregister(&negcam_slots[i]);
		/* No store can queue it again: the attributes are gone; nor
		 * a capture thread: the node is gone. */
		cancel_work_sync(&negcam_slots[i].unplug_work);
		cancel_work_sync(&negcam_slots[i].fault_work);
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
	for (i = 0; i < NEGCAM_MAX_DEVICES; i++) {
		INIT_WORK(&negcam_slots[i].unplug_work, negcam_unplug_work);
		INIT_WORK(&negcam_slots[i].fault_work, negcam_fault_unplug_work);
	}

	ret = negcam_faults_init();
	if (ret)
		return ret;
	ret = negcam_configfs_init();
	if (ret)
		goto fail_faults;
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
fail_faults:
	negcam_faults_exit();
	return ret;
}

static void __exit negcam_exit(void)
{
	negcam_loops_exit();
	negcam_destroy_devices();
	platform_driver_unregister(&negcam_driver);
	negcam_configfs_exit();
	negcam_faults_exit();
}

module_init(negcam_init);
module_exit(negcam_exit);

MODULE_DESCRIPTION("negcam: V4L2 capture devices on the negcam negotiation engine");
MODULE_AUTHOR("negcam developers");
MODULE_LICENSE("GPL");
#ifndef NEGCAM_VERSION
#error "NEGCAM_VERSION unset: build with kmod/Makefile, which reads it from meson.build"
#endif
MODULE_VERSION(NEGCAM_VERSION);
