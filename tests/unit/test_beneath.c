/* SPDX-License-Identifier: MIT */
/*
 * Files opened only below a root (lib/sysstate/beneath.c): the spelling,
 * then ".." and symbolic links that leave it, FIFOs and directories,
 * through openat2 and through the realpath() fallback alike.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sysstate/beneath.h>

#include "testutil.h"

static char *top;	/* holds root/ and outside files */
static char root[1024];

static int setup(void)
{
	char p[1200];

	top = tu_tmpdir();
	if (!top)
		return 1;
	snprintf(root, sizeof(root), "%s/root", top);
	snprintf(p, sizeof(p), "%s/sub", root);
	if (mkdir(root, 0755) || mkdir(p, 0755))
		return 1;
	free(tu_write(root, "sub/knob", "0"));
	free(tu_write(top, "victim", "safe"));
	/* links: one staying inside, and each way out */
	snprintf(p, sizeof(p), "%s/in", root);
	if (symlink("sub/knob", p))
		return 1;
	snprintf(p, sizeof(p), "%s/abs", root);
	if (symlink(top, p))	/* absolute, to a directory outside */
		return 1;
	snprintf(p, sizeof(p), "%s/sub/up", root);
	if (symlink("../..", p))	/* relative, climbing out */
		return 1;
	snprintf(p, sizeof(p), "%s/last", root);
	if (symlink("../victim", p))	/* the last component, out */
		return 1;
	snprintf(p, sizeof(p), "%s/fifo", root);
	return mkfifo(p, 0600);
}

static int teardown(void)
{
	tu_rmtree(top);
	free(top);
	return 0;
}

/* The spelling alone: below, not below, the root itself. */
static void test_rel(void)
{
	CU_ASSERT_STRING_EQUAL(wfw_beneath_rel("/sys", "/sys/a/b"), "a/b");
	CU_ASSERT_STRING_EQUAL(wfw_beneath_rel("/sys/", "/sys//a"), "a");
	CU_ASSERT_STRING_EQUAL(wfw_beneath_rel("/", "/etc/x"), "etc/x");
	CU_ASSERT_STRING_EQUAL(wfw_beneath_rel("fake", "fake/x"), "x");
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("/sys", "/sysx/a"));
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("/sys", "/tmp/victim"));
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("/sys", "/sys"));
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("/sys", "/sys/"));
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("/sys", "sys/a"));
	CU_ASSERT_PTR_NULL(wfw_beneath_rel("", "/a"));
}

/* fd's file is root/sub/knob? */
static int is_knob(int fd)
{
	char p[1200];
	struct stat a, b;

	snprintf(p, sizeof(p), "%s/sub/knob", root);
	return fd >= 0 && !fstat(fd, &a) && !stat(p, &b) && a.st_ino == b.st_ino;
}

static void check(int (*open_fn)(const char *, const char *, int))
{
	char p[1200];
	int fd;

	snprintf(p, sizeof(p), "%s/sub/knob", root);
	fd = open_fn(root, p, O_WRONLY);
	CU_ASSERT(is_knob(fd));
	close(fd);
	snprintf(p, sizeof(p), "%s/in", root);	/* a link staying inside */
	fd = open_fn(root, p, O_PATH);
	CU_ASSERT(is_knob(fd));
	close(fd);
	snprintf(p, sizeof(p), "%s/victim", top);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	CU_ASSERT_EQUAL(open_fn(root, "/tmp/victim", O_WRONLY), -EXDEV);
	snprintf(p, sizeof(p), "%s/../victim", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	snprintf(p, sizeof(p), "%s/sub/../../victim", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	snprintf(p, sizeof(p), "%s/abs/victim", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	snprintf(p, sizeof(p), "%s/sub/up/victim", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	snprintf(p, sizeof(p), "%s/last", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -EXDEV);
	CU_ASSERT_EQUAL(open_fn(root, p, O_PATH), -EXDEV);
	/* Not regular files: never blocks on the FIFO. */
	snprintf(p, sizeof(p), "%s/fifo", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_PATH), -EINVAL);
	fd = open_fn(root, p, O_WRONLY);
	CU_ASSERT(fd == -EINVAL || fd == -ENXIO);	/* ENXIO: no reader */
	snprintf(p, sizeof(p), "%s/sub", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_PATH), -EINVAL);
	snprintf(p, sizeof(p), "%s/sub/none", root);
	CU_ASSERT_EQUAL(open_fn(root, p, O_WRONLY), -ENOENT);
}

static void test_beneath(void)
{
	char p[1200], *v;

	check(wfw_open_beneath);
	/* Nothing outside was written by any of it. */
	snprintf(p, sizeof(p), "%s/victim", top);
	v = tu_read(p);
	CU_ASSERT_STRING_EQUAL(v, "safe");
	free(v);
}

static void test_compat(void)
{
	check(wfw_open_beneath_compat);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("beneath", setup, teardown);
	CU_add_test(s, "a path's spelling below a root", test_rel);
	CU_add_test(s, "opened only below the root (openat2)", test_beneath);
	CU_add_test(s, "opened only below the root (realpath)", test_compat);
	return tu_run();
}
