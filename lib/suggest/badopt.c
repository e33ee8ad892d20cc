/* SPDX-License-Identifier: MIT */
/* What getopt_long() refused, in one line with a did-you-mean. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <suggest/suggest.h>

/* The long option's name closest to `name` (n bytes), or NULL. */
static const char *near_long(const struct option *o, const char *name, size_t n)
{
	const char *names[64];
	char word[64];
	size_t k = 0;

	for (; o && o->name && k < 64; o++)
		names[k++] = o->name;
	snprintf(word, sizeof(word), "%.*s", (int)n, name);
	return wfw_suggest(word, names, k);
}

void wfw_suggest_bad_option(const char *cmd, const char *shortopts,
			    const struct option *longopts, char **argv)
{
	const char *arg = argv[optind - 1];
	const char *sp = *cmd ? " " : "";

	if (!strncmp(arg, "--", 2) && !optopt) {
		size_t n = strcspn(arg + 2, "=");
		const char *near = near_long(longopts, arg + 2, n);

		fprintf(stderr, "wultfw%s%s: unknown option '--%.*s'%s%s%s", sp, cmd, (int)n,
			arg + 2, near ? " (did you mean '--" : "", near ? near : "",
			near ? "'?)" : "");
	} else if (!strncmp(arg, "--", 2)) {
		fprintf(stderr, "wultfw%s%s: option '%s' needs a value", sp, cmd, arg);
	} else if (optopt && strchr(shortopts, optopt)) {
		fprintf(stderr, "wultfw%s%s: option '-%c' needs a value", sp, cmd, optopt);
	} else {
		fprintf(stderr, "wultfw%s%s: unknown option '-%c'", sp, cmd, optopt ? optopt : '?');
	}
	fprintf(stderr, ": 'wultfw%s%s --help' lists the options\n", sp, cmd);
}
