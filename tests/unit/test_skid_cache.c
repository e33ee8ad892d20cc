/* SPDX-License-Identifier: MIT */
/*
 * skid's default buffer size: the largest cache from a fake sysfs tree,
 * and, where the tree has no cpuN/cache/ (some guests), from CPUID's cache
 * leaves, then sysconf (L3, L2, L1d); a refusal naming every place asked.
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skid_cache.h"
#include "testutil.h"

/* What the fakes answer, and how often they were asked. */
static uint64_t fake_leaf_size;
static long fake_l3, fake_l2, fake_l1d;
static int cpuid_calls, sysconf_calls;

static uint64_t fake_cpuid(const char **leaf)
{
	cpuid_calls++;
	*leaf = "CPUID leaf 4";
	return fake_leaf_size;
}

static long fake_sysconf(int name)
{
	sysconf_calls++;
	if (name == _SC_LEVEL3_CACHE_SIZE)
		return fake_l3;
	if (name == _SC_LEVEL2_CACHE_SIZE)
		return fake_l2;
	if (name == _SC_LEVEL1_DCACHE_SIZE)
		return fake_l1d;
	return -1;
}

static const struct skid_cache_ask fakes = { fake_cpuid, fake_sysconf };

static void answers(uint64_t leaf, long l3, long l2, long l1d)
{
	fake_leaf_size = leaf;
	fake_l3 = l3;
	fake_l2 = l2;
	fake_l1d = l1d;
	cpuid_calls = sysconf_calls = 0;
}

/* mkdir -p of root/rel. */
static void mkdirs(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *c = path + strlen(root) + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = 0;
		mkdir(path, 0755);
		*c = '/';
	}
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
}

/* root/devices/system/cpu/cpu1/, with cache/index0-3 when `with_cache`. */
static char *fake_sysfs(int with_cache)
{
	static const char *const sizes[] = { "32K\n", "32K\n", "512K\n", "32768K\n" };
	char *root = tu_tmpdir(), rel[128];

	mkdirs(root, "devices/system/cpu/cpu1");
	for (int i = 0; with_cache && i < 4; i++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu1/cache/index%d", i);
		mkdirs(root, rel);
		strcat(rel, "/size");
		free(tu_write(root, rel, sizes[i]));
	}
	return root;
}

static void test_sysfs_first(void)
{
	char *root = fake_sysfs(1), from[256], err[512], want[512];

	answers(1 << 20, 1 << 21, 1 << 19, 1 << 15);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 32u << 20);
	snprintf(want, sizeof(want), "sysfs %s/devices/system/cpu/cpu1/cache/", root);
	CU_ASSERT_STRING_EQUAL(from, want);
	CU_ASSERT_EQUAL(cpuid_calls + sysconf_calls, 0);
	tu_rmtree(root);
	free(root);
}

static void test_no_cache_dir_cpuid(void)
{
	char *root = fake_sysfs(0), from[256], err[512];

	answers(16u << 20, 256l << 20, 1 << 19, 1 << 15);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 16u << 20);
	CU_ASSERT_STRING_EQUAL(from, "CPUID leaf 4");
	CU_ASSERT_EQUAL(sysconf_calls, 0);
	tu_rmtree(root);
	free(root);
}

static void test_no_cache_dir_sysconf(void)
{
	char *root = fake_sysfs(0), from[256], err[512];

	answers(0, 8l << 20, 1 << 19, 1 << 15);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 8u << 20);
	CU_ASSERT_STRING_EQUAL(from, "sysconf(_SC_LEVEL3_CACHE_SIZE)");
	/* sysconf's 0 or -1: not known; the next level down. */
	answers(0, -1, 0, 48 << 10);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 48u << 10);
	CU_ASSERT_STRING_EQUAL(from, "sysconf(_SC_LEVEL1_DCACHE_SIZE)");
	answers(0, 0, 1 << 20, 0);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 1u << 20);
	CU_ASSERT_STRING_EQUAL(from, "sysconf(_SC_LEVEL2_CACHE_SIZE)");
	tu_rmtree(root);
	free(root);
}

static void test_nothing_knows(void)
{
	char *root = fake_sysfs(0), from[256] = "", err[512] = "", want[512];

	answers(0, 0, -1, 0);
	CU_ASSERT_EQUAL(skid_cache_size(root, 1, &fakes, from, sizeof(from),
					err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "no cache size known: none in %s/devices/system/cpu/cpu1/cache/, CPUID leaf 4 describes no cache, sysconf(_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL1_DCACHE_SIZE) gives none: set buffer_size",
		 root);
	CU_ASSERT_STRING_EQUAL(err, want);
	tu_rmtree(root);
	free(root);
}

static uint64_t no_cpuid(const char **leaf)
{
	*leaf = "CPUID (faked away)";
	return 0;
}

static const struct skid_cache_ask real_sysconf_only = { no_cpuid, sysconf };

/* This machine's own CPUID and C library behind a tree without cache/. */
static void test_real_without_cache_dir(void)
{
	char *root = fake_sysfs(0), from[256] = "", err[512] = "";
	uint64_t size = skid_cache_size(root, 1, &skid_cache_real, from,
					sizeof(from), err, sizeof(err));

	if (sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 || sysconf(_SC_LEVEL2_CACHE_SIZE) > 0) {
		CU_ASSERT(size > 0);
	}
	if (size) {
		CU_ASSERT(!strncmp(from, "CPUID leaf ", 11) || !strncmp(from, "sysconf(", 8));
	} else {
		TU_ASSERT_CONTAINS(err, "set buffer_size");
	}
	printf("\n    this machine without cache/: %llu bytes from %s ",
	       (unsigned long long)size, size ? from : err);
	/* And its C library where CPUID would not say. */
	size = skid_cache_size(root, 1, &real_sysconf_only, from, sizeof(from),
			       err, sizeof(err));
	if (sysconf(_SC_LEVEL3_CACHE_SIZE) > 0) {
		CU_ASSERT_EQUAL(size, (uint64_t)sysconf(_SC_LEVEL3_CACHE_SIZE));
		CU_ASSERT_STRING_EQUAL(from, "sysconf(_SC_LEVEL3_CACHE_SIZE)");
	}
	printf("\n    ... without CPUID's leaves: %llu bytes from %s ",
	       (unsigned long long)size, size ? from : err);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("skid_cache", NULL, NULL);
	CU_add_test(s, "sysfs cache/ first", test_sysfs_first);
	CU_add_test(s, "no cache/: CPUID's cache leaves", test_no_cache_dir_cpuid);
	CU_add_test(s, "no cache/, no CPUID leaves: sysconf L3, L2, L1d", test_no_cache_dir_sysconf);
	CU_add_test(s, "nothing knows: the error names every place", test_nothing_knows);
	CU_add_test(s, "this machine without cache/", test_real_without_cache_dir);
	return tu_run();
}
