/* SPDX-License-Identifier: MIT */
/*
 * wultfw deploy: build and install the kernel modules for a kernel (the
 * running one by default); remote/remote_deploy.c does it.
 */
#include "config.h"

#include <stdio.h>

#include "cliopts.h"
#include "commands.h"
#include "remote/deploy.h"
#include "remoteopts.h"

#ifndef KMODSRCDIR
#define KMODSRCDIR "/usr/local/share/wultfw/kmod"
#endif

#define AT(field) .off = offsetof(struct wfw_deploy, field)
static const struct wfw_cli_opt deploy_opts[] = {
	{ "kdir", 0, WFW_CLI_STRING, "DIR", "kernel build directory; by default /lib/modules/$(uname -r)/build",
	  AT(kdir) },
	{ "src", 0, WFW_CLI_STRING, "DIR", "module sources; kmod/ of a source tree works too",
	  .def = KMODSRCDIR, AT(src) },
	{ "destdir", 0, WFW_CLI_STRING, "DIR", "install under DIR instead of / (packaging, tests)",
	  AT(root) },
	{ "dry-run", 0, WFW_CLI_FLAG, NULL, "check and print the commands, change nothing", AT(dry) },
	WFW_CLI_ON_SUTS("deploy on these SUTs over ssh, their own kernels"),
	WFW_CLI_END
};

static void list_modules(FILE *f)
{
	fprintf(f, "\nThe modules (kmod/modules.list):\n");
	wfw_deploy_list_modules(f);
}

static const struct wfw_cli deploy_cli = {
	.name = "deploy",
	.usage = "Usage: wultfw deploy [--kdir DIR] [--src DIR] [--destdir DIR] [--dry-run]\n\n"
		 "Build the wultfw kernel modules for the running kernel (or the kernel\n"
		 "of --kdir) and install them in /lib/modules/REL/extra/wultfw, then run\n"
		 "depmod.\n"
		 "The modules are not loaded, now or at boot: load the one your source\n"
		 "needs with modprobe when you measure (modprobe loads the framework too).\n",
	.more = list_modules,
	.opts = deploy_opts,
};

int wfw_cmd_deploy(int argc, char **argv)
{
	struct wfw_deploy d = { 0 };
	enum wfw_cli_next next = wfw_cli_parse(&deploy_cli, &d, argc, argv);

	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	return wfw_deploy(&d);
}
