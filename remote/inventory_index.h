/* SPDX-License-Identifier: MIT */
/*
 * A hash index of an inventory's hosts, groups or a group's members, so
 * that 4096 hosts are 4096 lookups, not 4096 scans of the hosts so far.
 * It stores indexes into the caller's array; the caller says whether
 * entry v is the one sought.
 */
#ifndef WFW_INVENTORY_INDEX_H
#define WFW_INVENTORY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wfw_inv_slot {
	uint64_t hash;
	size_t v1;		/* the entry + 1; 0: a free slot */
};

struct wfw_inv_index {
	struct wfw_inv_slot *slot;
	size_t cap, n;		/* cap: 0 or a power of two */
};

uint64_t wfw_inv_hash_name(const char *s);
uint64_t wfw_inv_hash_num(size_t x);

/* The entry of `hash` that same(ctx, v) takes, or SIZE_MAX. */
size_t wfw_inv_index_find(const struct wfw_inv_index *ix, uint64_t hash,
			  bool (*same)(const void *ctx, size_t v), const void *ctx);
/* Entry v under hash (not there yet: find first). Aborts out of memory. */
void wfw_inv_index_add(struct wfw_inv_index *ix, uint64_t hash, size_t v);
void wfw_inv_index_free(struct wfw_inv_index *ix);

#endif
