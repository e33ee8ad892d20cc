/* SPDX-License-Identifier: MIT */
/*
 * wultfw deploy: build the kernel modules for the running kernel and
 * install them under /lib/modules/VER/extra/wultfw. It never arranges for
 * them to load at boot. Where something is missing it says exactly what.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"

#ifndef KMODSRCDIR
#define KMODSRCDIR "/usr/local/share/wultfw/kmod"
#endif

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Run a shell command, echoing it; returns its exit status. */
static int run(const char *cmd, bool dry)
{
	int st;

	printf("+ %s\n", cmd);
	fflush(stdout);
	if (dry)
		return 0;
	st = system(cmd);
	return st == -1 ? -1 : WEXITSTATUS(st);
}

static void usage(void)
{
	printf("Usage: wultfw deploy [--kdir DIR] [--src DIR] [--dry-run]\n\n"
	       "Build the wultfw kernel modules for the running kernel and install them\n"
	       "in /lib/modules/$(uname -r)/extra/wultfw, then run depmod. The modules are\n"
	       "not loaded, now or at boot: load them with 'modprobe wultfw_hrt' (or\n"
	       "wultfw_tdt) when you measure.\n\n"
	       "  --kdir DIR   kernel build directory (default /lib/modules/VER/build)\n"
	       "  --src DIR    module sources (default %s)\n"
	       "  --dry-run    check and print the commands, change nothing\n", KMODSRCDIR);
}

int wfw_cmd_deploy(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "kdir", required_argument, NULL, 'k' },
		{ "src", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char kdir[PATH_MAX] = "", src[PATH_MAX] = KMODSRCDIR, cmd[3 * PATH_MAX];
	char tmp[] = "/tmp/wultfw-deploy-XXXXXX";
	struct utsname u;
	bool dry = false;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			snprintf(kdir, sizeof(kdir), "%s", optarg);
			break;
		case 's':
			snprintf(src, sizeof(src), "%s", optarg);
			break;
		case 'n':
			dry = true;
			break;
		case 'h':
			usage();
			return 0;
		default:
			fprintf(stderr, "Try 'wultfw deploy --help'.\n");
			return 2;
		}
	}
	uname(&u);
	if (access("/proc/modules", F_OK)) {
		wfw_err("kernel %s was built without loadable module support (no /proc/modules): the kernel-module sources (tdt) cannot run here; the eBPF source 'hrt' needs no module",
			u.release);
		return 1;
	}
	if (!kdir[0])
		snprintf(kdir, sizeof(kdir), "/lib/modules/%s/build", u.release);
	if (!is_dir(kdir)) {
		wfw_err("no kernel build directory %s: install the headers of kernel %s (Debian: apt-get install linux-headers-%s) or pass --kdir",
			kdir, u.release, u.release);
		return 1;
	}
	if (access(src, R_OK) || !is_dir(src)) {
		wfw_err("no module sources in %s: install wultfw ('make install') or pass --src DIR (kmod/ of a source tree)",
			src);
		return 1;
	}
	if (!dry && geteuid() != 0) {
		wfw_err("installing modules needs root: run 'sudo wultfw deploy' (or --dry-run to check)");
		return 1;
	}
	if (!mkdtemp(tmp)) {
		wfw_err("cannot create a build directory in /tmp: %s", strerror(errno));
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. %s && make -C '%s' M=%s modules", src, tmp, kdir, tmp);
	ret = run(cmd, dry);
	if (!ret) {
		snprintf(cmd, sizeof(cmd), "make -C '%s' M=%s INSTALL_MOD_DIR=extra/wultfw modules_install && depmod -a %s",
			 kdir, tmp, u.release);
		ret = run(cmd, dry);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd)) {
		/* leaving a temporary directory behind is harmless */
	}
	if (ret) {
		wfw_err("building or installing the modules failed (exit status %d); the output above says why", ret);
		return 1;
	}
	printf("%s. Load them when you measure: modprobe wultfw_hrt wultfw_tdt (nothing loads them at boot).\n",
	       dry ? "Dry run: nothing changed" : "Modules installed");
	return 0;
}
