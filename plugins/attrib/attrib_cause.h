/* SPDX-License-Identifier: MIT */
/*
 * The names of the Cause column (doc/attribution.md), fixed when the run
 * starts because result files keep an enum's names in their header:
 * idle-exit, each numbered IRQ of /proc/interrupts then, the x86 vectors,
 * irq:other, the ten softirq vectors, nmi, thread. And the index of a
 * row's dominant cause among them.
 */
#ifndef ATTRIB_CAUSE_H
#define ATTRIB_CAUSE_H

#include <stddef.h>

#include "attrib_account.h"
#include "attrib_irqs.h"

struct attrib_causes {
	char **names;		/* "irq:24 virtio1-input.0", ... */
	size_t n;
	unsigned int *irq;	/* the IRQ number of names[first_irq + i] */
	size_t first_irq, nirq;
};

/* Names from the IRQ table t. 0 or -ENOMEM. */
int attrib_causes_build(struct attrib_causes *c, const struct attrib_irqtab *t);
void attrib_causes_free(struct attrib_causes *c);

/* The index of row's dominant cause in c->names. */
size_t attrib_causes_index(const struct attrib_causes *c,
			   const struct attrib_row *row);

#endif
