/* SPDX-License-Identifier: MIT */
/* "Did you mean", and -m lists of names and patterns. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <suggest/suggest.h>
#include "testutil.h"

static void test_suggest(void)
{
	static const char *const keys[] = { "datapoints", "time", "plugin", "ldist" };

	CU_ASSERT_STRING_EQUAL(wfw_suggest("datapoint", keys, 4), "datapoints");
	CU_ASSERT_STRING_EQUAL(wfw_suggest("tiem", keys, 4), "time");
	CU_ASSERT_STRING_EQUAL(wfw_suggest("Plugin", keys, 4), "plugin");
	CU_ASSERT_PTR_NULL(wfw_suggest("outdir", keys, 4));
	/* A swap of neighbours is one edit: nearer than two deletions. */
	static const char *const funcs[] = { "mean", "median", "max" };

	CU_ASSERT_STRING_EQUAL(wfw_suggest("medain", funcs, 3), "median");
	CU_ASSERT_STRING_EQUAL(wfw_suggest("mena", funcs, 3), "mean");
	CU_ASSERT_STRING_EQUAL(wfw_suggest("maen", funcs, 3), "mean");
}

/* -m lists: names and fnmatch(3) patterns, each of which must match. */
static void test_names_select(void)
{
	static const char *const cols[] = { "WakeLatency", "CC0%", "CC1%", "IntrLatency", "CC6%" };
	bool want[5] = { false };
	char err[512];

	CU_ASSERT_EQUAL(wfw_names_select("CC*%", cols, 5, want, err, sizeof(err)), 0);
	CU_ASSERT(!want[0] && want[1] && want[2] && !want[3] && want[4]);
	memset(want, 0, sizeof(want));
	CU_ASSERT_EQUAL(wfw_names_select("IntrLatency,*Latency", cols, 5, want, err, sizeof(err)), 0);
	CU_ASSERT(want[0] && !want[1] && want[3]);
	CU_ASSERT_EQUAL(wfw_names_select("CC1%,Wke*", cols, 5, want, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no column matches 'Wke*' (did you mean 'Wake*'?)"));
	CU_ASSERT_EQUAL(wfw_names_select("IntrLatncy", cols, 5, want, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown column 'IntrLatncy' (did you mean 'IntrLatency'?)"));
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("suggest", NULL, NULL);
	CU_add_test(s, "did you mean", test_suggest);
	CU_add_test(s, "-m lists: names and patterns", test_names_select);
	return tu_run();
}
