/* SPDX-License-Identifier: MIT */
/* "did you mean": the closest of a list of names to a misspelt one. */
#ifndef WFW_SUGGEST_H
#define WFW_SUGGEST_H

#include <getopt.h>
#include <stddef.h>

/* Closest candidate within a small edit distance, or NULL. */
const char *wfw_suggest(const char *word, const char *const *candidates,
			size_t n);

/*
 * After getopt_long() (with opterr = 0) returned '?' or ':': one line on
 * stderr, "wultfw CMD: unknown option '--formt' (did you mean '--format'?):
 * 'wultfw CMD --help' lists the options" (CMD "" for wultfw itself).
 */
void wfw_suggest_bad_option(const char *cmd, const char *shortopts,
			    const struct option *longopts, char **argv);

#endif
