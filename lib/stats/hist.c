/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

#define SHIFT (52 - WFW_HIST_SUB_BITS)

static inline uint64_t dbits(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static inline double bitsd(uint64_t u)
{
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

void wfw_hist_init(struct wfw_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void wfw_hist_free(struct wfw_hist *h)
{
	for (int i = 0; i < WFW_HIST_SLOTS; i++)
		free(h->oct[i]);
	wfw_hist_init(h);
}

/* Slow path: the octave of this value has no buckets yet. */
static int grow(struct wfw_hist *h, unsigned slot)
{
	h->oct[slot] = calloc(WFW_HIST_SUBS, sizeof(uint64_t));
	if (!h->oct[slot])
		return -ENOMEM;
	h->noct++;
	return 0;
}

/* Count `n` values of key `k` (sign, exponent, top mantissa bits). */
static inline int add_key(struct wfw_hist *h, uint64_t k, uint64_t n)
{
	unsigned slot = (unsigned)(k >> WFW_HIST_SUB_BITS);

	if (__builtin_expect(!h->oct[slot], 0) && grow(h, slot))
		return -ENOMEM;
	h->oct[slot][k & (WFW_HIST_SUBS - 1)] += n;
	return 0;
}

int wfw_hist_add(struct wfw_hist *h, double v)
{
	int ret = add_key(h, dbits(v) >> SHIFT, 1);

	if (!ret)
		h->count++;
	return ret;
}

/*
 * The common case is branch free: a missing octave is the only test. A
 * column whose values all fall in one bucket (a constant counter) is
 * counted at once: back-to-back increments of one word wait for each other.
 */
int wfw_hist_add_many(struct wfw_hist *h, const double *v, size_t n)
{
	uint64_t first;
	size_t i;

	if (!n)
		return 0;
	first = dbits(v[0]) >> SHIFT;
	for (i = 1; i < n && dbits(v[i]) >> SHIFT == first; i++)
		;
	if (i == n) {
		if (add_key(h, first, n))
			return -ENOMEM;
		h->count += n;
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = dbits(v[i]) >> SHIFT;
		uint64_t *o = h->oct[k >> WFW_HIST_SUB_BITS];

		if (__builtin_expect(!o, 0)) {
			if (add_key(h, k, 1))
				return -ENOMEM;
			continue;
		}
		o[k & (WFW_HIST_SUBS - 1)]++;
	}
	h->count += n;
	return 0;
}

int wfw_hist_merge(struct wfw_hist *dst, const struct wfw_hist *src)
{
	for (unsigned s = 0; s < WFW_HIST_SLOTS; s++) {
		const uint64_t *so = src->oct[s];

		if (!so)
			continue;
		if (!dst->oct[s] && grow(dst, s))
			return -ENOMEM;
		for (unsigned i = 0; i < WFW_HIST_SUBS; i++)
			dst->oct[s][i] += so[i];
	}
	dst->count += src->count;
	return 0;
}

/* Representative value of bucket (e, i) of magnitudes; see hist.h. */
static double bucket_value(unsigned e, unsigned i, bool integers)
{
	uint64_t key = ((uint64_t)e << WFW_HIST_SUB_BITS) | i;
	double lo = bitsd(key << SHIFT);
	double hi = bitsd((key + 1) << SHIFT);

	if (!key)
		return 0.0;	/* zero, and magnitudes below 2^-1031 */
	if (isinf(lo) || isinf(hi))
		return lo;
	if (integers && hi - lo <= 1.0)
		return ceil(lo);
	return lo + (hi - lo) / 2;
}

/* Walk the octaves of one sign in value order until rank k is passed. */
static bool walk(const struct wfw_hist *h, bool neg, uint64_t k,
		 uint64_t *seen, bool integers, double *out)
{
	for (unsigned j = 0; j < WFW_HIST_OCTAVES; j++) {
		unsigned e = neg ? WFW_HIST_OCTAVES - 1 - j : j;
		const uint64_t *o = h->oct[(neg ? WFW_HIST_OCTAVES : 0) + e];

		if (!o)
			continue;
		for (unsigned b = 0; b < WFW_HIST_SUBS; b++) {
			unsigned i = neg ? WFW_HIST_SUBS - 1 - b : b;
			double v;

			*seen += o[i];
			if (*seen <= k)
				continue;
			v = bucket_value(e, i, integers);
			*out = neg && v != 0 ? -v : v;
			return true;
		}
	}
	return false;
}

double wfw_hist_rank_value(const struct wfw_hist *h, uint64_t k,
			   bool integers)
{
	uint64_t seen = 0;
	double v;

	/* Negative values first, largest magnitude first. */
	if (walk(h, true, k, &seen, integers, &v) ||
	    walk(h, false, k, &seen, integers, &v))
		return v;
	return NAN;	/* k >= count: the caller's bug */
}

size_t wfw_hist_bytes(const struct wfw_hist *h)
{
	return h->noct * WFW_HIST_SUBS * sizeof(uint64_t);
}

/*
 * Multiply every counted value by f > 0: each bucket's count moves to the
 * bucket of its middle times f. The estimate then carries up to twice the
 * stated error (once per binning); only a column whose type changed while
 * it was read (INT -> FLOAT) needs this.
 */
int wfw_hist_scale(struct wfw_hist *h, double f)
{
	struct wfw_hist out;

	wfw_hist_init(&out);
	for (unsigned s = 0; s < WFW_HIST_SLOTS; s++) {
		const uint64_t *o = h->oct[s];
		unsigned e = s % WFW_HIST_OCTAVES;

		for (unsigned i = 0; o && i < WFW_HIST_SUBS; i++) {
			double v = bucket_value(e, i, false) * f;

			if (s >= WFW_HIST_OCTAVES)
				v = -v;
			if (o[i] && add_key(&out, dbits(v) >> SHIFT, o[i])) {
				wfw_hist_free(&out);
				return -ENOMEM;
			}
		}
	}
	out.count = h->count;
	wfw_hist_free(h);
	*h = out;
	return 0;
}
