// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: how programs find the nodes. stat() of a node
 * and fstat() of its descriptors show a character device (major 81, as
 * every V4L2 node); the sysfs files v4l2-ctl and others read are served
 * from memory; readdir() of /dev lists the nodes after the real entries.
 * What this cannot hide is in docs/negcam-run.md.
 */
#define _GNU_SOURCE
/* Both the plain and the 64 variants are interposed: no redirection. */
#undef _FILE_OFFSET_BITS
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "preload.h"

_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "stat64 is stat on this ABI");

static void fake_stat(const struct nc_node *n, struct stat *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->st_mode = S_IFCHR | 0660;
	sb->st_rdev = makedev(NC_RUN_MAJOR, n->minor);
	sb->st_nlink = 1;
	sb->st_blksize = 4096;
	sb->st_gid = 44; /* Debian's "video" group */
}

/* 0 with *sb filled when @path or @fd is a node, else -1 (not ours). */
static int node_stat(int dirfd, const char *path, int fd, struct stat *sb)
{
	int node = -1;

	if (path && path[0] && (dirfd == AT_FDCWD || path[0] == '/'))
		node = nc_node_of_path(path);
	else if (!path || !path[0])
		node = nc_node_of_fd(fd);
	if (node < 0)
		return -1;
	fake_stat(&nc_nodes[node], sb);
	return 0;
}

