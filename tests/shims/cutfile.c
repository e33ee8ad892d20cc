/* SPDX-License-Identifier: MIT */
/*
 * Test shim, LD_PRELOADed by tests/integration/test_cutfile.sh and never
 * installed: cuts a file shorter at a chosen point of the process that
 * reads it, as another process would, but at a known moment (no timing):
 *
 *   WULTFW_CUTFILE=PATH      the file to cut (unset: the shim does nothing)
 *   WULTFW_CUTFILE_SIZE=N    the length it is cut to (default 0)
 *   WULTFW_CUTFILE_ON=mmap:K just after the K-th mmap() of PATH returns
 *                   write:K  just before the K-th write() of 64 KiB or more
 *                            (an output buffer's flush, not a header)
 *
 * It cuts once. mmap() and write() are interposed; the C library's own
 * calls (malloc's maps) do not come here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BIG_WRITE	(64u << 10)

static int cut_done;
static unsigned long seen_maps, seen_writes;

/* "mmap:K" or "write:K": is this (kind, count) the moment? */
static int now(const char *kind, unsigned long count)
{
	const char *on = getenv("WULTFW_CUTFILE_ON");
	size_t n = strlen(kind);

	if (!on || strncmp(on, kind, n) || on[n] != ':')
		return 0;
	return strtoul(on + n + 1, NULL, 10) == count;
}

static void cut(void)
{
	const char *path = getenv("WULTFW_CUTFILE");
	const char *size = getenv("WULTFW_CUTFILE_SIZE");

	if (__atomic_exchange_n(&cut_done, 1, __ATOMIC_SEQ_CST))
		return;
	/* Failing would leave the file whole: the test sees exit 0. */
	if (truncate(path, size ? strtoll(size, NULL, 10) : 0))
		abort();
}

/* Is fd the file WULTFW_CUTFILE names? */
static int is_ours(int fd)
{
	const char *path = getenv("WULTFW_CUTFILE");
	struct stat a, b;

	return path && !fstat(fd, &a) && !stat(path, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	void *m;

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))
			dlsym(RTLD_NEXT, "mmap");
	m = real(addr, len, prot, flags, fd, off);
	if (m != MAP_FAILED && fd >= 0 && is_ours(fd) &&
	    now("mmap", __atomic_add_fetch(&seen_maps, 1, __ATOMIC_SEQ_CST)))
		cut();
	return m;
}

ssize_t write(int fd, const void *p, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (n >= BIG_WRITE && getenv("WULTFW_CUTFILE") &&
	    now("write", __atomic_add_fetch(&seen_writes, 1, __ATOMIC_SEQ_CST)))
		cut();
	return real(fd, p, n);
}
