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

/* pw-list.c */
/*
 * Walk the registry once: print the negcam-pw nodes (@print), and/or
 * return 1 when a node is named @node_name (NULL: none). <0 on error.
 */
int ncpw_list_nodes(struct pw_main_loop *loop, struct pw_core *core, bool print,
		    const char *node_name);

#endif /* NEGCAM_PW_H */
