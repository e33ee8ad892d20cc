/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "stats/moments.h"

#ifdef __SSE2__
#include <emmintrin.h>

double wfw_min_max_sum(const double *v, size_t n, double *lo, double *hi)
{
	struct wfw_mms m;
	size_t i;

	wfw_mms_init(&m, *lo, *hi);
	for (i = 0; i + 4 <= n; i += 4)
		wfw_mms_add4(&m, _mm_loadu_pd(v + i), _mm_loadu_pd(v + i + 2));
	return wfw_mms_end(&m, v + i, n - i, lo, hi);
}

double wfw_sum_sq_dev(const double *v, size_t n, double mean)
{
	__m128d m = _mm_set1_pd(mean), q0 = _mm_setzero_pd(), q1 = q0;
	double q[2], sum;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		__m128d a = _mm_sub_pd(_mm_loadu_pd(v + i), m);
		__m128d b = _mm_sub_pd(_mm_loadu_pd(v + i + 2), m);

		q0 = _mm_add_pd(q0, _mm_mul_pd(a, a));
		q1 = _mm_add_pd(q1, _mm_mul_pd(b, b));
	}
	_mm_storeu_pd(q, _mm_add_pd(q0, q1));
	sum = q[0] + q[1];
	for (; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sum;
}

#else	/* portable C: four chains, so the loops are not latency bound */

double wfw_min_max_sum(const double *v, size_t n, double *lo, double *hi)
{
	double s[4] = { 0, 0, 0, 0 }, l = *lo, h = *hi;
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		for (int j = 0; j < 4; j++)
			s[j] += v[i + j];
	for (; i < n; i++)
		s[0] += v[i];
	for (i = 0; i < n; i++) {
		l = v[i] < l ? v[i] : l;
		h = v[i] > h ? v[i] : h;
	}
	*lo = l;
	*hi = h;
	return (s[0] + s[1]) + (s[2] + s[3]);
}

double wfw_sum_sq_dev(const double *v, size_t n, double mean)
{
	double q[4] = { 0, 0, 0, 0 };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		for (int j = 0; j < 4; j++)
			q[j] += (v[i + j] - mean) * (v[i + j] - mean);
	for (; i < n; i++)
		q[0] += (v[i] - mean) * (v[i] - mean);
	return (q[0] + q[1]) + (q[2] + q[3]);
}

#endif
