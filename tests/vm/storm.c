// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * storm: a seeded concurrent ioctl storm against V4L2 nodes (negcam.ko,
 * or vivid for calibration), for the VM suite tests/vm/storm-suite.sh
 * (docs/kmod.md, "Storm").
 *
 *   storm [--seed N] [--seconds S] [--procs P] [--threads T]
 *         [--driver NAME] [--chaos] [--max-unplugs N] [--hang S]
 *
 * P processes of T threads each (the workers) run random but valid-shaped
 * sequences on the nodes of driver NAME (default negcam), found by
 * QUERYCAP on /dev/video0..63 and found again as nodes come and go: open,
 * close, dup, fork, every ioctl the driver answers with random and hostile
 * arguments (bad indexes, types, sizes, fourccs, counts, pointers into
 * inaccessible memory or the kernel's half), REQBUFS 0 and N, CREATE_BUFS, QUERYBUF, mmap, munmap,
 * QBUF/DQBUF in and out of order, STREAMON/OFF, read(), write(), poll,
 * EXPBUF and DMABUF import of one node's buffers into another. Workers 1
 * and 2 of each process prefer a loop's output node (producers) and its
 * capture nodes (consumers). With --chaos one more process (two threads) swaps
 * profiles through configfs (valid, malformed, built-in, profile_large),
 * unbinds and binds devices (unplug and replug), writes the unplug
 * attribute (at most --max-unplugs times, default 1: it cannot be undone),
 * and creates, enables, disables and removes loops under configfs loops/.
 *
 * Each worker draws its operations from its own PRNG stream, seeded from
 * the seed and the worker's index, the same draws for a seed whatever
 * happens; which operation a draw picks also depends on the state of the
 * worker's handles, so a replay repeats a run as far as the outcomes
 * repeat (the interleaving is not repeated). The seed is printed first;
 * --seed replays it.
 *
 * Invariants, checked as it goes (a breach is a VIOLATION line):
 *  - a dequeued buffer's bytesused is at most its length, and a queried
 *    one's when it is done (filled, not dequeued); read() returns at most
 *    what was asked;
 *  - on a capture queue the sequence numbers a file handle dequeues
 *    increase strictly between its STREAMON and STREAMOFF (equal twice
 *    for the two fields of V4L2_FIELD_ALTERNATE);
 *  - G_FMT equals the last successful S_FMT on that handle while nobody
 *    could have changed the format since: every operation that may change
 *    a device's format (S_FMT, S_INPUT/S_OUTPUT, a random ioctl, a profile
 *    swap, unbind/bind, from any process) bumps the device's counter in
 *    shared memory before and after it; a S_FMT is remembered only when
 *    nobody else bumped during it, and G_FMT is judged only when the
 *    counter is still where that S_FMT left it, before and after. Nodes
 *    of a loop are not judged (the other side of a loop changes their
 *    format by design, docs/loopback.md), nor handles shared by dup or
 *    fork;
 *  - the page after the hostile memory is never written (every worker
 *    process checks it at its end);
 *  - no worker stays in one operation longer than --hang seconds (default
 *    8): the parent watches the heartbeats in shared memory and prints
 *    the operation, the node and /proc/TID/stack of a stuck worker.
 * Exit status 0 when no invariant broke and nothing hung, 1 otherwise, 2
 * on a usage or setup error. The operation counts (attempted, succeeded)
 * are printed per kind at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define MAX_WORKERS 64
#define MAX_FILES 4
#define MAX_NODES 64
#define MAX_MAPS 8
#define MAX_DMABUFS 4
/*
 * A mapping or an exported dma-buf keeps its buffer alive after REQBUFS 0
 * and close: only buffers up to this size are kept (a 1080p YUYV frame),
 * larger ones are let go at once, or the VM runs out of memory.
 */
#define KEEP_MAX (4u << 20)
#define MAX_BUFS 32
#define NKEYS 64
#define NERR 128
#define RBUF_SIZE (8u << 20)
/* No queue of more than this many bytes on purpose (the VM has 1.5 GiB). */
#define QUEUE_BYTES_MAX (48u << 20)
#define CFS "/sys/kernel/config/negcam"
#define NDEV_MAX 8
#define CHAOS_THREADS 2

#define OPS(X)                                                               \
	X(OPEN, "open") X(CLOSE, "close") X(DUP, "dup") X(FORK, "fork")      \
	X(QUERYCAP, "QUERYCAP") X(ENUM_FMT, "ENUM_FMT") X(G_FMT, "G_FMT")    \
	X(S_FMT, "S_FMT") X(TRY_FMT, "TRY_FMT")                              \
	X(FRAMESIZES, "ENUM_FRAMESIZES") X(FRAMEIVALS, "ENUM_FRAMEINTERVALS") \
	X(G_PARM, "G_PARM") X(S_PARM, "S_PARM") X(QUERYCTRL, "QUERYCTRL")    \
	X(G_CTRL, "G_CTRL") X(S_CTRL, "S_CTRL") X(EXT_CTRLS, "G/S/TRY_EXT_CTRLS") \
	X(QUERYMENU, "QUERYMENU") X(SUBSCRIBE, "SUBSCRIBE_EVENT")            \
	X(UNSUBSCRIBE, "UNSUBSCRIBE_EVENT") X(DQEVENT, "DQEVENT")            \
	X(ENUMINPUT, "ENUMINPUT") X(G_INPUT, "G_INPUT") X(S_INPUT, "S_INPUT") \
	X(ENUMOUTPUT, "ENUMOUTPUT") X(G_OUTPUT, "G_OUTPUT")                  \
	X(S_OUTPUT, "S_OUTPUT") X(PRIORITY, "G/S_PRIORITY")                  \
	X(REQBUFS, "REQBUFS") X(CREATE_BUFS, "CREATE_BUFS")                  \
	X(QUERYBUF, "QUERYBUF") X(PREPARE_BUF, "PREPARE_BUF") X(MMAP, "mmap") \
	X(MUNMAP, "munmap") X(QBUF, "QBUF") X(DQBUF, "DQBUF")                \
	X(STREAMON, "STREAMON") X(STREAMOFF, "STREAMOFF") X(READ, "read")    \
	X(WRITE, "write") X(POLL, "poll") X(EXPBUF, "EXPBUF")                \
	X(DMABUF, "QBUF DMABUF import") X(LOG_STATUS, "LOG_STATUS")          \
	X(RANDOM_IOCTL, "random ioctl") X(SCAN, "scan nodes")                \
	X(SWAP_BUILTIN, "cfs builtin swap") X(SWAP_TEXT, "cfs profile swap") \
	X(SWAP_BAD, "cfs malformed profile") X(SWAP_LARGE, "cfs profile_large") \
	X(CFS_READ, "cfs/sysfs read") X(UNBIND, "unbind (unplug)")           \
	X(BIND, "bind (replug)") X(UNPLUG, "sysfs unplug")                   \
	X(LOOP_ADD, "loop mkdir+enable") X(LOOP_DEL, "loop rmdir")           \
	X(LOOP_TOGGLE, "loop enable 0/1") X(LOOP_PARAM, "loop_timeout_ms")

#define OP_ENUM(id, name) OP_##id,
enum op { OPS(OP_ENUM) NOPS };
#define OP_NAME(id, name) name,
static const char *const op_names[NOPS] = { OPS(OP_NAME) };

/* ---- shared memory: heartbeats, counters, format epochs ---- */

struct slot {
	int tid;			/* who runs the current operation */
	int op;
	long long op_start;		/* CLOCK_MONOTONIC ns, 0 when idle */
	char node[24];
	long long count[NOPS];
	long long ok[NOPS];
	int err[NOPS][NERR];	/* failures by errno (NERR - 1: others) */
	int reported;
};

struct shared {
	unsigned long epoch[NKEYS];
	int stop;
	int violations;
	int unplugs;
	struct slot slot[MAX_WORKERS];
};

static struct shared *sh;

/* ---- settings ---- */

static unsigned long long seed;
static int seconds = 60, nprocs = 3, nthreads = 3, hang_secs = 8;
static int max_unplugs = 1, chaos;
static const char *driver = "negcam";
static long long t_end;

/*
 * Hostile memory (hostile_setup): edge_page is mapped and bad_page, right
 * after it, starts HOSTILE_SPAN bytes of PROT_NONE memory; a canary page
 * follows, which nothing may ever change. A USERPTR buffer at either is
 * never longer than the memory behind it (userptr_room): the kernel pins a
 * USERPTR buffer's whole length, PROT_NONE pages included (6.1, FOLL_FORCE), so
 * a longer one would reach past it into whatever is mapped there (the
 * shared counters, the loader's data) and fill it with frames. KERNEL_PTR
 * is refused whatever the length (access_ok).
 */
#define HOSTILE_SPAN (16u << 20)
#define KERNEL_PTR 0xffff888000000000ul
#define CANARY 0xa5
static char *bad_page, *edge_page, *canary;

/*
 * The hostile memory: edge_page, HOSTILE_SPAN bytes of PROT_NONE (bad_page),
 * the canary page. One mapping, so that nothing else can land between
 * them. Make test runs saw workers and their fork children die in ld.so's
 * symbol lookup at the end of a storm: the hostile page was a single one,
 * and USERPTR buffers queued on it (with lengths up to 4 GiB) reached past
 * it into the next mappings, where the driver drew its frames.
 */
