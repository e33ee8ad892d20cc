/* SPDX-License-Identifier: MIT */
/*
 * Sub-commands of the wultfw binary. Each takes the arguments after its
 * name (argv[0] is the sub-command name), prints its own --help, and
 * returns the process exit status.
 */
#ifndef WFW_COMMANDS_H
#define WFW_COMMANDS_H

int wfw_cmd_run(int argc, char **argv);		/* wultfw -c FILE (default) */
int wfw_cmd_list_plugins(int argc, char **argv);	/* wultfw list-plugins */
int wfw_cmd_help(int argc, char **argv);		/* wultfw help PLUGIN */
int wfw_cmd_calc(int argc, char **argv);		/* wultfw calc RESULT... */
int wfw_cmd_convert(int argc, char **argv);	/* wultfw convert FILE -o OUT */
int wfw_cmd_filter(int argc, char **argv);	/* wultfw filter RESULT -o NEW */
int wfw_cmd_report(int argc, char **argv);	/* wultfw report RESULT... */
int wfw_cmd_scan(int argc, char **argv);		/* wultfw scan */
int wfw_cmd_deploy(int argc, char **argv);	/* wultfw deploy */
int wfw_cmd_fetch(int argc, char **argv);		/* wultfw fetch -H HOST */
int wfw_cmd_restore(int argc, char **argv);	/* wultfw restore */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A sub-command (commands.c holds the one list). */
struct wfw_command {
	const char *name;
	const char *args;	/* what follows the name in `wultfw help` */
	const char *summary;	/* one line ('\n' continues it, indented) */
	int (*fn)(int argc, char **argv);
	bool on_suts;		/* -H HOST runs it on SUTs (remote_passthru.c) */
};

extern const struct wfw_command wfw_commands[];
extern const size_t wfw_n_commands;

/* The command called name, or NULL. */
const struct wfw_command *wfw_command_find(const char *name);

/* The "Commands:" list of `wultfw help`. */
void wfw_commands_print(FILE *f);

/* One source probed as `scan` does: "yes: ..." or "no: why" (cmd_scan.c). */
int wfw_scan_probe(const char *name, char *line, size_t len);

#endif
