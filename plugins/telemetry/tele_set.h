/* SPDX-License-Identifier: MIT */
/*
 * telemetry: a set of opened counters read together, one sample at a time:
 * names resolved to providers (did-you-mean on a typo), wrapping counters
 * unwrapped, deltas per sample when asked, counters that go away marked
 * gone with the reason, never read again.
 */
#ifndef TELE_SET_H
#define TELE_SET_H

#include "tele_provider.h"

#define TELE_MAX_PROVIDERS 16

struct tele_slot {
	struct tele_counter c;
	const struct tele_provider *prov;
	bool gone;
	uint64_t prev_raw;	/* the raw value last read */
	uint64_t total;		/* running total, unwrapped */
	uint64_t last_total;	/* total at the previous sample (clear) */
};

#define TELE_WHY_LEN 512

/* A counter asked for that this machine cannot give, and why. */
struct tele_missing {
	char name[TELE_NAME_LEN];
	char why[TELE_WHY_LEN];
};

struct tele_set {
	struct tele_env env;
	struct tele_snap snaps[TELE_MAX_PROVIDERS];
	struct tele_slot *slots;	/* the counters opened, in the asked order */
	size_t n;
	struct tele_missing *missing;	/* those left out */
	size_t nmissing;
	uint64_t gen;
};

/* Told once when a counter goes away, with the read's error. */
typedef void (*tele_gone_fn)(void *arg, const struct tele_slot *s, int err);

/*
 * Open every counter and read it once. A counter this machine cannot give
 * is left out and listed in set->missing, unless `strict`; -errno with
 * `why` naming the counter, what is wrong and, for a typo, the closest
 * name offered here when a name is wrong (not PROVIDER:ID, a malformed
 * ID), when `strict` and one is missing, or when none can be read.
 */
int tele_set_open(struct tele_set *set, const struct tele_env *env,
		  const char *const *names, size_t n, bool strict, char *why,
		  size_t len);
/* `head`, then the counters left out grouped by reason, into buf. */
void tele_set_missing_text(const struct tele_set *set, const char *head,
			   char *buf, size_t len);
void tele_set_close(struct tele_set *set);

/*
 * What each counter's column holds, a word per counter in column order
 * (info.yml's telemetry_kinds, for readers such as the report): `total`
 * (a running total, only grows), `increase` (with `clear`: the increase
 * since the previous sample) or `level` (a gauge, as read). A malloc'ed
 * string, or NULL.
 */
char *tele_set_kinds_text(const struct tele_set *set, bool clear);

/* Read every counter once more as the base of the first sample's deltas. */
int tele_set_baseline(struct tele_set *set, char *why, size_t len);

/*
 * One sample: vals[i] is counter i's running total, or with `clear` its
 * increase since the previous sample (gauges: the level either way), or
 * WULTFW_CELL_EMPTY once it is gone. times[i] (when not NULL) is when it
 * was read (CLOCK_MONOTONIC ns). `sync`: table files are read once for
 * the whole sample rather than once per counter.
 */
void tele_set_sample(struct tele_set *set, bool sync, bool clear,
		     int64_t *vals, int64_t *times, tele_gone_fn gone,
		     void *arg);

/* Read every counter once as a sample would, keeping nothing: the ns
 * it took. */
uint64_t tele_set_read_cost(struct tele_set *set, bool sync);

/*
 * Every counter this machine offers (add()) and, for each provider that
 * offers none, why (missing()).
 */
void tele_set_offered(const struct tele_env *env, tele_add_fn add,
		      void (*missing)(void *arg, const char *prov,
				      const char *why),
		      void *arg);

uint64_t tele_now_ns(void);

#endif
