/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the VM's C checkers share: CHECK (one "ok:"/"FAIL:" line, failures
 * counted in the including file's `failures`) and xioctl (retried on
 * EINTR, -errno on failure).
 */
#ifndef NEGCAM_VM_CHECK_H
#define NEGCAM_VM_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		if (cond) {                                                  \
			printf("  ok: ");                                    \
		} else {                                                     \
			printf("  FAIL: ");                                  \
			failures++;                                          \
		}                                                            \
		printf(__VA_ARGS__);                                         \
		printf("\n");                                                \
	} while (0)

static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

#endif
