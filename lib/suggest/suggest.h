/* SPDX-License-Identifier: MIT */
/* "did you mean": the closest of a list of names to a misspelt one. */
#ifndef WFW_SUGGEST_H
#define WFW_SUGGEST_H

#include <stddef.h>

/* Closest candidate within a small edit distance, or NULL. */
const char *wfw_suggest(const char *word, const char *const *candidates,
			size_t n);

#endif
