/* SPDX-License-Identifier: MIT */
/*
 * The names of one text (ENUM) column, numbered in order of first
 * appearance, with an open-addressing hash index. Names are byte strings
 * with their lengths (compared as bytes, so no byte is special); each is
 * also NUL-terminated for callers that print it.
 *
 * The index keys a name by its first 16 bytes as two little-endian words
 * (zero-padded) and its length, so the CSV reader's fast path looks up a
 * short field with two loads and no byte loop (wfw_enum_find_words()).
 */
#ifndef WFW_ENUMTAB_H
#define WFW_ENUMTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct wfw_enum_tab {
	char **names;
	size_t *lens;
	uint64_t (*words)[2];	/* first 16 bytes of each name, zero-padded */
	size_t n, cap;
	uint32_t *slots;	/* index + 1, 0 = free */
	size_t nslots;		/* power of two */
};

/* Index of s[0..n), or -1. */
long wfw_enum_find(const struct wfw_enum_tab *t, const char *s, size_t n);
/* Index of s[0..n), added if new; -ENOMEM. */
long wfw_enum_add(struct wfw_enum_tab *t, const char *s, size_t n);
void wfw_enum_free(struct wfw_enum_tab *t);

/* The hash of a name whose first 16 bytes are w0, w1 (more bytes: h). */
static inline uint32_t wfw_enum_mix(uint64_t w0, uint64_t w1, size_t n,
				    uint64_t h)
{
	h ^= (w0 * 0x9e3779b97f4a7c15ULL) ^ (w1 * 0xc2b2ae3d27d4eb4fULL) ^ n;
	h ^= h >> 31;
	h *= 0xff51afd7ed558ccdULL;
	return (uint32_t)(h >> 32);
}

/* Index of the name of n <= 16 bytes held in w0, w1 (zero-padded), or -1. */
static inline long wfw_enum_find_words(const struct wfw_enum_tab *t,
				       uint64_t w0, uint64_t w1, size_t n)
{
	size_t mask = t->nslots - 1;

	if (!t->nslots)
		return -1;
	for (size_t i = wfw_enum_mix(w0, w1, n, 0) & mask;; i = (i + 1) & mask) {
		uint32_t v = t->slots[i];

		if (!v)
			return -1;
		if (t->words[v - 1][0] == w0 && t->words[v - 1][1] == w1 &&
		    t->lens[v - 1] == n)
			return (long)v - 1;
	}
}

#endif
