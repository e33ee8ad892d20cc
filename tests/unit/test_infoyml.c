/* SPDX-License-Identifier: MIT */
/*
 * A result's info.yml read as calc, report and filter read it: keys,
 * continuation lines, quotes, and the bounds a hostile one meets (a FIFO,
 * /dev/zero, more than 1 MiB, thousands of keys, a pid that is no pid).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafmt/infoyml.h"
#include "datafmt/runstate.h"
#include "testutil.h"

static struct wfw_infoyml parsed(const char *text, int want)
{
	struct wfw_infoyml y;

	CU_ASSERT_EQUAL(wfw_infoyml_parse(&y, text, strlen(text)), want);
	return y;
}

static void expect(const struct wfw_infoyml *y, const char *key, const char *val)
{
	char *v = wfw_infoyml_get(y, key);

	CU_ASSERT_PTR_NOT_NULL(v);
	if (v && strcmp(v, val))
		fprintf(stderr, "%s: '%s', expected '%s'\n", key, v, val);
	CU_ASSERT(v && !strcmp(v, val));
	free(v);
}

static void test_parse(void)
{
	struct wfw_infoyml y = parsed(
		"# a comment: not a key\n"
		"toolname: wultfw\n"
		"reportid: 'it''s'\r\n"
		"cstates:\n"
		"- C1\n"
		"  - C6\n"
		"no colon here\n"
		"empty:\n"
		"quoted: \"a: b\"\n"
		"last: no newline", 0);

	CU_ASSERT_EQUAL(y.n, 6);
	expect(&y, "toolname", "wultfw");
	expect(&y, "reportid", "it's");
	expect(&y, "cstates", "\n- C1\n  - C6");
	expect(&y, "empty", "");
	expect(&y, "quoted", "a: b");
	expect(&y, "last", "no newline");
	CU_ASSERT_PTR_NULL(wfw_infoyml_get(&y, "# a comment"));
	wfw_infoyml_free(&y);
	/* A NUL within a line ends its text, not the file. */
	y = (struct wfw_infoyml){ 0 };
	CU_ASSERT_EQUAL(wfw_infoyml_parse(&y, "a: x\0y\nb: z\n", 12), 0);
	expect(&y, "a", "x");
	expect(&y, "b", "z");
	wfw_infoyml_free(&y);
}

/* Bounds: size and keys; time linear in the size (no quadratic append). */
static void test_bounds(void)
{
	size_t big = WFW_INFOYML_MAX + 1, n = 0;
	char *text = malloc(big + 1);
	struct wfw_infoyml y;

	memset(text, 'x', big);
	text[big] = '\0';
	CU_ASSERT_EQUAL(wfw_infoyml_parse(&y, text, big), -EFBIG);
	TU_ASSERT_CONTAINS(y.err, "larger than 1048576 bytes");
	CU_ASSERT_EQUAL(y.n, 0);
	/* 4097 keys */
	for (int k = 0; k <= WFW_INFOYML_MAX_KEYS; k++)
		n += (size_t)sprintf(text + n, "k%d: v\n", k);
	CU_ASSERT_EQUAL(wfw_infoyml_parse(&y, text, n), -E2BIG);
	TU_ASSERT_CONTAINS(y.err, "more than 4096 keys");
	/* One key continued over half a million lines: 1 MiB, read at once. */
	n = (size_t)sprintf(text, "k: v\n");
	while (n + 3 < WFW_INFOYML_MAX)
		n += (size_t)sprintf(text + n, " x\n");
	CU_ASSERT_EQUAL_FATAL(wfw_infoyml_parse(&y, text, n), 0);
	CU_ASSERT_EQUAL(y.n, 1);
	CU_ASSERT_EQUAL(strlen(y.vals[0]), n - 4);	/* "v", then "\n x" each */
	wfw_infoyml_free(&y);
	free(text);
}

/* The file: regular files only; read errors said; a missing one is empty. */
static void test_files(void)
{
	char *dir = tu_tmpdir(), path[512], data[512], why[700];
	struct wfw_infoyml y;

	snprintf(data, sizeof(data), "%s/datapoints.csv", dir);
	snprintf(path, sizeof(path), "%s/info.yml", dir);
	CU_ASSERT_EQUAL(wfw_infoyml_read(&y, data), 0);
	CU_ASSERT_EQUAL(y.n, 0);
	CU_ASSERT_EQUAL(wfw_run_end(data, why, sizeof(why)), WFW_RUN_ENDED);
	/* A FIFO would block the reader: refused at once. */
	CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
	CU_ASSERT_EQUAL(wfw_infoyml_read(&y, data), -EINVAL);
	TU_ASSERT_CONTAINS(y.err, "info.yml: not a regular file");
	CU_ASSERT_EQUAL(wfw_run_end(data, why, sizeof(why)), WFW_RUN_UNKNOWN);
	TU_ASSERT_CONTAINS(why, "info.yml: not a regular file: ignored");
	unlink(path);
	/* /dev/zero never ends. */
	CU_ASSERT_EQUAL_FATAL(symlink("/dev/zero", path), 0);
	CU_ASSERT_EQUAL(wfw_infoyml_read(&y, data), -EINVAL);
	unlink(path);
	/* A link to a file root can read: not followed (report would show it). */
	CU_ASSERT_EQUAL_FATAL(symlink("/etc/passwd", path), 0);
	CU_ASSERT_EQUAL(wfw_infoyml_read(&y, data), -EINVAL);
	TU_ASSERT_CONTAINS(y.err, "info.yml: a symbolic link, not followed");
	CU_ASSERT_EQUAL(y.n, 0);
	unlink(path);
	/* A running run whose pid is no pid: unfinished, not atoi()'s guess. */
	free(tu_write(dir, "info.yml", "status: running\npid: 99999999999999999999\n"));
	CU_ASSERT_EQUAL(wfw_run_end(data, why, sizeof(why)), WFW_RUN_UNFINISHED);
	TU_ASSERT_CONTAINS(why, "with no valid pid");
	free(tu_write(dir, "info.yml", "status: running\npid: -1\n"));
	CU_ASSERT_EQUAL(wfw_run_end(data, why, sizeof(why)), WFW_RUN_UNFINISHED);
	free(tu_write(dir, "info.yml", "status: 'complete'\n"));
	CU_ASSERT_EQUAL(wfw_run_end(data, why, sizeof(why)), WFW_RUN_ENDED);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("infoyml", NULL, NULL);
	CU_add_test(s, "keys, continuations, quotes", test_parse);
	CU_add_test(s, "size and key bounds", test_bounds);
	CU_add_test(s, "files and run states", test_files);
	return tu_run();
}
