// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * bench-malloc.so: a counting allocator hook for tests/bench/, preloaded
 * (LD_PRELOAD) into the process measured. Every malloc, calloc, realloc,
 * posix_memalign, aligned_alloc, memalign and valloc call is counted, then
 * forwarded to glibc. bench-gst reads the counter with
 * dlsym("bench_malloc_count") at the start and end of its window.
 *
 * bench_malloc_trace(fd, n) makes the next n allocations write their
 * backtrace (raw addresses, "malloc-bt <size> <addr> <addr> ...") to fd,
 * so tests/bench/run.sh can name the file:line that allocates per frame
 * (addr2line on the addresses). Set GLIB's G_SLICE=always-malloc so that
 * g_slice allocations are counted too (GLib 2.74 has its own slab).
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <malloc.h>
#include <dlfcn.h>
#include <link.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

static atomic_ulong count;
static atomic_int trace_left;
static int trace_fd = -1;
static __thread int in_trace;

unsigned long bench_malloc_count(void);
void bench_malloc_trace(int fd, int n);

unsigned long bench_malloc_count(void)
{
	return atomic_load(&count);
}

void bench_malloc_trace(int fd, int n)
{
	void *warm[4];

	backtrace(warm, 4); /* loads libgcc_s now, not inside malloc */
	trace_fd = fd;
	atomic_store(&trace_left, n);
}

/* Writes "malloc-bt SIZE ADDR..." where ADDR are module-relative
 * ("path+0xoff"), so the caller can addr2line them. */
static void trace(size_t size)
{
	void *bt[24];
	char line[4096];
	int n, i, len;

	if (in_trace || atomic_load(&trace_left) <= 0)
		return;
	if (atomic_fetch_sub(&trace_left, 1) <= 0)
		return;
	in_trace = 1;
	n = backtrace(bt, 24);
	len = snprintf(line, sizeof(line), "malloc-bt %zu", size);
	for (i = 1; i < n && len < (int)sizeof(line) - 300; i++) {
		Dl_info info;

		if (dladdr(bt[i], &info) && info.dli_fname)
			len += snprintf(line + len, sizeof(line) - len,
					" %s+0x%lx", info.dli_fname,
					(unsigned long)((char *)bt[i] -
							(char *)info.dli_fbase) - 1);
		else
			len += snprintf(line + len, sizeof(line) - len, " ?+%p",
					bt[i]);
	}
	line[len++] = '\n';
	if (write(trace_fd, line, len) < 0)
		(void)0;
	in_trace = 0;
}

void *malloc(size_t size)
{
	atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
	trace(size);
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
	trace(n * size);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
	trace(size);
	return __libc_realloc(p, size);
}

void *memalign(size_t align, size_t size)
{
	atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
	trace(size);
	return __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p = memalign(align, size);

	if (!p)
		return 12; /* ENOMEM */
	*out = p;
	return 0;
}

void *valloc(size_t size)
{
	return memalign(sysconf(_SC_PAGESIZE), size);
}
