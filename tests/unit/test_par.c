/* SPDX-License-Identifier: MIT */
/*
 * lib/par: parts go out in order whatever each costs, never more than
 * `slots` in flight, one emit at a time; part k's error ends the run after
 * the parts before it, with k's error even when a later part failed
 * first; a stop flag and a cut end it with a prefix of the parts; a
 * shared input is taken in order; one thread runs on the caller's.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "par/par.h"
#include "testutil.h"

#define MAXPARTS 4096

struct t {
	struct wfw_par p;
	unsigned max_us;		/* a part's work sleeps up to this */
	uint64_t fail_part[2];		/* work of these fails (UINT64_MAX: none) */
	int fail_ret[2];
	unsigned fail_delay_us[2];	/* after sleeping this long */
	uint64_t stop_part, cut_part, emit_fail_part, take_end, take_fail;
	volatile sig_atomic_t stop;
	/* what happened */
	uint64_t order[MAXPARTS];	/* parts in the order emitted */
	uint64_t nemit;			/* emits finished (atomic) */
	int in_emit;			/* emits running now (atomic) */
	int in_take;
	uint64_t last_take;		/* + 1 */
	int held;			/* parts worked on, not yet emitted */
	int max_held;
	uint64_t worked_max;		/* the highest part worked on + 1 */
	uint64_t *slot_part;		/* per slot: its part + 1, 0: free */
	bool bad_slot, bad_order, bad_bound, concurrent, other_thread;
	pthread_t caller;
	/* parking: part 0 waits until parts 1 .. 3 are worked on */
	bool park_test;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned worked_early;
};

