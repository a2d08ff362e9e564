// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-memcount.so: a copy counter for tests/bench/pw.sh, preloaded
 * (LD_PRELOAD) into the producer measured (negcam-pw, or gst-launch with
 * pipewiresink). Every memcpy, memmove, mempcpy and __memcpy_chk call
 * that crosses the dynamic linker (libpipewire, GStreamer, negcam-pw; not
 * glibc's internal calls, nor copies a compiler inlined) is counted, then
 * forwarded to glibc. Calls of at least BENCH_MEMCOUNT_MIN bytes (default
 * 65536; pw.sh sets a row of its frames, 2560) are counted apart as
 * "big": frame data copied a row or a frame at a time.
 *
 * SIGUSR2 appends one line to the file BENCH_MEMCOUNT_OUT:
 *   calls=N bytes=N big_calls=N big_bytes=N big_bytes@MODULE=N...
 * where MODULE is the file (dladdr) of the code that called for the big
 * copies, so that drawing inside a source (videotestsrc replicating a
 * row) is told from a copy into PipeWire's buffer (pipewiresink).
 * pw.sh sends it at the start and the end of its window and subtracts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *(*copy_fn)(void *, const void *, size_t);

static copy_fn real_memcpy, real_memmove, real_mempcpy;
static atomic_ulong calls, bytes, big_calls, big_bytes;
static size_t big_min = 65536;
static const char *out_path;

#define MODULES 8
static struct {
	void *_Atomic base;
	const char *name;
	atomic_ulong bytes;
} modules[MODULES];
static __thread int in_lookup;

/* Adds @n big bytes to the module holding @caller. */
static void count_module(const void *caller, size_t n)
{
	Dl_info info;
	int i;

	if (in_lookup)
		return;
	in_lookup = 1;
	if (dladdr(caller, &info) && info.dli_fbase) {
		for (i = 0; i < MODULES; i++) {
			void *expect = NULL;

			if (atomic_load(&modules[i].base) == info.dli_fbase)
				break;
			if (atomic_compare_exchange_strong(&modules[i].base, &expect,
							   info.dli_fbase)) {
				modules[i].name = info.dli_fname;
				break;
			}
		}
		if (i < MODULES)
			atomic_fetch_add_explicit(&modules[i].bytes, n, memory_order_relaxed);
	}
	in_lookup = 0;
}

static void count(size_t n, const void *caller)
{
	atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&bytes, n, memory_order_relaxed);
	if (n >= big_min) {
		atomic_fetch_add_explicit(&big_calls, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&big_bytes, n, memory_order_relaxed);
		count_module(caller, n);
	}
}

/* Before the constructor has resolved glibc's functions (dlsym itself may
 * copy): byte by byte, forwards or backwards. Built with
 * -fno-tree-loop-distribute-patterns so this is not made a memcpy call. */
static void *slow_move(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp < sp)
		while (n--)
			*dp++ = *sp++;
	else
		while (n--)
			dp[n] = sp[n];
	return d;
}

static void *copy(void *d, const void *s, size_t n, const void *caller)
{
	count(n, caller);
	return real_memcpy ? real_memcpy(d, s, n) : slow_move(d, s, n);
}

void *memcpy(void *d, const void *s, size_t n)
{
	return copy(d, s, n, __builtin_return_address(0));
}

void *memmove(void *d, const void *s, size_t n)
{
	count(n, __builtin_return_address(0));
	return real_memmove ? real_memmove(d, s, n) : slow_move(d, s, n);
}

void *mempcpy(void *d, const void *s, size_t n)
{
	count(n, __builtin_return_address(0));
	if (real_mempcpy)
		return real_mempcpy(d, s, n);
	return (char *)slow_move(d, s, n) + n;
}

void *__memcpy_chk(void *d, const void *s, size_t n, size_t dlen)
{
	if (n > dlen)
		abort();
	return copy(d, s, n, __builtin_return_address(0));
}

/* Writes "KEY=VALUE " with no stdio (called from a signal handler). */
static size_t put(char *p, const char *key, unsigned long v)
{
	char digits[24];
	size_t len = strlen(key), i = 0, j;

	slow_move(p, key, len);
	p[len++] = '=';
	do
		digits[i++] = '0' + v % 10;
	while ((v /= 10));
	for (j = 0; j < i; j++)
		p[len++] = digits[i - 1 - j];
	p[len++] = ' ';
	return len;
}

/* " KEY@BASENAME=VALUE" for each module seen, into @p. */
static size_t put_modules(char *p)
{
	char key[96];
	size_t len = 0, k;
	const char *name, *slash;
	int i;

	for (i = 0; i < MODULES; i++) {
		if (!atomic_load(&modules[i].base) || !(name = modules[i].name))
			continue;
		for (slash = name; *name; name++)
			if (*name == '/')
				slash = name + 1;
		k = strlen(slash);
		if (k > sizeof(key) - 16)
			k = sizeof(key) - 16;
		slow_move(key, "big_bytes@", 10);
		slow_move(key + 10, slash, k);
		key[10 + k] = 0;
		len += put(p + len, key, atomic_load(&modules[i].bytes));
	}
	return len;
}

static void on_usr2(int signo)
{
	char line[1280];
	size_t len = 0;
	int fd;

	(void)signo;
	if (!out_path)
		return;
	fd = open(out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len += put(line + len, "calls", atomic_load(&calls));
	len += put(line + len, "bytes", atomic_load(&bytes));
	len += put(line + len, "big_calls", atomic_load(&big_calls));
	len += put(line + len, "big_bytes", atomic_load(&big_bytes));
	len += put_modules(line + len);
	line[len - 1] = '\n';
	if (write(fd, line, len) < 0)
		(void)0;
	close(fd);
}

__attribute__((constructor)) static void memcount_init(void)
{
	struct sigaction sa = { .sa_handler = on_usr2, .sa_flags = SA_RESTART };
	const char *min = getenv("BENCH_MEMCOUNT_MIN");

	real_memcpy = (copy_fn)dlsym(RTLD_NEXT, "memcpy");
	real_memmove = (copy_fn)dlsym(RTLD_NEXT, "memmove");
	real_mempcpy = (copy_fn)dlsym(RTLD_NEXT, "mempcpy");
	if (min)
		big_min = strtoul(min, NULL, 0);
	out_path = getenv("BENCH_MEMCOUNT_OUT");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
}
