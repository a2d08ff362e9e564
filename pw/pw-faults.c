// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Faults on the PipeWire node (docs/faults.md, docs/pipewire.md): the
 * engine decides (engine/fault.c, the same seeded decisions negcam-run,
 * negcamsrc and negcam.ko take), this file applies them to the node:
 * - drop: the frame's number is used up and no buffer carries it, a gap
 *   in spa_meta_header.seq (and in the frame stamps);
 * - error: the buffer is delivered with SPA_CHUNK_FLAG_CORRUPTED on its
 *   chunk and SPA_META_HEADER_FLAG_CORRUPTED in its header (picture drawn);
 * - corrupt, truncate: an MJPEG/JPEG/H.264 payload damaged after drawing
 *   (the chunk's size is cut for truncate);
 * - timestamp-jump: the jump is added to spa_meta_header.pts;
 * - stall and rate: the ticks of pw-frames.c's timer deliver nothing
 *   during a stall; the timer runs at the fault rate when it is slower;
 * - source change: the engine's format becomes the new size, the node's
 *   EnumFormat offers that size only (pw_stream_update_params), PipeWire
 *   renegotiates the link and the consumer gets the new Format; no frame
 *   until that Format is set;
 * - unplug: the node is destroyed while streaming; negcam-pw serves on
 *   without it until the control file changes (a replug) or a signal.
 * The faults are the profile's, or those of the control file (--faults
 * FILE, negcam-run's, read by user/fault-file.c): looked at every
 * NCPW_FAULTS_CHECK_MS on the main loop; when it appears,
 * changes or goes, the node takes its faults (or the profile's) and
 * counts time from then on. A list that does not parse is said once,
 * with FILE:LINE:COL, and changes nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <spa/buffer/buffer.h>
#include <spa/buffer/meta.h>
#include <spa/pod/builder.h>

#include "fault-file.h"
#include "fault.h"
#include "negcam-pw.h"

#define NCPW_FAULTS_CHECK_MS 100

struct ncpw_faults {
	struct negcam_faults set; /* in force: the profile's or the file's */
	struct negcam_fault_state state;
	uint64_t t0_ns; /* time counts from here: the first tick after they were set */
	struct negcam_fault_frame next; /* decided at the tick, applied to its frame */
	bool source_changed; /* waiting for the consumer's new Format */
	uint64_t formats_at_change; /* app->count.formats when the size changed */

	/* the control file (user/fault-file.c) */
	struct spa_source *watch;
	struct nc_fault_file file;

	/* what was done, for the report */
	uint64_t lost, flagged, damaged, stalled, changes, unplugs;
};

uint64_t ncpw_faults_period(struct ncpw *app, uint64_t period_ns)
{
	return app->faults ? negcam_fault_interval_ns(&app->faults->set, period_ns) : period_ns;
}

/* The frames' timer at the (fault) rate, while streaming: after the faults changed. */
static void ncpw_faults_rearm(struct ncpw *app)
{
	struct timespec first = {0, 1}, every;
	uint64_t ns;

	if (!app->streaming || !app->interval.denominator)
		return;
	ns = (uint64_t)app->interval.numerator * SPA_NSEC_PER_SEC / app->interval.denominator;
	app->period_ns = ncpw_faults_period(app, ns);
	every.tv_sec = (time_t)(app->period_ns / SPA_NSEC_PER_SEC);
	every.tv_nsec = (long)(app->period_ns % SPA_NSEC_PER_SEC);
	pw_loop_update_timer(pw_main_loop_get_loop(app->loop), app->timer, &first, &every, false);
}

/* @set in force from now on: the one-shot faults may happen again, time counts afresh. */
static void ncpw_faults_take(struct ncpw *app, const struct negcam_faults *set)
{
	struct ncpw_faults *f = app->faults;

	f->set = *set;
	memset(&f->state, 0, sizeof(f->state));
	f->t0_ns = 0;
	ncpw_faults_rearm(app);
	if (app->unplugged && app->plug) { /* plugged back in */
		app->unplugged = false;
		fprintf(stderr, "negcam-pw: the faults changed: the node is published again\n");
		app->plug(app, true);
	}
}

/* Look at the control file; 0, or -EINVAL (said) when it is there and does not parse. */
static int ncpw_faults_check(struct ncpw *app)
{
	struct nc_fault_file *ff = &app->faults->file;
	char msg[512];

	if (!nc_fault_file_check(ff, msg, sizeof(msg)))
		return ff->ok || !ff->present ? 0 : -EINVAL;
	if (ff->present && !ff->ok) {
		fprintf(stderr, "negcam-pw: %s (faults unchanged)\n", msg);
		return -EINVAL;
	}
	ncpw_faults_take(app, ff->present ? &ff->faults : &app->profile->faults);
	fprintf(stderr, "negcam-pw: faults from %s\n", ff->present ? ff->path : "the profile");
	return 0;
}

static void ncpw_faults_on_watch(void *data, uint64_t expirations)
{
	ncpw_faults_check(data);
}

int ncpw_faults_init(struct ncpw *app)
{
	struct timespec every = {0, NCPW_FAULTS_CHECK_MS * 1000000L};

	app->faults = calloc(1, sizeof(*app->faults));
	if (!app->faults)
		return -ENOMEM;
	app->faults->set = app->profile->faults;
	app->faults->file.path = app->faults_path;
	if (!app->faults_path)
		return 0;
	if (ncpw_faults_check(app) < 0)
		return -EINVAL;
	app->faults->watch =
		pw_loop_add_timer(pw_main_loop_get_loop(app->loop), ncpw_faults_on_watch, app);
	if (!app->faults->watch)
		return -errno;
	pw_loop_update_timer(pw_main_loop_get_loop(app->loop), app->faults->watch, &every, &every,
			     false);
	return 0;
}

void ncpw_faults_fini(struct ncpw *app)
{
	struct ncpw_faults *f = app->faults;

	if (!f)
		return;
	if (f->watch)
		pw_loop_destroy_source(pw_main_loop_get_loop(app->loop), f->watch);
	if (f->set.given || app->faults_path)
		fprintf(stderr,
			"negcam-pw: faults: lost %" PRIu64 ", flagged %" PRIu64 ", damaged %" PRIu64
			", stalled ticks %" PRIu64 ", source changes %" PRIu64 ", unplugs %" PRIu64
			"\n",
			f->lost, f->flagged, f->damaged, f->stalled, f->changes, f->unplugs);
	free(f);
	app->faults = NULL;
}

/* NC_DO_SOURCE_CHANGE: the engine takes the new size, the node offers only that. */
static void ncpw_faults_source_change(struct ncpw *app)
{
	struct ncpw_faults *f = app->faults;
	uint8_t mem[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(mem, sizeof(mem));
	const struct spa_pod *pod;
	const struct v4l2_pix_format *pix;

	negcam_fault_source_change(&app->engine, &f->set);
	pix = negcam_engine_fmt(&app->engine, NC_CAPTURE);
	pod = ncpw_formats_current(app, &b);
	f->changes++;
	f->source_changed = true;
	f->formats_at_change = app->count.formats;
	fprintf(stderr, "negcam-pw: fault: the source is now %ux%u; the node offers that only\n",
		pix->width, pix->height);
	if (pod)
		pw_stream_update_params(app->stream, &pod, 1);
}

/* NC_DO_UNPLUG: the node leaves the graph while a consumer streams. */
static void ncpw_faults_unplug(struct ncpw *app)
{
	app->faults->unplugs++;
	app->unplugged = true;
	fprintf(stderr, "negcam-pw: fault: unplugged, node %u removed\n",
		pw_stream_get_node_id(app->stream));
	if (app->plug)
		app->plug(app, false);
}

bool ncpw_faults_tick(struct ncpw *app, uint64_t now_ns)
{
	struct ncpw_faults *f = app->faults;
	struct negcam_fault_frame *d;

	if (!f)
		return true;
	d = &f->next;
	memset(d, 0, sizeof(*d));
	if (f->source_changed && app->count.formats == f->formats_at_change)
		return false;
	f->source_changed = false;
	if (!f->set.given)
		return true;
	if (!f->t0_ns)
		f->t0_ns = now_ns;
	negcam_fault_decide(&f->set, &f->state, app->frame, now_ns - f->t0_ns, d);
	if (d->what & NC_DO_UNPLUG) {
		ncpw_faults_unplug(app);
		return false;
	}
	if (d->what & NC_DO_SOURCE_CHANGE) {
		ncpw_faults_source_change(app);
		return false;
	}
	if (d->what & NC_DO_STALL) {
		f->stalled++;
		return false;
	}
	if (d->what & NC_DO_SKIP) {
		f->lost++;
		app->frame++;
		return false;
	}
	return true;
}

void ncpw_faults_apply(struct ncpw *app, uint8_t *data, struct spa_chunk *c,
		       struct spa_meta_header *h)
{
	struct ncpw_faults *f = app->faults;
	const struct negcam_fault_frame *d;
	uint32_t size;

	if (!f || (!f->next.what && !f->next.ts_offset_ns))
		return;
	d = &f->next;
	size = negcam_fault_damage(d, app->pix.pixelformat, data, c->size);
	if (size != c->size || (d->what & NC_DO_CORRUPT && negcam_fault_encoded(app->pix.pixelformat)))
		f->damaged++;
	c->size = size;
	if (d->what & NC_DO_ERROR) {
		f->flagged++;
		c->flags |= SPA_CHUNK_FLAG_CORRUPTED;
		if (h)
			h->flags |= SPA_META_HEADER_FLAG_CORRUPTED;
	}
	if (h)
		h->pts = (int64_t)negcam_fault_timestamp(d, (uint64_t)h->pts);
	memset(&f->next, 0, sizeof(f->next));
}
