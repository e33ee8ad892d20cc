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
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < WFW_HIST_OCTAVES; e++)
			free(h->oct[s][e]);
	wfw_hist_init(h);
}

/* Slow path: the octave of this value has no buckets yet. */
static int grow(struct wfw_hist *h, unsigned sign, unsigned e)
{
	h->oct[sign][e] = calloc(WFW_HIST_SUBS, sizeof(uint64_t));
	if (!h->oct[sign][e])
		return -ENOMEM;
	h->noct++;
	return 0;
}

/*
 * Count `n` values of key `k` (sign, exponent, top mantissa bits).
 * Key 0 of either sign holds zero and magnitudes below 2^-1031, which are
 * counted as zero.
 */
static inline int add_key(struct wfw_hist *h, uint64_t k, uint64_t n)
{
	unsigned sign = (unsigned)(k >> (63 - SHIFT));
	uint64_t key = k & ((1ULL << (63 - SHIFT)) - 1);
	unsigned e = (unsigned)(key >> WFW_HIST_SUB_BITS);
	uint64_t *o;

	if (!key) {
		h->zeros += n;
		return 0;
	}
	o = h->oct[sign][e];
	if (__builtin_expect(!o, 0)) {
		if (grow(h, sign, e))
			return -ENOMEM;
		o = h->oct[sign][e];
	}
	o[key & (WFW_HIST_SUBS - 1)] += n;
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
 * Runs of values in the same bucket (counters, flags, constant columns)
 * are counted once per run: back-to-back increments of one memory word
 * would wait for each other.
 */
int wfw_hist_add_many(struct wfw_hist *h, const double *v, size_t n)
{
	uint64_t prev, run = 0;

	if (!n)
		return 0;
	prev = dbits(v[0]) >> SHIFT;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = dbits(v[i]) >> SHIFT;

		if (k == prev) {
			run++;
			continue;
		}
		if (add_key(h, prev, run))
			return -ENOMEM;
		prev = k;
		run = 1;
	}
	if (add_key(h, prev, run))
		return -ENOMEM;
	h->count += n;
	return 0;
}

int wfw_hist_merge(struct wfw_hist *dst, const struct wfw_hist *src)
{
	for (unsigned s = 0; s < 2; s++) {
		for (unsigned e = 0; e < WFW_HIST_OCTAVES; e++) {
			const uint64_t *so = src->oct[s][e];

			if (!so)
				continue;
			if (!dst->oct[s][e] && grow(dst, s, e))
				return -ENOMEM;
			for (unsigned i = 0; i < WFW_HIST_SUBS; i++)
				dst->oct[s][e][i] += so[i];
		}
	}
	dst->zeros += src->zeros;
	dst->count += src->count;
	return 0;
}

/* Representative value of bucket (e, i) of magnitudes; see hist.h. */
static double bucket_value(unsigned e, unsigned i, bool integers)
{
	uint64_t key = ((uint64_t)e << WFW_HIST_SUB_BITS) | i;
	double lo = bitsd(key << SHIFT);
	double hi = bitsd((key + 1) << SHIFT);

	if (isinf(lo) || isinf(hi))
		return lo;
	if (integers && hi - lo <= 1.0)
		return ceil(lo);
	return lo + (hi - lo) / 2;
}

double wfw_hist_rank_value(const struct wfw_hist *h, uint64_t k,
			   bool integers)
{
	uint64_t seen = 0;

	/* Negative values first, largest magnitude first. */
	for (int e = WFW_HIST_OCTAVES - 1; e >= 0; e--) {
		const uint64_t *o = h->oct[1][e];

		if (!o)
			continue;
		for (int i = WFW_HIST_SUBS - 1; i >= 0; i--) {
			seen += o[i];
			if (seen > k)
				return -bucket_value((unsigned)e, (unsigned)i,
						     integers);
		}
	}
	seen += h->zeros;
	if (seen > k)
		return 0.0;
	for (unsigned e = 0; e < WFW_HIST_OCTAVES; e++) {
		const uint64_t *o = h->oct[0][e];

		if (!o)
			continue;
		for (unsigned i = 0; i < WFW_HIST_SUBS; i++) {
			seen += o[i];
			if (seen > k)
				return bucket_value(e, i, integers);
		}
	}
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
	out.zeros = h->zeros;
	for (unsigned s = 0; s < 2; s++) {
		for (unsigned e = 0; e < WFW_HIST_OCTAVES; e++) {
			const uint64_t *o = h->oct[s][e];

			for (unsigned i = 0; o && i < WFW_HIST_SUBS; i++) {
				double v = bucket_value(e, i, false) * f;

				if (o[i] && add_key(&out, dbits(s ? -v : v) >> SHIFT, o[i])) {
					wfw_hist_free(&out);
					return -ENOMEM;
				}
			}
		}
	}
	out.count = h->count;
	wfw_hist_free(h);
	*h = out;
	return 0;
}
