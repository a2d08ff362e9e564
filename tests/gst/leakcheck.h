/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Leak checks shared by the gst tests: open file descriptors, and the
 * leaks tracer's count of live GstObjects and GstMiniObjects (run with
 * GST_TRACERS=leaks; find_leaks_tracer() is NULL without it).
 */
#ifndef NEGCAM_TEST_LEAKCHECK_H
#define NEGCAM_TEST_LEAKCHECK_H

#include <dirent.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>

/* Descriptors open in this process (the directory's own included). */
static inline guint
count_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  guint n = 0;

  while (d && readdir (d))
    n++;
  if (d)
    closedir (d);
  return n;
}

static inline GstTracer *
find_leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  GstTracer *found = NULL;

  for (l = tracers; l; l = l->next)
    if (!found && !g_strcmp0 (G_OBJECT_TYPE_NAME (l->data), "GstLeaksTracer"))
      found = gst_object_ref (l->data);
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

/* Objects created minus objects destroyed since the last checkpoint: the
 * change in the number of live GstObjects and GstMiniObjects. */
static inline gint
live_delta (GstTracer * tracer)
{
  GstStructure *cp = NULL;
  const GValue *created, *removed;
  gint delta;

  g_signal_emit_by_name (tracer, "activity-get-checkpoint", &cp);
  fail_unless (cp != NULL);
  created = gst_structure_get_value (cp, "objects-created-list");
  removed = gst_structure_get_value (cp, "objects-removed-list");
  delta = (gint) gst_value_list_get_size (created) -
      (gint) gst_value_list_get_size (removed);
  if (delta != 0) {
    /* Name what is left: per type, created minus destroyed. */
    GHashTable *types = g_hash_table_new (g_str_hash, g_str_equal);
    GHashTableIter it;
    gpointer k, v;
    guint i;

    for (i = 0; i < gst_value_list_get_size (created); i++)
      k = (gpointer) gst_structure_get_string (gst_value_get_structure
          (gst_value_list_get_value (created, i)), "type-name"),
          g_hash_table_insert (types, k,
          GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (types,
                      k)) + 1));
    for (i = 0; i < gst_value_list_get_size (removed); i++)
      k = (gpointer) gst_structure_get_string (gst_value_get_structure
          (gst_value_list_get_value (removed, i)), "type-name"),
          g_hash_table_insert (types, k,
          GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (types,
                      k)) - 1));
    g_hash_table_iter_init (&it, types);
    while (g_hash_table_iter_next (&it, &k, &v))
      if (GPOINTER_TO_INT (v))
        gst_printerrln ("left: %d %s", GPOINTER_TO_INT (v), (gchar *) k);
    g_hash_table_unref (types);
  }
  GST_INFO ("%u objects created, %u destroyed",
      gst_value_list_get_size (created), gst_value_list_get_size (removed));
  gst_structure_free (cp);
  return delta;
}

#endif /* NEGCAM_TEST_LEAKCHECK_H */
