/* SPDX-License-Identifier: MIT */
/*
 * Room for an accumulator's kept values (room.c): growing it, leaving
 * exact mode when it runs out, and the room a metric's groups share (the
 * pool, struct wfw_acc_pool).
 */
#ifndef WFW_STATS_ROOM_H
#define WFW_STATS_ROOM_H

#include <stddef.h>
#include <stdint.h>

#include "stats/acc.h"

/* Make acc[0..nacc) members (again, after the array moved). */
void wfw_acc_pool_init(struct wfw_acc_pool *p, size_t budget, size_t limit,
		       struct wfw_acc *acc, size_t nacc);
/* The fair share of the members' counts (staged values included). */
size_t wfw_acc_pool_share(const struct wfw_acc_pool *p);
/* Members over the share leave exact mode: the end of the values. */
int wfw_acc_pool_settle(struct wfw_acc_pool *p);
/*
 * Members over the fair share leave exact mode, member a counting `count`
 * values (so that a member past it does not wait for the room to run out).
 */
int wfw_acc_pool_check(struct wfw_acc_pool *p, struct wfw_acc *a, uint64_t count);
/* Room for `need` kept values of member a (count values by then). */
int wfw_acc_pool_room(struct wfw_acc_pool *p, struct wfw_acc *a, size_t need,
		      uint64_t count);
/* Leave exact mode now (the kept values into the histogram). */
int wfw_acc_leave_exact(struct wfw_acc *a);
/* Room for cap >= nvals kept values (realloc), told to the pool. */
int wfw_acc_set_cap(struct wfw_acc *a, size_t cap);
/*
 * Room for `need` kept values: doubling, within exact_limit and the
 * pool's room; the pool may take a out of exact mode instead (a->hist
 * then set). `count`: a's values by then.
 */
int wfw_acc_grow(struct wfw_acc *a, size_t need, uint64_t count);

#endif
