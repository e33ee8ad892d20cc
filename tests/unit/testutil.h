/* SPDX-License-Identifier: MIT */
/* Helpers shared by the CUnit programs: temp files and CUnit running. */
#ifndef WFW_TESTUTIL_H
#define WFW_TESTUTIL_H

#include <CUnit/CUnit.h>
#include <stddef.h>

/* A fresh directory under $TMPDIR (or /tmp); malloc'ed: free it. */
char *tu_tmpdir(void);
/* Write text to dir/name; returns the path (malloc'ed). */
char *tu_write(const char *dir, const char *name, const char *text);
/* Whole file, NUL-terminated (malloc'ed), or NULL. */
char *tu_read(const char *path);
/* Does `haystack` contain `needle`? Prints both when not. */
int tu_contains(const char *haystack, const char *needle);
/*
 * fn(arg) with stdout and stderr going to files; what each got into out
 * and err (NUL-terminated, cut to their sizes). Returns what fn returned.
 */
int tu_capture(int (*fn)(void *arg), void *arg, char *out, size_t outlen,
	       char *err, size_t errlen);
/* rm -rf */
void tu_rmtree(const char *path);
/* Run every registered suite; returns the process exit status. */
int tu_run(void);

#define TU_ASSERT_CONTAINS(h, n) CU_ASSERT(tu_contains((h), (n)))

#endif
