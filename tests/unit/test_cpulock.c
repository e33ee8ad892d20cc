/* SPDX-License-Identifier: MIT */
/*
 * One lock per measured CPU, naming who holds it; a lock file someone
 * else planted is refused untouched.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpulock.h"
#include "testutil.h"

static void test_take_busy_release(void)
{
	char *dir = tu_tmpdir();
	pid_t other = -1;
	char err[512];
	int a, b, c;

	setenv("WULTFW_STATE_DIR", dir, 1);
	a = wfw_cpulock_take(3, &other, err, sizeof(err));
	CU_ASSERT_FATAL(a >= 0);
	CU_ASSERT_EQUAL(other, 0);
	/* A second taker (another open file: as another process) is told who. */
	b = wfw_cpulock_take(3, &other, err, sizeof(err));
	CU_ASSERT_EQUAL(b, -EBUSY);
	CU_ASSERT_EQUAL(other, getpid());
	/* Another CPU is free. */
	c = wfw_cpulock_take(4, &other, err, sizeof(err));
	CU_ASSERT(c >= 0);
	wfw_cpulock_release(c);
	wfw_cpulock_release(a);
	b = wfw_cpulock_take(3, &other, err, sizeof(err));
	CU_ASSERT(b >= 0);
	wfw_cpulock_release(b);
	unsetenv("WULTFW_STATE_DIR");
	tu_rmtree(dir);
	free(dir);
}

/* A refused lock: -EPERM saying `says`, the victim as it was. */
static void refused(const char *victim, const char *says)
{
	char err[512], *v;
	pid_t other;

	CU_ASSERT_EQUAL(wfw_cpulock_take(5, &other, err, sizeof(err)), -EPERM);
	TU_ASSERT_CONTAINS(err, "cpu5.lock: ");
	TU_ASSERT_CONTAINS(err, says);
	v = tu_read(victim);
	CU_ASSERT_STRING_EQUAL(v, "precious\n");
	free(v);
}

static void test_planted(void)
{
	char *dir = tu_tmpdir(), *o = tu_tmpdir(), *victim, lock[1200], err[512];
	pid_t other;
	int fd;

	CU_ASSERT_FATAL(dir && o);
	victim = tu_write(o, "victim", "precious\n");
	setenv("WULTFW_STATE_DIR", dir, 1);
	snprintf(lock, sizeof(lock), "%s/cpu5.lock", dir);
	CU_ASSERT_EQUAL(symlink(victim, lock), 0);
	refused(victim, "a symbolic link: refused");
	unlink(lock);
	CU_ASSERT_EQUAL(link(victim, lock), 0);
	refused(victim, "hard links");
	unlink(lock);
	free(tu_write(dir, "cpu5.lock", "precious\n"));
	chmod(lock, 0666);
	refused(lock, "writable by others (mode 0666)");
	chmod(lock, 0644);
	fd = wfw_cpulock_take(5, &other, err, sizeof(err));
	CU_ASSERT(fd >= 0);
	wfw_cpulock_release(fd);
	/* The directory writable by others. */
	chmod(dir, 0757);
	CU_ASSERT_EQUAL(wfw_cpulock_take(5, &other, err, sizeof(err)), -EPERM);
	TU_ASSERT_CONTAINS(err, "state directory");
	chmod(dir, 0700);
	unsetenv("WULTFW_STATE_DIR");
	tu_rmtree(dir);
	tu_rmtree(o);
	free(victim);
	free(dir);
	free(o);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("cpulock", NULL, NULL);
	CU_add_test(s, "take, busy, release", test_take_busy_release);
	CU_add_test(s, "planted lock files refused", test_planted);
	return tu_run();
}
