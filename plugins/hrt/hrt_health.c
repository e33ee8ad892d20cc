/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

static uint64_t dropped(const struct hrt_health_in *in)
{
	uint64_t n = 0;

	for (size_t i = 0; i < in->ndrop; i++)
		n += in->drop[i].n;
	return n;
}

/* Append printf-style to buf of len bytes, which holds *l bytes. */
#define APPEND(buf, len, l, ...) do { \
		if (*(l) < (len)) \
			*(l) += (size_t)snprintf((buf) + *(l), (len) - *(l), __VA_ARGS__); \
	} while (0)

/* "3281 dropped (3281 idle entered after the launch time)" */
static void say_drops(const struct hrt_health_in *in, char *buf, size_t len,
		      size_t *l)
{
	const char *sep = " (";

	APPEND(buf, len, l, ", %" PRIu64 " dropped", dropped(in));
	for (size_t i = 0; i < in->ndrop; i++) {
		if (!in->drop[i].n)
			continue;
		APPEND(buf, len, l, "%s%" PRIu64 " %s", sep, in->drop[i].n,
		       in->drop[i].why);
		sep = ", ";
	}
	if (sep[0] == ',')
		APPEND(buf, len, l, ")");
}

/* What would raise the rate, from the causes that were there. */
static void say_advice(const struct hrt_health_in *in, char *buf, size_t len,
		       size_t *l)
{
	uint64_t lost = in->busy + dropped(in);
	const char *sep = "; to raise the rate: ";

	/* The first timer is armed at the CPU's first idle entry. */
	if (!in->arms) {
		APPEND(buf, len, l, "; no timer was armed: the CPU never went idle (other tasks kept it busy): measure on a quieter CPU (isolcpus, no other tasks)");
		return;
	}
	if (lost && in->busy * 100 >= lost * HRT_HEALTH_CAUSE_PCT) {
		APPEND(buf, len, l, "%sa quieter CPU (isolcpus, no other tasks)", sep);
		sep = ", ";
	}
	for (size_t i = 0; i < in->ndrop; i++) {
		if (!in->drop[i].advice || !in->drop[i].n ||
		    in->drop[i].n * 100 < lost * HRT_HEALTH_CAUSE_PCT)
			continue;
		APPEND(buf, len, l, "%s%s", sep, in->drop[i].advice);
		sep = ", ";
	}
	/* Only a setting that is on can be switched off. */
	if (in->counters) {
		APPEND(buf, len, l, "%scounters = false (a shorter idle-entry probe)", sep);
		sep = ", ";
	}
	if (sep[0] == ';')
		APPEND(buf, len, l, "; the CPU was seldom idle when a timer was due");
}

static void say_rate(const struct hrt_health_in *in, double secs,
		     double allowed, char *buf, size_t len)
{
	size_t l = 0;
	uint64_t unread = in->records > in->kept + dropped(in) ?
			  in->records - in->kept - dropped(in) : 0;

	APPEND(buf, len, &l, "%" PRIu64 " datapoints kept in %.1f s (%.0f/s), where the launch distances allow about %.0f/s: %" PRIu64 " timers armed, %" PRIu64 " found the CPU busy at launch, %" PRIu64 " early wakeups; of %" PRIu64 " records %" PRIu64 " kept",
	       in->kept, secs, (double)in->kept / secs, allowed, in->arms,
	       in->busy, in->early_wakeups, in->records, in->kept);
	say_drops(in, buf, len, &l);
	if (unread)
		APPEND(buf, len, &l, ", %" PRIu64 " still in the ring buffer at stop (read after it, or beyond the limit)", unread);
	say_advice(in, buf, len, &l);
}

size_t hrt_health(const struct hrt_health_in *in, char (*warn)[HRT_HEALTH_LEN],
		  size_t max)
{
	size_t n = 0;
	double secs = (double)in->duration_ns / 1e9, allowed;

	if (n < max && in->probe_entry_ns > HRT_HEALTH_SLOW_PROBE_NS)
		snprintf(warn[n++], sizeof(warn[0]),
			 "the idle-entry probe took %" PRIu64 " ns per idle entry%s: every idle entry of the measured CPU was delayed that much; %s",
			 in->probe_entry_ns,
			 in->counters ? " with the counter reads" : "",
			 in->counters ? "set counters = false to leave out the counter reads (TotCyc, C-state %)" :
			 "a busy host (vCPU descheduled) stretches it: measure on a quieter machine");
	if (in->duration_ns < HRT_HEALTH_MIN_DURATION_NS || n >= max)
		return n;
	allowed = rate_allowed(in);
	if (allowed <= 0 ||
	    (double)in->kept / secs * 100 >= allowed * HRT_HEALTH_MIN_RATE_PCT)
		return n;
	say_rate(in, secs, allowed, warn[n++], sizeof(warn[0]));
	return n;
}
