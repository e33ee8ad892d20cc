/* SPDX-License-Identifier: MIT */
/*
 * Print the TSC rate in MHz, measured against CLOCK_MONOTONIC (the clock of
 * bpf_ktime_get_ns()) over 200 ms. hrt-test.sh uses it to check TotCyc
 * independently of the hrt plugin. Exit 77 where there is no TSC.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

/* A TSC value and the CLOCK_MONOTONIC time between two reads of it. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	struct timespec ts;
	uint64_t a, b;

	a = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	b = __rdtsc();
	*tsc = a + (b - a) / 2;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	struct timespec d = { 0, 200000000 };
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