static int hostile_setup(void)
{
	size_t len = 4096 + HOSTILE_SPAN + 4096;

	edge_page = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (edge_page == MAP_FAILED)
		return -1;
	bad_page = edge_page + 4096;
	canary = bad_page + HOSTILE_SPAN;
	memset(canary, CANARY, 4096);
	return mprotect(bad_page, HOSTILE_SPAN, PROT_NONE);
}

/* The canary page after the hostile memory is intact (1), or not (0). */
static int canary_intact(void)
{
	int i;

	for (i = 0; i < 4096; i++)
		if ((unsigned char)canary[i] != CANARY)
			return 0;
	return 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- PRNG: splitmix64 to seed, xorshift64* per stream ---- */

struct rng {
	uint64_t s;
};

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31)) | 1;
}

static uint64_t next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

static unsigned int rnd(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)((next(r) >> 33) % n) : 0;
}

static bool chance(struct rng *r, unsigned int pct)
{
	return rnd(r, 100) < pct;
}

/* ---- workers ---- */

struct node {
	char path[20];
	bool out;	/* an output node */
	bool loop;	/* a node of a negcam loop */
	unsigned int key;
};

struct file {
	int fd;		/* -1: free */
	struct node node;
	__u32 type;
	__u32 memory;
	unsigned int nbufs;
	bool streaming;
	bool shared;	/* dup'd or seen by a fork child: not judged */
	bool loser;	/* REQBUFS said EBUSY: another handle owns the queue */
	unsigned int held;	/* bit i: buffer i is ours (not queued) */
	long long last_seq;
	bool have_fmt;
	unsigned long fmt_epoch;
	struct v4l2_pix_format fmt;
	__u32 sizeimage;
	__u32 len[MAX_BUFS];
};

struct map {
	void *addr;
	size_t len;
};

struct worker {
	int id;
	int role;	/* 0 any node, 1 producer, 2 consumer */
	bool child;	/* a fork child: no checks, no prints */
	struct rng rng;
	struct slot *slot;
	struct file f[MAX_FILES];
	struct map maps[MAX_MAPS];
	int dmabuf[MAX_DMABUFS];
	__u32 dmabuf_len[MAX_DMABUFS];
	struct node nodes[MAX_NODES];
	int nnodes;
	long long step;
	char *rbuf;
};

static void violation(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void violation(struct worker *w, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (w->child)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	__atomic_add_fetch(&sh->violations, 1, __ATOMIC_SEQ_CST);
	fprintf(stderr, "storm: VIOLATION: worker %d step %lld (seed %llu) on %s: %s\n",
		w->id, w->step, seed, w->slot->node, msg);
}

static void begin(struct worker *w, int op, const char *node)
{
	struct slot *s = w->slot;

	s->op = op;
	snprintf(s->node, sizeof(s->node), "%s", node ? node : "-");
	__atomic_store_n(&s->op_start, now_ns(), __ATOMIC_RELEASE);
}

static int end(struct worker *w, int op, int ret)
{
	struct slot *s = w->slot;

	__atomic_store_n(&s->op_start, 0, __ATOMIC_RELEASE);
	s->count[op]++;
	if (ret >= 0)
		s->ok[op]++;
	else
		s->err[op][-ret < NERR ? -ret : NERR - 1]++;
	return ret;
}

/* Bump the format epoch of @key: before and after any format change. */
static unsigned long bump(unsigned int key)
{
	return __atomic_add_fetch(&sh->epoch[key % NKEYS], 1, __ATOMIC_SEQ_CST);
}

static unsigned long epoch(unsigned int key)
{
	return __atomic_load_n(&sh->epoch[key % NKEYS], __ATOMIC_SEQ_CST);
}

static unsigned int key_of(const char *bus)
{
	unsigned int h = 2166136261u;

	for (; *bus; bus++)
		h = (h ^ (unsigned char)*bus) * 16777619u;
	return h % NKEYS;
}

/* ioctl on @f, or with a hostile pointer for the argument (1 in 12). */
static int xioctl(struct worker *w, struct rng *r, struct file *f, int op,
		  unsigned long req, void *arg)
{
	int ret;

	if (chance(r, 8)) {
		switch (rnd(r, 3)) {
		case 0: arg = bad_page; break;
		case 1: arg = edge_page + 4096 - 1 - rnd(r, _IOC_SIZE(req) | 1); break;
		default: arg = (void *)(uintptr_t)rnd(r, 4096); break;
		}
	}
	begin(w, op, f->node.path);
	ret = ioctl(f->fd, req, arg);
	return end(w, op, ret < 0 ? -errno : 0);
}

/* ---- node discovery ---- */

/*
 * What the handle @fd is, from QUERYCAP: the storm's kind of node (0), or
 * not (-1). A path may name another device than when it was scanned (an
 * unbind frees its number, the next bind takes it), so every new handle
 * asks again.
 */
static int node_of(int fd, struct node *n)
{
	struct v4l2_capability cap;
	__u32 c;

	memset(&cap, 0, sizeof(cap));
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) || strcmp((char *)cap.driver, driver))
		return -1;
	c = cap.device_caps;
	if (!(c & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT)))
		return -1;
	n->out = !(c & V4L2_CAP_VIDEO_CAPTURE);
	n->loop = strstr((char *)cap.bus_info, "loop") != NULL;
	n->key = key_of((char *)cap.bus_info);
	return 0;
}

