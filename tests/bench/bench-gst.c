// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * bench-gst: runs one GStreamer pipeline and measures it from a buffer
 * probe on the source pad of the element named "src" (tests/bench/).
 *
 *   bench-gst [-w WARMUP] [-n FRAMES] [-t TIMEOUT] [-T COMM] [-m N] 'PIPELINE'
 *
 * Prints key=value lines:
 *   first_buffer_ms  NULL->PLAYING request to the first buffer pushed
 *   frames, window_s, fps          over the window (frames WARMUP+1 ..
 *                                  WARMUP+FRAMES), wall time
 *   cpu_us_per_frame, user_us_per_frame, sys_us_per_frame
 *                                  getrusage(RUSAGE_SELF) over the window
 *   thread_us_per_frame, thread_tick_us_per_frame
 *                                  the kernel thread whose comm starts
 *                                  with COMM (-T): /proc/PID/schedstat
 *                                  (ns) and /proc/PID/stat utime+stime
 *   allocs_per_frame               counted by bench-malloc.so (LD_PRELOAD)
 *   maxrss_kb                      peak RSS at the end
 *   delay_pts_us_{min,mean,max}    clock running time at the push minus
 *                                  PTS (for v4l2src: since the driver's
 *                                  timestamp, which it maps to its PTS)
 *   delay_ref_us_{min,mean,max}    now minus GstReferenceTimestampMeta,
 *                                  when the buffers carry one
 *   latency_live/min_us/max_us     LATENCY query on the source
 *   nondevice_buffers              with -c: buffers in the window whose
 *                                  memory, once mapped, is not inside a
 *                                  mapping of /dev/video* or a dma-buf
 *                                  (/proc/self/maps): i.e. copies
 *   offset_gaps                    frames missing in GST_BUFFER_OFFSET
 *   stats.*, negotiated.*          the source's "stats" property and its
 *                                  first negcam-negotiated message
 *   streamon_ms, dqbuf_ms          NULL->PLAYING request to the first
 *                                  VIDIOC_STREAMON call, and to the first
 *                                  VIDIOC_DQBUF that succeeded (none: the
 *                                  source made no such ioctl)
 * -r N: N times from NULL to the first buffer of the window, in one
 * process; first_buffer_ms, streamon_ms and dqbuf_ms are the medians,
 * first_buffer_runs all of them.
 * -m N: backtraces of the first N allocations of the window to stderr
 * (bench-malloc.so); run.sh resolves them to file:line.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <stdarg.h>
#include <linux/videodev2.h>

#include <gst/gst.h>

typedef struct {
  guint64 ts, tick;
} ThreadCpu;

static struct {
  GstElement *pipe, *src;
  GMainLoop *loop;
  guint warm, n;
  guint64 frames;
  gint64 t0, t_first, ta, tb;
  struct rusage ra, rb;
  unsigned long ma, mb;
  gboolean done, failed;
  int trace_n;
  /* kernel thread */
  char thread_comm[32];
  int thread_pid;
  ThreadCpu tha, thb;
  /* delays */
  gint64 dmin, dmax, dsum, rmin, rmax, rsum;
  guint dn, rn;
  /* device mappings */
  uintptr_t lo[64], hi[64];
  int nmaps;
  gboolean maps_known, check_copies;
  guint nondevice;
  guint64 last_offset;
  gboolean have_offset;
  guint64 gaps;
  GstStructure *negotiated;
  /* phases: set by ioctl() below from the streaming thread, 0 until seen */
  gint64 t_streamon, t_dqbuf;
} B;

static unsigned long (*malloc_count) (void);
static void (*malloc_trace) (int fd, int n);

