// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The UVC gadget's configfs writer (see uvc-gadget.h): the tree of
 * usb_f_uvc made from the device core's descriptor model, bound to a UDC,
 * and taken down again (Linux Documentation/usb/gadget-uvc.rst,
 * drivers/usb/gadget/function/uvc_configfs.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uvc-gadget.h"

#define FUNC "functions/uvc.0"

/* The tree being written: gadget directory, the first error in words. */
struct cfs {
	char dir[PATH_MAX];
	char *msg;
	size_t msglen;
	int failed;
};

void nc_uvc_gadget_path(const char *root, const char *name, const char *sub, char *out, size_t len)
{
	snprintf(out, len, "%s/usb_gadget/%s%s%s", root, name, sub ? "/" : "", sub ? sub : "");
}

static void fail(struct cfs *c, const char *rel, const char *what, int err)
{
	if (!c->failed)
		snprintf(c->msg, c->msglen, "configfs: %s %s/%s: %s", what, c->dir, rel, strerror(err));
	c->failed = 1;
}

/* mkdir -p @rel under the gadget (configfs makes default groups itself: EEXIST is fine). */
static void mk(struct cfs *c, const char *rel)
{
	char path[PATH_MAX * 2], *p;

	if (c->failed)
		return;
	snprintf(path, sizeof(path), "%s/%s", c->dir, rel);
	for (p = path + strlen(c->dir) + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char was = *p;

		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return fail(c, rel, "mkdir", errno);
		if (!(*p = was))
			return;
	}
}

/* Write attribute @attr of directory @dir (relative to the gadget; "" for the gadget itself). */
static void put_bytes(struct cfs *c, const char *dir, const char *attr, const void *buf, size_t len)
{
	char rel[PATH_MAX], path[PATH_MAX * 2];
	int fd;

	if (c->failed)
		return;
	snprintf(rel, sizeof(rel), "%s%s%s", dir, *dir ? "/" : "", attr);
	snprintf(path, sizeof(path), "%s/%s", c->dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail(c, rel, "open", errno);
	if (write(fd, buf, len) != (ssize_t)len)
		fail(c, rel, "write", errno ? errno : EIO);
	close(fd);
}

static void put(struct cfs *c, const char *dir, const char *attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_bytes(c, dir, attr, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* The symlink @rel pointing at @target_rel (both under the gadget). */
static void link_to(struct cfs *c, const char *target_rel, const char *rel)
{
	char target[PATH_MAX * 2], path[PATH_MAX * 2], parent[PATH_MAX], *slash;

	snprintf(parent, sizeof(parent), "%s", rel);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = 0;
		mk(c, parent);
	}
	if (c->failed)
		return;
	snprintf(target, sizeof(target), "%s/%s", c->dir, target_rel);
	snprintf(path, sizeof(path), "%s/%s", c->dir, rel);
	if (symlink(target, path))
		fail(c, rel, "symlink", errno);
}

static void frame_dir(struct cfs *c, const struct nc_uvc_format *uf, unsigned int j, const char *dir)
{
	const struct nc_uvc_frame *fr = &uf->frames[j];
	struct nc_uvc_frame_sizes fs;
	char rel[PATH_MAX], list[NC_UVC_MAX_INTERVALS * 12] = "";
	unsigned int k;

	nc_uvc_frame_sizes(uf, j, &fs);
	snprintf(rel, sizeof(rel), "%s/%u-%ux%u", dir, j + 1, fr->width, fr->height);
	mk(c, rel);
	for (k = 0; k < fr->nintervals; k++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%u\n", fr->interval[k]);
	put(c, rel, "wWidth", "%u\n", fr->width);
	put(c, rel, "wHeight", "%u\n", fr->height);
	put(c, rel, "dwMinBitRate", "%u\n", fs.min_bit_rate);
	put(c, rel, "dwMaxBitRate", "%u\n", fs.max_bit_rate);
	put(c, rel, "dwMaxVideoFrameBufferSize", "%u\n", fs.bytes);
	put(c, rel, "dwFrameInterval", "%s", list);
	put(c, rel, "dwDefaultFrameInterval", "%u\n", fr->def_interval);
}

/* Format @i's directory with its frames, linked into the streaming header in order. */
static void format_dir(struct cfs *c, const struct nc_uvc_format *uf, unsigned int i)
{
	char dir[128], lnk[192];
	uint8_t guid[16], bpp = nc_uvc_format_guid(uf->fourcc, guid);
	bool mjpeg = uf->subtype == NC_UVC_FORMAT_MJPEG;
	unsigned int j;

	snprintf(dir, sizeof(dir), FUNC "/streaming/%s/f%u", mjpeg ? "mjpeg" : "uncompressed", i + 1);
	mk(c, dir);
	for (j = 0; j < uf->nframes; j++)
		frame_dir(c, uf, j, dir);
	if (!mjpeg) {
		put_bytes(c, dir, "guidFormat", guid, sizeof(guid));
		put(c, dir, "bBitsPerPixel", "%u\n", bpp);
	}
	put(c, dir, "bDefaultFrameIndex", "%u\n", uf->def_frame);
	snprintf(lnk, sizeof(lnk), FUNC "/streaming/header/h/f%u", i + 1);
	link_to(c, dir, lnk);
}

static void identity(struct cfs *c, const struct nc_uvc_identity *id)
{
	put(c, "", "idVendor", "0x%04x\n", id->vendor);
	put(c, "", "idProduct", "0x%04x\n", id->product);
	put(c, "", "bcdDevice", "0x%04x\n", id->bcd_device);
	put(c, "", "bcdUSB", "0x0200\n");
	put(c, "", "bDeviceClass", "0xef\n"); /* miscellaneous, interface association */
	put(c, "", "bDeviceSubClass", "0x02\n");
	put(c, "", "bDeviceProtocol", "0x01\n");
	mk(c, "strings/0x409");
	put(c, "strings/0x409", "manufacturer", "%s\n", id->manufacturer);
	put(c, "strings/0x409", "product", "%s\n", id->name);
	put(c, "strings/0x409", "serialnumber", "%s\n", id->serial);
	mk(c, "configs/c.1/strings/0x409");
	put(c, "configs/c.1/strings/0x409", "configuration", "UVC\n");
	put(c, "configs/c.1", "MaxPower", "500\n");
}

int nc_uvc_gadget_create(const struct nc_uvc_desc *d, const char *root, const char *name,
			 const char *udc, char *msg, size_t msglen)
{
	struct cfs c = { .msg = msg, .msglen = msglen };
	static const char *const speeds[] = { "fs", "hs", "ss" };
	char top[PATH_MAX + 16], rel[64];
	unsigned int i;

	snprintf(top, sizeof(top), "%s/usb_gadget", root);
	if (access(top, F_OK)) {
		snprintf(msg, msglen, "no %s: run 'modprobe libcomposite usb_f_uvc' as root "
			 "(configfs mounted on %s)", top, root);
		return -1;
	}
	nc_uvc_gadget_path(root, name, NULL, c.dir, sizeof(c.dir));
	if (!access(c.dir, F_OK)) {
		snprintf(msg, msglen, "%s exists: another negcam-uvc serves it, or a killed one left it "
			 "(negcam-uvc --gadget UDC --remove takes it down)", c.dir);
		return -1;
	}
	if (mkdir(c.dir, 0755)) {
		snprintf(msg, msglen, "configfs: mkdir %s: %s%s", c.dir, strerror(errno),
			 errno == EACCES || errno == EPERM ? " (making a gadget needs root)" : "");
		return -1;
	}
	identity(&c, &d->id);
	mk(&c, FUNC "/control/header/h");
	link_to(&c, FUNC "/control/header/h", FUNC "/control/class/fs/h");
	link_to(&c, FUNC "/control/header/h", FUNC "/control/class/ss/h");
	/* 3 x 1024 bytes a microframe at high speed: the largest alt the core's PROBE answers ask */
	put(&c, FUNC, "streaming_maxpacket", "3072\n");
	mk(&c, FUNC "/streaming/header/h");
	for (i = 0; i < d->nformats; i++)
		format_dir(&c, &d->formats[i], i);
	for (i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), FUNC "/streaming/class/%s/h", speeds[i]);
		link_to(&c, FUNC "/streaming/header/h", rel);
	}
	link_to(&c, FUNC, "configs/c.1/uvc.0");
	if (udc)
		put(&c, "", "UDC", "%s\n", udc);
	return c.failed ? -1 : 0;
}

typedef void entry_fn(const char *path, const struct stat *st);

/* Call @fn on every entry of directory @path but . and .. (recursing is @fn's). */
static void each_entry(const char *path, entry_fn *fn)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	char sub[PATH_MAX];
	struct stat st;

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (!lstat(sub, &st))
			fn(sub, &st);
	}
	closedir(dir);
}

