/* SPDX-License-Identifier: MIT */
/*
 * Where an instruction pointer lies in the workload: the generated code's
 * layout (skid_code.c writes it) and the classification of sampled IPs.
 * Pure, so the unit tests build layouts by hand.
 */
#ifndef SKID_LAYOUT_H
#define SKID_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define SKID_TAIL_MAX 8

/*
 * The code, in layout order: `head` bytes of entry instructions (one
 * instruction each of head_len[]), the load (load_len bytes), `runway`
 * one-byte NOPs, the loop's tail instructions (tail_len[]).
 */
struct skid_layout {
	uint64_t base;		/* address of the first byte */
	size_t head_n, tail_n;
	uint8_t head_len[SKID_TAIL_MAX], tail_len[SKID_TAIL_MAX];
	uint8_t load_len;
	uint64_t runway;	/* NOPs after the load */
};

/* Values of the Where column, in enum_names order. */
enum skid_where {
	SKID_HIT,		/* on the load itself */
	SKID_RUNWAY,		/* on a NOP of the runway */
	SKID_LOOP,		/* another instruction of the workload */
	SKID_OUTSIDE,		/* not in the workload's code */
	SKID_WHERE_N,
};

extern const char *const skid_where_names[SKID_WHERE_N];

struct skid_place {
	enum skid_where where;
	/*
	 * Instructions after the load in layout order (0: the load; 1: the
	 * first NOP) and bytes after the load's first byte; -1 where that
	 * means nothing: before the load, outside the code, or inside an
	 * instruction (never a sampled IP on a sane machine).
	 */
	int64_t skid, bytes;
};

uint64_t skid_layout_load_ip(const struct skid_layout *l);
uint64_t skid_layout_len(const struct skid_layout *l);

struct skid_place skid_classify(const struct skid_layout *l, uint64_t ip);

#endif
