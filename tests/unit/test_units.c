/* SPDX-License-Identifier: MIT */
/* Units: durations ("10us") and wult's metric units. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "testutil.h"
#include "units/duration.h"
#include "units/wultunits.h"

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

/* The file's unit first, then the known one. */
static void test_metric_units(void)
{
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("LTime", NULL), "ns");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("TBI", ""), "ns");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("TAI", ""), "ns");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("TIntr", ""), "ns");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("AIOverhead", ""), "us");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("TotCyc", ""), "cycles");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("CC6Cyc", ""), "cycles");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("CC6%", ""), "%");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("LTime", "s"), "s");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("Cyc", ""), "");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("SMICnt", ""), "");
	CU_ASSERT_STRING_EQUAL(wfw_wult_unit("WakeLatency"), "us");
	/* skid's, as its schema (and so the stats sink) says */
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("Skid", ""), "instructions");
	CU_ASSERT_STRING_EQUAL(wfw_metric_unit("SkidBytes", ""), "bytes");
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
	CU_add_test(s, "metric units", test_metric_units);
	return tu_run();
}
