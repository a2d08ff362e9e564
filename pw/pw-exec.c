// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-pw --exec 'PIPELINE': a producer on demand (docs/pipewire.md,
 * "A producer on demand"). The node keeps its formats (--profile) and the
 * engine still decides a consumer's Format; what changes is where the
 * frames come from. When a Format is accepted, this file starts
 *
 *   gst-launch-1.0 -q PIPELINE ! videoconvert ! videoscale ! videorate
 *       ! CAPS [! jpegenc ! image/jpeg] ! fdsink fd=3 sync=true
 *
 * as a child (CAPS: exactly the negotiated format, size and rate), reads
 * its frames from a pipe (raw: sizeimage bytes each; MJPG: from SOI to
 * EOI) and, as each one completes, asks PipeWire for a cycle whose
 * process event copies it into the buffer. The producer paces the
 * stream; while a frame waits for its cycle the pipe is not read, so the
 * producer blocks rather than queue. It is stopped (SIGTERM, reaped
 * through a pidfd, its fds closed) when the last consumer leaves or the
 * Format changes, so no producer runs while no consumer streams. pw/
 * links no GStreamer: the child is GStreamer's own launcher.
 *
 * A producer that cannot start, exits or fails is said in one line with
 * the pipeline and gst-launch's own error, and the node serves the
 * engine's generator (stamped frames) until the next Format tries again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "negcam-pw.h"

extern char **environ;

#define NCPW_EXEC_FD 3 /* the child's frame pipe (fdsink fd=3) */

/* The V4L2 formats a producer can be asked for, as GStreamer names them. */
struct ncpw_exec_fmt {
	uint32_t fourcc;
	const char *gst; /* video/x-raw format, or NULL for MJPG (jpegenc) */
	uint32_t align; /* widths GStreamer lays out as the engine does (no row padding) */
};

static const struct ncpw_exec_fmt ncpw_exec_fmts[] = {
	{V4L2_PIX_FMT_YUYV, "YUY2", 2},	   {V4L2_PIX_FMT_UYVY, "UYVY", 2},
	{V4L2_PIX_FMT_YVYU, "YVYU", 2},	   {V4L2_PIX_FMT_VYUY, "VYUY", 2},
	{V4L2_PIX_FMT_YUV420, "I420", 8},  {V4L2_PIX_FMT_YVU420, "YV12", 8},
	{V4L2_PIX_FMT_NV12, "NV12", 4},	   {V4L2_PIX_FMT_NV21, "NV21", 4},
	{V4L2_PIX_FMT_NV16, "NV16", 4},	   {V4L2_PIX_FMT_GREY, "GRAY8", 4},
	{V4L2_PIX_FMT_RGB24, "RGB", 4},	   {V4L2_PIX_FMT_BGR24, "BGR", 4},
	{V4L2_PIX_FMT_XBGR32, "BGRx", 1},  {V4L2_PIX_FMT_ABGR32, "BGRA", 1},
	{V4L2_PIX_FMT_XRGB32, "xRGB", 1},  {V4L2_PIX_FMT_BGR32, "BGRx", 1},
	{V4L2_PIX_FMT_RGB565, "RGB16", 2}, {V4L2_PIX_FMT_MJPEG, NULL, 1},
	{V4L2_PIX_FMT_JPEG, NULL, 1},
};

struct ncpw_exec {
	char *pipeline;
	pid_t pid; /* 0: no producer */
	int pidfd, frame_fd, err_fd;
	struct spa_source *pid_src, *frame_src, *err_src;
	bool jpeg;
	bool failed; /* the generator serves until the next Format */
	bool stopping;
	uint8_t *slot[2]; /* one being filled, one holding a complete frame */
	size_t cap;
	int fill_slot;
	size_t fill; /* bytes in slot[fill_slot] */
	size_t pending; /* a complete frame's length at the head of the fill slot, or 0 */
	bool ready; /* slot[!fill_slot] holds a frame of ready_len bytes */
	size_t ready_len;
	bool resync; /* MJPG: dropping bytes until the next SOI */
	struct v4l2_pix_format pix; /* the format the producer makes */
	struct v4l2_fract ival;
	char err[240]; /* gst-launch's error line */
	uint64_t frames_in, frames_out, starts;
};

static struct pw_loop *ncpw_exec_loop(struct ncpw *app)
{
	return pw_main_loop_get_loop(app->loop);
}

int ncpw_exec_set(struct ncpw *app, const char *pipeline)
{
	app->exec = calloc(1, sizeof(*app->exec));
	if (!app->exec || !(app->exec->pipeline = strdup(pipeline)))
		return -ENOMEM;
	app->exec->pidfd = app->exec->frame_fd = app->exec->err_fd = -1;
	return 0;
}

