/* SPDX-License-Identifier: MIT */
/*
 * The one rule for files root acts on (lib/trust): who may own them, who
 * else may write them, and the relaxations plugin paths take; then the
 * open that refuses a symbolic link and checks what it opened.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trust/trust.h>

#include "testutil.h"

/* A stat of type with mode bits, owner and group. */
static struct stat st_of(mode_t type, mode_t mode, uid_t uid, gid_t gid)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = type | mode;
	st.st_uid = uid;
	st.st_gid = gid;
	return st;
}

static uid_t stranger(void)
{
	return geteuid() == 65534 ? 65533 : 65534;
}

static void test_rule(void)
{
	struct stat st = st_of(S_IFREG, 0644, 0, 0);

	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, 0), WFW_TRUST_OK);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFDIR, 0), WFW_TRUST_BAD_TYPE);
	st = st_of(S_IFREG, 0644, geteuid(), 0);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, 0), WFW_TRUST_OK);
	st = st_of(S_IFREG, 0644, stranger(), 0);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, 0), WFW_TRUST_BAD_OWNER);
	st = st_of(S_IFREG, 0646, 0, 0);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, 0), WFW_TRUST_BAD_WRITERS);
	st = st_of(S_IFREG, 0664, 0, 0);	/* root's group: strict by default */
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, 0), WFW_TRUST_BAD_WRITERS);
	st = st_of(S_IFDIR, 01777, 0, 0);	/* /tmp */
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFDIR, 0), WFW_TRUST_BAD_WRITERS);
}

static void test_relaxed(void)
{
	struct stat st = st_of(S_IFREG, 0664, 0, 0);

	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, WFW_TRUST_ROOT_GROUP),
			WFW_TRUST_OK);
	st = st_of(S_IFREG, 0664, 0, 100);	/* another group */
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, WFW_TRUST_ROOT_GROUP),
			WFW_TRUST_BAD_WRITERS);
	st = st_of(S_IFDIR, 01777, 0, 0);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFDIR, WFW_TRUST_STICKY),
			WFW_TRUST_OK);
	st = st_of(S_IFDIR, 0777, 0, 0);	/* not sticky */
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFDIR, WFW_TRUST_STICKY),
			WFW_TRUST_BAD_WRITERS);
	st = st_of(S_IFREG, 01777, 0, 0);	/* sticky means nothing on a file */
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, WFW_TRUST_STICKY),
			WFW_TRUST_BAD_WRITERS);
	/* Nobody owns this test binary's path, so no stranger gains trust. */
	st = st_of(S_IFREG, 0644, stranger(), 0);
	CU_ASSERT_EQUAL(wfw_trust_check(&st, S_IFREG, WFW_TRUST_BINARY_OWNER),
			WFW_TRUST_BAD_OWNER);
}

static void test_messages(void)
{
	struct stat st = st_of(S_IFREG, 0666, 0, 0);
	char why[128];

	CU_ASSERT_EQUAL(wfw_trust_stat(&st, S_IFREG, why, sizeof(why)), -EPERM);
	TU_ASSERT_CONTAINS(why, "writable by others (mode 0666)");
	st = st_of(S_IFREG, 0644, stranger(), 0);
	CU_ASSERT_EQUAL(wfw_trust_stat(&st, S_IFREG, why, sizeof(why)), -EPERM);
	TU_ASSERT_CONTAINS(why, "owned by uid");
	CU_ASSERT_EQUAL(wfw_trust_stat(&st, S_IFDIR, why, sizeof(why)), -EPERM);
	TU_ASSERT_CONTAINS(why, "not a directory");
}

static void test_open(void)
{
	char *dir = tu_tmpdir(), *file, link[1200], why[128];
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	file = tu_write(dir, "state", "x");
	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	CU_ASSERT_EQUAL(chmod(file, 0644), 0);
	fd = wfw_trust_openat(AT_FDCWD, file, O_RDONLY, 0, S_IFREG, why, sizeof(why));
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	snprintf(link, sizeof(link), "%s/link", dir);
	CU_ASSERT_EQUAL(symlink(file, link), 0);
	fd = wfw_trust_openat(AT_FDCWD, link, O_RDWR, 0, S_IFREG, why, sizeof(why));
	CU_ASSERT_EQUAL(fd, -EPERM);
	TU_ASSERT_CONTAINS(why, "a symbolic link");
	CU_ASSERT_EQUAL(chmod(file, 0666), 0);
	fd = wfw_trust_openat(AT_FDCWD, file, O_RDONLY, 0, S_IFREG, why, sizeof(why));
	CU_ASSERT_EQUAL(fd, -EPERM);
	TU_ASSERT_CONTAINS(why, "writable by others");
	tu_rmtree(dir);
	free(file);
	free(dir);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("trust", NULL, NULL);
	CU_add_test(s, "owned by root or us, written by no one else", test_rule);
	CU_add_test(s, "the plugin path's relaxations", test_relaxed);
	CU_add_test(s, "why a file is refused", test_messages);
	CU_add_test(s, "open: no link, the opened file checked", test_open);
	return tu_run();
}
