// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * negcam-pw: a profile as a PipeWire camera, with no kernel module and no
 * root (docs/pipewire.md). This file is the program around the node: the
 * command line, the profile (user/'s loader), the checks made before
 * anything is published (the label's length, PipeWire running, the name
 * free), the signals (SIGINT and SIGTERM remove the node and end;
 * SIGUSR1 prints the counters, which are printed at exit too) and the
 * teardown, which says how many memfds are still open (none).
 *
 *   negcam-pw --profile NAME|FILE [--label LABEL] [--exec PIPELINE] [--faults FILE]
 *   negcam-pw --list
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "negcam-pw.h"
#include "profile-load.h"

static const struct option ncpw_options[] = {
	{"profile", required_argument, NULL, 'p'},
	{"label", required_argument, NULL, 'l'},
	{"list", no_argument, NULL, 'L'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{"exec", required_argument, NULL, 'e'},
	{"faults", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static void ncpw_usage(FILE *to)
{
	fprintf(to,
		"usage: negcam-pw --profile NAME|FILE [--label LABEL] [--exec PIPELINE]\n"
		"                 [--faults FILE]\n"
		"       negcam-pw --list\n"
		"Publish a negcam profile as a PipeWire camera node (media.role Camera).\n"
		"  --profile NAME|FILE  a built-in profile, a profile file or a shelf camera\n"
		"  --label LABEL        the node's description (default: the profile's card);\n"
		"                       node.name is negcam.LABEL (at most %d characters)\n"
		"  --exec PIPELINE      frames from a GStreamer pipeline (gst-launch-1.0\n"
		"                       syntax), started at a consumer's format, stopped\n"
		"                       after the last consumer\n"
		"  --faults FILE        faults from FILE while it exists, switched when it\n"
		"                       changes (docs/faults.md); else the profile's\n"
		"  --list               the negcam-pw cameras this user's PipeWire holds\n"
		"SIGUSR1 prints the counters; SIGTERM removes the node.\n",
		NCPW_LABEL_MAX);
}

/* Options into @app; -1 to go on, else the exit code. */
static int ncpw_parse_args(struct ncpw *app, int argc, char **argv, bool *list)
{
	const char *label = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "p:l:hV", ncpw_options, NULL)) != -1) {
		switch (ch) {
		case 'p':
			app->profile_spec = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		case 'f':
			app->faults_path = optarg;
			break;
		case 'L':
			*list = true;
			break;
		case 'e':
			if (ncpw_exec_set(app, optarg) < 0)
				return 1;
			break;
		case 'h':
			ncpw_usage(stdout);
			return 0;
		case 'V':
			printf("negcam-pw %s\n", NEGCAM_VERSION);
			return 0;
		default:
			ncpw_usage(stderr);
			return 2;
		}
	}
	if (optind < argc || (!*list && !app->profile_spec)) {
		fprintf(stderr, "negcam-pw: %s\n",
			optind < argc ? "unexpected argument"
				      : "--profile NAME|FILE is required (or --list)");
		return 2;
	}
	if (label && (strlen(label) > NCPW_LABEL_MAX || !*label)) {
		fprintf(stderr, "negcam-pw: --label is %zu characters; it must have 1 to %d\n",
			strlen(label), NCPW_LABEL_MAX);
		return 2;
	}
	if (label)
		snprintf(app->label, sizeof(app->label), "%s", label);
	return -1;
}

/* The profile, the label and description it gives; the exit code on failure, else -1. */
static int ncpw_load_profile(struct ncpw *app, bool has_label)
{
	char msg[512];

	app->profile = calloc(1, sizeof(*app->profile));
	if (!app->profile)
		return 1;
	if (negcam_profile_load(app->profile_spec, app->profile, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "negcam-pw: %s\n", msg);
		return 2;
	}
	negcam_engine_init(&app->engine, app->profile);
	if (!has_label)
		snprintf(app->label, sizeof(app->label), "%s", app->profile->name);
	app->description = has_label		   ? app->label
			   : app->profile->card[0] ? app->profile->card
						   : app->profile->name;
	ncpw_name_node(app);
	return -1;
}

/* Connect to the user's PipeWire, or say why not and how to start it. */
static int ncpw_connect(struct ncpw *app)
{
	const char *rt = getenv("XDG_RUNTIME_DIR"), *remote = getenv("PIPEWIRE_REMOTE");
	int err;

	app->loop = pw_main_loop_new(NULL);
	app->context = app->loop ? pw_context_new(pw_main_loop_get_loop(app->loop), NULL, 0) : NULL;
	if (!app->context)
		return 1;
	app->core = pw_context_connect(app->context, NULL, 0);
	if (app->core)
		return -1;
	err = errno;
	fprintf(stderr,
		"negcam-pw: PipeWire is not running: cannot connect to %s%s%s (%s); "
		"start it with 'systemctl --user start pipewire wireplumber', "
		"or run 'pipewire & wireplumber &'\n",
		remote && remote[0] == '/' ? ""
		: rt			   ? rt
					   : "$XDG_RUNTIME_DIR (not set)",
		remote && remote[0] == '/' ? "" : "/", remote ? remote : "pipewire-0",
		rt || remote ? strerror(err) : "no runtime directory");
	return 1;
}

static void ncpw_on_signal(void *data, int signo)
{
	struct ncpw *app = data;

	if (signo == SIGUSR1) {
		ncpw_frames_report(app, "counters");
		return;
	}
	app->quitting = true;
	pw_main_loop_quit(app->loop);
}

/*
 * The loop reads SIGINT, SIGTERM and SIGUSR1 from a signalfd: block them
 * before PipeWire starts its data thread, which inherits the mask, else
 * the kernel delivers them there and their default action ends us.
 */
static void ncpw_block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* memfds the process still has open (after teardown: the proof nothing leaked). */
static int ncpw_count_memfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[256];
	int n = 0;
	ssize_t len;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0 && strncmp(target, "/memfd:", 7) == 0)
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* The node failed, or PipeWire went away: end with 1. */
static void ncpw_on_failed(struct ncpw *app, const char *why)
{
	app->exit_code = 1;
	pw_main_loop_quit(app->loop);
}