static gint64
mono_ns (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The phases of a start: bench-gst exports its own ioctl() (built with
 * -rdynamic), which the elements' plugins resolve before libc's. It
 * stamps the first VIDIOC_STREAMON as it is called (what comes before is
 * the element's negotiation and buffer set-up; STREAMON itself is the
 * device's: uvcvideo's COMMIT and SET_INTERFACE) and the first
 * VIDIOC_DQBUF that succeeds, then calls libc's.
 */
int ioctl (int fd, unsigned long req, ...);

static void
stamp_once (gint64 *t)
{
  gint64 zero = 0;

  __atomic_compare_exchange_n (t, &zero, mono_ns (CLOCK_MONOTONIC), FALSE,
      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int
ioctl (int fd, unsigned long req, ...)
{
  static int (*real) (int, unsigned long, ...);
  va_list ap;
  void *arg;
  int ret;

  va_start (ap, req);
  arg = va_arg (ap, void *);
  va_end (ap);
  if (!real)
    real = (int (*)(int, unsigned long, ...)) dlsym (RTLD_NEXT, "ioctl");
  if (req == VIDIOC_STREAMON)
    stamp_once (&B.t_streamon);
  ret = real (fd, req, arg);
  if (ret == 0 && req == VIDIOC_DQBUF)
    stamp_once (&B.t_dqbuf);
  return ret;
}

/* Reads a small /proc file without stdio (no allocation in the window). */
static int
read_small (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC), n;

  if (fd < 0)
    return -1;
  n = read (fd, buf, size - 1);
  close (fd);
  if (n < 0)
    return -1;
  buf[n] = 0;
  return n;
}

static void
find_thread (void)
{
  DIR *d;
  struct dirent *e;
  char path[300], comm[64];
  size_t len = strlen (B.thread_comm);

  if (!len || B.thread_pid > 0)
    return;
  d = opendir ("/proc");
  if (!d)
    return;
  while ((e = readdir (d))) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9')
      continue;
    snprintf (path, sizeof (path), "/proc/%s/comm", e->d_name);
    if (read_small (path, comm, sizeof (comm)) > 0
        && !strncmp (comm, B.thread_comm, len)) {
      B.thread_pid = atoi (e->d_name);
      break;
    }
  }
  closedir (d);
}

static void
read_thread (ThreadCpu *t)
{
  char path[64], buf[1024], *p;
  unsigned long ut = 0, st = 0;
  int i;

  t->ts = t->tick = 0;
  if (B.thread_pid <= 0)
    return;
  snprintf (path, sizeof (path), "/proc/%d/schedstat", B.thread_pid);
  if (read_small (path, buf, sizeof (buf)) > 0)
    t->ts = strtoull (buf, NULL, 10);
  snprintf (path, sizeof (path), "/proc/%d/stat", B.thread_pid);
  if (read_small (path, buf, sizeof (buf)) <= 0)
    return;
  p = strrchr (buf, ')');
  /* after ") ": field 3 state ... 14 utime, 15 stime */
  for (i = 3; p && i < 15; i++)
    p = strchr (p + 1, ' ');
  if (p && sscanf (p + 1, "%lu %lu", &ut, &st) == 2)
    t->tick = (guint64) (ut + st) * (1000000000 / sysconf (_SC_CLK_TCK));
}

static void
load_maps (void)
{
  static char buf[1 << 18];
  char *line, *save = NULL;
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC), n = 0, r;

  B.nmaps = 0;
  if (fd < 0)
    return;
  /* seq_file: a page or so per read, so read to the end */
  while (n < (int) sizeof (buf) - 1
      && (r = read (fd, buf + n, sizeof (buf) - 1 - n)) > 0)
    n += r;
  close (fd);
  buf[n] = 0;
  if (n <= 0)
    return;
  for (line = strtok_r (buf, "\n", &save); line && B.nmaps < 64;
      line = strtok_r (NULL, "\n", &save)) {
    unsigned long lo, hi;

    if (!strstr (line, "/dev/video") && !strstr (line, "dmabuf"))
      continue;
    if (sscanf (line, "%lx-%lx", &lo, &hi) == 2) {
      B.lo[B.nmaps] = lo;
      B.hi[B.nmaps] = hi;
      B.nmaps++;
    }
  }
  B.maps_known = TRUE;
}