static void scan_nodes(struct worker *w)
{
	struct node *n;
	int i, fd;

	w->nnodes = 0;
	begin(w, OP_SCAN, "/dev/video*");
	for (i = 0; i < MAX_NODES; i++) {
		n = &w->nodes[w->nnodes];
		snprintf(n->path, sizeof(n->path), "/dev/video%d", i);
		fd = open(n->path, O_RDWR | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (!node_of(fd, n))
			w->nnodes++;
		close(fd);
	}
	end(w, OP_SCAN, w->nnodes ? 0 : -ENOENT);
}

/* A node for a new handle: producers prefer output nodes, consumers loops. */
static bool fits_role(const struct worker *w, const struct node *n)
{
	return w->role == 1 ? n->out : w->role == 2 ? n->loop && !n->out : true;
}

static const struct node *pick_node(struct worker *w, struct rng *r)
{
	int i, tries;

	if (!w->nnodes)
		return NULL;
	/*
	 * A home node mostly, the first of the worker's kind from its index
	 * on: fewer handles fight over each queue, and producers and
	 * consumers stay on their sides of a loop.
	 */
	if (chance(r, 60)) {
		for (i = 0; i < w->nnodes; i++)
			if (fits_role(w, &w->nodes[(w->id + i) % w->nnodes]))
				return &w->nodes[(w->id + i) % w->nnodes];
	}
	for (tries = 0; tries < 4 && w->role; tries++) {
		i = rnd(r, w->nnodes);
		if (fits_role(w, &w->nodes[i]))
			return &w->nodes[i];
	}
	return &w->nodes[rnd(r, w->nnodes)];
}

/* ---- random arguments ---- */

static __u32 rfourcc(struct rng *r)
{
	static const __u32 cc[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_MJPEG,
		V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24,
		V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_GREY,
		V4L2_PIX_FMT_H264, V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_NV16,
	};

	if (chance(r, 10))
		return chance(r, 50) ? 0 : (__u32)next(r);
	return cc[rnd(r, sizeof(cc) / sizeof(cc[0]))];
}

static __u32 rdim(struct rng *r, __u32 typical)
{
	switch (rnd(r, 10)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return (__u32)next(r);
	case 3: return 65535;
	case 4: return 16 + rnd(r, 4000);
	default: return typical;
	}
}

static __u32 rindx(struct rng *r, unsigned int n)
{
	if (chance(r, 8))
		return chance(r, 50) ? ~0u : (__u32)next(r);
	return rnd(r, n + 2);
}

/* The handle's own buffer type mostly, a random one sometimes. */
static __u32 rtype(struct rng *r, const struct file *f)
{
	if (chance(r, 8))
		return chance(r, 50) ? rnd(r, 16) : (__u32)next(r);
	return f->type;
}

static __u32 rmemory(struct rng *r)
{
	switch (rnd(r, 12)) {
	case 0: return V4L2_MEMORY_USERPTR;
	case 1: return V4L2_MEMORY_DMABUF;
	case 2: return rnd(r, 8);
	default: return V4L2_MEMORY_MMAP;
	}
}

static __u32 rcid(struct rng *r)
{
	static const __u32 id[] = {
		V4L2_CID_MIN_BUFFERS_FOR_CAPTURE, V4L2_CID_MIN_BUFFERS_FOR_OUTPUT,
		V4L2_CID_TEST_PATTERN, V4L2_CID_BRIGHTNESS, V4L2_CID_HFLIP,
		V4L2_CID_USER_BASE | 0xf100, V4L2_CID_USER_BASE | 0xf101,
		V4L2_CID_USER_BASE | 0xf102, V4L2_CID_USER_BASE | 0xf103,
		V4L2_CTRL_FLAG_NEXT_CTRL, V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND,
		V4L2_CID_USER_CLASS, V4L2_CID_CAMERA_CLASS, 0,
	};

	if (chance(r, 8))
		return (__u32)next(r);
	return id[rnd(r, sizeof(id) / sizeof(id[0]))];
}

/* ---- per-handle bookkeeping ---- */

static void file_reset_stream(struct file *f)
{
	f->streaming = false;
	f->last_seq = -1;
	f->held = f->nbufs >= 32 ? ~0u : (1u << f->nbufs) - 1;
}

static void file_close(struct worker *w, struct file *f)
{
	if (f->fd >= 0) {
		begin(w, OP_CLOSE, f->node.path);
		end(w, OP_CLOSE, close(f->fd));
	}
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static void op_open(struct worker *w, struct rng *r, struct file *f)
{
	const struct node *n;
	int fd;

	if (!w->nnodes || chance(r, 2))
		scan_nodes(w);
	n = pick_node(w, r);
	if (!n) {
		usleep(20000);	/* every node gone for now (unbound, removed) */
		return;
	}
	begin(w, OP_OPEN, n->path);
	fd = open(n->path, O_RDWR | O_NONBLOCK | (chance(r, 20) ? O_CLOEXEC : 0));
	if (end(w, OP_OPEN, fd < 0 ? -errno : 0) < 0) {
		if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
			scan_nodes(w);
		return;
	}
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->node = *n;
	/* Gone already, or another device now: not judged (a loop's rules). */
	if (node_of(fd, &f->node))
		f->node.loop = true;
	f->type = f->node.out ? V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->memory = V4L2_MEMORY_MMAP;
	f->last_seq = -1;
}

static void op_dup(struct worker *w, struct rng *r, struct file *f)
{
	struct file *d = &w->f[rnd(r, MAX_FILES)];
	int fd;

	if (d == f)
		return;
	file_close(w, d);
	begin(w, OP_DUP, f->node.path);
	fd = dup(f->fd);
	if (end(w, OP_DUP, fd < 0 ? -errno : 0) < 0)
		return;
	*d = *f;
	d->fd = fd;
	d->shared = f->shared = true;
}

/* ---- formats ---- */

static void fill_pix(struct rng *r, struct file *f, struct v4l2_format *fm)
{
	memset(fm, 0, sizeof(*fm));
	fm->type = rtype(r, f);
	fm->fmt.pix.width = rdim(r, 320 << rnd(r, 3));
	fm->fmt.pix.height = rdim(r, 240 << rnd(r, 3));
	fm->fmt.pix.pixelformat = rfourcc(r);
	fm->fmt.pix.field = chance(r, 10) ? rnd(r, 12) : V4L2_FIELD_ANY;
	if (chance(r, 10))
		fm->fmt.pix.bytesperline = (__u32)next(r);
	if (chance(r, 10))
		fm->fmt.pix.sizeimage = (__u32)next(r);
}

static bool same_pix(const struct v4l2_pix_format *a,
		     const struct v4l2_pix_format *b)
{
	return a->width == b->width && a->height == b->height &&
	       a->pixelformat == b->pixelformat && a->field == b->field &&
	       a->bytesperline == b->bytesperline &&
	       a->sizeimage == b->sizeimage && a->colorspace == b->colorspace;
}

static void op_s_fmt(struct worker *w, struct rng *r, struct file *f, bool try)
{
	struct v4l2_format fm;
	unsigned long pre, post;
	int ret;

	fill_pix(r, f, &fm);
	if (try) {
		xioctl(w, r, f, OP_TRY_FMT, VIDIOC_TRY_FMT, &fm);
		return;
	}
	pre = bump(f->node.key);
	ret = xioctl(w, r, f, OP_S_FMT, VIDIOC_S_FMT, &fm);
	post = bump(f->node.key);
	/* A failed S_FMT leaves the format as it was: still judged. */
	if (ret && f->have_fmt && f->fmt_epoch == pre - 1 && post == pre + 1)
		f->fmt_epoch = post;
	if (ret || fm.type != f->type)
		return;
	f->fmt = fm.fmt.pix;
	f->sizeimage = fm.fmt.pix.sizeimage;
	f->have_fmt = post == pre + 1;
	f->fmt_epoch = post;
}

static void op_g_fmt(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_format fm;
	unsigned long e1, e2;
	int ret;

	memset(&fm, 0, sizeof(fm));
	fm.type = rtype(r, f);
	e1 = epoch(f->node.key);
	ret = xioctl(w, r, f, OP_G_FMT, VIDIOC_G_FMT, &fm);
	e2 = epoch(f->node.key);
	if (ret || fm.type != f->type)
		return;
	f->sizeimage = fm.fmt.pix.sizeimage;
	if (!f->have_fmt || f->shared || f->node.loop || e1 != f->fmt_epoch ||
	    e2 != e1 || same_pix(&fm.fmt.pix, &f->fmt))
		return;
	violation(w, "G_FMT %ux%u %.4s field %u bpl %u size %u cs %u, but the last S_FMT on this handle set %ux%u %.4s field %u bpl %u size %u cs %u and nobody changed it since",
		  fm.fmt.pix.width, fm.fmt.pix.height, (char *)&fm.fmt.pix.pixelformat,
		  fm.fmt.pix.field, fm.fmt.pix.bytesperline, fm.fmt.pix.sizeimage,
		  fm.fmt.pix.colorspace, f->fmt.width, f->fmt.height,
		  (char *)&f->fmt.pixelformat, f->fmt.field, f->fmt.bytesperline,
		  f->fmt.sizeimage, f->fmt.colorspace);
	f->have_fmt = false;
}

static void op_enum(struct worker *w, struct rng *r, struct file *f, int op)
{
	union {
		struct v4l2_fmtdesc d;
		struct v4l2_frmsizeenum s;
		struct v4l2_frmivalenum i;
	} u;

	memset(&u, 0, sizeof(u));
	switch (op) {
	case OP_ENUM_FMT:
		u.d.index = rindx(r, 12);
		u.d.type = rtype(r, f);
		if (chance(r, 10))
			u.d.mbus_code = (__u32)next(r);
		xioctl(w, r, f, op, VIDIOC_ENUM_FMT, &u.d);
		break;
	case OP_FRAMESIZES:
		u.s.index = rindx(r, 12);
		u.s.pixel_format = rfourcc(r);
		xioctl(w, r, f, op, VIDIOC_ENUM_FRAMESIZES, &u.s);
		break;
	default:
		u.i.index = rindx(r, 8);
		u.i.pixel_format = rfourcc(r);
		u.i.width = rdim(r, 640);
		u.i.height = rdim(r, 480);
		xioctl(w, r, f, op, VIDIOC_ENUM_FRAMEINTERVALS, &u.i);
		break;
	}
}

static void op_parm(struct worker *w, struct rng *r, struct file *f, bool set)
{
	struct v4l2_streamparm p;
	struct v4l2_fract *tpf = f->node.out ? &p.parm.output.timeperframe :
					       &p.parm.capture.timeperframe;

	memset(&p, 0, sizeof(p));
	p.type = rtype(r, f);
	if (!set) {
		xioctl(w, r, f, OP_G_PARM, VIDIOC_G_PARM, &p);
		return;
	}
	tpf->numerator = chance(r, 10) ? (__u32)next(r) : 1 + rnd(r, 2);
	tpf->denominator = chance(r, 10) ? rnd(r, 2) : 5 + rnd(r, 56);
	xioctl(w, r, f, OP_S_PARM, VIDIOC_S_PARM, &p);
}

/* ---- controls and events ---- */

static void op_ctrl(struct worker *w, struct rng *r, struct file *f, int op)
{
	struct v4l2_ext_control c[3];
	struct v4l2_ext_controls ec;
	struct v4l2_query_ext_ctrl qe;
	struct v4l2_queryctrl q;
	struct v4l2_querymenu m;
	struct v4l2_control ctl;
	static const unsigned long ext[] = {
		VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS,
	};
	unsigned int i;

	switch (op) {
	case OP_QUERYCTRL:
		memset(&q, 0, sizeof(q));
		memset(&qe, 0, sizeof(qe));
		q.id = qe.id = rcid(r);
		if (chance(r, 50))
			xioctl(w, r, f, op, VIDIOC_QUERYCTRL, &q);
		else
			xioctl(w, r, f, op, VIDIOC_QUERY_EXT_CTRL, &qe);
		break;
	case OP_G_CTRL:
	case OP_S_CTRL:
		ctl.id = rcid(r);
		ctl.value = chance(r, 20) ? (__s32)next(r) : (__s32)rnd(r, 4);
		xioctl(w, r, f, op, op == OP_G_CTRL ? VIDIOC_G_CTRL : VIDIOC_S_CTRL, &ctl);
		break;
	case OP_QUERYMENU:
		memset(&m, 0, sizeof(m));
		m.id = rcid(r);
		m.index = rindx(r, 4);
		xioctl(w, r, f, op, VIDIOC_QUERYMENU, &m);
		break;
	default:
		memset(&ec, 0, sizeof(ec));
		memset(c, 0, sizeof(c));
		ec.which = chance(r, 80) ? V4L2_CTRL_WHICH_CUR_VAL :
			   chance(r, 50) ? V4L2_CTRL_WHICH_DEF_VAL : (__u32)next(r);
		ec.count = chance(r, 10) ? (__u32)next(r) : rnd(r, 4);
		ec.controls = chance(r, 10) ? (void *)bad_page : c;
		for (i = 0; i < 3; i++) {
			c[i].id = rcid(r);
			c[i].value = (__s32)rnd(r, 4);
			c[i].size = chance(r, 10) ? (__u32)next(r) : 0;
		}
		if (ec.count > 3 && ec.controls == c)
			ec.count = 3;
		xioctl(w, r, f, op, ext[rnd(r, 3)], &ec);
		break;
	}
}

static void op_event(struct worker *w, struct rng *r, struct file *f, int op)
{
	static const __u32 types[] = {
		V4L2_EVENT_SOURCE_CHANGE, V4L2_EVENT_CTRL, V4L2_EVENT_EOS,
		V4L2_EVENT_FRAME_SYNC, V4L2_EVENT_ALL, V4L2_EVENT_VSYNC,
	};
	struct v4l2_event_subscription s;
	struct v4l2_event ev;

	if (op == OP_DQEVENT) {
		memset(&ev, 0, sizeof(ev));
		xioctl(w, r, f, op, VIDIOC_DQEVENT, &ev);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.type = chance(r, 8) ? (__u32)next(r) : types[rnd(r, 6)];
	s.id = s.type == V4L2_EVENT_CTRL ? rcid(r) : rnd(r, 2);
	s.flags = rnd(r, 4);
	xioctl(w, r, f, op, op == OP_SUBSCRIBE ? VIDIOC_SUBSCRIBE_EVENT :
		VIDIOC_UNSUBSCRIBE_EVENT, &s);
}

static void op_io(struct worker *w, struct rng *r, struct file *f, int op)
{
	struct v4l2_output o;
	struct v4l2_input in;
	__u32 i = rindx(r, 2);

	switch (op) {
	case OP_ENUMINPUT:
		memset(&in, 0, sizeof(in));
		in.index = i;
		xioctl(w, r, f, op, VIDIOC_ENUMINPUT, &in);
		break;
	case OP_ENUMOUTPUT:
		memset(&o, 0, sizeof(o));
		o.index = i;
		xioctl(w, r, f, op, VIDIOC_ENUMOUTPUT, &o);
		break;
	case OP_G_INPUT:
		xioctl(w, r, f, op, VIDIOC_G_INPUT, &i);
		break;
	case OP_G_OUTPUT:
		xioctl(w, r, f, op, VIDIOC_G_OUTPUT, &i);
		break;
	case OP_PRIORITY:
		i = rnd(r, 5);
		/* RECORD would starve every other handle of S_FMT: rarely. */
		if (i == V4L2_PRIORITY_RECORD && !chance(r, 10))
			i = V4L2_PRIORITY_DEFAULT;
		xioctl(w, r, f, op, chance(r, 50) ? VIDIOC_G_PRIORITY :
			VIDIOC_S_PRIORITY, &i);
		break;
	default:	/* S_INPUT, S_OUTPUT: may change vivid's format */
		bump(f->node.key);
		xioctl(w, r, f, op, op == OP_S_INPUT ? VIDIOC_S_INPUT :
			VIDIOC_S_OUTPUT, &i);
		bump(f->node.key);
		break;
	}
}

/* ---- buffers ---- */

/* A buffer count that keeps the queue under QUEUE_BYTES_MAX, mostly. */
static __u32 rcount(struct rng *r, const struct file *f)
{
	static const __u32 counts[] = { 0, 0, 1, 2, 3, 4, 5, 6, 8 };
	__u32 n = counts[rnd(r, 9)];
	__u32 size = f->sizeimage ? f->sizeimage : 1u << 20;

	if (chance(r, 3))
		return chance(r, 50) ? 32 : ~0u;
	while (n > 1 && (unsigned long long)n * size > QUEUE_BYTES_MAX)
		n--;
	return n;
}

/* The current sizeimage, for the memory limits (not counted). */
static void refresh_size(struct file *f)
{
	struct v4l2_format fm;

	memset(&fm, 0, sizeof(fm));
	fm.type = f->type;
	if (!ioctl(f->fd, VIDIOC_G_FMT, &fm))
		f->sizeimage = fm.fmt.pix.sizeimage;
}

static void op_reqbufs(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_requestbuffers rb;
	int ret;

	refresh_size(f);
	if (f->sizeimage > QUEUE_BYTES_MAX / 2)
		return;
	memset(&rb, 0, sizeof(rb));
	rb.count = rcount(r, f);
	if (rb.count > 8 && (unsigned long long)32 * (f->sizeimage ? f->sizeimage :
	    1u << 20) > 2 * QUEUE_BYTES_MAX)
		rb.count = 0;
	rb.type = rtype(r, f);
	rb.memory = rmemory(r);
	ret = xioctl(w, r, f, OP_REQBUFS, VIDIOC_REQBUFS, &rb);
	if (ret == -EBUSY && !f->nbufs)	/* not "streaming": someone else's */
		f->loser = true;
	if (ret || rb.type != f->type)
		return;
	f->loser = false;
	f->nbufs = rb.count > MAX_BUFS ? MAX_BUFS : rb.count;
	f->memory = rb.memory;
	file_reset_stream(f);
}

static void op_create_bufs(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_create_buffers cb;
	__u32 *size = &cb.format.fmt.pix.sizeimage;

	memset(&cb, 0, sizeof(cb));
	cb.format.type = f->type;
	if (ioctl(f->fd, VIDIOC_G_FMT, &cb.format))
		return;
	cb.format.type = rtype(r, f);
	cb.count = rnd(r, 4);
	cb.memory = chance(r, 80) ? f->memory : rmemory(r);
	switch (rnd(r, 6)) {
	case 0: *size = *size / 2; break;
	case 1: *size = *size + 4096 * rnd(r, 64); break;
	case 2: *size = chance(r, 50) ? 0xffffffffu : 0x7fffffffu; break;
	case 3: *size = 0; break;
	}
	if ((unsigned long long)cb.count * *size > QUEUE_BYTES_MAX && *size < 0x7fffffffu)
		cb.count = 1;
	if (xioctl(w, r, f, OP_CREATE_BUFS, VIDIOC_CREATE_BUFS, &cb))
		return;
	if (!f->nbufs)
		f->memory = cb.memory;
	f->nbufs = cb.index + cb.count > MAX_BUFS ? MAX_BUFS : cb.index + cb.count;
	if (cb.count && cb.index < 32)
		f->held |= (cb.index + cb.count >= 32 ? ~0u : (1u << (cb.index + cb.count)) - 1) &
			   ~((1u << cb.index) - 1);
}

static void check_buf(struct worker *w, struct file *f, const struct v4l2_buffer *b,
		      const char *what)
{
	if (b->bytesused > b->length && b->memory != V4L2_MEMORY_DMABUF)
		violation(w, "%s: buffer %u bytesused %u above its length %u",
			  what, b->index, b->bytesused, b->length);
	if (b->index < MAX_BUFS)
		f->len[b->index] = b->length;
}

static int querybuf(struct worker *w, struct rng *r, struct file *f, __u32 index,
		    struct v4l2_buffer *b)
{
	memset(b, 0, sizeof(*b));
	b->type = rtype(r, f);
	b->index = index;
	b->memory = f->memory;
	if (xioctl(w, r, f, OP_QUERYBUF, VIDIOC_QUERYBUF, b))
		return -1;
	/*
	 * Judged on buffers the driver filled and nobody dequeued yet: a
	 * failed QBUF of a USERPTR buffer makes videobuf2 zero its length and
	 * keep the bytesused of its last frame (or, on output, the
	 * application's number).
	 */
	if (b->type == V4L2_BUF_TYPE_VIDEO_CAPTURE && (b->flags & V4L2_BUF_FLAG_DONE))
		check_buf(w, f, b, "QUERYBUF");
	else if (b->index < MAX_BUFS)
		f->len[b->index] = b->length;
	return 0;
}

static void op_mmap(struct worker *w, struct rng *r, struct file *f)
{
	struct map *m = &w->maps[rnd(r, MAX_MAPS)];
	struct v4l2_buffer b;
	size_t len;
	void *p;

	if (querybuf(w, r, f, rindx(r, f->nbufs), &b) || b.memory != V4L2_MEMORY_MMAP)
		return;
	len = b.length;
	if (chance(r, 8))
		len = chance(r, 50) ? len * 2 : 0;
	if (m->addr) {
		begin(w, OP_MUNMAP, f->node.path);
		end(w, OP_MUNMAP, munmap(m->addr, m->len));
		m->addr = NULL;
	}
	begin(w, OP_MMAP, f->node.path);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		 chance(r, 8) ? (off_t)rnd(r, 1 << 20) * 4096 : (off_t)b.m.offset);
	if (end(w, OP_MMAP, p == MAP_FAILED ? -errno : 0) < 0)
		return;
	m->addr = p;
	m->len = len;
	/* Touch it: the memory must stay valid until munmap, whatever happens. */
	((volatile char *)p)[rnd(r, len)] = (char)rnd(r, 256);
	if (len > KEEP_MAX) {
		begin(w, OP_MUNMAP, f->node.path);
		end(w, OP_MUNMAP, munmap(m->addr, m->len));
		m->addr = NULL;
	}
}

static void op_munmap(struct worker *w, struct rng *r)
{
	struct map *m = &w->maps[rnd(r, MAX_MAPS)];

	if (!m->addr)
		return;
	if (chance(r, 50))
		((volatile char *)m->addr)[rnd(r, m->len)]++;
	begin(w, OP_MUNMAP, "-");
	end(w, OP_MUNMAP, munmap(m->addr, m->len));
	m->addr = NULL;
}

/* A USERPTR address: the worker's scratch buffer, or a hostile one. */
static unsigned long ruserptr(struct worker *w, struct rng *r)
{
	if (chance(r, 85))
		return (unsigned long)w->rbuf;
	switch (rnd(r, 3)) {
	case 0: return (unsigned long)bad_page;
	case 1: return (unsigned long)edge_page;
	default: return KERNEL_PTR;
	}
}

/* The bytes a USERPTR buffer at @p may cover without reaching other memory. */
static __u32 userptr_room(const struct worker *w, unsigned long p)
{
	if (p == (unsigned long)w->rbuf)
		return RBUF_SIZE;
	if (p == (unsigned long)edge_page)
		return 4096 + HOSTILE_SPAN;
	if (p == (unsigned long)bad_page)
		return HOSTILE_SPAN;
	return UINT32_MAX;
}

/* Fill in what QBUF/PREPARE_BUF need for the handle's memory type. */
static void fill_qbuf(struct worker *w, struct rng *r, struct file *f,
		      struct v4l2_buffer *b)
{
	bool pick;
	int i;

	memset(b, 0, sizeof(*b));
	b->type = rtype(r, f);
	b->index = rindx(r, f->nbufs ? f->nbufs - 1 : 0);
	pick = f->held && chance(r, 80);
	for (i = 0; pick && i < 64; i++) {
		b->index = rnd(r, f->nbufs < 32 ? f->nbufs : 32);
		if (f->held & (1u << b->index))
			break;
	}
	b->memory = chance(r, 90) ? f->memory : rmemory(r);
	b->field = V4L2_FIELD_ANY;
	if (f->node.out) {
		b->bytesused = chance(r, 85) ? f->sizeimage : rdim(r, 0);
		b->timestamp.tv_sec = rnd(r, 1000);
	}
	if (b->memory == V4L2_MEMORY_USERPTR) {
		b->length = chance(r, 85) ? f->sizeimage : rdim(r, 4096);
		b->m.userptr = ruserptr(w, r);
		if (b->length > userptr_room(w, b->m.userptr))
			b->length = userptr_room(w, b->m.userptr);
	} else if (b->memory == V4L2_MEMORY_DMABUF) {
		int i = rnd(r, MAX_DMABUFS);

		b->m.fd = chance(r, 85) ? w->dmabuf[i] : (int)rnd(r, 64) - 1;
		b->length = w->dmabuf_len[i];
	}
}

static void op_qbuf(struct worker *w, struct rng *r, struct file *f, bool prepare)
{
	struct v4l2_buffer b;

	fill_qbuf(w, r, f, &b);
	if (prepare)
		xioctl(w, r, f, OP_PREPARE_BUF, VIDIOC_PREPARE_BUF, &b);
	else if (!xioctl(w, r, f, OP_QBUF, VIDIOC_QBUF, &b) && b.index < 32)
		f->held &= ~(1u << b.index);
}

static void op_dqbuf(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_buffer b;
	bool pair;

	memset(&b, 0, sizeof(b));
	b.type = rtype(r, f);
	b.memory = f->memory;
	if (xioctl(w, r, f, OP_DQBUF, VIDIOC_DQBUF, &b))
		return;
	check_buf(w, f, &b, "DQBUF");
	if (b.index < 32)
		f->held |= 1u << b.index;
	if (b.type != V4L2_BUF_TYPE_VIDEO_CAPTURE || f->shared)
		return;
	/* V4L2_FIELD_ALTERNATE: the two fields of a frame share a sequence. */
	pair = b.field == V4L2_FIELD_TOP || b.field == V4L2_FIELD_BOTTOM;
	if (f->last_seq >= 0 && (pair ? (long long)b.sequence < f->last_seq :
				 (long long)b.sequence <= f->last_seq))
		violation(w, "DQBUF sequence %u after %lld on the same stream (field %u)",
			  b.sequence, f->last_seq, b.field);
	f->last_seq = b.sequence;
}

static void op_stream(struct worker *w, struct rng *r, struct file *f, bool on)
{
	int type = rtype(r, f);

	if (xioctl(w, r, f, on ? OP_STREAMON : OP_STREAMOFF,
		   on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type) ||
	    (__u32)type != f->type)
		return;
	file_reset_stream(f);
	f->streaming = on;
}

static void op_expbuf(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_exportbuffer e;
	int i = rnd(r, MAX_DMABUFS);

	memset(&e, 0, sizeof(e));
	e.type = rtype(r, f);
	e.index = rindx(r, f->nbufs ? f->nbufs - 1 : 0);
	e.flags = chance(r, 90) ? O_CLOEXEC | O_RDWR : (__u32)next(r);
	if (chance(r, 5))
		e.plane = 1;
	if (xioctl(w, r, f, OP_EXPBUF, VIDIOC_EXPBUF, &e))
		return;
	if (w->dmabuf[i] > 0)
		close(w->dmabuf[i]);
	w->dmabuf[i] = e.fd;
	w->dmabuf_len[i] = e.index < MAX_BUFS && f->len[e.index] ?
			   f->len[e.index] : f->sizeimage;
	if (w->dmabuf_len[i] > KEEP_MAX) {
		close(e.fd);
		w->dmabuf[i] = 0;
	}
}

/*
 * DMABUF import: the handle takes DMABUF buffers if it has none, and
 * queues a buffer exported from some handle (of any node) of this worker.
 */
static void op_dmabuf(struct worker *w, struct rng *r, struct file *f)
{
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	int i = rnd(r, MAX_DMABUFS);

	if (w->dmabuf[i] <= 0)
		return;
	if (f->memory != V4L2_MEMORY_DMABUF || !f->nbufs) {
		refresh_size(f);
		if (f->sizeimage > QUEUE_BYTES_MAX / 8)
			return;
		memset(&rb, 0, sizeof(rb));
		rb.count = 2 + rnd(r, 3);
		rb.type = f->type;
		rb.memory = V4L2_MEMORY_DMABUF;
		begin(w, OP_REQBUFS, f->node.path);
		if (end(w, OP_REQBUFS, ioctl(f->fd, VIDIOC_REQBUFS, &rb) ? -errno : 0))
			return;
		f->nbufs = rb.count > MAX_BUFS ? MAX_BUFS : rb.count;
		f->memory = V4L2_MEMORY_DMABUF;
		file_reset_stream(f);
		f->loser = false;
	}
	memset(&b, 0, sizeof(b));
	b.type = f->type;
	b.memory = V4L2_MEMORY_DMABUF;
	b.index = rnd(r, f->nbufs ? f->nbufs : 1);
	b.m.fd = w->dmabuf[i];
	b.length = w->dmabuf_len[i];
	b.bytesused = f->node.out ? f->sizeimage : 0;
	begin(w, OP_DMABUF, f->node.path);
	end(w, OP_DMABUF, ioctl(f->fd, VIDIOC_QBUF, &b) ? -errno : 0);
}

static void op_rw(struct worker *w, struct rng *r, struct file *f, bool wr)
{
	size_t len = chance(r, 70) && f->sizeimage ? f->sizeimage : rnd(r, 1 << 20);
	char *p = chance(r, 8) ? bad_page : w->rbuf;
	ssize_t n;

	if (len > RBUF_SIZE)
		len = RBUF_SIZE;
	begin(w, wr ? OP_WRITE : OP_READ, f->node.path);
	n = wr ? write(f->fd, p, len) : read(f->fd, p, len);
	end(w, wr ? OP_WRITE : OP_READ, n < 0 ? -errno : 0);
	if (n > (ssize_t)len)
		violation(w, "%s returned %zd for %zu bytes", wr ? "write" : "read", n, len);
}

static void op_poll(struct worker *w, struct rng *r, struct file *f)
{
	struct pollfd p = { .fd = f->fd };

	p.events = (short)(chance(r, 80) ? POLLIN | POLLOUT | POLLPRI : rnd(r, 0x10000));
	begin(w, OP_POLL, f->node.path);
	end(w, OP_POLL, poll(&p, 1, rnd(r, 40)) < 0 ? -errno : 0);
}

/* Any V4L2 ioctl number, with random bytes: the core's checks and the driver's. */
static void op_random_ioctl(struct worker *w, struct rng *r, struct file *f)
{
	static const unsigned long reqs[] = {
		VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT, VIDIOC_G_FMT, VIDIOC_S_FMT,
		VIDIOC_TRY_FMT, VIDIOC_QUERYBUF, VIDIOC_QBUF, VIDIOC_DQBUF,
		VIDIOC_STREAMON, VIDIOC_STREAMOFF, VIDIOC_G_PARM, VIDIOC_S_PARM,
		VIDIOC_G_STD, VIDIOC_S_STD, VIDIOC_ENUMSTD, VIDIOC_ENUMINPUT,
		VIDIOC_G_CTRL, VIDIOC_S_CTRL, VIDIOC_QUERYCTRL, VIDIOC_QUERYMENU,
		VIDIOC_G_INPUT, VIDIOC_S_INPUT, VIDIOC_G_OUTPUT, VIDIOC_S_OUTPUT,
		VIDIOC_ENUMOUTPUT, VIDIOC_G_SELECTION, VIDIOC_S_SELECTION,
		VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS,
		VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS,
		VIDIOC_G_ENC_INDEX, VIDIOC_ENCODER_CMD, VIDIOC_DQEVENT,
		VIDIOC_SUBSCRIBE_EVENT, VIDIOC_UNSUBSCRIBE_EVENT,
		VIDIOC_CREATE_BUFS, VIDIOC_PREPARE_BUF, VIDIOC_QUERY_EXT_CTRL,
		VIDIOC_G_PRIORITY, VIDIOC_S_PRIORITY, VIDIOC_G_SLICED_VBI_CAP,
		VIDIOC_LOG_STATUS, VIDIOC_G_TUNER, VIDIOC_G_FREQUENCY,
		VIDIOC_ENUM_DV_TIMINGS, VIDIOC_G_DV_TIMINGS, VIDIOC_QUERYSTD,
		VIDIOC_ENUMAUDIO, VIDIOC_G_AUDIO, VIDIOC_G_EDID, VIDIOC_CROPCAP,
		VIDIOC_G_CROP, VIDIOC_G_JPEGCOMP, VIDIOC_REQBUFS,
		_IOWR('V', 200, int), _IOR('V', 3, int), 0x80000000ul | (0x7f << 16),
	};
	unsigned long req = reqs[rnd(r, sizeof(reqs) / sizeof(reqs[0]))];
	uint64_t arg[4096 / 8];	/* at least the largest _IOC_SIZE above */
	unsigned int i;

	if (_IOC_SIZE(req) > sizeof(arg))
		return;
	for (i = 0; i < sizeof(arg) / 8; i++)
		arg[i] = chance(r, 50) ? 0 : next(r);
	/* Counts: the queue's memory stays small. */
	if (req == VIDIOC_REQBUFS || req == VIDIOC_CREATE_BUFS)
		arg[0] &= ~0xfffffffcull;
	bump(f->node.key);
	xioctl(w, r, f, OP_RANDOM_IOCTL, req, arg);
	bump(f->node.key);
	if (req == VIDIOC_S_PRIORITY)
		ioctl(f->fd, VIDIOC_S_PRIORITY, &(__u32){ V4L2_PRIORITY_DEFAULT });
}

static int do_op(struct worker *w, struct rng *r, struct file *f, int op);

/*
 * fork: the child runs a few operations on the inherited handles, then
 * exits; the handles are shared from then on for the invariants' sake.
 */
static void op_fork(struct worker *w, struct rng *r)
{
	unsigned int i, n = 1 + rnd(r, 8);
	pid_t pid;
	int status;

	begin(w, OP_FORK, "-");
	pid = fork();
	if (pid == 0) {
		w->child = true;
		w->slot->tid = getpid();
		for (i = 0; i < n; i++) {
			struct file *f = &w->f[rnd(r, MAX_FILES)];

			if (f->fd >= 0)
				do_op(w, r, f, OP_QUERYCAP + rnd(r, OP_SCAN - OP_QUERYCAP));
		}
		/* Its exit releases handles: watched as part of the fork. */
		begin(w, OP_FORK, "child exit");
		_exit(0);
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		w->slot->tid = (int)syscall(SYS_gettid);
	}
	end(w, OP_FORK, pid < 0 ? -EAGAIN : 0);
	for (i = 0; i < MAX_FILES; i++) {
		w->f[i].shared = w->f[i].fd >= 0;
		w->f[i].last_seq = -1;
		w->f[i].have_fmt = false;
	}
}

/* ---- choosing ---- */

/* Weights follow the handle's state, so sequences have a valid shape. */
static int pick_op(struct rng *r, const struct file *f)
{
	int wt[NOPS] = { 0 };
	int i, sum = 0, x;
	bool b = f->nbufs > 0, s = f->streaming;

	wt[OP_CLOSE] = f->loser ? 40 : 3; wt[OP_DUP] = 1; wt[OP_FORK] = 1;
	wt[OP_QUERYCAP] = 2; wt[OP_ENUM_FMT] = 3; wt[OP_G_FMT] = 5;
	wt[OP_S_FMT] = b ? 2 : 5; wt[OP_TRY_FMT] = 3; wt[OP_FRAMESIZES] = 2;
	wt[OP_FRAMEIVALS] = 2; wt[OP_G_PARM] = 2; wt[OP_S_PARM] = 2;
	wt[OP_QUERYCTRL] = 2; wt[OP_G_CTRL] = 2; wt[OP_S_CTRL] = 2;
	wt[OP_EXT_CTRLS] = 2; wt[OP_QUERYMENU] = 1; wt[OP_SUBSCRIBE] = 2;
	wt[OP_UNSUBSCRIBE] = 1; wt[OP_DQEVENT] = 2; wt[OP_ENUMINPUT] = 1;
	wt[OP_G_INPUT] = 1; wt[OP_S_INPUT] = 1; wt[OP_ENUMOUTPUT] = 1;
	wt[OP_G_OUTPUT] = 1; wt[OP_S_OUTPUT] = 1; wt[OP_PRIORITY] = 1;
	wt[OP_REQBUFS] = b ? 2 : 10; wt[OP_CREATE_BUFS] = 2;
	wt[OP_QUERYBUF] = b ? 3 : 1; wt[OP_PREPARE_BUF] = 1;
	wt[OP_MMAP] = b ? 4 : 1; wt[OP_MUNMAP] = 2;
	wt[OP_QBUF] = b ? (f->held ? 16 : 3) : 1; wt[OP_DQBUF] = s ? 20 : 2;
	wt[OP_STREAMON] = b && !s ? 8 : 1; wt[OP_STREAMOFF] = s ? 2 : 1;
	wt[OP_READ] = f->node.out ? 1 : 3; wt[OP_WRITE] = f->node.out ? 4 : 1;
	wt[OP_POLL] = s ? 6 : 3; wt[OP_EXPBUF] = b ? 3 : 1; wt[OP_DMABUF] = 2;
	wt[OP_LOG_STATUS] = 1; wt[OP_RANDOM_IOCTL] = 3;
	for (i = 0; i < NOPS; i++)
		sum += wt[i];
	x = (int)rnd(r, (unsigned int)sum);
	for (i = 0; i < NOPS; i++) {
		x -= wt[i];
		if (x < 0)
			return i;
	}
	return OP_QUERYCAP;
}

static int do_op(struct worker *w, struct rng *r, struct file *f, int op)
{
	struct v4l2_capability cap;
	struct v4l2_buffer b;

	switch (op) {
	case OP_CLOSE: file_close(w, f); break;
	case OP_DUP: if (!w->child) op_dup(w, r, f); break;
	case OP_FORK: if (!w->child) op_fork(w, r); break;
	case OP_QUERYCAP: xioctl(w, r, f, op, VIDIOC_QUERYCAP, &cap); break;
	case OP_ENUM_FMT: case OP_FRAMESIZES: case OP_FRAMEIVALS:
		op_enum(w, r, f, op); break;
	case OP_G_FMT: op_g_fmt(w, r, f); break;
	case OP_S_FMT: case OP_TRY_FMT: op_s_fmt(w, r, f, op == OP_TRY_FMT); break;
	case OP_G_PARM: case OP_S_PARM: op_parm(w, r, f, op == OP_S_PARM); break;
	case OP_QUERYCTRL: case OP_G_CTRL: case OP_S_CTRL: case OP_EXT_CTRLS:
	case OP_QUERYMENU:
		op_ctrl(w, r, f, op); break;
	case OP_SUBSCRIBE: case OP_UNSUBSCRIBE: case OP_DQEVENT:
		op_event(w, r, f, op); break;
	case OP_ENUMINPUT: case OP_G_INPUT: case OP_S_INPUT: case OP_ENUMOUTPUT:
	case OP_G_OUTPUT: case OP_S_OUTPUT: case OP_PRIORITY:
		op_io(w, r, f, op); break;
	case OP_REQBUFS: op_reqbufs(w, r, f); break;
	case OP_CREATE_BUFS: op_create_bufs(w, r, f); break;
	case OP_QUERYBUF: querybuf(w, r, f, rindx(r, f->nbufs), &b); break;
	case OP_PREPARE_BUF: case OP_QBUF: op_qbuf(w, r, f, op == OP_PREPARE_BUF); break;
	case OP_MMAP: op_mmap(w, r, f); break;
	case OP_MUNMAP: op_munmap(w, r); break;
	case OP_DQBUF: op_dqbuf(w, r, f); break;
	case OP_STREAMON: case OP_STREAMOFF: op_stream(w, r, f, op == OP_STREAMON); break;
	case OP_READ: case OP_WRITE: op_rw(w, r, f, op == OP_WRITE); break;
	case OP_POLL: op_poll(w, r, f); break;
	case OP_EXPBUF: op_expbuf(w, r, f); break;
	case OP_DMABUF: op_dmabuf(w, r, f); break;
	case OP_LOG_STATUS: xioctl(w, r, f, op, VIDIOC_LOG_STATUS, NULL); break;
	case OP_RANDOM_IOCTL: op_random_ioctl(w, r, f); break;
	}
	return 0;
}

/* One step: its own PRNG, drawn from the worker's stream whatever happens. */
static void worker_step(struct worker *w)
{
	struct rng r = { splitmix(next(&w->rng)) };
	unsigned int i, first = rnd(&r, MAX_FILES);
	struct file *f = &w->f[first];
	bool own = chance(&r, 50);

	/* Half the steps go to a handle that owns buffers, if any: streams run. */
	for (i = 0; own && i < MAX_FILES; i++) {
		struct file *g = &w->f[(first + i) % MAX_FILES];

		if (g->fd >= 0 && g->nbufs && !g->loser) {
			f = g;
			break;
		}
	}
	w->step++;
	if (f->fd < 0)
		op_open(w, &r, f);
	else
		do_op(w, &r, f, pick_op(&r, f));
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int i;

	w->slot->tid = (int)syscall(SYS_gettid);
	for (i = 0; i < MAX_FILES; i++)
		w->f[i].fd = -1;
	w->rbuf = mmap(NULL, RBUF_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->rbuf == MAP_FAILED)
		return NULL;
	scan_nodes(w);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE) && now_ns() < t_end)
		worker_step(w);
	for (i = 0; i < MAX_FILES; i++)
		file_close(w, &w->f[i]);
	return NULL;
}

