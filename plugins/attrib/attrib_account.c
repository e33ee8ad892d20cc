/* SPDX-License-Identifier: MIT */
/*
 * The stream held between what was released and the newest record, the
 * context at both ends of what intervals still need (base: the first
 * held record; cur: the last interval's start), the windows where records
 * may be missing, and the walk over one interval.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib_account.h"
#include "attrib_ctx.h"
#include "attrib_sums.h"

/* Loss windows kept apart; more are merged (more unknown, never wrong). */
#define MAX_WINDOWS 32
/* Timestamps from here on are not CLOCK_MONOTONIC ns: records dropped. */
#define TS_LIMIT (1ULL << 63)

struct window {
	uint64_t from, to;
};

struct attrib_acct {
	struct attrib_event *rec;	/* rec[0] has absolute index off */
	size_t cap, off;
	size_t first, end;		/* held: absolute [first, end) */
	size_t max_events;
	uint64_t last_ts;		/* of the newest record, as kept */
	uint64_t complete;		/* what attrib_acct_complete() vouched for */
	struct attrib_ctx base;		/* before the first held record */
	struct attrib_ctx cur;		/* at the last interval's start */
	struct window win[MAX_WINDOWS];	/* by from, none before base.t */
	size_t nwin;
	struct attrib_sums sums;
	struct attrib_map threads;	/* pid -> comm */
	struct attrib_thread *tlist;
	struct attrib_acct_stats st;
};

static const struct attrib_event *rec(const struct attrib_acct *a, size_t i)
{
	return &a->rec[i - a->off];
}

struct attrib_acct *attrib_acct_new(size_t max_events)
{
	struct attrib_acct *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->max_events = max_events ? max_events : ATTRIB_DEFAULT_MAX_EVENTS;
	attrib_ctx_init(&a->base);
	a->cur = a->base;
	return a;
}

void attrib_acct_free(struct attrib_acct *a)
{
	if (!a)
		return;
	free(a->rec);
	attrib_sums_fini(&a->sums);
	attrib_map_fini(&a->threads);
	free(a->tlist);
	free(a);
}

/* Apply to c the records with ts < t and the windows from before t. */
static void advance(const struct attrib_acct *a, struct attrib_ctx *c, uint64_t t,
		    struct attrib_acct_stats *st)
{
	size_t w = 0;

	while (w < a->nwin && a->win[w].from < c->t)
		w++;
	for (; c->next < a->end; c->next++) {
		const struct attrib_event *ev = rec(a, c->next);

		if (ev->ts >= t)
			break;
		/* A window opening with this record's ts may hide what came before it. */
		for (; w < a->nwin && a->win[w].from <= ev->ts; w++)
			attrib_ctx_taint(c, a->win[w].to);
		/* An older reading stays a lower bound: kept over a late one. */
		if ((ev->flags & (ATTRIB_F_SMI | ATTRIB_F_SMI_LATE)) == ATTRIB_F_SMI) {
			c->smi_ok = true;
			c->smi = ev->smi;
		}
		if (ev->kind != ATTRIB_NMI)
			attrib_ctx_step(c, ev, false, st);
	}
	for (; w < a->nwin && a->win[w].from < t; w++)
		attrib_ctx_taint(c, a->win[w].to);
	if (t > c->t)
		c->t = t;
}

void attrib_acct_release(struct attrib_acct *a, uint64_t t)
{
	size_t keep = 0;

	/* Records that came after an earlier release but before its time go too. */
	advance(a, &a->base, t > a->base.t ? t : a->base.t, &a->st);
	if (a->cur.next < a->base.next || a->cur.t < a->base.t)
		a->cur = a->base;
	a->first = a->base.next;
	for (size_t i = 0; i < a->nwin; i++)
		if (a->win[i].from >= a->base.t)
			a->win[keep++] = a->win[i];
	a->nwin = keep;
}

/* The two windows closest together become one covering both. */
static void merge_closest(struct attrib_acct *a)
{
	size_t best = 0;
	uint64_t gap = UINT64_MAX;

	for (size_t i = 0; i + 1 < a->nwin; i++) {
		uint64_t g = a->win[i + 1].from > a->win[i].to ?
			     a->win[i + 1].from - a->win[i].to : 0;

		if (g < gap)
			gap = g, best = i;
	}
	if (a->win[best + 1].to > a->win[best].to)
		a->win[best].to = a->win[best + 1].to;
	memmove(&a->win[best + 1], &a->win[best + 2],
		(a->nwin - best - 2) * sizeof(a->win[0]));
	a->nwin--;
}

