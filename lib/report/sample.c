/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/sample.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t wfw_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t wfw_rng_below(uint64_t *state, uint64_t n)
{
	/* Rejection keeps it exactly uniform; it almost never loops. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;

	do
		v = wfw_rng_next(state);
	while (v >= limit);
	return v % n;
}

double wfw_rng_open01(uint64_t *state)
{
	return ((double)(wfw_rng_next(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* Algorithm L: the next weight, and how many items to pass over. */
static void next_gap(struct wfw_reservoir *r, uint64_t from)
{
	double gap = floor(log(wfw_rng_open01(&r->rng)) / log1p(-r->w));

	r->next = gap >= 0x1p62 || gap != gap ? UINT64_MAX : from + (uint64_t)gap;
	r->w *= exp(log(wfw_rng_open01(&r->rng)) / (double)r->cap);
}

void wfw_reservoir_init(struct wfw_reservoir *r, size_t cap, uint64_t seed)
{
	*r = (struct wfw_reservoir){ .cap = cap, .rng = seed, .next = UINT64_MAX };
	r->w = exp(log(wfw_rng_open01(&r->rng)) / (double)(cap ? cap : 1));
}

size_t wfw_reservoir_take(struct wfw_reservoir *r)
{
	uint64_t i = r->seen++;
	size_t slot;

	if (i < r->cap) {
		if (i + 1 == r->cap)
			next_gap(r, r->cap);
		return (size_t)i;
	}
	if (i != r->next)
		return SIZE_MAX;
	slot = (size_t)wfw_rng_below(&r->rng, r->cap);
	next_gap(r, i + 1);
	return slot;
}

size_t wfw_reservoir_fill(struct wfw_reservoir *r, size_t n)
{
	size_t room = r->seen < r->cap ? r->cap - (size_t)r->seen : 0;

	if (n > room)
		n = room;
	r->seen += n;
	if (n && r->seen == r->cap)
		next_gap(r, r->cap);
	return n;
}

/* A standard normal variate (Box-Muller; one of the pair). */
static double rng_normal(uint64_t *state)
{
	double u = wfw_rng_open01(state), v = wfw_rng_open01(state);

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* A Gamma(a, 1) variate, a >= 1 (Marsaglia and Tsang's method). */
static double rng_gamma(uint64_t *state, double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);

	for (;;) {
		double x = rng_normal(state), v = 1 + c * x;

		if (v <= 0)
			continue;
		v = v * v * v;
		if (log(wfw_rng_open01(state)) < 0.5 * x * x + d - d * v + d * log(v))
			return d * v;
	}
}

size_t wfw_reservoir_shrink(struct wfw_reservoir *r, size_t cap)
{
	size_t held = r->seen < r->cap ? (size_t)r->seen : r->cap;
	size_t k = held < cap ? held : cap;
	double g;

	r->cap = cap;
	r->next = UINT64_MAX;
	if (!cap)
		return 0;
	if (r->seen < cap) {	/* still filling, as from the start */
		r->w = exp(log(wfw_rng_open01(&r->rng)) / (double)cap);
		return k;
	}
	/*
	 * As if algorithm L had run with `cap` from the start: w is then the
	 * largest of the cap smallest of `seen` uniform keys, a
	 * Beta(cap, seen - cap + 1) variate, independent of which rows.
	 */
	g = rng_gamma(&r->rng, (double)cap);
	r->w = g / (g + rng_gamma(&r->rng, (double)(r->seen - cap + 1)));
	next_gap(r, r->seen);
	return k;
}

size_t wfw_reservoir_split(uint64_t *rng, uint64_t n1, uint64_t n2, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < cap && n1 + n2; i++) {
		if (wfw_rng_below(rng, n1 + n2) < n1) {
			n1--;
			k++;
		} else {
			n2--;
		}
	}
	return k;
}

bool wfw_pick_next(uint64_t *rng, size_t *need, size_t *left)
{
	bool take = *need && wfw_rng_below(rng, *left) < *need;

	*need -= take;
	(*left)--;
	return take;
}

int wfw_topk_init(struct wfw_topk *t, size_t cap, size_t width)
{
	size_t c = cap ? cap : 1;

	*t = (struct wfw_topk){ .cap = cap, .width = width };
	t->key = malloc(c * sizeof(*t->key));
	t->slot = malloc(c * sizeof(*t->slot));
	t->rows = malloc(c * (width ? width : 1) * sizeof(*t->rows));
	t->group = malloc(c * sizeof(*t->group));
	if (t->key && t->slot && t->rows && t->group)
		return 0;
	wfw_topk_free(t);
	return -ENOMEM;
}

void wfw_topk_free(struct wfw_topk *t)
{
	free(t->key);
	free(t->slot);
	free(t->rows);
	free(t->group);
	memset(t, 0, sizeof(*t));
}

static void swap_at(struct wfw_topk *t, size_t a, size_t b)
{
	float k = t->key[a];
	uint32_t s = t->slot[a];

	t->key[a] = t->key[b];
	t->slot[a] = t->slot[b];
	t->key[b] = k;
	t->slot[b] = s;
}

/*
 * The key at i down to its place: the smaller child taken without a
 * branch (which child is smaller is unpredictable), the key moved once.
 */
static void sift_down(struct wfw_topk *t, size_t i)
{
	float k = t->key[i];
	uint32_t s = t->slot[i];

	for (size_t l = 2 * i + 1; l < t->n; l = 2 * i + 1) {
		size_t m = l + (l + 1 < t->n && t->key[l + 1] < t->key[l]);

		if (!(t->key[m] < k))
			break;
		t->key[i] = t->key[m];
		t->slot[i] = t->slot[m];
		i = m;
	}
	t->key[i] = k;
	t->slot[i] = s;
}

static void sift_up(struct wfw_topk *t, size_t i)
{
	while (i && t->key[(i - 1) / 2] > t->key[i]) {
		swap_at(t, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

void wfw_topk_add(struct wfw_topk *t, float key, const float *row,
		  int32_t group)
{
	uint32_t s;

	if (!wfw_topk_wants(t, key))
		return;
	if (t->n < t->cap) {
		s = (uint32_t)t->n;
		t->key[t->n] = key;
		t->slot[t->n] = s;
		t->n++;
		sift_up(t, t->n - 1);
	} else {
		s = t->slot[0];
		t->key[0] = key;
		sift_down(t, 0);
	}
	memcpy(&t->rows[(size_t)s * t->width], row, t->width * sizeof(*row));
	t->group[s] = group;
}

float wfw_topk_min(const struct wfw_topk *t)
{
	return t->n ? t->key[0] : -INFINITY;
}