static void sleep_us(unsigned us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A cost of its own per part, the same every run. */
static unsigned part_cost(const struct t *t, uint64_t k)
{
	uint64_t x = (k + 1) * 0x9e3779b97f4a7c15ull;

	x ^= x >> 29;
	return t->max_us ? (unsigned)(x % t->max_us) : 0;
}

static void note_held(struct t *t, int d)
{
	int h = __atomic_add_fetch(&t->held, d, __ATOMIC_SEQ_CST);
	int m = __atomic_load_n(&t->max_held, __ATOMIC_SEQ_CST);

	while (h > m && !__atomic_compare_exchange_n(&t->max_held, &m, h, false,
						     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

static void check_slot(struct t *t, unsigned slot, uint64_t k)
{
	uint64_t free_ = 0;

	if (slot != k % (t->p.slots ? t->p.slots : t->p.threads) ||
	    !__atomic_compare_exchange_n(&t->slot_part[slot], &free_, k + 1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		t->bad_slot = true;
	/* claimed only once the part `slots` before it went out */
	if (k >= __atomic_load_n(&t->nemit, __ATOMIC_SEQ_CST) +
		 (t->p.slots ? t->p.slots : t->p.threads))
		t->bad_bound = true;
	if (!pthread_equal(pthread_self(), t->caller) && t->p.threads == 1)
		t->other_thread = true;
}

static long op_take(void *ctx, unsigned slot, uint64_t k)
{
	struct t *t = ctx;

	if (__atomic_add_fetch(&t->in_take, 1, __ATOMIC_SEQ_CST) != 1)
		t->concurrent = true;
	if (k != t->last_take)
		t->bad_order = true;
	t->last_take = k + 1;
	__atomic_sub_fetch(&t->in_take, 1, __ATOMIC_SEQ_CST);
	if (k == t->take_fail)
		return -ENOSPC;
	return k < t->take_end ? 1 : 0;
}

/* Part 0 of the parking test: until parts 1..3 are worked on (20 s at most). */
static void wait_parked(struct t *t)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 20;
	pthread_mutex_lock(&t->mu);
	while (t->worked_early < 3 &&
	       pthread_cond_timedwait(&t->cv, &t->mu, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&t->mu);
}

static int op_work(void *ctx, unsigned slot, uint64_t k)
{
	struct t *t = ctx;
	uint64_t m = __atomic_load_n(&t->worked_max, __ATOMIC_SEQ_CST);

	check_slot(t, slot, k);
	note_held(t, 1);
	while (k + 1 > m && !__atomic_compare_exchange_n(&t->worked_max, &m, k + 1, false,
							 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	if (t->park_test && k == 0)
		wait_parked(t);
	if (t->park_test && k >= 1 && k <= 3) {
		pthread_mutex_lock(&t->mu);
		t->worked_early++;
		pthread_cond_broadcast(&t->cv);
		pthread_mutex_unlock(&t->mu);
	}
	for (int i = 0; i < 2; i++)
		if (k == t->fail_part[i]) {
			sleep_us(t->fail_delay_us[i]);
			note_held(t, -1);
			__atomic_store_n(&t->slot_part[slot], 0, __ATOMIC_SEQ_CST);
			return t->fail_ret[i];
		}
	if (k == t->stop_part)
		__atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
	sleep_us(part_cost(t, k));
	return 0;
}

static int op_emit(void *ctx, unsigned slot, uint64_t k)
{
	struct t *t = ctx;
	uint64_t n = __atomic_load_n(&t->nemit, __ATOMIC_SEQ_CST);
	int ret = 0;

	if (__atomic_add_fetch(&t->in_emit, 1, __ATOMIC_SEQ_CST) != 1)
		t->concurrent = true;
	if (n < MAXPARTS)
		t->order[n] = k;
	if (k != n || __atomic_load_n(&t->slot_part[slot], __ATOMIC_SEQ_CST) != k + 1)
		t->bad_order = true;
	if (k == t->emit_fail_part)
		ret = -EPIPE;
	else if (k == t->cut_part)
		ret = WFW_PAR_CUT;
	note_held(t, -1);
	__atomic_store_n(&t->slot_part[slot], 0, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&t->in_emit, 1, __ATOMIC_SEQ_CST);
	if (!ret || ret == WFW_PAR_CUT)
		__atomic_add_fetch(&t->nemit, 1, __ATOMIC_SEQ_CST);
	return ret;
}

static const struct wfw_par_ops ops = { .work = op_work, .emit = op_emit };
static const struct wfw_par_ops take_ops = { .take = op_take, .work = op_work,
					     .emit = op_emit };

static struct t *t_new(uint64_t nparts, unsigned threads, unsigned slots)
{
	struct t *t = calloc(1, sizeof(*t));

	t->p = (struct wfw_par){ .ops = &ops, .ctx = t, .nparts = nparts,
				 .threads = threads, .slots = slots, .stop = &t->stop };
	t->fail_part[0] = t->fail_part[1] = UINT64_MAX;
	t->stop_part = t->cut_part = t->emit_fail_part = t->take_fail = UINT64_MAX;
	t->take_end = UINT64_MAX;
	t->slot_part = calloc(slots ? slots : threads, sizeof(*t->slot_part));
	t->caller = pthread_self();
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	return t;
}

static void t_free(struct t *t)
{
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t->slot_part);
	free(t);
}

/* The parts emitted were 0 .. n - 1, in order, one at a time, each in its slot. */
static void check_prefix(const struct t *t, uint64_t n)
{
	CU_ASSERT_EQUAL(t->p.emitted, n);
	CU_ASSERT_EQUAL(t->nemit, n);
	for (uint64_t i = 0; i < n && i < MAXPARTS; i++)
		if (t->order[i] != i) {
			CU_FAIL("a part out of order");
			break;
		}
	CU_ASSERT(!t->bad_order);
	CU_ASSERT(!t->bad_slot);
	CU_ASSERT(!t->bad_bound);
	CU_ASSERT(!t->concurrent);
}

static void test_order(void)
{
	static const unsigned cfg[][3] = {	/* parts, threads, slots */
		{ 300, 1, 1 }, { 600, 2, 0 }, { 1500, 3, 8 }, { 900, 8, 3 },
		{ 1200, 4, 64 }, { 2, 8, 16 }, { 0, 4, 4 },
	};

	for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		struct t *t = t_new(cfg[i][0], cfg[i][1], cfg[i][2]);
		unsigned slots = cfg[i][2] ? cfg[i][2] : cfg[i][1];

		t->max_us = 300;
		CU_ASSERT_EQUAL(wfw_par_run(&t->p), 0);
		check_prefix(t, cfg[i][0]);
		CU_ASSERT(t->max_held <= (int)slots);
		CU_ASSERT(!t->p.stopped && !t->p.cut);
		CU_ASSERT_EQUAL(t->p.failed, UINT64_MAX);
		CU_ASSERT(!t->other_thread);
		t_free(t);
	}
}

/* Part 137 fails at once while the parts before it still work. */
static void test_error_stops_later_parts(void)
{
	struct t *t = t_new(2000, 4, 6);

	t->max_us = 500;
	t->fail_part[0] = 137;
	t->fail_ret[0] = -EIO;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), -EIO);
	CU_ASSERT_EQUAL(t->p.failed, 137);
	check_prefix(t, 137);
	CU_ASSERT(t->worked_max <= 137 + 6);	/* none claimed past the bound */
	t_free(t);
}

/* Two parts fail, the later one first: the earlier one's error is said. */
static void test_first_error_in_order(void)
{
	struct t *t = t_new(1000, 4, 256);

	t->fail_part[0] = 140;
	t->fail_ret[0] = -EIO;
	t->fail_part[1] = 137;
	t->fail_ret[1] = -EINVAL;
	t->fail_delay_us[1] = 20000;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), -EINVAL);
	CU_ASSERT_EQUAL(t->p.failed, 137);
	check_prefix(t, 137);
	t_free(t);
}

static void test_emit_error(void)
{
	struct t *t = t_new(500, 3, 5);

	t->emit_fail_part = 20;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), -EPIPE);
	CU_ASSERT_EQUAL(t->p.emitted, 20);
	CU_ASSERT_EQUAL(t->p.failed, 20);
	CU_ASSERT(t->worked_max <= 21 + 5);
	t_free(t);
}

