/* SPDX-License-Identifier: MIT */
/* Classification of sampled IPs against the workload's layout. */
#include "config.h"

#include "skid_layout.h"

const char *const skid_where_names[SKID_WHERE_N] = {
	[SKID_HIT] = "hit",
	[SKID_RUNWAY] = "runway",
	[SKID_LOOP] = "loop",
	[SKID_OUTSIDE] = "outside",
};

static uint64_t sum(const uint8_t *len, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += len[i];
	return s;
}

uint64_t skid_layout_load_ip(const struct skid_layout *l)
{
	return l->base + sum(l->head_len, l->head_n);
}

uint64_t skid_layout_len(const struct skid_layout *l)
{
	return sum(l->head_len, l->head_n) + l->load_len + l->runway +
	       sum(l->tail_len, l->tail_n);
}

/* Index of the instruction starting at `off` in len[], or -1. */
static int64_t find_start(const uint8_t *len, size_t n, uint64_t off)
{
	uint64_t at = 0;

	for (size_t i = 0; i < n; i++) {
		if (at == off)
			return (int64_t)i;
		at += len[i];
	}
	return -1;
}

struct skid_place skid_classify(const struct skid_layout *l, uint64_t ip)
{
	struct skid_place p = { SKID_LOOP, -1, -1 };
	uint64_t load = skid_layout_load_ip(l), after = load + l->load_len;
	uint64_t tail = after + l->runway;
	int64_t k;

	if (ip < l->base || ip >= l->base + skid_layout_len(l)) {
		p.where = SKID_OUTSIDE;
		return p;
	}
	if (ip < load)
		return p;	/* entry code: not after the load */
	if (ip == load) {
		p.where = SKID_HIT;
		p.skid = p.bytes = 0;
		return p;
	}
	if (ip < after)
		return p;	/* inside the load: no instruction starts here */
	p.bytes = (int64_t)(ip - load);
	if (ip < tail) {
		p.where = SKID_RUNWAY;
		p.skid = (int64_t)(ip - after) + 1;
		return p;
	}
	k = find_start(l->tail_len, l->tail_n, ip - tail);
	if (k < 0) {
		p.bytes = -1;
		return p;
	}
	p.skid = (int64_t)l->runway + 1 + k;
	return p;
}
