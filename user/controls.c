// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The controls and the input of a user-space device (see controls.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "controls.h"
#include "framegen.h"
#include "vbuf.h"

#define CLASS_FLAGS (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY)
const struct nc_ctrl nc_ctrls[NC_NCTRLS] = {
	/* sorted by id */
	{V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls", 0, 0, 0, CLASS_FLAGS},
	{V4L2_CID_MIN_BUFFERS_FOR_CAPTURE, V4L2_CTRL_TYPE_INTEGER, "Min Number of Capture Buffers",
	 NC_VB_MIN_BUFFERS, NC_VB_MIN_BUFFERS, NC_VB_MIN_BUFFERS, V4L2_CTRL_FLAG_READ_ONLY},
	{V4L2_CID_IMAGE_PROC_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "Image Processing Controls", 0, 0, 0,
	 CLASS_FLAGS},
	{V4L2_CID_TEST_PATTERN, V4L2_CTRL_TYPE_MENU, "Test Pattern", 0, NC_PATTERN_COUNT - 1, 0, 0},
};
static const char *const pattern_names[] = {"Colour Bars", "Gradient", "Solid Grey"};

const struct nc_ctrl *nc_ctrl_find(__u32 id)
{
	bool next = id & V4L2_CTRL_FLAG_NEXT_CTRL;
	unsigned int i;

	id &= ~(__u32)(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
	for (i = 0; i < NC_NCTRLS; i++)
		if (next ? nc_ctrls[i].id > id : nc_ctrls[i].id == id)
			return &nc_ctrls[i];
	return NULL;
}

static int query_ext(struct v4l2_query_ext_ctrl *q)
{
	const struct nc_ctrl *c = nc_ctrl_find(q->id);

	if (!c)
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	q->id = c->id;
	q->type = c->type;
	strncpy(q->name, c->name, sizeof(q->name) - 1);
	q->minimum = c->min;
	q->maximum = c->max;
	q->default_value = c->def;
	q->step = c->type == V4L2_CTRL_TYPE_CTRL_CLASS ? 0 : 1;
	q->flags = c->flags;
	q->elem_size = c->type == V4L2_CTRL_TYPE_CTRL_CLASS ? 0 : 4;
	q->elems = 1;
	return 0;
}

static int queryctrl(struct v4l2_queryctrl *q)
{
	struct v4l2_query_ext_ctrl x = {.id = q->id};
	int ret = query_ext(&x);

	if (ret)
		return ret;
	memset(q, 0, sizeof(*q));
	q->id = x.id;
	q->type = x.type;
	memcpy(q->name, x.name, sizeof(q->name));
	q->minimum = (__s32)x.minimum;
	q->maximum = (__s32)x.maximum;
	q->step = (__s32)x.step;
	q->default_value = (__s32)x.default_value;
	q->flags = x.flags;
	return 0;
}

static int querymenu(struct v4l2_querymenu *m)
{
	if (m->id != V4L2_CID_TEST_PATTERN || m->index >= NC_PATTERN_COUNT)
		return -EINVAL;
	memset(m->name, 0, sizeof(m->name));
	strncpy((char *)m->name, pattern_names[m->index], sizeof(m->name) - 1);
	m->reserved = 0;
	return 0;
}

static int input(unsigned long request, void *arg)
{
	struct v4l2_input *in = arg;

	if (request == VIDIOC_G_INPUT)
		*(__u32 *)arg = 0;
	if (request != VIDIOC_ENUMINPUT)
		return request == VIDIOC_S_INPUT && *(__u32 *)arg ? -EINVAL : 0;
	if (in->index)
		return -EINVAL;
	memset(in, 0, sizeof(*in));
	in->type = V4L2_INPUT_TYPE_CAMERA;
	strncpy((char *)in->name, "Camera", sizeof(in->name) - 1);
	return 0;
}

int nc_ctrl_query_ioctl(unsigned long request, void *arg)
{
	switch (request) {
	case VIDIOC_QUERYCTRL:
		return queryctrl(arg);
	case VIDIOC_QUERY_EXT_CTRL:
		return query_ext(arg);
	case VIDIOC_QUERYMENU:
		return querymenu(arg);
	case VIDIOC_ENUMINPUT:
	case VIDIOC_G_INPUT:
	case VIDIOC_S_INPUT:
		return input(request, arg);
	}
	return -ENOTTY;
}