/* ---- chaos: configfs, sysfs, unbind/bind, loops ---- */

static const char *const builtins[] = {
	"webcam", "vga", "stepwise", "tv-tuner", "logitech-c920",
	"usb-hdmi-capture", "arducam-1080p", "usb2-vga-camera", "mjpg-720p60",
	"no-such-profile", "", "webcam\nvga",
};

static const char *const texts[] = {
	"name storm-a\ncard \"Storm A\"\ndefault YUYV 320x240 fps 30\n"
	"format YUYV\n  size 320x240 fps 30 15\n  size 640x480 fps 30\n",
	"name storm-b\nadjust nearest\nfield alternate\ndefault UYVY 720x480 fps 30\n"
	"format UYVY\n  size 720x480 fps 30\nformat GREY\n  size 64x32-1280x720 step 16x8 fps 1-60\n",
	"name storm-c\ndefault MJPG 640x480 fps 30\nformat MJPG\n  size 640x480 fps 30 15\n"
	"format NV12\n  size 16x16-1920x1080 step 2x2 interval 1/60-1/1 step 1/60\n",
};

/* write(2) @len bytes of @text to @path in one call; 0 or -errno. */
static int put_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

static int chaos_write(struct worker *w, int op, const char *path,
		       const char *text, size_t len)
{
	begin(w, op, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	return end(w, op, put_file(path, text, len));
}

/* A malformed profile: a valid one damaged, or noise. */
static size_t bad_text(struct rng *r, char *buf, size_t max)
{
	size_t len, i, n;
	const char *t;

	if (chance(r, 15)) {
		len = rnd(r, (unsigned int)max);
		for (i = 0; i < len; i++)
			buf[i] = (char)next(r);
		return len;
	}
	t = texts[rnd(r, 3)];
	len = strlen(t);
	memcpy(buf, t, len);
	n = 1 + rnd(r, 6);
	for (i = 0; i < n && len; i++) {
		switch (rnd(r, 4)) {
		case 0: buf[rnd(r, (unsigned int)len)] = (char)next(r); break;
		case 1: len = rnd(r, (unsigned int)len); break;
		case 2: buf[rnd(r, (unsigned int)len)] = "0123456789x-/ \n"[rnd(r, 15)]; break;
		default:
			if (len + 12 < max) {
				memcpy(buf + len, " 99999999999", 12);
				len += 12;
			}
		}
	}
	return len;
}

static void chaos_swap(struct worker *w, struct rng *r, int n, int op)
{
	char path[96], buf[8192];
	unsigned int key;
	const char *b;
	size_t len;

	snprintf(buf, sizeof(buf), "platform:negcam-%d", n);
	key = key_of(buf);
	bump(key);
	switch (op) {
	case OP_SWAP_BUILTIN:
		snprintf(path, sizeof(path), CFS "/negcam-%d/builtin", n);
		b = builtins[rnd(r, sizeof(builtins) / sizeof(builtins[0]))];
		chaos_write(w, op, path, b, strlen(b));
		break;
	case OP_SWAP_TEXT:
		snprintf(path, sizeof(path), CFS "/negcam-%d/profile", n);
		b = texts[rnd(r, 3)];
		chaos_write(w, op, path, b, strlen(b));
		break;
	case OP_SWAP_BAD:
		snprintf(path, sizeof(path), CFS "/negcam-%d/profile", n);
		if (chance(r, 10)) {
			len = 4096 + rnd(r, 4000);	/* EFBIG: too long for one store */
			memset(buf, '#', len);
		} else {
			len = bad_text(r, buf, 2000);
		}
		chaos_write(w, op, path, buf, len);
		break;
	default:
		snprintf(path, sizeof(path), CFS "/negcam-%d/profile_large", n);
		if (chance(r, 50)) {
			b = texts[rnd(r, 3)];
			len = strlen(b);
			memcpy(buf, b, len);
		} else {
			len = bad_text(r, buf, 2000);
		}
		chaos_write(w, op, path, buf, len);
		break;
	}
	bump(key);
}

static void chaos_read(struct worker *w, struct rng *r, int n)
{
	static const char *const files[] = {
		CFS "/negcam-%d/profile", CFS "/negcam-%d/profile_large",
		CFS "/negcam-%d/status", CFS "/negcam-%d/builtin",
		CFS "/negcam-%d/video_node", "/sys/devices/platform/negcam.%d/frames",
		"/sys/devices/platform/negcam.%d/dropped_frames",
		"/sys/devices/platform/negcam.%d/profile", CFS "/loops/storm%d/nodes",
		CFS "/loops/storm%d/enable",
	};
	char path[96], buf[4096];
	int fd;

	snprintf(path, sizeof(path), files[rnd(r, 10)], n);
	begin(w, OP_CFS_READ, strrchr(path, '/') + 1);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	end(w, OP_CFS_READ, fd < 0 ? -ENOENT : 0);
}

/* Unbind (an unplug that can be undone) or bind (the replug) device @n. */
static void chaos_bind(struct worker *w, int n)
{
	char path[96], name[32], bus[32];
	struct stat st;
	bool bound;
	int op;

	snprintf(name, sizeof(name), "negcam.%d", n);
	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/negcam/%s", name);
	bound = !stat(path, &st);
	snprintf(bus, sizeof(bus), "platform:negcam-%d", n);
	op = bound ? OP_UNBIND : OP_BIND;
	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/negcam/%s",
		 bound ? "unbind" : "bind");
	bump(key_of(bus));
	chaos_write(w, op, path, name, strlen(name));
	bump(key_of(bus));
}

