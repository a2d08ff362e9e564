/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * negcam-pw: a profile as a PipeWire camera node. The node itself (its
 * state, struct ncpw, its formats, stream and links) is the library of
 * pw-node.h, which gst/'s negcampwsink uses too; this header holds the
 * entry points of the program's own files:
 *
 *   negcam-pw.c   the command line, the checks before publishing, signals,
 *                 the node's hooks (ncpw_program_hooks)
 *   pw-list.c     the registry: the negcam-pw nodes this user runs
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

#include "pw-node.h"

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
