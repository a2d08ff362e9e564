/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the user asked negcamdeviceprovider to list (see
 * negcamdeviceprovider-private.h): $XDG_CONFIG_HOME/negcam/provider.conf
 * (one built-in profile name or profile file per line, '#' comments,
 * "nodes = yes"), overridden by NEGCAM_PROVIDER_PROFILES and
 * NEGCAM_PROVIDER_NODES. Nothing set: nothing listed (opt-in, so that a
 * system-wide install does not fill every camera menu).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "negcamdeviceprovider-private.h"

GST_DEBUG_CATEGORY_EXTERN (negcamdeviceprovider_debug);
#define GST_CAT_DEFAULT negcamdeviceprovider_debug

/* Add the non-empty, stripped entries of @items to @list (no duplicate). */
static void
add_entries (GPtrArray *list, gchar **items)
{
  guint i;

  for (i = 0; items[i]; i++) {
    gchar *item = g_strstrip (items[i]);

    if (*item
        && !g_ptr_array_find_with_equal_func (list, item, g_str_equal, NULL))
      g_ptr_array_add (list, g_strdup (item));
  }
}

static gboolean
is_yes (const gchar *v)
{
  return !g_ascii_strcasecmp (v, "1") || !g_ascii_strcasecmp (v, "yes")
      || !g_ascii_strcasecmp (v, "true");
}

/* provider.conf: one profile entry per line; "nodes = yes" (a line with
 * '=') is the one setting; '#' starts a comment. */
static void
read_config_file (ProviderConfig *conf, const gchar *path)
{
  gchar *text = NULL, **lines;
  guint i;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar *hash = strchr (lines[i], '#'), *eq;

    if (hash)
      *hash = '\0';
    eq = strchr (lines[i], '=');
    if (!eq)
      continue;
    *eq = '\0';
    if (!g_strcmp0 (g_strstrip (lines[i]), "nodes"))
      conf->nodes = is_yes (g_strstrip (eq + 1));
    else
      GST_WARNING ("%s: unknown setting '%s'", path, lines[i]);
    lines[i][0] = '\0'; /* not a profile entry */
  }
  add_entries (conf->profiles, lines);
  g_strfreev (lines);
  g_free (text);
}

/*
 * The file is $XDG_CONFIG_HOME/negcam/provider.conf ("~/.config" when
 * unset), read here rather than through g_get_user_config_dir(), which
 * caches. NEGCAM_PROVIDER_PROFILES (comma separated), when set even
 * empty, replaces the file's profiles; NEGCAM_PROVIDER_NODES its nodes
 * setting. Nothing set: nothing listed.
 */
void
negcam_provider_config_read (ProviderConfig *conf)
{
  const gchar *env = g_getenv ("NEGCAM_PROVIDER_PROFILES");
  const gchar *nodes = g_getenv ("NEGCAM_PROVIDER_NODES");
  const gchar *xdg = g_getenv ("XDG_CONFIG_HOME");
  gchar *path;

  conf->profiles = g_ptr_array_new_with_free_func (g_free);
  conf->nodes = FALSE;
  if (xdg && g_path_is_absolute (xdg))
    path = g_build_filename (xdg, "negcam", "provider.conf", NULL);
  else
    path = g_build_filename (
        g_get_home_dir (), ".config", "negcam", "provider.conf", NULL);
  read_config_file (conf, path);
  if (env) {
    gchar **items = g_strsplit (env, ",", -1);

    g_ptr_array_set_size (conf->profiles, 0);
    add_entries (conf->profiles, items);
    g_strfreev (items);
  }
  if (nodes)
    conf->nodes = is_yes (nodes);
  GST_DEBUG ("%s: %u profiles, nodes %s", path, conf->profiles->len,
      conf->nodes ? "yes" : "no");
  g_free (path);
}