static void chaos_loop(struct worker *w, struct rng *r, int op)
{
	static const char *const profiles[] = { "webcam", "vga", "follow", "stepwise", "bogus" };
	static const char *const caps[] = { "1", "2", "4", "0", "9" };
	static const char *const timeouts[] = { "0", "50", "500", "2000" };
	char dir[96], path[128];
	int k = (int)rnd(r, 4), ret;
	const char *t;

	snprintf(dir, sizeof(dir), CFS "/loops/storm%d", k);
	switch (op) {
	case OP_LOOP_ADD:
		begin(w, op, "loops");
		ret = mkdir(dir, 0755) ? -errno : 0;
		end(w, op, ret);
		if (ret)
			break;
		snprintf(path, sizeof(path), "%s/profile", dir);
		t = profiles[rnd(r, 5)];
		put_file(path, t, strlen(t));
		snprintf(path, sizeof(path), "%s/captures", dir);
		put_file(path, caps[rnd(r, 5)], 1);
		snprintf(path, sizeof(path), "%s/enable", dir);
		chaos_write(w, OP_LOOP_TOGGLE, path, "1", 1);
		break;
	case OP_LOOP_DEL:
		begin(w, op, "loops");
		end(w, op, rmdir(dir) ? -errno : 0);
		break;
	case OP_LOOP_TOGGLE:
		snprintf(path, sizeof(path), "%s/enable", dir);
		chaos_write(w, op, path, chance(r, 50) ? "1" : "0", 1);
		break;
	default:
		t = timeouts[rnd(r, 4)];
		chaos_write(w, op, "/sys/module/negcam/parameters/loop_timeout_ms",
			    t, strlen(t));
		break;
	}
}