void attrib_acct_lost(struct attrib_acct *a, uint64_t from, uint64_t to)
{
	size_t i;

	if (to < from)
		to = from;
	a->st.loss_windows++;
	/* Contexts already past `from` are wrong from there. */
	if (from < a->cur.t)
		attrib_ctx_taint(&a->cur, to);
	if (from < a->base.t) {
		attrib_ctx_taint(&a->base, to);
		return;
	}
	/* Kept for the walks that will cross it. */
	if (a->nwin == MAX_WINDOWS)
		merge_closest(a);
	for (i = a->nwin; i > 0 && a->win[i - 1].from > from; i--)
		a->win[i] = a->win[i - 1];
	a->win[i] = (struct window){ .from = from, .to = to };
	a->nwin++;
}

void attrib_acct_complete(struct attrib_acct *a, uint64_t t)
{
	if (t > a->complete)
		a->complete = t;
}

static bool valid(const struct attrib_event *ev)
{
	if (ev->ts >= TS_LIMIT)
		return false;
	switch (ev->kind) {
	case ATTRIB_IRQ_ENTRY:
	case ATTRIB_IRQ_EXIT:
	case ATTRIB_NMI:
	case ATTRIB_SWITCH:
		return true;
	case ATTRIB_VEC_ENTRY:
	case ATTRIB_VEC_EXIT:
		return ev->id < ATTRIB_NVEC;
	case ATTRIB_SOFTIRQ_ENTRY:
	case ATTRIB_SOFTIRQ_EXIT:
		return ev->id < ATTRIB_NSOFTIRQ;
	default:
		return false;
	}
}

/*
 * Time never goes back: a record before the previous one is moved up to
 * it, an NMI reaching before the previous record is cut there. Returns
 * when the record begins (an NMI at ts - dur).
 */
static uint64_t sanitize(struct attrib_acct *a, struct attrib_event *r)
{
	uint64_t last = a->last_ts, b = r->ts;

	if (r->kind == ATTRIB_NMI)
		b = r->dur < r->ts ? r->ts - r->dur : 0;
	if (r->ts < last) {
		a->st.reordered++;
		r->ts = last;
	} else if (b < last) {
		a->st.nmi_cut++;
	}
	if (b < last)
		b = last;
	if (r->kind == ATTRIB_NMI)
		r->dur = r->ts - b;
	if (r->kind == ATTRIB_SWITCH)
		r->comm[ATTRIB_COMM_LEN - 1] = '\0';
	if (b < a->complete)
		a->st.late++;
	a->last_ts = r->ts;
	return b;
}

/* Half the records released, or at least the oldest timestamp's. */
static void force_release(struct attrib_acct *a)
{
	uint64_t t = rec(a, a->first + (a->end - a->first) / 2)->ts;

	if (t <= rec(a, a->first)->ts)
		t = rec(a, a->first)->ts + 1;
	attrib_acct_release(a, t);
	a->st.forced_releases++;
}

/* Room for one more record: the held ones moved down, or more memory. */
static int room(struct attrib_acct *a)
{
	size_t held, cap;
	struct attrib_event *p;

	if (a->end - a->first >= a->max_events)
		force_release(a);
	if (a->end - a->off < a->cap)
		return 0;
	held = a->end - a->first;
	if (a->first > a->off) {
		memmove(a->rec, rec(a, a->first), held * sizeof(*a->rec));
		a->off = a->first;
	}
	/* Moving more than half at each fill would cost quadratic time. */
	if (a->cap && held <= a->cap / 2)
		return 0;
	cap = a->cap ? a->cap * 2 : 1024;
	p = realloc(a->rec, cap * sizeof(*p));
	if (!p)
		return held < a->cap ? 0 : -ENOMEM;
	a->rec = p;
	a->cap = cap;
	return 0;
}

