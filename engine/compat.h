/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The one place where the engine meets its environment. The engine is
 * built twice from the same sources: under Kbuild for negcam.ko and in
 * user space for negcamsrc and negcam-ctl. It may use only what both
 * sides offer: fixed-size integer types, memset/memcpy/memcmp, errno
 * values, the uapi structs of <linux/videodev2.h> and LINUX_VERSION_CODE
 * (QUERYCAP's version). No other engine file includes a header from
 * outside engine/.
 */
#ifndef NEGCAM_COMPAT_H
#define NEGCAM_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/videodev2.h>
#include <linux/version.h>
#include <linux/math64.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <linux/types.h>
#include <linux/videodev2.h>
#include <linux/version.h>
#endif

/* 64-bit unsigned division that also links on 32-bit kernels. */
static inline __u64 nc_div_u64(__u64 a, __u32 b)
{
#ifdef __KERNEL__
	return div_u64(a, b);
#else
	return a / b;
#endif
}

/* The same by a 64-bit divisor. */
static inline __u64 nc_div64_u64(__u64 a, __u64 b)
{
#ifdef __KERNEL__
	return div64_u64(a, b);
#else
	return a / b;
#endif
}

#define NC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* NEGCAM_COMPAT_H */
