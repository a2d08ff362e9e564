// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko profiles at run time, through configfs:
 *
 *   /sys/kernel/config/negcam/negcam-N/
 *	profile        read: the profile text in force; write: a new text in
 *	               one write(2), applied at once; write(2) itself fails
 *	               with EBUSY (buffers allocated or streaming), EINVAL
 *	               (malformed: line and column in the kernel log and in
 *	               status) or EFBIG (a text of a page or more: configfs
 *	               cuts such writes, so they go to profile_large)
 *	profile_large  binary, read-write, up to 1 MiB: the same, for long
 *	               texts; configfs buffers the writes and applies the text
 *	               when the file is closed, and ignores what that returns,
 *	               so the outcome is in status and the kernel log only
 *	builtin        read: name of the profile in force; write: a built-in
 *	               profile name, applied at once (errors as for profile)
 *	status         read-only: outcome of the last write, "ok: profile NAME"
 *	               or "error -16: device busy ..."
 *	video_node     read-only: "videoM"
 *
 *   /sys/kernel/config/negcam/loops/NAME/   (mkdir: negcam-loop-link.c)
 *	profile, captures, enable, nodes: docs/loopback.md
 *
 * configfs guarantees no callback runs once configfs_unregister_group()
 * has returned, and that call waits for running ones; the device removes
 * its group before it goes, so a callback may use cfs->dev freely. The
 * group itself is allocated apart and freed by its config_item release,
 * since configfs may hold a reference a little longer.
 */
#include <linux/configfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "negcam.h"

#define NEGCAM_STATUS_LEN 256

/**
 * struct negcam_cfs - configfs directory of one device
 * @group: the configfs group negcam-N
 * @dev: the device, valid while the group is registered
 * @status: outcome of the last write (under negcam_cfs_lock)
 */
struct negcam_cfs {
	struct config_group group;
	struct negcam_dev *dev;
	char status[NEGCAM_STATUS_LEN];
};

static DEFINE_MUTEX(negcam_cfs_lock);

static struct negcam_cfs *to_negcam_cfs(struct config_item *item)
{
	return container_of(to_config_group(item), struct negcam_cfs, group);
}

static void negcam_cfs_set_status(struct negcam_cfs *cfs, const char *s)
{
	mutex_lock(&negcam_cfs_lock);
	strscpy(cfs->status, s, sizeof(cfs->status));
	mutex_unlock(&negcam_cfs_lock);
}

/* Apply @len bytes of text and record the outcome in status. */
static int negcam_cfs_apply(struct negcam_cfs *cfs, const char *text,
			    size_t len)
{
	char *status = kzalloc(NEGCAM_STATUS_LEN, GFP_KERNEL);
	int ret;

	if (!status)
		return -ENOMEM;
	ret = negcam_apply_profile_text(cfs->dev, text, len, status,
					NEGCAM_STATUS_LEN);
	negcam_cfs_set_status(cfs, status);
	kfree(status);
	return ret;
}

/* ---- profile: one write(2), errors returned by it ---- */

