/* SPDX-License-Identifier: MIT */
/* Columns named in a list such as "WakeLatency,CC*%": names and patterns. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

/* Mark the names `item` selects: itself, else those it matches as a glob. */
static size_t mark(const char *item, const char *const *names, size_t n,
		   bool *want)
{
	size_t hits = 0;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(item, names[i])) {
			want[i] = true;
			return 1;	/* a name is itself, even with '*' in it */
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!fnmatch(item, names[i], 0)) {
			want[i] = true;
			hits++;
		}
	}
	return hits;
}

bool wfw_names_is_pattern(const char *item)
{
	return strpbrk(item, "*?[") != NULL;
}

/*
 * For "*Latncy" or "CC7*" (one '*' at an end, nothing else special): the
 * pattern with its literal part mended from the names' ends of about its
 * length ("*Latency"), in buf; else the name nearest the item, or NULL.
 */
static const char *near_item(const char *item, const char *const *names,
			     size_t n, char *buf, size_t len)
{
	size_t il = strlen(item), lit = il - 1, nc = 0;
	bool lead = il > 1 && item[0] == '*', trail = il > 1 && item[il - 1] == '*';
	char ends[3 * n + 1][64], word[64];
	const char *cands[3 * n + 1], *near;

	snprintf(word, sizeof(word), "%.*s", (int)lit, item + lead);
	if (lead == trail || strpbrk(word, "*?[") || lit + 2 > sizeof(word))
		return wfw_suggest(item, names, n);
	for (size_t i = 0; i < n; i++) {
		size_t nl = strlen(names[i]);

		for (size_t k = lit - 1; k <= lit + 1; k++) {
			if (!k || k > nl)
				continue;
			snprintf(ends[nc], sizeof(ends[nc]), "%.*s", (int)k,
				 lead ? names[i] + nl - k : names[i]);
			cands[nc] = ends[nc];
			nc++;
		}
	}
	near = wfw_suggest(word, cands, nc);
	if (!near)
		return NULL;
	snprintf(buf, len, "%s%s%s", lead ? "*" : "", near, trail ? "*" : "");
	return buf;
}

void wfw_names_unmatched(const char *item, const char *const *names, size_t n,
			 char *err, size_t len)
{
	char mended[80];
	const char *near = near_item(item, names, n, mended, sizeof(mended));
	size_t at;

	at = (size_t)snprintf(err, len, wfw_names_is_pattern(item) ?
			      "no column matches '%s'" : "unknown column '%s'", item);
	if (near && at < len)
		at += (size_t)snprintf(err + at, len - at, " (did you mean '%s'?)", near);
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(err + at, len - at, "%s%s",
				       i ? ", " : "; the columns are: ", names[i]);
}

int wfw_names_split(struct wfw_names *l, const char *list)
{
	char *save = NULL, *item;

	free(l->buf);
	l->n = 0;
	l->buf = strdup(list);
	if (!l->buf)
		return -ENOMEM;
	for (item = strtok_r(l->buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (l->n == WFW_NAMES_MAX)
			return -E2BIG;
		l->v[l->n++] = item;
	}
	return 0;
}

void wfw_names_free(struct wfw_names *l)
{
	free(l->buf);
	l->buf = NULL;
	l->n = 0;
}

int wfw_names_select(const char *list, const char *const *names, size_t n,
		     bool *want, char *err, size_t len)
{
	char *copy = strdup(list), *save = NULL, *item;
	int ret = 0;

	if (!copy) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		if (!mark(item, names, n, want)) {
			wfw_names_unmatched(item, names, n, err, len);
			ret = -ENOENT;
		}
	}
	free(copy);
	return ret;
}
