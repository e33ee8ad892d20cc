/* SPDX-License-Identifier: MIT */
/*
 * Bounded memory for a report of any size: a uniform sample of the rows
 * (reservoir sampling, repeatable: a seeded generator) for the density
 * of the plots, and the largest values of a metric kept exactly (a
 * min-heap) for the tail, which a sample would lose.
 */
#ifndef WFW_REPORT_SAMPLE_H
#define WFW_REPORT_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A small, fast, seeded generator (splitmix64): repeatable samples. */
uint64_t wfw_rng_next(uint64_t *state);
/* Uniform in [0, n), n > 0. */
uint64_t wfw_rng_below(uint64_t *state, uint64_t n);
/* Uniform in (0, 1), never 0 (it may go into a log). */
double wfw_rng_open01(uint64_t *state);

/*
 * Reservoir sampling of `cap` items out of a stream of unknown length,
 * Li's algorithm L: it draws random numbers only for the items it takes,
 * about cap * (1 + ln(n / cap)) of n, so skipping the others costs one
 * comparison. Every item ends up in the sample with probability cap / n.
 */
struct wfw_reservoir {
	size_t cap;
	uint64_t seen;		/* items offered so far */
	uint64_t next;		/* the next item taken once the sample is full */
	double w;
	uint64_t rng;
};

void wfw_reservoir_init(struct wfw_reservoir *r, size_t cap, uint64_t seed);

/*
 * Offer the next item: the slot it goes into (< cap; the slot's item is
 * replaced), or SIZE_MAX when it is not taken.
 */
size_t wfw_reservoir_take(struct wfw_reservoir *r);

/*
 * While the sample is not full: take up to n items at once, into slots
 * `seen`, `seen` + 1, ... (as that many wfw_reservoir_take() calls would).
 * Returns how many were taken: fewer than n once the sample is full.
 */
size_t wfw_reservoir_fill(struct wfw_reservoir *r, size_t n);

/*
 * Items among the next n offered that wfw_reservoir_take() would not
 * take before one it takes (n when none): lets a caller skip them at once.
 */
static inline uint64_t wfw_reservoir_skip(const struct wfw_reservoir *r,
					  uint64_t n)
{
	uint64_t first = r->seen < r->cap ? r->seen : r->next;

	return first - r->seen < n ? first - r->seen : n;
}

/* Count n items as offered and not taken (n <= wfw_reservoir_skip()). */
static inline void wfw_reservoir_skipped(struct wfw_reservoir *r, uint64_t n)
{
	r->seen += n;
}

/*
 * Go on with a smaller sample: the caller keeps the returned number of
 * the items held (`cap`, or all when fewer), chosen uniformly (with
 * wfw_pick_next()), in slots 0, 1, ... From then on the sample is as
 * uniform as if it had been `cap` items from the start.
 */
size_t wfw_reservoir_shrink(struct wfw_reservoir *r, size_t cap);

/*
 * Merging two uniform samples of disjoint parts (n1 and n2 items, samples
 * of min(n, cap) each) into one of `cap` items of the whole: how many of
 * them come from the first part (hypergeometric, drawn item by item, so
 * the merged sample is uniform over the n1 + n2 items).
 */
size_t wfw_reservoir_split(uint64_t *rng, uint64_t n1, uint64_t n2, size_t cap);

/*
 * Choosing `need` of `left` items uniformly, one item after the other
 * (selection sampling, Knuth's algorithm S; no memory): is the next one
 * chosen? Updates both counts. With need == left, every one is.
 */
bool wfw_pick_next(uint64_t *rng, size_t *need, size_t *left);

/*
 * A uniform sample of m of n items when n is known in advance (a binary
 * file counts its rows when opened), chosen in order as they pass:
 * sequential random sampling (seqsample.c), Vitter's method D, drawing
 * only the gaps, about m times, with no memory. Every m-subset equally
 * likely; the same seed, the same items.
 */
struct wfw_seqsample {
	uint64_t n;		/* items after the last chosen one */
	uint64_t m;		/* items still to choose among them */
	uint64_t next;		/* the next chosen item, UINT64_MAX: none */
	double vprime;		/* method D's U^(1/m), NAN: draw anew */
	bool dense;		/* method A from here on */
	uint64_t rng;
};

void wfw_seqsample_init(struct wfw_seqsample *q, uint64_t seed, uint64_t n,
			uint64_t m);
/* Past q->next: the one chosen after it, in q->next. */
void wfw_seqsample_advance(struct wfw_seqsample *q);

/*
 * The `cap` rows with the largest keys: a min-heap of keys, each with a
 * row of `width` floats and a group number. NaN keys are never kept.
 */
struct wfw_topk {
	size_t cap, width, n;
	float *key;		/* heap order: key[0] the smallest kept */
	uint32_t *slot;		/* each key's row in rows[] */
	float *rows;		/* [slot * width + column] */
	int32_t *group;		/* [slot] */
};

int wfw_topk_init(struct wfw_topk *t, size_t cap, size_t width);
void wfw_topk_free(struct wfw_topk *t);

/* Would a row with this key be kept (before wfw_topk_add)? */
static inline bool wfw_topk_wants(const struct wfw_topk *t, float key)
{
	return t->n < t->cap ? key == key : key > t->key[0];
}

/* Keep the row (width floats) with `key` if it is among the largest. */
void wfw_topk_add(struct wfw_topk *t, float key, const float *row,
		  int32_t group);

/* The smallest key kept (-INFINITY when none). */
float wfw_topk_min(const struct wfw_topk *t);

#endif
