/* SPDX-License-Identifier: MIT */
/*
 * The IRQ names of /proc/interrupts when a run starts, for Cause's names
 * (doc/attribution.md): each numbered IRQ with the handler names that
 * end its line, and which x86 system-vector rows (LOC, CAL, RES, IWI)
 * the machine has. Any file, however odd, gives a table or an error
 * naming file:line; lines are read up to ATTRIB_IRQ_LINE_MAX bytes.
 */
#ifndef ATTRIB_IRQS_H
#define ATTRIB_IRQS_H

#include <stdbool.h>
#include <stddef.h>

#include "attrib_event.h"

#define ATTRIB_IRQ_NAME_LEN	64	/* longer names are cut */
#define ATTRIB_IRQ_MAX		65536	/* numbered IRQs kept */
#define ATTRIB_IRQ_LINE_MAX	16384	/* longer lines are left out */

struct attrib_irq {
	unsigned int irq;
	char name[ATTRIB_IRQ_NAME_LEN];	/* printable ASCII; "" without handler */
};

struct attrib_irqtab {
	struct attrib_irq *irq;		/* by number, each once */
	size_t n;
	bool vec[ATTRIB_NVEC];		/* the row of enum attrib_vec is there */
	unsigned int odd;		/* lines left out */
	char first_odd[128];		/* "file:line: why" of the first */
};

/* Read path (NULL: /proc/interrupts) into t; -errno and why on failure. */
int attrib_irqtab_read(struct attrib_irqtab *t, const char *path, char *why,
		       size_t len);
void attrib_irqtab_free(struct attrib_irqtab *t);

/* The IRQ's name ("" without handler), or NULL if the table lacks it. */
const char *attrib_irqtab_name(const struct attrib_irqtab *t,
			       unsigned int irq);

/* "LOC", "CAL", "RES", "IWI"; NULL for another value. */
const char *attrib_vec_name(unsigned int vec);

#endif
