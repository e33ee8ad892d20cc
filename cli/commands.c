/* SPDX-License-Identifier: MIT */
/*
 * The one list of sub-commands: main.c dispatches from it and
 * `wultfw help` prints it, so a new command is one line here.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"

const struct wfw_command wfw_commands[] = {
	{ "list-plugins", "", "the sources and sinks there are", wfw_cmd_list_plugins, false },
	{ "help", "PLUGIN", "a plugin's options", wfw_cmd_help, false },
	{ "calc", "RESULT..", "statistics of result directories, CSV or binary files",
	  wfw_cmd_calc, false },
	{ "convert", "FILE", "CSV to binary and back: wultfw convert FILE -o OUT",
	  wfw_cmd_convert, false },
	{ "report", "RESULT..", "an HTML report, several results as a diff:\n"
	  "wultfw report -o DIR RESULT...", wfw_cmd_report, false },
	{ "filter", "RESULT", "the datapoints an expression selects, as a new result:\n"
	  "wultfw filter RESULT -o NEW --include EXPR", wfw_cmd_filter, false },
	{ "scan", "", "which sources can measure on this machine, and why not",
	  wfw_cmd_scan, true },
	{ "restore", "", "put back the settings a killed wultfw left changed",
	  wfw_cmd_restore, false },
	{ "deploy", "", "build and install the kernel modules for this kernel",
	  wfw_cmd_deploy, true },
	{ "fetch", "-H HOST", "copy finished runs' results back from the SUTs",
	  wfw_cmd_fetch, false },
};

const size_t wfw_n_commands = sizeof(wfw_commands) / sizeof(wfw_commands[0]);

const struct wfw_command *wfw_command_find(const char *name)
{
	for (size_t i = 0; i < wfw_n_commands; i++)
		if (!strcmp(wfw_commands[i].name, name))
			return &wfw_commands[i];
	return NULL;
}

/* "  calc RESULT.. statistics ...", continuation lines under the text. */
void wfw_commands_print(FILE *f)
{
	char head[32];

	fprintf(f, "Commands:\n  %-13s %s\n", "(none)",
		"run experiments: wultfw [-c FILE] (wultfw --help)");
	for (size_t i = 0; i < wfw_n_commands; i++) {
		const struct wfw_command *c = &wfw_commands[i];
		const char *s = c->summary, *nl;

		snprintf(head, sizeof(head), "%s%s%s", c->name, *c->args ? " " : "",
			 c->args);
		fprintf(f, "  %-13s ", head);
		while ((nl = strchr(s, '\n'))) {
			fprintf(f, "%.*s\n%16s", (int)(nl - s), s, "");
			s = nl + 1;
		}
		fprintf(f, "%s\n", s);
	}
}
