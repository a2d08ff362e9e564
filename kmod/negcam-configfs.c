// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko's configfs: devices' profiles at run time, and loops made
 * and removed by mkdir:
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
 *	faults         read: the faults in force; write: a list of faults
 *	               ("drop 5%; seed 3", docs/faults.md) in force instead
 *	               of the profile's from the next frame on, streaming or
 *	               not; empty: the profile's again. EINVAL with
 *	               faults:LINE:COL in status and the kernel log
 *	               (negcam-faults.c)
 *
 *   /sys/kernel/config/negcam/loops/NAME/   (mkdir: a loop directory)
 *	profile, captures, label: the loop to make (fixed while it exists);
 *	enable: 1 makes the loop (negcam_loop_new, negcam-loop-create.c),
 *	0 or rmdir removes it; nodes: its video nodes; faults: as a
 *	device's, for each of its capture nodes, while enabled (else ENODEV).
 *	docs/loopback.md
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
#include <linux/kstrtox.h>

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

/* ---- a device's profile: one write(2), errors returned by it ---- */

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

/* ---- faults: switched at once, streaming or not (negcam-faults.c) ---- */

static ssize_t negcam_cfs_faults_show(struct config_item *item, char *page)
{
	return negcam_faults_show(to_negcam_cfs(item)->dev, page);
}

static ssize_t negcam_cfs_faults_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct negcam_cfs *cfs = to_negcam_cfs(item);
	char status[NEGCAM_STATUS_LEN];
	int ret = negcam_faults_store(cfs->dev, page, count, status, sizeof(status));

	negcam_cfs_set_status(cfs, status);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_cfs_, faults);

static struct configfs_attribute *negcam_cfs_attrs[] = {
	&negcam_cfs_attr_profile,
	&negcam_cfs_attr_builtin,
	&negcam_cfs_attr_status,
	&negcam_cfs_attr_video_node,
	&negcam_cfs_attr_faults,
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

/* ---- configfs: /sys/kernel/config/negcam/loops/NAME ---- */

/**
 * struct negcam_loop_cfs - a loop directory, made by mkdir
 * @item: its configfs item
 * @profile: profile of the loop to create (default loop_profile=)
 * @captures: its capture nodes (default loop_captures=)
 * @label: its name, as applications list it (default none: "negcam loop N")
 * @loop: the loop while enabled, else NULL
 *
 * @profile, @captures, @label and @loop are under negcam_lcfs_lock, taken
 * before negcam-loop-create.c's own lock (negcam_loop_new).
 */
struct negcam_loop_cfs {
	struct config_item item;
	char profile[NC_NAME_LEN];
	unsigned int captures;
	char label[NEGCAM_LABEL_MAX + 1];
	struct negcam_loop *loop;
};

static struct negcam_loop_cfs *to_loop_cfs(struct config_item *item)
{
	return container_of(item, struct negcam_loop_cfs, item);
}

static DEFINE_MUTEX(negcam_lcfs_lock);

enum { NEGCAM_LCFS_PROFILE, NEGCAM_LCFS_CAPTURES, NEGCAM_LCFS_LABEL, NEGCAM_LCFS_ENABLE };

/* One of the settings of a loop directory, as its file shows it. */
static ssize_t negcam_lcfs_show(struct config_item *item, char *page,
				int what)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	ssize_t n;

	mutex_lock(&negcam_lcfs_lock);
	if (what == NEGCAM_LCFS_PROFILE)
		n = sysfs_emit(page, "%s\n", lc->profile);
	else if (what == NEGCAM_LCFS_CAPTURES)
		n = sysfs_emit(page, "%u\n", lc->captures);
	else if (what == NEGCAM_LCFS_LABEL)
		n = sysfs_emit(page, "%s\n", lc->label);
	else
		n = sysfs_emit(page, "%d\n", !!lc->loop);
	mutex_unlock(&negcam_lcfs_lock);
	return n;
}

/* Settings are fixed while the loop exists: EBUSY; else @dst becomes @val. */
static ssize_t negcam_lcfs_set(struct negcam_loop_cfs *lc, char *dst,
			       size_t len, const char *val, size_t count)
{
	ssize_t ret = count;

	mutex_lock(&negcam_lcfs_lock);
	if (lc->loop)
		ret = -EBUSY;
	else
		strscpy(dst, val, len);
	mutex_unlock(&negcam_lcfs_lock);
	return ret;
}

static ssize_t negcam_lcfs_profile_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_PROFILE);
}

static ssize_t negcam_lcfs_profile_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	char name[NC_NAME_LEN];

	if (count >= sizeof(name))
		return -EINVAL;
	memcpy(name, page, count);
	name[count] = '\0';
	strim(name);
	if (strcmp(name, "follow") && !negcam_builtin_find(name))
		return -EINVAL;
	return negcam_lcfs_set(lc, lc->profile, sizeof(lc->profile), name, count);
}

CONFIGFS_ATTR(negcam_lcfs_, profile);

static ssize_t negcam_lcfs_captures_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_CAPTURES);
}

static ssize_t negcam_lcfs_captures_store(struct config_item *item,
					  const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	unsigned int n;
	int ret;

	ret = kstrtouint(page, 0, &n);
	if (ret)
		return ret;
	if (n < 1 || n > NEGCAM_LOOP_MAX_CAPTURES)
		return -ERANGE;
	mutex_lock(&negcam_lcfs_lock);
	ret = lc->loop ? -EBUSY : count;
	if (!lc->loop)
		lc->captures = n;
	mutex_unlock(&negcam_lcfs_lock);
	return ret;
}

CONFIGFS_ATTR(negcam_lcfs_, captures);

static ssize_t negcam_lcfs_label_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_LABEL);
}

