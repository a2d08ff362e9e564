// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Faults in the engine: the 'fault' lines parsed into struct
 * negcam_faults and written back (the round trip), bad values refused
 * with line:column and "did you mean", a list of faults alone
 * (negcam_faults_parse), and the decisions of engine/fault.c: the same
 * seed gives the same frames hit, another seed others, the rates are
 * near the percentages asked, the time-based faults happen when said,
 * the damage to an encoded payload, the timestamp jump and the source
 * change on the engine's format.
 */
#include "check.h"
#include "fault.h"

#include <stdio.h>
#include <string.h>

#define HEAD "name f\nformat MJPG\nsize 640x480 fps 30\n"

static struct negcam_profile prof, prof2;
static char text[1 << 16];

static int parse(struct negcam_profile *p, const char *body, char *msg, size_t n)
{
	struct negcam_parse_error err;
	char src[1024];
	int ret;

	snprintf(src, sizeof(src), "%s%s", HEAD, body);
	ret = negcam_profile_parse(p, src, (__u32)strlen(src), &err);
	if (ret)
		snprintf(msg, n, "%u:%u: %s", err.line, err.column, err.message);
	return ret;
}

static void test_parse_all(void)
{
	const char *body = "fault seed 42\nfault drop 5%\nfault stall 2s every 10s\n"
			   "fault corrupt 10%\nfault truncate 0.5%\nfault rate 15\n"
			   "fault timestamp-jump -200ms every 3s\nfault error 100%\n"
			   "fault source-change 5s 320x240\nfault unplug 1500ms\n";
	const struct negcam_faults *f = &prof.faults;
	char msg[256] = "";
	long n;

	CHECK(!parse(&prof, body, msg, sizeof(msg)), "every fault parses: %s", msg);
	CHECK_EQ(f->given, (1u << NC_NFAULTS) - 1, "every fault given");
	CHECK_EQ(f->seed, 42, "seed");
	CHECK_EQ(f->drop, 50, "drop in tenths of a percent");
	CHECK_EQ(f->truncate, 5, "0.5%%");
	CHECK_EQ(f->error, 1000, "100%%");
	CHECK(f->stall_ns == 2000000000ull && f->stall_every_ns == 10000000000ull, "stall");
	CHECK(f->rate.numerator == 1 && f->rate.denominator == 15, "rate: an interval of 1/15");
	CHECK(f->jump_ns == -200000000ll && f->jump_every_ns == 3000000000ull, "jump");
	CHECK(f->source_width == 320 && f->source_height == 240 &&
	      f->source_change_ns == 5000000000ull, "source change");
	CHECK_EQ(f->unplug_ns, 1500000000ull, "unplug");
	n = negcam_profile_write(&prof, NULL, text, sizeof(text));
	CHECK(n > 0 && strstr(text, "fault seed 42\nfault drop 5%\nfault stall 2s every 10s\n"
				    "fault corrupt 10%\nfault truncate 0.5%\nfault rate 15/1\n"
				    "fault timestamp-jump -200ms every 3s\nfault error 100%\n"
				    "fault source-change 5s 320x240\nfault unplug 1500ms\n"),
	      "written back in the table's order:\n%s", text);
	CHECK(!negcam_profile_parse(&prof2, text, (__u32)n, NULL) &&
	      !memcmp(&prof, &prof2, sizeof(prof)), "parse(write(p)) == p");
	CHECK(!parse(&prof, "fault drop 0%\n", msg, sizeof(msg)) &&
	      prof.faults.given == 1u << NC_FAULT_DROP, "0%% is a given fault");
	negcam_profile_write(&prof, NULL, text, sizeof(text));
	CHECK(strstr(text, "fault drop 0%\n"), "and written: %s", text);
	CHECK(!parse(&prof, "format YUYV\nfault drop 1%\nsize 320x240 fps 30\n", msg, sizeof(msg)),
	      "a fault line inside a format block is profile-wide: %s", msg);
}

static void check_error(const char *body, const char *expect)
{
	char msg[256] = "(parsed)";

	parse(&prof, body, msg, sizeof(msg));
	CHECK(!strcmp(msg, expect), "'%s': got '%s', expected '%s'", body, msg, expect);
}

