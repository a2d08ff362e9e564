// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-ctl --all and --list-devices: what v4l2-ctl 1.22.1 prints for
 * "--all" and "--list-devices" (utils/v4l2-ctl/v4l2-ctl.cpp, -common.cpp,
 * -io.cpp, -misc.cpp), built from the answers a device on this engine
 * gives. The format requests go to the engine; the controls and the input
 * are user/controls.c's, which libnegcam-preload.so answers with; the
 * priority is that of the one file open (V4L2_PRIORITY_DEFAULT, as a
 * program that never calls S_PRIORITY sees). negcam-ctl sets no control,
 * so every control shows its default value.
 *
 * As "v4l2-ctl --all", a request the device does not answer prints
 * nothing (the tool is silent for --all), so a capture-only profile has
 * no output blocks and an output-only one no capture blocks.
 */
#include <errno.h>
#include <string.h>

#include "controls.h"
#include "ctl.h"

/* The device's answer to @request: the engine's, or the user-space layer's. */
static int device_ioctl(struct ctl *c, unsigned long request, void *arg)
{
	if (request == VIDIOC_G_PRIORITY) {
		*(__u32 *)arg = V4L2_PRIORITY_DEFAULT;
		return 0;
	}
	if (nc_ctrl_query_ioctl(request, arg) != -ENOTTY)
		return nc_ctrl_query_ioctl(request, arg);
	return ctl_ioctl(c, request, arg);
}

static void print_input(struct ctl *c)
{
	struct v4l2_input in;
	__u32 index;

	if (device_ioctl(c, VIDIOC_G_INPUT, &index))
		return;
	printf("Video input : %u", index);
	memset(&in, 0, sizeof(in));
	in.index = index;
	if (!device_ioctl(c, VIDIOC_ENUMINPUT, &in)) {
		printf(" (%.32s: ", (const char *)in.name);
		if (in.status)
			printf("0x%08x)", in.status); /* negcam's input has no status bits */
		else
			printf("ok)");
	}
	printf("\n");
}

static void print_fmt(struct ctl *c, __u32 type)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = type;
	f.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	if (!device_ioctl(c, VIDIOC_G_FMT, &f))
		ctl_print_fmt(c, &f);
}

static void print_parm(struct ctl *c, __u32 type)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	if (!device_ioctl(c, VIDIOC_G_PARM, &p))
		ctl_print_parm(&p);
}

