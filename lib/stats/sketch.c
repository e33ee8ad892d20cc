/* SPDX-License-Identifier: MIT */
/* A sparse log-bucketed quantile sketch: see sketch.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "stats/sketch.h"

#define SHIFT (52 - WFW_HIST_SUB_BITS)
#define MAG_BITS (11 + WFW_HIST_SUB_BITS)	/* exponent and sub-bucket */
#define CNT_BITS 40
#define CNT_MASK ((1ULL << CNT_BITS) - 1)

/*
 * Bucket of v in value order: negative magnitudes mirrored below the
 * positive ones, so that ascending keys are ascending values.
 */
static uint64_t order_key(double v)
{
	uint64_t u, mag;

	memcpy(&u, &v, sizeof(u));
	mag = (u & ~(1ULL << 63)) >> SHIFT;
	return u >> 63 ? (1ULL << MAG_BITS) - 1 - mag : (1ULL << MAG_BITS) + mag;
}

static double key_value(uint64_t key, bool integers)
{
	uint64_t half = 1ULL << MAG_BITS;

	if (key >= half)
		return wfw_hist_key_value(key - half, integers);
	return -wfw_hist_key_value(half - 1 - key, integers);
}

void wfw_sketch_init(struct wfw_sketch *k)
{
	memset(k, 0, sizeof(*k));
	k->min = INFINITY;
	k->max = -INFINITY;
}

void wfw_sketch_free(struct wfw_sketch *k)
{
	free(k->e);
	wfw_sketch_init(k);
}

/* The first entry whose key is >= key. */
static uint32_t find(const struct wfw_sketch *k, uint64_t key)
{
	uint32_t lo = 0, hi = k->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->e[mid] >> CNT_BITS < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add cnt to bucket key, making its entry if it has none. */
static int add_key(struct wfw_sketch *k, uint64_t key, uint64_t cnt)
{
	uint32_t i = find(k, key);

	if (i < k->n && k->e[i] >> CNT_BITS == key) {
		if ((k->e[i] & CNT_MASK) + cnt > WFW_SKETCH_MAX_COUNT)
			return -EOVERFLOW;
		k->e[i] += cnt;
		return 0;
	}
	if (k->n == k->cap) {
		uint32_t cap = k->cap ? 2 * k->cap : 4;
		uint64_t *e = realloc(k->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		k->e = e;
		k->cap = cap;
	}
	memmove(k->e + i + 1, k->e + i, (k->n - i) * sizeof(*k->e));
	k->e[i] = key << CNT_BITS | cnt;
	k->n++;
	return 0;
}

int wfw_sketch_add(struct wfw_sketch *k, double v)
{
	int ret = add_key(k, order_key(v), 1);

	if (ret)
		return ret;
	k->count++;
	k->min = v < k->min ? v : k->min;
	k->max = v > k->max ? v : k->max;
	return 0;
}

int wfw_sketch_merge(struct wfw_sketch *dst, const struct wfw_sketch *src)
{
	for (uint32_t i = 0; i < src->n; i++) {
		int ret = add_key(dst, src->e[i] >> CNT_BITS, src->e[i] & CNT_MASK);

		if (ret)
			return ret;
	}
	dst->count += src->count;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	return 0;
}

double wfw_sketch_rank(const struct wfw_sketch *k, uint64_t r, bool integers)
{
	uint64_t seen = 0;
	double v = NAN;

	if (r >= k->count)
		return NAN;
	if (r == 0)
		return k->min;
	if (r == k->count - 1)
		return k->max;
	for (uint32_t i = 0; i < k->n; i++) {
		seen += k->e[i] & CNT_MASK;
		if (seen > r) {
			v = key_value(k->e[i] >> CNT_BITS, integers);
			break;
		}
	}
	return v < k->min ? k->min : v > k->max ? k->max : v;
}

double wfw_sketch_pct(const struct wfw_sketch *k, double p, bool integers)
{
	double h, frac, lo;
	uint64_t r;

	if (!k->count || isnan(p))
		return NAN;
	if (p <= 0)
		return k->min;
	if (p >= 100)
		return k->max;
	h = (double)(k->count - 1) * (p / 100.0);
	r = (uint64_t)h;
	frac = h - (double)r;
	lo = wfw_sketch_rank(k, r, integers);
	if (frac == 0 || r + 1 >= k->count)
		return lo;
	return lo + frac * (wfw_sketch_rank(k, r + 1, integers) - lo);
}

size_t wfw_sketch_bytes(const struct wfw_sketch *k)
{
	return (size_t)k->cap * sizeof(*k->e);
}

int wfw_sketch_add_hist(struct wfw_sketch *k, const struct wfw_hist *h)
{
	for (size_t o = 0; o < h->noct; o++) {
		unsigned s = h->used[o], e = s % WFW_HIST_OCTAVES;

		for (unsigned i = 0; i < WFW_HIST_SUBS; i++) {
			uint64_t cnt = h->wide[s][i] + h->oct[s][i];
			uint64_t mag = (uint64_t)e << WFW_HIST_SUB_BITS | i;
			uint64_t key = s >= WFW_HIST_OCTAVES ? (1ULL << MAG_BITS) - 1 - mag :
				       (1ULL << MAG_BITS) + mag;
			int ret = cnt ? add_key(k, key, cnt) : 0;

			if (ret)
				return ret;
		}
	}
	k->count += h->count;
	return 0;
}

/* Each bucket's count moves to the bucket of its middle times f. */
int wfw_sketch_scale(struct wfw_sketch *k, double f)
{
	struct wfw_sketch out;

	wfw_sketch_init(&out);
	for (uint32_t i = 0; i < k->n; i++) {
		double v = key_value(k->e[i] >> CNT_BITS, false) * f;
		int ret = add_key(&out, order_key(v), k->e[i] & CNT_MASK);

		if (ret) {
			wfw_sketch_free(&out);
			return ret;
		}
	}
	out.count = k->count;
	out.min = k->min * f;
	out.max = k->max * f;
	free(k->e);
	*k = out;
	return 0;
}
