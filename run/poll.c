// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: POLLPRI. A node's descriptor is an eventfd, which
 * poll() shows readable when a buffer is done but never shows with an
 * exception; pending V4L2 events (DQEVENT) are added here, for poll,
 * ppoll, select and pselect. A wait that is already blocked when an
 * event is queued by another thread is not woken (docs/negcam-run.md).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/select.h>

#include "preload.h"

/* Descriptors of @fds with POLLPRI wanted and events pending: add POLLPRI. */
static int add_pri(struct pollfd *fds, nfds_t n, int ready)
{
	nfds_t i;

	for (i = 0; i < n; i++)
		if ((fds[i].events & POLLPRI) && nc_node_of_fd(fds[i].fd) >= 0 &&
		    nc_events_pending(fds[i].fd)) {
			ready += !fds[i].revents;
			fds[i].revents |= POLLPRI;
		}
	return ready;
}

static bool pri_pending(const struct pollfd *fds, nfds_t n)
{
	nfds_t i;

	for (i = 0; i < n; i++)
		if ((fds[i].events & POLLPRI) && nc_node_of_fd(fds[i].fd) >= 0 &&
		    nc_events_pending(fds[i].fd))
			return true;
	return false;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	NC_REAL(int (*)(struct pollfd *, nfds_t, int), "poll");
	bool pri = pri_pending(fds, n);
	int r = real_(fds, n, pri ? 0 : timeout);

	return r < 0 || !pri ? r : add_pri(fds, n, r);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask)
{
	NC_REAL(int (*)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *),
		"ppoll");
	static const struct timespec zero;
	bool pri = pri_pending(fds, n);
	int r = real_(fds, n, pri ? &zero : t, mask);

	return r < 0 || !pri ? r : add_pri(fds, n, r);
}

/* Node descriptors in @ex with events pending, as an fd_set; their count. */
static int pri_set(int nfds, const fd_set *ex, fd_set *out)
{
	int fd, n = 0;

	FD_ZERO(out);
	for (fd = 0; ex && fd < nfds && fd < NC_RUN_FDMAX; fd++)
		if (FD_ISSET(fd, ex) && nc_node_of_fd(fd) >= 0 && nc_events_pending(fd)) {
			FD_SET(fd, out);
			n++;
		}
	return n;
}

/* After the real call: mark @pri in @ex and count the descriptors newly ready. */
static int merge(int nfds, int r, fd_set *rd, fd_set *wr, fd_set *ex, const fd_set *pri)
{
	int fd;

	for (fd = 0; r >= 0 && fd < nfds && fd < NC_RUN_FDMAX; fd++)
		if (FD_ISSET(fd, pri) && !FD_ISSET(fd, ex)) {
			FD_SET(fd, ex);
			r++;
		}
	(void)rd;
	(void)wr;
	return r;
}

int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *t)
{
	NC_REAL(int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *), "select");
	struct timeval zero = {0, 0};
	fd_set pri;
	int npri = pri_set(nfds, ex, &pri);

	return merge(nfds, real_(nfds, rd, wr, ex, npri ? &zero : t), rd, wr, ex, &pri);
}

int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *t,
	    const sigset_t *mask)
{
	NC_REAL(int (*)(int, fd_set *, fd_set *, fd_set *, const struct timespec *,
			const sigset_t *),
		"pselect");
	static const struct timespec zero;
	fd_set pri;
	int npri = pri_set(nfds, ex, &pri);

	return merge(nfds, real_(nfds, rd, wr, ex, npri ? &zero : t, mask), rd, wr, ex, &pri);
}
