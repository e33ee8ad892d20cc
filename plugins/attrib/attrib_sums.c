/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "attrib_sums.h"

static uint64_t key(enum attrib_cause cause, uint32_t id)
{
	return (uint64_t)cause << 32 | id;
}

void attrib_sums_reset(struct attrib_sums *s)
{
	attrib_map_clear(&s->by);
	s->exit_ns = s->nmi_ns = 0;
	s->irq_cnt = s->softirq_cnt = s->nmi_cnt = 0;
	s->nomem = false;
}

void attrib_sums_add(struct attrib_sums *s, enum attrib_cause cause, uint32_t id,
		     uint64_t ns, const char *comm)
{
	struct attrib_map_ent *e;

	if (cause == ATTRIB_CAUSE_EXIT) {
		s->exit_ns += ns;
		return;
	}
	if (cause == ATTRIB_CAUSE_NMI) {
		s->nmi_ns += ns;
		return;
	}
	e = attrib_map_get(&s->by, key(cause, id));
	if (!e) {
		s->nomem = true;
		return;
	}
	e->ns += ns;
	if (comm)
		memcpy(e->comm, comm, sizeof(e->comm));
}

/*
 * The largest; on a tie the lower key, which is doc's order: idle-exit,
 * IRQ numbers, system vectors, softirq vectors, NMI, threads (by pid).
 */
static void consider(uint64_t k, uint64_t ns, uint64_t *best, uint64_t *best_ns)
{
	if (ns > *best_ns || (ns == *best_ns && k < *best))
		*best = k, *best_ns = ns;
}

int attrib_sums_row(struct attrib_sums *s, uint32_t measuring_pid,
		    struct attrib_row *row, const char **comm)
{
	struct attrib_map_ent *me = NULL;
	uint64_t best, best_ns;

	if (s->nomem)
		return -1;
	memset(row, 0, sizeof(*row));
	if (measuring_pid)
		me = attrib_map_find(&s->by, key(ATTRIB_CAUSE_THREAD, measuring_pid));
	if (me) {
		s->exit_ns += me->ns;
		me->ns = 0;
	}
	row->exit_ns = s->exit_ns;
	row->nmi_ns = s->nmi_ns;
	best = key(ATTRIB_CAUSE_EXIT, 0);
	best_ns = s->exit_ns;
	consider(key(ATTRIB_CAUSE_NMI, 0), s->nmi_ns, &best, &best_ns);
	for (size_t i = 0; i < s->by.n; i++) {
		const struct attrib_map_ent *e = &s->by.ent[i];

		switch ((enum attrib_cause)(e->key >> 32)) {
		case ATTRIB_CAUSE_IRQ:
		case ATTRIB_CAUSE_VEC:
			row->irq_ns += e->ns;
			break;
		case ATTRIB_CAUSE_SOFTIRQ:
			row->softirq_ns += e->ns;
			break;
		default:
			row->thread_ns += e->ns;
			break;
		}
		consider(e->key, e->ns, &best, &best_ns);
	}
	row->irq_cnt = s->irq_cnt;
	row->softirq_cnt = s->softirq_cnt;
	row->nmi_cnt = s->nmi_cnt;
	row->cause = (enum attrib_cause)(best >> 32);
	row->cause_id = (uint32_t)best;
	row->cause_ns = best_ns;
	row->cause_pid = row->cause == ATTRIB_CAUSE_THREAD ? (int64_t)row->cause_id : -1;
	*comm = NULL;
	if (row->cause == ATTRIB_CAUSE_THREAD)
		*comm = attrib_map_find(&s->by, best)->comm;
	return 0;
}

void attrib_sums_fini(struct attrib_sums *s)
{
	attrib_map_fini(&s->by);
}