int attrib_acct_add(struct attrib_acct *a, const struct attrib_event *ev, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct attrib_event r = ev[i];
		uint64_t b;

		if (!valid(&r)) {
			a->st.bad++;
			continue;
		}
		b = sanitize(a, &r);
		if (room(a)) {
			attrib_acct_lost(a, b, r.ts);
			ret = -ENOMEM;
			continue;
		}
		a->rec[a->end++ - a->off] = r;
		a->st.events++;
	}
	return ret;
}

/* ns of [t0, t1) to whatever runs innermost in c. */
static void charge(struct attrib_sums *sm, const struct attrib_ctx *c,
		   uint64_t t0, uint64_t t1)
{
	static const enum attrib_cause of[] = {
		[ATTRIB_IRQ_ENTRY] = ATTRIB_CAUSE_IRQ,
		[ATTRIB_VEC_ENTRY] = ATTRIB_CAUSE_VEC,
		[ATTRIB_SOFTIRQ_ENTRY] = ATTRIB_CAUSE_SOFTIRQ,
	};
	const struct attrib_frame *f = c->depth ? &c->stack[c->depth - 1] : NULL;

	if (t1 <= t0)
		return;
	if (f && !f->own)
		attrib_sums_add(sm, of[f->kind], f->id, t1 - t0, NULL);
	else if (f || !c->pid)
		attrib_sums_add(sm, ATTRIB_CAUSE_EXIT, 0, t1 - t0, NULL);
	else
		attrib_sums_add(sm, ATTRIB_CAUSE_THREAD, c->pid, t1 - t0, c->comm);
}

/* An NMI record: its time, clipped to [s, e), taken out of the context's. */
static void nmi(struct attrib_sums *sm, const struct attrib_ctx *c,
		const struct attrib_event *ev, uint64_t s, uint64_t e, uint64_t *t)
{
	uint64_t b = ev->ts - ev->dur, end = ev->ts < e ? ev->ts : e;

	if (b >= e)
		return;
	if (b > *t) {
		charge(sm, c, *t, b);
		*t = b;
	}
	if (end > *t) {
		attrib_sums_add(sm, ATTRIB_CAUSE_NMI, 0, end - *t, NULL);
		*t = end;
	}
	if (b >= s)
		sm->nmi_cnt++;
}

static bool window_in(const struct attrib_acct *a, uint64_t s, uint64_t e)
{
	for (size_t i = 0; i < a->nwin; i++)
		if (a->win[i].from >= s && a->win[i].from < e)
			return true;
	return false;
}

static int thread_put(struct attrib_acct *a, uint32_t pid, const char *comm)
{
	struct attrib_map_ent *e = attrib_map_get(&a->threads, pid);

	if (!e)
		return -1;
	memcpy(e->comm, comm, sizeof(e->comm));
	return 0;
}

/*
 * SMIs from the last count surely read before the interval (ok: there was
 * one; not ATTRIB_F_SMI_LATE) to the first read at or after its end: more
 * than in the interval only if one came between those reads but outside
 * it, never fewer.
 */
static int64_t smi_between(struct attrib_acct *a, bool ok, uint64_t before,
			   const struct attrib_event *after)
{
	if (!ok || !after || !(after->flags & ATTRIB_F_SMI))
		return -1;
	/* The PMU's count is 64 bits and never wraps: back is a reset. */
	if (after->smi < before || after->smi - before > INT64_MAX) {
		a->st.smi_backwards++;
		return -1;
	}
	return (int64_t)(after->smi - before);
}

/*
 * The softirq open at e (entered, not yet exited) runs the measured code
 * (hrt's BPF timer runs in HRTIMER): the measured event's own delivery,
 * as its local timer is. Returns the index of its entry after c, or
 * SIZE_MAX, marking c's bottom frame own when it entered before c.
 * Softirqs never nest and no hard IRQ's record closes one
 * (attrib_ctx.c): only these three records matter.
 */
static size_t own_softirq(const struct attrib_acct *a, struct attrib_ctx *c, uint64_t e)
{
	bool open = c->depth && c->stack[0].kind == ATTRIB_SOFTIRQ_ENTRY;
	uint32_t id = open ? c->stack[0].id : 0;
	size_t entry = SIZE_MAX;

	for (size_t i = c->next; i < a->end && rec(a, i)->ts < e; i++) {
		const struct attrib_event *ev = rec(a, i);

		if (ev->kind == ATTRIB_SOFTIRQ_ENTRY) {
			open = true;
			id = ev->id;
			entry = i;
		} else if (ev->kind == ATTRIB_SWITCH ||
			   (ev->kind == ATTRIB_SOFTIRQ_EXIT && ev->id == id)) {
			open = false;
		}
	}
	if (!open)
		return SIZE_MAX;
	if (entry == SIZE_MAX)
		c->stack[0].own = true;
	return entry;
}

