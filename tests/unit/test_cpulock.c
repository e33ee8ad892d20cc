/* SPDX-License-Identifier: MIT */
/* One lock per measured CPU, naming who holds it. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpulock.h"
#include "testutil.h"

static void test_take_busy_release(void)
{
	char *dir = tu_tmpdir();
	pid_t other = -1;
	int a, b, c;

	setenv("WULTFW_STATE_DIR", dir, 1);
	a = wfw_cpulock_take(3, &other);
	CU_ASSERT_FATAL(a >= 0);
	CU_ASSERT_EQUAL(other, 0);
	/* A second taker (another open file: as another process) is told who. */
	b = wfw_cpulock_take(3, &other);
	CU_ASSERT_EQUAL(b, -EBUSY);
	CU_ASSERT_EQUAL(other, getpid());
	/* Another CPU is free. */
	c = wfw_cpulock_take(4, &other);
	CU_ASSERT(c >= 0);
	wfw_cpulock_release(c);
	wfw_cpulock_release(a);
	b = wfw_cpulock_take(3, &other);
	CU_ASSERT(b >= 0);
	wfw_cpulock_release(b);
	unsetenv("WULTFW_STATE_DIR");
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("cpulock", NULL, NULL);
	CU_add_test(s, "take, busy, release", test_take_busy_release);
	return tu_run();
}