static void test_errors(void)
{
	check_error("fault unplg 10s", "4:7: unknown fault 'unplg'; did you mean 'unplug'?");
	check_error("fault xyz 5%", "4:7: unknown fault 'xyz' (expected one of: seed, drop, stall, "
		    "corrupt, truncate, rate, timestamp-jump, error, source-change, unplug)");
	check_error("fault drop 120%", "4:12: '120%' is over 100%, as in 'fault drop 5%'");
	check_error("fault drop -5%",
		    "4:12: '-5%' is negative: expected a percentage from 0% to 100%, as in 'fault drop 5%'");
	check_error("fault drop 5", "4:12: '5' is not a percentage (N% or N.N%), as in 'fault drop 5%'");
	check_error("fault drop 5%\nfault drop 6%", "5:7: fault 'drop' is given twice");
	check_error("fault drop", "4:11: expected a value, as in 'fault drop 5%'");
	check_error("fault stall 2s", "4:15: expected a value, as in 'fault stall 2s every 10s'");
	check_error("fault stall 10s every 2s",
		    "4:17: the period after 'every' must be longer than the fault's length, as in 'fault stall 2s every 10s'");
	check_error("fault stall -2s every 10s",
		    "4:13: '-2s' is negative: expected a time, as in 'fault stall 2s every 10s'");
	check_error("fault unplug 2h",
		    "4:14: '2h' is not a time (an integer and ns, us, ms or s), as in 'fault unplug 10s'");
	check_error("fault unplug 3601s", "4:14: '3601s' is over an hour, as in 'fault unplug 10s'");
	check_error("fault rate 0", "4:12: frame rate '0' is zero: it must be positive");
	check_error("fault source-change 5s 0x480",
		    "4:24: bad size '0x480': expected WIDTHxHEIGHT (640x480) or a range MINxMIN-MAXxMAX (48x32-1920x1080)");
	check_error("fault error 5% 6%", "4:16: unexpected '6%' after the fault's values");
	check_error("fault", "4:6: expected a fault after 'fault', as in 'fault drop 5%'");
}

static void test_list(void)
{
	struct negcam_parse_error err;
	struct negcam_faults f;
	const char *s = "drop 5%; seed 3;fault error 1%\n  stall 1s every 4s";

	CHECK(!negcam_faults_parse(&f, s, (__u32)strlen(s), &err), "a list: %s", err.message);
	CHECK(f.given == (1u << NC_FAULT_DROP | 1u << NC_FAULT_SEED | 1u << NC_FAULT_ERROR |
			  1u << NC_FAULT_STALL) && f.seed == 3 && f.drop == 50 && f.error == 10,
	      "its faults");
	negcam_faults_write(&f, "", "; ", text, sizeof(text));
	CHECK(!strcmp(text, "seed 3; drop 5%; stall 1s every 4s; error 1%"), "written: %s", text);
	CHECK(!negcam_faults_parse(&f, "", 0, NULL) && !f.given, "empty: no faults");
	s = "drop 5%; drop 7%";
	CHECK(negcam_faults_parse(&f, s, (__u32)strlen(s), &err) == -EINVAL && !f.given &&
	      err.line == 1 && err.column == 10, "refused at 1:10: %s", err.message);
	s = "drop 5%\nseed x";
	CHECK(negcam_faults_parse(&f, s, (__u32)strlen(s), &err) == -EINVAL && err.line == 2 &&
	      err.column == 6, "refused at 2:6: %s", err.message);
}

/* The frames of 0..@n-1 that @kind's decision hits, as a bit string. */
static void hits(const struct negcam_faults *f, __u32 what, char *out, unsigned int n)
{
	struct negcam_fault_state st = { 0 };
	struct negcam_fault_frame d;
	unsigned int i;

	for (i = 0; i < n; i++) {
		negcam_fault_decide(f, &st, i, 0, &d);
		out[i] = (d.what & what) ? '1' : '0';
	}
	out[n] = '\0';
}

static void test_decide_seeded(void)
{
	static char a[10001], b[10001], c[10001];
	struct negcam_faults f;
	const char *s = "seed 42; drop 5%; error 10%";
	unsigned int i, ndrop = 0;

	negcam_faults_parse(&f, s, (__u32)strlen(s), NULL);
	hits(&f, NC_DO_SKIP, a, 10000);
	hits(&f, NC_DO_SKIP, b, 10000);
	CHECK(!strcmp(a, b), "the same seed drops the same frames");
	for (i = 0; i < 10000; i++)
		ndrop += a[i] == '1';
	CHECK(ndrop > 400 && ndrop < 600, "about 5%% dropped: %u of 10000", ndrop);
	f.seed = 43;
	hits(&f, NC_DO_SKIP, c, 10000);
	CHECK(strcmp(a, c), "another seed drops others");
	hits(&f, NC_DO_ERROR, c, 10000);
	for (ndrop = 0, i = 0; i < 10000; i++)
		ndrop += c[i] == '1';
	CHECK(ndrop > 700 && ndrop < 1000, "about 10%% of the rest flagged: %u", ndrop);
	f.given &= ~(1u << NC_FAULT_DROP);
	hits(&f, NC_DO_SKIP, c, 100);
	CHECK(!strchr(c, '1'), "no drop line, no drops");
}

