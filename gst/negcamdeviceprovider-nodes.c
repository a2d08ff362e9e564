/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L2 video nodes of a device directory (video<N>, in number order),
 * for negcamdeviceprovider's listing and its hotplug watch (see
 * negcamdeviceprovider-private.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>

#include "negcamdeviceprovider-private.h"

GST_DEBUG_CATEGORY_EXTERN (negcamdeviceprovider_debug);
#define GST_CAT_DEFAULT negcamdeviceprovider_debug

/* "video" followed by digits only: the V4L2 video nodes. */
gboolean
negcam_is_video_node_name (const gchar *name)
{
  const gchar *p;

  if (!g_str_has_prefix (name, "video") || !name[5])
    return FALSE;
  for (p = name + 5; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

static gint
compare_node_names (gconstpointer a, gconstpointer b)
{
  const gchar *x = *(const gchar *const *)a, *y = *(const gchar *const *)b;

  return (gint)(strtoul (x + 5, NULL, 10) > strtoul (y + 5, NULL, 10))
      - (gint)(strtoul (x + 5, NULL, 10) < strtoul (y + 5, NULL, 10));
}

/* The node paths of @dir, in number order. */
GPtrArray *
negcam_list_video_nodes (const gchar *dir)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  const gchar *name;
  GDir *d;
  guint i;

  d = g_dir_open (dir, 0, &err);
  if (!d) {
    GST_INFO ("no device directory: %s", err->message);
    g_error_free (err);
    g_ptr_array_unref (names);
    return paths;
  }
  while ((name = g_dir_read_name (d)))
    if (negcam_is_video_node_name (name))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_node_names);
  for (i = 0; i < names->len; i++)
    g_ptr_array_add (
        paths, g_build_filename (dir, (const gchar *)names->pdata[i], NULL));
  g_ptr_array_unref (names);
  return paths;
}
