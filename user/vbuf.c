// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The user-space vb2 queue: capture with pacing or on demand, and output (see vbuf.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "framegen.h"
#include "vbuf-fault.h"
#include "vbuf.h"

#define PAGE_ALIGN(x) (((x) + 4095u) & ~4095u)
#define CAPTURE V4L2_BUF_TYPE_VIDEO_CAPTURE

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void init_conds(struct nc_vbq *q)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&q->done_cond, &a);
	pthread_cond_init(&q->tick_cond, &a);
	pthread_condattr_destroy(&a);
}

void nc_vbq_init(struct nc_vbq *q, pthread_mutex_t *lock, struct negcam_engine *e, int evfd)
{
	memset(q, 0, sizeof(*q));
	q->lock = lock;
	q->engine = e;
	q->evfd = evfd;
	q->min_buffers = NC_VB_MIN_BUFFERS;
	init_conds(q);
}

/* One more (@n 1) or one less (@n -1) done buffer on the eventfd. */
static void count_done(struct nc_vbq *q, int n)
{
	uint64_t v = 1;

	q->ndone += (unsigned int)n;
	if (q->evfd < 0)
		return;
	if ((n > 0 ? write(q->evfd, &v, sizeof(v)) : read(q->evfd, &v, sizeof(v))) < 0) {
		/* cannot fail: at most NC_VB_MAX are counted, and only those */
	}
}

/* ---- pacing ---- */

/* The stream's slot length in ns (a field's for ALTERNATE). */
static uint64_t slot_ns(const struct nc_vbq *q)
{
	struct v4l2_fract f = q->engine->interval[NC_CAPTURE];
	uint64_t ns = f.denominator ? 1000000000ull * f.numerator / f.denominator : 33333333;

	if (q->fmt.field == V4L2_FIELD_ALTERNATE)
		ns /= 2;
	return ns ? ns : 1;
}

static struct nc_vb *oldest(struct nc_vbq *q, enum nc_vb_state state)
{
	struct nc_vb *best = NULL;
	unsigned int i;

	for (i = 0; i < q->nbufs; i++)
		if (q->bufs[i].state == state && (!best || q->bufs[i].order < best->order))
			best = &q->bufs[i];
	return best;
}

/* Buffer @count of the stream: its frame number and field (two buffers,
 * top then bottom, per frame for V4L2_FIELD_ALTERNATE). */
static uint32_t frame_of(const struct nc_vbq *q, uint32_t count)
{
	return q->fmt.field == V4L2_FIELD_ALTERNATE ? count / 2 : count;
}

static uint32_t field_of(const struct nc_vbq *q, uint32_t count)
{
	if (q->fmt.field != V4L2_FIELD_ALTERNATE)
		return q->fmt.field;
	return count % 2 ? V4L2_FIELD_BOTTOM : V4L2_FIELD_TOP;
}

/* Draws @frame at @ts into @dst; drawing takes long at large sizes, so not
 * under the device lock (STREAMOFF waits for q->drawing to drop to 0).
 * The generator's byte count, or < 0 when it cannot draw the format. */
static long draw_unlocked(struct nc_vbq *q, uint32_t frame, uint64_t ts, uint32_t prev,
			  uint64_t prev_scene, void *const dst[], const uint32_t size[],
			  unsigned int n, uint32_t used_by_plane[])
{
	long used;

	q->drawing++;
	pthread_mutex_unlock(q->lock);
	used = negcam_framegen_draw_planes(&q->fmt, q->pattern, frame, ts, prev, prev_scene, dst,
					   size, n, used_by_plane);
	pthread_mutex_lock(q->lock);
	q->drawing--;
	pthread_cond_broadcast(&q->done_cond);
	return used;
}

