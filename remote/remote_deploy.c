/* SPDX-License-Identifier: MIT */
/*
 * Setting up a SUT: build the kernel modules for a kernel (the running one
 * by default) and install them under /lib/modules/REL/extra/wultfw, for
 * `wultfw deploy` here or, with -H, on each SUT (remote_passthru.c). It
 * never arranges for them to load at boot. Where something is missing it
 * says exactly what.
 *
 * REL is the kernel release the modules are built for (UTS_RELEASE of the
 * build directory), which is not always what Kbuild's modules_install uses:
 * Debian's header packages say 6.1.0-56-amd64 in utsrelease.h but 6.1.192 in
 * include/config/kernel.release. So the .ko files are installed here, into
 * the directory the kernel that can load them looks in.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deploy.h"
#include "log.h"

/* The modules, one per line of kmod/modules.list (see there). */
struct deploy_kmod {
	const char *name;
	const char *objects;	/* linked with NAME_main.o ("OBJ,OBJ"); "": NAME.c */
	const char *source;	/* the wultfw source that needs it; "": none */
	const char *what;
};

static const struct deploy_kmod kmods[] = {
#include "kmod_table.h"
};
#define N_KMODS (sizeof(kmods) / sizeof(kmods[0]))

struct deploy_args {
	char kdir[PATH_MAX], src[PATH_MAX], root[PATH_MAX];
	char rel[128];			/* the kernel release of kdir */
	bool dry, own_kernel;
};

void wfw_deploy_list_modules(FILE *f)
{
	for (size_t i = 0; i < N_KMODS; i++)
		fprintf(f, "  %-13s %s\n", kmods[i].name, kmods[i].what);
}

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

/* The next object of a module's "OBJ,OBJ" list into obj; false at the end. */
static bool next_object(const char **list, char *obj, size_t len)
{
	size_t n = strcspn(*list, ",");

	if (!n)
		return false;
	snprintf(obj, len, "%.*s", (int)n, *list);
	*list += n + ((*list)[n] == ',');
	return true;
}

/* Is obj one of the objects module m links? */
static bool links(const struct deploy_kmod *m, const char *obj)
{
	const char *p = m->objects;
	char other[64];

	while (next_object(&p, other, sizeof(other)))
		if (!strcmp(other, obj))
			return true;
	return false;
}

/* Does a module before kmods[i] link obj too? */
static bool object_seen(size_t i, const char *obj)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (links(&kmods[j], obj))
			return true;
	return false;
}

/* Where a source tree keeps an object user space shares: ../lib/OBJ. */
static void lib_dir(const char *src, const char *obj, char *dir, size_t len)
{
	snprintf(dir, len, "%s/../lib/%s", src, obj);
}

/*
 * Call fn(src, obj, arg) once for each object that is not next to the
 * module sources (a source tree's kmod/ keeps lib/OBJ apart).
 */
static void each_object_elsewhere(const char *src,
				  void (*fn)(const char *src, const char *obj, void *arg),
				  void *arg)
{
	char obj[64], file[80];
	const char *p;
	size_t i;

	for (i = 0; i < N_KMODS; i++)
		for (p = kmods[i].objects; next_object(&p, obj, sizeof(obj));) {
			snprintf(file, sizeof(file), "%s.c", obj);
			if (!object_seen(i, obj) && !is_file(src, file))
				fn(src, obj, arg);
		}
}

struct cmd_buf {
	char *s;
	size_t size;
	const char *tmp;
};

static void cmd_append(struct cmd_buf *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cmd_append(struct cmd_buf *c, const char *fmt, ...)
{
	size_t n = strlen(c->s);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->s + n, c->size - n, fmt, ap);
	va_end(ap);
}

/* lib/OBJ's .c and .h files go next to the module sources. */
static void copy_object(const char *src, const char *obj, void *arg)
{
	char dir[PATH_MAX], file[80];

	lib_dir(src, obj, dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s.c", obj);
	if (is_file(dir, file))
		cmd_append(arg, " && cp '%s/%s' '%s'/*.h %s/", dir, file, dir,
			   ((struct cmd_buf *)arg)->tmp);
}

static void warn_missing_object(const char *src, const char *obj, void *arg)
{
	char dir[PATH_MAX], file[80];
	size_t i;

	(void)arg;
	lib_dir(src, obj, dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s.c", obj);
	if (is_file(dir, file))
		return;
	for (i = 0; i < N_KMODS; i++)
		if (links(&kmods[i], obj))
			wfw_warn("%s has no %s (nor ../lib/%s/%s): %s.ko will not be built",
				 src, file, obj, file, kmods[i].name);
}

/* "wultfw_hrt (or wultfw_tdt, ...)": the modules a source needs. */
static void load_hint(char *buf, size_t len)
{
	static const char *const sep[] = { "", " (or ", ", " };
	size_t i, k = 0, n = 0;

	buf[0] = '\0';
	for (i = 0; i < N_KMODS && n < len; i++)
		if (kmods[i].source[0])
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      sep[k < 2 ? k++ : 2], kmods[i].name);
	if (k > 1 && n < len)
		snprintf(buf + n, len - n, ")");
}

/* "tdt, i210": the sources that need a module, each once. */
static void module_sources(char *buf, size_t len)
{
	size_t i, j, n = 0;

	buf[0] = '\0';
	for (i = 0; i < N_KMODS && n < len; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(kmods[j].source, kmods[i].source))
				break;
		if (j == i && kmods[i].source[0])
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      kmods[i].source);
	}
}

