/* SPDX-License-Identifier: MIT */
/*
 * The workload's code, generated at run time into an executable mapping
 * so that every byte's place is known exactly (a C loop at -O0 gives no
 * such promise): one load from the buffer, a runway of one-byte NOPs, and
 * the loop's arithmetic. x86-64 only.
 *
 *   uint64_t fn(const void *buf, uint64_t stride, uint64_t size,
 *               uint64_t iterations, uint64_t offset)
 *
 * loads buf[offset], runs the runway, advances offset by stride (back to
 * 0 at size), `iterations` times (>= 1), and returns the next offset.
 */
#ifndef SKID_CODE_H
#define SKID_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "skid_layout.h"

typedef uint64_t (*skid_fn)(const void *buf, uint64_t stride, uint64_t size,
			    uint64_t iterations, uint64_t offset);

struct skid_code {
	void *map;
	size_t map_len;
	skid_fn fn;
	struct skid_layout layout;
};

/* 0, or a negative errno with why in err (-ENOTSUP: not x86-64). */
int skid_code_build(struct skid_code *c, uint64_t runway, char *err,
		    size_t errlen);
void skid_code_free(struct skid_code *c);

#endif
