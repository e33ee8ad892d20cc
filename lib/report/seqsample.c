/* SPDX-License-Identifier: MIT */
/*
 * Sequential random sampling: m of n items, in order, without looking at
 * the ones passed over. Vitter's method D ("An efficient algorithm for
 * sequential random sampling", ACM TOMS 13(1), 1987) draws each gap S
 * from a continuous envelope X = n (1 - V^(1/m)) and accepts it against
 * the gap's exact law
 *	P(S = s) = m/n * prod_{i<s} (n - m - i) / (n - 1 - i),
 * first by a cheap lower bound, rarely by the product; where the sample
 * is dense (n < ALPHA * m) method A inverts that law step by step.
 */
#include "config.h"

#include "report/sample.h"

#include <math.h>

/* Method D while the items left exceed ALPHA times those to choose. */
#define ALPHA 13

static double draw(struct wfw_seqsample *q)
{
	return wfw_rng_open01(&q->rng);
}

/* Method A: the smallest s with P(S > s) <= V. m >= 2. */
static uint64_t gap_a(struct wfw_seqsample *q)
{
	double top = (double)(q->n - q->m), left = (double)q->n;
	double v = draw(q), quot = top / left;
	uint64_t s = 0;

	while (quot > v) {
		s++;
		top--;
		left--;
		quot *= top / left;
	}
	return s;
}

/*
 * Method D's exact test for gap s drawn as x (y1: its first test's
 * (U n / qu1)^(1 / (m - 1))): is U c g(x) <= P(S = s)?
 */
static bool exact_accept(const struct wfw_seqsample *q, uint64_t s, double x,
			 double y1)
{
	double n = (double)q->n, m = (double)q->m, y2 = 1, top = n - 1, bottom;
	double limit;

	if (m - 1 > (double)s) {
		bottom = n - m;
		limit = n - (double)s;
	} else {
		bottom = n - (double)s - 1;
		limit = n - m + 1;
	}
	for (double t = n - 1; t >= limit; t--)
		y2 *= top-- / bottom--;
	return n / (n - x) >= y1 * exp(log(y2) / (m - 1));
}

/* Method D: one gap; q->vprime is U^(1/m) before, U^(1/(m-1)) after. */
static uint64_t gap_d(struct wfw_seqsample *q)
{
	double n = (double)q->n, m = (double)q->m, qu1 = n - m + 1;

	for (;;) {
		double x, u, y1;
		uint64_t s;

		for (;;) {
			x = n * (1 - q->vprime);
			s = (uint64_t)x;
			if ((double)s < qu1)
				break;
			q->vprime = exp(log(draw(q)) / m);
		}
		u = draw(q);
		y1 = exp(log(u * n / qu1) / (m - 1));
		q->vprime = y1 * (1 - x / n) * (qu1 / (qu1 - (double)s));
		if (q->vprime <= 1)
			return s;	/* under the bound: vprime is fresh */
		if (exact_accept(q, s, x, y1)) {
			q->vprime = exp(log(draw(q)) / (m - 1));
			return s;
		}
		q->vprime = exp(log(draw(q)) / m);
	}
}

/* The gap before the next chosen item, and past it. q->m >= 1. */
static uint64_t gap(struct wfw_seqsample *q)
{
	uint64_t s;

	if (q->m == 1) {
		double v = isnan(q->vprime) ? draw(q) : q->vprime;

		s = (uint64_t)((double)q->n * v);
		if (s >= q->n)
			s = q->n - 1;
	} else if (!q->dense && (double)ALPHA * (double)q->m < (double)q->n) {
		s = gap_d(q);
	} else {
		q->dense = true;
		q->vprime = NAN;
		s = gap_a(q);
	}
	q->n -= s + 1;
	q->m--;
	return s;
}

void wfw_seqsample_init(struct wfw_seqsample *q, uint64_t seed, uint64_t n,
			uint64_t m)
{
	*q = (struct wfw_seqsample){ .n = n, .m = m < n ? m : n, .rng = seed,
				     .next = UINT64_MAX };
	if (!q->m)
		return;
	q->vprime = exp(log(draw(q)) / (double)q->m);
	q->next = gap(q);
}

void wfw_seqsample_advance(struct wfw_seqsample *q)
{
	q->next = q->m ? q->next + 1 + gap(q) : UINT64_MAX;
}