/* A temporary copy of the sources with everything Kbuild needs next to them. */
static int copy_sources(const char *src, const char *tmp, bool dry)
{
	char cmd[4 * PATH_MAX], shared[PATH_MAX];
	struct cmd_buf c = { cmd, sizeof(cmd), tmp };

	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. %s", src, tmp);
	each_object_elsewhere(src, copy_object, &c);
	/* ... and the headers shared with user space in ../include. */
	snprintf(shared, sizeof(shared), "%s/../include", src);
	if (!is_file(src, "wultfw/ldist.h") && is_file(shared, "wultfw/ldist.h"))
		cmd_append(&c, " && mkdir -p %s/wultfw %s/uapi && cp '%s/wultfw/ldist.h' %s/wultfw/ && cp -r '%s/uapi/wultfw' %s/uapi/",
			   tmp, tmp, shared, tmp, shared, tmp);
	return shell_step(cmd, dry);
}

/* Kbuild skips a module whose files are missing: say which ones it did. */
static void warn_unbuilt(const char *tmp)
{
	char ko[80];
	size_t i;

	for (i = 0; i < N_KMODS; i++) {
		snprintf(ko, sizeof(ko), "%s.ko", kmods[i].name);
		if (!is_file(tmp, ko))
			wfw_warn("%s was not built (the build output above says why)", ko);
	}
}

/* make, install the .ko files into ROOT/lib/modules/REL/extra/wultfw, depmod. */
static int build_steps(const struct deploy_args *a, const char *tmp)
{
	char cmd[4 * PATH_MAX], dest[PATH_MAX];
	int ret;

	snprintf(cmd, sizeof(cmd), "make -C '%s' M=%s modules", a->kdir, tmp);
	ret = shell_step(cmd, a->dry);
	if (ret)
		return ret;
	if (!a->dry)
		warn_unbuilt(tmp);
	snprintf(dest, sizeof(dest), "%s/lib/modules/%s/extra/wultfw", a->root, a->rel);
	snprintf(cmd, sizeof(cmd), "install -d '%s' && install -m 0644 %s/*.ko '%s'/",
		 dest, tmp, dest);
	ret = shell_step(cmd, a->dry);
	if (ret)
		return ret;
	if (a->root[0])
		snprintf(cmd, sizeof(cmd), "depmod -b '%s' %s", a->root, a->rel);
	else
		snprintf(cmd, sizeof(cmd), "depmod %s", a->rel);
	return shell_step(cmd, a->dry);
}

/* Build in a temporary copy; install into root/lib/modules/rel/extra/wultfw. */
static int build_and_install(const struct deploy_args *a)
{
	char tmp[] = "/tmp/wultfw-deploy-XXXXXX";
	char cmd[PATH_MAX];
	int ret;

	if (!mkdtemp(tmp)) {
		wfw_err("cannot create a build directory in /tmp: %s", strerror(errno));
		return -1;
	}
	ret = copy_sources(a->src, tmp, a->dry);
	if (!ret)
		ret = build_steps(a, tmp);
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

static int no_modules_here(const char *release)
{
	char sources[256];

	module_sources(sources, sizeof(sources));
	wfw_err("kernel %s was built without loadable module support (no /proc/modules): the kernel-module sources (%s) cannot run here; the eBPF source 'hrt' needs no module. To build for another kernel, pass its --kdir",
		release, sources);
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
	if (!is_dir(a->src) || access(a->src, R_OK) || !is_file(a->src, "Kbuild") ||
	    !is_file(a->src, "modules.list")) {
		wfw_err("no module sources in %s (Kbuild, modules.list): install wultfw ('make install') or pass --src DIR (kmod/ of a source tree)",
			a->src);
		return -1;
	}
	each_object_elsewhere(a->src, warn_missing_object, NULL);
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

static int set_paths(struct deploy_args *a, const struct wfw_deploy *d)
{
	snprintf(a->kdir, sizeof(a->kdir), "%s", d->kdir ? d->kdir : "");
	snprintf(a->src, sizeof(a->src), "%s", d->src);
	snprintf(a->root, sizeof(a->root), "%s", d->root ? d->root : "");
	a->dry = d->dry;
	if (!shell_safe(a->kdir) || !shell_safe(a->src) || !shell_safe(a->root)) {
		wfw_err("paths with a single quote (') are not supported");
		return -1;
	}
	return 0;
}

int wfw_deploy(const struct wfw_deploy *d)
{
	struct deploy_args a = { 0 };
	char hint[256];

	if (set_paths(&a, d) || check_kdir(&a) || check_src_and_dest(&a))
		return 1;
	printf("Building the wultfw modules for kernel %s%s with %s\n", a.rel,
	       a.own_kernel ? " (running)" : "", a.kdir);
	if (build_and_install(&a))
		return 1;
	if (a.dry)
		printf("Dry run: nothing changed.\n");
	else
		printf("Modules installed in %s/lib/modules/%s/extra/wultfw.\n", a.root, a.rel);
	load_hint(hint, sizeof(hint));
	printf("Load them when you measure%s: modprobe %s; nothing loads them at boot.\n",
	       a.own_kernel ? "" : " on that kernel", hint);
	return 0;
}
