// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: V4L2 capture nodes served in process by the
 * negcam engine, for programs started by negcam-run (docs/negcam-run.md).
 *
 * This file: configuration and the interposers for open, close, dup,
 * fcntl, ioctl, mmap and read; the descriptor table is files.c. Nothing runs at load
 * time; the first intercepted call reads NEGCAM_RUN_NODES, the first open
 * of a node loads its profile. A device descriptor is a duplicate of the
 * node's eventfd, readable while a buffer is done, so poll, select and
 * epoll work unchanged. Ownership: nc_fdmap (atomic, read without the
 * lock) says which file a descriptor is; everything else is under nc_lock.
 */
#define _GNU_SOURCE
/* Both the plain and the 64 variants are interposed: no redirection. */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "preload.h"
#include "profile-load.h"
#include "record.h"

pthread_mutex_t nc_lock = PTHREAD_MUTEX_INITIALIZER;
struct nc_node nc_nodes[NC_RUN_MAX_NODES];
unsigned int nc_nnodes;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static bool trace; /* NEGCAM_RUN_TRACE=1: every request on stderr */
bool nc_mplane;

void *nc_real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "libnegcam-preload: no %s in the C library\n", name);
		abort();
	}
	return f;
}

/* ---- configuration ---- */

/* After fork(), in the child: the pacing threads are gone. */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&nc_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&nc_lock);
}

static void atfork_child(void)
{
	unsigned int i;

	pthread_mutex_init(&nc_lock, NULL);
	nc_record_forget();
	for (i = 0; i < nc_nnodes; i++) {
		if (!nc_nodes[i].profile)
			continue;
		nc_vbq_forget_thread(&nc_nodes[i].vbq);
		/* New opens get an eventfd of their own, apart from the parent's. */
		nc_nodes[i].evfd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
		nc_nodes[i].vbq.evfd = nc_nodes[i].evfd;
	}
}

