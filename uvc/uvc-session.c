// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The serving session (see uvc-session.h): one round reads what the host
 * sent, feeds the whole commands to the device core (an incomplete one
 * waits for the rest), answers the held URBs that are due, tells the
 * commit hook about a new COMMIT, and sleeps until the next held URB is
 * due (or the host sends more, or the wake descriptor fires). Told to
 * stop, or when the profile's fault unplug comes, it writes the port to vhci-hcd's `detach` and keeps serving until
 * the host closes its end, 3 s at most, waking every 100 ms to check.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "uvc-session.h"

#define IN_CAP (USBIP_HDR_LEN + USBIP_MAX_OUT_DATA + USBIP_MAX_ISO_PACKETS * USBIP_ISO_DESC_LEN)
#define DETACH_WAIT_NS 3000000000ull
#define DETACH_POLL_NS 100000000ull

struct session {
	struct nc_uvc_dev *dev;
	const struct nc_vhci *v;
	const struct nc_uvc_session_hooks *h;
	uint8_t *buf;              /* the host's bytes not fed yet (an incomplete command) */
	size_t have;
	struct nc_uvc_params seen; /* the COMMIT the commit hook was last told */
	bool detaching;
	uint64_t deadline;         /* while detaching: when to stop waiting for the host */
};

int nc_uvc_send_fd(void *ctx, const uint8_t *buf, size_t len)
{
	int fd = *(const int *)ctx;
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

uint64_t nc_uvc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lock(const struct session *s)
{
	if (s->h->lock)
		s->h->lock(s->h->ctx);
}

static void unlock(const struct session *s)
{
	if (s->h->unlock)
		s->h->unlock(s->h->ctx);
}

/* How long to sleep: until the next held URB, 100 ms at most while detaching; NULL: until input. */
static struct timespec *sleep_time(const struct session *s, struct timespec *ts)
{
	uint64_t due, now, wait;

	lock(s);
	due = nc_uvc_dev_next_due(s->dev);
	unlock(s);
	now = nc_uvc_now_ns();
	if (due == UINT64_MAX && !s->detaching)
		return NULL;
	wait = due <= now ? 0 : due - now;
	if (s->detaching && wait > DETACH_POLL_NS)
		wait = DETACH_POLL_NS;
	ts->tv_sec = (time_t)(wait / 1000000000u);
	ts->tv_nsec = (long)(wait % 1000000000u);
	return ts;
}

/* Read what the host sent after the bytes kept. 1 at its end, else 0 or -errno; *@fresh: bytes came. */
static int read_host(struct session *s, bool *fresh)
{
	ssize_t n = read(s->v->fd, s->buf + s->have, IN_CAP - s->have);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 1;
	s->have += (size_t)n;
	*fresh = true;
	return 0;
}

/*
 * The core's part of a round, under the lock: the whole commands read so
 * far (when @fresh), then the URBs due now. 0 or -errno; a COMMIT the
 * commit hook has not seen yet into *@c (*@changed).
 */
static int feed(struct session *s, bool fresh, struct nc_uvc_params *c, bool *changed)
{
	const struct nc_uvc_params *cur;
	long used = 0;
	int err = 0;

	lock(s);
	if (fresh) {
		used = nc_uvc_dev_input(s->dev, s->buf, s->have, nc_uvc_now_ns());
		if (used >= 0) {
			memmove(s->buf, s->buf + used, s->have - (size_t)used);
			s->have -= (size_t)used;
		}
		err = used < 0 ? (int)used : s->have == IN_CAP ? -EPROTO : 0;
	}
	if (!err)
		err = nc_uvc_dev_tick(s->dev, nc_uvc_now_ns());
	cur = nc_uvc_dev_committed(s->dev);
	if (cur && (cur->format != s->seen.format || cur->frame != s->seen.frame ||
		    cur->interval != s->seen.interval)) {
		s->seen = *cur;
		*c = *cur;
		*changed = true;
	}
	unlock(s);
	return err;
}

/* One round: wait, read, feed. 0, 1 at the host's end, or -errno. */
static int serve_round(struct session *s, struct pollfd *pfd, nfds_t nfds)
{
	struct nc_uvc_params c;
	struct timespec ts;
	bool fresh = false, changed = false;
	char drain[16];
	int err = 0;

	if (ppoll(pfd, nfds, sleep_time(s, &ts), NULL) > 0) {
		if (nfds > 1 && pfd[1].revents) {
			ssize_t r = read(pfd[1].fd, drain, sizeof(drain));

			(void)r; /* the wake-up is what counts, not the bytes */
		}
		if (pfd[0].revents)
			err = read_host(s, &fresh);
	}
	if (err)
		return err;
	err = feed(s, fresh, &c, &changed);
	if (changed && s->h->commit)
		s->h->commit(s->h->ctx, &c);
	return err;
}

/*
 * Ask the stop hook, and the device whether its fault unplug came (a USB
 * disconnect: docs/faults.md); either way, detach. false when the
 * session ends here.
 */
static bool check_stop(struct session *s)
{
	bool unplug;

	if (s->detaching)
		return true;
	lock(s);
	unplug = nc_uvc_stream_unplugged(s->dev);
	unlock(s);
	if (!unplug && (!s->h->stop || !s->h->stop(s->h->ctx)))
		return true;
	if (nc_vhci_detach(s->v))
		return false; /* the port stays until the caller closes the socket */
	s->detaching = true;
	s->deadline = nc_uvc_now_ns() + DETACH_WAIT_NS;
	return true;
}

int nc_uvc_session_run(struct nc_uvc_dev *dev, const struct nc_vhci *v,
		       const struct nc_uvc_session_hooks *h)
{
	struct session s = { .dev = dev, .v = v, .h = h };
	struct pollfd pfd[2] = { { .fd = v->fd, .events = POLLIN },
				 { .fd = h->wake_fd, .events = POLLIN } };
	int err = 0;

	s.buf = malloc(IN_CAP);
	if (!s.buf)
		return -ENOMEM;
	lock(&s);
	nc_uvc_dev_set_frame_source(dev, h->frame, h->ctx);
	unlock(&s);
	while (!err && check_stop(&s)) {
		if (s.detaching && nc_uvc_now_ns() > s.deadline)
			break;
		err = serve_round(&s, pfd, h->wake_fd >= 0 ? 2 : 1);
	}
	lock(&s);
	nc_uvc_dev_set_frame_source(dev, NULL, NULL);
	unlock(&s);
	free(s.buf);
	if (err == 1)
		return s.detaching ? NC_UVC_SESSION_DETACHED : NC_UVC_SESSION_HOST_LEFT;
	if (s.detaching && (err == -EPIPE || err == -ECONNRESET))
		return NC_UVC_SESSION_DETACHED; /* vhci-hcd shut the socket before we read its end */
	return err;
}
