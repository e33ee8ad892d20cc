/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "testutil.h"

#include <CUnit/TestRun.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *tu_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *path;

	if (asprintf(&path, "%s/wultfw-test-XXXXXX", base ? base : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	return path;
}

char *tu_write(const char *dir, const char *name, const char *text)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		return path;
	fputs(text, f);
	fclose(f);
	return path;
}

char *tu_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (buf) {
		size_t n = fread(buf, 1, (size_t)len, f);

		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

int tu_contains(const char *haystack, const char *needle)
{
	if (haystack && strstr(haystack, needle))
		return 1;
	fprintf(stderr, "\n  expected to find: %s\n  in: %s\n", needle,
		haystack ? haystack : "(null)");
	return 0;
}

/* The text fd holds, into buf (cut to len), then fd closed. */
static void take_text(int fd, char *buf, size_t len)
{
	ssize_t k = pread(fd, buf, len - 1, 0);

	buf[k > 0 ? k : 0] = '\0';
	close(fd);
}

int tu_capture(int (*fn)(void *arg), void *arg, char *out, size_t outlen,
	       char *err, size_t errlen)
{
	char *dir = tu_tmpdir(), *po = NULL, *pe = NULL;
	int so = dup(1), se = dup(2), fo = -1, fe = -1, ret;

	if (dir && asprintf(&po, "%s/stdout", dir) > 0 && asprintf(&pe, "%s/stderr", dir) > 0) {
		fo = open(po, O_RDWR | O_CREAT | O_TRUNC, 0644);
		fe = open(pe, O_RDWR | O_CREAT | O_TRUNC, 0644);
	}
	fflush(stdout);
	fflush(stderr);
	dup2(fo, 1);
	dup2(fe, 2);
	ret = fn(arg);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	take_text(fo, out, outlen);
	take_text(fe, err, errlen);
	tu_rmtree(dir);
	free(po);
	free(pe);
	free(dir);
	return ret;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

void tu_rmtree(const char *path)
{
	if (path)
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * The runner. CUnit's basic interface counts a case that returned early as
 * passed, so tu_run() prints and counts the cases itself: passed, failed
 * (with CUnit's failure records) or skipped (with tu_skip()'s reason).
 */
#define TU_MAX_SKIPS 64

static bool in_tu_run;
static bool skip_called;
static char skip_why[512];
static char *skips[TU_MAX_SKIPS];	/* "'NAME': REASON" */
static unsigned n_pass, n_fail, n_skip;

void tu_skip(const char *fmt, ...)
{
	va_list ap;

	if (!in_tu_run) {
		CU_FAIL("tu_skip() outside tu_run(): that runner would count the skip as a pass");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(skip_why, sizeof(skip_why), fmt, ap);
	va_end(ap);
	skip_called = true;
	if (!skip_why[0])
		CU_FAIL("skipped without a reason: say what this machine lacks");
}

static void on_suite_start(const CU_pSuite s)
{
	printf("\nSuite: %s\n", s->pName);
}

static void on_test_start(const CU_pTest t, const CU_pSuite s)
{
	(void)s;
	skip_called = false;
	skip_why[0] = '\0';
	printf("  Test: %s ...", t->pName);
	fflush(stdout);
}

static void on_test_complete(const CU_pTest t, const CU_pSuite s,
			     const CU_pFailureRecord first)
{
	unsigned i = 0;

	(void)s;
	if (first) {
		n_fail++;
		printf("FAILED\n");
		for (CU_pFailureRecord f = first; f; f = f->pNext)
			printf("    %u. %s:%u  - %s\n", ++i,
			       f->strFileName ? f->strFileName : "?",
			       f->uiLineNumber,
			       f->strCondition ? f->strCondition : "");
	} else if (skip_called) {
		printf("skipped: %s\n", skip_why);
		if (n_skip < TU_MAX_SKIPS &&
		    asprintf(&skips[n_skip], "'%s': %s", t->pName, skip_why) < 0)
			skips[n_skip] = NULL;
		n_skip++;
	} else {
		n_pass++;
		printf("passed\n");
	}
	fflush(stdout);
}

static void on_suite_failure(const CU_pSuite s)
{
	printf("\nSuite %s: its set-up or clean-up failed\n", s->pName);
}

/* One line per skipped case for the harness; all of them in one line. */
static void report_skips(bool every)
{
	unsigned n = n_skip < TU_MAX_SKIPS ? n_skip : TU_MAX_SKIPS;

	for (unsigned i = 0; i < n; i++)
		printf("SKIP case %s\n", skips[i] ? skips[i] : "(out of memory)");
	if (every) {
		printf("SKIP: every case skipped:");
		for (unsigned i = 0; i < n; i++)
			printf("%s %s", i ? ";" : "", skips[i] ? skips[i] : "?");
		printf("\n");
	}
	for (unsigned i = 0; i < n; i++)
		free(skips[i]);
}

int tu_run(void)
{
	unsigned suites_failed;

	in_tu_run = true;
	CU_set_suite_start_handler(on_suite_start);
	CU_set_test_start_handler(on_test_start);
	CU_set_test_complete_handler(on_test_complete);
	CU_set_suite_init_failure_handler(on_suite_failure);
	CU_set_suite_cleanup_failure_handler(on_suite_failure);
	CU_run_all_tests();
	suites_failed = CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	in_tu_run = false;
	printf("\ncases: %u passed, %u failed, %u skipped\n", n_pass, n_fail, n_skip);
	report_skips(n_skip && !n_pass && !n_fail && !suites_failed);
	fflush(stdout);
	if (n_fail || suites_failed)
		return 1;
	return n_skip && !n_pass ? 77 : 0;
}
