/* SPDX-License-Identifier: MIT */
/* perf_event ring buffer records: see skid_ring.h. */
#include "config.h"

#include <linux/perf_event.h>
#include <string.h>

#include "skid_ring.h"

/* The longest record we need whole: a sample of ip + time, or LOST. */
#define SKID_REC_MAX 64

/* Copy len bytes at ring position pos, across the end of the ring. */
static void ring_copy(void *dst, const unsigned char *data, uint64_t size,
		      uint64_t pos, size_t len)
{
	uint64_t off = pos & (size - 1);
	size_t first = size - off < len ? (size_t)(size - off) : len;

	memcpy(dst, data + off, first);
	memcpy((unsigned char *)dst + first, data, len - first);
}

static uint64_t word(const unsigned char *rec, size_t idx)
{
	uint64_t v;

	memcpy(&v, rec + sizeof(struct perf_event_header) + idx * 8, 8);
	return v;
}

/*
 * One whole record of `len` bytes (header included) in rec; non-zero when
 * the sample callback had no room for it.
 */
static int dispatch(const unsigned char *rec, size_t len, unsigned type,
		     const struct skid_ring_ops *ops, void *arg,
		     struct skid_ring_stats *st)
{
	size_t words = (len - sizeof(struct perf_event_header)) / 8;

	switch (type) {
	case PERF_RECORD_SAMPLE:	/* ip, time */
		if (words < 2)
			break;
		return ops->sample(arg, word(rec, 0), word(rec, 1));
	case PERF_RECORD_LOST:		/* id, lost */
		if (words < 2)
			break;
		ops->lost(arg, word(rec, 1));
		return 0;
	case PERF_RECORD_THROTTLE:	/* time, id, stream_id */
	case PERF_RECORD_UNTHROTTLE:
		if (words < 1)
			break;
		ops->throttle(arg, type == PERF_RECORD_THROTTLE, word(rec, 0));
		return 0;
	default:
		st->other++;
		return 0;
	}
	st->bad++;
	return 0;
}

uint64_t skid_ring_parse(const unsigned char *data, uint64_t size,
			 uint64_t tail, uint64_t head,
			 const struct skid_ring_ops *ops, void *arg,
			 struct skid_ring_stats *st)
{
	unsigned char rec[SKID_REC_MAX];
	struct perf_event_header h;

	while (head - tail >= sizeof(h)) {
		ring_copy(&h, data, size, tail, sizeof(h));
		if (h.size < sizeof(h)) {
			st->bad++;
			return head;
		}
		if (head - tail < h.size)
			break;		/* partly written: next time */
		if (h.size <= sizeof(rec)) {
			ring_copy(rec, data, size, tail, h.size);
			if (dispatch(rec, h.size, h.type, ops, arg, st))
				break;	/* no room: this record next time */
		} else {
			st->other++;	/* no kind we read is this long */
		}
		st->records++;
		tail += h.size;
	}
	return tail;
}
