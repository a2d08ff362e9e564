// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko loops in sysfs: each loop's platform device (negcam-loop.N)
 * says what it is, for `negcam-ctl loop list` and the udev rule that gives
 * its nodes stable names (data/udev/60-negcam.rules):
 *
 *   label      the loop's label, or an empty line
 *   profile    its capture side's built-in profile, or "follow"
 *   nodes      "output videoN capture videoM ..." (nodes registered so far)
 *   producer   "live" while a producer's frames arrive in time, else "none"
 *   consumers  how many of its capture nodes stream
 *
 * The group is added before the nodes are registered, so a node's uevent
 * finds the label, and removed with the platform device, before the loop
 * is freed. Reads take the loop's lock (nodes) or flock (producer) only.
 */
#include <linux/device.h>
#include <linux/platform_device.h>

#include "negcam-loop.h"

static struct negcam_loop *negcam_loop_of(struct device *d)
{
	return platform_get_drvdata(to_platform_device(d));
}

static ssize_t label_show(struct device *d, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", negcam_loop_of(d)->label);
}
static DEVICE_ATTR_RO(label);

static ssize_t profile_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct negcam_loop *loop = negcam_loop_of(d);

	return sysfs_emit(buf, "%s\n", loop->follow ? "follow" : loop->profile_name);
}
static DEVICE_ATTR_RO(profile);

static ssize_t nodes_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct negcam_loop *loop = negcam_loop_of(d);
	unsigned int i;
	int n = 0;

	mutex_lock(&loop->lock);
	if (loop->out && loop->out->node_name[0])
		n += sysfs_emit_at(buf, n, "output %s", loop->out->node_name);
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i] && loop->cap[i]->node_name[0])
			n += sysfs_emit_at(buf, n, " capture %s", loop->cap[i]->node_name);
	mutex_unlock(&loop->lock);
	n += sysfs_emit_at(buf, n, "\n");
	return n;
}
static DEVICE_ATTR_RO(nodes);

static ssize_t producer_show(struct device *d, struct device_attribute *attr, char *buf)
{
	bool live = negcam_loop_producer_live(negcam_loop_of(d), ktime_get_ns());

	return sysfs_emit(buf, "%s\n", live ? "live" : "none");
}
static DEVICE_ATTR_RO(producer);

static ssize_t consumers_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct negcam_loop *loop = negcam_loop_of(d);
	unsigned int i, n = 0;

	mutex_lock(&loop->lock);
	for (i = 0; i < loop->ncap; i++)
		if (loop->cap[i] && vb2_is_streaming(&loop->cap[i]->queue))
			n++;
	mutex_unlock(&loop->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(consumers);

static struct attribute *negcam_loop_attrs[] = {
	&dev_attr_label.attr,
	&dev_attr_profile.attr,
	&dev_attr_nodes.attr,
	&dev_attr_producer.attr,
	&dev_attr_consumers.attr,
	NULL,
};
ATTRIBUTE_GROUPS(negcam_loop);

/* After the platform device is registered, before its nodes are. */
int negcam_loop_sysfs_add(struct negcam_loop *loop)
{
	platform_set_drvdata(loop->pdev, loop);
	return device_add_groups(&loop->pdev->dev, negcam_loop_groups);
}

/* Before the platform device is unregistered. */
void negcam_loop_sysfs_remove(struct negcam_loop *loop)
{
	device_remove_groups(&loop->pdev->dev, negcam_loop_groups);
}