bool ncpw_exec_serving(const struct ncpw *app)
{
	return app->exec && app->exec->pid && !app->exec->failed;
}

static const struct ncpw_exec_fmt *ncpw_exec_fmt_of(uint32_t fourcc)
{
	size_t i;

	for (i = 0; i < SPA_N_ELEMENTS(ncpw_exec_fmts); i++)
		if (ncpw_exec_fmts[i].fourcc == fourcc)
			return &ncpw_exec_fmts[i];
	return NULL;
}

static void ncpw_exec_close(struct ncpw *app, struct spa_source **src, int *fd)
{
	if (*src)
		pw_loop_destroy_source(ncpw_exec_loop(app), *src);
	*src = NULL;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Reap the child (it was signalled or has exited) and close everything. */
static int ncpw_exec_reap(struct ncpw *app)
{
	struct ncpw_exec *x = app->exec;
	struct pollfd p = {.fd = x->pidfd, .events = POLLIN};
	int status = 0;

	if (x->pidfd >= 0 && poll(&p, 1, 2000) == 0)
		kill(x->pid, SIGKILL); /* not gone after 2 s of SIGTERM */
	while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
		;
	ncpw_exec_close(app, &x->pid_src, &x->pidfd);
	ncpw_exec_close(app, &x->frame_src, &x->frame_fd);
	ncpw_exec_close(app, &x->err_src, &x->err_fd);
	x->pid = 0;
	x->fill = x->pending = x->ready_len = 0;
	x->ready = x->resync = false;
	return status;
}

/* Read what gst-launch printed; keep its first error line. */
static void ncpw_exec_read_err(struct ncpw_exec *x)
{
	char buf[1024], *line, *save = NULL;
	ssize_t n;

	while ((n = read(x->err_fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			bool error = strncmp(line, "ERROR", 5) == 0 ||
				     strncmp(line, "WARNING: erroneous", 18) == 0;
			if (*line && (!x->err[0] || (error && strncmp(x->err, "ERROR", 5) != 0 &&
						     strncmp(x->err, "WARNING", 7) != 0)))
				snprintf(x->err, sizeof(x->err), "%s", line);
		}
	}
}

static void ncpw_exec_on_err(void *data, int fd, uint32_t mask)
{
	struct ncpw *app = data;

	ncpw_exec_read_err(app->exec);
	if (mask & (SPA_IO_HUP | SPA_IO_ERR))
		pw_loop_update_io(ncpw_exec_loop(app), app->exec->err_src, 0);
}

/* The producer is gone or unusable: one line, then the generator serves. */
static void ncpw_exec_fail(struct ncpw *app, const char *what)
{
	struct ncpw_exec *x = app->exec;

	fprintf(stderr,
		"negcam-pw: producer '%s' %s%s%s%s; the node serves the generator's frames "
		"until the next consumer's format\n",
		x->pipeline, what, x->err[0] ? " (" : "", x->err, x->err[0] ? ")" : "");
	x->failed = true;
}

static void ncpw_exec_on_exit(void *data, int fd, uint32_t mask)
{
	struct ncpw *app = data;
	struct ncpw_exec *x = app->exec;
	char what[80];
	int st;

	if (x->stopping)
		return;
	ncpw_exec_read_err(x);
	st = ncpw_exec_reap(app);
	if (WIFSIGNALED(st))
		snprintf(what, sizeof(what), "was killed by signal %d after %" PRIu64 " frames",
			 WTERMSIG(st), x->frames_in);
	else
		snprintf(what, sizeof(what), "exited with status %d after %" PRIu64 " frames",
			 WEXITSTATUS(st), x->frames_in);
	ncpw_exec_fail(app, what);
}

/* Where the frame at the head of the fill slot ends: MJPG from SOI to EOI. */
static void ncpw_exec_find_end(struct ncpw_exec *x)
{
	uint8_t *b = x->slot[x->fill_slot];
	size_t i;

	if (!x->jpeg) {
		x->pending = x->fill == x->cap ? x->cap : 0;
		return;
	}
	if (x->resync || (x->fill >= 2 && !(b[0] == 0xff && b[1] == 0xd8))) {
		for (i = 1; i + 1 < x->fill && !(b[i] == 0xff && b[i + 1] == 0xd8); i++)
			;
		x->resync = i + 1 >= x->fill;
		memmove(b, b + i, x->fill - i);
		x->fill -= i;
		if (x->resync)
			return;
	}
	for (i = 2; i + 1 < x->fill; i++)
		if (b[i] == 0xff && b[i + 1] == 0xd9) {
			x->pending = i + 2;
			return;
		}
	if (x->fill == x->cap) /* no EOI in a whole buffer: drop it */
		x->fill = 0;
}

/* A complete frame at the head of the fill slot becomes the ready one, if that is free. */
static void ncpw_exec_publish(struct ncpw *app)
{
	struct ncpw_exec *x = app->exec;
	size_t rest;

	if (!x->pending || x->ready)
		return;
	rest = x->fill - x->pending;
	memcpy(x->slot[!x->fill_slot], x->slot[x->fill_slot] + x->pending, rest);
	x->ready_len = x->pending;
	x->ready = true;
	x->fill_slot = !x->fill_slot;
	x->fill = rest;
	x->pending = 0;
	x->frames_in++;
	ncpw_exec_find_end(x); /* MJPG: the rest may hold the next frame whole */
	if (app->streaming)
		pw_stream_trigger_process(app->stream);
}

static void ncpw_exec_on_frames(void *data, int fd, uint32_t mask)
{
	struct ncpw *app = data;
	struct ncpw_exec *x = app->exec;
	ssize_t n;

	for (;;) {
		if (x->pending)
			ncpw_exec_publish(app);
		if (x->pending) { /* the ready slot is taken: hold the producer */
			pw_loop_update_io(ncpw_exec_loop(app), x->frame_src, 0);
			return;
		}
		n = read(x->frame_fd, x->slot[x->fill_slot] + x->fill, x->cap - x->fill);
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN) /* EOF: the exit handler says why */
				pw_loop_update_io(ncpw_exec_loop(app), x->frame_src, 0);
			return;
		}
		x->fill += (size_t)n;
		ncpw_exec_find_end(x);
	}
}

