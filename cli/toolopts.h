/* SPDX-License-Identifier: MIT */
/*
 * The command line of the offline commands (calc, convert, filter, report):
 * one option loop with --help and the usage on a bad option, and the
 * check of their operands, so each command only says what its options do.
 */
#ifndef WFW_TOOLOPTS_H
#define WFW_TOOLOPTS_H

#include <getopt.h>
#include <stdio.h>

/* What an option callback returns to stop with status 0 (e.g. a listing). */
#define WFW_TOOL_DONE	(-1)
/* What wfw_tool_parse() returns when the command goes on. */
#define WFW_TOOL_GO	(-1)

struct wfw_tool {
	const char *name;		/* "convert": messages say "wultfw convert: " */
	const char *shortopts;		/* getopt's, 'h' included */
	const struct option *longopts;	/* "help" -> 'h' included */
	void (*usage)(FILE *f);
	/*
	 * One option (never 'h' or '?'): 0 to go on, WFW_TOOL_DONE, or an
	 * exit status (1, 2) after saying why.
	 */
	int (*option)(void *ctx, int opt, const char *arg);
	void *ctx;
};

/*
 * Run the option loop over argv. Returns WFW_TOOL_GO with optind at the
 * first operand, or the exit status: 0 after --help, 2 after a bad option
 * (the usage on stderr), or what the callback returned.
 */
int wfw_tool_parse(const struct wfw_tool *t, int argc, char **argv);

/*
 * After the options: one operand or more (`what`, e.g. "RESULT").
 * WFW_TOOL_GO, or 2 with "no RESULT given" and the usage on stderr.
 */
int wfw_tool_inputs(const struct wfw_tool *t, int argc, const char *what);

/*
 * After the options: exactly one operand (`what`, e.g. "input FILE") and
 * an output (`out`, else "no output given: add HINT"). WFW_TOOL_GO, or 2
 * with the reason and the usage on stderr.
 */
int wfw_tool_one_input(const struct wfw_tool *t, int argc, char **argv,
		       const char *what, const char *out, const char *hint);

/*
 * --to FORMAT of convert and filter: WFW_FMT_CSV for "csv", WFW_FMT_BINARY
 * for "binary" (enum wfw_file_format, datafmt/reader.h), else 0 after
 * "wultfw NAME: --to FORMAT: use csv or binary (did you mean ...?)".
 */
int wfw_tool_format(const struct wfw_tool *t, const char *to);

#endif
