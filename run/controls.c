// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libnegcam-preload.so: the controls, input and priorities negcam.ko
 * has (kmod/negcam-vid.c), answered as the kernel's control framework
 * would. The controls and the input themselves are user/controls.c's
 * data (negcam-ctl --all prints the same); here their values, events and
 * the open files' priorities.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>

#include "controls.h"
#include "preload.h"

/* One control's value: get (@set false) or check and, when @commit, set. */
static int ctrl_value(struct nc_node *n, __u32 id, __s32 *val, bool set, bool commit, bool def)
{
	const struct nc_ctrl *c = nc_ctrl_find(id);

	if (!c || (id & V4L2_CTRL_FLAG_NEXT_CTRL))
		return -EINVAL;
	if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS)
		return -EACCES;
	if (!set) {
		*val = def ? c->def : c->id == V4L2_CID_TEST_PATTERN ? n->pattern : c->def;
		return 0;
	}
	if (c->flags & V4L2_CTRL_FLAG_READ_ONLY)
		return -EACCES;
	if (*val < c->min || *val > c->max)
		return -ERANGE;
	if (commit) {
		n->pattern = *val;
		nc_vbq_set_pattern(&n->vbq, (__u32)*val);
	}
	return 0;
}

static int ext_ctrls(struct nc_node *n, unsigned long request, struct v4l2_ext_controls *x)
{
	bool set = request != VIDIOC_G_EXT_CTRLS, def = x->which == V4L2_CTRL_WHICH_DEF_VAL;
	unsigned int pass, i;
	int ret;

	if (x->which != V4L2_CTRL_WHICH_CUR_VAL && !def &&
	    x->which != V4L2_CTRL_ID2WHICH(V4L2_CID_USER_CLASS) &&
	    x->which != V4L2_CTRL_ID2WHICH(V4L2_CID_IMAGE_PROC_CLASS))
		return -EINVAL;
	if (set && def)
		return -EINVAL;
	if (x->count && !x->controls)
		return -EFAULT;
	x->error_idx = x->count;
	/* all or nothing: check every value first, then commit (S_EXT_CTRLS) */
	for (pass = 0; pass < (request == VIDIOC_S_EXT_CTRLS ? 2u : 1u); pass++)
		for (i = 0; i < x->count; i++) {
			struct v4l2_ext_control *c = &x->controls[i];

			if (x->which != V4L2_CTRL_WHICH_CUR_VAL && !def &&
			    V4L2_CTRL_ID2WHICH(c->id) != x->which)
				ret = -EINVAL;
			else {
				__s32 v = c->value;

				ret = ctrl_value(n, c->id, &v, set, pass == 1, def);
				c->value = v;
			}
			if (ret) {
				/* as the control framework: G and S check the whole
				 * list before touching any value and report count */
				x->error_idx = request == VIDIOC_TRY_EXT_CTRLS ? i : x->count;
				return ret;
			}
		}
	return 0;
}

__u32 nc_max_priority(const struct nc_node *n)
{
	__u32 i;

	for (i = V4L2_PRIORITY_RECORD; i > V4L2_PRIORITY_BACKGROUND; i--)
		if (n->priority[i])
			return i;
	return V4L2_PRIORITY_BACKGROUND;
}

/* ---- events: control changes and source change, no POLLPRI ---- */

static void queue_event(struct nc_file *f, const struct v4l2_event *ev)
{
	struct v4l2_event *e;

	if (f->nev == NC_RUN_MAX_EVENTS) { /* the oldest is lost, as the kernel does */
		f->ev_head = (f->ev_head + 1) % NC_RUN_MAX_EVENTS;
		f->nev--;
	}
	e = &f->ev[(f->ev_head + f->nev++) % NC_RUN_MAX_EVENTS];
	*e = *ev;
	e->sequence = f->ev_seq++;
}

static void ctrl_event(const struct nc_node *n, const struct nc_ctrl *c, struct v4l2_event *ev)
{
	struct timespec t;

	memset(ev, 0, sizeof(*ev));
	ev->type = V4L2_EVENT_CTRL;
	ev->id = c->id;
	ev->u.ctrl.changes = V4L2_EVENT_CTRL_CH_VALUE | V4L2_EVENT_CTRL_CH_FLAGS;
	ev->u.ctrl.type = c->type;
	ev->u.ctrl.value = c->id == V4L2_CID_TEST_PATTERN ? n->pattern : c->def;
	ev->u.ctrl.flags = c->flags;
	ev->u.ctrl.minimum = c->min;
	ev->u.ctrl.maximum = c->max;
	ev->u.ctrl.step = c->type == V4L2_CTRL_TYPE_CTRL_CLASS ? 0 : 1;
	ev->u.ctrl.default_value = c->def;
	clock_gettime(CLOCK_MONOTONIC, &t);
	ev->timestamp = t;
}

static int subscribe(struct nc_node *n, struct nc_file *f, unsigned long request,
		     struct v4l2_event_subscription *sub)
{
	const struct nc_ctrl *c = sub->type == V4L2_EVENT_CTRL ? nc_ctrl_find(sub->id) : NULL;
	unsigned int bit = c ? (unsigned int)(c - nc_ctrls) : NC_NCTRLS;
	struct v4l2_event ev;

