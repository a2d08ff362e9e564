// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What every part of the node library uses: its name (node.name from the
 * label) and its log (the user's log hook, else stderr). See pw-node.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "pw-node.h"

void ncpw_log(struct ncpw *app, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (app->hooks && app->hooks->log)
		app->hooks->log(app, msg);
	else
		fprintf(stderr, "negcam-pw: %s\n", msg);
}

/* node.name: "negcam." and the label, with what is not [A-Za-z0-9._-] as '-'. */
void ncpw_name_node(struct ncpw *app)
{
	char *p;

	snprintf(app->node_name, sizeof(app->node_name), "negcam.%s", app->label);
	for (p = app->node_name + 7; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '-';
}
