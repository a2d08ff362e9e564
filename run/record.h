/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What libnegcam-preload.so records for `negcam-run --each-profile`
 * (docs/matrix.md): per process image and node, the requests made, the
 * errors returned, the format reached and the frames delivered.
 *
 * With NEGCAM_RUN_RECORD=DIR, each process image that touches a node
 * writes DIR/rec-PID-K (K is the first free number, so an image started
 * by exec in the same process gets a file of its own), one struct
 * nc_record per node at offset node * sizeof(struct nc_record). The
 * record is rewritten at most once a second while only counts change
 * (DQBUF, QBUF, enumerations ...), at once when the format, the stage or
 * the streaming state changes, when a file of the node is closed and at
 * exit. So a process killed by a timeout leaves what it had done up to
 * its last second of counts. A forked child starts with zero counts.
 * The layout is shared by the library and negcam-run, built together:
 * not a stable format.
 */
#ifndef NEGCAM_RUN_RECORD_H
#define NEGCAM_RUN_RECORD_H

#include <stdint.h>

#include "engine.h"

#define NC_REC_MAGIC 0x3152434eu /* "NCR1" */
#define NC_REC_NR 128 /* counts by _IOC_NR of the 'V' requests */

/* How far the format went; the runner keeps the furthest, then the latest. */
enum nc_rec_stage {
	NC_REC_NONE,
	NC_REC_OPENED, /* the format the node had when opened */
	NC_REC_SET, /* after a successful S_FMT or S_PARM */
	NC_REC_STREAMED, /* at STREAMON, or the first read() */
};

struct nc_record {
	uint32_t magic, node, stage;
	uint64_t when_ns; /* CLOCK_MONOTONIC when the format below was taken */
	struct v4l2_pix_format pix;
	struct v4l2_fract interval; /* time per frame */
	uint64_t frames; /* DQBUF and read() that returned a frame */
	/* Errors returned, without EAGAIN and without the EINVAL that ends an
	 * enumeration (ENUM_*, QUERYCTRL, QUERYMENU...). */
	uint32_t einval, ebusy, enotty, other;
	uint32_t requests, before_stream; /* all ioctls; those before the first STREAMON */
	uint32_t foreign; /* ioctls that are not 'V' requests */
	uint32_t count[NC_REC_NR], count_before[NC_REC_NR];
	uint32_t request[NC_REC_NR]; /* the request seen at each number, for its name */
};

/* The library's side, under nc_lock; each does nothing without NEGCAM_RUN_RECORD. */
void nc_record_open(int node);
/* @ret: the ioctl's result, or -errno. */
void nc_record_ioctl(int node, unsigned long request, int ret);
/* @ret: read()'s result, or -errno. */
void nc_record_read(int node, long ret);
/* A file of @node was closed: the counts not yet written, now. */
void nc_record_close(int node);
/* In a forked child: a file of its own, counts from zero. */
void nc_record_forget(void);

#endif /* NEGCAM_RUN_RECORD_H */
