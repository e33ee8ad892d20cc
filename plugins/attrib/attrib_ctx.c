/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "attrib_ctx.h"

void attrib_ctx_init(struct attrib_ctx *c)
{
	memset(c, 0, sizeof(*c));
	/* Whatever ran when tracing began is unknown until a switch. */
	c->tainted = true;
}

void attrib_ctx_taint(struct attrib_ctx *c, uint64_t to)
{
	if (!c->tainted || to > c->taint_to)
		c->taint_to = to;
	c->tainted = true;
}

/* Close the frames from depth d up: their exits never came. */
static void pop_to(struct attrib_ctx *c, uint32_t d, struct attrib_acct_stats *st)
{
	if (st)
		st->unclosed += c->depth - d;
	c->depth = d;
}

/* The frame of kind/id nearest the top, or -1. */
static int find(const struct attrib_ctx *c, uint32_t kind, uint32_t id)
{
	for (int i = (int)c->depth - 1; i >= 0; i--)
		if (c->stack[i].kind == kind && c->stack[i].id == id)
			return i;
	return -1;
}

static bool push(struct attrib_ctx *c, const struct attrib_event *ev, bool own,
		 struct attrib_acct_stats *st)
{
	if (c->depth == ATTRIB_MAX_DEPTH) {
		if (st)
			st->too_deep++;
		return false;
	}
	c->stack[c->depth++] = (struct attrib_frame){
		.kind = ev->kind, .id = ev->id, .own = own,
	};
	return true;
}

static bool enter(struct attrib_ctx *c, const struct attrib_event *ev, bool own,
		  struct attrib_acct_stats *st)
{
	int i;

	if (ev->kind == ATTRIB_SOFTIRQ_ENTRY) {
		/* Softirqs run only with no handler running, never nested. */
		pop_to(c, 0, st);
	} else {
		/* A handler does not re-enter itself: its exit was lost. */
		i = find(c, ev->kind, ev->id);
		if (i >= 0)
			pop_to(c, (uint32_t)i, st);
	}
	return push(c, ev, own, st);
}

static void leave(struct attrib_ctx *c, const struct attrib_event *ev,
		  struct attrib_acct_stats *st)
{
	/* Each exit kind follows its entry kind in enum attrib_kind. */
	int i = find(c, ev->kind - 1, ev->id);

	if (i < 0) {
		if (st)
			st->unmatched_exits++;
		return;
	}
	/* Frames above it never exited. */
	pop_to(c, (uint32_t)i + 1, st);
	c->depth = (uint32_t)i;
}

static void task_switch(struct attrib_ctx *c, const struct attrib_event *ev,
			struct attrib_acct_stats *st)
{
	/* Tasks switch with no handler running. */
	pop_to(c, 0, st);
	c->pid = ev->id;
	memcpy(c->comm, ev->comm, sizeof(c->comm));
	if (c->tainted && ev->ts > c->taint_to)
		c->tainted = false;
}

bool attrib_ctx_step(struct attrib_ctx *c, const struct attrib_event *ev, bool own,
		     struct attrib_acct_stats *st)
{
	switch (ev->kind) {
	case ATTRIB_IRQ_ENTRY:
	case ATTRIB_VEC_ENTRY:
	case ATTRIB_SOFTIRQ_ENTRY:
		return enter(c, ev, own, st);
	case ATTRIB_IRQ_EXIT:
	case ATTRIB_VEC_EXIT:
	case ATTRIB_SOFTIRQ_EXIT:
		leave(c, ev, st);
		return false;
	case ATTRIB_SWITCH:
		task_switch(c, ev, st);
		return false;
	default:
		return false;
	}
}
