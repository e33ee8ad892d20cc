/* SPDX-License-Identifier: MIT */
/* Results compared like with like, or a line per setting that differs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datafmt/likeness.h"
#include "testutil.h"

/* dir/name/info.yml with text; the path of its datapoints.csv. */
static char *result(const char *dir, const char *name, const char *text)
{
	char sub[512], *data;

	snprintf(sub, sizeof(sub), "%s/%s", dir, name);
	mkdir(sub, 0755);
	free(tu_write(sub, "info.yml", text));
	data = tu_write(sub, "datapoints.csv", "WakeLatency\n1\n");
	return data;
}

static void test_differences(void)
{
	char *dir = tu_tmpdir(), *out = NULL;
	const char *names[] = { "a", "b", "c" };
	char *files[3];
	size_t len = 0, lines;
	FILE *f = open_memstream(&out, &len);

	files[0] = result(dir, "a", "source: 'timer'\nldist_from: '50us'\nldist_to: '1ms'\n");
	files[1] = result(dir, "b", "source: 'hrt'\nldist_from: '50us'\nldist_to: '1ms'\n");
	/* wult's: no source key; its ldist differs */
	files[2] = result(dir, "c", "ldist_from: '100us'\nldist_to: '1ms'\n");
	lines = wfw_likeness_warn(f, "calc", (const char *const *)files, names, 3);
	fclose(f);
	CU_ASSERT_EQUAL(lines, 2);
	TU_ASSERT_CONTAINS(out, "wultfw calc: b and a differ in source ('hrt' vs 'timer')");
	TU_ASSERT_CONTAINS(out, "wultfw calc: c and a differ in ldist ('100us to 1ms' vs '50us to 1ms')");
	CU_ASSERT_PTR_NULL(strstr(out, "c and a differ in source"));
	free(out);
	/* One result, or the same settings: nothing. */
	CU_ASSERT_EQUAL(wfw_likeness_warn(stderr, "calc", (const char *const *)files, names, 1), 0);
	for (int i = 0; i < 3; i++)
		free(files[i]);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("likeness", NULL, NULL);
	CU_add_test(s, "settings that differ", test_differences);
	return tu_run();
}
