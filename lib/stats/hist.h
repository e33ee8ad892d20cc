/* SPDX-License-Identifier: MIT */
/*
 * Log-linear histogram of doubles with a bounded relative error.
 *
 * Why this shape: a double's bit pattern is already "exponent, then linear
 * mantissa", so keeping the sign, the exponent and the top WFW_HIST_SUB_BITS
 * mantissa bits gives buckets whose width is at most 2^-SUB_BITS of their
 * lower edge, at the cost of one shift per value. Buckets are stored per
 * octave (one exponent), allocated only when a value lands there, so memory
 * depends on the range of the data, never on the count.
 *
 * Reporting the middle of a bucket is within 2^-(SUB_BITS+1) (0.098% with
 * SUB_BITS = 9) of any value inside it.
 */
#ifndef WFW_STATS_HIST_H
#define WFW_STATS_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WFW_HIST_SUB_BITS 9
#define WFW_HIST_SUBS (1u << WFW_HIST_SUB_BITS)	/* buckets per octave */
#define WFW_HIST_OCTAVES 2048			/* 11-bit exponent */
/* Octaves of both signs, indexed by the top 12 bits: sign, exponent. */
#define WFW_HIST_SLOTS (2 * WFW_HIST_OCTAVES)
/* Largest relative distance between a value and its bucket's middle. */
#define WFW_HIST_REL_ERROR (1.0 / (double)(2u << WFW_HIST_SUB_BITS))

/*
 * Values counted in 16 bits between two folds into the 64-bit counts: a
 * fold leaves counters below 2^15, so they take 2^15 more.
 */
#define WFW_HIST_FOLD_EVERY 32768u

/*
 * Bucket 0 of either sign holds +-0.0 and the magnitudes below 2^-1031,
 * all reported as 0: a value's bucket is its bits shifted right, with no
 * case for zero, so counting one is a shift, a load and an increment.
 *
 * Each octave has two counters per bucket: 16 bits, which the values go
 * into, and 64 bits, which those at 2^15 or more are added to (and
 * cleared) once per WFW_HIST_FOLD_EVERY values, before any could overflow. What
 * counting touches is thus a quarter of the 64-bit table: the tables of
 * every metric and C-state fit in the L2 cache.
 */
#define WFW_HIST_ARENA_OCTAVES 16
#define WFW_HIST_MAX_ARENAS (WFW_HIST_SLOTS / WFW_HIST_ARENA_OCTAVES)

struct wfw_hist {
	/* [sign * 2048 + exponent]: 512 counters each, or NULL while empty */
	uint16_t *oct[WFW_HIST_SLOTS];	/* in arenas */
	uint64_t *wide[WFW_HIST_SLOTS];
	uint16_t *arenas[WFW_HIST_MAX_ARENAS];
	unsigned narenas, arena_left;
	/*
	 * Octaves [wlo, wlo + wn) side by side, in slot order, or NULL: a
	 * value in them has its 16-bit counter at a fixed distance from its
	 * bucket's key, so counting it takes a shift, no table.
	 */
	uint16_t *win;
	unsigned wlo, wn;
	uint64_t count;			/* all values counted */
	uint32_t unfolded;		/* of them in the 16-bit counters */
	size_t noct;			/* octaves allocated (memory use) */
	uint16_t used[WFW_HIST_SLOTS];	/* their slots, noct of them */
};

void wfw_hist_init(struct wfw_hist *h);
void wfw_hist_free(struct wfw_hist *h);

/* Count one value (not NaN). Returns -ENOMEM if an octave cannot be had. */
int wfw_hist_add(struct wfw_hist *h, double v);
int wfw_hist_add_many(struct wfw_hist *h, const double *v, size_t n);
/*
 * For wfw_hist_add_range(), or NULL: where the values are read anyway, m2
 * becomes the sum of (v[i] - mean)^2 as wfw_sum_sq_dev() (moments.h) takes
 * it, bit for bit, and done true; else done stays false.
 */
struct wfw_hist_sq {
	double mean, m2;
	bool done;
};

/*
 * The same for values known to lie in [lo, hi] (the caller's min and max
 * of them) and to add up to `sum` (NAN: not known): all in one bucket,
 * they are counted at once; with `integers` (whole numbers only) just lo
 * and lo + 1, from the sum; spanning fewer than 64, through a small table.
 */
int wfw_hist_add_range(struct wfw_hist *h, const double *v, size_t n,
		       double lo, double hi, double sum, bool integers,
		       struct wfw_hist_sq *sq);
/* Add every count of `src` into `dst`. */
int wfw_hist_merge(struct wfw_hist *dst, const struct wfw_hist *src);

/*
 * Estimate of the value of 0-based rank `k` in sorted order (k < count):
 * the middle of the bucket holding it. With `integers`, a bucket narrower
 * than 1 holds at most one integer, which is returned exactly.
 */
double wfw_hist_rank_value(const struct wfw_hist *h, uint64_t k,
			   bool integers);
/* The same for n ranks k[] in ascending order, in one walk: out[i] for k[i]. */
void wfw_hist_rank_values(const struct wfw_hist *h, const uint64_t *k,
			  size_t n, bool integers, double *out);

/* Multiply every value counted by f > 0 (error bound: twice the stated). */
int wfw_hist_scale(struct wfw_hist *h, double f);

/*
 * The value reported for bucket `key` of magnitudes (exponent << 9 | top 9
 * mantissa bits, as hist.c keys them): its middle, 0 for key 0.
 */
double wfw_hist_key_value(uint64_t key, bool integers);

/* Bytes allocated for buckets. */
size_t wfw_hist_bytes(const struct wfw_hist *h);

#endif
