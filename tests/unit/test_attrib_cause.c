/* SPDX-License-Identifier: MIT */
/*
 * The Cause column's names (plugins/attrib/attrib_cause.c): built from an
 * IRQ table, and every kind of dominant cause mapped to its own name.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "attrib_cause.h"

#include "testutil.h"

static const char *name_of(const struct attrib_causes *c, enum attrib_cause k,
			   unsigned int id)
{
	struct attrib_row r = { .cause = k, .cause_id = id, .cause_pid = -1 };
	size_t i = attrib_causes_index(c, &r);

	return i < c->n ? c->names[i] : "(out of range)";
}

static void test_names(void)
{
	struct attrib_irq irqs[] = { { 9, "acpi" }, { 24, "virtio1-input.0" }, { 30, "" } };
	struct attrib_irqtab t = { .irq = irqs, .n = 3 };
	struct attrib_causes c;

	CU_ASSERT_EQUAL_FATAL(attrib_causes_build(&c, &t), 0);
	CU_ASSERT_EQUAL(c.n, 1 + 3 + ATTRIB_NVEC + 1 + 10 + 2);
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_EXIT, 0), "idle-exit");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_IRQ, 24), "irq:24 virtio1-input.0");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_IRQ, 9), "irq:9 acpi");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_IRQ, 30), "irq:30");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_IRQ, 25), "irq:other");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_VEC, ATTRIB_VEC_LOC), "irq:LOC");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_VEC, ATTRIB_VEC_IWI), "irq:IWI");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_SOFTIRQ, 0), "softirq:HI");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_SOFTIRQ, 3), "softirq:NET_RX");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_SOFTIRQ, 9), "softirq:RCU");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_NMI, 0), "nmi");
	CU_ASSERT_STRING_EQUAL(name_of(&c, ATTRIB_CAUSE_THREAD, 1234), "thread");
	/* Every name once. */
	for (size_t i = 0; i < c.n; i++)
		for (size_t j = 0; j < i; j++)
			CU_ASSERT_STRING_NOT_EQUAL(c.names[i], c.names[j]);
	attrib_causes_free(&c);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("attrib_cause", NULL, NULL);
	CU_add_test(s, "Cause's names and each cause's index", test_names);
	return tu_run();
}