/* A captured buffer's timestamp and flags as DQBUF reports them. */
static void set_stamp(struct v4l2_buffer *v, uint64_t ts_ns, bool error)
{
	v->timestamp.tv_sec = (long)(ts_ns / 1000000000ull);
	v->timestamp.tv_usec = (long)(ts_ns % 1000000000ull / 1000);
	v->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	if (error)
		v->flags |= V4L2_BUF_FLAG_ERROR;
}

/* Fills the oldest queued buffer with frame @count at @ts, then applies the
 * faults' decision @d; drops it when none is queued. */
static void deliver(struct nc_vbq *q, uint32_t count, uint64_t ts,
		    const struct negcam_fault_frame *d)
{
	uint32_t frame = frame_of(q, count);
	struct nc_vb *b = oldest(q, NC_VB_QUEUED);
	void *dst[NC_MAX_PLANES];
	uint32_t size[NC_MAX_PLANES], used_by[NC_MAX_PLANES] = {0};
	unsigned int i;
	long used;

	if (!b) {
		q->dropped++;
		return;
	}
	b->state = NC_VB_ACTIVE;
	for (i = 0; i < b->nplanes; i++) {
		dst[i] = b->p[i].data;
		size[i] = b->p[i].length;
	}
	used = draw_unlocked(q, frame, ts, b->prev, b->prev_scene, dst, size, b->nplanes, used_by);
	b->prev = used < 0 ? NC_FRAME_NONE : frame;
	b->prev_scene = ts;
	if (!q->streaming || b->state != NC_VB_ACTIVE)
		return; /* STREAMOFF returns it to the application */
	for (i = 0; i < b->nplanes; i++)
		b->p[i].bytesused = used < 0 ? 0 : used_by[i];
	b->error = used < 0;
	b->sequence = frame;
	b->field = field_of(q, count);
	b->ts_ns = ts;
	nc_vbq_fault_apply(q, d, b);
	b->order = ++q->order;
	b->state = NC_VB_DONE;
	count_done(q, 1);
}

/* Output, on demand: the device takes the oldest queued buffer now. */
static void consume(struct nc_vbq *q)
{
	struct nc_vb *b = oldest(q, NC_VB_QUEUED);

	if (!b)
		return;
	b->sequence = q->count++;
	b->field = V4L2_FIELD_NONE;
	b->order = ++q->order;
	b->state = NC_VB_DONE;
	count_done(q, 1);
}

/* The faults' fate of the next frame at @ts (see vbuf-fault.h); a lost frame uses its number. */
static enum nc_vf next_fate(struct nc_vbq *q, uint64_t ts, struct negcam_fault_frame *d,
			    uint64_t *resume)
{
	enum nc_vf vf = nc_vbq_fault(q, frame_of(q, q->count), ts, d, resume);

	if (vf == NC_VF_LOST)
		q->count++;
	return vf;
}

/* On demand: a frame now unless a fault holds or drops it (or the rate fault says not yet). */
static bool on_demand_frame(struct nc_vbq *q, uint64_t now, struct negcam_fault_frame *d)
{
	uint64_t resume;

	if (q->last_ts && now < q->last_ts + nc_vbq_fault_slot(q, 0))
		return false;
	if (next_fate(q, now, d, &resume) != NC_VF_DELIVER)
		return false;
	q->last_ts = now;
	return true;
}

int nc_vbq_capture_into(struct nc_vbq *q, void *dst, uint32_t size, struct v4l2_buffer *v)
{
	uint64_t ts = mono_ns();
	struct negcam_fault_frame d;
	struct nc_vb b = {.nplanes = 1};
	uint32_t count, used_by;
	long used;

	if (q->unplugged)
		return -ENODEV;
	if (!q->on_demand || !q->streaming)
		return -EINVAL;
	if (!on_demand_frame(q, ts, &d))
		return -EAGAIN;
	count = q->count++;
	used = draw_unlocked(q, frame_of(q, count), ts, NC_FRAME_NONE, 0, &dst, &size, 1, &used_by);
	b.p[0].data = dst;
	b.p[0].bytesused = used < 0 ? 0 : (uint32_t)used;
	b.error = used < 0;
	b.ts_ns = ts;
	nc_vbq_fault_apply(q, &d, &b);
	memset(v, 0, sizeof(*v));
	v->type = CAPTURE;
	v->bytesused = b.p[0].bytesused;
	v->sequence = frame_of(q, count);
	v->field = field_of(q, count);
	set_stamp(v, b.ts_ns, b.error);
	return 0;
}

