/* SPDX-License-Identifier: MIT */
/* "did you mean": the closest of a list of names to a misspelt one. */
#ifndef WFW_SUGGEST_H
#define WFW_SUGGEST_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

/* Closest candidate within a small edit distance, or NULL. */
const char *wfw_suggest(const char *word, const char *const *candidates,
			size_t n);

/*
 * The columns a list such as "WakeLatency,CC*%" names, for every tool's
 * -m/--metrics: each comma-separated item is a column's name or an
 * fnmatch(3) pattern. Marks want[i] (n entries, not cleared) for every
 * names[i] an item selects. 0, or -ENOENT with "unknown column 'X' (did
 * you mean 'Y'?); the columns are: ..." in err for the first item that
 * selects none (-ENOMEM: out of memory).
 */
int wfw_names_select(const char *list, const char *const *names, size_t n,
		     bool *want, char *err, size_t len);
/* That message, for one item (a name or a pattern) that selects none. */
void wfw_names_unmatched(const char *item, const char *const *names, size_t n,
			 char *err, size_t len);
/* Has the item fnmatch(3)'s '*', '?' or '['? */
bool wfw_names_is_pattern(const char *item);

/* A comma-separated list of names (-m, --reportids, ...), split. */
#define WFW_NAMES_MAX 64
struct wfw_names {
	char *buf;			/* the list's copy the names point into */
	const char *v[WFW_NAMES_MAX];
	size_t n;
};
/*
 * Split `list` into *l, replacing what it held (empty items are skipped).
 * 0; -E2BIG for more than WFW_NAMES_MAX names; -ENOMEM. wfw_names_free()
 * frees the copy.
 */
int wfw_names_split(struct wfw_names *l, const char *list);
void wfw_names_free(struct wfw_names *l);

/*
 * After getopt_long() (with opterr = 0) returned '?' or ':': one line on
 * stderr, "wultfw CMD: unknown option '--formt' (did you mean '--format'?):
 * 'wultfw CMD --help' lists the options" (CMD "" for wultfw itself).
 */
void wfw_suggest_bad_option(const char *cmd, const char *shortopts,
			    const struct option *longopts, char **argv);

#endif
