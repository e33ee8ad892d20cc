/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "hrt_health.h"

/*
 * One datapoint takes its launch distance plus the idle exit that closes
 * it: at the mean launch distance that is at most 1e9 / mean per second.
 */
static double rate_allowed(const struct hrt_health_in *in)
{
	double mean = ((double)in->ldist_from_ns + (double)in->ldist_to_ns) / 2;

	return mean > 0 ? 1e9 / mean : 0;
}

size_t hrt_health(const struct hrt_health_in *in, char (*warn)[512],
		  size_t max)
{
	size_t n = 0;
	double secs = (double)in->duration_ns / 1e9, rate, allowed;

	if (n < max && in->probe_entry_ns > HRT_HEALTH_SLOW_PROBE_NS)
		snprintf(warn[n++], sizeof(warn[0]),
			 "the idle-entry probe took %" PRIu64 " ns per idle entry%s: every idle entry of the measured CPU was delayed that much; %s",
			 in->probe_entry_ns,
			 in->counters ? " with the counter reads" : "",
			 in->counters ? "set counters = false to leave out the counter reads (TotCyc, C-state %)" :
			 "a busy host (vCPU descheduled) stretches it: measure on a quieter machine");
	if (in->duration_ns < HRT_HEALTH_MIN_DURATION_NS || n >= max)
		return n;
	rate = (double)in->datapoints / secs;
	allowed = rate_allowed(in);
	if (allowed <= 0 || rate * 100 >= allowed * HRT_HEALTH_MIN_RATE_PCT)
		return n;
	snprintf(warn[n++], sizeof(warn[0]),
		 "%" PRIu64 " datapoints in %.1f s (%.0f/s), where the launch distances allow about %.0f/s: %" PRIu64 " timers armed, %" PRIu64 " found the CPU busy at launch, %" PRIu64 " early wakeups, %" PRIu64 " dropped; shorter launch distances, a quieter CPU (isolcpus, no other tasks) or counters = false raise the rate",
		 in->datapoints, secs, rate, allowed, in->arms, in->busy,
		 in->early_wakeups, in->dropped);
	return n;
}