static void chaos_step(struct worker *w, long long t0)
{
	struct rng r = { splitmix(next(&w->rng)) };
	int n = (int)rnd(&r, NDEV_MAX / 2), x = (int)rnd(&r, 100);
	char path[96];

	w->step++;
	if (x < 12)
		chaos_swap(w, &r, n, OP_SWAP_BUILTIN);
	else if (x < 22)
		chaos_swap(w, &r, n, OP_SWAP_TEXT);
	else if (x < 34)
		chaos_swap(w, &r, n, OP_SWAP_BAD);
	else if (x < 38)
		chaos_swap(w, &r, n, OP_SWAP_LARGE);
	else if (x < 59)
		chaos_read(w, &r, n);
	else if (x < 62)	/* an unbind ends every stream of the device */
		chaos_bind(w, n);
	else if (x < 70)
		chaos_loop(w, &r, OP_LOOP_ADD);
	else if (x < 76)
		chaos_loop(w, &r, OP_LOOP_DEL);
	else if (x < 84)
		chaos_loop(w, &r, OP_LOOP_TOGGLE);
	else if (x < 86)
		chaos_loop(w, &r, OP_LOOP_PARAM);
	else if (x < 88 && now_ns() > t0 + (t_end - t0) / 3 && sh->unplugs < max_unplugs) {
		snprintf(path, sizeof(path), "/sys/devices/platform/negcam.%d/unplug", n);
		if (!chaos_write(w, OP_UNPLUG, path, "1", 1))
			sh->unplugs++;
	}
	usleep(rnd(&r, 100000));
}

