/* SPDX-License-Identifier: MIT */
/*
 * skid source units: IP classification against hand-built layouts, and
 * the perf ring parser against synthetic streams laid out as the kernel
 * writes them (wrap-around, partial records, LOST, THROTTLE/UNTHROTTLE,
 * a full batch).
 */
#include "config.h"

#include <CUnit/CUnit.h>
#include <linux/perf_event.h>
#include <string.h>

#include "skid_layout.h"
#include "skid_ring.h"
#include "testutil.h"

/* head: mov (3); load 5 bytes; runway 100; tail add 3, cmp 3, jb 2. */
static struct skid_layout layout(void)
{
	struct skid_layout l = {
		.base = 0x10000, .head_n = 1, .head_len = { 3 },
		.load_len = 5, .runway = 100, .tail_n = 3,
		.tail_len = { 3, 3, 2 },
	};
	return l;
}

static void test_classify(void)
{
	struct skid_layout l = layout();
	uint64_t load = 0x10003;
	struct skid_place p;

	CU_ASSERT_EQUAL(skid_layout_load_ip(&l), load);
	CU_ASSERT_EQUAL(skid_layout_len(&l), 3 + 5 + 100 + 8);
	p = skid_classify(&l, load);
	CU_ASSERT_EQUAL(p.where, SKID_HIT);
	CU_ASSERT_EQUAL(p.skid, 0);
	CU_ASSERT_EQUAL(p.bytes, 0);
	p = skid_classify(&l, load + 5);	/* first NOP: a breakpoint's IP */
	CU_ASSERT_EQUAL(p.where, SKID_RUNWAY);
	CU_ASSERT_EQUAL(p.skid, 1);
	CU_ASSERT_EQUAL(p.bytes, 5);
	p = skid_classify(&l, load + 5 + 99);	/* last NOP */
	CU_ASSERT_EQUAL(p.where, SKID_RUNWAY);
	CU_ASSERT_EQUAL(p.skid, 100);
	p = skid_classify(&l, load + 105);	/* add: first of the tail */
	CU_ASSERT_EQUAL(p.where, SKID_LOOP);
	CU_ASSERT_EQUAL(p.skid, 101);
	CU_ASSERT_EQUAL(p.bytes, 105);
	p = skid_classify(&l, load + 111);	/* jb: third of the tail */
	CU_ASSERT_EQUAL(p.where, SKID_LOOP);
	CU_ASSERT_EQUAL(p.skid, 103);
}

static void test_classify_no_skid(void)
{
	struct skid_layout l = layout();
	struct skid_place p;

	p = skid_classify(&l, 0x10000);		/* entry: before the load */
	CU_ASSERT_EQUAL(p.where, SKID_LOOP);
	CU_ASSERT_EQUAL(p.skid, -1);
	p = skid_classify(&l, 0x10004);		/* inside the load */
	CU_ASSERT_EQUAL(p.where, SKID_LOOP);
	CU_ASSERT_EQUAL(p.skid, -1);
	CU_ASSERT_EQUAL(p.bytes, -1);
	p = skid_classify(&l, 0x10003 + 106);	/* inside the add */
	CU_ASSERT_EQUAL(p.where, SKID_LOOP);
	CU_ASSERT_EQUAL(p.skid, -1);
	CU_ASSERT_EQUAL(p.bytes, -1);
	p = skid_classify(&l, 0x10000 + 116);	/* one past the end */
	CU_ASSERT_EQUAL(p.where, SKID_OUTSIDE);
	p = skid_classify(&l, 0xffff);
	CU_ASSERT_EQUAL(p.where, SKID_OUTSIDE);
	CU_ASSERT_EQUAL(p.skid, -1);
}

/* ---- the ring parser ---- */

#define RING 256	/* bytes: small, so streams wrap */

struct rec_log {
	uint64_t ip[64], time[64];
	size_t n, room;
	uint64_t lost;
	int throttle[8];
	uint64_t ttime[8];
	size_t nthr;
};

static int on_sample(void *arg, uint64_t ip, uint64_t time)
{
	struct rec_log *r = arg;

	if (r->n >= r->room)
		return 1;
	r->ip[r->n] = ip;
	r->time[r->n++] = time;
	return 0;
}

static void on_lost(void *arg, uint64_t lost)
{
	((struct rec_log *)arg)->lost += lost;
}

static void on_throttle(void *arg, int on, uint64_t time)
{
	struct rec_log *r = arg;

	r->throttle[r->nthr] = on;
	r->ttime[r->nthr++] = time;
}

static const struct skid_ring_ops ops = { on_sample, on_lost, on_throttle };

/* Write a record of `words` 64-bit words at ring position *pos. */
static void put(unsigned char *ring, uint64_t *pos, uint32_t type,
		const uint64_t *w, size_t words)
{
	struct perf_event_header h = { type, 0,
		(uint16_t)(sizeof(h) + 8 * words) };
	unsigned char rec[128];

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), w, 8 * words);
	for (size_t i = 0; i < h.size; i++)
		ring[(*pos + i) % RING] = rec[i];
	*pos += h.size;
}