	if (request == VIDIOC_UNSUBSCRIBE_EVENT && sub->type == V4L2_EVENT_ALL) {
		f->subs = 0;
		return 0;
	}
	if ((sub->type == V4L2_EVENT_CTRL && (!c || (sub->id & V4L2_CTRL_FLAG_NEXT_CTRL))) ||
	    (sub->type == V4L2_EVENT_SOURCE_CHANGE && sub->id) ||
	    (sub->type != V4L2_EVENT_CTRL && sub->type != V4L2_EVENT_SOURCE_CHANGE))
		return -EINVAL;
	if (request == VIDIOC_UNSUBSCRIBE_EVENT) {
		f->subs &= ~(1u << bit);
		return 0;
	}
	f->subs |= 1u << bit;
	f->feedback = sub->flags & V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK;
	if (c && (sub->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL) &&
	    !(c->flags & V4L2_CTRL_FLAG_WRITE_ONLY)) {
		ctrl_event(n, c, &ev);
		queue_event(f, &ev);
	}
	return 0;
}

static int dqevent(struct nc_file *f, struct v4l2_event *ev)
{
	if (!f->nev)
		return -ENOENT; /* never blocks: no POLLPRI to wait on */
	*ev = f->ev[f->ev_head];
	f->ev_head = (f->ev_head + 1) % NC_RUN_MAX_EVENTS;
	ev->pending = --f->nev;
	return 0;
}

void nc_events_source_change(struct nc_node *n)
{
	struct v4l2_event ev;
	unsigned int i;

	memset(&ev, 0, sizeof(ev));
	ev.type = V4L2_EVENT_SOURCE_CHANGE;
	ev.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION;
	clock_gettime(CLOCK_MONOTONIC, &ev.timestamp);
	for (i = 0; i < NC_RUN_MAX_FILES; i++) {
		struct nc_file *f = nc_file_at(i);

		if (f && f->node == (int)(n - nc_nodes) && (f->subs & (1u << NC_NCTRLS)))
			queue_event(f, &ev);
	}
}

/* The test pattern changed: tell every subscriber (@from only with feedback). */
static void pattern_changed(struct nc_node *n, struct nc_file *from)
{
	unsigned int bit = NC_NCTRLS - 1, i;
	struct v4l2_event ev;

	ctrl_event(n, &nc_ctrls[bit], &ev);
	ev.u.ctrl.changes = V4L2_EVENT_CTRL_CH_VALUE;
	for (i = 0; i < NC_RUN_MAX_FILES; i++) {
		struct nc_file *f = nc_file_at(i);

		if (f && f->node == (int)(n - nc_nodes) && (f->subs & (1u << bit)) &&
		    (f != from || f->feedback))
			queue_event(f, &ev);
	}
}

static int prio(struct nc_node *n, struct nc_file *f, unsigned long request, __u32 *p)
{
	__u32 max = nc_max_priority(n);

	if (request == VIDIOC_G_PRIORITY) {
		*p = max;
		return 0;
	}
	if (*p == V4L2_PRIORITY_UNSET)
		*p = V4L2_PRIORITY_DEFAULT;
	if (*p > V4L2_PRIORITY_RECORD)
		return -EINVAL;
	n->priority[f->prio]--;
	f->prio = *p;
	n->priority[f->prio]++;
	return 0;
}

int nc_controls_ioctl(struct nc_node *n, struct nc_file *f, unsigned long request, void *arg)
{
	struct v4l2_control *c = arg;

	switch (request) {
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	case VIDIOC_QUERYMENU:
	case VIDIOC_ENUMINPUT:
	case VIDIOC_G_INPUT:
	case VIDIOC_S_INPUT:
		return nc_ctrl_query_ioctl(request, arg);
	case VIDIOC_G_CTRL:
		return ctrl_value(n, c->id, &c->value, false, false, false);
	case VIDIOC_S_CTRL:
	case VIDIOC_S_EXT_CTRLS: {
		__s32 before = n->pattern;
		int ret = request == VIDIOC_S_CTRL
				  ? ctrl_value(n, c->id, &c->value, true, true, false)
				  : ext_ctrls(n, request, arg);

		if (!ret && n->pattern != before)
			pattern_changed(n, f);
		return ret;
	}
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		return ext_ctrls(n, request, arg);
	case VIDIOC_SUBSCRIBE_EVENT:
	case VIDIOC_UNSUBSCRIBE_EVENT:
		return subscribe(n, f, request, arg);
	case VIDIOC_DQEVENT:
		return dqevent(f, arg);
	case VIDIOC_G_PRIORITY:
	case VIDIOC_S_PRIORITY:
		return prio(n, f, request, arg);
	case VIDIOC_LOG_STATUS:
		return 0;
	}
	return -ENOTTY;
}

bool nc_events_pending(int fd)
{
	struct nc_file *f;
	unsigned int i;
	bool any = false;

	pthread_mutex_lock(&nc_lock);
	for (i = 0; i < NC_RUN_MAX_FILES && !any; i++)
		any = (f = nc_file_at(i)) && f->nev && nc_node_of_fd(fd) == f->node &&
		      nc_file_of_fd(fd) == f;
	pthread_mutex_unlock(&nc_lock);
	return any;
}