/* Slot @ended of the paced stream is due at @ts: deliver it, or what the faults say. */
static void pace_slot(struct nc_vbq *q, uint64_t ts, uint64_t *start, uint64_t *next,
		      uint64_t ended)
{
	struct negcam_fault_frame d;
	uint64_t resume;

	switch (next_fate(q, ts, &d, &resume)) {
	case NC_VF_HOLD:
		if (resume) { /* a stall: the next frame one slot after it ends */
			*start = resume;
			*next = 0;
			return;
		}
		break;
	case NC_VF_LOST:
		break;
	case NC_VF_DELIVER:
		q->skipped += ended - 1 - *next;
		deliver(q, q->count++, ts, &d);
		break;
	}
	*next = ended;
}

static void *pace(void *data)
{
	struct nc_vbq *q = data;
	uint64_t start, ival, next = 0;

	pthread_mutex_lock(q->lock);
	start = mono_ns();
	ival = nc_vbq_fault_slot(q, slot_ns(q));
	while (q->streaming) {
		uint64_t now = mono_ns(), ended, deadline;
		struct timespec t;

		if (q->resync) { /* a new interval: go on from the last slot boundary */
			start += next * ival;
			next = 0;
			ival = nc_vbq_fault_slot(q, slot_ns(q));
			q->resync = false;
		}
		ended = now > start ? (now - start) / ival : 0;
		if (ended > next) {
			pace_slot(q, start + ended * ival, &start, &next, ended);
			continue;
		}
		deadline = start + (next + 1) * ival;
		t.tv_sec = (time_t)(deadline / 1000000000ull);
		t.tv_nsec = (long)(deadline % 1000000000ull);
		pthread_cond_timedwait(&q->tick_cond, q->lock, &t);
	}
	pthread_mutex_unlock(q->lock);
	return NULL;
}

static int stream_on(struct nc_vbq *q)
{
	if (q->streaming)
		return 0;
	if (!q->nbufs)
		return -EINVAL;
	while (q->thread_alive) /* a STREAMOFF in another thread is joining */
		pthread_cond_wait(&q->done_cond, q->lock);
	q->fmt = *negcam_engine_fmt(q->engine, q->dir); /* G_FMT's, either kind */
	q->count = 0;
	q->source_changed = false; /* the new stream is in the new format */
	q->streaming = true;
	q->resync = false;
	if (q->on_demand)
		return 0;
	if (pthread_create(&q->thread, NULL, pace, q)) {
		q->streaming = false;
		return -ENOMEM;
	}
	q->thread_alive = true;
	return 0;
}

static void stream_off(struct nc_vbq *q)
{
	bool join = q->streaming && !q->on_demand;
	unsigned int i;

	q->streaming = false;
	pthread_cond_broadcast(&q->tick_cond);
	pthread_cond_broadcast(&q->done_cond);
	if (join) {
		pthread_mutex_unlock(q->lock);
		pthread_join(q->thread, NULL);
		pthread_mutex_lock(q->lock);
		q->thread_alive = false;
		pthread_cond_broadcast(&q->done_cond);
	}
	while (q->thread_alive || q->drawing)
		pthread_cond_wait(&q->done_cond, q->lock);
	for (i = 0; i < q->nbufs; i++)
		q->bufs[i].state = NC_VB_DEQUEUED;
	while (q->ndone)
		count_done(q, -1);
}

/* ---- buffers ---- */

