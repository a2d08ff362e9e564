// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SIGTERM: before the node goes, each consumer is told (docs/pipewire.md,
 * "When negcam-pw ends"). A consumer's stream only sees its link go and
 * its port lose the format, and pauses: PipeWire 0.3.65's pipewiresrc then
 * waits for its target to come back, forever. What makes a pw_stream
 * report an error is an error on its node's proxy, which the server sends
 * when someone calls the Client method `error(id, res, message)` on the
 * consumer's client (WirePlumber does it for a stream whose target is
 * gone and that may not be moved). So the registry is walked once more:
 * the links out of our node give the consumers' nodes, their client.id
 * the clients; each client is bound and told, for its node, that the
 * camera stopped; a core sync makes sure the server has sent it before
 * the node is destroyed. A consumer's pw_stream then emits
 * PW_STREAM_STATE_ERROR with our message (pipewiresrc posts "stream
 * error: ..."). After SIGKILL nothing of ours runs: see the docs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "negcam-pw.h"

#define NCPW_FW_MAX 64

struct ncpw_fw {
	struct ncpw *app;
	uint32_t self;
	uint32_t consumer[NCPW_FW_MAX]; /* input nodes of links out of ours */
	uint32_t n_consumers;
	uint32_t node[NCPW_FW_MAX * 4], client[NCPW_FW_MAX * 4]; /* node id -> client id */
	uint32_t n_nodes;
	int seq;
};

static uint32_t ncpw_fw_id(const struct spa_dict *props, const char *key)
{
	const char *v = props ? spa_dict_lookup(props, key) : NULL;

	return v ? (uint32_t)strtoul(v, NULL, 10) : SPA_ID_INVALID;
}

static void ncpw_fw_global(void *data, uint32_t id, uint32_t permissions, const char *type,
			   uint32_t version, const struct spa_dict *props)
{
	struct ncpw_fw *fw = data;

	if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0 &&
	    ncpw_fw_id(props, PW_KEY_LINK_OUTPUT_NODE) == fw->self && fw->n_consumers < NCPW_FW_MAX)
		fw->consumer[fw->n_consumers++] = ncpw_fw_id(props, PW_KEY_LINK_INPUT_NODE);
	if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0 && fw->n_nodes < NCPW_FW_MAX * 4) {
		fw->node[fw->n_nodes] = id;
		fw->client[fw->n_nodes++] = ncpw_fw_id(props, PW_KEY_CLIENT_ID);
	}
}

static const struct pw_registry_events ncpw_fw_registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = ncpw_fw_global,
};

static void ncpw_fw_done(void *data, uint32_t id, int seq)
{
	struct ncpw_fw *fw = data;

	if (id == PW_ID_CORE && seq == fw->seq)
		pw_main_loop_quit(fw->app->loop);
}

static const struct pw_core_events ncpw_fw_core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = ncpw_fw_done,
};

/* Run the loop until the server has handled everything sent so far. */
static void ncpw_fw_sync(struct ncpw_fw *fw)
{
	fw->seq = pw_core_sync(fw->app->core, PW_ID_CORE, fw->seq);
	pw_main_loop_run(fw->app->loop);
}

static uint32_t ncpw_fw_client_of(const struct ncpw_fw *fw, uint32_t node)
{
	uint32_t i;

	for (i = 0; i < fw->n_nodes; i++)
		if (fw->node[i] == node)
			return fw->client[i];
	return SPA_ID_INVALID;
}

/* Tell each consumer's client that its node's camera is gone. */
static uint32_t ncpw_fw_tell(struct ncpw_fw *fw, struct pw_registry *reg, struct pw_proxy **told)
{
	struct ncpw *app = fw->app;
	uint32_t i, client, n = 0;
	char msg[200];

	snprintf(msg, sizeof(msg), "negcam-pw: camera %s (%s) stopped", app->node_name,
		 app->description);
	for (i = 0; i < fw->n_consumers; i++) {
		client = ncpw_fw_client_of(fw, fw->consumer[i]);
		if (client == SPA_ID_INVALID)
			continue;
		told[n] = pw_registry_bind(reg, client, PW_TYPE_INTERFACE_Client, PW_VERSION_CLIENT,
					   0);
		if (!told[n])
			continue;
		pw_client_error((struct pw_client *)told[n], fw->consumer[i], -EPIPE, msg);
		n++;
	}
	return n;
}

void ncpw_farewell(struct ncpw *app)
{
	struct ncpw_fw fw = {.app = app};
	struct pw_proxy *told[NCPW_FW_MAX];
	struct spa_hook reg_hook, core_hook;
	struct pw_registry *reg;
	uint32_t i, n;

	if (!app->stream || !app->core)
		return;
	fw.self = pw_stream_get_node_id(app->stream);
	reg = pw_core_get_registry(app->core, PW_VERSION_REGISTRY, 0);
	if (!reg)
		return;
	spa_zero(reg_hook);
	spa_zero(core_hook);
	pw_core_add_listener(app->core, &core_hook, &ncpw_fw_core_events, &fw);
	pw_registry_add_listener(reg, &reg_hook, &ncpw_fw_registry_events, &fw);
	ncpw_fw_sync(&fw);
	spa_hook_remove(&reg_hook);
	n = ncpw_fw_tell(&fw, reg, told);
	if (n)
		ncpw_fw_sync(&fw);
	spa_hook_remove(&core_hook);
	for (i = 0; i < n; i++)
		pw_proxy_destroy(told[i]);
	pw_proxy_destroy((struct pw_proxy *)reg);
	if (fw.n_consumers)
		fprintf(stderr, "negcam-pw: told %u of %u consumers that the camera stopped\n", n,
			fw.n_consumers);
}
