// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The faults control file on negcam-uvc's stream (uvc-fault-watch.h):
 * user/fault-file.c's look at FILE, its list copied onto the stream.
 */
#include <errno.h>
#include <stdio.h>

#include "uvc-fault-watch.h"

/* After a look that saw a change: the stream takes FILE's list or the profile's. */
static int take(struct nc_uvc_fault_watch *w, struct nc_uvc_dev *dev, char *msg, size_t msglen)
{
	if (w->file.present && !w->file.ok)
		return -EINVAL; /* @msg has FILE:LINE:COL */
	nc_uvc_stream_set_faults(dev, w->file.present ? &w->file.faults : NULL);
	snprintf(msg, msglen, "faults from %s", w->file.present ? w->file.path : "the profile");
	return 1;
}

int nc_uvc_fault_watch_init(struct nc_uvc_fault_watch *w, const char *path,
			    struct nc_uvc_dev *dev, uint64_t now_ns, char *msg, size_t msglen)
{
	*w = (struct nc_uvc_fault_watch){ .file.path = path };
	w->next_ns = now_ns + NC_UVC_FAULTS_CHECK_NS;
	if (!nc_fault_file_check(&w->file, msg, msglen))
		return 0; /* not there: the profile's faults */
	return take(w, dev, msg, msglen) < 0 ? -EINVAL : 0;
}

int nc_uvc_fault_watch_poll(struct nc_uvc_fault_watch *w, struct nc_uvc_dev *dev,
			    uint64_t now_ns, char *msg, size_t msglen)
{
	if (now_ns < w->next_ns)
		return 0;
	w->next_ns = now_ns + NC_UVC_FAULTS_CHECK_NS;
	if (!nc_fault_file_check(&w->file, msg, msglen))
		return 0;
	return take(w, dev, msg, msglen);
}
