/* SPDX-License-Identifier: MIT */
/* The offline commands' option loop and operand checks (toolopts.h). */
#include "config.h"

#include "toolopts.h"

int wfw_tool_parse(const struct wfw_tool *t, int argc, char **argv)
{
	int opt, ret = 0;

	optind = 0;	/* glibc: full reset, main() may have used getopt */
	while (!ret && (opt = getopt_long(argc, argv, t->shortopts, t->longopts, NULL)) != -1) {
		if (opt == 'h') {
			t->usage(stdout);
			return 0;
		}
		if (opt == '?' || opt == ':') {
			t->usage(stderr);
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
