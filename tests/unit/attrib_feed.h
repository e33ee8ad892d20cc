/* SPDX-License-Identifier: MIT */
/* The accounting tests' one way to load records (test_attrib_*.c). */
#ifndef WFW_TEST_ATTRIB_FEED_H
#define WFW_TEST_ATTRIB_FEED_H

#include "attrib_account.h"
#include "testutil.h"

/* A fresh accounting holding the records, complete up to `complete`. */
static inline struct attrib_acct *feed(const struct attrib_event *e, size_t n,
				       uint64_t complete)
{
	struct attrib_acct *a = attrib_acct_new(0);

	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(attrib_acct_add(a, e, n), 0);
	attrib_acct_complete(a, complete);
	return a;
}

#endif
