// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The frames: pacing, drawing, counting.
 *
 * A timer on the main loop ticks at the negotiated interval, and only
 * while the stream is STREAMING: armed when a consumer starts, disarmed
 * when the node is paused (the last consumer gone), so an idle node does
 * no work at all. Each tick asks PipeWire for a graph cycle
 * (pw_stream_trigger_process, the driver's duty); the process event then
 * takes a free buffer, draws the next frame into its mapped memfd with
 * the engine's generator (negcam_framegen_draw_at: the frame-number stamp
 * of docs/frames.md, the scene at the tick's CLOCK_MONOTONIC time), fills
 * the header meta (pts, seq = frame number) and queues it. The drawing
 * goes straight into the shared buffer: no copy, no allocation per frame.
 * A tick with no free buffer (consumers behind) skips a frame; the stamps
 * count the frames delivered, so they stay in sequence.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <spa/buffer/meta.h>

#include "framegen.h"
#include "negcam-pw.h"

static uint64_t ncpw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SPA_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void ncpw_on_tick(void *data, uint64_t expirations)
{
	struct ncpw *app = data;

	if (!app->streaming)
		return;
	if (expirations > 1)
		app->count.late += expirations - 1;
	if (ncpw_exec_serving(app) && !ncpw_exec_has_frame(app))
		return; /* --exec: the producer's frames ask for their cycles */
	if (ncpw_faults_tick(app, ncpw_now_ns())) /* no frame if lost, stalled, gone (pw-faults.c) */
		pw_stream_trigger_process(app->stream);
}

int ncpw_frames_init(struct ncpw *app)
{
	app->timer = pw_loop_add_timer(pw_main_loop_get_loop(app->loop), ncpw_on_tick, app);
	return app->timer ? 0 : -errno;
}

void ncpw_frames_fini(struct ncpw *app)
{
	if (app->timer)
		pw_loop_destroy_source(pw_main_loop_get_loop(app->loop), app->timer);
	app->timer = NULL;
}

void ncpw_frames_start(struct ncpw *app)
{
	struct timespec first = {0, 1}, every;
	char fmt[64];

	if (app->streaming || !app->have_format || !app->interval.denominator)
		return;
	app->period_ns = ncpw_faults_period(
		app, (uint64_t)app->interval.numerator * SPA_NSEC_PER_SEC / app->interval.denominator);
	every.tv_sec = (time_t)(app->period_ns / SPA_NSEC_PER_SEC);
	every.tv_nsec = (long)(app->period_ns % SPA_NSEC_PER_SEC);
	app->frame = 0;
	app->start_ns = ncpw_now_ns();
	app->streaming = true;
	app->count.streams++;
	ncpw_exec_resume(app);
	pw_loop_update_timer(pw_main_loop_get_loop(app->loop), app->timer, &first, &every, false);
	ncpw_formats_describe(&app->pix, app->interval, fmt, sizeof(fmt));
	fprintf(stderr, "negcam-pw: streaming %s\n", fmt);
}

void ncpw_frames_stop(struct ncpw *app)
{
	if (!app->streaming)
		return;
	pw_loop_update_timer(pw_main_loop_get_loop(app->loop), app->timer, NULL, NULL, false);
	app->streaming = false;
	ncpw_exec_stop(app, "no consumer streams");
	fprintf(stderr,
		"negcam-pw: paused after %" PRIu32 " frames (%" PRIu64
		" in all); the timer is off\n",
		app->frame, app->count.frames);
}

/* Draw frame app->frame into @b's memfd; the bytes used, or <0. */
static long ncpw_draw(struct ncpw *app, struct pw_buffer *b, uint64_t scene_ns)
{
	struct spa_data *d = &b->buffer->datas[0];
	struct ncpw_buf *nb = b->user_data;
	long n;

	if (!d->data || !nb)
		return -EINVAL;
	n = negcam_framegen_draw_at(&app->pix, NC_PATTERN_BARS, app->frame, scene_ns, nb->prev,
				    nb->prev_scene_ns, d->data, d->maxsize);
	nb->prev = n < 0 ? NC_FRAME_NONE : app->frame;
	nb->prev_scene_ns = scene_ns;
	return n;
}

void ncpw_frames_process(struct ncpw *app)
{
	struct pw_buffer *b;
	struct spa_meta_header *h;
	struct spa_chunk *c;
	uint64_t now = ncpw_now_ns();
	long n;

	if (!app->streaming || !app->have_format)
		return;
	if (ncpw_exec_serving(app) && !ncpw_exec_has_frame(app))
		return;
	b = pw_stream_dequeue_buffer(app->stream);
	if (!b) {
		app->count.no_buffer++;
		return;
	}
	n = ncpw_exec_serving(app) ? ncpw_exec_fill(app, b) : ncpw_draw(app, b, now);
	c = b->buffer->datas[0].chunk;
	c->offset = 0;
	c->size = n < 0 ? 0 : (uint32_t)n;
	c->stride = (int32_t)app->pix.bytesperline;
	c->flags = n < 0 ? SPA_CHUNK_FLAG_CORRUPTED : 0;
	h = spa_buffer_find_meta_data(b->buffer, SPA_META_Header, sizeof(*h));
	if (h) {
		h->pts = (int64_t)now;
		h->dts_offset = 0;
		h->seq = app->frame;
		h->flags = n < 0 ? SPA_META_HEADER_FLAG_CORRUPTED : 0;
	}
	if (n >= 0)
		ncpw_faults_apply(app, b->buffer->datas[0].data, c, h);
	pw_stream_queue_buffer(app->stream, b);
	if (n < 0) {
		app->count.draw_errors++;
		return;
	}
	app->frame++;
	app->count.frames++;
}

void ncpw_frames_report(const struct ncpw *app, const char *why)
{
	const struct ncpw_counters *c = &app->count;

	fprintf(stderr,
		"negcam-pw: %s: frames %" PRIu64 ", streaming %s, streams %" PRIu64
		", formats %" PRIu64 ", refused %" PRIu64 ", late ticks %" PRIu64
		", no buffer %" PRIu64 ", draw errors %" PRIu64 "\n",
		why, c->frames, app->streaming ? "yes" : "no", c->streams, c->formats, c->refused,
		c->late, c->no_buffer, c->draw_errors);
}
