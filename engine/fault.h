/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Faults, decided: given a profile's faults (struct negcam_faults, the
 * 'fault' lines of docs/faults.md) and where a stream stands (the frame's
 * sequence number, the time since STREAMON), what happens to this frame.
 * The engine decides and each surface applies: user/vbuf.c (negcam-run,
 * negcamsrc's embedded device), and any other frame path that calls it.
 *
 * Reproducible: every random choice is a hash of (seed, fault, frame
 * number), a counter-based generator (splitmix64), so the same seed gives
 * the same frames dropped, flagged and damaged on every run, whatever the
 * timing; the time-based faults depend on the elapsed time only.
 * Freestanding, integer arithmetic.
 */
#ifndef NEGCAM_FAULT_H
#define NEGCAM_FAULT_H

#include "engine.h"
#include "profile.h"

/* What happens to one frame (struct negcam_fault_frame's @what). */
enum negcam_fault_do {
	NC_DO_SKIP = 1u << 0,          /* lost: its sequence number is used, nothing delivered */
	NC_DO_ERROR = 1u << 1,         /* delivered with V4L2_BUF_FLAG_ERROR */
	NC_DO_CORRUPT = 1u << 2,       /* an encoded payload: bytes overwritten */
	NC_DO_TRUNCATE = 1u << 3,      /* an encoded payload: cut short */
	NC_DO_STALL = 1u << 4,         /* nothing until @stall_until_ns, then the usual rate */
	NC_DO_SOURCE_CHANGE = 1u << 5, /* now: the source is @source_width x @source_height */
	NC_DO_UNPLUG = 1u << 6,        /* now: the device is gone */
};

struct negcam_fault_frame {
	__u32 what;             /* NC_DO_* */
	__u32 rnd;              /* this frame's random word, for the payload damage */
	__s64 ts_offset_ns;     /* add to the frame's timestamp */
	__u64 stall_until_ns;   /* NC_DO_STALL: the elapsed time the stream resumes at */
};

/* A stream's memory of its one-shot faults; zero it when the faults are set. */
struct negcam_fault_state {
	__u32 fired; /* 1 << NC_FAULT_SOURCE_CHANGE, NC_FAULT_UNPLUG once they happened */
};

/*
 * What happens to frame @frame (its sequence number), due @elapsed_ns
 * after the stream started, into @out. A stall is decided first (the
 * frame then waits: decide again at @stall_until_ns); an unplug or a
 * source change is said once per @s.
 */
void negcam_fault_decide(const struct negcam_faults *f, struct negcam_fault_state *s,
			 __u32 frame, __u64 elapsed_ns, struct negcam_fault_frame *out);

/* The interval the stream delivers at: @interval_ns, or the fault rate's when slower. */
__u64 negcam_fault_interval_ns(const struct negcam_faults *f, __u64 interval_ns);

/* True for the formats corrupt and truncate damage: MJPEG, JPEG, H.264. */
bool negcam_fault_encoded(__u32 fourcc);

/*
 * Damage an encoded payload (@used bytes at @data) as @d says: corrupt
 * overwrites up to 64 bytes in its middle half with random bytes, truncate
 * cuts it to between a quarter and three quarters. Returns the bytes used
 * now. Raw formats are left whole.
 */
__u32 negcam_fault_damage(const struct negcam_fault_frame *d, __u32 fourcc, __u8 *data,
			  __u32 used);

/* A timestamp (ns) moved by @d's jump, never below 0. */
__u64 negcam_fault_timestamp(const struct negcam_fault_frame *d, __u64 ts_ns);

/*
 * NC_DO_SOURCE_CHANGE on @e: its capture format becomes @f's source size,
 * adjusted as S_FMT adjusts a request (the profile's nearest size), even
 * while the queue is busy: the source, not the application, changes it.
 * Every surface that carries the fault calls it (user/vbuf-fault.c,
 * pw/pw-faults.c). 0 or S_FMT's error.
 */
int negcam_fault_source_change(struct negcam_engine *e, const struct negcam_faults *f);

#endif /* NEGCAM_FAULT_H */
