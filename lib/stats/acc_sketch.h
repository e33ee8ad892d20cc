/* SPDX-License-Identifier: MIT */
/*
 * An accumulator whose percentiles come from a sketch (sketch.h) instead
 * of a histogram: the same buckets, so the same estimates within the same
 * bound, but 8 bytes a bucket in use instead of some 70 KiB a group. Its
 * pool (acc.h) says when: a histogram each would not fit the memory limit.
 */
#ifndef WFW_STATS_ACC_SKETCH_H
#define WFW_STATS_ACC_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "stats/acc.h"

/* Leave exact mode, or histogram mode, for a sketch. 0 or -ENOMEM. */
int wfw_acc_to_sketch(struct wfw_acc *a);
/* Count n values in a's sketch. */
int wfw_acc_sketch_add(struct wfw_acc *a, const double *v, size_t n);
/* Add src's histogram or sketch (src not exact) to dst, made a sketch. */
int wfw_acc_sketch_merge(struct wfw_acc *dst, const struct wfw_acc *src);
/* Values of ranks k[0..n) (any order, each < a->n) into v[]. */
void wfw_acc_sketch_ranks(const struct wfw_acc *a, const uint64_t *k, size_t n,
			  double *v);
void wfw_acc_sketch_free(struct wfw_acc *a);

#endif
