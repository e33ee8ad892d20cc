/* SPDX-License-Identifier: MIT */
/* The remote options' values that need more than a table (remoteopts.h). */
#include "config.h"

#include "remoteopts.h"

#include <stdio.h>

enum wfw_cli_next wfw_cli_hosts(void *ro, const char *list)
{
	return wfw_remote_getopt(ro, 'H', list) < 0 ? WFW_CLI_USAGE : WFW_CLI_NEXT;
}

enum wfw_cli_next wfw_cli_inventory(void *ro, const char *path)
{
	return wfw_remote_getopt(ro, 'i', path) < 0 ? WFW_CLI_USAGE : WFW_CLI_NEXT;
}

enum wfw_cli_next wfw_cli_complete_hosts(void *unused, const char *none)
{
	(void)unused;
	(void)none;
	wfw_hosts_print_inventory();
	return WFW_CLI_DONE;
}

enum wfw_cli_next wfw_cli_sut_dir(void *ro, const char *dir)
{
	return wfw_remote_getopt(ro, WFW_OPT_SUT_DIR, dir) < 0 ?
	       WFW_CLI_USAGE : WFW_CLI_NEXT;
}

enum wfw_cli_next wfw_cli_on_suts(void *unused, const char *value)
{
	(void)unused;
	fprintf(stderr, "wultfw: an abbreviated --host or --inventory ('%s'): write -H/--host and -i/--inventory in full to run on the SUTs\n",
		value);
	return WFW_CLI_USAGE;
}
