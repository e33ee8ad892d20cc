/* SPDX-License-Identifier: MIT */
/*
 * SMICnt in the accounting (plugins/attrib/attrib_account.c): synthetic
 * records carrying an SMI count (ATTRIB_F_SMI); per interval the count
 * of the first record at or after its end less the last one before its
 * start; an empty cell (-1), never a 0, where either is missing or the
 * count went back.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "attrib_feed.h"

#define NO_SMI UINT64_MAX

static struct attrib_event rec(uint64_t ts, enum attrib_kind kind, uint32_t id,
			       uint64_t smi)
{
	struct attrib_event e = { .ts = ts, .kind = kind, .id = id };

	if (smi != NO_SMI) {
		e.smi = smi;
		e.flags = ATTRIB_F_SMI;
	}
	if (kind == ATTRIB_SWITCH)
		snprintf(e.comm, sizeof(e.comm), "%s", id ? "wfw-timer" : "swapper/1");
	return e;
}

#define SW(ts, pid, smi) rec(ts, ATTRIB_SWITCH, pid, smi)
#define LOC_IN(ts, smi) rec(ts, ATTRIB_VEC_ENTRY, ATTRIB_VEC_LOC, smi)
#define LOC_OUT(ts, smi) rec(ts, ATTRIB_VEC_EXIT, ATTRIB_VEC_LOC, smi)
#define NEV(a) (sizeof(a) / sizeof((a)[0]))

/* SMICnt of [s, s + lat); the row itself must be answered. */
static int64_t smicnt(struct attrib_acct *a, uint64_t s, int64_t lat)
{
	struct attrib_row r;

	memset(&r, 0x5a, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(attrib_acct_explain(a, s, lat, &r), ATTRIB_OK);
	return r.smi_cnt;
}

/* An hrt-like stream: idle, the timer's interrupt, idle again, twice. */
static void test_difference(void)
{
	const struct attrib_event e[] = {
		SW(100, 0, 10),
		LOC_IN(1000, 12), LOC_OUT(1500, 12),	/* 2 SMIs before the entry */
		LOC_IN(3000, 12), LOC_OUT(3400, 15),	/* 3 inside the handler */
		SW(5000, 7, 15),
	};
	struct attrib_acct *a = feed(e, NEV(e), 6000);

	CU_ASSERT_EQUAL(smicnt(a, 900, 500), 2);	/* 100's 10 to 1500's 12 */
	CU_ASSERT_EQUAL(smicnt(a, 2900, 400), 3);	/* 1500's 12 to 3400's 15 */
	/* An end exactly on a record takes that record's count. */
	CU_ASSERT_EQUAL(smicnt(a, 3500, 1500), 0);
	attrib_acct_free(a);
}

/* A count that does not move is a measured 0, not an empty cell. */
static void test_still(void)
{
	const struct attrib_event e[] = {
		SW(100, 0, 42), LOC_IN(1000, 42), LOC_OUT(1100, 42),
		LOC_IN(2000, 42), LOC_OUT(2100, 42),
	};
	struct attrib_acct *a = feed(e, NEV(e), 3000);

	CU_ASSERT_EQUAL(smicnt(a, 950, 100), 0);
	CU_ASSERT_EQUAL(smicnt(a, 1950, 100), 0);
	CU_ASSERT_EQUAL(attrib_acct_stats(a)->smi_backwards, 0);
	attrib_acct_free(a);
}

/* A count going back (a reset, or a wrap the PMU never makes) is refused. */
static void test_backwards(void)
{
	const struct attrib_event e[] = {
		SW(100, 0, 0xfffffff0ULL), LOC_IN(1000, 0xfffffff5ULL),
		LOC_OUT(1100, 3), LOC_IN(2000, 4), LOC_OUT(2100, 9),
	};
	struct attrib_acct *a = feed(e, NEV(e), 3000);

	CU_ASSERT_EQUAL(smicnt(a, 950, 100), -1);
	CU_ASSERT_EQUAL(attrib_acct_stats(a)->smi_backwards, 1);
	/* From there on it counts again. */
	CU_ASSERT_EQUAL(smicnt(a, 1950, 100), 6);
	attrib_acct_free(a);
}

/* Either end without a count: an empty cell, the rest of the row answered. */
static void test_missing(void)
{
	const struct attrib_event e[] = {
		SW(100, 0, 5), LOC_IN(1000, NO_SMI), LOC_OUT(1100, 6),
		LOC_IN(2000, 6), LOC_OUT(2100, NO_SMI),
		LOC_IN(3000, 7), LOC_OUT(3100, 8),
	};
	const struct attrib_event plain[] = {
		SW(100, 0, NO_SMI), LOC_IN(1000, NO_SMI), LOC_OUT(1100, NO_SMI),
	};
	struct attrib_acct *a = feed(e, NEV(e), 5000);

	/* The nearest readings around it: 100's 5 to 1100's 6. */
	CU_ASSERT_EQUAL(smicnt(a, 1050, 50), 1);
	/* 1100's 6 to 3000's 7: 2100 has none. */
	CU_ASSERT_EQUAL(smicnt(a, 1950, 100), 1);
	CU_ASSERT_EQUAL(smicnt(a, 3050, 50), 1);	/* 3000 to 3100 */
	/* Nothing held at or after the end (complete vouched for it). */
	CU_ASSERT_FALSE(attrib_acct_seen(a, 3200));
	CU_ASSERT_TRUE(attrib_acct_seen(a, 3100));
	CU_ASSERT_EQUAL(smicnt(a, 3150, 100), -1);
	attrib_acct_free(a);
	/* A stream without counts at all (no smi_event): never a 0. */
	a = feed(e, 1, 5000);
	CU_ASSERT_EQUAL(smicnt(a, 150, 50), -1);	/* none after the end */
	attrib_acct_free(a);
	a = feed(plain, NEV(plain), 2000);
	CU_ASSERT_EQUAL(smicnt(a, 950, 100), -1);
	attrib_acct_free(a);
}

/* A count read late (a program nested before it read) bounds only the end. */
static void test_late(void)
{
	struct attrib_event e[] = {
		SW(100, 0, 10), LOC_IN(1000, 20), LOC_OUT(1100, 21),
	};
	struct attrib_acct *a;

	e[1].flags |= ATTRIB_F_SMI_LATE;	/* read after 1100's own */
	a = feed(e, NEV(e), 2000);
	CU_ASSERT_EQUAL(smicnt(a, 900, 90), 10);	/* 100's 10 to 1000's 20 */
	CU_ASSERT_EQUAL(smicnt(a, 1050, 40), 11);	/* still 100's 10 to 1100's 21 */
	attrib_acct_free(a);
}

/* An NMI record's count serves as the end's; the start's survives releases. */
static void test_nmi_and_release(void)
{
	struct attrib_event e[] = {
		SW(100, 0, 1), LOC_IN(1000, 1), LOC_OUT(1100, 2),
		rec(2200, ATTRIB_NMI, 0, 4), LOC_IN(3000, 4), LOC_OUT(3100, 4),
	};
	struct attrib_acct *a;

	e[3].dur = 50;
	a = feed(e, NEV(e), 4000);
	CU_ASSERT_EQUAL(smicnt(a, 1950, 200), 2);	/* 1100's 2 to the NMI's 4 */
	attrib_acct_release(a, 2900);
	CU_ASSERT_EQUAL(smicnt(a, 2950, 120), 0);	/* the NMI's 4 kept at release */
	attrib_acct_free(a);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("attrib_smicnt", NULL, NULL);
	CU_add_test(s, "difference per interval", test_difference);
	CU_add_test(s, "a count that does not move", test_still);
	CU_add_test(s, "going back refused", test_backwards);
	CU_add_test(s, "missing counts: empty, not 0", test_missing);
	CU_add_test(s, "a count read late", test_late);
	CU_add_test(s, "NMI record, release", test_nmi_and_release);
	return tu_run();
}
