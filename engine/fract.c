// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Exact 128-bit and fraction arithmetic of the engine; see fract.h. */
#include "fract.h"

/* ------------------------------------------------------------------ */
/* 128-bit unsigned helpers: multiply, compare, shift-subtract divide */

struct nc_u128 nc_u128_from(__u64 v)
{
	struct nc_u128 r = { 0, v };

	return r;
}

struct nc_u128 nc_mul_64(__u64 a, __u64 b)
{
	__u64 a0 = (__u32)a, a1 = a >> 32, b0 = (__u32)b, b1 = b >> 32;
	__u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	__u64 mid = (p00 >> 32) + (__u32)p01 + (__u32)p10;
	struct nc_u128 r;

	r.lo = (mid << 32) | (__u32)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

int nc_u128_cmp(struct nc_u128 a, struct nc_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

struct nc_u128 nc_u128_add(struct nc_u128 a, struct nc_u128 b)
{
	struct nc_u128 r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

struct nc_u128 nc_u128_sub(struct nc_u128 a, struct nc_u128 b)
{
	struct nc_u128 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

struct nc_u128 nc_u128_shl1(struct nc_u128 a)
{
	struct nc_u128 r;

	r.hi = (a.hi << 1) | (a.lo >> 63);
	r.lo = a.lo << 1;
	return r;
}

struct nc_u128 nc_u128_shr1(struct nc_u128 a)
{
	struct nc_u128 r;

	r.lo = (a.lo >> 1) | (a.hi << 63);
	r.hi = a.hi >> 1;
	return r;
}

bool nc_u128_is_zero(struct nc_u128 a)
{
	return !a.hi && !a.lo;
}

/* @n / @d (d != 0) by restoring division; remainder in *@rem. */
struct nc_u128 nc_u128_divmod(struct nc_u128 n, struct nc_u128 d,
				     struct nc_u128 *rem)
{
	struct nc_u128 q = { 0, 0 }, r = { 0, 0 };
	int i;

	for (i = 127; i >= 0; i--) {
		__u64 bit = i >= 64 ? (n.hi >> (i - 64)) & 1 : (n.lo >> i) & 1;

		r = nc_u128_shl1(r);
		r.lo |= bit;
		q = nc_u128_shl1(q);
		if (nc_u128_cmp(r, d) >= 0) {
			r = nc_u128_sub(r, d);
			q.lo |= 1;
		}
	}
	*rem = r;
	return q;
}

/* Binary GCD: shifts and subtractions only. */
struct nc_u128 nc_u128_gcd(struct nc_u128 a, struct nc_u128 b)
{
	unsigned int shift = 0;

	if (nc_u128_is_zero(a))
		return b;
	if (nc_u128_is_zero(b))
		return a;
	while (!((a.lo | b.lo) & 1)) {
		a = nc_u128_shr1(a);
		b = nc_u128_shr1(b);
		shift++;
	}
	while (!(a.lo & 1))
		a = nc_u128_shr1(a);
	while (!nc_u128_is_zero(b)) {
		while (!(b.lo & 1))
			b = nc_u128_shr1(b);
		if (nc_u128_cmp(a, b) > 0) {
			struct nc_u128 t = a;

			a = b;
			b = t;
		}
		b = nc_u128_sub(b, a);
	}
	while (shift--)
		a = nc_u128_shl1(a);
	return a;
}

/* ------------------------------------------------------------------ */
/* Fractions (frame intervals)                                        */

bool nc_fract_valid(struct v4l2_fract f)
{
	return f.numerator && f.denominator;
}

/* Sign of a - b, exactly. */
int nc_fract_cmp(struct v4l2_fract a, struct v4l2_fract b)
{
	__u64 l = (__u64)a.numerator * b.denominator;
	__u64 r = (__u64)b.numerator * a.denominator;

	return l < r ? -1 : l > r ? 1 : 0;
}

/* |t - x| scaled by t.denominator * x.denominator: |t.n * x.d - x.n * t.d|. */
__u64 nc_fract_dist_num(struct v4l2_fract t, struct v4l2_fract x)
{
	__u64 a = (__u64)t.numerator * x.denominator;
	__u64 b = (__u64)x.numerator * t.denominator;

	return a > b ? a - b : b - a;
}

/* Whether x1 is strictly nearer to t than x2 (exact, 128-bit). */
bool nc_fract_nearer(struct v4l2_fract t, struct v4l2_fract x1,
			    struct v4l2_fract x2)
{
	/* |t - x| = dist_num / (t.d * x.d); t.d cancels out */
	struct nc_u128 d1 = nc_mul_64(nc_fract_dist_num(t, x1), x2.denominator);
	struct nc_u128 d2 = nc_mul_64(nc_fract_dist_num(t, x2), x1.denominator);

	return nc_u128_cmp(d1, d2) < 0;
}

/*
 * floor((t - lo) / step) for t >= lo, and the remainder's numerator and
 * denominator so the caller can round: (t - lo) / step =
 * (t.n * lo.d - lo.n * t.d) * step.d / (t.d * lo.d * step.n).
 */
struct nc_u128 nc_fract_steps(struct v4l2_fract t, struct v4l2_fract lo,
				     struct v4l2_fract step, struct nc_u128 *rem,
				     struct nc_u128 *den)
{
	struct nc_u128 num = nc_mul_64(nc_fract_dist_num(t, lo), step.denominator);

	*den = nc_mul_64((__u64)t.denominator * lo.denominator, step.numerator);
	return nc_u128_divmod(num, *den, rem);
}

/* lo + k * step as a reduced fraction; false when it does not fit 32 bits. */
bool nc_fract_at_step(struct v4l2_fract lo, struct v4l2_fract step,
			     struct nc_u128 k, struct v4l2_fract *out)
{
	struct nc_u128 num, den, g, rem, ks;

	ks = nc_mul_64(k.lo, (__u64)step.numerator * lo.denominator);
	/* far beyond any 32-bit fraction: also keeps the sum below from wrapping */
	if (k.hi || ks.hi >> 62)
		return false;
	num = nc_u128_add(nc_u128_from((__u64)lo.numerator * step.denominator), ks);
	den = nc_u128_from((__u64)lo.denominator * step.denominator);
	g = nc_u128_gcd(num, den);
	num = nc_u128_divmod(num, g, &rem);
	den = nc_u128_divmod(den, g, &rem);
	if (num.hi || den.hi || num.lo > 0xffffffffull || den.lo > 0xffffffffull)
		return false;
	out->numerator = (__u32)num.lo;
	out->denominator = (__u32)den.lo;
	return true;
}

struct v4l2_fract nc_fract(__u32 n, __u32 d)
{
	struct v4l2_fract f = { n, d };

	return f;
}

static __u32 nc_gcd32(__u32 a, __u32 b)
{
	while (b) {
		__u32 r = a % b;

		a = b;
		b = r;
	}
	return a;
}

struct v4l2_fract nc_fract_reduced(__u32 num, __u32 den)
{
	struct v4l2_fract f;
	__u32 g = nc_gcd32(num, den);

	f.numerator = num / g;
	f.denominator = den / g;
	return f;
}

/* Whether @n is a multiple of @d, with a 32-bit divisor only. */
static bool nc_u64_divisible(__u64 n, __u32 d)
{
	return n == (__u64)nc_div_u64(n, d) * d;
}

/*
 * Whether (@x - @lo) is a whole number of @step, all reduced fractions
 * with terms <= 1e6 and x >= lo. (x - lo) / step =
 * (xn*lod - lon*xd) * sd / (xd * lod * sn); a product divides N exactly
 * when each factor in turn divides what is left.
 */
bool nc_fract_on_step(struct v4l2_fract x, struct v4l2_fract lo,
		      struct v4l2_fract step)
{
	__u64 n = (__u64)x.numerator * lo.denominator -
		  (__u64)lo.numerator * x.denominator;

	n *= step.denominator;
	if (!nc_u64_divisible(n, x.denominator))
		return false;
	n = nc_div_u64(n, x.denominator);
	if (!nc_u64_divisible(n, lo.denominator))
		return false;
	n = nc_div_u64(n, lo.denominator);
	return nc_u64_divisible(n, step.numerator);
}