/* Every symbolic link under @path goes first: a linked directory cannot. */
static void unlink_links(const char *path, const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		unlink(path);
	else if (S_ISDIR(st->st_mode))
		each_entry(path, unlink_links);
}

/* Then rmdir depth first; the groups configfs made itself refuse, and go with their parent. */
static void remove_dirs(const char *path, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return;
	each_entry(path, remove_dirs);
	rmdir(path);
}

int nc_uvc_gadget_remove(const char *root, const char *name, char *msg, size_t msglen)
{
	char dir[PATH_MAX], udc[PATH_MAX + 8];
	struct stat st;
	int fd;

	nc_uvc_gadget_path(root, name, NULL, dir, sizeof(dir));
	if (access(dir, F_OK)) {
		snprintf(msg, msglen, "no gadget %s in configfs", dir);
		return -1;
	}
	snprintf(udc, sizeof(udc), "%s/UDC", dir);
	fd = open(udc, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "\n", 1) < 0 && errno != ENODEV)
			fprintf(stderr, "negcam-uvc: unbinding %s: %s\n", udc, strerror(errno));
		close(fd);
	}
	if (!lstat(dir, &st)) {
		unlink_links(dir, &st);
		remove_dirs(dir, &st);
	}
	if (!access(dir, F_OK)) {
		snprintf(msg, msglen, "could not remove %s (%s)", dir, strerror(errno));
		return -1;
	}
	return 0;
}
