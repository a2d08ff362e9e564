// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The one file reader of the user-space programs (see read-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read-file.h"

/* Waits until @fd has data or its writer left; -1 with errno ETIMEDOUT. */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int n;

	do
		n = poll(&pfd, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static int fail(struct nc_read *r, enum nc_read_stage stage, int err)
{
	free(r->text);
	r->text = NULL;
	r->stage = stage;
	r->err = err;
	return -1;
}

/* Reads @fd to its end into r->text; @wait: poll first (a FIFO or device). */
static int read_all(int fd, bool wait, int timeout_ms, size_t cap, struct nc_read *r)
{
	size_t n = 0;

	r->text = malloc(cap + 1);
	while (r->text) {
		ssize_t got;

		if (n == cap) {
			/* up to one byte past the cap, to tell a file of exactly the cap */
			size_t ncap = cap > NC_READ_MAX_BYTES / 2 ? NC_READ_MAX_BYTES + 1 : 2 * cap;
			char *nb = n > NC_READ_MAX_BYTES ? NULL : realloc(r->text, ncap + 1);

			if (!nb)
				return fail(r, NC_READ_DATA, n > NC_READ_MAX_BYTES ? EFBIG : ENOMEM);
			r->text = nb;
			cap = ncap;
		}
		/* a FIFO reads as empty until its writer comes: poll first */
		if (wait && wait_readable(fd, timeout_ms))
			return fail(r, NC_READ_DATA, errno);
		got = read(fd, r->text + n, cap - n);
		if (got > 0)
			n += (size_t)got;
		else if (got == 0)
			break;
		else if (errno != EINTR && errno != EAGAIN)
			return fail(r, NC_READ_DATA, errno);
	}
	if (!r->text)
		return fail(r, NC_READ_DATA, ENOMEM);
	if (n > NC_READ_MAX_BYTES)
		return fail(r, NC_READ_DATA, EFBIG);
	r->text[n] = '\0';
	r->len = n;
	return 0;
}

/* @fd, open on a file of @st, into @r, by the rules of read-file.h. */
static int read_opened(int fd, const struct stat *st, bool streams, bool is_stdin, int timeout_ms,
		       struct nc_read *r)
{
	bool regular = S_ISREG(st->st_mode);

	r->mode = st->st_mode;
	if (S_ISDIR(st->st_mode))
		return fail(r, NC_READ_OPEN, EISDIR);
	if (!regular && !streams)
		return fail(r, NC_READ_NOT_REGULAR, EINVAL);
	if (regular && (unsigned long long)st->st_size > NC_READ_MAX_BYTES)
		return fail(r, NC_READ_DATA, EFBIG);
	if (regular && !is_stdin)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	/* a regular file: its size and a page for growth; a stream: 64 KiB to start */
	return read_all(fd, !regular && !is_stdin, timeout_ms,
			regular ? (size_t)st->st_size + 4096 : 65536, r);
}

int nc_read_file(const char *path, unsigned int flags, int timeout_ms, struct nc_read *r)
{
	bool streams = flags & NC_READ_STREAMS, is_stdin = streams && !strcmp(path, "-");
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int ret;

	memset(r, 0, sizeof(*r));
	if (fd < 0 || fstat(fd, &st))
		ret = fail(r, NC_READ_OPEN, errno);
	else
		ret = read_opened(fd, &st, streams, is_stdin, timeout_ms, r);
	if (fd >= 0 && !is_stdin)
		close(fd);
	return ret;
}
