/* SPDX-License-Identifier: MIT */
/* info.yml's facts about the machine, from a fake sysfs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sysinfo.h"
#include "testutil.h"

/* root/rel (its directories made) holding text. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	free(tu_write(root, rel, text));
}

/* The value info holds for key, or NULL. */
static const char *val(const struct wfw_info *info, const char *key)
{
	for (size_t i = 0; i < info->n; i++)
		if (!strcmp(info->keys[i], key))
			return info->vals[i];
	return NULL;
}

static void test_facts(void)
{
	char *root = tu_tmpdir();
	struct wfw_info info = { 0 };

	put(root, "devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	put(root, "devices/system/clockevents/clockevent3/current_device", "lapic-deadline\n");
	put(root, "devices/system/clockevents/clockevent0/current_device", "hpet\n");
	put(root, "devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put(root, "devices/system/cpu/isolated", "2-3\n");
	put(root, "kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	wfw_info_machine(&info, root, 3);
	CU_ASSERT_STRING_EQUAL(val(&info, "clocksource"), "'hpet'");
	CU_ASSERT_STRING_EQUAL(val(&info, "clockevent"), "'lapic-deadline'");	/* CPU 3's */
	CU_ASSERT_STRING_EQUAL(val(&info, "cpufreq_governor"), "'performance'");
	CU_ASSERT_STRING_EQUAL(val(&info, "isolated_cpus"), "'2-3'");
	CU_ASSERT_STRING_EQUAL(val(&info, "transparent_hugepage"), "'madvise'");
	CU_ASSERT_PTR_NULL(val(&info, "nohz_full_cpus"));	/* not there: left out */
	CU_ASSERT_STRING_EQUAL(val(&info, "cpuidle_driver"), "'none'");
	wfw_info_free(&info);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("sysinfo", NULL, NULL);
	CU_add_test(s, "facts from sysfs", test_facts);
	return tu_run();
}