/* The type negcam_engine_set_busy() is told: the queue's direction. */
static uint32_t busy_type(const struct nc_vbq *q)
{
	return q->dir == NC_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT : CAPTURE;
}

/* The first @n planes of @b: an application's mapping keeps the memory. */
static void free_planes(struct nc_vb *b, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		munmap(b->p[j].data, b->p[j].length);
		close(b->p[j].memfd);
	}
}

static void free_bufs(struct nc_vbq *q)
{
	unsigned int i;

	for (i = 0; i < q->nbufs; i++)
		free_planes(&q->bufs[i], q->bufs[i].nplanes);
	q->nbufs = 0;
	q->owner = NULL;
	q->reading = false;
	negcam_engine_set_busy(q->engine, busy_type(q), false);
}

int nc_vb_memfd(size_t size)
{
	int fd = memfd_create("negcam-buffer", MFD_CLOEXEC), err;

	if (fd >= 0 && ftruncate(fd, (off_t)PAGE_ALIGN(size))) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Plane @p of @size bytes at mmap offset @offset; 0 or -ENOMEM. */
static int add_plane(struct nc_vb_plane *p, uint32_t size, uint32_t offset)
{
	p->memfd = nc_vb_memfd(size);
	if (p->memfd < 0)
		return -ENOMEM;
	p->data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, p->memfd, 0);
	if (p->data == MAP_FAILED) {
		close(p->memfd);
		return -ENOMEM;
	}
	p->length = size;
	p->offset = offset;
	return 0;
}

/* @count buffers of @n planes of @size[] bytes each. */
static int add_bufs(struct nc_vbq *q, unsigned int count, const uint32_t *size, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < count && q->nbufs < NC_VB_MAX; i++) {
		struct nc_vb *b = &q->bufs[q->nbufs];
		const struct nc_vb *prev = q->nbufs ? b - 1 : NULL;
		const struct nc_vb_plane *last = prev ? &prev->p[prev->nplanes - 1] : NULL;
		uint32_t offset = last ? last->offset + PAGE_ALIGN(last->length) : q->offset_base;

		memset(b, 0, sizeof(*b));
		for (j = 0; j < n; j++, b->nplanes++) {
			if (add_plane(&b->p[j], size[j], offset))
				break;
			offset += PAGE_ALIGN(size[j]);
		}
		if (j < n) {
			free_planes(b, j);
			return -ENOMEM;
		}
		b->prev = NC_FRAME_NONE;
		q->nbufs++;
	}
	negcam_engine_set_busy(q->engine, busy_type(q), q->nbufs > 0);
	return i ? 0 : -ENOMEM;
}

/* The queue's buffer type: the multiplanar one for a multiplanar profile. */
static uint32_t qtype(const struct nc_vbq *q)
{
	return negcam_engine_buf_type(q->engine->profile, q->dir);
}

static bool qmp(const struct nc_vbq *q)
{
	return V4L2_TYPE_IS_MULTIPLANAR(qtype(q));
}

/* The planes' sizes of a frame of the current format; their count. */
static unsigned int cur_planes(struct nc_vbq *q, uint32_t size[NC_MAX_PLANES])
{
	struct negcam_plane_size p[NC_MAX_PLANES];
	unsigned int n = negcam_pix_planes(negcam_engine_fmt(q->engine, q->dir), qmp(q), p), i;

	for (i = 0; i < n; i++)
		size[i] = p[i].sizeimage;
	return n;
}

/* A multiplanar v4l2_buffer must bring room for @b's planes (vb2's __verify_planes_array). */
static bool planes_fit(const struct nc_vbq *q, const struct nc_vb *b, const struct v4l2_buffer *v)
{
	return !qmp(q) || (v->m.planes && v->length >= b->nplanes && v->length <= VIDEO_MAX_PLANES);
}

