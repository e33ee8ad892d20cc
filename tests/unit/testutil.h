/* SPDX-License-Identifier: MIT */
/* Helpers shared by the CUnit programs: temp files, CUnit running, skips. */
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
/*
 * Run every registered suite; returns the process exit status: 1 when a
 * case failed, 77 (SKIP) when every case that ran was skipped, else 0.
 * Each skipped case is named with its reason on a line of its own,
 * "SKIP case 'NAME': REASON", which tests/case-driver.sh makes a SKIP
 * result of its own beside the program's PASS (doc/testing.md, "Skips").
 */
int tu_run(void);

/*
 * The running case cannot be done on this machine: REASON names what it
 * lacks ("needs root", "no msr PMU"). The case counts as skipped, never as
 * passed; a failed assertion still fails it. Only under tu_run(): another
 * runner would count it a pass, so there it fails the case.
 */
void tu_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Skip the running case and return from it. */
#define TU_SKIP(...) do { tu_skip(__VA_ARGS__); return; } while (0)

#define TU_ASSERT_CONTAINS(h, n) CU_ASSERT(tu_contains((h), (n)))

#endif
