/* SPDX-License-Identifier: MIT */
/*
 * Room for an accumulator's kept values, its own and the room a metric's
 * groups share: see room.h and struct wfw_acc_pool.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "stats/acc_sketch.h"
#include "stats/hist.h"
#include "stats/room.h"

int wfw_acc_set_cap(struct wfw_acc *a, size_t cap)
{
	double *nv = cap ? realloc(a->vals, cap * sizeof(*nv)) : NULL;

	if (cap && !nv)
		return -ENOMEM;
	if (!cap)
		free(a->vals);
	if (a->pool)
		a->pool->held = a->pool->held - a->cap + cap;
	a->vals = nv;
	a->cap = cap;
	return 0;
}

/* Leave exact mode: move the kept values into a new histogram. */
static int to_hist(struct wfw_acc *a)
{
	a->hist = malloc(sizeof(*a->hist));
	if (!a->hist)
		return -ENOMEM;
	wfw_hist_init(a->hist);
	if (wfw_hist_add_many(a->hist, a->vals, a->nvals))
		return -ENOMEM;
	wfw_acc_set_cap(a, 0);
	a->nvals = 0;
	return 0;
}

int wfw_acc_leave_exact(struct wfw_acc *a)
{
	if (a->hist)
		return 0;
	return a->pool && a->pool->sketch ? wfw_acc_to_sketch(a) : to_hist(a);
}

int wfw_acc_grow(struct wfw_acc *a, size_t need, uint64_t count)
{
	size_t cap = a->cap ? a->cap : 1024;

	if (!a->cap && a->pool && a->pool->nacc) {
		/*
		 * Many groups: start small, most have a few values (a
		 * million groups of two would hold 16 each for an even part
		 * of the room: 128 bytes a group and metric, not 16).
		 */
		size_t even = a->pool->budget / a->pool->nacc;

		cap = even >= cap ? cap : 2;
	}
	while (cap < need)
		cap *= 2;
	cap = cap < a->exact_limit ? cap : a->exact_limit;
	if (a->pool) {
		struct wfw_acc_pool *p = a->pool;
		size_t others, lim;

		if (p->held - a->cap + need > p->next_room) {
			if (wfw_acc_pool_room(p, a, need, count))
				return -ENOMEM;
			lim = p->held > p->budget ? p->held : p->budget;
			p->next_room = lim + p->nacc;
		}
		if (a->hist)
			return 0;
		others = p->held - a->cap;
		if (others + need > p->next_room && count >= WFW_POOL_HIST_MIN)
			return wfw_acc_leave_exact(a);	/* cannot happen: room made */
		lim = p->next_room > others + need ? p->next_room - others : need;
		cap = cap < lim ? cap : lim;
	}
	return wfw_acc_set_cap(a, cap);
}

void wfw_acc_pool_init(struct wfw_acc_pool *p, size_t budget, size_t limit,
		       struct wfw_acc *acc, size_t nacc)
{
	p->budget = budget;
	p->limit = limit;
	p->acc = acc;
	p->nacc = nacc;
	p->next_room = budget;
	p->held = 0;
	for (size_t i = 0; i < nacc; i++) {
		acc[i].pool = p;
		p->held += acc[i].cap;
	}
}

/* Member x's count: its values added and staged; a's is `count`. */
static uint64_t count_of(const struct wfw_acc *x, const struct wfw_acc *a,
			 uint64_t count)
{
	return x == a ? count : x->n + x->nstage;
}

/* Whether every member keeping at most t values fits the budget. */
static bool fits(const struct wfw_acc_pool *p, const struct wfw_acc *a,
		 uint64_t count, uint64_t t)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < p->nacc && sum <= p->budget; i++) {
		uint64_t c = count_of(&p->acc[i], a, count);

		sum += c < t ? c : t;
	}
	return sum <= p->budget;
}

/* The fair share (see struct wfw_acc_pool), a's count taken as `count`. */
static size_t share(const struct wfw_acc_pool *p, const struct wfw_acc *a,
		    uint64_t count)
{
	size_t lo = 0, hi = p->limit < p->budget ? p->limit : p->budget;

	if (fits(p, a, count, hi))
		return hi;
	while (hi - lo > 1) {	/* fits(lo), not fits(hi) */
		size_t mid = lo + (hi - lo) / 2;

		if (fits(p, a, count, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t wfw_acc_pool_share(const struct wfw_acc_pool *p)
{
	return share(p, NULL, 0);
}

/* Members over the share (a counting `count`) leave exact mode. */
static int over_share(struct wfw_acc_pool *p, const struct wfw_acc *a,
		      uint64_t count)
{
	size_t t = share(p, a, count);

	for (size_t i = 0; i < p->nacc; i++) {
		uint64_t c = count_of(&p->acc[i], a, count);

		if (c > t && c >= WFW_POOL_HIST_MIN &&
		    wfw_acc_leave_exact(&p->acc[i]))
			return -ENOMEM;
	}
	return 0;
}

int wfw_acc_pool_check(struct wfw_acc_pool *p, struct wfw_acc *a, uint64_t count)
{
	return over_share(p, a, count);
}

int wfw_acc_pool_settle(struct wfw_acc_pool *p)
{
	return over_share(p, NULL, 0);
}

/*
 * What stays exact is within the share, so it fits: the kept values of
 * the exact members (each its count) sum to at most the budget once the
 * others give back their spare room. Half of what is left is spread
 * evenly as headroom (trimming others to exactly their values would have
 * them grow again at their next block: a realloc per block near the
 * budget), half stays free for the next to grow (or a new group).
 */
int wfw_acc_pool_room(struct wfw_acc_pool *p, struct wfw_acc *a, size_t need,
		      uint64_t count)
{
	size_t used = need, nexact = 1, head;

	if (over_share(p, a, count))
		return -ENOMEM;
	if (a->hist)
		return 0;
	for (size_t i = 0; i < p->nacc; i++) {
		const struct wfw_acc *x = &p->acc[i];

		if (x != a && !x->hist) {
			used += x->nvals;
			nexact++;
		}
	}
	/* Half the free room as headroom, half for the next (or new) member. */
	head = used < p->budget ? (p->budget - used) / nexact / 2 : 0;
	for (size_t i = 0; i < p->nacc && p->held - a->cap + need > p->budget - head; i++) {
		struct wfw_acc *x = &p->acc[i];

		if (x != a && !x->hist && x->cap > x->nvals + head)
			wfw_acc_set_cap(x, x->nvals + head);
	}
	return 0;
}
