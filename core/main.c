/* SPDX-License-Identifier: MIT */
/* wultfw: dispatch to a sub-command, or run experiments. */
#include "config.h"

#include <ltdl.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "plugins.h"
#include <suggest/suggest.h>
#include "remote/remote.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "list-plugins", wfw_cmd_list_plugins },
	{ "help", wfw_cmd_help },
	{ "calc", wfw_cmd_calc },
	{ "convert", wfw_cmd_convert },
	{ "filter", wfw_cmd_filter },
	{ "report", wfw_cmd_report },
	{ "scan", wfw_cmd_scan },
	{ "deploy", wfw_cmd_deploy },
	{ "fetch", wfw_cmd_fetch },
	{ "restore", wfw_cmd_restore },
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
	int (*fn)(int, char **) = wfw_cmd_run;
	int ret, sub = 0;
	size_t i;

	LTDL_SET_PRELOADED_SYMBOLS();
	if (argc > 1 && argv[1][0] != '-') {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			if (!strcmp(argv[1], commands[i].name)) {
				fn = commands[i].fn;
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
	if ((fn == wfw_cmd_scan || fn == wfw_cmd_deploy) &&
	    wfw_wants_remote(argc - sub, argv + sub))
		ret = wfw_remote_passthru(argv[1], argc - sub, argv + sub);
	else
		ret = fn(argc - sub, argv + sub);
	wfw_plugins_exit();
	return ret;
}