/* v4l2-ctl's name2var(): "Min Number of Capture Buffers" -> min_number_of_capture_buffers. */
static void ctrl_var_name(const char *name, char *out, size_t len)
{
	size_t n = 0;
	bool gap = false;

	for (; *name && n + 2 < len; name++) {
		if ((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		    (*name >= '0' && *name <= '9')) {
			if (gap)
				out[n++] = '_';
			gap = false;
			out[n++] = (char)(*name | (*name >= 'A' && *name <= 'Z' ? 0x20 : 0));
		} else if (n) {
			gap = true;
		}
	}
	out[n] = '\0';
}

static const struct ctl_flag ctrl_flags[] = {
	{V4L2_CTRL_FLAG_GRABBED, "grabbed"},
	{V4L2_CTRL_FLAG_DISABLED, "disabled"},
	{V4L2_CTRL_FLAG_READ_ONLY, "read-only"},
	{V4L2_CTRL_FLAG_UPDATE, "update"},
	{V4L2_CTRL_FLAG_INACTIVE, "inactive"},
	{V4L2_CTRL_FLAG_SLIDER, "slider"},
	{V4L2_CTRL_FLAG_WRITE_ONLY, "write-only"},
	{V4L2_CTRL_FLAG_VOLATILE, "volatile"},
	{V4L2_CTRL_FLAG_HAS_PAYLOAD, "has-payload"},
	{V4L2_CTRL_FLAG_EXECUTE_ON_WRITE, "execute-on-write"},
	{V4L2_CTRL_FLAG_MODIFY_LAYOUT, "modify-layout"},
	{0, NULL},
};

/* The menu entry @index of control @id into @m; 0 or -errno. */
static int menu_entry(struct ctl *c, __u32 id, __u32 index, struct v4l2_querymenu *m)
{
	memset(m, 0, sizeof(*m));
	m->id = id;
	m->index = index;
	return device_ioctl(c, VIDIOC_QUERYMENU, m);
}

/* One control's line (print_qctrl() with menus), the types negcam has. */
static void print_ctrl(struct ctl *c, const struct v4l2_query_ext_ctrl *q, __s32 value)
{
	struct v4l2_querymenu m;
	char var[64];
	__s64 i;

	ctrl_var_name(q->name, var, sizeof(var));
	if (q->type == V4L2_CTRL_TYPE_INTEGER)
		printf("%31s %#8.8x (int)    : min=%lld max=%lld step=%llu default=%lld", var,
		       q->id, (long long)q->minimum, (long long)q->maximum,
		       (unsigned long long)q->step, (long long)q->default_value);
	else if (q->type == V4L2_CTRL_TYPE_MENU)
		printf("%31s %#8.8x (menu)   : min=%lld max=%lld default=%lld", var, q->id,
		       (long long)q->minimum, (long long)q->maximum, (long long)q->default_value);
	else
		printf("%31s %#8.8x (unknown): type=%x", var, q->id, q->type);
	if (q->type == V4L2_CTRL_TYPE_MENU && !menu_entry(c, q->id, (__u32)value, &m))
		printf(" value=%d (%.32s)", value, (const char *)m.name);
	else
		printf(" value=%d", value);
	if (q->flags) {
		printf(" flags=");
		ctl_print_flags(q->flags, ctrl_flags);
	}
	printf("\n");
	for (i = q->minimum; q->type == V4L2_CTRL_TYPE_MENU && i <= q->maximum; i++)
		if (!menu_entry(c, q->id, (__u32)i, &m))
			printf("\t\t\t\t%lld: %.32s\n", (long long)i, (const char *)m.name);
}

/* --list-ctrls-menus: every control by V4L2_CTRL_FLAG_NEXT_CTRL, classes as headings. */
static void print_ctrls(struct ctl *c)
{
	struct v4l2_query_ext_ctrl q;
	const struct nc_ctrl *nc;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	while (!device_ioctl(c, VIDIOC_QUERY_EXT_CTRL, &q)) {
		bool shown = !(q.flags & V4L2_CTRL_FLAG_DISABLED);

		if (shown && q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
			printf("\n%.32s\n\n", q.name);
		else if (shown && (nc = nc_ctrl_find(q.id)))
			print_ctrl(c, &q, nc->def); /* nothing sets a control here */
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
}

void ctl_all(struct ctl *c)
{
	struct v4l2_capability cap;
	__u32 prio;

	memset(&cap, 0, sizeof(cap));
	if (!device_ioctl(c, VIDIOC_QUERYCAP, &cap))
		ctl_print_querycap(&cap);
	if (!device_ioctl(c, VIDIOC_G_PRIORITY, &prio))
		printf("Priority: %u\n", prio);
	print_input(c);
	/* the profile's format types (_MPLANE for a multiplanar profile); the
	 * rate with the single-planar types, as v4l2-ctl 1.22 asks it */
	print_fmt(c, negcam_engine_buf_type(c->engine.profile, NC_CAPTURE));
	print_fmt(c, negcam_engine_buf_type(c->engine.profile, NC_OUTPUT));
	print_parm(c, V4L2_BUF_TYPE_VIDEO_CAPTURE);
	print_parm(c, V4L2_BUF_TYPE_VIDEO_OUTPUT);
	print_ctrls(c);
}

void ctl_list_devices(struct ctl *c, const char *node)
{
	struct v4l2_capability cap;

	memset(&cap, 0, sizeof(cap));
	if (device_ioctl(c, VIDIOC_QUERYCAP, &cap))
		return;
	printf("%.32s (%.32s):\n\t%s\n\n", (const char *)cap.card, (const char *)cap.bus_info,
	       node);
}
