/* SPDX-License-Identifier: MIT */
/* One sampling perf event and its mmap ring buffer, read directly. */
#ifndef SKID_PERF_H
#define SKID_PERF_H

#include <stdint.h>

#include <linux/perf_event.h>

#include "skid_ring.h"

/* Data pages of the ring (a power of two): 256 KiB of 4 KiB pages. */
#define SKID_RING_PAGES 64

struct skid_perf {
	int fd;
	void *map;
	size_t map_len;
	uint64_t data_size;
	struct skid_ring_stats st;
};

/* Open `a` on thread `tid` and map its ring; 0 or -errno. */
int skid_perf_open(struct skid_perf *p, struct perf_event_attr *a, int tid);
int skid_perf_enable(struct skid_perf *p, int on);
/* Wait up to timeout_ns for data; 1 ready, 0 none, -errno. */
int skid_perf_wait(struct skid_perf *p, uint64_t timeout_ns);
/* Parse what is in the ring; the ring's tail moves past what was used. */
void skid_perf_read(struct skid_perf *p, const struct skid_ring_ops *ops,
		    void *arg);
void skid_perf_close(struct skid_perf *p);

#endif
