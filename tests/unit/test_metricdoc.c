/* SPDX-License-Identifier: MIT */
/* What a metric is, by the source that measured it. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "datafmt/metricdoc.h"
#include "testutil.h"

static bool says(const char *text, const char *what)
{
	return strstr(text, what) != NULL;
}

/* timer takes TBI/TAI in user space: its texts say so, wult's do not. */
static void test_timer(void)
{
	const char *wult = wfw_metric_descr("WakeLatency", NULL);
	const char *timer = wfw_metric_descr("WakeLatency", "timer");

	CU_ASSERT_STRING_EQUAL(wult, "launch time to the CPU running again after idle");
	CU_ASSERT(says(timer, "clock_nanosleep()"));
	CU_ASSERT(says(timer, "switch back to the thread"));
	CU_ASSERT(says(wfw_metric_descr("SilentTime", "timer"), "upper bound"));
	CU_ASSERT(says(wfw_metric_descr("TBI", "timer"), "user space"));
	CU_ASSERT(says(wfw_metric_descr("TAI", "timer"), "user space"));
	CU_ASSERT(!says(wfw_metric_descr("TBI", NULL), "user space"));
	/* Where timer measures as wult does, wult's text. */
	CU_ASSERT_STRING_EQUAL(wfw_metric_descr("LDist", "timer"),
			       wfw_metric_descr("LDist", NULL));
}

/* hrt in eBPF, tdt and i210 in the kernel module; other sources: wult's. */
static void test_kernel_sources(void)
{
	const char *hrt = wfw_metric_descr("WakeLatency", "hrt");
	const char *tdt = wfw_metric_descr("WakeLatency", "tdt");

	CU_ASSERT(says(hrt, "eBPF"));
	CU_ASSERT(says(tdt, "kernel module"));
	CU_ASSERT_STRING_EQUAL(tdt, wfw_metric_descr("WakeLatency", "i210"));
	CU_ASSERT(says(wfw_metric_descr("IntrLatency", "hrt"), "softirq"));
	CU_ASSERT(strcmp(wfw_metric_descr("LTime", "tdt"),
			 wfw_metric_descr("LTime", "i210")) != 0);
	/* A name that only contains a listed one is not it. */
	CU_ASSERT_STRING_EQUAL(wfw_metric_descr("WakeLatency", "td"),
			       wfw_metric_descr("WakeLatency", NULL));
	CU_ASSERT_STRING_EQUAL(wfw_metric_descr("WakeLatency", "ndl"),
			       wfw_metric_descr("WakeLatency", ""));
	CU_ASSERT_STRING_EQUAL(wfw_metric_descr("SoftIRQCnt", NULL), "");
	CU_ASSERT(says(wfw_metric_descr("SoftIRQCnt", "hrt"), "softirqs"));
	CU_ASSERT_STRING_EQUAL(wfw_metric_descr("NoSuchMetric", "timer"), "");
	CU_ASSERT(says(wfw_metric_descr("CC6%", "hrt"), "residency"));
	CU_ASSERT(says(wfw_metric_descr("PC6Cyc", NULL), "cycles"));
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("metricdoc", NULL, NULL);
	CU_add_test(s, "timer's metrics", test_timer);
	CU_add_test(s, "hrt's, tdt's and i210's", test_kernel_sources);
	return tu_run();
}