/* [s, e) from c, the context at s, over the held records. */
static enum attrib_status walk(struct attrib_acct *a, struct attrib_ctx *c,
			       uint64_t s, uint64_t e, struct attrib_row *row)
{
	struct attrib_sums *sm = &a->sums;
	uint64_t t = s;
	bool own_seen = false;
	const char *comm;
	const struct attrib_event *after = NULL;
	bool smi_ok = c->smi_ok;
	uint64_t smi = c->smi;
	size_t i, own_soft;

	if (c->tainted || window_in(a, s, e))
		return ATTRIB_UNKNOWN;
	attrib_sums_reset(sm);
	own_soft = own_softirq(a, c, e);
	for (i = c->next; i < a->end; i++) {
		const struct attrib_event *ev = rec(a, i);
		bool own;

		if (ev->ts >= e && !after && (ev->flags & ATTRIB_F_SMI))
			after = ev;
		if (ev->kind == ATTRIB_NMI) {
			nmi(sm, c, ev, s, e, &t);
			continue;
		}
		if (ev->ts >= e)
			break;
		charge(sm, c, t, ev->ts);
		t = ev->ts;
		/* The first local timer entering from start on is the measured one. */
		own = !own_seen && ev->kind == ATTRIB_VEC_ENTRY && ev->id == ATTRIB_VEC_LOC;
		own_seen |= own;
		own |= i == own_soft;
		if (attrib_ctx_step(c, ev, own, NULL) && !own) {
			if (ev->kind == ATTRIB_SOFTIRQ_ENTRY)
				sm->softirq_cnt++;
			else
				sm->irq_cnt++;
		}
	}
	charge(sm, c, t, e);
	/* Any later reading bounds the end from above. */
	for (; !after && i < a->end; i++)
		if (rec(a, i)->ts >= e && (rec(a, i)->flags & ATTRIB_F_SMI))
			after = rec(a, i);
	/* The measuring task: current at the interval's last ns. */
	if (attrib_sums_row(sm, c->pid, row, &comm))
		return ATTRIB_UNKNOWN;
	row->smi_cnt = smi_between(a, smi_ok, smi, after);
	if (comm && thread_put(a, row->cause_id, comm))
		return ATTRIB_UNKNOWN;
	return ATTRIB_OK;
}

enum attrib_status attrib_acct_explain(struct attrib_acct *a, uint64_t start,
				       int64_t latency, struct attrib_row *row)
{
	uint64_t e, ready = a->complete > a->last_ts ? a->complete : a->last_ts;
	struct attrib_ctx c;

	if (latency < 0 || start >= TS_LIMIT)
		return ATTRIB_UNKNOWN;
	e = start + (uint64_t)latency;
	if (start < a->base.t)
		return ATTRIB_GONE;
	if (e > ready)
		return ATTRIB_PENDING;
	if (start < a->cur.t)
		a->cur = a->base;
	advance(a, &a->cur, start, NULL);
	c = a->cur;
	return walk(a, &c, start, e, row);
}

bool attrib_acct_seen(const struct attrib_acct *a, uint64_t t)
{
	return a->end > a->first && rec(a, a->end - 1)->ts >= t;
}

const struct attrib_acct_stats *attrib_acct_stats(const struct attrib_acct *a)
{
	return &a->st;
}

const struct attrib_thread *attrib_acct_threads(struct attrib_acct *a, size_t *n)
{
	struct attrib_thread *l;

	*n = 0;
	if (!a->threads.n)
		return NULL;
	l = realloc(a->tlist, a->threads.n * sizeof(*l));
	if (!l)
		return NULL;
	a->tlist = l;
	for (size_t i = 0; i < a->threads.n; i++) {
		l[i].pid = (uint32_t)a->threads.ent[i].key;
		memcpy(l[i].comm, a->threads.ent[i].comm, sizeof(l[i].comm));
	}
	*n = a->threads.n;
	return l;
}
