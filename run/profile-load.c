// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The user-space profile loader (see profile-load.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile-load.h"

/* Reads regular file @path whole (NUL-terminated); NULL with @msg set. */
static char *read_regular(const char *path, size_t *len, char *msg, size_t msglen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	size_t n = 0, cap;
	struct stat st;
	char *buf = NULL;

	if (fd < 0) {
		snprintf(msg, msglen, "%s: not a built-in profile and not a readable file: %s",
			 path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(msg, msglen, "%s: not a regular file (a profile is a text file)", path);
		goto fail;
	}
	if ((unsigned long long)st.st_size > NC_LOAD_MAX_BYTES)
		goto too_big;
	cap = (size_t)st.st_size + 4096; /* a file may grow while read */
	buf = malloc(cap + 1);
	while (buf) {
		ssize_t got = read(fd, buf + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(msg, msglen, "%s: cannot read: %s", path, strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > NC_LOAD_MAX_BYTES)
			goto too_big;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf) {
		snprintf(msg, msglen, "%s: out of memory", path);
		goto fail;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
too_big:
	snprintf(msg, msglen, "%s: larger than %u MiB, which no profile is", path,
		 NC_LOAD_MAX_BYTES >> 20);
fail:
	free(buf);
	close(fd);
	return NULL;
}

int negcam_profile_load(const char *spec, struct negcam_profile *out, char *msg, size_t msglen)
{
	const struct negcam_builtin *b = negcam_builtin_find(spec);
	struct negcam_parse_error err;
	char *text = NULL;
	size_t len;
	int ret;

	if (b) {
		len = strlen(b->text);
	} else if (!(text = read_regular(spec, &len, msg, msglen))) {
		return -1;
	} else if (memchr(text, '\0', len)) {
		snprintf(msg, msglen, "%s: not a profile (binary data)", spec);
		free(text);
		return -1;
	}
	memset(&err, 0, sizeof(err));
	ret = negcam_profile_parse(out, b ? b->text : text, (__u32)len, &err);
	free(text);
	if (ret == 0)
		return 0;
	err.message[sizeof(err.message) - 1] = '\0';
	snprintf(msg, msglen, "%s:%u:%u: %s", spec, err.line, err.column,
		 err.message[0] ? err.message : "invalid profile");
	return -1;
}
