/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "attrib_map.h"

static size_t hash(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

static size_t probe(const struct attrib_map *m, uint64_t key)
{
	size_t h = hash(key, m->cap);

	while (m->at[h] && m->ent[m->at[h] - 1].key != key)
		h = (h + 1) & (m->cap - 1);
	return h;
}

/* Twice the slots, every entry placed again. */
static int rehash(struct attrib_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	size_t *at = calloc(cap, sizeof(*at));

	if (!at)
		return -1;
	free(m->at);
	m->at = at;
	m->cap = cap;
	for (size_t i = 0; i < m->n; i++) {
		size_t h = probe(m, m->ent[i].key);

		m->at[h] = i + 1;
		m->ent[i].slot = h;
	}
	return 0;
}

struct attrib_map_ent *attrib_map_find(const struct attrib_map *m, uint64_t key)
{
	size_t h;

	if (!m->cap)
		return NULL;
	h = probe(m, key);
	return m->at[h] ? &m->ent[m->at[h] - 1] : NULL;
}

struct attrib_map_ent *attrib_map_get(struct attrib_map *m, uint64_t key)
{
	struct attrib_map_ent *e = attrib_map_find(m, key);
	size_t h;

	if (e)
		return e;
	/* At most half full, so probes stay short. */
	if ((m->n + 1) * 2 > m->cap && rehash(m))
		return NULL;
	if (m->n == m->ncap) {
		size_t ncap = m->ncap ? m->ncap * 2 : 32;
		struct attrib_map_ent *ent = realloc(m->ent, ncap * sizeof(*ent));

		if (!ent)
			return NULL;
		m->ent = ent;
		m->ncap = ncap;
	}
	h = probe(m, key);
	e = &m->ent[m->n++];
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->slot = h;
	m->at[h] = m->n;
	return e;
}

void attrib_map_clear(struct attrib_map *m)
{
	for (size_t i = 0; i < m->n; i++)
		m->at[m->ent[i].slot] = 0;
	m->n = 0;
}

void attrib_map_fini(struct attrib_map *m)
{
	free(m->ent);
	free(m->at);
	memset(m, 0, sizeof(*m));
}
