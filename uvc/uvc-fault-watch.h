/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * negcam-uvc's faults control file (--faults FILE, docs/faults.md,
 * "Switching faults while streaming"): user/fault-file.c says whether FILE
 * appeared, changed or went, this file puts its list on the device's
 * stream (nc_uvc_stream_set_faults), or the profile's back when FILE is
 * gone. Looked at no more than every NC_UVC_FAULTS_CHECK_NS, from the
 * serving session's stop hook (negcam-uvc.c wakes the session with a
 * timer for it). The caller holds whatever lock guards the device.
 */
#ifndef NEGCAM_UVC_FAULT_WATCH_H
#define NEGCAM_UVC_FAULT_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "fault-file.h"
#include "uvc-device.h"

#define NC_UVC_FAULTS_CHECK_NS 100000000ull

struct nc_uvc_fault_watch {
	struct nc_fault_file file;
	uint64_t next_ns; /* not looked at again before this */
};

/*
 * Start watching @path for @dev at @now_ns: FILE's list in force at once
 * when it is there. 0, or -EINVAL when it is there and does not parse
 * (@msg "FILE:LINE:COL: ..."; the program then exits 2).
 */
int nc_uvc_fault_watch_init(struct nc_uvc_fault_watch *w, const char *path,
			    struct nc_uvc_dev *dev, uint64_t now_ns, char *msg, size_t msglen);

/*
 * Look at FILE when NC_UVC_FAULTS_CHECK_NS have passed since the last
 * look. 0: as before; 1: @dev's faults changed, @msg says whose ("faults
 * from FILE" or "faults from the profile"); -EINVAL: FILE changed to a
 * list that does not parse, said in @msg once, nothing changed.
 */
int nc_uvc_fault_watch_poll(struct nc_uvc_fault_watch *w, struct nc_uvc_dev *dev,
			    uint64_t now_ns, char *msg, size_t msglen);

#endif /* NEGCAM_UVC_FAULT_WATCH_H */
