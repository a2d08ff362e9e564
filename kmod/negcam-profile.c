// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko profiles: the one way a profile gets into a device, whether at
 * probe (a built-in), from configfs (text or a built-in by name): parsed
 * outside the device lock, refused with a reason in words, swapped in
 * atomically, announced to the node with V4L2_EVENT_SOURCE_CHANGE. Below
 * the core and configfs, which both call it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "negcam.h"
#include "profile.h"

/* Refuse what a device, or a loop's capture side, cannot present. */
static int negcam_check_profile(const struct negcam_profile *p, char *why,
				size_t why_len)
{
	if (!p->def[NC_CAPTURE].fourcc) {
		snprintf(why, why_len,
			 "profile '%s' has no capture format (a device, and a loop's capture side, need one)",
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
 * a built-in by name, a loop's profile): parse @len bytes of @text into a
 * new profile and refuse what a capture node cannot present. On success
 * *@pp and, unless @textp is NULL, *@textp (a NUL-terminated copy of the
 * text, for a device that shows it back) are the caller's to free; on
 * error both are NULL and @why says what is wrong. Without @textp, @text
 * must end in a NUL (a built-in's does).
 */
int negcam_profile_from_text(const char *text, size_t len,
			     struct negcam_profile **pp, char **textp,
			     char *why, size_t why_len)
{
	struct negcam_parse_error *err = NULL;
	struct negcam_profile *p = NULL;
	char *copy = NULL;
	int ret;

	*pp = NULL;
	if (textp)
		*textp = NULL;
	if (len > NEGCAM_PROFILE_TEXT_MAX) {
		snprintf(why, why_len, "profile text of %zu bytes, limit %u",
			 len, NEGCAM_PROFILE_TEXT_MAX);
		return -EFBIG;
	}
	p = kvzalloc(sizeof(*p), GFP_KERNEL);
	if (textp)
		copy = kvmalloc(len + 1, GFP_KERNEL);
	err = kzalloc(sizeof(*err), GFP_KERNEL);
	if (!p || (textp && !copy) || !err) {
		ret = -ENOMEM;
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	if (copy) {
		memcpy(copy, text, len);
		copy[len] = '\0';
	}
	/* The copy when there is one: configfs text need not end in a NUL. */
	ret = negcam_profile_parse(p, copy ? copy : text, len, err);
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
	if (textp)
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

	ret = negcam_profile_from_text(text, len, &p, &copy, why, sizeof(why));
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
		/* single- or multiplanar as the new profile; the queue is idle */
		negcam_vid_follow_profile(dev);
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
	negcam_source_changed(dev);
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

/* The profile a device starts with, before its node exists: @b. */
int negcam_profile_initial(struct negcam_dev *dev,
			   const struct negcam_builtin *b)
{
	size_t len = strlen(b->text);
	char why[160];
	int ret;

	ret = negcam_profile_from_text(b->text, len, &dev->profile,
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
