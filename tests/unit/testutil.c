/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "testutil.h"

#include <CUnit/Basic.h>
#include <fcntl.h>
#include <ftw.h>
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

int tu_run(void)
{
	unsigned fails;

	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