/* The child: gst-launch-1.0 with our tail, fd 3 the frame pipe, fd 2 the error pipe. */
static int ncpw_exec_spawn(struct ncpw *app, const char *launch, int frame_w, int err_w)
{
	struct ncpw_exec *x = app->exec;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dflt;
	char *cmd = NULL;
	int ret;

	sigemptyset(&none);
	sigemptyset(&dflt);
	sigaddset(&dflt, SIGTERM);
	sigaddset(&dflt, SIGINT);
	sigaddset(&dflt, SIGPIPE);
	sigaddset(&dflt, SIGUSR1);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, frame_w, NCPW_EXEC_FD);
	posix_spawn_file_actions_adddup2(&fa, err_w, 2);
	posix_spawnattr_init(&at);
	/* our signals are blocked for PipeWire's threads: not the child's */
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dflt);
	posix_spawnattr_setpgroup(&at, 0); /* a terminal's ^C is ours to pass on */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETPGROUP);
	/* the shell splits PIPELINE into gst-launch's words as a terminal would */
	if (asprintf(&cmd, "exec gst-launch-1.0 -q %s", launch) < 0)
		cmd = NULL;
	char *argv[] = {"sh", "-c", cmd, NULL};
	ret = cmd ? posix_spawn(&x->pid, "/bin/sh", &fa, &at, argv, environ) : ENOMEM;
	free(cmd);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (ret)
		x->pid = 0;
	return -ret;
}

/* The launch line for the negotiated format, or NULL with the reason in x->err. */
static char *ncpw_exec_launch(struct ncpw *app)
{
	struct ncpw_exec *x = app->exec;
	const struct ncpw_exec_fmt *f = ncpw_exec_fmt_of(app->pix.pixelformat);
	const struct v4l2_pix_format *p = &app->pix;
	char *s = NULL, caps[160];

	if (!f) {
		snprintf(x->err, sizeof(x->err), "negcam-pw makes no %.4s from a pipeline",
			 (const char *)&p->pixelformat);
		return NULL;
	}
	if (p->width % f->align) {
		snprintf(x->err, sizeof(x->err),
			 "GStreamer pads %s rows of %u pixels; widths must be a multiple of %u",
			 f->gst, p->width, f->align);
		return NULL;
	}
	snprintf(caps, sizeof(caps), "video/x-raw,format=%s,width=%u,height=%u,framerate=%u/%u",
		 f->gst ? f->gst : "I420", p->width, p->height, app->interval.denominator,
		 app->interval.numerator);
	x->jpeg = !f->gst;
	if (asprintf(&s,
		     "%s ! videoconvert ! videoscale ! videorate ! %s%s ! fdsink fd=%d sync=true",
		     x->pipeline, caps, x->jpeg ? " ! jpegenc ! image/jpeg" : "", NCPW_EXEC_FD) < 0)
		s = NULL;
	return s;
}

