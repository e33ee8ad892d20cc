/* SPDX-License-Identifier: MIT */
/*
 * Column types a one-pass CSV reader learned from the first rows and
 * changed later: kept, and compared in words for convert's message.
 */
#ifndef WFW_TOOLS_RETYPE_H
#define WFW_TOOLS_RETYPE_H

#include <stddef.h>

#include <wultfw/plugin.h>

/* The columns' types as they are now (names not kept); NULL: no memory. */
struct wultfw_column *wfw_retype_keep(const struct wultfw_schema *s);
/*
 * "A: integers, then numbers; B: ..." for every column whose type differs
 * from `first`'s (NULL: none known), or "".
 */
void wfw_retype_words(const struct wultfw_column *first,
		      const struct wultfw_schema *s, char *buf, size_t len);

#endif
