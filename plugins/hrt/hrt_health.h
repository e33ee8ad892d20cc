/* SPDX-License-Identifier: MIT */
/*
 * hrt health: after a run, say in one warning each when the measurement
 * itself was in the way (a slow idle-entry probe) or when far fewer
 * datapoints came than the launch distances allow, with what to do.
 */
#ifndef HRT_HEALTH_H
#define HRT_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One reason records were dropped, and what would make it rarer (or NULL). */
struct hrt_health_drop {
	const char *why;
	uint64_t n;
	const char *advice;
};

#define HRT_HEALTH_MAX_DROPS 10
/* Bytes of one warning. */
#define HRT_HEALTH_LEN 1024

struct hrt_health_in {
	uint64_t duration_ns;		/* start() to stop() */
	uint64_t ldist_from_ns, ldist_to_ns;
	uint64_t records;		/* records the program published */
	uint64_t kept;			/* of them, rows handed to the core */
	uint64_t arms, busy, early_wakeups;
	/* Why the others were dropped: ring buffer full, checks failed. */
	struct hrt_health_drop drop[HRT_HEALTH_MAX_DROPS];
	size_t ndrop;
	uint64_t probe_entry_ns;	/* mean cost of the idle-entry probe */
	bool counters;			/* counters read at TBI and TAI */
};

/* A probe slower than this delays every idle entry noticeably. */
#define HRT_HEALTH_SLOW_PROBE_NS 1500
/* Warn below this share of the datapoint rate the distances allow. */
#define HRT_HEALTH_MIN_RATE_PCT 50
/* Too short to judge a rate: the first arm waits for an idle entry. */
#define HRT_HEALTH_MIN_DURATION_NS 2000000000ULL
/* A cause worth advice against: at least this share of the losses. */
#define HRT_HEALTH_CAUSE_PCT 10

/*
 * Fill warn[0..n) with at most `max` warnings of `len` bytes each;
 * returns how many.
 */
size_t hrt_health(const struct hrt_health_in *in, char (*warn)[HRT_HEALTH_LEN],
		  size_t max);

#endif
