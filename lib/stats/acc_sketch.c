/* SPDX-License-Identifier: MIT */
/* An accumulator's percentiles from a sketch: see acc_sketch.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "stats/acc_sketch.h"
#include "stats/hist.h"
#include "stats/room.h"
#include "stats/sketch.h"

int wfw_acc_to_sketch(struct wfw_acc *a)
{
	struct wfw_sketch *k;
	int ret = 0;

	if (a->sketch)
		return 0;
	k = malloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	wfw_sketch_init(k);
	if (a->hist) {
		ret = wfw_sketch_add_hist(k, a->hist);
		k->min = a->min;	/* the buckets do not know the extremes */
		k->max = a->max;
	}
	for (size_t i = 0; i < a->nvals && !ret; i++)
		ret = wfw_sketch_add(k, a->vals[i]);
	if (ret) {
		wfw_sketch_free(k);
		free(k);
		return -ENOMEM;
	}
	if (a->hist) {
		wfw_hist_free(a->hist);
		free(a->hist);
	}
	wfw_acc_set_cap(a, 0);
	a->nvals = 0;
	a->sk = k;
	a->sketch = true;
	return 0;
}

int wfw_acc_sketch_add(struct wfw_acc *a, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (wfw_sketch_add(a->sk, v[i]))
			return -ENOMEM;
	return 0;
}

int wfw_acc_sketch_merge(struct wfw_acc *dst, const struct wfw_acc *src)
{
	int ret = wfw_acc_to_sketch(dst);

	if (ret)
		return ret;
	if (src->sketch)
		return wfw_sketch_merge(dst->sk, src->sk) ? -ENOMEM : 0;
	if (wfw_sketch_add_hist(dst->sk, src->hist))
		return -ENOMEM;
	dst->sk->min = src->min < dst->sk->min ? src->min : dst->sk->min;
	dst->sk->max = src->max > dst->sk->max ? src->max : dst->sk->max;
	return 0;
}

/* As the histogram's ranks are taken (stats.c): the extremes are exact. */
void wfw_acc_sketch_ranks(const struct wfw_acc *a, const uint64_t *k, size_t n,
			  double *v)
{
	for (size_t i = 0; i < n; i++) {
		if (k[i] == 0)
			v[i] = a->min;
		else if (k[i] == a->n - 1)
			v[i] = a->max;
		else
			v[i] = wfw_sketch_rank(a->sk, k[i], a->integers);
		v[i] = v[i] < a->min ? a->min : v[i] > a->max ? a->max : v[i];
	}
}

void wfw_acc_sketch_free(struct wfw_acc *a)
{
	wfw_sketch_free(a->sk);
	free(a->sk);
	a->sk = NULL;
	a->sketch = false;
}
