// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tests/pw/stop-race.c: a PipeWire camera consumer that stops as Firefox
 * ESR's capture code (libwebrtc's video_capture_pipewire.cc) does, to show
 * the crash of docs/pipewire.md ("The cause") with any producer.
 *
 *   stop-race TARGET HOLD_MS
 *
 * It runs a pw_thread_loop, links an input stream without
 * PW_STREAM_FLAG_RT_PROCESS to TARGET (YUY2 1280x720) and lets frames come
 * for 3 s; then, like StopCapture(), it takes the thread loop's lock,
 * waits HOLD_MS (a loaded host's delay), destroys the stream and unlocks.
 * A producer cycle in that window queues do_call_process on the loop;
 * libpipewire 0.3.65 frees the stream without flushing it, and it runs on
 * freed memory: SIGSEGV at libpipewire-0.3.so.0+0x95314, where Firefox's
 * minidumps crash. Prints the frames seen, then "survived" if it did.
 */
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int frames;
static struct pw_stream *stream;

static void on_process(void *data)
{
	struct pw_buffer *b;

	while ((b = pw_stream_dequeue_buffer(stream))) {
		frames++;
		pw_stream_queue_buffer(stream, b);
	}
}

static const struct pw_stream_events events = {PW_VERSION_STREAM_EVENTS, .process = on_process};

int main(int argc, char **argv)
{
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[1];
	struct pw_thread_loop *tl;
	struct pw_context *ctx;
	struct pw_core *core;
	struct spa_hook hook;
	int hold, i;

	if (argc != 3) {
		fprintf(stderr, "usage: stop-race TARGET HOLD_MS\n");
		return 2;
	}
	hold = atoi(argv[2]);
	pw_init(&argc, &argv);
	tl = pw_thread_loop_new("stop-race", NULL);
	ctx = pw_context_new(pw_thread_loop_get_loop(tl), NULL, 0);
	pw_thread_loop_start(tl);
	pw_thread_loop_lock(tl);
	core = pw_context_connect(ctx, NULL, 0);
	if (!core) {
		fprintf(stderr, "stop-race: PipeWire is not running\n");
		return 1;
	}
	stream = pw_stream_new(core, "stop-race",
			       pw_properties_new(PW_KEY_TARGET_OBJECT, argv[1], NULL));
	pw_stream_add_listener(stream, &hook, &events, NULL);
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType,
		SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype,
		SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
		SPA_POD_Id(SPA_VIDEO_FORMAT_YUY2), SPA_FORMAT_VIDEO_size,
		SPA_POD_Rectangle(&SPA_RECTANGLE(1280, 720)));
	pw_stream_connect(stream, PW_DIRECTION_INPUT, PW_ID_ANY,
			  PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_DONT_RECONNECT, params, 1);
	pw_thread_loop_unlock(tl);
	sleep(3);
	pw_thread_loop_lock(tl); /* StopCapture() */
	usleep((useconds_t)hold * 1000);
	printf("frames %d, then the stop with the lock held %d ms\n", frames, hold);
	fflush(stdout);
	pw_stream_destroy(stream);
	for (i = 0; i < 64; i++) /* the freed stream's memory is reused, as in a browser */
		memset(malloc(4096), 0, 4096);
	pw_thread_loop_unlock(tl);
	usleep(500000);
	printf("survived\n");
	return 0;
}
