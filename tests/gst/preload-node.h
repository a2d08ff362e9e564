/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L2 node that libnegcam-preload.so (negcam-run's library, run/)
 * serves to a host test: meson runs the test with LD_PRELOAD and
 * NEGCAM_RUN_NODES="PATH=PROFILE" (docs/negcam-run.md). No kernel module,
 * no compiler: the product itself is the device.
 */
#ifndef NEGCAM_TEST_PRELOAD_NODE_H
#define NEGCAM_TEST_PRELOAD_NODE_H

#include <glib.h>

/* The first configured node's path and profile (g_free both), or FALSE
 * when the test runs without the library. */
static inline gboolean
preload_node (gchar **path, gchar **profile)
{
  const gchar *nodes = g_getenv ("NEGCAM_RUN_NODES");
  const gchar *eq = nodes ? strchr (nodes, '=') : NULL;
  const gchar *end;

  if (!eq || !g_getenv ("LD_PRELOAD"))
    return FALSE;
  end = strchr (eq, ';');
  *path = g_strndup (nodes, eq - nodes);
  *profile = end ? g_strndup (eq + 1, end - eq - 1) : g_strdup (eq + 1);
  return TRUE;
}

/* The same, kept for the whole run: part 0 the path, 1 the profile; NULL
 * without the library. */
static inline const gchar *
preload_node_part (guint i)
{
  static gchar *part[2];

  if (!part[0] && !preload_node (&part[0], &part[1]))
    return NULL;
  return part[i];
}

#define preload_node_path() preload_node_part (0)
#define preload_node_profile() preload_node_part (1)

#endif /* NEGCAM_TEST_PRELOAD_NODE_H */
