/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * negcam-pw: a profile as a PipeWire camera node. This header holds the
 * program's one state (struct ncpw) and the entry points of its files:
 *
 *   negcam-pw.c   the command line, the checks before publishing, signals
 *   pw-list.c     the registry: the negcam-pw nodes this user runs
 *   pw-links.c    the consumers' links: a failed one's reason in our log
 *   pw-formats.c  the profile as SPA_PARAM_EnumFormat pods (the engine's
 *                 enumeration), and a consumer's Format back to the engine
 *   pw-stream.c   the node: a pw_stream in output direction, its params
 *   pw-frames.c   pacing (a timer armed only while streaming), drawing
 *                 into the buffers, the counters
 *   pw-exec.c     --exec: a gst-launch producer on demand, its frames
 *   pw-farewell.c SIGTERM: the consumers' clients told the camera went
 *   pw-faults.c   the profile's faults (docs/faults.md) on the node, and
 *                 the --faults control file
 *
 * Everything runs on PipeWire's main loop: one thread, no locks.
 */
#ifndef NEGCAM_PW_H
#define NEGCAM_PW_H

#include <stdbool.h>
#include <stdint.h>

#include <pipewire/pipewire.h>

#include "engine.h"

#define NCPW_LABEL_MAX 63 /* longest --label; node.name adds "negcam." */

/* What each PipeWire buffer remembers between frames (pw_buffer.user_data). */
struct ncpw_buf {
	uint32_t prev; /* frame last drawn into it, or NC_FRAME_NONE */
	uint64_t prev_scene_ns; /* and its scene time */
};

struct ncpw_faults;
struct spa_pod_builder;

struct ncpw_counters {
	uint64_t frames; /* frames queued to PipeWire, over the whole run */
	uint64_t late; /* timer ticks missed (the loop was late) */
	uint64_t no_buffer; /* ticks with no free buffer (consumers slow) */
	uint64_t draw_errors; /* frames the generator refused */
	uint64_t streams; /* times the node started streaming */
	uint64_t formats; /* Formats accepted */
	uint64_t refused; /* Formats the engine could not match */
};

struct ncpw {
	/* options */
	const char *profile_spec;
	char label[NCPW_LABEL_MAX + 1];
	char node_name[NCPW_LABEL_MAX + 8];
	const char *description;

	/* the profile and the engine that answers for it */
	struct negcam_profile *profile;
	struct negcam_engine engine;

	/* PipeWire */
	struct pw_main_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	struct spa_source *timer;
	struct pw_registry *registry; /* pw-links.c: links out of the node */
	struct spa_hook registry_hook;
	int exit_code;
	bool published; /* the node was offered: the teardown reports on it */
	bool quitting; /* SIGINT or SIGTERM: the teardown's state changes are no failure */
	bool unplugged; /* the unplug fault removed the node: no failure either */
	const char *faults_path; /* --faults FILE */
	struct ncpw_faults *faults; /* pw-faults.c's state */
	/*
	 * The unplug fault's way to the node (set by negcam-pw.c): @in false
	 * removes it, true publishes it again. A hook, as user/vbuf.c's
	 * on_fault: pw-faults.c sits below the stream, which it must not call.
	 */
	void (*plug)(struct ncpw *app, bool in);

	/* the negotiated stream: valid while have_format */
	bool have_format;
	bool streaming;
	struct v4l2_pix_format pix;
	struct v4l2_fract interval;
	uint32_t frame; /* the next frame number (stamp), from 0 per stream */
	uint64_t start_ns; /* CLOCK_MONOTONIC of frame 0 */
	uint64_t period_ns;

	struct ncpw_counters count;
	struct ncpw_exec *exec; /* pw-exec.c: --exec's producer, or NULL */
};

/* pw-formats.c */
/*
 * Build the EnumFormat pods of @app's profile into @buf (@size bytes):
 * @pods gets up to @max pointers into @buf. Formats SPA cannot carry or
 * negcam cannot draw are left out with a warning naming them. Returns
 * the pod count (0: nothing to offer, with the reason printed).
 */
