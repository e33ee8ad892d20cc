/* SPDX-License-Identifier: MIT */
/*
 * The names of one text (ENUM) column, numbered in order of first
 * appearance, with an open-addressing hash index. Names are byte strings
 * with their lengths (compared with memcmp, so no byte is special); each is
 * also NUL-terminated for callers that print it.
 */
#ifndef WFW_ENUMTAB_H
#define WFW_ENUMTAB_H

#include <stddef.h>
#include <stdint.h>

struct wfw_enum_tab {
	char **names;
	size_t *lens;
	size_t n, cap;
	uint32_t *slots;	/* index + 1, 0 = free */
	size_t nslots;		/* power of two */
};

/* Index of s[0..n), or -1. */
long wfw_enum_find(const struct wfw_enum_tab *t, const char *s, size_t n);
/* Index of s[0..n), added if new; -ENOMEM. */
long wfw_enum_add(struct wfw_enum_tab *t, const char *s, size_t n);
void wfw_enum_free(struct wfw_enum_tab *t);

#endif