/* "PATH=SPEC;PATH=SPEC"; /dev/videoN gets minor N, other paths 200 + i. */
static void read_config(void)
{
	const char *s = getenv("NEGCAM_RUN_NODES");
	const char *t = getenv("NEGCAM_RUN_TRACE");
	const char *m = getenv("NEGCAM_RUN_MPLANE");

	trace = t && *t == '1';
	nc_mplane = m && *m == '1';
	while (s && *s && nc_nnodes < NC_RUN_MAX_NODES) {
		const char *eq = strchr(s, '='), *end = strchr(s, ';');
		struct nc_node *n = &nc_nodes[nc_nnodes];
		unsigned int v;
		char c;

		if (!end)
			end = s + strlen(s);
		if (eq && eq < end && eq - s < (long)sizeof(n->path) &&
		    end - eq - 1 < (long)sizeof(n->spec)) {
			memcpy(n->path, s, (size_t)(eq - s));
			memcpy(n->spec, eq + 1, (size_t)(end - eq - 1));
			n->minor = sscanf(n->path, "/dev/video%u%c", &v, &c) == 1 && v < 200
					   ? v
					   : 200 + nc_nnodes;
			n->evfd = -1;
			nc_nnodes++;
		}
		s = *end ? end + 1 : end;
	}
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

void nc_config(void)
{
	pthread_once(&config_once, read_config);
}

int nc_node_of_path(const char *path)
{
	unsigned int i;

	if (!path || path[0] != '/')
		return -1; /* nodes are configured by absolute path */
	nc_config();
	for (i = 0; i < nc_nnodes; i++)
		if (!strcmp(path, nc_nodes[i].path))
			return (int)i;
	return -1;
}

/* The queue's faults that the node answers for: a source change's event. */
static void node_fault(void *ctx, uint32_t what)
{
	if (what == NC_DO_SOURCE_CHANGE)
		nc_events_source_change(ctx);
}

int nc_node_load(struct nc_node *n)
{
	char msg[512];

	if (n->profile)
		return 0;
	n->profile = calloc(1, sizeof(*n->profile));
	if (!n->profile)
		return -ENOMEM;
	if (negcam_profile_load(n->spec, n->profile, msg, sizeof(msg))) {
		fprintf(stderr, "libnegcam-preload: %s: %s\n", n->path, msg);
		free(n->profile);
		n->profile = NULL;
		return -ENODEV;
	}
	n->evfd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	if (n->evfd < 0) {
		free(n->profile);
		n->profile = NULL;
		return -errno;
	}
	if (nc_mplane)
		n->profile->multiplanar = 1;
	negcam_engine_init(&n->engine, n->profile);
	/* a multiplanar queue has no read(), as on negcam.ko */
	n->engine.readbuffers = n->profile->multiplanar ? 0 : NC_VB_READ_BUFFERS;
	nc_vbq_init(&n->vbq, &nc_lock, &n->engine, n->evfd);
	n->vbq.on_fault = node_fault;
	n->vbq.fault_ctx = n;
	nc_faults_apply(n); /* the profile's, or negcam-run --faults' */
	return 0;
}

bool nc_node_fault_watch(int fd)
{
	int node = nc_node_of_fd(fd);
	const struct nc_vbq *q = node < 0 ? NULL : &nc_nodes[node].vbq;
	__u32 oneshot = 1u << NC_FAULT_SOURCE_CHANGE | 1u << NC_FAULT_UNPLUG;

	return q && (q->faults.given & oneshot & ~q->fstate.fired);
}

bool nc_node_unplugged(int fd)
{
	int node = nc_node_of_fd(fd);

	return node >= 0 && nc_nodes[node].vbq.unplugged;
}

/* ---- open and close ---- */

static int node_open(int node, int flags)
{
	NC_REAL(int (*)(int, int, ...), "fcntl");
	struct nc_node *n = &nc_nodes[node];
	int fd, ret;

	pthread_mutex_lock(&nc_lock);
	ret = nc_node_load(n);
	if (!ret && n->vbq.unplugged)
		ret = -ENOENT; /* the node is gone, as after a USB disconnect */
	fd = ret ? -1 : real_(n->evfd, flags & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (!ret && fd < 0)
		ret = -errno;
	if (!ret && (ret = nc_fd_attach(fd, NULL, node)) < 0)
		close(fd);
	if (!ret) {
		nc_file_of_fd(fd)->nonblock = flags & O_NONBLOCK;
		nc_record_open(node);
	}
	pthread_mutex_unlock(&nc_lock);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return fd;
}

#define MODE_ARG(flags)                        \
	mode_t mode = 0;                       \
	if ((flags) & (O_CREAT | O_TMPFILE)) { \
		va_list ap;                    \
		va_start(ap, flags);           \
		mode = va_arg(ap, mode_t);     \
		va_end(ap);                    \
	}

int nc_virtual_open(const char *path); /* discover.c: sysfs files, or -2 */

#define OPEN_BODY(dirfd, path, flags, realcall)                                   \
	do {                                                                      \
		int node_ = ((path) && ((dirfd) == AT_FDCWD || (path)[0] == '/')) \
				    ? nc_node_of_path(path)                       \
				    : -1;                                         \
		int v_;                                                           \
		if (node_ >= 0)                                                   \
			return node_open(node_, flags);                           \
		if ((path) && ((dirfd) == AT_FDCWD || (path)[0] == '/')) {        \
			v_ = nc_virtual_open(path);                               \
			if (v_ != -2)                                             \
				return v_;                                        \
		}                                                                 \
		return realcall;                                                  \
	} while (0)

int open(const char *path, int flags, ...)
{
	NC_REAL(int (*)(const char *, int, ...), "open");
	MODE_ARG(flags);
	OPEN_BODY(AT_FDCWD, path, flags, real_(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
	NC_REAL(int (*)(const char *, int, ...), "open64");
	MODE_ARG(flags);
	OPEN_BODY(AT_FDCWD, path, flags, real_(path, flags, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
	NC_REAL(int (*)(int, const char *, int, ...), "openat");
	MODE_ARG(flags);
	OPEN_BODY(dirfd, path, flags, real_(dirfd, path, flags, mode));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	NC_REAL(int (*)(int, const char *, int, ...), "openat64");
	MODE_ARG(flags);
	OPEN_BODY(dirfd, path, flags, real_(dirfd, path, flags, mode));
}

/* What open() becomes under _FORTIFY_SOURCE. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
	return openat64(dirfd, path, flags);
}

int close(int fd)
{
	NC_REAL(int (*)(int), "close");

	if (nc_node_of_fd(fd) >= 0) {
		pthread_mutex_lock(&nc_lock);
		nc_fd_detach(fd);
		pthread_mutex_unlock(&nc_lock);
	}
	return real_(fd);
}

/* ---- duplicates ---- */

/* After a dup of @old to @new (the call's result): @new names @old's file. */
static int dup_done(int old, int new)
{
	struct nc_file *f;
	int ret = 0;

	if (new < 0 || new == old)
		return new;
	pthread_mutex_lock(&nc_lock);
	nc_fd_detach(new); /* dup2 onto one of ours closed it */
	f = nc_file_of_fd(old);
	if (f)
		ret = nc_fd_attach(new, f, f->node);
	pthread_mutex_unlock(&nc_lock);
	if (ret) {
		close(new);
		errno = -ret;
		return -1;
	}
	return new;
}

int dup(int fd)
{
	NC_REAL(int (*)(int), "dup");

	return nc_node_of_fd(fd) >= 0 ? dup_done(fd, real_(fd)) : real_(fd);
}

int dup2(int fd, int fd2)
{
	NC_REAL(int (*)(int, int), "dup2");
	int r = real_(fd, fd2);

	return nc_node_of_fd(fd) >= 0 || nc_node_of_fd(fd2) >= 0 ? dup_done(fd, r) : r;
}

int dup3(int fd, int fd2, int flags)
{
	NC_REAL(int (*)(int, int, int), "dup3");
	int r = real_(fd, fd2, flags);

	return nc_node_of_fd(fd) >= 0 || nc_node_of_fd(fd2) >= 0 ? dup_done(fd, r) : r;
}

static int fcntl_ours(int fd, int cmd, long arg)
{
	NC_REAL(int (*)(int, int, ...), "fcntl");
	int r = real_(fd, cmd, arg);

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return dup_done(fd, r);
	if (cmd == F_SETFL && r == 0) {
		pthread_mutex_lock(&nc_lock);
		if (nc_file_of_fd(fd))
			nc_file_of_fd(fd)->nonblock = arg & O_NONBLOCK;
		pthread_mutex_unlock(&nc_lock);
	}
	return r;
}

int fcntl(int fd, int cmd, ...)
{
	NC_REAL(int (*)(int, int, ...), "fcntl");
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long); /* every command's argument fits (int, long or a pointer) */
	va_end(ap);
	return nc_node_of_fd(fd) >= 0 ? fcntl_ours(fd, cmd, arg) : real_(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...)
{
	NC_REAL(int (*)(int, int, ...), "fcntl64");
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return nc_node_of_fd(fd) >= 0 ? fcntl_ours(fd, cmd, arg) : real_(fd, cmd, arg);
}

/* ---- ioctl ---- */

/* The requests this device answers, and those that change its state
 * (EBUSY for a file below the highest priority, as v4l2-ioctl.c's
 * INFO_FL_PRIO). */
static const struct {
	unsigned long request;
	bool prio;
} requests[] = {
	{VIDIOC_QUERYCAP},
	{VIDIOC_ENUM_FMT},
	{VIDIOC_G_FMT},
	{VIDIOC_S_FMT, true},
	{VIDIOC_TRY_FMT},
	{VIDIOC_ENUM_FRAMESIZES},
	{VIDIOC_ENUM_FRAMEINTERVALS},
	{VIDIOC_G_PARM},
	{VIDIOC_S_PARM, true},
	{VIDIOC_REQBUFS, true},
	{VIDIOC_CREATE_BUFS, true},
	{VIDIOC_QUERYBUF},
	{VIDIOC_PREPARE_BUF},
	{VIDIOC_QBUF},
	{VIDIOC_DQBUF},
	{VIDIOC_EXPBUF},
	{VIDIOC_STREAMON, true},
	{VIDIOC_STREAMOFF, true},
	{VIDIOC_QUERYCTRL},
	{VIDIOC_QUERY_EXT_CTRL},
	{VIDIOC_QUERYMENU},
	{VIDIOC_G_CTRL},
	{VIDIOC_S_CTRL, true},
	{VIDIOC_G_EXT_CTRLS},
	{VIDIOC_S_EXT_CTRLS, true},
	{VIDIOC_TRY_EXT_CTRLS},
	{VIDIOC_G_PRIORITY},
	{VIDIOC_S_PRIORITY, true},
	{VIDIOC_ENUMINPUT},
	{VIDIOC_G_INPUT},
	{VIDIOC_S_INPUT, true},
	{VIDIOC_LOG_STATUS},
	{VIDIOC_SUBSCRIBE_EVENT},
	{VIDIOC_UNSUBSCRIBE_EVENT},
	{VIDIOC_DQEVENT},
};

/* -ENOTTY for a request the device lacks (whatever @arg), -EFAULT for a
 * missing argument, -EBUSY for a change by a lower priority, else 0. */
static int check_request(const struct nc_node *n, const struct nc_file *f, unsigned long request,
			 const void *arg)
{
	unsigned int i;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (requests[i].request == request)
			break;
	if (i == sizeof(requests) / sizeof(requests[0]))
		return -ENOTTY;
	if (!arg && _IOC_SIZE(request))
		return -EFAULT;
	return requests[i].prio && f->prio < nc_max_priority(n) ? -EBUSY : 0;
}

static int node_ioctl(struct nc_node *n, struct nc_file *f, unsigned long request, void *arg)
{
	int ret;

	nc_faults_check();
	ret = n->vbq.unplugged ? -ENODEV : check_request(n, f, request, arg);

	if (ret)
		return ret;
	ret = nc_vbq_ioctl(&n->vbq, f, f->nonblock, request, arg);
	if (ret != -ENOTTY)
		return ret;
	ret = nc_controls_ioctl(n, f, request, arg);
	if (ret != -ENOTTY)
		return ret;
	if (request == VIDIOC_S_PARM || request == VIDIOC_S_FMT) {
		/* as negcam.ko: the queue of another file is busy too */
		negcam_engine_set_busy(&n->engine, V4L2_BUF_TYPE_VIDEO_CAPTURE, n->vbq.nbufs > 0);
		if (n->vbq.owner && n->vbq.owner != f && request == VIDIOC_S_FMT)
			return -EBUSY;
	}
	ret = negcam_engine_ioctl(&n->engine, request, arg);
	if (!ret && request == VIDIOC_S_PARM && n->vbq.streaming) {
		n->vbq.resync = true; /* from the next frame on */
		pthread_cond_broadcast(&n->vbq.tick_cond);
	}
	return ret;
}

int ioctl(int fd, unsigned long request, ...);
int ioctl(int fd, unsigned long request, ...)
{
	NC_REAL(int (*)(int, unsigned long, void *), "ioctl");
	struct nc_file *f;
	void *arg;
	va_list ap;
	int ret = -EBADF;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (nc_node_of_fd(fd) < 0)
		return real_(fd, request, arg);
	nc_config();
	pthread_mutex_lock(&nc_lock);
	f = nc_file_of_fd(fd);
	if (f) {
		ret = node_ioctl(&nc_nodes[f->node], f, request, arg);
		nc_record_ioctl(f->node, request, ret);
	}
	pthread_mutex_unlock(&nc_lock);
	if (trace)
		fprintf(stderr, "negcam-run: fd %d %s (0x%08lx): %s\n", fd,
			negcam_ioctl_name(request), request, ret < 0 ? strerror(-ret) : "ok");
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* ---- mmap and read ---- */

static void *node_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	NC_REAL(void *(*)(void *, size_t, int, int, int, off_t), "mmap");
	struct nc_file *f;
	void *p = MAP_FAILED;
	int memfd = -EINVAL;

	pthread_mutex_lock(&nc_lock);
	f = nc_file_of_fd(fd);
	if (f && (flags & MAP_TYPE) == MAP_SHARED && off >= 0)
		memfd = nc_vbq_mmap_fd(&nc_nodes[f->node].vbq, (uint64_t)off, len);
	if (memfd >= 0)
		p = real_(addr, len, prot, flags, memfd, 0);
	else
		errno = -memfd;
	pthread_mutex_unlock(&nc_lock);
	return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	NC_REAL(void *(*)(void *, size_t, int, int, int, off_t), "mmap");

	return nc_node_of_fd(fd) >= 0 ? node_mmap(addr, len, prot, flags, fd, off)
				      : real_(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	NC_REAL(void *(*)(void *, size_t, int, int, int, off_t), "mmap64");

	return nc_node_of_fd(fd) >= 0 ? node_mmap(addr, len, prot, flags, fd, off)
				      : real_(addr, len, prot, flags, fd, off);
}

ssize_t read(int fd, void *buf, size_t count)
{
	NC_REAL(ssize_t(*)(int, void *, size_t), "read");
	struct nc_file *f;
	long ret = -EBADF;

	if (nc_node_of_fd(fd) < 0)
		return real_(fd, buf, count);
	pthread_mutex_lock(&nc_lock);
	f = nc_file_of_fd(fd);
	if (f) {
		ret = nc_vbq_read(&nc_nodes[f->node].vbq, f, f->nonblock, buf, count);
		nc_record_read(f->node, ret);
	}
	pthread_mutex_unlock(&nc_lock);
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
