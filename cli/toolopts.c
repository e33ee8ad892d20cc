/* SPDX-License-Identifier: MIT */
/* The offline commands' option loop and operand checks (toolopts.h). */
#include "config.h"

#include "toolopts.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <suggest/suggest.h>
#include "datafmt/reader.h"

int wfw_tool_parse(const struct wfw_tool *t, int argc, char **argv)
{
	int opt, ret = 0;

	optind = 0;	/* glibc: full reset, main() may have used getopt */
	opterr = 0;	/* wfw_suggest_bad_option() says it, with a did-you-mean */
	while (!ret && (opt = getopt_long(argc, argv, t->shortopts, t->longopts, NULL)) != -1) {
		if (opt == 'h') {
			t->usage(stdout);
			return 0;
		}
		if (opt == '?' || opt == ':') {
			wfw_suggest_bad_option(t->name, t->shortopts, t->longopts, argv);
			return 2;
		}
		ret = t->option(t->ctx, opt, optarg);
	}
	if (ret == WFW_TOOL_DONE)
		return 0;
	return ret ? ret : WFW_TOOL_GO;
}

int wfw_tool_inputs(const struct wfw_tool *t, int argc, const char *what)
{
	if (optind < argc)
		return WFW_TOOL_GO;
	fprintf(stderr, "wultfw %s: no %s given\n", t->name, what);
	t->usage(stderr);
	return 2;
}

int wfw_tool_one_input(const struct wfw_tool *t, int argc, char **argv,
		       const char *what, const char *out, const char *hint)
{
	(void)argv;
	if (optind == argc - 1 && out)
		return WFW_TOOL_GO;
	if (optind >= argc)
		fprintf(stderr, "wultfw %s: no %s given\n", t->name, what);
	else if (optind < argc - 1)
		fprintf(stderr, "wultfw %s: give exactly one %s\n", t->name, what);
	else
		fprintf(stderr, "wultfw %s: no output given: add %s\n", t->name, hint);
	t->usage(stderr);
	return 2;
}

int wfw_tool_format(const struct wfw_tool *t, const char *to)
{
	static const char *const names[] = { "csv", "binary" };
	const char *near = *to ? wfw_suggest(to, names, 2) : NULL;

	if (!strcmp(to, "csv"))
		return WFW_FMT_CSV;
	if (!strcmp(to, "binary"))
		return WFW_FMT_BINARY;
	/* "bin", "b": the start of a name is what one means by it */
	for (size_t i = 0; i < 2 && !near && *to; i++)
		if (!strncasecmp(to, names[i], strlen(to)))
			near = names[i];
	fprintf(stderr, "wultfw %s: --to %s: use csv or binary%s%s%s\n", t->name,
		to, near ? " (did you mean '" : "", near ? near : "",
		near ? "'?)" : "");
	return 0;
}
