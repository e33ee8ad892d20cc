/* SPDX-License-Identifier: MIT */
/*
 * A growing key -> {ns, comm} table in insertion order, emptied in time
 * proportional to what it holds: an interval's sums per contributor, and
 * the threads a CausePID named.
 */
#ifndef ATTRIB_MAP_H
#define ATTRIB_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "attrib_event.h"

struct attrib_map_ent {
	uint64_t key;
	uint64_t ns;
	char comm[ATTRIB_COMM_LEN];
	size_t slot;		/* where the hash table points at it */
};

struct attrib_map {
	struct attrib_map_ent *ent;	/* dense, in insertion order */
	size_t n, ncap;
	size_t *at;			/* hash slot -> index + 1; 0: empty */
	size_t cap;			/* slots, a power of two */
};

/* The entry of key, added (ns 0, comm empty) if new; NULL when out of memory. */
struct attrib_map_ent *attrib_map_get(struct attrib_map *m, uint64_t key);
/* The entry of key or NULL. */
struct attrib_map_ent *attrib_map_find(const struct attrib_map *m, uint64_t key);
/* Empty it, keeping its memory. */
void attrib_map_clear(struct attrib_map *m);
void attrib_map_fini(struct attrib_map *m);

#endif
