/* SPDX-License-Identifier: MIT */
/* wultfw restore: put back the settings a killed wultfw left changed. */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "restore.h"
#include "restore_file.h"

static void usage(void)
{
	printf("Usage: wultfw restore [-n] [--state-dir DIR]\n\n"
	       "Put back the system settings a wultfw that was killed (kill -9, OOM,\n"
	       "a crash, a power cut before the next boot) left changed: cpuidle\n"
	       "C-state disable flags, the cpuidle governor, and what plugins change\n"
	       "(the i210 source's NIC driver binding, the ndl source's qdiscs; those\n"
	       "are put back by loading that plugin). Every run writes what it will\n"
	       "put back to a state file before changing anything and removes it\n"
	       "after restoring; this command, 'wultfw scan' and every new run find\n"
	       "the files of runs that no longer run, say what they left changed, and\n"
	       "restore it. Runs still going are listed and left alone. What cannot\n"
	       "be put back stays in its file, alone, for another try.\n\n"
	       "  -n, --dry-run      only say what killed runs left changed\n"
	       "  --state-dir DIR    where the state files are (default: $WULTFW_STATE_DIR,\n"
	       "                     else " WFW_RESTORE_DEFAULT_DIR ")\n\n"
	       "Exit status: 0 when nothing was left or everything was put back,\n"
	       "1 when a setting could not be put back (the state file is kept),\n"
	       "2 on bad usage.\n");
}

int wfw_cmd_restore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool dry = false;
	int c, found;

	while ((c = getopt_long(argc, argv, "nh", longopts, NULL)) != -1) {
		if (c == 'n') {
			dry = true;
		} else if (c == 'd') {
			setenv("WULTFW_STATE_DIR", optarg, 1);
		} else if (c == 'h') {
			usage();
			return 0;
		} else {
			fprintf(stderr, "Try 'wultfw restore --help'.\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wultfw restore: unexpected argument '%s'\nTry 'wultfw restore --help'.\n",
			argv[optind]);
		return 2;
	}
	found = wfw_restore_leftovers("restore", !dry);
	if (found < 0)
		return 1;
	if (!found)
		printf("nothing to restore: no state file of a killed wultfw in %s\n",
		       wfw_restore_dir());
	else if (dry)
		printf("%d killed run%s left settings changed: 'wultfw restore' puts them back\n",
		       found, found == 1 ? "" : "s");
	return 0;
}
