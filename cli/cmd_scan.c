/* SPDX-License-Identifier: MIT */
/*
 * wultfw scan: which sources can measure on this machine, and for each
 * one that cannot, exactly why. Every source answers for itself through
 * its open() probe, with its default options; nothing is measured.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sysstate/cpuidle.h>
#include <pcidisc/pcidisc.h>

#include "commands.h"
#include "remoteopts.h"
#include "restore.h"
#include <sysstate/cpus.h>
#include "log.h"
#include "machine.h"
#include "options.h"
#include "plugins.h"

/* Probe one source; prints one line. Returns 1 when it can run here. */
static int probe(const char *name)
{
	char line[2048];
	int ret = wfw_scan_probe(name, line, sizeof(line));

	if (ret >= 0)
		printf("  %-8s %s\n", name, line);
	return ret;
}

/* C-states: what ReqCState and 'cstates' restrictions can use here. */
static void scan_cpuidle(int cpu, const char *root)
{
	struct wfw_cpuidle ci;
	char why[160];
	int i;

	if (wfw_cpuidle_open(&ci, cpu, root)) {
		wfw_cpuidle_why_none(cpu, root, why, sizeof(why));
		printf("C-states: %s: experiments with 'cstates' cannot run here and results have no ReqCState\n\n",
		       why);
		return;
	}
	printf("C-states of CPU %d:", cpu);
	for (i = 0; i < ci.nstates; i++)
		printf("%s \"%s\"", i ? "," : "", ci.names[i]);
	printf("\n\n");
	wfw_cpuidle_close(&ci);
}

struct scan_args {
	const char *dump;	/* --pci-dump */
	const char *sysfs_root;	/* tests: a fake /sys for C-states and leftovers */
};

static const struct wfw_cli_opt scan_opts[] = {
	{ "pci-dump", 0, WFW_CLI_STRING, "FILE", "read PCI devices from an 'lspci -xxx' dump instead of this machine (NICs only; sources are skipped)",
	  .off = offsetof(struct scan_args, dump) },
	WFW_CLI_ON_SUTS("scan these SUTs over ssh instead"),
	{ "sysfs-root", 0, WFW_CLI_STRING, "DIR", "a directory standing for /sys (tests): C-states and the settings killed runs left",
	  .off = offsetof(struct scan_args, sysfs_root), .hidden = true },
	WFW_CLI_END
};

static const struct wfw_cli scan_cli = {
	.name = "scan",
	.usage = "Usage: wultfw scan [--pci-dump FILE]\n\n"
		 "Ask every source plugin whether it can measure on this machine\n"
		 "(with its default options) and print why not where it cannot;\n"
		 "then list the Intel I210/I211 NICs the NIC methods can use, with\n"
		 "driver, interface and PCIe ASPM state. Nothing is measured and\n"
		 "nothing on the system is changed, except that settings a killed\n"
		 "wultfw left changed are put back first (see 'wultfw restore').\n",
	.opts = scan_opts,
};

int wfw_cmd_scan(int argc, char **argv)
{
	struct scan_args a = { 0 };
	enum wfw_cli_next next = wfw_cli_parse(&scan_cli, &a, argc, argv);
	size_t n, i;
	char **names;
	int usable = 0, ret;

	if (next == WFW_CLI_NEXT)
		next = wfw_cli_check_sysfs_root(&scan_cli, a.sysfs_root);
	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	if (a.dump) {
		ret = wfw_scan_nics(stdout, a.dump);
		return ret < 0 ? 1 : 0;
	}
	/* A killed run's leftovers would make the scan describe its changes. */
	if (wfw_restore_leftovers("scan", a.sysfs_root, true) < 0)
		fprintf(stderr, "wultfw scan: what follows may show settings a killed run changed\n");
	scan_cpuidle(wfw_default_cpu(a.sysfs_root), a.sysfs_root);
	printf("sources on this machine:\n");
	names = wfw_plugin_names(&n);
	for (i = 0; i < n; i++)
		if (probe(names[i]) > 0)
			usable++;
	wfw_plugin_names_free(names, n);
	printf("%d source%s can measure here.\n\n", usable, usable == 1 ? "" : "s");
	ret = wfw_scan_nics(stdout, NULL);
	return ret < 0 ? 1 : 0;
}
