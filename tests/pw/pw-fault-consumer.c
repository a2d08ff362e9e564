// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * tests/pw/pw-fault-consumer: a PipeWire camera consumer that reports
 * what it sees, for the fault checks of tests/pw/pw-faults-checks.sh.
 *
 *   pw-fault-consumer NODE-NAME SECONDS raw|mjpg [PAYLOAD-FILE]
 *
 * Connects an input pw_stream to the node (target.object), YUY2 or MJPEG
 * at any size, and prints one line per event, each with the milliseconds
 * since it started:
 *   T format WxH                 a Format was set (again: a renegotiation)
 *   T buf SEQ PTS SIZE CHUNKFLAGS HEADERFLAGS EOI   one buffer: its header
 *                                meta (seq, pts ns, flags), chunk size and
 *                                flags, and for MJPEG whether it ends in
 *                                EOI (FF D9), else -
 *   T node-removed               the node left the registry
 *   T state NAME [ERROR]         the stream's state changes
 * PAYLOAD-FILE gets every payload, one after the other (an MJPEG stream
 * ffmpeg can read). Ends after SECONDS, or a second after the node left.
 * Buffers are read on PipeWire's data thread (PW_STREAM_FLAG_RT_PROCESS),
 * so a busy main loop does not make it miss cycles. Exit 0, or 1 when it
 * could not connect.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

struct consumer {
	struct pw_main_loop *loop;
	struct pw_core *core;
	struct pw_registry *registry;
	struct spa_hook registry_hook;
	struct pw_stream *stream;
	struct spa_hook stream_hook;
	const char *target;
	uint32_t target_id;
	bool mjpg;
	FILE *payload;
	uint64_t t0;
};

static uint64_t now_ms(const struct consumer *c)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ((uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec) / 1000000 - c->t0;
}

static void on_process(void *data)
{
	struct consumer *c = data;
	struct pw_buffer *b = pw_stream_dequeue_buffer(c->stream);
	struct spa_meta_header *h;
	struct spa_data *d;
	const uint8_t *p;
	const char *eoi = "-";

	if (!b)
		return;
	d = &b->buffer->datas[0];
	h = spa_buffer_find_meta_data(b->buffer, SPA_META_Header, sizeof(*h));
	p = d->data ? (const uint8_t *)d->data + d->chunk->offset : NULL;
	if (c->mjpg && p)
		eoi = d->chunk->size >= 2 && p[d->chunk->size - 2] == 0xff &&
				      p[d->chunk->size - 1] == 0xd9
			      ? "1"
			      : "0";
	printf("%" PRIu64 " buf %" PRId64 " %" PRId64 " %u %d %u %s\n", now_ms(c),
	       h ? (int64_t)h->seq : -1, h ? h->pts : -1, d->chunk->size, d->chunk->flags,
	       h ? h->flags : 0, eoi);
	if (c->payload && p)
		fwrite(p, 1, d->chunk->size, c->payload);
	pw_stream_queue_buffer(c->stream, b);
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct consumer *c = data;
	struct spa_video_info info = {0};
	uint8_t mem[256];
	struct spa_pod_builder bld = SPA_POD_BUILDER_INIT(mem, sizeof(mem));
	const struct spa_pod *meta;
	struct spa_rectangle size = {0};

	if (id != SPA_PARAM_Format || !param)
		return;
	spa_format_parse(param, &info.media_type, &info.media_subtype);
	if (info.media_subtype == SPA_MEDIA_SUBTYPE_raw) {
		spa_format_video_raw_parse(param, &info.info.raw);
		size = info.info.raw.size;
	} else if (info.media_subtype == SPA_MEDIA_SUBTYPE_mjpg) {
		spa_format_video_mjpg_parse(param, &info.info.mjpg);
		size = info.info.mjpg.size;
	}
	printf("%" PRIu64 " format %ux%u\n", now_ms(c), size.width, size.height);
	meta = spa_pod_builder_add_object(&bld, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
					  SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
					  SPA_PARAM_META_size,
					  SPA_POD_Int(sizeof(struct spa_meta_header)));
	pw_stream_update_params(c->stream, &meta, 1);
}

static void on_state(void *data, enum pw_stream_state old, enum pw_stream_state state,
		     const char *error)
{
	struct consumer *c = data;

	printf("%" PRIu64 " state %s%s%s\n", now_ms(c), pw_stream_state_as_string(state),
	       error ? " " : "", error ? error : "");
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state,
	.param_changed = on_param_changed,
	.process = on_process,
};

static void on_global(void *data, uint32_t id, uint32_t perms, const char *type,
		      uint32_t version, const struct spa_dict *props)
{
	struct consumer *c = data;
	const char *name = props ? spa_dict_lookup(props, PW_KEY_NODE_NAME) : NULL;

	if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0 && name && strcmp(name, c->target) == 0)
		c->target_id = id;
}