static ssize_t negcam_cfs_profile_show(struct config_item *item, char *page)
{
	struct negcam_dev *dev = to_negcam_cfs(item)->dev;
	size_t len;

	mutex_lock(&dev->lock);
	len = min_t(size_t, dev->profile_len, PAGE_SIZE - 1);
	memcpy(page, dev->profile_text, len);
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t negcam_cfs_profile_store(struct config_item *item,
					const char *page, size_t count)
{
	struct negcam_cfs *cfs = to_negcam_cfs(item);
	int ret;

	/*
	 * configfs hands a store at most a page less one byte and splits a
	 * longer write(2) into several stores: a text that long may be cut.
	 */
	if (count >= PAGE_SIZE - 1) {
		negcam_cfs_set_status(cfs,
			"error -27: text of a page or more: write it to profile_large\n");
		return -EFBIG;
	}
	ret = negcam_cfs_apply(cfs, page, count);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_cfs_, profile);

/* ---- profile_large: binary, applied on close ---- */

static ssize_t negcam_cfs_profile_large_read(struct config_item *item,
					     void *buf, size_t max)
{
	struct negcam_dev *dev = to_negcam_cfs(item)->dev;
	size_t len;

	mutex_lock(&dev->lock);
	len = dev->profile_len;
	if (buf) {
		/* The text may have changed since configfs asked the size. */
		len = min(len, max);
		memcpy(buf, dev->profile_text, len);
	}
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t negcam_cfs_profile_large_write(struct config_item *item,
					      const void *buf, size_t len)
{
	int ret = negcam_cfs_apply(to_negcam_cfs(item), buf, len);

	return ret ? ret : len;
}

CONFIGFS_BIN_ATTR(negcam_cfs_, profile_large, NULL, NEGCAM_PROFILE_TEXT_MAX);

/* ---- builtin ---- */

static ssize_t negcam_cfs_builtin_show(struct config_item *item, char *page)
{
	struct negcam_dev *dev = to_negcam_cfs(item)->dev;
	ssize_t n;

	mutex_lock(&dev->lock);
	n = sysfs_emit(page, "%s\n", dev->profile->name);
	mutex_unlock(&dev->lock);
	return n;
}

static ssize_t negcam_cfs_builtin_store(struct config_item *item,
					const char *page, size_t count)
{
	struct negcam_cfs *cfs = to_negcam_cfs(item);
	char name[NC_NAME_LEN];
	char *status;
	int ret;

	if (count >= sizeof(name))
		return -EINVAL;
	memcpy(name, page, count);
	name[count] = '\0';
	status = kzalloc(NEGCAM_STATUS_LEN, GFP_KERNEL);
	if (!status)
		return -ENOMEM;
	ret = negcam_apply_builtin(cfs->dev, strim(name), status,
				   NEGCAM_STATUS_LEN);
	negcam_cfs_set_status(cfs, status);
	kfree(status);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_cfs_, builtin);

/* ---- status, video_node ---- */

static ssize_t negcam_cfs_status_show(struct config_item *item, char *page)
{
	struct negcam_cfs *cfs = to_negcam_cfs(item);
	ssize_t n;

	mutex_lock(&negcam_cfs_lock);
	n = sysfs_emit(page, "%s", cfs->status[0] ? cfs->status : "none\n");
	mutex_unlock(&negcam_cfs_lock);
	return n;
}

CONFIGFS_ATTR_RO(negcam_cfs_, status);

static ssize_t negcam_cfs_video_node_show(struct config_item *item,
					  char *page)
{
	return sysfs_emit(page, "%s\n", to_negcam_cfs(item)->dev->node_name);
}

CONFIGFS_ATTR_RO(negcam_cfs_, video_node);

static struct configfs_attribute *negcam_cfs_attrs[] = {
	&negcam_cfs_attr_profile,
	&negcam_cfs_attr_builtin,
	&negcam_cfs_attr_status,
	&negcam_cfs_attr_video_node,
	NULL,
};

static struct configfs_bin_attribute *negcam_cfs_bin_attrs[] = {
	&negcam_cfs_attr_profile_large,
	NULL,
};

static void negcam_cfs_release(struct config_item *item)
{
	kfree(to_negcam_cfs(item));
}

static struct configfs_item_operations negcam_cfs_item_ops = {
	.release = negcam_cfs_release,
};

static const struct config_item_type negcam_cfs_type = {
	.ct_item_ops = &negcam_cfs_item_ops,
	.ct_attrs = negcam_cfs_attrs,
	.ct_bin_attrs = negcam_cfs_bin_attrs,
	.ct_owner = THIS_MODULE,
};

/* ---- the subsystem /sys/kernel/config/negcam ---- */

static const struct config_item_type negcam_subsys_type = {
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem negcam_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = NEGCAM_DRV_NAME,
			.ci_type = &negcam_subsys_type,
		},
	},
};

int negcam_configfs_init(void)
{
	int ret;

	config_group_init(&negcam_subsys.su_group);
	mutex_init(&negcam_subsys.su_mutex);
	ret = configfs_register_subsystem(&negcam_subsys);
	if (ret) {
		pr_err("negcam: cannot register configfs subsystem: %d\n", ret);
		return ret;
	}
	ret = negcam_loops_cfs_register(&negcam_subsys.su_group);
	if (ret) {
		pr_err("negcam: cannot register configfs group loops: %d\n", ret);
		configfs_unregister_subsystem(&negcam_subsys);
	}
	return ret;
}

void negcam_configfs_exit(void)
{
	negcam_loops_cfs_unregister();
	configfs_unregister_subsystem(&negcam_subsys);
	mutex_destroy(&negcam_subsys.su_mutex);
}

int negcam_configfs_add(struct negcam_dev *dev)
{
	struct negcam_cfs *cfs;
	char name[16];
	int ret;

	cfs = kzalloc(sizeof(*cfs), GFP_KERNEL);
	if (!cfs)
		return -ENOMEM;
	cfs->dev = dev;
	snprintf(name, sizeof(name), "negcam-%u", dev->index);
	config_group_init_type_name(&cfs->group, name, &negcam_cfs_type);
	ret = configfs_register_group(&negcam_subsys.su_group, &cfs->group);
	if (ret) {
		config_item_put(&cfs->group.cg_item);
		return ret;
	}
	dev->cfs = cfs;
	return 0;
}

/* Idempotent; after it returns no configfs callback touches @dev. */
void negcam_configfs_remove(struct negcam_dev *dev)
{
	struct negcam_cfs *cfs;

	mutex_lock(&negcam_cfs_lock);
	cfs = dev->cfs;
	dev->cfs = NULL;
	mutex_unlock(&negcam_cfs_lock);
	if (!cfs)
		return;
	configfs_unregister_group(&cfs->group);
	config_item_put(&cfs->group.cg_item);
}
