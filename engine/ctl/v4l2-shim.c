// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * An LD_PRELOAD shim that lets the real v4l2-ctl (or any V4L2 program
 * that opens a node by path and calls ioctl) talk to the negcam engine
 * in-process, without a kernel module:
 *
 *   NEGCAM_SHIM_PROFILE=webcam LD_PRELOAD=.../libnegcam-v4l2-shim.so \
 *       v4l2-ctl -d /dev/negcam-shim --list-formats-ext
 *
 * It exists to test negcam-ctl against the reference: both must print
 * the same bytes for the same engine. Opening NEGCAM_SHIM_DEV (default
 * /dev/negcam-shim) gives a descriptor on /dev/null whose ioctls go to
 * an engine on NEGCAM_SHIM_PROFILE (a built-in name or a file; default
 * webcam). stat() and the sysfs uevent file make the path look like a
 * video character device, which is how v4l2-ctl recognises one.
 * Everything else passes through to libc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine.h"
#include "profile.h"

/* Interposed libc entry points without a prototype in the headers. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int ioctl(int fd, unsigned long request, ...);

#define SHIM_MAJOR 81
#define SHIM_MINOR 250
#define SHIM_UEVENT "/sys/dev/char/81:250/uevent"

static struct negcam_profile shim_profile;
static struct negcam_engine shim_engine;
static int shim_fd = -1;
static int shim_ready;

static const char *shim_dev(void)
{
	const char *d = getenv("NEGCAM_SHIM_DEV");

	return d && *d ? d : "/dev/negcam-shim";
}

static int is_shim_path(const char *path)
{
	return path && !strcmp(path, shim_dev());
}

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "negcam shim: no %s in libc\n", name);
		abort();
	}
	return f;
}

static int shim_load(void)
{
	const char *spec = getenv("NEGCAM_SHIM_PROFILE");
	const struct negcam_builtin *b;
	struct negcam_parse_error err;
	char *text = NULL;
	__u32 len;
	int ret;

	if (shim_ready)
		return 0;
	if (!spec || !*spec)
		spec = "webcam";
	b = negcam_builtin_find(spec);
	if (b) {
		ret = negcam_profile_parse(&shim_profile, b->text, (__u32)strlen(b->text), &err);
	} else {
		FILE *(*fopen_real)(const char *, const char *) = real("fopen");
		FILE *f = fopen_real(spec, "rb");
		long n;

		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
		    !(text = malloc((size_t)n + 1)) || fread(text, 1, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "negcam shim: cannot read profile %s\n", spec);
			if (f)
				fclose(f);
			free(text);
			return -1;
		}
		fclose(f);
		len = (__u32)n;
		ret = negcam_profile_parse(&shim_profile, text, len, &err);
		free(text);
	}
	if (ret) {
		fprintf(stderr, "negcam shim: %s:%u:%u: %s\n", spec, err.line, err.column,
			err.message);
		return -1;
	}
	negcam_engine_init(&shim_engine, &shim_profile);
	shim_ready = 1;
	return 0;
}

static void fake_stat(struct stat *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->st_mode = S_IFCHR | 0660;
	sb->st_rdev = makedev(SHIM_MAJOR, SHIM_MINOR);
	sb->st_nlink = 1;
}

int stat(const char *path, struct stat *sb)
{
	int (*stat_real)(const char *, struct stat *) = real("stat");

	if (is_shim_path(path)) {
		fake_stat(sb);
		return 0;
	}
	return stat_real(path, sb);
}

int fstat(int fd, struct stat *sb)
{
	int (*fstat_real)(int, struct stat *) = real("fstat");

	if (fd >= 0 && fd == shim_fd) {
		fake_stat(sb);
		return 0;
	}
	return fstat_real(fd, sb);
}

/* A FILE with a real descriptor: libstdc++'s ifstream reads through fileno(). */
static FILE *uevent(void)
{
	static const char text[] = "MAJOR=81\nMINOR=250\nDEVNAME=video250\n";
	int fd = memfd_create("negcam-shim-uevent", 0);

	if (fd < 0)
		return NULL;
	if (write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1) ||
	    lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return NULL;
	}
	return fdopen(fd, "r");
}

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*fopen_real)(const char *, const char *) = real("fopen");

	if (path && !strcmp(path, SHIM_UEVENT))
		return uevent();
	return fopen_real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	FILE *(*fopen_real)(const char *, const char *) = real("fopen64");

	if (path && !strcmp(path, SHIM_UEVENT))
		return uevent();
	return fopen_real(path, mode);
}

