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

static void unknown_command(const char *name)
{
	const char *names[wfw_n_commands];
	const char *near;

	for (size_t i = 0; i < wfw_n_commands; i++)
		names[i] = wfw_commands[i].name;
	near = wfw_suggest(name, names, wfw_n_commands);
	if (near)
		wfw_err("unknown command '%s' (did you mean '%s'? 'wultfw help' lists the commands)",
			name, near);
	else
		wfw_err("unknown command '%s' ('wultfw help' lists the commands, 'wultfw --help' the options)",
			name);
}

int main(int argc, char **argv)
{
	/* No sub-command: run experiments, on SUTs through its own -H. */
	static const struct wfw_command run = { "", "", "", wfw_cmd_run, false };
	const struct wfw_command *cmd = &run;
	int ret, sub = 0;

	LTDL_SET_PRELOADED_SYMBOLS();
	if (argc > 1 && argv[1][0] != '-') {
		cmd = wfw_command_find(argv[1]);
		if (!cmd) {
			unknown_command(argv[1]);
			return 2;
		}
		sub = 1;
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
