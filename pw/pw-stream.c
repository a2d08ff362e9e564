// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The node: one pw_stream in output direction, published as a camera
 * (media.class Video/Source, media.role Camera), driving its own graph
 * (PW_STREAM_FLAG_DRIVER: the frames' timer is the clock). It offers the
 * profile's EnumFormat pods (pw-formats.c); when a consumer links,
 * PipeWire intersects those with the consumer's and sets the fixed
 * Format here, which the engine then decides (ncpw_formats_apply). The
 * answer is the Buffers param: one memfd block of the engine's sizeimage
 * per buffer, allocated once for the link, and a header meta for the
 * timestamps. State changes call the user's hooks (pw-node.h): negcam-pw
 * starts and stops its frames there (pw-frames.c), negcampwsink lets its
 * pipeline run or wait; the node works only while a consumer streams.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spa/param/buffers.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#include "framegen.h"
#include "pw-node.h"

#define NCPW_POD_BYTES (512 * 1024)
#define NCPW_MAX_PODS 2048

/* The hook named @h, if the user set it. */
#define NCPW_HOOK(app, h, ...)                                                                     \
	do {                                                                                       \
		if ((app)->hooks && (app)->hooks->h)                                               \
			(app)->hooks->h(app, ##__VA_ARGS__);                                       \
	} while (0)

static void ncpw_on_state(void *data, enum pw_stream_state old, enum pw_stream_state state,
			  const char *error)
{
	struct ncpw *app = data;

	switch (state) {
	case PW_STREAM_STATE_STREAMING:
		NCPW_HOOK(app, streaming);
		break;
	case PW_STREAM_STATE_PAUSED:
		if (old == PW_STREAM_STATE_CONNECTING)
			ncpw_log(app, "node %u \"%s\" (%s) ready, profile %s",
				 pw_stream_get_node_id(app->stream), app->node_name, app->description,
				 app->profile->name);
		NCPW_HOOK(app, paused);
		break;
	case PW_STREAM_STATE_ERROR:
		ncpw_log(app, "the node failed: %s", error ? error : "unknown error");
		NCPW_HOOK(app, failed, error ? error : "unknown error");
		break;
	case PW_STREAM_STATE_UNCONNECTED:
		if (app->quitting || app->unplugged)
			break;
		ncpw_log(app, "disconnected from PipeWire");
		NCPW_HOOK(app, failed, "disconnected from PipeWire");
		break;
	default:
		break;
	}
}

/* Our answer to a Format: the buffers to allocate for it, and the meta. */
static void ncpw_offer_buffers(struct ncpw *app)
{
	uint8_t mem[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(mem, sizeof(mem));
	const struct spa_pod *params[2];

	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
		SPA_POD_CHOICE_RANGE_Int(4, 2, 16), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
		SPA_PARAM_BUFFERS_size, SPA_POD_Int(app->pix.sizeimage), SPA_PARAM_BUFFERS_stride,
		SPA_POD_Int(app->pix.bytesperline), SPA_PARAM_BUFFERS_dataType,
		SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd));
	params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
					       SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
					       SPA_PARAM_META_size,
					       SPA_POD_Int(sizeof(struct spa_meta_header)));
	pw_stream_update_params(app->stream, params, 2);
}

static void ncpw_on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct ncpw *app = data;
	char why[160], got[64];

	if (id != SPA_PARAM_Format)
		return;
	app->have_format = false;
	if (!param) {
		NCPW_HOOK(app, format); /* cleared: have_format false */
		return;
	}
	if (ncpw_formats_apply(app, param, why, sizeof(why)) < 0) {
		app->count.refused++;
		ncpw_log(app, "a consumer's format refused: %s", why);
		return;
	}
	app->have_format = true;
	app->count.formats++;
	ncpw_formats_describe(&app->pix, app->interval, got, sizeof(got));
	ncpw_log(app, "format %s, %u bytes a frame", got, app->pix.sizeimage);
	ncpw_offer_buffers(app);
	NCPW_HOOK(app, format);
}

static void ncpw_on_add_buffer(void *data, struct pw_buffer *b)
{
	struct ncpw_buf *nb = calloc(1, sizeof(*nb));

	if (nb)
		nb->prev = NC_FRAME_NONE;
	b->user_data = nb;
}

static void ncpw_on_remove_buffer(void *data, struct pw_buffer *b)
{
	free(b->user_data);
	b->user_data = NULL;
}

static void ncpw_on_process(void *data)
{
	struct ncpw *app = data;

	NCPW_HOOK(app, process);
}

static const struct pw_stream_events ncpw_stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = ncpw_on_state,
	.param_changed = ncpw_on_param_changed,
	.add_buffer = ncpw_on_add_buffer,
	.remove_buffer = ncpw_on_remove_buffer,
	.process = ncpw_on_process,
};

static struct pw_properties *ncpw_node_props(const struct ncpw *app)
{
	return pw_properties_new(PW_KEY_MEDIA_CLASS, "Video/Source", PW_KEY_MEDIA_ROLE, "Camera",
				 PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
				 PW_KEY_NODE_NAME, app->node_name, PW_KEY_NODE_DESCRIPTION,
				 app->description, PW_KEY_NODE_NICK, app->label, PW_KEY_NODE_DRIVER,
				 "true", "negcam.profile", app->profile->name, "negcam.label",
				 app->label, NULL);
}

int ncpw_stream_start(struct ncpw *app)
{
	const struct spa_pod **pods = calloc(NCPW_MAX_PODS, sizeof(*pods));
	void *mem = malloc(NCPW_POD_BYTES);
	uint32_t n = 0;
	int ret = -ENOMEM;

	if (!pods || !mem)
		goto out;
	n = ncpw_formats_build(app, mem, NCPW_POD_BYTES, pods, NCPW_MAX_PODS);
	ret = -EINVAL;
	if (n == 0)
		goto out;
	app->stream = pw_stream_new(app->core, app->node_name, ncpw_node_props(app));
	ret = -errno;
	if (!app->stream)
		goto out;
	pw_stream_add_listener(app->stream, &app->stream_listener, &ncpw_stream_events, app);
	ret = pw_stream_connect(app->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
				PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS, pods, n);
	if (ret < 0)
		ncpw_log(app, "cannot publish the node: %s", strerror(-ret));
out:
	free(pods);
	free(mem);
	return ret < 0 ? ret : 0;
}

/* The node leaves the graph; PipeWire unmaps and closes the buffers' memfds. */
void ncpw_stream_stop(struct ncpw *app)
{
	if (!app->stream)
		return;
	NCPW_HOOK(app, paused);
	pw_stream_destroy(app->stream);
	app->stream = NULL;
}
