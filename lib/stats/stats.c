/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/acc_sketch.h"
#include "stats/moments.h"
#include "stats/sketch.h"
#include "stats/stats.h"

void wfw_acc_init(struct wfw_acc *a, size_t exact_limit, bool integers)
{
	memset(a, 0, sizeof(*a));
	a->min = INFINITY;
	a->max = -INFINITY;
	a->exact_limit = exact_limit;
	a->integers = integers;
}

void wfw_acc_free(struct wfw_acc *a)
{
	struct wfw_acc_pool *pool = a->pool;

	if (pool)
		pool->held -= a->cap;
	free(a->vals);
	free(a->stage);
	if (a->sketch) {
		wfw_acc_sketch_free(a);
	} else if (a->hist) {
		wfw_hist_free(a->hist);
		free(a->hist);
	}
	wfw_acc_init(a, a->exact_limit, a->integers);
	a->pool = pool;
}

/* s += x, the lost low part kept in *c (Neumaier's compensated sum). */
static void add_compensated(double *s, double *c, double x)
{
	double t = *s + x;

	*c += fabs(*s) >= fabs(x) ? (*s - t) + x : (x - t) + *s;
	*s = t;
}

/*
 * Combine a block (nb values, their sum and m2) into a: m2 by Chan et
 * al.'s update; the mean as the compensated sum over the count, so that
 * it rounds as sum / n does (pandas' and numpy's way: whole numbers give
 * the same digits even where the last one is a tie).
 */
static void merge_moments(struct wfw_acc *a, uint64_t nb, double sumb,
			  double sumcb, double m2b)
{
	double na = (double)a->n, dn = (double)nb, tot = na + dn;
	double delta = (sumb + sumcb) / dn - a->mean;

	if (!nb)
		return;
	a->m2 += a->n ? m2b + delta * delta * (na * dn / tot) : m2b;
	add_compensated(&a->sum, &a->sumc, sumb);
	add_compensated(&a->sum, &a->sumc, sumcb);
	a->n += nb;
	a->mean = (a->sum + a->sumc) / (double)a->n;
}

/* Kept values between looks at the pool's fair share. */
#define POOL_CHECK 4096

/*
 * Keep values for percentiles (exact or histogram); no moments here, so
 * a->n does not count them yet. lo, hi: the least and greatest of them;
 * sum: their sum, or NAN.
 */
static int store(struct wfw_acc *a, const double *v, size_t n, double lo,
		 double hi, double sum, struct wfw_hist_sq *sq)
{
	if (!a->hist && a->nvals + n > a->exact_limit && wfw_acc_leave_exact(a))
		return -ENOMEM;
	/* Past the fair share: leave now, not when the room runs out. */
	if (!a->hist && a->pool && (a->nvals + n) / POOL_CHECK != a->nvals / POOL_CHECK &&
	    wfw_acc_pool_check(a->pool, a, a->n + a->nstage + n))
		return -ENOMEM;
	if (!a->hist && a->nvals + n > a->cap &&
	    wfw_acc_grow(a, a->nvals + n, a->n + a->nstage + n))
		return -ENOMEM;
	if (a->sketch)
		return wfw_acc_sketch_add(a, v, n);
	if (a->hist)
		return wfw_hist_add_range(a->hist, v, n, lo, hi, sum, a->integers, sq);
	memcpy(a->vals + a->nvals, v, n * sizeof(*v));
	a->nvals += n;
	a->sorted = false;
	return 0;
}

/*
 * Moments and percentiles of a block of values, its extremes and sum
 * known; the histogram may take the squared deviations on its pass
 * (sq.done).
 */
static int add_known(struct wfw_acc *a, const double *v, size_t n,
		     double lo, double hi, double sum)
{
	struct wfw_hist_sq sq = { 0 };
	int ret;

	a->min = lo < a->min ? lo : a->min;
	a->max = hi > a->max ? hi : a->max;
	sq.mean = sum / (double)n;
	ret = store(a, v, n, lo, hi, sum, &sq);
	merge_moments(a, n, sum, 0.0, sq.done ? sq.m2 : wfw_sum_sq_dev(v, n, sq.mean));
	return ret;
}

static int add_block(struct wfw_acc *a, const double *v, size_t n)
{
	double sum, lo = INFINITY, hi = -INFINITY;

	if (!n)
		return 0;
	sum = wfw_min_max_sum(v, n, &lo, &hi);
	return add_known(a, v, n, lo, hi, sum);
}

int wfw_acc_flush(struct wfw_acc *a)
{
	size_t n = a->nstage;

	a->nstage = 0;
	return add_block(a, a->stage, n);
}