static void on_quit(void *data, uint64_t expirations)
{
	pw_main_loop_quit(((struct consumer *)data)->loop);
}

static void on_global_remove(void *data, uint32_t id)
{
	struct consumer *c = data;
	struct timespec one = {1, 0};
	struct spa_source *t;

	if (id != c->target_id)
		return;
	printf("%" PRIu64 " node-removed\n", now_ms(c));
	c->target_id = SPA_ID_INVALID;
	t = pw_loop_add_timer(pw_main_loop_get_loop(c->loop), on_quit, c);
	pw_loop_update_timer(pw_main_loop_get_loop(c->loop), t, &one, NULL, false);
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = on_global,
	.global_remove = on_global_remove,
};

/* YUY2 or MJPEG, any size and rate. */
static const struct spa_pod *enum_format(struct consumer *c, struct spa_pod_builder *b)
{
	struct spa_rectangle def = SPA_RECTANGLE(320, 240), lo = SPA_RECTANGLE(1, 1),
			     hi = SPA_RECTANGLE(8192, 8192);
	struct spa_fraction fdef = SPA_FRACTION(30, 1), flo = SPA_FRACTION(0, 1),
			    fhi = SPA_FRACTION(1000, 1);
	struct spa_pod_frame f;

	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
			    SPA_FORMAT_mediaSubtype,
			    SPA_POD_Id(c->mjpg ? SPA_MEDIA_SUBTYPE_mjpg : SPA_MEDIA_SUBTYPE_raw), 0);
	if (!c->mjpg)
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_format, SPA_POD_Id(SPA_VIDEO_FORMAT_YUY2),
				    0);
	spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size,
			    SPA_POD_CHOICE_RANGE_Rectangle(&def, &lo, &hi),
			    SPA_FORMAT_VIDEO_framerate,
			    SPA_POD_CHOICE_RANGE_Fraction(&fdef, &flo, &fhi), 0);
	return spa_pod_builder_pop(b, &f);
}

static int run(struct consumer *c, int seconds)
{
	uint8_t mem[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(mem, sizeof(mem));
	const struct spa_pod *params[1];
	struct timespec end = {seconds, 0};
	struct spa_source *t;

	c->registry = pw_core_get_registry(c->core, PW_VERSION_REGISTRY, 0);
	pw_registry_add_listener(c->registry, &c->registry_hook, &registry_events, c);
	c->stream = pw_stream_new(c->core, "pw-fault-consumer",
				  pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY,
						    "Capture", PW_KEY_MEDIA_ROLE, "Camera",
						    PW_KEY_TARGET_OBJECT, c->target, NULL));
	if (!c->stream)
		return 1;
	pw_stream_add_listener(c->stream, &c->stream_hook, &stream_events, c);
	params[0] = enum_format(c, &b);
	if (pw_stream_connect(c->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
			      PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS |
				      PW_STREAM_FLAG_RT_PROCESS,
			      params,
			      1) < 0)
		return 1;
	t = pw_loop_add_timer(pw_main_loop_get_loop(c->loop), on_quit, c);
	pw_loop_update_timer(pw_main_loop_get_loop(c->loop), t, &end, NULL, false);
	pw_main_loop_run(c->loop);
	pw_stream_destroy(c->stream);
	pw_proxy_destroy((struct pw_proxy *)c->registry);
	return 0;
}

int main(int argc, char **argv)
{
	struct consumer c = {.target_id = SPA_ID_INVALID};
	struct pw_context *ctx;
	int ret;

	if (argc < 4 || argc > 5 || (strcmp(argv[3], "raw") && strcmp(argv[3], "mjpg"))) {
		fprintf(stderr, "usage: pw-fault-consumer NODE-NAME SECONDS raw|mjpg [PAYLOAD-FILE]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	c.target = argv[1];
	c.mjpg = strcmp(argv[3], "mjpg") == 0;
	c.payload = argc == 5 ? fopen(argv[4], "wb") : NULL;
	c.t0 = now_ms(&c);
	pw_init(&argc, &argv);
	c.loop = pw_main_loop_new(NULL);
	ctx = pw_context_new(pw_main_loop_get_loop(c.loop), NULL, 0);
	c.core = pw_context_connect(ctx, NULL, 0);
	if (!c.core) {
		fprintf(stderr, "pw-fault-consumer: cannot connect to PipeWire: %s\n",
			strerror(errno));
		return 1;
	}
	ret = run(&c, atoi(argv[2]));
	if (c.payload)
		fclose(c.payload);
	pw_core_disconnect(c.core);
	pw_context_destroy(ctx);
	pw_main_loop_destroy(c.loop);
	pw_deinit();
	return ret;
}
