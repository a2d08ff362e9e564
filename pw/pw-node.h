/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The PipeWire camera node, as a library (libnegcam-pw-node): what
 * negcam-pw and gst/'s negcampwsink both publish. It owns
 *
 *   pw-formats.c  the profile as SPA_PARAM_EnumFormat pods (the engine's
 *                 enumeration), and a consumer's Format back to the engine
 *                 (TRY_FMT/S_FMT rules)
 *   pw-stream.c   the node: a pw_stream in output direction (media.class
 *                 Video/Source, media.role Camera, driver), its Buffers
 *                 answer (memfd), the hooks below
 *   pw-links.c    the consumers' links: a failed one's reason in the log
 *   pw-node.c     node.name from the label, ncpw_log
 *
 * Its user fills struct ncpw's options, profile, engine and core, sets
 * the hooks, and calls ncpw_stream_start. What a node does with its
 * frames is the user's: negcam-pw draws them (pw-frames.c, on its own
 * timer), negcampwsink takes them from the pipeline. Every call and hook
 * runs on the PipeWire loop's thread (negcampwsink: with its thread
 * loop's lock held).
 */
#ifndef NCPW_NODE_H
#define NCPW_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include <pipewire/pipewire.h>

#include "engine.h"

#define NCPW_LABEL_MAX 63 /* longest --label; node.name adds "negcam." */

struct ncpw;
struct ncpw_faults;
struct ncpw_exec;
struct spa_pod_builder;

/*
 * What the node's user does when PipeWire moves it (all optional but
 * log's absence prints "negcam-pw: MSG" on stderr).
 */
struct ncpw_hooks {
	void (*streaming)(struct ncpw *app); /* a consumer streams */
	void (*paused)(struct ncpw *app); /* none does any more (or stop) */
	void (*process)(struct ncpw *app); /* the stream's process event */
	void (*format)(struct ncpw *app); /* a Format accepted (app->pix), or cleared (have_format false) */
	void (*failed)(struct ncpw *app, const char *why); /* error, or PipeWire gone */
	void (*log)(struct ncpw *app, const char *msg); /* one line, no newline */
};

/* What each PipeWire buffer remembers between frames (pw_buffer.user_data). */
struct ncpw_buf {
	uint32_t prev; /* frame last drawn into it, or NC_FRAME_NONE */
	uint64_t prev_scene_ns; /* and its scene time */
};

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

	/* the node's user */
	const struct ncpw_hooks *hooks;
	void *user;

	/* PipeWire */
	struct pw_main_loop *loop; /* negcam-pw only */
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	struct spa_source *timer; /* negcam-pw only */
	struct pw_registry *registry; /* pw-links.c: links out of the node */
	struct spa_hook registry_hook;
	int exit_code;
	bool published; /* the node was offered: the teardown reports on it */
	bool quitting; /* SIGINT or SIGTERM: the teardown's state changes are no failure */
	/* negcam-pw only (pw-faults.c, pw-exec.c) */
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
	struct ncpw_exec *exec; /* pw-exec.c: --exec's producer, or NULL (negcam-pw only) */
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
/* app->node_name from app->label: negcam.LABEL, stable across runs. */
void ncpw_name_node(struct ncpw *app);
int ncpw_stream_start(struct ncpw *app);
void ncpw_stream_stop(struct ncpw *app);
/* One line to the hooks' log, else "negcam-pw: MSG" on stderr. */
void ncpw_log(struct ncpw *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pw-links.c: watch the links out of the node (after ncpw_stream_start) */
int ncpw_links_watch(struct ncpw *app);
void ncpw_links_stop(struct ncpw *app);

#endif /* NCPW_NODE_H */
