// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: POLLPRI. A node's descriptor is an eventfd, which
 * poll() shows readable when a buffer is done but never shows with an
 * exception; pending V4L2 events (DQEVENT) are added here, for poll,
 * ppoll, select and pselect. A wait that is already blocked when an
 * event is queued by another thread is not woken (docs/negcam-run.md),
 * except on a node whose faults (docs/faults.md) will still change the
 * source or unplug it: a wait there is cut in slices of NC_FAULT_SLICE_MS
 * so that it sees them. An unplugged node polls as the kernel's
 * unregistered video device does: POLLERR | POLLHUP | POLLPRI.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sys/select.h>

#include "preload.h"

#define NC_FAULT_SLICE_MS 20

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

/* Node descriptors of @fds that are unplugged: what the kernel reports; @ready updated. */
static int add_gone(struct pollfd *fds, nfds_t n, int ready)
{
	nfds_t i;

	for (i = 0; ready >= 0 && i < n; i++)
		if (nc_node_of_fd(fds[i].fd) >= 0 && nc_node_unplugged(fds[i].fd)) {
			ready += !fds[i].revents;
			fds[i].revents = (short)(POLLERR | POLLHUP | (fds[i].events & POLLPRI));
		}
	return ready;
}

static bool fault_watch(const struct pollfd *fds, nfds_t n)
{
	nfds_t i;

	for (i = 0; i < n; i++)
		if (nc_node_of_fd(fds[i].fd) >= 0 && nc_node_fault_watch(fds[i].fd))
			return true;
	return false;
}

/* One real wait of at most @ms (-1: no limit) on @fds, by poll or ppoll with @mask. */
static int wait_ms(struct pollfd *fds, nfds_t n, int ms, const sigset_t *mask, bool use_ppoll)
{
	NC_REAL(int (*)(struct pollfd *, nfds_t, int), "poll");
	static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *,
				 const sigset_t *);
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};

	if (!use_ppoll)
		return real_(fds, n, ms);
	if (!real_ppoll)
		real_ppoll = (__typeof__(real_ppoll))nc_real("ppoll");
	return real_ppoll(fds, n, ms < 0 ? NULL : &t, mask);
}

/* poll and ppoll: @timeout in ms, -1 for none. */
static int poll_fds(struct pollfd *fds, nfds_t n, int timeout, const sigset_t *mask,
		    bool use_ppoll)
{
	bool pri = pri_pending(fds, n), watch = !pri && fault_watch(fds, n);
	int r, left = timeout;

	if (!watch) {
		r = wait_ms(fds, n, pri ? 0 : timeout, mask, use_ppoll);
		return add_gone(fds, n, r < 0 || !pri ? r : add_pri(fds, n, r));
	}
	do { /* in slices, until ready, an event, the timeout or the fault done */
		int slice = left < 0 || left > NC_FAULT_SLICE_MS ? NC_FAULT_SLICE_MS : left;

		r = wait_ms(fds, n, slice, mask, use_ppoll);
		if (left > 0)
			left -= slice;
		watch = fault_watch(fds, n); /* before the events: one queued after is seen */
		pri = r >= 0 && pri_pending(fds, n);
	} while (r == 0 && !pri && left != 0 && watch);
	if (r == 0 && !pri && left != 0) /* the fault happened: wait the rest whole */
		r = wait_ms(fds, n, left, mask, use_ppoll);
	return add_gone(fds, n, r < 0 || !pri ? r : add_pri(fds, n, r));
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	return poll_fds(fds, n, timeout, NULL, false);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask)
{
	long ms = t ? t->tv_sec * 1000 + (t->tv_nsec + 999999) / 1000000 : -1;

	return poll_fds(fds, n, ms > 0x7fffffff ? 0x7fffffff : (int)ms, mask, true);
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

/* Whether a node in @rd or @ex has a fault to come (see the head). */
static bool select_watch(int nfds, const fd_set *rd, const fd_set *ex)
{
	int fd;

	for (fd = 0; fd < nfds && fd < NC_RUN_FDMAX; fd++)
		if (((rd && FD_ISSET(fd, rd)) || (ex && FD_ISSET(fd, ex))) &&
		    nc_node_of_fd(fd) >= 0 && nc_node_fault_watch(fd))
			return true;
	return false;
}

/* Unplugged nodes wanted in @ex0 show an exception, as POLLPRI in the kernel's mask. */
static int select_gone(int nfds, int r, fd_set *ex, const fd_set *ex0)
{
	int fd;

	for (fd = 0; r >= 0 && ex && fd < nfds && fd < NC_RUN_FDMAX; fd++)
		if (FD_ISSET(fd, ex0) && !FD_ISSET(fd, ex) && nc_node_of_fd(fd) >= 0 &&
		    nc_node_unplugged(fd)) {
			FD_SET(fd, ex);
			r++;
		}
	return r;
}

int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *t)
{
	NC_REAL(int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *), "select");
	long left = t ? t->tv_sec * 1000000 + t->tv_usec : -1;
	fd_set pri, rd0, wr0, ex0;
	int npri = pri_set(nfds, ex, &pri), r;
	bool watch;

	FD_ZERO(&ex0);
	if (ex)
		ex0 = *ex;
	if (npri || !select_watch(nfds, rd, ex)) {
		struct timeval zero = {0, 0};

		r = merge(nfds, real_(nfds, rd, wr, ex, npri ? &zero : t), rd, wr, ex, &pri);
		return select_gone(nfds, r, ex, &ex0);
	}
	if (rd)
		rd0 = *rd;
	if (wr)
		wr0 = *wr;
	do { /* in slices, as poll() */
		struct timeval s = {0, left < 0 || left > NC_FAULT_SLICE_MS * 1000
					       ? NC_FAULT_SLICE_MS * 1000 : left};

		if (rd)
			*rd = rd0;
		if (wr)
			*wr = wr0;
		if (ex)
			*ex = ex0;
		r = real_(nfds, rd, wr, ex, &s);
		if (left > 0)
			left = left > NC_FAULT_SLICE_MS * 1000 ? left - NC_FAULT_SLICE_MS * 1000 : 0;
		watch = select_watch(nfds, &rd0, &ex0); /* before the events, as poll() */
		npri = r == 0 ? pri_set(nfds, &ex0, &pri) : 0;
	} while (r == 0 && !npri && left != 0 && watch);
	if (r == 0 && !npri && left != 0) { /* the fault happened: wait the rest whole */
		struct timeval rest = {left / 1000000, left % 1000000};

		if (rd)
			*rd = rd0;
		if (wr)
			*wr = wr0;
		if (ex)
			*ex = ex0;
		r = real_(nfds, rd, wr, ex, left < 0 ? NULL : &rest);
		npri = pri_set(nfds, &ex0, &pri); /* the source change's event */
	}
	if (npri)
		r = merge(nfds, r, rd, wr, ex, &pri);
	return select_gone(nfds, r, ex, &ex0);
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
