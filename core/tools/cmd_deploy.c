/* SPDX-License-Identifier: MIT */
/*
 * wultfw deploy: build the kernel modules for a kernel (the running one by
 * default) and install them under /lib/modules/REL/extra/wultfw. It never
 * arranges for them to load at boot. Where something is missing it says
 * exactly what.
 *
 * REL is the kernel release the modules are built for (UTS_RELEASE of the
 * build directory), which is not always what Kbuild's modules_install uses:
 * Debian's header packages say 6.1.0-56-amd64 in utsrelease.h but 6.1.192 in
 * include/config/kernel.release. So the .ko files are installed here, into
 * the directory the kernel that can load them looks in.
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

/* wultfw_i210.c compiles this register code; a source tree keeps it apart. */
static const char *const deploy_i210_files[] = { "i210.c", "i210.h", "i210_regs.h" };
#define DEPLOY_N_I210 (sizeof(deploy_i210_files) / sizeof(deploy_i210_files[0]))

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Paths go into shell commands in single quotes. */
static bool shell_safe(const char *s)
{
	return !strchr(s, '\'');
}

/* Run a shell command, echoing it; returns its exit status. */
static int shell_step(const char *cmd, bool dry)
{
	int st;

	printf("+ %s\n", cmd);
	fflush(stdout);
	if (dry)
		return 0;
	st = system(cmd);
	return st == -1 ? -1 : WEXITSTATUS(st);
}

/* UTS_RELEASE of a kernel build directory: what the modules' vermagic says. */
static int kdir_release(const char *kdir, char *rel, size_t len)
{
	char path[PATH_MAX], line[256];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/include/generated/utsrelease.h", kdir);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *q = strstr(line, "UTS_RELEASE \"");
		char *end;

		if (!q)
			continue;
		q += strlen("UTS_RELEASE \"");
		end = strchr(q, '"');
		if (!end || end == q || (size_t)(end - q) >= len)
			break;
		*end = '\0';
		snprintf(rel, len, "%s", q);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static void usage(void)
{
	printf("Usage: wultfw deploy [--kdir DIR] [--src DIR] [--destdir DIR] [--dry-run]\n\n"
	       "Build the wultfw kernel modules for the running kernel (or the kernel of\n"
	       "--kdir) and install them in /lib/modules/REL/extra/wultfw, then run depmod.\n"
	       "The modules are not loaded, now or at boot: load them with 'modprobe\n"
	       "wultfw_hrt' (or wultfw_tdt, wultfw_i210) when you measure.\n\n"
	       "  --kdir DIR     kernel build directory (default /lib/modules/$(uname -r)/build)\n"
	       "  --src DIR      module sources (default %s;\n"
	       "                 kmod/ of a source tree works too)\n"
	       "  --destdir DIR  install under DIR instead of / (packaging, tests)\n"
	       "  --dry-run      check and print the commands, change nothing\n"
	       "  -H HOST[,HOST...]  deploy on these SUTs over ssh, their own kernels\n"
	       "                 (with -U, -K, --ssh-config, --sut-wultfw as for 'wultfw -H')\n",
	       KMODSRCDIR);
}

/* Build in a temporary copy; install into root/lib/modules/rel/extra/wultfw. */
static int build_and_install(const char *src, const char *kdir, const char *rel,
			     const char *root, bool dry)
{
	char tmp[] = "/tmp/wultfw-deploy-XXXXXX";
	char cmd[4 * PATH_MAX], dest[PATH_MAX], shared[PATH_MAX];
	size_t i;
	int ret;

	if (!mkdtemp(tmp)) {
		wfw_err("cannot create a build directory in /tmp: %s", strerror(errno));
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. %s", src, tmp);
	/* A source tree's kmod/ has the i210 register code in ../lib/i210. */
	snprintf(shared, sizeof(shared), "%s/../lib/i210", src);
	if (!is_file(src, "i210.c") && is_file(shared, "i210.c")) {
		for (i = 0; i < DEPLOY_N_I210; i++) {
			size_t n = strlen(cmd);

			snprintf(cmd + n, sizeof(cmd) - n, " && cp '%s/%s' %s/",
				 shared, deploy_i210_files[i], tmp);
		}
	}
	/* ... and the headers shared with user space in ../include. */
	snprintf(shared, sizeof(shared), "%s/../include", src);
	if (!is_file(src, "wultfw/ldist.h") && is_file(shared, "wultfw/ldist.h")) {
		size_t n = strlen(cmd);

		snprintf(cmd + n, sizeof(cmd) - n,
			 " && mkdir -p %s/wultfw %s/uapi && cp '%s/wultfw/ldist.h' %s/wultfw/ && cp -r '%s/uapi/wultfw' %s/uapi/",
			 tmp, tmp, shared, tmp, shared, tmp);
	}
	ret = shell_step(cmd, dry);
	if (!ret) {
		snprintf(cmd, sizeof(cmd), "make -C '%s' M=%s modules", kdir, tmp);
		ret = shell_step(cmd, dry);
	}
	snprintf(dest, sizeof(dest), "%s/lib/modules/%s/extra/wultfw", root, rel);
	if (!ret) {
		snprintf(cmd, sizeof(cmd), "install -d '%s' && install -m 0644 %s/*.ko '%s'/",
			 dest, tmp, dest);
		ret = shell_step(cmd, dry);
	}
	if (!ret) {
		if (root[0])
			snprintf(cmd, sizeof(cmd), "depmod -b '%s' %s", root, rel);
		else
			snprintf(cmd, sizeof(cmd), "depmod %s", rel);
		ret = shell_step(cmd, dry);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd)) {
		/* leaving a temporary directory behind is harmless */
	}
	if (ret) {
		wfw_err("building or installing the modules failed (exit status %d); the output above says why",
			ret);
		return -1;
	}
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr, "Try 'wultfw deploy --help'.\n");
	return 2;
}

