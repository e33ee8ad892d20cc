/* SPDX-License-Identifier: MIT */
/* wultfw: dispatch to a sub-command, or run experiments. */
#include "config.h"

#include <ltdl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "plugins.h"
#include <suggest/suggest.h>
#include "remote/remote.h"

/*
 * Every sub-command: its name, its entry point, and whether `-H HOST`
 * runs it on SUTs instead (remote/remote_passthru.c). The experiment run
 * itself (no sub-command) reaches SUTs through its own -H (cmd_run.c).
 */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool on_suts;
} commands[] = {
	{ "list-plugins", wfw_cmd_list_plugins, false },
	{ "help", wfw_cmd_help, false },
	{ "calc", wfw_cmd_calc, false },
	{ "convert", wfw_cmd_convert, false },
	{ "filter", wfw_cmd_filter, false },
	{ "report", wfw_cmd_report, false },
	{ "scan", wfw_cmd_scan, true },
	{ "deploy", wfw_cmd_deploy, true },
	{ "fetch", wfw_cmd_fetch, false },
	{ "restore", wfw_cmd_restore, false },
};

static void unknown_command(const char *name)
{
	const char *names[sizeof(commands) / sizeof(commands[0])];
	const char *near;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	near = wfw_suggest(name, names, sizeof(names) / sizeof(names[0]));
	if (near)
		wfw_err("unknown command '%s' (did you mean '%s'? 'wultfw help' lists the commands)",
			name, near);
	else
		wfw_err("unknown command '%s' ('wultfw help' lists the commands, 'wultfw --help' the options)",
			name);
}

int main(int argc, char **argv)
{
	static const struct command run = { NULL, wfw_cmd_run, false };
	const struct command *cmd = &run;
	int ret, sub = 0;
	size_t i;

	LTDL_SET_PRELOADED_SYMBOLS();
	if (argc > 1 && argv[1][0] != '-') {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			if (!strcmp(argv[1], commands[i].name)) {
				cmd = &commands[i];
				sub = 1;
				break;
			}
		}
		if (!sub) {
			unknown_command(argv[1]);
			return 2;
		}
	}
	if (wfw_plugins_init()) {
		wfw_err("cannot initialise libltdl");
		return 1;
	}
	if (cmd->on_suts && wfw_wants_remote(argc - sub, argv + sub))
		ret = wfw_remote_passthru(cmd->name, argc - sub, argv + sub);
	else
		ret = cmd->fn(argc - sub, argv + sub);
	wfw_plugins_exit();
	return ret;
}
