// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The request record of libnegcam-preload.so (record.h): counts and
 * formats per node, written to NEGCAM_RUN_RECORD's directory for
 * `negcam-run --each-profile`. Every function is called under nc_lock
 * (nc_record_exit takes it itself). Without NEGCAM_RUN_RECORD nothing is
 * counted or written.
 *
 * The counts live in memory and reach the file at most once per
 * NC_REC_PERIOD_NS of counted calls, and at once on what the table shows
 * apart from counts: the first open, a format or rate set, STREAMON and
 * STREAMOFF, the first read(), a file of the node closed, and the exit of
 * the process image. A DQBUF costs no system call of its own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "preload.h"
#include "record.h"

#define NC_REC_PERIOD_NS 1000000000ull

static struct nc_record recs[NC_RUN_MAX_NODES];
static bool streamed[NC_RUN_MAX_NODES];
static bool dirty[NC_RUN_MAX_NODES];          /* counts the file lacks */
static uint64_t written_ns[NC_RUN_MAX_NODES]; /* CLOCK_MONOTONIC of the last write */
static int rec_state; /* 0: not looked yet, 1: recording, -1: off or failed */
static char rec_path[4096];
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);

/* Requests whose EINVAL ends an enumeration rather than refusing something. */
static const unsigned long enumerations[] = {
	VIDIOC_ENUM_FMT,       VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS,
	VIDIOC_ENUMINPUT,      VIDIOC_ENUMOUTPUT,      VIDIOC_ENUMSTD,
	VIDIOC_ENUMAUDIO,      VIDIOC_ENUMAUDOUT,      VIDIOC_QUERYCTRL,
	VIDIOC_QUERY_EXT_CTRL, VIDIOC_QUERYMENU,       VIDIOC_ENUM_DV_TIMINGS,
};

/* Creates DIR/rec-PID-K, the first K free, into rec_path: 0 or -1. libc's
 * openat and close, as the interposers would take nc_lock, which the
 * caller holds. */
