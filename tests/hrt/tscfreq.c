/* SPDX-License-Identifier: MIT */
/*
 * Print the TSC rate in MHz, measured against CLOCK_MONOTONIC (the clock of
 * bpf_ktime_get_ns()) over 500 ms. hrt-test.sh uses it to check TotCyc
 * independently of the hrt plugin. Exit 77 where there is no TSC.
 *
 * A clock read between two TSC reads is placed at their midpoint; if the
 * vCPU is descheduled in between (a loaded host), that guess is off by up
 * to half the gap. So each end takes the narrowest of many such pairs: its
 * error is at most half its gap, a few hundred ns in 500 ms.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

/* A TSC value and the CLOCK_MONOTONIC time between two reads of it. */
static uint64_t pair1(uint64_t *tsc, uint64_t *ns)
{
	struct timespec ts;
	uint64_t a, b;

	a = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	b = __rdtsc();
	*tsc = a + (b - a) / 2;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return b - a;
}

/* The narrowest of 1000 pairs. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX, t, n, gap;

	for (int i = 0; i < 1000; i++) {
		gap = pair1(&t, &n);
		if (gap < best) {
			best = gap;
			*tsc = t;
			*ns = n;
		}
	}
}

int main(void)
{
	struct timespec d = { 0, 500000000 };
	uint64_t c0, n0, c1, n1;

	pair(&c0, &n0);
	nanosleep(&d, NULL);
	pair(&c1, &n1);
	if (n1 <= n0 || c1 <= c0)
		return 1;
	printf("%.4f\n", (double)(c1 - c0) * 1000.0 / (double)(n1 - n0));
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "no TSC on this architecture\n");
	return 77;
}
#endif