int wfw_acc_flush_known(struct wfw_acc *a, double lo, double hi, double sum)
{
	size_t n = a->nstage;

	a->nstage = 0;
	return n ? add_known(a, a->stage, n, lo, hi, sum) : 0;
}

double *wfw_acc_stage_n(struct wfw_acc *a, size_t n)
{
	size_t cap = a->stcap ? a->stcap : 16;
	double *st;

	if (a->nstage + n <= a->stcap)
		return a->stage + a->nstage;
	while (cap < a->nstage + n)	/* a group's few rows: a small stage */
		cap *= 2;
	cap = cap < WFW_ACC_STAGE ? cap : WFW_ACC_STAGE;
	st = realloc(a->stage, cap * sizeof(*st));
	if (!st)
		return NULL;
	a->stage = st;
	a->stcap = cap;
	return a->stage + a->nstage;
}

double *wfw_acc_stage(struct wfw_acc *a)
{
	return wfw_acc_stage_n(a, WFW_ACC_STAGE_ROOM);
}

void wfw_acc_unstage(struct wfw_acc *a)
{
	free(a->stage);
	a->stage = NULL;
	a->stcap = 0;
}

int wfw_acc_staged(struct wfw_acc *a, size_t n)
{
	a->nstage += n;
	return a->nstage > WFW_ACC_STAGE - WFW_ACC_STAGE_ROOM ? wfw_acc_flush(a) : 0;
}

int wfw_acc_add_many(struct wfw_acc *a, const double *v, size_t n)
{
	if (a->nstage && wfw_acc_flush(a))
		return -ENOMEM;
	return add_block(a, v, n);
}

int wfw_acc_add_sums(struct wfw_acc *a, const double *v, size_t n,
		     const struct wfw_run_sums *s)
{
	if (a->nstage && wfw_acc_flush(a))
		return -ENOMEM;
	return n ? add_known(a, v, n, s->lo, s->hi, s->sum) : 0;
}

int wfw_acc_add(struct wfw_acc *a, double v)
{
	return wfw_acc_add_many(a, &v, 1);
}

int wfw_acc_merge(struct wfw_acc *dst, const struct wfw_acc *src)
{
	/* What src has staged is not in its moments yet: a block of its own. */
	if (src->nstage && add_block(dst, src->stage, src->nstage))
		return -ENOMEM;
	if (!src->n)
		return 0;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (!src->hist) {
		if (store(dst, src->vals, src->nvals, src->min, src->max, NAN, NULL))
			return -ENOMEM;
	} else if (src->sketch || dst->sketch) {
		if (wfw_acc_sketch_merge(dst, src))
			return -ENOMEM;
	} else if ((!dst->hist && wfw_acc_leave_exact(dst)) || wfw_hist_merge(dst->hist, src->hist)) {
		return -ENOMEM;
	}
	merge_moments(dst, src->n, src->sum, src->sumc, src->m2);
	return 0;
}

double wfw_acc_stddev(const struct wfw_acc *a)
{
	if (a->n < 2)
		return 0.0;
	return sqrt(a->m2 / (double)(a->n - 1));
}