static int record_file(void)
{
	const char *dir = getenv("NEGCAM_RUN_RECORD");
	unsigned int k;
	int fd = -1;

	if (!dir || !*dir)
		return -1;
	real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (!real_openat || !real_close)
		return -1;
	for (k = 0; k < 1000; k++) {
		snprintf(rec_path, sizeof(rec_path), "%s/rec-%ld-%u", dir, (long)getpid(), k);
		fd = real_openat(AT_FDCWD, rec_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		fprintf(stderr, "libnegcam-preload: NEGCAM_RUN_RECORD %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	real_close(fd);
	return 0;
}

/* The record of @node when recording, else NULL. */
static struct nc_record *record_of(int node)
{
	struct nc_record *r;

	if (rec_state == 0)
		rec_state = record_file() ? -1 : 1;
	if (rec_state < 0 || node < 0 || node >= NC_RUN_MAX_NODES)
		return NULL;
	r = &recs[node];
	r->magic = NC_REC_MAGIC;
	r->node = (uint32_t)node;
	return r;
}

/* Opened for each write: a descriptor kept open could be closed by the
 * program (closefrom, close_range) and its number reused for another file. */
static void record_write(const struct nc_record *r)
{
	int fd = real_openat(AT_FDCWD, rec_path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return; /* a record that cannot be written is missing from the table */
	n = pwrite(fd, r, sizeof(*r), (off_t)(r->node * sizeof(*r)));
	(void)n;
	real_close(fd);
}

static uint64_t mono_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* @r changed: written @now, else when a period has passed since the last write. */
static void record_changed(struct nc_record *r, bool now)
{
	uint64_t t = mono_ns();

	dirty[r->node] = true;
	if (!now && t - written_ns[r->node] < NC_REC_PERIOD_NS)
		return;
	record_write(r);
	written_ns[r->node] = t;
	dirty[r->node] = false;
}

/* The node's current format and rate, reached at @stage. */
static void record_format(struct nc_record *r, enum nc_rec_stage stage)
{
	const struct negcam_engine *e = &nc_nodes[r->node].engine;
	__u32 type = negcam_engine_buf_type(e->profile, NC_CAPTURE);
	struct v4l2_streamparm p = {.type = type};

	r->pix = *negcam_engine_fmt(e, NC_CAPTURE); /* single-planar view, either kind */
	if (!negcam_engine_g_parm(e, &p))
		r->interval = p.parm.capture.timeperframe;
	if (stage > r->stage)
		r->stage = stage;
	r->when_ns = mono_ns();
}

static void record_error(struct nc_record *r, unsigned long request, int err)
{
	unsigned int i;

	if (err == EAGAIN)
		return;
	for (i = 0; err == EINVAL && i < sizeof(enumerations) / sizeof(enumerations[0]); i++)
		if (enumerations[i] == request)
			return;
	if (err == EINVAL)
		r->einval++;
	else if (err == EBUSY)
		r->ebusy++;
	else if (err == ENOTTY)
		r->enotty++;
	else
		r->other++;
}

void nc_record_open(int node)
{
	struct nc_record *r = record_of(node);

	if (!r)
		return;
	record_format(r, NC_REC_OPENED);
	record_changed(r, true);
}

void nc_record_ioctl(int node, unsigned long request, int ret)
{
	struct nc_record *r = record_of(node);
	unsigned int nr = _IOC_NR(request);
	bool v4l2 = _IOC_TYPE(request) == 'V' && nr < NC_REC_NR;
	bool now = ret >= 0 && (request == VIDIOC_S_FMT || request == VIDIOC_S_PARM ||
				request == VIDIOC_STREAMON || request == VIDIOC_STREAMOFF);

	if (!r)
		return;
	if (ret < 0)
		record_error(r, request, -ret);
	else if (request == VIDIOC_S_FMT || request == VIDIOC_S_PARM)
		record_format(r, NC_REC_SET);
	else if (request == VIDIOC_DQBUF)
		r->frames++;
	if (ret >= 0 && request == VIDIOC_STREAMON && !streamed[node]) {
		record_format(r, NC_REC_STREAMED);
		streamed[node] = true;
	}
	r->requests++;
	r->foreign += !v4l2;
	if (v4l2) {
		r->count[nr]++;
		r->request[nr] = (uint32_t)request;
	}
	if (!streamed[node]) {
		r->before_stream++;
		if (v4l2)
			r->count_before[nr]++;
	}
	record_changed(r, now);
}

void nc_record_read(int node, long ret)
{
	struct nc_record *r = record_of(node);
	bool first = ret >= 0 && r && !streamed[node];

	if (!r)
		return;
	if (ret < 0) {
		record_error(r, 0, (int)-ret);
	} else {
		r->frames++;
		if (first)
			record_format(r, NC_REC_STREAMED);
		streamed[node] = true;
	}
	record_changed(r, first);
}

void nc_record_close(int node)
{
	if (rec_state > 0 && node >= 0 && node < NC_RUN_MAX_NODES && dirty[node])
		record_changed(&recs[node], true);
}

/*
 * At exit (exit() or a return from main; not _exit, a signal or exec):
 * what the last period counted. Without waiting for nc_lock, which a
 * thread stopped inside a call may hold: a count may then miss that call.
 */
static void __attribute__((destructor)) nc_record_exit(void)
{
	bool locked = pthread_mutex_trylock(&nc_lock) == 0;
	int i;

	for (i = 0; i < NC_RUN_MAX_NODES; i++)
		nc_record_close(i);
	if (locked)
		pthread_mutex_unlock(&nc_lock);
}

void nc_record_forget(void)
{
	unsigned int i;

	rec_state = 0; /* the child's own file, made on its first counted call */
	memset(dirty, 0, sizeof(dirty));
	memset(written_ns, 0, sizeof(written_ns));
	for (i = 0; i < NC_RUN_MAX_NODES; i++) {
		struct nc_record keep = recs[i]; /* the format carries over, the counts not */

		memset(&recs[i], 0, sizeof(recs[i]));
		recs[i].pix = keep.pix;
		recs[i].interval = keep.interval;
		recs[i].stage = keep.stage;
		recs[i].when_ns = keep.when_ns;
	}
}
