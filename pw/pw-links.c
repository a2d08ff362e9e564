// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The consumers' links, watched so that a failed one is said in our log.
 * PipeWire intersects a consumer's formats with the node's EnumFormat
 * before negcam-pw hears of it: a consumer asking what the profile lacks
 * gets no Format here, only a link in error ("no more input formats") in
 * the daemon's log. So the registry is watched for links out of our
 * node; each is bound, and the first time one reports the error state its
 * reason is printed. The node itself is untouched and serves on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pw-node.h"

struct ncpw_link {
	struct ncpw *app;
	struct pw_proxy *proxy;
	struct spa_hook proxy_hook;
	struct spa_hook link_hook;
	bool reported;
};

static void ncpw_link_info(void *data, const struct pw_link_info *info)
{
	struct ncpw_link *l = data;

	if (info->state != PW_LINK_STATE_ERROR || l->reported)
		return;
	l->reported = true;
	l->app->count.refused++;
	ncpw_log(l->app,
		 "a consumer's link failed: %s (it asked a format profile %s "
		 "does not offer; the node serves on)",
		info->error ? info->error : "no reason given", l->app->profile->name);
}

static const struct pw_link_events ncpw_link_events = {
	PW_VERSION_LINK_EVENTS,
	.info = ncpw_link_info,
};

static void ncpw_link_removed(void *data)
{
	struct ncpw_link *l = data;

	pw_proxy_destroy(l->proxy);
}

static void ncpw_link_destroy(void *data)
{
	struct ncpw_link *l = data;

	spa_hook_remove(&l->link_hook);
	spa_hook_remove(&l->proxy_hook);
}

static const struct pw_proxy_events ncpw_link_proxy_events = {
	PW_VERSION_PROXY_EVENTS,
	.removed = ncpw_link_removed,
	.destroy = ncpw_link_destroy,
};

static void ncpw_links_global(void *data, uint32_t id, uint32_t permissions, const char *type,
			      uint32_t version, const struct spa_dict *props)
{
	struct ncpw *app = data;
	struct pw_proxy *proxy;
	struct ncpw_link *l;
	const char *out;

	if (strcmp(type, PW_TYPE_INTERFACE_Link) != 0 || !props || !app->stream)
		return;
	out = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
	if (!out || (uint32_t)strtoul(out, NULL, 10) != pw_stream_get_node_id(app->stream))
		return;
	proxy = pw_registry_bind(app->registry, id, type, PW_VERSION_LINK, sizeof(*l));
	if (!proxy)
		return;
	l = pw_proxy_get_user_data(proxy);
	l->app = app;
	l->proxy = proxy;
	pw_proxy_add_listener(proxy, &l->proxy_hook, &ncpw_link_proxy_events, l);
	pw_proxy_add_object_listener(proxy, &l->link_hook, &ncpw_link_events, l);
}

static const struct pw_registry_events ncpw_links_registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = ncpw_links_global,
};

int ncpw_links_watch(struct ncpw *app)
{
	app->registry = pw_core_get_registry(app->core, PW_VERSION_REGISTRY, 0);
	if (!app->registry)
		return -errno;
	pw_registry_add_listener(app->registry, &app->registry_hook, &ncpw_links_registry_events,
				 app);
	return 0;
}

void ncpw_links_stop(struct ncpw *app)
{
	if (!app->registry)
		return;
	spa_hook_remove(&app->registry_hook);
	pw_proxy_destroy((struct pw_proxy *)app->registry);
	app->registry = NULL;
}