/* No device mapping found: say which shared mappings there are. */
static void
dump_shared_maps (void)
{
  static char buf[1 << 18];
  char *line, *save = NULL;
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC), n = 0, r;

  if (fd < 0)
    return;
  while (n < (int) sizeof (buf) - 1
      && (r = read (fd, buf + n, sizeof (buf) - 1 - n)) > 0)
    n += r;
  close (fd);
  buf[n] = 0;
  printf ("shared_maps=");
  for (line = strtok_r (buf, "\n", &save); line;
      line = strtok_r (NULL, "\n", &save)) {
    char perms[8] = "";

    if (sscanf (line, "%*x-%*x %7s", perms) == 1 && perms[3] == 's')
      printf ("[%s] ", line);
  }
  printf ("\n");
}

static gboolean
in_device_memory (uintptr_t p)
{
  int i, pass;

  for (pass = 0; pass < 2; pass++) {
    for (i = 0; i < B.nmaps; i++)
      if (p >= B.lo[i] && p < B.hi[i])
        return TRUE;
    if (pass == 0)
      load_maps ();
  }
  return FALSE;
}

static void
snapshot (gint64 *t, struct rusage *r, unsigned long *m, ThreadCpu *th)
{
  *t = mono_ns (CLOCK_MONOTONIC);
  getrusage (RUSAGE_SELF, r);
  *m = malloc_count ? malloc_count () : 0;
  read_thread (th);
}

static GstPadProbeReturn
probe (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClock *clock;

  if (B.done)
    return GST_PAD_PROBE_OK;
  B.frames++;
  if (B.frames == 1) {
    B.t_first = mono_ns (CLOCK_MONOTONIC);
    load_maps ();
  }
  if (B.frames == B.warm) {
    find_thread ();
    snapshot (&B.ta, &B.ra, &B.ma, &B.tha);
    if (B.trace_n && malloc_trace)
      malloc_trace (2, B.trace_n);
  }
  if (B.frames <= B.warm)
    goto offsets;

  /* delay from the timestamp to this push */
  clock = GST_ELEMENT_CLOCK (B.src);
  if (clock && GST_BUFFER_PTS_IS_VALID (buf)) {
    gint64 d = (gint64) (gst_clock_get_time (clock)
        - gst_element_get_base_time (B.src)) - (gint64) GST_BUFFER_PTS (buf);

    if (!B.dn || d < B.dmin)
      B.dmin = d;
    if (!B.dn || d > B.dmax)
      B.dmax = d;
    B.dsum += d;
    B.dn++;
  }
  {
    GstReferenceTimestampMeta *rm =
        gst_buffer_get_reference_timestamp_meta (buf, NULL);

    if (rm) {
      const GstStructure *s = gst_caps_get_structure (rm->reference, 0);
      gboolean unix_time = strstr (gst_structure_get_name (s), "unix") != NULL;
      gint64 d = mono_ns (unix_time ? CLOCK_REALTIME : CLOCK_MONOTONIC)
          - (gint64) rm->timestamp;

      if (!B.rn || d < B.rmin)
        B.rmin = d;
      if (!B.rn || d > B.rmax)
        B.rmax = d;
      B.rsum += d;
      B.rn++;
    }
  }
  if (B.check_copies && gst_buffer_n_memory (buf) > 0) {
    GstMapInfo map;

    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      if (!in_device_memory ((uintptr_t) map.data))
        B.nondevice++;
      gst_buffer_unmap (buf, &map);
    }
  }

  if (B.frames == (guint64) B.warm + B.n) {
    snapshot (&B.tb, &B.rb, &B.mb, &B.thb);
    if (B.trace_n && malloc_trace)
      malloc_trace (2, 0);
    B.done = TRUE;
    g_main_loop_quit (B.loop);
  }

offsets:
  if (GST_BUFFER_OFFSET_IS_VALID (buf)) {
    guint64 o = GST_BUFFER_OFFSET (buf);

    if (B.have_offset && o > B.last_offset + 1 && B.frames > B.warm)
      B.gaps += o - B.last_offset - 1;
    B.last_offset = o;
    B.have_offset = TRUE;
  }
  return GST_PAD_PROBE_OK;
}

