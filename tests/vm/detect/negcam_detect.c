// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam_detect: a throw-away module with deliberate bugs, to prove that the
 * debug kernel (tests/vm/debug-kernel.sh) reports them and that the VM
 * harness turns the reports into failures (tests/vm/detect-suite.sh). It is
 * never part of negcam.ko and is built only for that check.
 *
 * Writing anything to /sys/kernel/debug/negcam_detect/FILE triggers:
 *   abba  two mutexes taken in the order A, B and then B, A (one thread,
 *         one after the other: no deadlock, but lockdep reports the
 *         inversion as a possible circular locking dependency)
 *   uaf   a read of a kmalloc'ed object after kfree (KASAN)
 *   leak  a kmalloc'ed object whose last pointer is dropped (kmemleak)
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

static DEFINE_MUTEX(detect_a);
static DEFINE_MUTEX(detect_b);
static struct dentry *detect_dir;

static void detect_abba(void)
{
	mutex_lock(&detect_a);
	mutex_lock(&detect_b);
	mutex_unlock(&detect_b);
	mutex_unlock(&detect_a);

	mutex_lock(&detect_b);
	mutex_lock(&detect_a);
	mutex_unlock(&detect_a);
	mutex_unlock(&detect_b);
}

/* A filled kmalloc'ed object whose pointer the compiler cannot follow. */
static char *detect_alloc(size_t size)
{
	char *p = kmalloc(size, GFP_KERNEL);

	if (p)
		memset(p, 0x5a, size);
	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static void detect_uaf(void)
{
	char *p = detect_alloc(64);

	if (!p)
		return;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	pr_info("negcam_detect: read after free: %d\n", READ_ONCE(p[8]));
}

/* Overwrites the stack below the caller, so no stale copy of the leaked
 * pointer is left there for kmemleak's scan to find. */
static noinline void detect_scrub_stack(void)
{
	char buf[1024];

	memzero_explicit(buf, sizeof(buf));
}

static void detect_leak(void)
{
	char *p = detect_alloc(256);

	if (!p)
		return;
	pr_info("negcam_detect: leaked a 256-byte object\n");
	p = NULL;
	OPTIMIZER_HIDE_VAR(p);
	detect_scrub_stack();
}

static ssize_t detect_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	void (*trigger)(void) = file->private_data;

	trigger();
	return count;
}

static const struct file_operations detect_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = detect_write,
	.llseek = noop_llseek,
};

static int __init detect_init(void)
{
	detect_dir = debugfs_create_dir("negcam_detect", NULL);
	debugfs_create_file("abba", 0200, detect_dir, detect_abba, &detect_fops);
	debugfs_create_file("uaf", 0200, detect_dir, detect_uaf, &detect_fops);
	debugfs_create_file("leak", 0200, detect_dir, detect_leak, &detect_fops);
	return 0;
}

static void __exit detect_exit(void)
{
	debugfs_remove_recursive(detect_dir);
}

module_init(detect_init);
module_exit(detect_exit);
MODULE_DESCRIPTION("negcam test: deliberate bugs for the debug kernel's detectors");
MODULE_LICENSE("GPL");
