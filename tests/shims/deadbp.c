/* SPDX-License-Identifier: MIT */
/*
 * Test shim, LD_PRELOADed by tests/integration/test_skid.sh and never
 * installed: data breakpoints that open but never count, as on a guest
 * whose hypervisor does not deliver debug exceptions. It interposes
 * syscall() (the skid plugin calls perf_event_open through it, from the
 * C library) and opens a PERF_TYPE_BREAKPOINT event as a software dummy
 * event instead: that opens, maps, enables, and never counts or samples.
 *
 * WULTFW_DEADBP=sampling turns only sampling events into dummies, so a
 * counting probe still sees the breakpoint fire and the run gets nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

typedef long (*syscall_fn)(long nr, ...);

static int rewrite(const struct perf_event_attr *a)
{
	const char *mode = getenv("WULTFW_DEADBP");

	if (a->type != PERF_TYPE_BREAKPOINT)
		return 0;
	return !mode || strcmp(mode, "sampling") || a->sample_period;
}

long syscall(long nr, ...)
{
	static syscall_fn real;
	struct perf_event_attr dummy;
	long arg[6];
	va_list ap;

	/*
	 * Six arguments, the most a Linux system call takes on x86-64, are
	 * forwarded whatever nr is: a preloaded shim sees every process's
	 * syscall() (Chromium's futex() calls take six), not only wultfw's.
	 */
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		arg[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	if (nr == SYS_perf_event_open && arg[0] &&
	    rewrite((const struct perf_event_attr *)arg[0])) {
		memcpy(&dummy, (const void *)arg[0], sizeof(dummy));
		dummy.type = PERF_TYPE_SOFTWARE;
		dummy.config = PERF_COUNT_SW_DUMMY;
		dummy.bp_type = 0;
		dummy.bp_addr = 0;
		dummy.bp_len = 0;
		arg[0] = (long)&dummy;
	}
	return real(nr, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}