static int shim_open(int (*open_real)(const char *, int, ...), const char *path, int flags,
		     mode_t mode)
{
	if (!is_shim_path(path))
		return open_real(path, flags, mode);
	if (shim_fd >= 0) {
		errno = EBUSY; /* one opener is all the tests need */
		return -1;
	}
	if (shim_load()) {
		errno = ENODEV;
		return -1;
	}
	shim_fd = open_real("/dev/null", O_RDWR, 0);
	return shim_fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return shim_open(real("open"), path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return shim_open(real("open64"), path, flags, mode);
}

/* What open(path, flags) becomes under _FORTIFY_SOURCE. */
int __open_2(const char *path, int flags)
{
	return shim_open(real("open"), path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
	return shim_open(real("open64"), path, flags, 0);
}

int close(int fd)
{
	int (*close_real)(int) = real("close");

	if (fd >= 0 && fd == shim_fd)
		shim_fd = -1;
	return close_real(fd);
}

/*
 * NEGCAM_SHIM_MPLANE=1: the device is a multiplanar capture device (as a
 * codec or an ISP is): capture ioctls take V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
 * and struct v4l2_pix_format_mplane (one plane), translated here to the
 * engine's single-planar ones. Tests negcam-ctl --dump's multiplanar path.
 */
static int shim_mplane(void)
{
	const char *m = getenv("NEGCAM_SHIM_MPLANE");

	return m && *m == '1';
}

static int mplane_fmt(unsigned long request, struct v4l2_format *f)
{
	struct v4l2_format sp;
	struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
	int ret;

	if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL; /* a multiplanar device has no single-planar queue */
	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
		return negcam_engine_ioctl(&shim_engine, request, f);
	memset(&sp, 0, sizeof(sp));
	sp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp.fmt.pix.width = mp->width;
	sp.fmt.pix.height = mp->height;
	sp.fmt.pix.pixelformat = mp->pixelformat;
	sp.fmt.pix.field = mp->field;
	sp.fmt.pix.colorspace = mp->colorspace;
	sp.fmt.pix.ycbcr_enc = mp->ycbcr_enc;
	sp.fmt.pix.quantization = mp->quantization;
	sp.fmt.pix.xfer_func = mp->xfer_func;
	sp.fmt.pix.flags = mp->flags;
	sp.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	ret = negcam_engine_ioctl(&shim_engine, request, &sp);
	if (ret)
		return ret;
	memset(mp, 0, sizeof(*mp));
	mp->width = sp.fmt.pix.width;
	mp->height = sp.fmt.pix.height;
	mp->pixelformat = sp.fmt.pix.pixelformat;
	mp->field = sp.fmt.pix.field;
	mp->colorspace = sp.fmt.pix.colorspace;
	mp->ycbcr_enc = sp.fmt.pix.ycbcr_enc;
	mp->quantization = sp.fmt.pix.quantization;
	mp->xfer_func = sp.fmt.pix.xfer_func;
	mp->flags = sp.fmt.pix.flags;
	mp->num_planes = 1;
	mp->plane_fmt[0].bytesperline = sp.fmt.pix.bytesperline;
	mp->plane_fmt[0].sizeimage = sp.fmt.pix.sizeimage;
	return 0;
}

static int mplane_ioctl(unsigned long request, void *arg)
{
	__u32 *type = arg;
	int ret;

	switch (request) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *cap = arg;

		ret = negcam_engine_ioctl(&shim_engine, request, arg);
		if (!ret && (cap->device_caps & V4L2_CAP_VIDEO_CAPTURE)) {
			cap->device_caps &= ~(__u32)V4L2_CAP_VIDEO_CAPTURE;
			cap->device_caps |= V4L2_CAP_VIDEO_CAPTURE_MPLANE;
			cap->capabilities &= ~(__u32)V4L2_CAP_VIDEO_CAPTURE;
			cap->capabilities |= V4L2_CAP_VIDEO_CAPTURE_MPLANE;
		}
		return ret;
	}
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		return mplane_fmt(request, arg);
	case VIDIOC_ENUM_FMT:
		type = &((struct v4l2_fmtdesc *)arg)->type;
		/* fall through */
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		/* (the buffer type is the first field of struct v4l2_streamparm) */
		if (*type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
			return -EINVAL;
		if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
			return negcam_engine_ioctl(&shim_engine, request, arg);
		*type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		ret = negcam_engine_ioctl(&shim_engine, request, arg);
		*type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		return ret;
	}
	return negcam_engine_ioctl(&shim_engine, request, arg);
}

int ioctl(int fd, unsigned long request, ...)
{
	int (*ioctl_real)(int, unsigned long, void *) = real("ioctl");
	void *arg;
	va_list ap;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd < 0 || fd != shim_fd)
		return ioctl_real(fd, request, arg);
	ret = shim_mplane() ? mplane_ioctl(request, arg) :
			      negcam_engine_ioctl(&shim_engine, request, arg);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}
