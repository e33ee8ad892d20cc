/* SPDX-License-Identifier: MIT */
/* Open addressing, linear probing, at most half full. */
#include "config.h"

#include <stdlib.h>

#include "inventory_index.h"

uint64_t wfw_inv_hash_name(const char *s)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

uint64_t wfw_inv_hash_num(size_t x)
{
	uint64_t h = (uint64_t)x * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

size_t wfw_inv_index_find(const struct wfw_inv_index *ix, uint64_t hash,
			  bool (*same)(const void *ctx, size_t v), const void *ctx)
{
	size_t i;

	if (!ix->cap)
		return SIZE_MAX;
	for (i = hash & (ix->cap - 1); ix->slot[i].v1; i = (i + 1) & (ix->cap - 1))
		if (ix->slot[i].hash == hash && same(ctx, ix->slot[i].v1 - 1))
			return ix->slot[i].v1 - 1;
	return SIZE_MAX;
}

static void put(struct wfw_inv_slot *slot, size_t cap, uint64_t hash, size_t v1)
{
	size_t i = hash & (cap - 1);

	while (slot[i].v1)
		i = (i + 1) & (cap - 1);
	slot[i] = (struct wfw_inv_slot){ hash, v1 };
}

void wfw_inv_index_add(struct wfw_inv_index *ix, uint64_t hash, size_t v)
{
	if (2 * (ix->n + 1) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 16;
		struct wfw_inv_slot *slot = calloc(cap, sizeof(*slot));

		if (!slot)
			abort();
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slot[i].v1)
				put(slot, cap, ix->slot[i].hash, ix->slot[i].v1);
		free(ix->slot);
		ix->slot = slot;
		ix->cap = cap;
	}
	put(ix->slot, ix->cap, hash, v + 1);
	ix->n++;
}

void wfw_inv_index_free(struct wfw_inv_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->cap = ix->n = 0;
}