/* A Format accepted: --exec's producer (re)started; cleared: stopped. */
static void ncpw_on_format(struct ncpw *app)
{
	if (app->have_format)
		ncpw_exec_format(app);
	else
		ncpw_exec_stop(app, "the format was cleared");
}

/* The program's node: frames drawn by pw-frames.c on its own timer (or
 * --exec's producer's, pw-exec.c). */
static const struct ncpw_hooks ncpw_program_hooks = {
	.streaming = ncpw_frames_start,
	.paused = ncpw_frames_stop,
	.process = ncpw_frames_process,
	.format = ncpw_on_format,
	.failed = ncpw_on_failed,
};

/* The unplug fault (pw-faults.c): the node removed, or published again. */
static void ncpw_plug(struct ncpw *app, bool in)
{
	if (!in) {
		ncpw_stream_stop(app);
		return;
	}
	if (ncpw_stream_start(app) < 0) {
		app->exit_code = 1;
		pw_main_loop_quit(app->loop);
	}
}

/* Publish the node and serve until a signal or PipeWire ends it. */
static int ncpw_serve(struct ncpw *app)
{
	struct pw_loop *l = pw_main_loop_get_loop(app->loop);
	int taken = ncpw_list_nodes(app->loop, app->core, false, app->node_name);

	if (taken != 0) {
		if (taken > 0)
			fprintf(stderr,
				"negcam-pw: label '%s' is taken: a node named %s is already "
				"published (negcam-pw --list)\n",
				app->label, app->node_name);
		return 1;
	}
	pw_loop_add_signal(l, SIGINT, ncpw_on_signal, app);
	pw_loop_add_signal(l, SIGTERM, ncpw_on_signal, app);
	pw_loop_add_signal(l, SIGUSR1, ncpw_on_signal, app);
	app->hooks = &ncpw_program_hooks;
	app->plug = ncpw_plug;
	if (ncpw_faults_init(app) < 0)
		return 2;
	if (ncpw_frames_init(app) < 0 || ncpw_stream_start(app) < 0 || ncpw_links_watch(app) < 0)
		return 1;
	app->published = true;
	pw_main_loop_run(app->loop);
	if (app->quitting)
		ncpw_farewell(app);
	ncpw_exec_fini(app);
	ncpw_links_stop(app);
	ncpw_stream_stop(app);
	ncpw_frames_report(app, "stopped");
	return app->exit_code;
}

static void ncpw_teardown(struct ncpw *app, bool served)
{
	ncpw_exec_fini(app);
	ncpw_frames_fini(app);
	ncpw_faults_fini(app);
	if (app->core)
		pw_core_disconnect(app->core);
	if (app->context)
		pw_context_destroy(app->context);
	if (app->loop)
		pw_main_loop_destroy(app->loop);
	pw_deinit();
	if (served)
		fprintf(stderr, "negcam-pw: node removed, %d memfds open\n", ncpw_count_memfds());
	free(app->profile);
}

int main(int argc, char **argv)
{
	struct ncpw app = {0};
	bool list = false;
	int ret;

	ret = ncpw_parse_args(&app, argc, argv, &list);
	if (ret >= 0)
		return ret;
	if (!list && (ret = ncpw_load_profile(&app, app.label[0] != '\0')) >= 0) {
		free(app.profile);
		return ret;
	}
	ncpw_block_signals();
	pw_init(&argc, &argv);
	ret = ncpw_connect(&app);
	if (ret < 0)
		ret = list ? (ncpw_list_nodes(app.loop, app.core, true, NULL) < 0)
			   : ncpw_serve(&app);
	ncpw_teardown(&app, app.published);
	return ret;
}