#define STAT_PATH(name, type)                                                                  \
	int name(const char *path, type *sb)                                                   \
	{                                                                                      \
		NC_REAL(int (*)(const char *, type *), #name);                                 \
		return node_stat(AT_FDCWD, path, -1, (struct stat *)sb) ? real_(path, sb) : 0; \
	}
STAT_PATH(stat, struct stat)
STAT_PATH(lstat, struct stat)
STAT_PATH(stat64, struct stat64)
STAT_PATH(lstat64, struct stat64)

#define STAT_FD(name, type)                                                                  \
	int name(int fd, type *sb)                                                           \
	{                                                                                    \
		NC_REAL(int (*)(int, type *), #name);                                        \
		return node_stat(AT_FDCWD, NULL, fd, (struct stat *)sb) ? real_(fd, sb) : 0; \
	}
STAT_FD(fstat, struct stat)
STAT_FD(fstat64, struct stat64)

#define STAT_AT(name, type)                                                             \
	int name(int dirfd, const char *path, type *sb, int flags)                      \
	{                                                                               \
		NC_REAL(int (*)(int, const char *, type *, int), #name);                \
		int fd_ = path && !path[0] && (flags & AT_EMPTY_PATH) ? dirfd : -1;     \
		return node_stat(dirfd, fd_ >= 0 ? NULL : path, fd_, (struct stat *)sb) \
			       ? real_(dirfd, path, sb, flags)                          \
			       : 0;                                                     \
	}
STAT_AT(fstatat, struct stat)
STAT_AT(fstatat64, struct stat64)

/* The versioned entry points binaries built against glibc < 2.33 call. */
#define XSTAT_PATH(name, type)                                                                 \
	int name(int ver, const char *path, type *sb);                                         \
	int name(int ver, const char *path, type *sb)                                          \
	{                                                                                      \
		NC_REAL(int (*)(int, const char *, type *), #name);                            \
		return node_stat(AT_FDCWD, path, -1, (struct stat *)sb) ? real_(ver, path, sb) \
									: 0;                   \
	}
XSTAT_PATH(__xstat, struct stat)
XSTAT_PATH(__lxstat, struct stat)
XSTAT_PATH(__xstat64, struct stat64)
XSTAT_PATH(__lxstat64, struct stat64)

#define XSTAT_FD(name, type)                                                                      \
	int name(int ver, int fd, type *sb);                                                      \
	int name(int ver, int fd, type *sb)                                                       \
	{                                                                                         \
		NC_REAL(int (*)(int, int, type *), #name);                                        \
		return node_stat(AT_FDCWD, NULL, fd, (struct stat *)sb) ? real_(ver, fd, sb) : 0; \
	}
XSTAT_FD(__fxstat, struct stat)
XSTAT_FD(__fxstat64, struct stat64)

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *sx)
{
	NC_REAL(int (*)(int, const char *, int, unsigned int, struct statx *), "statx");
	int fd = path && !path[0] && (flags & AT_EMPTY_PATH) ? dirfd : -1;
	struct stat sb;

	if (node_stat(dirfd, fd >= 0 ? NULL : path, fd, &sb))
		return real_(dirfd, path, flags, mask, sx);
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_GID;
	sx->stx_mode = (__u16)sb.st_mode;
	sx->stx_nlink = 1;
	sx->stx_gid = sb.st_gid;
	sx->stx_blksize = 4096;
	sx->stx_rdev_major = NC_RUN_MAJOR;
	sx->stx_rdev_minor = nc_nodes[fd >= 0 ? nc_node_of_fd(fd) : nc_node_of_path(path)].minor;
	return 0;
}

/* ---- sysfs ---- */

/* The text of sysfs file @path about a node, or 0 when it is none. */
static int sysfs_text(const char *path, char *out, size_t len)
{
	char want[96];
	unsigned int i;

	nc_config();
	for (i = 0; i < nc_nnodes; i++) {
		struct nc_node *n = &nc_nodes[i];
		const char *dev = strrchr(n->path, '/') + 1;
		int k;

		snprintf(want, sizeof(want), "/sys/dev/char/%d:%u/", NC_RUN_MAJOR, n->minor);
		k = (int)strlen(want);
		if (strncmp(path, want, (size_t)k)) {
			snprintf(want, sizeof(want), "/sys/class/video4linux/%s/", dev);
			k = (int)strlen(want);
			if (strncmp(path, want, (size_t)k))
				continue;
		}
		if (!strcmp(path + k, "uevent"))
			return snprintf(out, len, "MAJOR=%d\nMINOR=%u\nDEVNAME=%s\n", NC_RUN_MAJOR,
					n->minor, dev);
		if (!strcmp(path + k, "dev"))
			return snprintf(out, len, "%d:%u\n", NC_RUN_MAJOR, n->minor);
		if (!strcmp(path + k, "index"))
			return snprintf(out, len, "0\n");
		if (!strcmp(path + k, "name")) {
			struct v4l2_capability cap;

			pthread_mutex_lock(&nc_lock);
			if (nc_node_load(n) == 0)
				negcam_engine_querycap(&n->engine, NULL, &cap);
			else
				strcpy((char *)cap.card, "negcam");
			pthread_mutex_unlock(&nc_lock);
			return snprintf(out, len, "%s\n", (const char *)cap.card);
		}
	}
	return 0;
}

/* A descriptor reading the sysfs file @path, -1 with errno, or -2: not ours. */
int nc_virtual_open(const char *path);
int nc_virtual_open(const char *path)
{
	char text[128];
	int n, fd;

	if (!path || strncmp(path, "/sys/", 5))
		return -2;
	nc_config();
	if (!nc_nnodes || (n = sysfs_text(path, text, sizeof(text))) <= 0)
		return -2;
	fd = memfd_create("negcam-sysfs", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)n) != n || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

#define FOPEN(name)                                                    \
	FILE *name(const char *path, const char *mode)                 \
	{                                                              \
		NC_REAL(FILE *(*)(const char *, const char *), #name); \
		int fd_;                                               \
		nc_config();                                           \
		fd_ = nc_virtual_open(path);                           \
		if (fd_ == -2)                                         \
			return real_(path, mode);                      \
		return fd_ < 0 ? NULL : fdopen(fd_, "r");              \
	}
FOPEN(fopen)
FOPEN(fopen64)

/* ---- /dev listings ---- */

struct dev_dir {
	DIR *dir;
	unsigned int next; /* the next node to list once the real entries end */
	struct dirent64 ent;
};
static struct dev_dir dev_dirs[8];

static bool is_dev_dir(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n == 4 && !strncmp(path, "/dev", 4);
}

DIR *opendir(const char *path)
{
	NC_REAL(DIR * (*)(const char *), "opendir");
	DIR *d = real_(path);
	unsigned int i;

	nc_config();
	if (!d || !nc_nnodes || !is_dev_dir(path))
		return d;
	pthread_mutex_lock(&nc_lock);
	for (i = 0; i < 8; i++)
		if (!dev_dirs[i].dir) {
			dev_dirs[i].dir = d;
			dev_dirs[i].next = 0;
			break;
		}
	pthread_mutex_unlock(&nc_lock);
	return d;
}

/* closedir (@rewind false) or rewinddir of @d: forget it or list the nodes again. */
static void dev_dir_reset(DIR *d, bool rewind)
{
	unsigned int i;

	pthread_mutex_lock(&nc_lock);
	for (i = 0; i < 8; i++)
		if (dev_dirs[i].dir == d) {
			dev_dirs[i].next = 0;
			if (!rewind)
				dev_dirs[i].dir = NULL;
		}
	pthread_mutex_unlock(&nc_lock);
}

int closedir(DIR *d)
{
	NC_REAL(int (*)(DIR *), "closedir");

	dev_dir_reset(d, false);
	return real_(d);
}

/* The next node of /dev listing @d that the real directory lacks, or NULL. */
static struct dirent64 *extra_entry(DIR *d)
{
	NC_REAL(int (*)(const char *, struct stat *), "stat");
	struct dirent64 *e = NULL;
	unsigned int i;
	struct stat sb;

	pthread_mutex_lock(&nc_lock);
	for (i = 0; i < 8 && !e; i++) {
		struct dev_dir *dd = &dev_dirs[i];

		while (dd->dir == d && !e && dd->next < nc_nnodes) {
			const char *p = nc_nodes[dd->next++].path;

			if (strchr(p + 5, '/') || real_(p, &sb) == 0)
				continue; /* not directly in /dev, or listed already */
			memset(&dd->ent, 0, sizeof(dd->ent));
			dd->ent.d_type = DT_CHR;
			dd->ent.d_ino = 1;
			dd->ent.d_reclen = sizeof(dd->ent);
			snprintf(dd->ent.d_name, sizeof(dd->ent.d_name), "%s", p + 5);
			e = &dd->ent;
		}
	}
	pthread_mutex_unlock(&nc_lock);
	return e;
}

_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "dirent64 is dirent on this ABI");

struct dirent *readdir(DIR *d)
{
	NC_REAL(struct dirent * (*)(DIR *), "readdir");
	int saved = errno;
	struct dirent *e = real_(d);

	if (e || !nc_nnodes)
		return e;
	e = (struct dirent *)extra_entry(d);
	if (e)
		errno = saved;
	return e;
}

struct dirent64 *readdir64(DIR *d)
{
	NC_REAL(struct dirent64 * (*)(DIR *), "readdir64");
	int saved = errno;
	struct dirent64 *e = real_(d);

	if (e || !nc_nnodes)
		return e;
	e = extra_entry(d);
	if (e)
		errno = saved;
	return e;
}

void rewinddir(DIR *d)
{
	NC_REAL(void (*)(DIR *), "rewinddir");

	dev_dir_reset(d, true);
	real_(d);
}