static int ncpw_exec_pipes(struct ncpw *app, int frame[2], int err[2])
{
	struct ncpw_exec *x = app->exec;
	size_t cap = app->pix.sizeimage;

	if (cap != x->cap) {
		free(x->slot[0]);
		free(x->slot[1]);
		x->slot[0] = malloc(cap);
		x->slot[1] = malloc(cap);
		x->cap = x->slot[0] && x->slot[1] ? cap : 0;
		if (!x->cap)
			return -ENOMEM;
	}
	if (pipe2(frame, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(frame[0]);
		close(frame[1]);
		return -errno;
	}
	return 0;
}

/* Start the producer for the Format in app->pix; on failure the generator serves. */
static void ncpw_exec_start(struct ncpw *app)
{
	struct ncpw_exec *x = app->exec;
	struct pw_loop *l = ncpw_exec_loop(app);
	char *launch;
	int frame[2], err[2], ret;

	x->err[0] = '\0';
	x->failed = false;
	x->frames_in = x->frames_out = 0;
	launch = ncpw_exec_launch(app);
	if (!launch) {
		ncpw_exec_fail(app, "not started");
		return;
	}
	ret = ncpw_exec_pipes(app, frame, err);
	if (ret == 0) {
		ret = ncpw_exec_spawn(app, launch, frame[1], err[1]);
		close(frame[1]);
		close(err[1]);
		if (ret < 0) {
			close(frame[0]);
			close(err[0]);
		}
	}
	if (ret < 0) {
		snprintf(x->err, sizeof(x->err), "gst-launch-1.0: %s", strerror(-ret));
		free(launch);
		ncpw_exec_fail(app, "not started");
		return;
	}
	fprintf(stderr, "negcam-pw: producer %d started: gst-launch-1.0 -q %s\n", (int)x->pid,
		launch);
	free(launch);
	x->starts++;
	x->pix = app->pix;
	x->ival = app->interval;
	x->frame_fd = frame[0];
	x->err_fd = err[0];
	fcntl(x->frame_fd, F_SETFL, O_NONBLOCK);
	fcntl(x->err_fd, F_SETFL, O_NONBLOCK);
	x->pidfd = (int)syscall(SYS_pidfd_open, x->pid, 0);
	x->frame_src = pw_loop_add_io(l, x->frame_fd, SPA_IO_IN, false, ncpw_exec_on_frames, app);
	x->err_src = pw_loop_add_io(l, x->err_fd, SPA_IO_IN, false, ncpw_exec_on_err, app);
	if (x->pidfd >= 0)
		x->pid_src = pw_loop_add_io(l, x->pidfd, SPA_IO_IN, false, ncpw_exec_on_exit, app);
}

void ncpw_exec_stop(struct ncpw *app, const char *why)
{
	struct ncpw_exec *x = app->exec;
	int pid;

	if (!x)
		return;
	if (!x->pid) { /* a failed producer: the next stream tries again */
		x->failed = false;
		return;
	}
	pid = (int)x->pid;
	x->stopping = true;
	kill(x->pid, SIGTERM);
	ncpw_exec_reap(app);
	x->stopping = false;
	fprintf(stderr,
		"negcam-pw: producer %d stopped (%s) after %" PRIu64 " frames, %" PRIu64
		" delivered\n",
		pid, why, x->frames_in, x->frames_out);
}

/* A Format was accepted (app->pix, app->interval): (re)start the producer. */
void ncpw_exec_format(struct ncpw *app)
{
	struct ncpw_exec *x = app->exec;

	if (!x)
		return;
	if (x->pid && x->pix.pixelformat == app->pix.pixelformat &&
	    x->pix.width == app->pix.width && x->pix.height == app->pix.height &&
	    x->ival.numerator == app->interval.numerator &&
	    x->ival.denominator == app->interval.denominator)
		return; /* the same format again (another consumer): it serves on */
	ncpw_exec_stop(app, "the format changed");
	ncpw_exec_start(app);
}

/* Streaming again with the same Format (the producer was stopped at the pause). */
void ncpw_exec_resume(struct ncpw *app)
{
	if (app->exec && !app->exec->pid && !app->exec->failed && app->have_format)
		ncpw_exec_start(app);
}

long ncpw_exec_fill(struct ncpw *app, struct pw_buffer *b)
{
	struct ncpw_exec *x = app->exec;
	struct spa_data *d = &b->buffer->datas[0];
	size_t n = x->ready_len;

	if (!x->ready)
		return 0;
	if (!d->data || n > d->maxsize)
		return -EINVAL;
	memcpy(d->data, x->slot[!x->fill_slot], n);
	x->ready = false;
	x->frames_out++;
	ncpw_exec_publish(app);
	if (x->frame_src && !x->pending)
		pw_loop_update_io(ncpw_exec_loop(app), x->frame_src, SPA_IO_IN);
	return (long)n;
}

bool ncpw_exec_has_frame(const struct ncpw *app)
{
	return app->exec->ready;
}

void ncpw_exec_fini(struct ncpw *app)
{
	if (!app->exec)
		return;
	ncpw_exec_stop(app, "negcam-pw ends");
	free(app->exec->slot[0]);
	free(app->exec->slot[1]);
	free(app->exec->pipeline);
	free(app->exec);
	app->exec = NULL;
}
