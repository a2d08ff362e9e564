// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The registry, read once: which negcam-pw cameras this user's PipeWire
 * holds (negcam-pw --list), and whether a node name is taken (a second
 * negcam-pw with the same --label). A node is negcam-pw's when its
 * node.name starts with "negcam." (pw-stream.c names them so). The walk
 * ends at the core's answer to a sync, after every global was announced.
 */
#include <stdio.h>
#include <string.h>

#include "negcam-pw.h"

struct ncpw_list {
	struct pw_main_loop *loop;
	bool print;
	const char *want;
	int found;
	int seq;
	int count;
};

static void ncpw_list_global(void *data, uint32_t id, uint32_t permissions, const char *type,
			     uint32_t version, const struct spa_dict *props)
{
	struct ncpw_list *l = data;
	const char *name, *desc, *cls;

	if (strcmp(type, PW_TYPE_INTERFACE_Node) != 0 || !props)
		return;
	name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
	if (!name || strncmp(name, "negcam.", 7) != 0)
		return;
	desc = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
	cls = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
	if (l->want && strcmp(name, l->want) == 0)
		l->found = 1;
	if (l->print)
		printf("%u\t%s\t%s\t%s\n", id, name, desc ? desc : "", cls ? cls : "");
	l->count++;
}

static const struct pw_registry_events ncpw_registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = ncpw_list_global,
};

static void ncpw_list_done(void *data, uint32_t id, int seq)
{
	struct ncpw_list *l = data;

	if (id == PW_ID_CORE && seq == l->seq)
		pw_main_loop_quit(l->loop);
}

static void ncpw_list_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	struct ncpw_list *l = data;

	fprintf(stderr, "negcam-pw: PipeWire error: %s\n", message);
	l->found = res < 0 ? res : -EIO;
	pw_main_loop_quit(l->loop);
}

static const struct pw_core_events ncpw_list_core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = ncpw_list_done,
	.error = ncpw_list_error,
};

int ncpw_list_nodes(struct pw_main_loop *loop, struct pw_core *core, bool print,
		    const char *node_name)
{
	struct ncpw_list l = {.loop = loop, .print = print, .want = node_name};
	struct spa_hook core_hook = {0}, reg_hook = {0};
	struct pw_registry *reg = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);

	if (!reg)
		return -errno;
	pw_core_add_listener(core, &core_hook, &ncpw_list_core_events, &l);
	pw_registry_add_listener(reg, &reg_hook, &ncpw_registry_events, &l);
	l.seq = pw_core_sync(core, PW_ID_CORE, 0);
	pw_main_loop_run(loop);
	spa_hook_remove(&reg_hook);
	spa_hook_remove(&core_hook);
	pw_proxy_destroy((struct pw_proxy *)reg);
	if (print && l.count == 0 && l.found >= 0)
		printf("no negcam-pw camera is running\n");
	return l.found;
}
