/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The controls and the one input negcam.ko has (kmod/negcam-vid.c), as
 * data, for the user-space programs that answer for a device:
 * libnegcam-preload.so (run/controls.c adds values, events and
 * priorities) and negcam-ctl (--all prints them as v4l2-ctl does). The
 * class controls, V4L2_CID_MIN_BUFFERS_FOR_CAPTURE (read-only, 3) and
 * V4L2_CID_TEST_PATTERN (a menu of the frame generator's patterns).
 */
#ifndef NEGCAM_USER_CONTROLS_H
#define NEGCAM_USER_CONTROLS_H

#include <linux/videodev2.h>

struct nc_ctrl {
	__u32 id, type;
	const char *name;
	__s32 min, max, def;
	__u32 flags;
};

#define NC_NCTRLS 4
/* Sorted by id. */
extern const struct nc_ctrl nc_ctrls[NC_NCTRLS];

/* The control @id, or with V4L2_CTRL_FLAG_NEXT_CTRL the first after it; NULL. */
const struct nc_ctrl *nc_ctrl_find(__u32 id);

/*
 * The requests that only read this data, answered as the kernel's control
 * framework and a one-input driver do: VIDIOC_QUERY_EXT_CTRL, _QUERYCTRL,
 * _QUERYMENU, _ENUMINPUT, _G_INPUT, _S_INPUT. 0 or -errno; -ENOTTY for
 * any other request.
 */
int nc_ctrl_query_ioctl(unsigned long request, void *arg);

#endif /* NEGCAM_USER_CONTROLS_H */