/* A multiplanar buffer's planes, into the application's array. */
static void fill_planes(const struct nc_vb *b, struct v4l2_plane *planes)
{
	unsigned int i;

	for (i = 0; i < b->nplanes; i++) {
		memset(&planes[i], 0, sizeof(planes[i]));
		planes[i].bytesused = b->p[i].bytesused;
		planes[i].length = b->p[i].length;
		planes[i].m.mem_offset = b->p[i].offset;
	}
}

static void fill(const struct nc_vbq *q, unsigned int i, struct v4l2_buffer *v)
{
	const struct nc_vb *b = &q->bufs[i];
	struct v4l2_plane *planes = v->m.planes; /* checked by planes_fit() */

	memset(v, 0, sizeof(*v));
	v->index = i;
	v->type = qtype(q);
	v->memory = V4L2_MEMORY_MMAP;
	if (qmp(q)) {
		v->length = b->nplanes;
		v->m.planes = planes;
		fill_planes(b, planes);
	} else {
		v->length = b->p[0].length;
		v->m.offset = b->p[0].offset;
		v->bytesused = b->p[0].bytesused;
	}
	v->sequence = b->sequence;
	v->field = b->field ? b->field : V4L2_FIELD_NONE;
	set_stamp(v, b->ts_ns, b->error);
	if (q->dir == NC_OUTPUT) /* the application's own timestamp */
		v->flags = V4L2_BUF_FLAG_TIMESTAMP_COPY;
	if (b->state == NC_VB_QUEUED || b->state == NC_VB_ACTIVE)
		v->flags |= V4L2_BUF_FLAG_QUEUED;
	else if (b->state == NC_VB_DONE)
		v->flags |= V4L2_BUF_FLAG_DONE;
	else if (b->prepared)
		v->flags |= V4L2_BUF_FLAG_PREPARED;
}

#define BUF_CAPS (V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS)

static int reqbufs(struct nc_vbq *q, const void *file, struct v4l2_requestbuffers *r)
{
	r->capabilities = BUF_CAPS;
	r->flags = 0; /* no cache hints: every buffer is coherent */
	memset(r->reserved, 0, sizeof(r->reserved));
	uint32_t size[NC_MAX_PLANES];
	unsigned int n;

	if (r->type != qtype(q) || r->memory != V4L2_MEMORY_MMAP)
		return -EINVAL;
	if (q->streaming || q->reading)
		return -EBUSY;
	free_bufs(q);
	if (r->count == 0)
		return 0;
	n = cur_planes(q, size);
	if (add_bufs(q, r->count < q->min_buffers ? q->min_buffers : r->count, size, n))
		return -ENOMEM;
	q->owner = file;
	r->count = q->nbufs;
	return 0;
}

/* CREATE_BUFS' sizes, each at least the current format's plane: their count, else 0. */
static unsigned int create_sizes(struct nc_vbq *q, const struct v4l2_format *f,
				 uint32_t size[NC_MAX_PLANES])
{
	uint32_t cur[NC_MAX_PLANES];
	unsigned int n = cur_planes(q, cur), i;

	if (qmp(q) && f->fmt.pix_mp.num_planes != n)
		return 0;
	for (i = 0; i < n; i++) {
		size[i] = qmp(q) ? f->fmt.pix_mp.plane_fmt[i].sizeimage : f->fmt.pix.sizeimage;
		if (size[i] < cur[i])
			return 0;
	}
	return n;
}

static int create_bufs(struct nc_vbq *q, const void *file, struct v4l2_create_buffers *c)
{
	uint32_t size[NC_MAX_PLANES];
	unsigned int n;

	c->capabilities = BUF_CAPS;
	c->flags = 0;
	memset(c->reserved, 0, sizeof(c->reserved));
	c->index = q->nbufs;
	if (c->format.type != qtype(q) || c->memory != V4L2_MEMORY_MMAP)
		return -EINVAL;
	if (c->count == 0)
		return 0;
	n = create_sizes(q, &c->format, size);
	if (!n)
		return -EINVAL;
	if (q->nbufs + c->count > NC_VB_MAX)
		c->count = NC_VB_MAX - q->nbufs;
	if (!c->count)
		return -ENOBUFS;
	if (add_bufs(q, c->count, size, n))
		return -ENOMEM;
	q->owner = file;
	return 0;
}