uint32_t ncpw_formats_build(struct ncpw *app, void *buf, uint32_t size, const struct spa_pod **pods,
			    uint32_t max);
/*
 * The consumer's fixed @format as the engine's S_FMT and S_PARM take it;
 * the engine's answer lands in app->pix and app->interval. 0, or -EINVAL
 * with the reason in @why (@len bytes) when the engine's answer is not
 * what was asked (the link then fails, other consumers go on).
 */
int ncpw_formats_apply(struct ncpw *app, const struct spa_pod *format, char *why, size_t len);
/* One EnumFormat pod of the engine's current format and size only, into @b; NULL if full. */
const struct spa_pod *ncpw_formats_current(struct ncpw *app, struct spa_pod_builder *b);
/* "YUYV 640x480 @30/1" for logs. */
void ncpw_formats_describe(const struct v4l2_pix_format *pix, struct v4l2_fract ival, char *buf,
			   size_t len);

/* pw-stream.c */
int ncpw_stream_start(struct ncpw *app);
void ncpw_stream_stop(struct ncpw *app);

/* pw-frames.c */
int ncpw_frames_init(struct ncpw *app);
void ncpw_frames_start(struct ncpw *app); /* streaming: arm the timer */
void ncpw_frames_stop(struct ncpw *app); /* paused: disarm it */
void ncpw_frames_process(struct ncpw *app); /* the stream's process event */
void ncpw_frames_report(const struct ncpw *app, const char *why);
void ncpw_frames_fini(struct ncpw *app);

/* pw-faults.c */
struct spa_chunk;
struct spa_meta_header;
int ncpw_faults_init(struct ncpw *app); /* the profile's faults, then --faults FILE's */
void ncpw_faults_fini(struct ncpw *app);
/* The timer period for the negotiated @period_ns: the fault rate's when slower. */
uint64_t ncpw_faults_period(struct ncpw *app, uint64_t period_ns);
/* A tick: whether a frame is due now (false: lost, stalled, or the node changed). */
bool ncpw_faults_tick(struct ncpw *app, uint64_t now_ns);
/* The frame just drawn into @data: damage, flags, pts as the tick decided. */
void ncpw_faults_apply(struct ncpw *app, uint8_t *data, struct spa_chunk *c,
		       struct spa_meta_header *h);

/* pw-links.c: watch the links out of the node (after ncpw_stream_start) */
int ncpw_links_watch(struct ncpw *app);
void ncpw_links_stop(struct ncpw *app);

/* pw-exec.c: --exec PIPELINE (NULL app->exec: every call does nothing) */
int ncpw_exec_set(struct ncpw *app, const char *pipeline);
void ncpw_exec_format(struct ncpw *app); /* a Format accepted: (re)start the producer */
void ncpw_exec_resume(struct ncpw *app); /* streaming: start it if the pause stopped it */
void ncpw_exec_stop(struct ncpw *app, const char *why); /* no consumer: stop, reap */
bool ncpw_exec_serving(const struct ncpw *app); /* a producer runs and has not failed */
bool ncpw_exec_has_frame(const struct ncpw *app); /* a whole frame waits for a cycle */
long ncpw_exec_fill(struct ncpw *app, struct pw_buffer *b); /* copy it in: bytes, 0, <0 */
void ncpw_exec_fini(struct ncpw *app);

/* pw-farewell.c: before the node goes (SIGTERM), an error to each consumer */
void ncpw_farewell(struct ncpw *app);

/* pw-list.c */
/*
 * Walk the registry once: print the negcam-pw nodes (@print), and/or
 * return 1 when a node is named @node_name (NULL: none). <0 on error.
 */
int ncpw_list_nodes(struct pw_main_loop *loop, struct pw_core *core, bool print,
		    const char *node_name);

#endif /* NEGCAM_PW_H */