/* One line: its trailing newline is not part of the label. */
static ssize_t negcam_lcfs_label_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	char label[NEGCAM_LABEL_MAX + 2];
	size_t n = count;

	if (n && page[n - 1] == '\n')
		n--;
	if (n >= sizeof(label) - 1)
		return -EINVAL;
	memcpy(label, page, n);
	label[n] = '\0';
	if (!negcam_loop_label_ok(label))
		return -EINVAL;
	return negcam_lcfs_set(lc, lc->label, sizeof(lc->label), label, count);
}

CONFIGFS_ATTR(negcam_lcfs_, label);

static ssize_t negcam_lcfs_enable_show(struct config_item *item, char *page)
{
	return negcam_lcfs_show(item, page, NEGCAM_LCFS_ENABLE);
}

/* 1 creates the loop's nodes, 0 removes them (handles get ENODEV). */
static ssize_t negcam_lcfs_enable_store(struct config_item *item,
					const char *page, size_t count)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	struct negcam_loop *loop = NULL;
	bool on;
	int ret;

	ret = kstrtobool(page, &on);
	if (ret)
		return ret;
	mutex_lock(&negcam_lcfs_lock);
	if (on && !lc->loop) {
		loop = negcam_loop_new(lc->profile, lc->captures, lc->label);
		if (IS_ERR(loop))
			ret = PTR_ERR(loop);
		else
			lc->loop = loop;
		loop = NULL;
	} else if (!on) {
		loop = lc->loop;
		lc->loop = NULL;
	}
	mutex_unlock(&negcam_lcfs_lock);
	if (loop)
		negcam_loop_remove(loop);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_lcfs_, enable);

/* "output videoN capture videoM ..." while enabled, else empty. */
static ssize_t negcam_lcfs_nodes_show(struct config_item *item, char *page)
{
	struct negcam_loop *loop;
	ssize_t n = 0;

	mutex_lock(&negcam_lcfs_lock);
	loop = to_loop_cfs(item)->loop;
	if (loop)
		n = negcam_loop_nodes_show(loop, page);
	n += sysfs_emit_at(page, n, "\n");
	mutex_unlock(&negcam_lcfs_lock);
	return n;
}

CONFIGFS_ATTR_RO(negcam_lcfs_, nodes);

/* A loop's faults, while enabled: its capture nodes' (negcam-faults.c). */
static ssize_t negcam_lcfs_faults_show(struct config_item *item, char *page)
{
	struct negcam_loop *loop;
	ssize_t n = 0;

	mutex_lock(&negcam_lcfs_lock);
	loop = to_loop_cfs(item)->loop;
	if (loop)
		n = negcam_faults_loop_show(loop, page);
	mutex_unlock(&negcam_lcfs_lock);
	return n;
}

static ssize_t negcam_lcfs_faults_store(struct config_item *item,
					const char *page, size_t count)
{
	char status[NEGCAM_STATUS_LEN];
	struct negcam_loop *loop;
	int ret = -ENODEV;

	mutex_lock(&negcam_lcfs_lock);
	loop = to_loop_cfs(item)->loop;
	if (loop)
		ret = negcam_faults_loop_store(loop, page, count, status, sizeof(status));
	mutex_unlock(&negcam_lcfs_lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(negcam_lcfs_, faults);

static struct configfs_attribute *negcam_lcfs_attrs[] = {
	&negcam_lcfs_attr_profile,
	&negcam_lcfs_attr_captures,
	&negcam_lcfs_attr_label,
	&negcam_lcfs_attr_enable,
	&negcam_lcfs_attr_nodes,
	&negcam_lcfs_attr_faults,
	NULL,
};

static void negcam_lcfs_release(struct config_item *item)
{
	kfree(to_loop_cfs(item));
}

static struct configfs_item_operations negcam_lcfs_item_ops = {
	.release = negcam_lcfs_release,
};

static const struct config_item_type negcam_lcfs_type = {
	.ct_item_ops = &negcam_lcfs_item_ops,
	.ct_attrs = negcam_lcfs_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_item *negcam_lcfs_make(struct config_group *group,
					    const char *name)
{
	struct negcam_loop_cfs *lc = kzalloc(sizeof(*lc), GFP_KERNEL);

	if (!lc)
		return ERR_PTR(-ENOMEM);
	negcam_loop_defaults(lc->profile, sizeof(lc->profile), &lc->captures);
	config_item_init_type_name(&lc->item, name, &negcam_lcfs_type);
	return &lc->item;
}

/* rmdir: the loop goes with its directory. */
static void negcam_lcfs_drop(struct config_group *group,
			     struct config_item *item)
{
	struct negcam_loop_cfs *lc = to_loop_cfs(item);
	struct negcam_loop *loop;

	mutex_lock(&negcam_lcfs_lock);
	loop = lc->loop;
	lc->loop = NULL;
	mutex_unlock(&negcam_lcfs_lock);
	if (loop)
		negcam_loop_remove(loop);
	config_item_put(item);
}

static struct configfs_group_operations negcam_loops_group_ops = {
	.make_item = negcam_lcfs_make,
	.drop_item = negcam_lcfs_drop,
};

static const struct config_item_type negcam_loops_group_type = {
	.ct_group_ops = &negcam_loops_group_ops,
	.ct_owner = THIS_MODULE,
};

static struct config_group negcam_loops_group;

/* /sys/kernel/config/negcam/loops, under the subsystem's group @parent. */
static int negcam_loops_cfs_register(struct config_group *parent)
{
	config_group_init_type_name(&negcam_loops_group, "loops",
				    &negcam_loops_group_type);
	return configfs_register_group(parent, &negcam_loops_group);
}

static void negcam_loops_cfs_unregister(void)
{
	configfs_unregister_group(&negcam_loops_group);
}

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
