/* SPDX-License-Identifier: MIT */
/* Durations, "did you mean", CPU lists. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cpus.h"
#include <suggest/suggest.h>
#include "testutil.h"
#include "units.h"

static void test_duration_units(void)
{
	uint64_t ns = 0;

	CU_ASSERT_EQUAL(wfw_parse_duration("10us", &ns), 0);
	CU_ASSERT_EQUAL(ns, 10000);
	CU_ASSERT_EQUAL(wfw_parse_duration("4ms", &ns), 0);
	CU_ASSERT_EQUAL(ns, 4000000);
	CU_ASSERT_EQUAL(wfw_parse_duration("1.5s", &ns), 0);
	CU_ASSERT_EQUAL(ns, 1500000000ULL);
	CU_ASSERT_EQUAL(wfw_parse_duration("10m", &ns), 0);
	CU_ASSERT_EQUAL(ns, 600000000000ULL);
	CU_ASSERT_EQUAL(wfw_parse_duration("2h", &ns), 0);
	CU_ASSERT_EQUAL(ns, 7200000000000ULL);
	CU_ASSERT_EQUAL(wfw_parse_duration("250ns", &ns), 0);
	CU_ASSERT_EQUAL(ns, 250);
	CU_ASSERT_EQUAL(wfw_parse_duration(" 0.1 ms ", &ns), 0);
	CU_ASSERT_EQUAL(ns, 100000);
	CU_ASSERT_EQUAL(wfw_parse_duration("0", &ns), 0);
	CU_ASSERT_EQUAL(ns, 0);
}

static void test_duration_bad(void)
{
	uint64_t ns = 77;

	CU_ASSERT_EQUAL(wfw_parse_duration("10", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("00", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("10 parsecs", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("-5us", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("us", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("1.us", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("10msx", &ns), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_duration("1.5ns", &ns), -EDOM);
	CU_ASSERT_EQUAL(wfw_parse_duration("1.0000001us", &ns), -EDOM);
	CU_ASSERT_EQUAL(wfw_parse_duration("99999999999h", &ns), -ERANGE);
	CU_ASSERT_EQUAL(wfw_parse_duration("99999999999999999999ns", &ns), -ERANGE);
	CU_ASSERT_EQUAL(ns, 77);
}

static void test_duration_format_roundtrip(void)
{
	static const uint64_t values[] = { 0, 1, 999, 1000, 1500, 10000, 4000000,
					   1000000000ULL, 60000000000ULL,
					   3600000000000ULL, 123456789ULL };
	char buf[32];
	uint64_t back;
	size_t i;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		wfw_format_duration(values[i], buf, sizeof(buf));
		CU_ASSERT_EQUAL(wfw_parse_duration(buf, &back), 0);
		CU_ASSERT_EQUAL(back, values[i]);
	}
	wfw_format_duration(4000000, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "4ms");
	wfw_format_duration(90000000000ULL, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "90s");
}

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

static void test_cpulist(void)
{
	bool online[16];

	CU_ASSERT_EQUAL(wfw_parse_cpulist("0-3,8,10-11\n", online, 16), 7);
	CU_ASSERT(online[0] && online[3] && online[8] && online[11]);
	CU_ASSERT(!online[4] && !online[9] && !online[12]);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("0", online, 16), 1);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("3-1", online, 16), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("0-99", online, 16), -EINVAL);
	CU_ASSERT_EQUAL(wfw_parse_cpulist("a", online, 16), -EINVAL);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return 1;
	s = CU_add_suite("units", NULL, NULL);
	CU_add_test(s, "duration units", test_duration_units);
	CU_add_test(s, "duration errors", test_duration_bad);
	CU_add_test(s, "duration format round trip", test_duration_format_roundtrip);
	CU_add_test(s, "did you mean", test_suggest);
	CU_add_test(s, "-m lists: names and patterns", test_names_select);
	CU_add_test(s, "cpu lists", test_cpulist);
	return tu_run();
}