/* A stop flag set while part 50 is worked on: no part taken after it. */
static void test_stop(void)
{
	struct t *t = t_new(1000, 3, 4);

	t->max_us = 200;
	t->stop_part = 50;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), 0);
	CU_ASSERT(t->p.stopped);
	CU_ASSERT(t->p.emitted > 50 && t->p.emitted <= 50 + 4);
	check_prefix(t, t->p.emitted);
	CU_ASSERT_EQUAL(t->worked_max, t->p.emitted);	/* taken: went out */
	t_free(t);
}

static void test_cut(void)
{
	struct t *t = t_new(1000, 3, 4);

	t->cut_part = 77;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), 0);
	CU_ASSERT(t->p.cut && !t->p.stopped);
	check_prefix(t, 78);
	t_free(t);
}

/* A shared input: taken one part at a time, in order, until it ends. */
static void test_take(void)
{
	struct t *t = t_new(UINT64_MAX, 3, 5);

	t->p.ops = &take_ops;
	t->max_us = 200;
	t->take_end = 333;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), 0);
	check_prefix(t, 333);
	CU_ASSERT_EQUAL(t->last_take, 334);	/* 333 said "no more" */
	t_free(t);

	t = t_new(UINT64_MAX, 2, 2);
	t->p.ops = &take_ops;
	t->take_fail = 50;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), -ENOSPC);
	CU_ASSERT_EQUAL(t->p.failed, 50);
	check_prefix(t, 50);
	t_free(t);
}

/* Parts wait parked for their turn while their threads go on. */
static void test_parking(void)
{
	struct t *t = t_new(40, 2, 4);

	t->park_test = true;
	CU_ASSERT_EQUAL(wfw_par_run(&t->p), 0);
	check_prefix(t, 40);
	CU_ASSERT_EQUAL(t->worked_early, 3);
	CU_ASSERT(t->max_held <= 4);
	t_free(t);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry())
		return CU_get_error();
	s = CU_add_suite("par", NULL, NULL);
	CU_add_test(s, "order kept whatever parts cost", test_order);
	CU_add_test(s, "an error in part k stops later parts", test_error_stops_later_parts);
	CU_add_test(s, "the first failed part's error", test_first_error_in_order);
	CU_add_test(s, "an emit's error", test_emit_error);
	CU_add_test(s, "stop flag: taken parts go out", test_stop);
	CU_add_test(s, "cut by emit", test_cut);
	CU_add_test(s, "shared input taken in order", test_take);
	CU_add_test(s, "parts parked within the slots", test_parking);
	return tu_run();
}
