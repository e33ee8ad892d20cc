/* SPDX-License-Identifier: MIT */
/* wultfw restore: put back the settings a killed wultfw left changed. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cliopts.h"
#include "commands.h"
#include "restore.h"
#include "restore_file.h"

struct restore_args {
	bool dry;
	const char *state_dir;
	const char *sysfs_root;
};

static const struct wfw_cli_opt restore_opts[] = {
	{ "dry-run", 'n', WFW_CLI_FLAG, NULL, "only say what killed runs left changed",
	  .off = offsetof(struct restore_args, dry) },
	{ "state-dir", 0, WFW_CLI_STRING, "DIR", "where the state files are; by default $WULTFW_STATE_DIR, else " WFW_RESTORE_DEFAULT_DIR,
	  .off = offsetof(struct restore_args, state_dir) },
	{ "sysfs-root", 0, WFW_CLI_STRING, "DIR", "a directory standing for /sys (tests): the only place files are written back",
	  .off = offsetof(struct restore_args, sysfs_root), .hidden = true },
	WFW_CLI_END
};

static const struct wfw_cli restore_cli = {
	.name = "restore",
	.usage = "Usage: wultfw restore [-n] [--state-dir DIR]\n\n"
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
		 "State files are trusted only when they and their directory belong to\n"
		 "root (or you), nobody else can write them and neither is a symbolic\n"
		 "link; a file that would write anything outside /sys is refused, and\n"
		 "so is its every change: check it and remove it.\n",
	.epilog = "Exit status: 0 when nothing was left or everything was put back,\n"
		  "1 when a setting could not be put back (the state file is kept),\n"
		  "2 on bad usage.\n",
	.opts = restore_opts,
};

int wfw_cmd_restore(int argc, char **argv)
{
	struct restore_args a = { 0 };
	enum wfw_cli_next next = wfw_cli_parse(&restore_cli, &a, argc, argv);
	int found;

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	next = wfw_cli_check_sysfs_root(&restore_cli, a.sysfs_root);
	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	if (a.state_dir)
		setenv("WULTFW_STATE_DIR", a.state_dir, 1);
	found = wfw_restore_leftovers("restore", a.sysfs_root, !a.dry);
	if (found < 0)
		return 1;
	if (!found)
		printf("nothing to restore: no state file of a killed wultfw in %s\n",
		       wfw_restore_dir());
	else if (a.dry)
		printf("%d killed run%s left settings changed: 'wultfw restore' puts them back\n",
		       found, found == 1 ? "" : "s");
	return 0;
}
