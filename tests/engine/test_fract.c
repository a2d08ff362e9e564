// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The engine's exact arithmetic (engine/fract.c), checked directly against
 * the compiler's unsigned __int128 and against brute-force fraction models.
 */
#include "check.h"
#include "fract.h"

typedef unsigned __int128 u128;

static u128 wide(struct nc_u128 a)
{
	return ((u128)a.hi << 64) | a.lo;
}

static struct nc_u128 narrow(u128 v)
{
	struct nc_u128 r = { (__u64)(v >> 64), (__u64)v };

	return r;
}

/* xorshift64*: a fixed sequence, so a failure repeats. */
static __u64 rnd(void)
{
	static __u64 s = 0x9e3779b97f4a7c15ull;

	s ^= s >> 12;
	s ^= s << 25;
	s ^= s >> 27;
	return s * 2685821657736338717ull;
}

/* Values that stress carries: small, near 2^32, near 2^64, random. */
static __u64 edge(unsigned int i)
{
	static const __u64 e[] = { 0, 1, 2, 3, 0xffffffffull, 0x100000000ull,
				   0xffffffffffffffffull, 0x8000000000000000ull,
				   0x7fffffffffffffffull, 1000000007ull };

	return i < NC_ARRAY_SIZE(e) ? e[i] : rnd() >> (rnd() & 63);
}

static u128 gcd_ref(u128 a, u128 b)
{
	while (b) {
		u128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void test_u128(void)
{
	unsigned int i;

	for (i = 0; i < 20000; i++) {
		__u64 a = edge(i % 50), b = edge((i / 50) % 50 + (i & 1));
		u128 x = ((u128)edge(i % 13) << 64) | a, y = ((u128)b << 32) | edge(i % 7);
		struct nc_u128 q, r;

		CHECK(wide(nc_mul_64(a, b)) == (u128)a * b, "mul %llu*%llu",
		      (unsigned long long)a, (unsigned long long)b);
		CHECK(nc_u128_cmp(narrow(x), narrow(y)) == (x < y ? -1 : x > y), "cmp %u", i);
		CHECK(wide(nc_u128_add(narrow(x), narrow(y))) == x + y, "add %u", i);
		CHECK(wide(nc_u128_sub(narrow(x), narrow(y))) == x - y, "sub %u", i);
		CHECK(wide(nc_u128_shl1(narrow(x))) == x << 1, "shl1 %u", i);
		CHECK(wide(nc_u128_shr1(narrow(x))) == x >> 1, "shr1 %u", i);
		CHECK(nc_u128_is_zero(narrow(x)) == !x, "is_zero %u", i);
		if (y) {
			q = nc_u128_divmod(narrow(x), narrow(y), &r);
			CHECK(wide(q) == x / y && wide(r) == x % y, "divmod %u", i);
		}
		CHECK(wide(nc_u128_gcd(narrow(x), narrow(y))) == gcd_ref(x, y), "gcd %u", i);
	}
}

static struct v4l2_fract fr(__u32 n, __u32 d)
{
	return nc_fract(n, d);
}

static void test_fract_compare(void)
{
	static const __u32 v[] = { 1, 2, 3, 7, 30, 1001, 30000, 0xfffffffeu, 0xffffffffu };
	unsigned int a, b, c, d;

	CHECK(!nc_fract_valid(fr(0, 1)) && !nc_fract_valid(fr(1, 0)), "zero terms");
	CHECK(nc_fract_valid(fr(1, 30)), "1/30 valid");
	for (a = 0; a < NC_ARRAY_SIZE(v); a++)
		for (b = 0; b < NC_ARRAY_SIZE(v); b++)
			for (c = 0; c < NC_ARRAY_SIZE(v); c++)
				for (d = 0; d < NC_ARRAY_SIZE(v); d++) {
					u128 l = (u128)v[a] * v[d], r = (u128)v[c] * v[b];

					CHECK(nc_fract_cmp(fr(v[a], v[b]), fr(v[c], v[d])) ==
						      (l < r ? -1 : l > r),
					      "cmp %u/%u %u/%u", v[a], v[b], v[c], v[d]);
				}
	/* 1001/30000 lies between 1/30 and 1/29.97 exactly */
	CHECK(nc_fract_nearer(fr(1001, 30000), fr(1, 30), fr(1, 25)), "29.97 nearer 30 than 25");
	CHECK(!nc_fract_nearer(fr(1, 30), fr(1, 30), fr(1, 30)), "a tie is not nearer");
	/* the distances differ only beyond 64 bits */
	CHECK(nc_fract_nearer(fr(1, 0xffffffffu), fr(1, 0xfffffffeu), fr(1, 0xfffffffdu)),
	      "128-bit distance");
}

static void test_fract_steps(void)
{
	struct nc_u128 rem, den, k;
	struct v4l2_fract out;

	/* (1/10 - 1/30) / (1/30) = 2 exactly */
	k = nc_fract_steps(fr(1, 10), fr(1, 30), fr(1, 30), &rem, &den);
	CHECK(wide(k) == 2 && nc_u128_is_zero(rem), "1/10 is step 2 from 1/30");
	/* (1/20 - 1/30) / (1/30) = 0.5 */
	k = nc_fract_steps(fr(1, 20), fr(1, 30), fr(1, 30), &rem, &den);
	CHECK(wide(k) == 0 && wide(rem) * 2 == wide(den), "1/20 is half a step");
	CHECK(nc_fract_at_step(fr(1, 30), fr(1, 30), nc_u128_from(2), &out) &&
		      out.numerator == 1 && out.denominator == 10,
	      "1/30 + 2/30 = 1/10 reduced, got %u/%u", out.numerator, out.denominator);
	CHECK(!nc_fract_at_step(fr(1, 1), fr(0xffffffffu, 1), nc_u128_from(2), &out),
	      "a result beyond 32 bits is refused");
	CHECK(!nc_fract_at_step(fr(1, 1), fr(1, 1), narrow((u128)1 << 64), &out),
	      "a huge step count is refused");
}

/* The parser's helpers: lowest terms, and "on a step" against brute force. */
static void test_fract_parser_helpers(void)
{
	struct v4l2_fract f = nc_fract_reduced(30000, 1001 * 30);
	__u32 lo, st, x;

	CHECK(f.numerator == 1000 && f.denominator == 1001, "30000/30030 -> %u/%u",
	      f.numerator, f.denominator);
	f = nc_fract_reduced(0, 7);
	CHECK(f.numerator == 0 && f.denominator == 1, "0/7 -> %u/%u", f.numerator, f.denominator);
	/* over sixtieths: x/60 lies on lo/60 + k * st/60 exactly when (x - lo) % st == 0 */
	for (lo = 1; lo <= 12; lo++)
		for (st = 1; st <= 12; st++)
			for (x = lo; x <= 60; x++)
				CHECK(nc_fract_on_step(nc_fract_reduced(x, 60), nc_fract_reduced(lo, 60),
						       nc_fract_reduced(st, 60)) == ((x - lo) % st == 0),
				      "%u/60 on %u/60 + k*%u/60", x, lo, st);
}

int main(void)
{
	test_u128();
	test_fract_compare();
	test_fract_steps();
	test_fract_parser_helpers();
	return check_done("test_fract");
}