/* Output QBUF: what the application wrote (bytesused 0 means the whole
 * buffer, as videobuf2 takes it) and its timestamp; -EINVAL past the end. */
static int take_written(struct nc_vb *b, const struct v4l2_buffer *v)
{
	uint32_t used = v->bytesused ? v->bytesused : b->p[0].length;

	if (used > b->p[0].length)
		return -EINVAL;
	b->p[0].bytesused = used;
	b->ts_ns = (uint64_t)v->timestamp.tv_sec * 1000000000ull +
		   (uint64_t)v->timestamp.tv_usec * 1000ull;
	return 0;
}

/* QBUF, PREPARE_BUF and DQBUF. */
static int qdq(struct nc_vbq *q, bool nonblock, unsigned long request, struct v4l2_buffer *v)
{
	struct nc_vb *b;

	if (v->type != qtype(q) || v->memory != V4L2_MEMORY_MMAP)
		return -EINVAL;
	if (request != VIDIOC_DQBUF) {
		if (v->index >= q->nbufs || q->bufs[v->index].state != NC_VB_DEQUEUED ||
		    !planes_fit(q, &q->bufs[v->index], v))
			return -EINVAL;
		b = &q->bufs[v->index];
		if (request == VIDIOC_PREPARE_BUF && b->prepared)
			return -EINVAL; /* vb2: prepared once only */
		if (q->dir == NC_OUTPUT && request == VIDIOC_QBUF && take_written(b, v))
			return -EINVAL;
		b->prepared = true;
		if (request == VIDIOC_QBUF) {
			b->state = NC_VB_QUEUED;
			b->error = false;
			b->order = ++q->order;
			pthread_cond_broadcast(&q->done_cond);
		}
		fill(q, v->index, v);
		return 0;
	}
	if (q->on_demand && q->streaming && !oldest(q, NC_VB_DONE)) {
		if (q->dir == NC_OUTPUT) {
			consume(q); /* the oldest written buffer, if any */
		} else {
			struct negcam_fault_frame d;
			uint64_t now = mono_ns();

			if (on_demand_frame(q, now, &d))
				deliver(q, q->count++, now, &d); /* a frame now, or lost */
		}
	}
	while (!(b = oldest(q, NC_VB_DONE))) {
		if (q->unplugged)
			return -ENODEV;
		if (!q->streaming)
			return -EINVAL;
		if (nonblock || q->on_demand)
			return -EAGAIN;
		pthread_cond_wait(&q->done_cond, q->lock);
	}
	if (!planes_fit(q, b, v))
		return -EINVAL;
	b->state = NC_VB_DEQUEUED;
	b->prepared = false;
	count_done(q, -1);
	fill(q, (unsigned int)(b - q->bufs), v);
	return 0;
}

static int expbuf(struct nc_vbq *q, struct v4l2_exportbuffer *e)
{
	if (e->type != qtype(q) || e->index >= q->nbufs || e->plane >= q->bufs[e->index].nplanes ||
	    (e->flags & ~(__u32)(O_CLOEXEC | O_ACCMODE)))
		return -EINVAL;
	e->fd = fcntl(q->bufs[e->index].p[e->plane].memfd,
		      e->flags & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	return e->fd < 0 ? -errno : 0;
}

int nc_vbq_ioctl(struct nc_vbq *q, const void *file, bool nonblock, unsigned long request,
		 void *arg)
{
	bool other = q->owner && q->owner != file;

	if (q->unplugged)
		return -ENODEV;
	switch (request) {
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *v = arg;

		if (v->type != qtype(q) || v->index >= q->nbufs || !planes_fit(q, &q->bufs[v->index], v))
			return -EINVAL;
		fill(q, v->index, v);
		return 0;
	}
	case VIDIOC_REQBUFS:
		return other ? -EBUSY : reqbufs(q, file, arg);
	case VIDIOC_CREATE_BUFS:
		return other ? -EBUSY : create_bufs(q, file, arg);
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_PREPARE_BUF:
		return other || q->reading ? -EBUSY : qdq(q, nonblock, request, arg);
	case VIDIOC_EXPBUF:
		return other ? -EBUSY : expbuf(q, arg);
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		if (*(__u32 *)arg != qtype(q))
			return -EINVAL;
		if (other || q->reading)
			return -EBUSY;
		if (request == VIDIOC_STREAMON)
			return stream_on(q);
		stream_off(q);
		return 0;
	}
	return -ENOTTY;
}