static void init_worker(struct worker *w, int id);

static void *chaos_thread(void *arg)
{
	struct worker *w = arg;
	long long t0 = now_ns();

	w->slot->tid = (int)syscall(SYS_gettid);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE) && now_ns() < t_end)
		chaos_step(w, t0);
	return NULL;
}

/*
 * CHAOS_THREADS threads, so that two configfs writes, or a write and an
 * unbind, meet on one device.
 */
static void chaos_main(int first_id)
{
	struct worker w[CHAOS_THREADS];
	pthread_t th[CHAOS_THREADS];
	char path[96];
	int k;

	for (k = 0; k < CHAOS_THREADS; k++) {
		init_worker(&w[k], first_id + k);
		if (pthread_create(&th[k], NULL, chaos_thread, &w[k]))
			_exit(2);
	}
	for (k = 0; k < CHAOS_THREADS; k++)
		pthread_join(th[k], NULL);
	/* Leave the devices bound and the storm's loops gone. */
	for (k = 0; k < NDEV_MAX / 2; k++) {
		snprintf(path, sizeof(path), "/sys/bus/platform/drivers/negcam/negcam.%d", k);
		if (access(path, F_OK) && !access("/sys/bus/platform/devices", F_OK)) {
			snprintf(path, sizeof(path), "negcam.%d", k);
			put_file("/sys/bus/platform/drivers/negcam/bind", path, strlen(path));
		}
		snprintf(path, sizeof(path), CFS "/loops/storm%d", k);
		rmdir(path);
	}
}