static gboolean
on_bus (GstBus *bus, GstMessage *msg, gpointer data)
{
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      fprintf (stderr, "bench-gst: error from %s: %s\n%s\n",
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
          dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      B.failed = TRUE;
      g_main_loop_quit (B.loop);
      break;
    }
    case GST_MESSAGE_EOS:
      if (!B.done) {
        fprintf (stderr, "bench-gst: EOS after %" G_GUINT64_FORMAT
            " frames\n", B.frames);
        B.failed = TRUE;
      }
      g_main_loop_quit (B.loop);
      break;
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);

      if (s && gst_structure_has_name (s, "negcam-negotiated") && !B.negotiated)
        B.negotiated = gst_structure_copy (s);
      break;
    }
    default:
      break;
  }
  return TRUE;
}

static gboolean
on_timeout (gpointer data)
{
  fprintf (stderr, "bench-gst: timeout after %" G_GUINT64_FORMAT " frames\n",
      B.frames);
  B.failed = TRUE;
  g_main_loop_quit (B.loop);
  return FALSE;
}

static gboolean
print_field (GQuark field, const GValue *v, gpointer prefix)
{
  if (G_VALUE_HOLDS_UINT (v))
    printf ("%s.%s=%u\n", (char *) prefix, g_quark_to_string (field),
        g_value_get_uint (v));
  else if (G_VALUE_HOLDS_INT (v))
    printf ("%s.%s=%d\n", (char *) prefix, g_quark_to_string (field),
        g_value_get_int (v));
  else if (G_VALUE_HOLDS_UINT64 (v))
    printf ("%s.%s=%" G_GUINT64_FORMAT "\n", (char *) prefix,
        g_quark_to_string (field), g_value_get_uint64 (v));
  else if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v))
    printf ("%s.%s=%s\n", (char *) prefix, g_quark_to_string (field),
        g_value_get_string (v));
  return TRUE;
}

static double
per_frame_us (const struct timeval *a, const struct timeval *b, guint n)
{
  double d = (b->tv_sec - a->tv_sec) * 1e6 + (b->tv_usec - a->tv_usec);

  return d / n;
}

/* Options into B, *timeout and *repeat; FALSE (usage said) on a bad command line. */
static gboolean
parse_args (int argc, char **argv, guint * timeout, guint * repeat)
{
  int c;

  B.warm = 30;
  B.n = 300;
  while ((c = getopt (argc, argv, "cw:n:t:T:m:r:")) != -1) {
    switch (c) {
      case 'w':
        B.warm = atoi (optarg);
        break;
      case 'n':
        B.n = atoi (optarg);
        break;
      case 't':
        *timeout = atoi (optarg);
        break;
      case 'T':
        g_strlcpy (B.thread_comm, optarg, sizeof (B.thread_comm));
        break;
      case 'm':
        B.trace_n = atoi (optarg);
        break;
      case 'c':
        B.check_copies = TRUE;
        break;
      case 'r':
        *repeat = CLAMP (atoi (optarg), 1, 64);
        break;
      default:
        fprintf (stderr, "usage: bench-gst [-w WARMUP] [-n FRAMES] "
            "[-t TIMEOUT] [-T COMM] [-m N] [-r REPEAT] [-c] 'PIPELINE'\n");
        return FALSE;
    }
  }
  if (optind != argc - 1 || B.warm < 1 || B.n < 1) {
    fprintf (stderr, "bench-gst: one pipeline description expected\n");
    return FALSE;
  }
  return TRUE;
}

/* The pipeline, its "src" element probed, its bus watched; FALSE (said) on error. */
static gboolean
setup_pipeline (const char *description)
{
  GError *err = NULL;
  GstPad *pad;

  B.pipe = gst_parse_launch (description, &err);
  if (!B.pipe || err) {
    fprintf (stderr, "bench-gst: %s\n", err->message);
    return FALSE;
  }
  B.src = gst_bin_get_by_name (GST_BIN (B.pipe), "src");
  if (!B.src) {
    fprintf (stderr, "bench-gst: the pipeline needs an element named src\n");
    return FALSE;
  }
  pad = gst_element_get_static_pad (B.src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, probe, NULL, NULL);
  gst_object_unref (pad);
  B.loop = g_main_loop_new (NULL, FALSE);
  gst_bus_add_watch (GST_ELEMENT_BUS (B.pipe), on_bus, NULL);
  return TRUE;
}

