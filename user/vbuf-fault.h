/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The faults on the user-space vb2 queue (user/vbuf.c's own header for
 * user/vbuf-fault.c; the public call is nc_vbq_set_faults() in vbuf.h).
 * Called with the queue's lock held.
 */
#ifndef NEGCAM_USER_VBUF_FAULT_H
#define NEGCAM_USER_VBUF_FAULT_H

#include "vbuf.h"

/* What the queue does with a frame slot. */
enum nc_vf {
	NC_VF_DELIVER, /* draw it, then nc_vbq_fault_apply() */
	NC_VF_LOST,    /* dropped: its sequence number is used up, nothing delivered */
	NC_VF_HOLD,    /* no frame: stalled until *@resume, or (0) halted by a source change or unplug */
};

/* The fate of frame @frame due at @ts (CLOCK_MONOTONIC ns); the one-shot faults happen here. */
enum nc_vf nc_vbq_fault(struct nc_vbq *q, uint32_t frame, uint64_t ts,
			struct negcam_fault_frame *d, uint64_t *resume);

/* A delivered buffer's payload, flags and timestamp as @d says. */
void nc_vbq_fault_apply(const struct nc_vbq *q, const struct negcam_fault_frame *d,
			struct nc_vb *b);

/* The slot length the stream is paced at: @slot_ns, or the fault rate's when slower. */
uint64_t nc_vbq_fault_slot(const struct nc_vbq *q, uint64_t slot_ns);

#endif /* NEGCAM_USER_VBUF_FAULT_H */
