/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <suggest/suggest.h>

#include <ctype.h>
#include <string.h>

#define MAX_WORD 64

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/*
 * Edit distance, case-insensitive, a swap of two neighbours counting as
 * one edit ("medain" is one from "median", two from "mean").
 */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t rows[3][MAX_WORD + 1];

	if (la > MAX_WORD || lb > MAX_WORD)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = up[j - 1] + !same(a[i - 1], b[j - 1]);

			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

const char *wfw_suggest(const char *word, const char *const *candidates,
			size_t n)
{
	size_t len = strlen(word), limit = len < 6 ? 2 : len / 3 + 1;
	size_t best = (size_t)-1, i;
	const char *pick = NULL;

	for (i = 0; i < n; i++) {
		size_t d = distance(word, candidates[i]);

		if (d < best) {
			best = d;
			pick = candidates[i];
		}
	}
	return best <= limit ? pick : NULL;
}