/* The times of each run from the NULL->PLAYING request, in ms (-1: none). */
typedef struct {
  double first[64], streamon[64], dqbuf[64];
} Phases;

static double
since_t0 (gint64 t)
{
  return t ? (t - B.t0) / 1e6 : -1;
}

/*
 * @repeat times from NULL to the end of the window (-r: the element reopens
 * the device and forgets what it probed at NULL); the times of each run's
 * phases into @ph. Returns the number of runs.
 */
static guint
run_cycles (guint timeout, guint repeat, Phases *ph)
{
  guint run;

  for (run = 0; run < repeat && !B.failed; run++) {
    guint to;

    if (run > 0) {
      gst_element_set_state (B.pipe, GST_STATE_NULL);
      B.frames = 0;
      B.done = FALSE;
      B.dn = B.rn = 0;
      B.dsum = B.rsum = 0;
      B.nondevice = 0;
      B.gaps = 0;
      B.have_offset = FALSE;
    }
    to = g_timeout_add_seconds (timeout, on_timeout, NULL);
    __atomic_store_n (&B.t_streamon, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n (&B.t_dqbuf, 0, __ATOMIC_SEQ_CST);
    B.t0 = mono_ns (CLOCK_MONOTONIC);
    if (gst_element_set_state (B.pipe, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE) {
      /* the error message says why */
      B.failed = TRUE;
    }
    g_main_loop_run (B.loop);
    if (!B.failed)
      g_source_remove (to);
    ph->first[run] = B.frames > 0 ? (B.t_first - B.t0) / 1e6 : -1;
    ph->streamon[run] = since_t0 (__atomic_load_n (&B.t_streamon, __ATOMIC_SEQ_CST));
    ph->dqbuf[run] = since_t0 (__atomic_load_n (&B.t_dqbuf, __ATOMIC_SEQ_CST));
  }
  return run;
}

/* "NAME=median" of the @n values of @v that are known, or "NAME=none". */
static void
print_median (const char *name, const double *v, guint n)
{
  double sorted[64];
  guint i, j, k = 0;

  for (i = 0; i < n; i++)
    if (v[i] >= 0)
      sorted[k++] = v[i];
  for (i = 1; i < k; i++)
    for (j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
      double t = sorted[j];

      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }
  if (k)
    printf ("%s=%.3f\n", name, sorted[k / 2]);
  else
    printf ("%s=none\n", name);
}

/* first_buffer_ms, streamon_ms, dqbuf_ms (medians of @n runs),
 * first_buffer_runs, caps. */
static void
print_first_buffers (const Phases *ph, guint n)
{
  GstPad *sp = gst_element_get_static_pad (B.src, "src");
  GstCaps *caps = gst_pad_get_current_caps (sp);
  guint i;

  print_median ("first_buffer_ms", ph->first, n);
  print_median ("streamon_ms", ph->streamon, n);
  print_median ("dqbuf_ms", ph->dqbuf, n);
  printf ("first_buffer_runs=");
  for (i = 0; i < n; i++)
    printf ("%s%.1f", i ? " " : "", ph->first[i]);
  printf ("\n");
  if (caps) {
    gchar *str = gst_caps_to_string (caps);

    printf ("caps=%s\n", str);
    g_free (str);
    gst_caps_unref (caps);
  }
  gst_object_unref (sp);
}

/* latency_live, latency_min_us, latency_max_us: the source's LATENCY query. */
static void
print_latency (void)
{
  GstQuery *q = gst_query_new_latency ();

  if (gst_element_query (B.src, q)) {
    gboolean live;
    GstClockTime min, max;

    gst_query_parse_latency (q, &live, &min, &max);
    printf ("latency_live=%d\nlatency_min_us=%.0f\n", live, min / 1e3);
    if (GST_CLOCK_TIME_IS_VALID (max))
      printf ("latency_max_us=%.0f\n", max / 1e3);
    else
      printf ("latency_max_us=none\n");
  }
  gst_query_unref (q);
}

/* What the window measured: rate, CPU, allocations, delays, copies, gaps. */
static void
print_window (void)
{
  double wall = (B.tb - B.ta) / 1e9;
  double u = per_frame_us (&B.ra.ru_utime, &B.rb.ru_utime, B.n);
  double s = per_frame_us (&B.ra.ru_stime, &B.rb.ru_stime, B.n);

  printf ("frames=%u\nwindow_s=%.3f\nfps=%.1f\n", B.n, wall, B.n / wall);
  printf ("cpu_us_per_frame=%.1f\nuser_us_per_frame=%.1f\n"
      "sys_us_per_frame=%.1f\n", u + s, u, s);
  if (B.thread_pid > 0) {
    printf ("thread_pid=%d\nthread_us_per_frame=%.1f\n"
        "thread_tick_us_per_frame=%.1f\n", B.thread_pid,
        (B.thb.ts - B.tha.ts) / 1e3 / B.n,
        (B.thb.tick - B.tha.tick) / 1e3 / B.n);
  }
  if (malloc_count)
    printf ("allocs_per_frame=%.3f\n", (double) (B.mb - B.ma) / B.n);
  if (B.dn)
    printf ("delay_pts_us_min=%.0f\ndelay_pts_us_mean=%.0f\n"
        "delay_pts_us_max=%.0f\n", B.dmin / 1e3, B.dsum / 1e3 / B.dn,
        B.dmax / 1e3);
  if (B.rn)
    printf ("delay_ref_us_min=%.0f\ndelay_ref_us_mean=%.0f\n"
        "delay_ref_us_max=%.0f\n", B.rmin / 1e3, B.rsum / 1e3 / B.rn,
        B.rmax / 1e3);
  if (B.check_copies) {
    printf ("nondevice_buffers=%u\n", B.nondevice);
    if (B.nmaps == 0)
      dump_shared_maps ();
  }
  printf ("offset_gaps=%" G_GUINT64_FORMAT "\n", B.gaps);
}

/* stats.*, negotiated.* and maxrss_kb. */
static void
print_source_stats (void)
{
  struct rusage r;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (B.src), "stats")) {
    GstStructure *st = NULL;

    g_object_get (B.src, "stats", &st, NULL);
    if (st) {
      gst_structure_foreach (st, print_field, (gpointer) "stats");
      gst_structure_free (st);
    }
  }
  if (B.negotiated) {
    gst_structure_foreach (B.negotiated, print_field, (gpointer) "negotiated");
    gst_structure_free (B.negotiated);
  }
  getrusage (RUSAGE_SELF, &r);
  printf ("maxrss_kb=%ld\n", r.ru_maxrss);
}

int
main (int argc, char **argv)
{
  guint timeout = 120, repeat = 1, runs;
  static Phases ph;

  if (!parse_args (argc, argv, &timeout, &repeat))
    return 2;
  gst_init (NULL, NULL);
  /* registered now, not at the first buffer of the window */
  gst_reference_timestamp_meta_get_info ();
  g_type_class_unref (g_type_class_ref (GST_TYPE_PAD_PROBE_RETURN));
  malloc_count = dlsym (RTLD_DEFAULT, "bench_malloc_count");
  malloc_trace = dlsym (RTLD_DEFAULT, "bench_malloc_trace");
  if (!setup_pipeline (argv[optind]))
    return 2;

  runs = run_cycles (timeout, repeat, &ph);
  if (B.frames > 0)
    print_first_buffers (&ph, runs);
  print_latency ();
  if (B.done)
    print_window ();
  print_source_stats ();
  fflush (stdout);
  gst_element_set_state (B.pipe, GST_STATE_NULL);
  gst_object_unref (B.src);
  gst_object_unref (B.pipe);
  return B.failed || !B.done ? 1 : 0;
}