/* Order-preserving map of doubles (no NaN) to unsigned integers. */
static inline uint64_t sort_key(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | (1ULL << 63);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * Sort doubles: LSD radix sort on 11-bit digits of sort_key(), skipping
 * digits all values share; several times faster than qsort() on the
 * millions of values `wultfw calc` keeps. Falls back to qsort() if the
 * scratch buffer cannot be had.
 */
static void sort_values(double *v, size_t n)
{
	enum { BITS = 11, NB = 1 << BITS };
	double *tmp, *src = v, *dst;
	size_t *cnt;

	if (n < 256) {
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	tmp = malloc(n * sizeof(*tmp));
	cnt = calloc(6 * NB, sizeof(*cnt));
	if (!tmp || !cnt) {
		free(tmp);
		free(cnt);
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t k = sort_key(v[i]);

		for (int d = 0; d < 6; d++)
			cnt[d * NB + ((k >> (d * BITS)) & (NB - 1))]++;
	}
	dst = tmp;
	for (int d = 0; d < 6; d++) {
		size_t *c = cnt + d * NB, pos = 0;
		bool trivial = false;

		for (size_t b = 0; b < NB; b++) {
			size_t x = c[b];

			if (x == n)
				trivial = true;
			c[b] = pos;
			pos += x;
		}
		if (trivial)
			continue;	/* every value has the same digit */
		for (size_t i = 0; i < n; i++) {
			uint64_t k = sort_key(src[i]);

			dst[c[(k >> (d * BITS)) & (NB - 1)]++] = src[i];
		}
		dst = src;
		src = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(cnt);
}

/* Rank h = (n - 1) p / 100 of percentile p in (0, 100), below n - 1. */
static bool pct_rank(const struct wfw_acc *a, double p, uint64_t *k, double *frac)
{
	double h;

	if (isnan(p) || p <= 0 || p >= 100)
		return false;
	h = (double)(a->n - 1) * (p / 100.0);
	*k = (uint64_t)h;
	*frac = h - (double)*k;
	return *k < a->n - 1;
}

/*
 * Histogram values of ranks k[0..n) (any order) into v[]: one walk for
 * them all. The extremes are known exactly; buckets only approximate them.
 */
static void hist_ranks(const struct wfw_acc *a, const uint64_t *k, size_t n,
		       double *v)
{
	uint64_t sk[2 * WFW_ACC_MAX_PCT];
	double sv[2 * WFW_ACC_MAX_PCT];
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {	/* insertion sort: a few ranks */
		size_t j = ns++;

		for (; j && sk[j - 1] > k[i]; j--)
			sk[j] = sk[j - 1];
		sk[j] = k[i];
	}
	wfw_hist_rank_values(a->hist, sk, ns, a->integers, sv);
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (sk[j] != k[i])
			j++;
		v[i] = sv[j];
		if (k[i] == 0)
			v[i] = a->min;
		else if (k[i] == a->n - 1)
			v[i] = a->max;
		v[i] = v[i] < a->min ? a->min : v[i] > a->max ? a->max : v[i];
	}
}

/* Values of ranks k[0..n) into v[]. */
static void rank_values(struct wfw_acc *a, const uint64_t *k, size_t n,
			double *v)
{
	if (a->sketch) {
		wfw_acc_sketch_ranks(a, k, n, v);
		return;
	}
	if (a->hist) {
		hist_ranks(a, k, n, v);
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = a->vals[k[i]];
}

/* Flushed and sorted, ready for ranks; false: out of memory. */
static bool ready_for_ranks(struct wfw_acc *a)
{
	if (a->nstage && wfw_acc_flush(a))
		return false;
	if (!a->hist && !a->sorted) {
		sort_values(a->vals, a->nvals);
		a->sorted = true;
	}
	return true;
}

int wfw_acc_percentiles(struct wfw_acc *a, const double *p, size_t np,
			double *out)
{
	uint64_t k[2 * WFW_ACC_MAX_PCT], r;
	double v[2 * WFW_ACC_MAX_PCT], frac;
	size_t nk = 0;

	if (np > WFW_ACC_MAX_PCT)
		return -EINVAL;
	if (!np)
		return 0;
	if (a->n && !ready_for_ranks(a))
		return -ENOMEM;
	for (size_t i = 0; a->n && i < np; i++) {
		if (!pct_rank(a, p[i], &k[nk], &frac))
			continue;
		nk++;
		if (frac != 0) {
			k[nk] = k[nk - 1] + 1;
			nk++;
		}
	}
	if (nk)
		rank_values(a, k, nk, v);
	nk = 0;
	for (size_t i = 0; i < np; i++) {
		if (!a->n || isnan(p[i])) {
			out[i] = NAN;
		} else if (!pct_rank(a, p[i], &r, &frac)) {
			out[i] = p[i] <= 0 ? a->min : a->max;
		} else {
			double lo = v[nk++];

			out[i] = frac == 0 ? lo : lo + frac * (v[nk++] - lo);
		}
	}
	return 0;
}

double wfw_acc_percentile(struct wfw_acc *a, double p)
{
	double v;

	return wfw_acc_percentiles(a, &p, 1, &v) ? NAN : v;
}

size_t wfw_acc_bytes(const struct wfw_acc *a)
{
	size_t stage = a->stcap * sizeof(*a->stage);

	if (a->sketch)
		return stage + sizeof(*a->sk) + wfw_sketch_bytes(a->sk);
	if (a->hist)
		return stage + sizeof(*a->hist) + wfw_hist_bytes(a->hist);
	return stage + a->cap * sizeof(double);
}

int wfw_acc_scale(struct wfw_acc *a, double num, double den, bool integers)
{
	double f = num / den;

	if (a->nstage && wfw_acc_flush(a))
		return -ENOMEM;
	a->integers = integers;
	if (!a->n)
		return 0;
	/* raw / 10^d divides: the kept values read as the text parses. */
	a->min = a->min * num / den;
	a->max = a->max * num / den;
	a->sum = a->sum * num / den;
	a->sumc = a->sumc * num / den;
	a->mean = (a->sum + a->sumc) / (double)a->n;
	a->m2 *= f * f;
	for (size_t i = 0; i < a->nvals; i++)
		a->vals[i] = a->vals[i] * num / den;
	if (a->sketch)
		return wfw_sketch_scale(a->sk, f);
	return a->hist ? wfw_hist_scale(a->hist, f) : 0;
}