struct deploy_args {
	char kdir[PATH_MAX], src[PATH_MAX], root[PATH_MAX];
	char rel[128];			/* the kernel release of kdir */
	bool dry, own_kernel;
};

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct deploy_args *a)
{
	static const struct option longopts[] = {
		{ "kdir", required_argument, NULL, 'k' },
		{ "src", required_argument, NULL, 's' },
		{ "destdir", required_argument, NULL, 'd' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'k')
			snprintf(a->kdir, sizeof(a->kdir), "%s", optarg);
		else if (c == 's')
			snprintf(a->src, sizeof(a->src), "%s", optarg);
		else if (c == 'd')
			snprintf(a->root, sizeof(a->root), "%s", optarg);
		else if (c == 'n')
			a->dry = true;
		else if (c == 'h')
			break;
		else
			return bad_usage();
	}
	if (c == 'h') {
		usage();
		return 0;
	}
	if (optind < argc) {
		wfw_err("deploy takes no arguments ('%s'); see 'wultfw deploy --help'", argv[optind]);
		return 2;
	}
	return -1;
}

static int no_modules_here(const char *release)
{
	wfw_err("kernel %s was built without loadable module support (no /proc/modules): the kernel-module sources (tdt, i210) cannot run here; the eBPF source 'hrt' needs no module. To build for another kernel, pass its --kdir",
		release);
	return -1;
}

/* The kernel build directory and its release; 0 or an error printed. */
static int check_kdir(struct deploy_args *a)
{
	struct utsname u;
	int err;

	uname(&u);
	if (!a->kdir[0]) {
		/* For the running kernel, the first question is whether it can load any. */
		if (access("/proc/modules", F_OK))
			return no_modules_here(u.release);
		snprintf(a->kdir, sizeof(a->kdir), "/lib/modules/%s/build", u.release);
	}
	if (!is_dir(a->kdir)) {
		wfw_err("no kernel build directory %s: install the headers of kernel %s (Debian: apt-get install linux-headers-%s) or pass --kdir",
			a->kdir, u.release, u.release);
		return -1;
	}
	err = kdir_release(a->kdir, a->rel, sizeof(a->rel));
	if (err) {
		wfw_err("%s/include/generated/utsrelease.h: %s: not a configured kernel build directory (install the kernel's headers package, or run 'make modules_prepare' in its source tree)",
			a->kdir, err == -ENOENT ? "no UTS_RELEASE in it" : strerror(-err));
		return -1;
	}
	a->own_kernel = !strcmp(a->rel, u.release);
	if (a->own_kernel && access("/proc/modules", F_OK))
		return no_modules_here(u.release);
	return 0;
}

/* The module sources, and where they go; 0 or an error printed. */
static int check_src_and_dest(const struct deploy_args *a)
{
	char shared[PATH_MAX];

	if (!is_dir(a->src) || access(a->src, R_OK) || !is_file(a->src, "Kbuild") ||
	    !is_file(a->src, "wultfw_main.c")) {
		wfw_err("no module sources in %s (Kbuild, wultfw_main.c): install wultfw ('make install') or pass --src DIR (kmod/ of a source tree)",
			a->src);
		return -1;
	}
	snprintf(shared, sizeof(shared), "%s/../lib/i210", a->src);
	if (!is_file(a->src, "i210.c") && !is_file(shared, "i210.c"))
		wfw_warn("%s has no i210.c (nor ../lib/i210/i210.c): wultfw_i210.ko will not be built",
			 a->src);
	if (!a->dry && !a->root[0] && geteuid() != 0) {
		wfw_err("installing modules needs root: run 'sudo wultfw deploy' (or --dry-run to check, or --destdir DIR to stage them)");
		return -1;
	}
	if (!a->dry && a->root[0] && !is_dir(a->root)) {
		wfw_err("--destdir %s: no such directory", a->root);
		return -1;
	}
	return 0;
}

int wfw_cmd_deploy(int argc, char **argv)
{
	struct deploy_args a = { .kdir = "", .src = KMODSRCDIR, .root = "" };
	int ret = parse_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	if (!shell_safe(a.kdir) || !shell_safe(a.src) || !shell_safe(a.root)) {
		wfw_err("paths with a single quote (') are not supported");
		return 1;
	}
	if (check_kdir(&a) || check_src_and_dest(&a))
		return 1;
	printf("Building the wultfw modules for kernel %s%s with %s\n", a.rel,
	       a.own_kernel ? " (running)" : "", a.kdir);
	if (build_and_install(a.src, a.kdir, a.rel, a.root, a.dry))
		return 1;
	if (a.dry)
		printf("Dry run: nothing changed.\n");
	else
		printf("Modules installed in %s/lib/modules/%s/extra/wultfw.\n", a.root, a.rel);
	printf("Load them when you measure%s: modprobe wultfw_hrt (wultfw_tdt, wultfw_i210); nothing loads them at boot.\n",
	       a.own_kernel ? "" : " on that kernel");
	return 0;
}