/* ---- processes, the watchdog, the report ---- */

static void init_worker(struct worker *w, int id)
{
	memset(w, 0, sizeof(*w));
	w->id = id;
	w->role = id % nthreads == 1 ? 1 : id % nthreads == 2 ? 2 : 0;
	w->rng.s = splitmix(seed ^ splitmix((uint64_t)id + 1));
	w->slot = &sh->slot[id];
}

static void process_main(int p)
{
	pthread_t th[MAX_WORKERS];
	struct worker *ws = calloc((size_t)nthreads, sizeof(*ws));
	int t;

	signal(SIGPIPE, SIG_IGN);
	if (!ws)
		_exit(2);
	for (t = 0; t < nthreads; t++) {
		init_worker(&ws[t], p * nthreads + t);
		if (pthread_create(&th[t], NULL, worker_main, &ws[t]))
			_exit(2);
	}
	for (t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);
	if (!canary_intact()) {
		__atomic_add_fetch(&sh->violations, 1, __ATOMIC_SEQ_CST);
		fprintf(stderr, "storm: VIOLATION: process %d (seed %llu): the page after the hostile memory was written\n",
			p, seed);
	}
	_exit(0);
}

static void report_stuck(int id, struct slot *s, long long age)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;

	printf("storm: %s worker %d (tid %d) in %s on %s for %.1f s (seed %llu)\n",
	       s->reported ? "HANG:" : "in a call:", id, s->tid, op_names[s->op],
	       s->node, age / 1e9, seed);
	snprintf(path, sizeof(path), "/proc/%d/stack", s->tid);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("  (no %s: %s)\n", path, strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	printf("  kernel stack of tid %d:\n%s", s->tid, buf);
	fflush(stdout);
}

/* Who else is in a call (over 0.5 s) when one hangs: the holder of its lock? */
static void report_others(int nworkers, int hung, long long now)
{
	int i;

	for (i = 0; i < nworkers; i++) {
		struct slot *s = &sh->slot[i];
		long long t = __atomic_load_n(&s->op_start, __ATOMIC_ACQUIRE);

		if (i != hung && t && now - t > 500000000LL && !s->reported) {
			printf("storm: meanwhile: ");
			report_stuck(i, s, now - t);
		}
	}
}

/* Until the end: any worker in one operation for more than hang_secs? */
static int watchdog(int nworkers)
{
	int i, hangs = 0;

	while (now_ns() < t_end) {
		long long now;

		usleep(200000);
		now = now_ns();
		for (i = 0; i < nworkers; i++) {
			struct slot *s = &sh->slot[i];
			long long t = __atomic_load_n(&s->op_start, __ATOMIC_ACQUIRE);

			if (t && now - t > hang_secs * 1000000000LL && !s->reported) {
				s->reported = 1;
				hangs++;
				report_stuck(i, s, now - t);
				report_others(nworkers, i, now);
			}
		}
	}
	return hangs;
}

/*
 * Stop the worker processes: 3 s to finish, then SIGKILL; one stuck in
 * the kernel beyond 10 s more is left (and reported). Returns how many
 * died of a signal of their own (a crash of this program).
 */
static int reap(pid_t *pids, int n)
{
	long long until = now_ns() + 3000000000LL;
	int p, status, left = n, crashed = 0;
	bool killed = false;

	while (left) {
		for (p = 0; p < n; p++) {
			if (pids[p] <= 0 || waitpid(pids[p], &status, WNOHANG) != pids[p])
				continue;
			if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
				printf("storm: worker process %d died of signal %d\n",
				       p, WTERMSIG(status));
				crashed++;
			}
			pids[p] = 0;
			left--;
		}
		if (left && now_ns() > until) {
			if (killed) {
				printf("storm: %d worker process(es) did not die within 10 s of SIGKILL\n", left);
				crashed += left;
				break;
			}
			for (p = 0; p < n; p++)
				if (pids[p] > 0)
					kill(pids[p], SIGKILL);
			killed = true;
			until = now_ns() + 10000000000LL;
		}
		usleep(50000);
	}
	return crashed;
}

/* The two commonest failures of @op, as "EBUSY 812, EINVAL 40". */
static void top_errors(int op, int nworkers, char *out, size_t len)
{
	long long n[NERR] = { 0 };
	int i, e, best[2] = { -1, -1 };
	size_t k = 0;

	for (i = 0; i < nworkers; i++)
		for (e = 1; e < NERR; e++)
			n[e] += sh->slot[i].err[op][e];
	for (e = 1; e < NERR; e++) {
		if (n[e] && (best[0] < 0 || n[e] > n[best[0]])) {
			best[1] = best[0];
			best[0] = e;
		} else if (n[e] && (best[1] < 0 || n[e] > n[best[1]])) {
			best[1] = e;
		}
	}
	out[0] = '\0';
	for (i = 0; i < 2 && best[i] > 0 && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s %lld", i ? ", " : "",
				      best[i] == NERR - 1 ? "other" : strerrorname_np(best[i]),
				      n[best[i]]);
}

static void report(int nworkers)
{
	long long total = 0, total_ok = 0;
	char errs[64];
	int op, i;

	printf("storm: operations (attempted, succeeded; commonest failures):\n");
	for (op = 0; op < NOPS; op++) {
		long long c = 0, ok = 0;

		for (i = 0; i < nworkers; i++) {
			c += sh->slot[i].count[op];
			ok += sh->slot[i].ok[op];
		}
		total += c;
		total_ok += ok;
		top_errors(op, nworkers, errs, sizeof(errs));
		if (c)
			printf("  %-24s %9lld %9lld  %s\n", op_names[op], c, ok, errs);
	}
	printf("storm: total %lld operations, %lld succeeded, in %d s with %d workers\n",
	       total, total_ok, seconds, nworkers);
}

static int usage(void)
{
	fprintf(stderr, "usage: storm [--seed N] [--seconds S] [--procs P] [--threads T] [--driver NAME] [--chaos] [--max-unplugs N] [--hang S]\n");
	return 2;
}

static int parse_args(int argc, char **argv)
{
	int i;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--chaos")) {
			chaos = 1;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--seconds"))
			seconds = atoi(v);
		else if (!strcmp(a, "--procs"))
			nprocs = atoi(v);
		else if (!strcmp(a, "--threads"))
			nthreads = atoi(v);
		else if (!strcmp(a, "--driver"))
			driver = v;
		else if (!strcmp(a, "--max-unplugs"))
			max_unplugs = atoi(v);
		else if (!strcmp(a, "--hang"))
			hang_secs = atoi(v);
		else
			return usage();
	}
	if (nprocs < 1 || nthreads < 1 || nprocs * nthreads + CHAOS_THREADS > MAX_WORKERS ||
	    seconds < 1)
		return usage();
	return 0;
}

int main(int argc, char **argv)
{
	int nworkers, p, hangs, crashed = 0;
	pid_t pids[MAX_WORKERS];

	if (parse_args(argc, argv))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("storm: seed %llu (replay: --seed %llu), %d s, %d processes x %d threads on %s nodes%s\n",
	       seed, seed, seconds, nprocs, nthreads, driver,
	       chaos ? ", configfs/sysfs chaos" : "");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || hostile_setup())
		return 2;
	t_end = now_ns() + seconds * 1000000000LL;
	nworkers = nprocs * nthreads;
	fflush(stdout);
	for (p = 0; p <= nprocs; p++) {
		if (p == nprocs && !chaos)
			break;
		pids[p] = fork();
		if (pids[p] < 0)
			return 2;
		if (pids[p] == 0 && p < nprocs)
			process_main(p);
		if (pids[p] == 0) {
			chaos_main(nworkers);
			_exit(0);
		}
	}
	if (chaos)
		nworkers += CHAOS_THREADS;
	hangs = watchdog(nworkers);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	crashed = reap(pids, nprocs + chaos);
	report(nworkers);
	printf("storm: %d invariant violation(s), %d hung worker(s), %d crashed process(es) (seed %llu)\n",
	       sh->violations, hangs, crashed, seed);
	return sh->violations || hangs || crashed ? 1 : 0;
}
