/* SPDX-License-Identifier: MIT */
/*
 * Reading a perf_event mmap ring buffer directly (no perf tool): records
 * between tail and head, one at a time, a record split by the end of the
 * ring put together again, a record not yet completely written left for
 * the next call. Pure: works on any memory laid out like the kernel's
 * ring, so the unit tests feed it synthetic streams.
 */
#ifndef SKID_RING_H
#define SKID_RING_H

#include <stddef.h>
#include <stdint.h>

/* What the parser hands on, per record kind it knows. */
struct skid_ring_ops {
	/*
	 * PERF_RECORD_SAMPLE with PERF_SAMPLE_IP | PERF_SAMPLE_TIME. Returns
	 * 0 when it took the sample; non-zero (no room) leaves the sample
	 * and everything after it in the ring for the next call.
	 */
	int (*sample)(void *arg, uint64_t ip, uint64_t time);
	/* PERF_RECORD_LOST: the kernel dropped `lost` samples. */
	void (*lost)(void *arg, uint64_t lost);
	/* PERF_RECORD_THROTTLE (on = 1) and UNTHROTTLE (on = 0). */
	void (*throttle)(void *arg, int on, uint64_t time);
};

struct skid_ring_stats {
	uint64_t records;	/* every record consumed */
	uint64_t other;		/* records of kinds not handled above */
	uint64_t bad;		/* records too short for their kind */
};

/*
 * Consume the complete records in data[tail .. head) (positions modulo
 * size, a power of two) and return the new tail. A record whose header
 * says it is longer than what head allows is left for later; a header
 * size below 8 bytes (corrupt ring) consumes everything up to head and
 * counts one bad record, so the reader never loops.
 */
uint64_t skid_ring_parse(const unsigned char *data, uint64_t size,
			 uint64_t tail, uint64_t head,
			 const struct skid_ring_ops *ops, void *arg,
			 struct skid_ring_stats *st);

#endif
