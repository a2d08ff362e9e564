// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Faults on the user-space vb2 queue (docs/faults.md): the engine
 * decides (engine/fault.c), this file applies, for negcam-run and
 * negcamsrc's embedded device alike:
 * - drop: the frame's sequence number is used up and nothing delivered,
 *   a gap in v4l2_buffer.sequence as a driver reports a lost frame;
 * - error: the buffer is delivered with V4L2_BUF_FLAG_ERROR;
 * - corrupt, truncate: an MJPEG/JPEG/H.264 payload is damaged after the
 *   generator drew it (bytesused is cut for truncate);
 * - timestamp-jump: the offset is added to the buffer's timestamp;
 * - stall and rate: the pacing (vbuf.c's pace()) waits;
 * - source change: the engine's format becomes the new size (G_FMT says
 *   it), subscribers get V4L2_EVENT_SOURCE_CHANGE (the @on_fault hook)
 *   and the stream delivers nothing more until STREAMOFF;
 * - unplug: every call answers ENODEV from then on, waiters are woken.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vbuf-fault.h"

void nc_vbq_set_faults(struct nc_vbq *q, const struct negcam_faults *f)
{
	struct timespec t;

	q->faults = *f;
	memset(&q->fstate, 0, sizeof(q->fstate));
	q->fault_t0 = 0;
	if (q->streaming) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		q->fault_t0 = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	}
	q->resync = true; /* a new rate from the next slot on */
	pthread_cond_broadcast(&q->tick_cond);
}

/* The source is now the fault's size: the engine's format follows (engine/fault.c). */
static void source_change(struct nc_vbq *q)
{
	negcam_fault_source_change(q->engine, &q->faults);
	q->source_changed = true;
	if (q->on_fault)
		q->on_fault(q->fault_ctx, NC_DO_SOURCE_CHANGE);
}

/* Gone: wake every waiter, in DQBUF (ENODEV) or in poll (the eventfd made readable). */
static void unplug(struct nc_vbq *q)
{
	uint64_t v = NC_VB_MAX;

	q->unplugged = true;
	pthread_cond_broadcast(&q->done_cond);
	if (q->evfd >= 0 && write(q->evfd, &v, sizeof(v)) < 0) {
		/* a full eventfd is readable already */
	}
	if (q->on_fault)
		q->on_fault(q->fault_ctx, NC_DO_UNPLUG);
}

enum nc_vf nc_vbq_fault(struct nc_vbq *q, uint32_t frame, uint64_t ts,
			struct negcam_fault_frame *d, uint64_t *resume)
{
	memset(d, 0, sizeof(*d));
	*resume = 0;
	if (q->unplugged || q->source_changed)
		return NC_VF_HOLD;
	if (!q->faults.given)
		return NC_VF_DELIVER;
	if (!q->fault_t0)
		q->fault_t0 = ts;
	negcam_fault_decide(&q->faults, &q->fstate, frame, ts > q->fault_t0 ? ts - q->fault_t0 : 0,
			    d);
	if (d->what & NC_DO_UNPLUG) {
		unplug(q);
		return NC_VF_HOLD;
	}
	if (d->what & NC_DO_SOURCE_CHANGE) {
		source_change(q);
		return NC_VF_HOLD;
	}
	if (d->what & NC_DO_STALL) {
		*resume = q->fault_t0 + d->stall_until_ns;
		return NC_VF_HOLD;
	}
	if (d->what & NC_DO_SKIP) {
		q->fault_lost++;
		return NC_VF_LOST;
	}
	return NC_VF_DELIVER;
}

void nc_vbq_fault_apply(const struct nc_vbq *q, const struct negcam_fault_frame *d,
			struct nc_vb *b)
{
	if (!d->what && !d->ts_offset_ns)
		return;
	if (b->nplanes == 1)
		b->p[0].bytesused = negcam_fault_damage(d, q->fmt.pixelformat, b->p[0].data,
							b->p[0].bytesused);
	if (d->what & NC_DO_ERROR)
		b->error = true;
	b->ts_ns = negcam_fault_timestamp(d, b->ts_ns);
}

uint64_t nc_vbq_fault_slot(const struct nc_vbq *q, uint64_t slot_ns)
{
	return negcam_fault_interval_ns(&q->faults, slot_ns);
}
