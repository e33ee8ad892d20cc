/* SPDX-License-Identifier: MIT */
/* The Cause column's names and a row's index among them (attrib_cause.h). */
#include "config.h"

#include "attrib_cause.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's softirq vector names, in their order (0 HI .. 9 RCU). */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};
#define NSOFTIRQ (sizeof(softirq_names) / sizeof(softirq_names[0]))

/* Positions after the numbered IRQs: the vectors, irq:other, then softirqs. */
enum { AFTER_VEC = ATTRIB_NVEC, AFTER_OTHER = ATTRIB_NVEC + 1 };

static int add(struct attrib_causes *c, const char *name)
{
	c->names[c->n] = strdup(name);
	return c->names[c->n++] ? 0 : -ENOMEM;
}

int attrib_causes_build(struct attrib_causes *c, const struct attrib_irqtab *t)
{
	size_t cap = 1 + t->n + ATTRIB_NVEC + 1 + NSOFTIRQ + 2;
	char name[ATTRIB_IRQ_NAME_LEN + 32];
	int ret;

	memset(c, 0, sizeof(*c));
	c->names = calloc(cap, sizeof(*c->names));
	c->irq = calloc(t->n + 1, sizeof(*c->irq));
	if (!c->names || !c->irq)
		return -ENOMEM;
	ret = add(c, "idle-exit");
	c->first_irq = c->n;
	for (size_t i = 0; !ret && i < t->n; i++) {
		snprintf(name, sizeof(name), "irq:%u%s%s", t->irq[i].irq,
			 t->irq[i].name[0] ? " " : "", t->irq[i].name);
		c->irq[c->nirq++] = t->irq[i].irq;
		ret = add(c, name);
	}
	for (unsigned int v = 0; !ret && v < ATTRIB_NVEC; v++) {
		snprintf(name, sizeof(name), "irq:%s", attrib_vec_name(v));
		ret = add(c, name);
	}
	if (!ret)
		ret = add(c, "irq:other");
	for (size_t s = 0; !ret && s < NSOFTIRQ; s++) {
		snprintf(name, sizeof(name), "softirq:%s", softirq_names[s]);
		ret = add(c, name);
	}
	if (!ret)
		ret = add(c, "nmi");
	if (!ret)
		ret = add(c, "thread");
	return ret;
}

void attrib_causes_free(struct attrib_causes *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->irq);
	memset(c, 0, sizeof(*c));
}

/* The numbered IRQ's index (the table is sorted by number), or irq:other. */
static size_t irq_index(const struct attrib_causes *c, unsigned int irq)
{
	size_t lo = 0, hi = c->nirq;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->irq[mid] == irq)
			return c->first_irq + mid;
		if (c->irq[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return c->first_irq + c->nirq + AFTER_VEC;
}

size_t attrib_causes_index(const struct attrib_causes *c,
			   const struct attrib_row *row)
{
	size_t vec0 = c->first_irq + c->nirq, soft0 = vec0 + AFTER_OTHER;

	switch (row->cause) {
	case ATTRIB_CAUSE_IRQ:
		return irq_index(c, row->cause_id);
	case ATTRIB_CAUSE_VEC:
		return row->cause_id < ATTRIB_NVEC ? vec0 + row->cause_id : vec0 + AFTER_VEC;
	case ATTRIB_CAUSE_SOFTIRQ:
		return row->cause_id < NSOFTIRQ ? soft0 + row->cause_id : 0;
	case ATTRIB_CAUSE_NMI:
		return soft0 + NSOFTIRQ;
	case ATTRIB_CAUSE_THREAD:
		return soft0 + NSOFTIRQ + 1;
	case ATTRIB_CAUSE_EXIT:
	default:
		return 0;
	}
}