static void sample(unsigned char *ring, uint64_t *pos, uint64_t ip,
		   uint64_t t)
{
	uint64_t w[2] = { ip, t };

	put(ring, pos, PERF_RECORD_SAMPLE, w, 2);
}

static void test_ring_wrap(void)
{
	unsigned char ring[RING];
	struct rec_log r = { .room = 64 };
	struct skid_ring_stats st = { 0 };
	uint64_t tail = 244, pos = tail;	/* 12 bytes before the end */

	sample(ring, &pos, 0x1111, 10);	/* the ip word split by the end */
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, 268);
	pos = tail = 508;		/* next lap, 4 bytes before the end */
	sample(ring, &pos, 0x2222, 20);	/* the header split by the end */
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, pos);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_EQUAL(r.ip[0], 0x1111);
	CU_ASSERT_EQUAL(r.time[0], 10);
	CU_ASSERT_EQUAL(r.ip[1], 0x2222);
	CU_ASSERT_EQUAL(r.time[1], 20);
	CU_ASSERT_EQUAL(st.records, 2);
	/* Positions keep counting past the size, as the kernel's do. */
	CU_ASSERT(tail > RING);
}

static void test_ring_partial(void)
{
	unsigned char ring[RING];
	struct rec_log r = { .room = 64 };
	struct skid_ring_stats st = { 0 };
	uint64_t tail = 0, pos = 0;

	sample(ring, &pos, 0xa, 1);
	sample(ring, &pos, 0xb, 2);
	/* head in the middle of the second record: it waits. */
	tail = skid_ring_parse(ring, RING, tail, pos - 5, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, 24);
	CU_ASSERT_EQUAL(r.n, 1);
	/* head inside the second header: still waits. */
	tail = skid_ring_parse(ring, RING, tail, tail + 4, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, 24);
	CU_ASSERT_EQUAL(r.n, 1);
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, pos);
	CU_ASSERT_EQUAL_FATAL(r.n, 2);
	CU_ASSERT_EQUAL(r.ip[1], 0xb);
}

static void test_ring_lost_throttle(void)
{
	unsigned char ring[RING];
	struct rec_log r = { .room = 64 };
	struct skid_ring_stats st = { 0 };
	uint64_t lost[2] = { 7, 1234 }, thr[3] = { 500, 7, 7 };
	uint64_t unthr[3] = { 900, 7, 7 }, comm[2] = { 1, 2 };
	uint64_t tail = 200, pos = tail;

	sample(ring, &pos, 0xa, 1);
	put(ring, &pos, PERF_RECORD_LOST, lost, 2);
	put(ring, &pos, PERF_RECORD_THROTTLE, thr, 3);
	put(ring, &pos, PERF_RECORD_UNTHROTTLE, unthr, 3);
	put(ring, &pos, PERF_RECORD_COMM, comm, 2);	/* not ours: skipped */
	sample(ring, &pos, 0xb, 2);
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, pos);
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.lost, 1234);
	CU_ASSERT_EQUAL_FATAL(r.nthr, 2);
	CU_ASSERT_EQUAL(r.throttle[0], 1);
	CU_ASSERT_EQUAL(r.ttime[0], 500);
	CU_ASSERT_EQUAL(r.throttle[1], 0);
	CU_ASSERT_EQUAL(r.ttime[1], 900);
	CU_ASSERT_EQUAL(st.records, 6);
	CU_ASSERT_EQUAL(st.other, 1);
}

static void test_ring_full_batch(void)
{
	unsigned char ring[RING];
	struct rec_log r = { .room = 1 };
	struct skid_ring_stats st = { 0 };
	uint64_t tail = 0, pos = 0;

	sample(ring, &pos, 0xa, 1);
	sample(ring, &pos, 0xb, 2);
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, 24);	/* the second stays in the ring */
	CU_ASSERT_EQUAL(r.n, 1);
	r.room = 2;
	tail = skid_ring_parse(ring, RING, tail, pos, &ops, &r, &st);
	CU_ASSERT_EQUAL(tail, pos);
	CU_ASSERT_EQUAL(r.ip[1], 0xb);
}

static void test_ring_corrupt(void)
{
	unsigned char ring[RING] = { 0 };
	struct rec_log r = { .room = 64 };
	struct skid_ring_stats st = { 0 };

	/* A zero-size header would loop forever: everything is consumed. */
	CU_ASSERT_EQUAL(skid_ring_parse(ring, RING, 0, 64, &ops, &r, &st), 64);
	CU_ASSERT_EQUAL(st.bad, 1);
	CU_ASSERT_EQUAL(r.n, 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("skid", NULL, NULL);
	CU_add_test(s, "classify hit, runway, loop tail", test_classify);
	CU_add_test(s, "classify where skid means nothing", test_classify_no_skid);
	CU_add_test(s, "ring: records across the end", test_ring_wrap);
	CU_add_test(s, "ring: partial records wait", test_ring_partial);
	CU_add_test(s, "ring: LOST and THROTTLE records", test_ring_lost_throttle);
	CU_add_test(s, "ring: full batch leaves the sample", test_ring_full_batch);
	CU_add_test(s, "ring: corrupt header", test_ring_corrupt);
	return tu_run();
}