static void test_decide_time(void)
{
	struct negcam_fault_state st = { 0 };
	struct negcam_fault_frame d;
	struct negcam_faults f;
	const char *s = "stall 2s every 10s; timestamp-jump 500ms every 3s; unplug 30s;"
			"source-change 20s 320x240; rate 10";

	negcam_faults_parse(&f, s, (__u32)strlen(s), NULL);
	negcam_fault_decide(&f, &st, 1, 9999999999ull, &d);
	CHECK(d.what == 0 && d.ts_offset_ns == 3 * 500000000ll, "before the stall: 3 jumps");
	negcam_fault_decide(&f, &st, 2, 10500000000ull, &d);
	CHECK(d.what == NC_DO_STALL && d.stall_until_ns == 12000000000ull, "stalled until 12 s");
	negcam_fault_decide(&f, &st, 2, 12000000000ull, &d);
	CHECK(d.what == 0, "going on at 12 s");
	negcam_fault_decide(&f, &st, 3, 20000000001ull, &d);
	CHECK(d.what == NC_DO_SOURCE_CHANGE, "the source changes at 20 s");
	negcam_fault_decide(&f, &st, 4, 23000000000ull, &d);
	CHECK(d.what == 0, "once");
	negcam_fault_decide(&f, &st, 5, 31000000000ull, &d);
	CHECK(d.what == NC_DO_UNPLUG, "unplugged at 30 s");
	CHECK_EQ(negcam_fault_interval_ns(&f, 33333333), 100000000, "10 fps is slower than 30");
	CHECK_EQ(negcam_fault_interval_ns(&f, 200000000), 200000000, "but faster than 5");
}

static void test_damage(void)
{
	static __u8 buf[4000], orig[4000];
	struct negcam_fault_frame d = { .what = NC_DO_CORRUPT, .rnd = 12345 };
	__u32 i, diff = 0, used;

	for (i = 0; i < sizeof(buf); i++)
		orig[i] = buf[i] = (__u8)i;
	used = negcam_fault_damage(&d, V4L2_PIX_FMT_MJPEG, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		diff += buf[i] != orig[i];
	CHECK(used == sizeof(buf) && diff > 32 && diff <= 64 && !memcmp(buf, orig, 1000) &&
	      !memcmp(buf + 3064, orig + 3064, 936), "corrupt: up to 64 bytes in the middle (%u)",
	      diff);
	d.what = NC_DO_TRUNCATE;
	used = negcam_fault_damage(&d, V4L2_PIX_FMT_MJPEG, buf, sizeof(buf));
	CHECK(used >= 1000 && used <= 3000, "truncate: a quarter to three quarters (%u)", used);
	CHECK_EQ(negcam_fault_damage(&d, V4L2_PIX_FMT_YUYV, buf, sizeof(buf)), sizeof(buf),
		 "a raw frame stays whole");
}

/* The two applications every surface shares: the jump, and the source change on the engine. */
static void test_apply(void)
{
	struct negcam_fault_frame d = { .ts_offset_ns = -500000000ll };
	struct negcam_engine e;
	struct negcam_faults f;
	struct negcam_profile p;
	char msg[256];
	const char *s = "source-change 1s 640x480";

	CHECK_EQ(negcam_fault_timestamp(&d, 2000000000ull), 1500000000ull, "a jump back");
	CHECK_EQ(negcam_fault_timestamp(&d, 100000000ull), 0, "never below 0");
	d.ts_offset_ns = 1000;
	CHECK_EQ(negcam_fault_timestamp(&d, 5), 1005, "a jump forward");
	memset(&p, 0, sizeof(p));
	CHECK(parse(&p, "size 320x240 fps 30\n", msg, sizeof(msg)) == 0, "a two-size profile: %s",
	      msg);
	negcam_engine_init(&e, &p);
	e.busy = 1u << NC_CAPTURE; /* streaming: S_FMT would say EBUSY */
	negcam_faults_parse(&f, s, (__u32)strlen(s), NULL);
	f.source_width = 700; /* not a size of the profile: S_FMT's rule (down) takes 640x480 */
	f.source_height = 500;
	CHECK(negcam_fault_source_change(&e, &f) == 0, "the source change while busy");
	CHECK(negcam_engine_fmt(&e, NC_CAPTURE)->width == 640 &&
	      negcam_engine_fmt(&e, NC_CAPTURE)->height == 480 && e.busy == 1u << NC_CAPTURE,
	      "the engine's format is S_FMT's answer, 640x480, and the queue still busy");
}

int main(void)
{
	test_parse_all();
	test_errors();
	test_list();
	test_decide_seeded();
	test_decide_time();
	test_damage();
	test_apply();
	return check_done("test_fault");
}
