/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Exact arithmetic for the engine: 128-bit unsigned integers (multiply,
 * compare, shift-subtract divide, binary GCD) and frame-interval fractions.
 * Shifts, adds and 64-bit multiplies only, so it links in a 32-bit kernel
 * without libgcc's division helpers. Tested directly by
 * tests/engine/test_fract.c.
 */
#ifndef NEGCAM_FRACT_H
#define NEGCAM_FRACT_H

#include "compat.h"

struct nc_u128 {
	__u64 hi, lo;
};

struct nc_u128 nc_u128_from(__u64 v);
struct nc_u128 nc_mul_64(__u64 a, __u64 b);
int nc_u128_cmp(struct nc_u128 a, struct nc_u128 b);
struct nc_u128 nc_u128_add(struct nc_u128 a, struct nc_u128 b);
struct nc_u128 nc_u128_sub(struct nc_u128 a, struct nc_u128 b);
struct nc_u128 nc_u128_shl1(struct nc_u128 a);
struct nc_u128 nc_u128_shr1(struct nc_u128 a);
bool nc_u128_is_zero(struct nc_u128 a);
/* @n / @d (d != 0); the remainder in *@rem. */
struct nc_u128 nc_u128_divmod(struct nc_u128 n, struct nc_u128 d,
			      struct nc_u128 *rem);
struct nc_u128 nc_u128_gcd(struct nc_u128 a, struct nc_u128 b);

struct v4l2_fract nc_fract(__u32 n, __u32 d);
/* @num/@den in lowest terms (@num or @den non-zero). */
struct v4l2_fract nc_fract_reduced(__u32 num, __u32 den);
/* Both terms non-zero. */
bool nc_fract_valid(struct v4l2_fract f);
/* Sign of a - b, exactly. */
int nc_fract_cmp(struct v4l2_fract a, struct v4l2_fract b);
/* |t - x| scaled by t.denominator * x.denominator. */
__u64 nc_fract_dist_num(struct v4l2_fract t, struct v4l2_fract x);
/* Whether x1 is strictly nearer to t than x2. */
bool nc_fract_nearer(struct v4l2_fract t, struct v4l2_fract x1,
		     struct v4l2_fract x2);
/* floor((t - lo) / step) for t >= lo; remainder over *@den in *@rem. */
struct nc_u128 nc_fract_steps(struct v4l2_fract t, struct v4l2_fract lo,
			      struct v4l2_fract step, struct nc_u128 *rem,
			      struct nc_u128 *den);
/* lo + k * step reduced; false when it does not fit 32-bit terms. */
bool nc_fract_at_step(struct v4l2_fract lo, struct v4l2_fract step,
		      struct nc_u128 k, struct v4l2_fract *out);

/*
 * Whether x - lo is a whole number of steps: reduced fractions with terms
 * of at most 1e6 (the parser's limit), x >= lo.
 */
bool nc_fract_on_step(struct v4l2_fract x, struct v4l2_fract lo,
		      struct v4l2_fract step);

#endif /* NEGCAM_FRACT_H */
