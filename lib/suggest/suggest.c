/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <suggest/suggest.h>

#include <ctype.h>
#include <string.h>

#define MAX_WORD 64

/* Levenshtein distance, case-insensitive. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[MAX_WORD + 1];

	if (la > MAX_WORD || lb > MAX_WORD)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
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
