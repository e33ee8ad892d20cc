/* SPDX-License-Identifier: MIT */
/*
 * A command's options as a declared table (clitable.h) read from argv:
 * every value checked with one error format, a did-you-mean for a
 * mistyped option, and --help printed from the same table (clihelp.h), so
 * the two cannot drift apart.
 */
#ifndef WFW_CLIOPTS_H
#define WFW_CLIOPTS_H

#include "clihelp.h"
#include "clitable.h"

/*
 * Defaults, then argv[1..] into args. WFW_CLI_NEXT with optind at the first
 * operand; else the option loop's end, said in one line on stderr (or the
 * help on stdout).
 */
enum wfw_cli_next wfw_cli_parse(const struct wfw_cli *cli, void *args,
				 int argc, char **argv);
/* The exit status for what wfw_cli_parse() said: 0, 2 or 1. */
int wfw_cli_status(enum wfw_cli_next next);
/* "wultfw NAME: MESSAGE" on stderr; returns WFW_CLI_USAGE. */
enum wfw_cli_next wfw_cli_error(const struct wfw_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A hidden --sysfs-root DIR (tests: a fake /sys) must name a directory:
 * WFW_CLI_NEXT, or the error said (WFW_CLI_USAGE). NULL is fine.
 */
enum wfw_cli_next wfw_cli_check_sysfs_root(const struct wfw_cli *cli,
					   const char *dir);
/* The default of -j: the online CPUs, 1 to WFW_CLI_JOBS_MAX. */
unsigned wfw_cli_online_cpus(void);

#endif