long nc_vbq_read(struct nc_vbq *q, const void *file, bool nonblock, void *dst, size_t count)
{
	struct v4l2_buffer v = {.type = CAPTURE, .memory = V4L2_MEMORY_MMAP};
	uint32_t size[NC_MAX_PLANES];
	unsigned int i;
	size_t n;
	int ret;

	if (q->unplugged)
		return -ENODEV;
	if (qmp(q))
		return -EINVAL; /* a multiplanar queue has no read() */
	if (!q->reading) {
		if (q->nbufs || (q->owner && q->owner != file))
			return -EBUSY;
		if (add_bufs(q, NC_VB_READ_BUFFERS, size, cur_planes(q, size)))
			return -ENOMEM;
		for (i = 0; i < q->nbufs; i++) {
			q->bufs[i].state = NC_VB_QUEUED;
			q->bufs[i].order = ++q->order;
		}
		q->owner = file;
		if ((ret = stream_on(q))) {
			free_bufs(q);
			return ret;
		}
		q->reading = true;
	}
	if ((ret = qdq(q, nonblock, VIDIOC_DQBUF, &v)))
		return ret;
	n = count < v.bytesused ? count : v.bytesused;
	memcpy(dst, q->bufs[v.index].p[0].data, n);
	q->bufs[v.index].state = NC_VB_QUEUED; /* one frame per read(): the rest is dropped */
	q->bufs[v.index].order = ++q->order;
	return (long)n;
}

int nc_vbq_mmap_fd(const struct nc_vbq *q, uint64_t offset, size_t len)
{
	unsigned int i;

	unsigned int j;

	for (i = 0; i < q->nbufs; i++)
		for (j = 0; j < q->bufs[i].nplanes; j++)
			if (q->bufs[i].p[j].offset == offset && len &&
			    len <= PAGE_ALIGN(q->bufs[i].p[j].length))
				return q->bufs[i].p[j].memfd;
	return -EINVAL;
}

void nc_vbq_release(struct nc_vbq *q, const void *file)
{
	if (q->owner != file)
		return;
	stream_off(q);
	free_bufs(q);
}

void nc_vbq_forget_thread(struct nc_vbq *q)
{
	unsigned int i;

	q->streaming = q->thread_alive = q->reading = false;
	q->ndone = q->drawing = 0;
	for (i = 0; i < q->nbufs; i++)
		q->bufs[i].state = NC_VB_DEQUEUED;
	init_conds(q);
}

void nc_vbq_set_pattern(struct nc_vbq *q, uint32_t pattern)
{
	unsigned int i;

	if (pattern == q->pattern)
		return;
	q->pattern = pattern;
	for (i = 0; i < q->nbufs; i++)
		q->bufs[i].prev = NC_FRAME_NONE; /* drawn whole, not from the old picture */
}

bool nc_vbq_ready(const struct nc_vbq *q)
{
	unsigned int i;

	for (i = 0; i < q->nbufs; i++)
		if (q->bufs[i].state == NC_VB_DONE ||
		    (q->on_demand && q->bufs[i].state == NC_VB_QUEUED))
			return true;
	return false;
}
