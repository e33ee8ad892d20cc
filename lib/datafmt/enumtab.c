/* SPDX-License-Identifier: MIT */
/* Names of a text column (see enumtab.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/enumtab.h"
#include "datafmt/le.h"

/* The first 16 bytes of s[0..n) as two zero-padded little-endian words. */
static void words_of(const char *s, size_t n, uint64_t w[2])
{
	unsigned char b[16] = { 0 };

	memcpy(b, s, n < 16 ? n : 16);
	w[0] = wfw_get64(b);
	w[1] = wfw_get64(b + 8);
}

/* wfw_enum_mix() of the first 16 bytes, the rest folded in first. */
static uint32_t hash_name(const char *s, size_t n, const uint64_t w[2])
{
	uint64_t h = 0;

	for (size_t i = 16; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return wfw_enum_mix(w[0], w[1], n, h);
}

long wfw_enum_find(const struct wfw_enum_tab *t, const char *s, size_t n)
{
	size_t mask = t->nslots - 1;
	uint64_t w[2];

	if (!t->nslots)
		return -1;
	words_of(s, n, w);
	for (size_t i = hash_name(s, n, w) & mask;; i = (i + 1) & mask) {
		uint32_t v = t->slots[i];

		if (!v)
			return -1;
		if (t->lens[v - 1] == n && t->words[v - 1][0] == w[0] &&
		    t->words[v - 1][1] == w[1] &&
		    (n <= 16 || !memcmp(t->names[v - 1] + 16, s + 16, n - 16)))
			return (long)v - 1;
	}
}

static void place(uint32_t *slots, size_t nslots, uint32_t h, uint32_t v)
{
	size_t i = h & (nslots - 1);

	while (slots[i])
		i = (i + 1) & (nslots - 1);
	slots[i] = v;
}

static int rehash(struct wfw_enum_tab *t, size_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t k = 0; k < t->n; k++)
		place(slots, nslots, hash_name(t->names[k], t->lens[k], t->words[k]),
		      (uint32_t)k + 1);
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

static int grow(struct wfw_enum_tab *t)
{
	size_t cap = t->cap ? 2 * t->cap : 8;
	uint64_t (*words)[2];
	char **names;
	size_t *lens;

	if (cap > UINT32_MAX / 2)
		return -ENOMEM;
	names = realloc(t->names, cap * sizeof(*names));
	if (!names)
		return -ENOMEM;
	t->names = names;
	lens = realloc(t->lens, cap * sizeof(*lens));
	if (!lens)
		return -ENOMEM;
	t->lens = lens;
	words = realloc(t->words, cap * sizeof(*words));
	if (!words)
		return -ENOMEM;
	t->words = words;
	t->cap = cap;
	return 0;
}

long wfw_enum_add(struct wfw_enum_tab *t, const char *s, size_t n)
{
	long i = wfw_enum_find(t, s, n);
	char *copy;

	if (i >= 0)
		return i;
	if (t->n == t->cap && grow(t))
		return -ENOMEM;
	copy = malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, n);
	copy[n] = '\0';
	t->names[t->n] = copy;
	t->lens[t->n] = n;
	words_of(s, n, t->words[t->n]);
	t->n++;
	if (2 * t->n > t->nslots)	/* keep the table at most half full */
		return rehash(t, t->nslots ? 2 * t->nslots : 16) ? -ENOMEM : (long)t->n - 1;
	place(t->slots, t->nslots, hash_name(s, n, t->words[t->n - 1]),
	      (uint32_t)t->n);
	return (long)t->n - 1;
}

void wfw_enum_free(struct wfw_enum_tab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->lens);
	free(t->words);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
