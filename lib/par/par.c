/* SPDX-License-Identifier: MIT */
/*
 * The engine of par.h. Each thread loops: claim the next part and a free
 * slot for it (part k goes into slot k % slots, so a slot is free once
 * the part `slots` before it went out), take it, work on it, then hand
 * it on for its turn. The thread that finishes the part whose turn it is
 * emits it, and goes on with the parts after it that wait without their
 * thread. A thread whose part must wait goes on with a new part while a
 * slot is free (its part waits "parked"); else it waits and emits its
 * part itself when the turn comes, while its output is still in its
 * cache (a part's text written right after it was made).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "par/par.h"

enum slot_state {
	SLOT_FREE,
	SLOT_BUSY,	/* its part is taken or worked on */
	SLOT_DONE,	/* its part waits for its turn, and its thread with it */
	SLOT_PARKED,	/* its part waits for its turn; its thread went on */
};

struct par_run {
	struct wfw_par *p;
	pthread_mutex_t mu;		/* everything below */
	pthread_cond_t cv;		/* a slot, the turn or the end changed */
	pthread_mutex_t take_mu;	/* one claim and take at a time, in order */
	enum slot_state *slot;		/* per slot */
	unsigned nslots;
	uint64_t next;			/* the next part to claim */
	uint64_t turn;			/* the next part to emit */
	uint64_t end;			/* no part from here on is taken or emitted */
	uint64_t fail_at;		/* the first failed part (UINT64_MAX: none) */
	int fail;			/* its error */
	bool emitting;			/* a thread is emitting */
};

/* Part k failed with ret: it ends the run unless an earlier part did. */
static void fail_part(struct par_run *r, uint64_t k, int ret)
{
	if (k >= r->end)
		return;
	r->end = k;
	r->fail_at = k;
	r->fail = ret;
}

/* The end moves to k (no error): a cut, the input's end, a stop. */
static void end_at(struct par_run *r, uint64_t k)
{
	if (k < r->end)
		r->end = k;
}

static bool stop_set(const struct par_run *r)
{
	/* a signal handler sets it, or another thread */
	return r->p->stop && __atomic_load_n(r->p->stop, __ATOMIC_RELAXED);
}

/* Claim part r->next and its slot once free (mu held). false: none. */
static bool claim(struct par_run *r, unsigned *s, uint64_t *k)
{
	for (;;) {
		*k = r->next;
		if (*k >= r->end)
			return false;
		if (stop_set(r)) {	/* the parts taken still go out */
			r->p->stopped = true;
			end_at(r, *k);
			pthread_cond_broadcast(&r->cv);
			return false;
		}
		*s = (unsigned)(*k % r->nslots);
		if (r->slot[*s] == SLOT_FREE)
			break;
		pthread_cond_wait(&r->cv, &r->mu);
	}
	r->slot[*s] = SLOT_BUSY;
	r->next++;
	return true;
}

/* Slot s free again (mu held). */
static void release(struct par_run *r, unsigned s)
{
	r->slot[s] = SLOT_FREE;
	pthread_cond_broadcast(&r->cv);
}

/*
 * The next part in a slot, taken: > 0; < 0, its take's error (the slot
 * is still claimed); 0: there is none (the input ended, or the run).
 */
static long next_part(struct par_run *r, unsigned *s, uint64_t *k)
{
	const struct wfw_par_ops *ops = r->p->ops;
	long got;

	pthread_mutex_lock(&r->take_mu);
	pthread_mutex_lock(&r->mu);
	got = claim(r, s, k);
	pthread_mutex_unlock(&r->mu);
	if (got && ops->take) {
		got = ops->take(r->p->ctx, *s, *k);
		if (!got) {
			pthread_mutex_lock(&r->mu);
			end_at(r, *k);
			release(r, *s);
			pthread_mutex_unlock(&r->mu);
		}
	}
	pthread_mutex_unlock(&r->take_mu);
	return got;
}

/*
 * Emit part k in slot s, whose turn it is, and the parked parts after it
 * (mu held, dropped while emitting).
 */
static void emit_from(struct par_run *r, unsigned s, uint64_t k)
{
	r->emitting = true;
	for (;;) {
		int ret;

		pthread_mutex_unlock(&r->mu);
		ret = r->p->ops->emit(r->p->ctx, s, k);
		pthread_mutex_lock(&r->mu);
		if (ret < 0) {
			fail_part(r, k, ret);
		} else {
			r->p->emitted = k + 1;
			if (ret == WFW_PAR_CUT) {
				r->p->cut = true;
				end_at(r, k + 1);
			}
		}
		r->turn = k + 1;
		release(r, s);
		k = r->turn;
		s = (unsigned)(k % r->nslots);
		/* a part waiting with its thread is emitted by that thread */
		if (k >= r->end || r->slot[s] != SLOT_PARKED)
			break;
	}
	r->emitting = false;
}

/* A part that may wait parked: its thread can claim the next one now. */
static bool can_claim(const struct par_run *r)
{
	return r->next < r->end && r->slot[r->next % r->nslots] == SLOT_FREE;
}

/* Part k in slot s is worked on (ret: how it went): on to its turn. */
static void finish_part(struct par_run *r, unsigned s, uint64_t k, int ret)
{
	pthread_mutex_lock(&r->mu);
	if (ret < 0)
		fail_part(r, k, ret);
	r->slot[s] = SLOT_DONE;
	for (;;) {
		if (k >= r->end) {	/* failed, or after a failure or a cut */
			release(r, s);
			break;
		}
		if (r->turn == k && !r->emitting) {
			emit_from(r, s, k);
			break;
		}
		if (can_claim(r)) {
			r->slot[s] = SLOT_PARKED;
			break;
		}
		pthread_cond_wait(&r->cv, &r->mu);
	}
	pthread_mutex_unlock(&r->mu);
}

static void *worker_main(void *arg)
{
	struct par_run *r = arg;
	const struct wfw_par_ops *ops = r->p->ops;
	unsigned s;
	uint64_t k;
	long got;

	while ((got = next_part(r, &s, &k)) != 0) {
		int ret = got < 0 ? (int)got : 0;

		if (!ret && ops->work)
			ret = ops->work(r->p->ctx, s, k);
		finish_part(r, s, k, ret);
	}
	return NULL;
}

/* Start up to n - 1 threads, work on this one too, wait for them. */
static void run_threads(struct par_run *r, unsigned n)
{
	pthread_t th[n > 1 ? n - 1 : 1];
	unsigned started = 0;

	/* fewer threads than asked still get every part out */
	while (started + 1 < n && !pthread_create(&th[started], NULL, worker_main, r))
		started++;
	worker_main(r);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

int wfw_par_run(struct wfw_par *p)
{
	struct par_run r = { .p = p, .end = p->nparts, .fail_at = UINT64_MAX };
	unsigned n = p->threads ? p->threads : 1;

	r.nslots = p->slots ? p->slots : n;
	if (n > r.nslots)
		n = r.nslots;
	if (p->nparts < n)
		n = p->nparts ? (unsigned)p->nparts : 1;
	p->emitted = 0;
	p->failed = UINT64_MAX;
	p->stopped = p->cut = false;
	r.slot = calloc(r.nslots, sizeof(*r.slot));
	if (!r.slot)
		return -ENOMEM;
	pthread_mutex_init(&r.mu, NULL);
	pthread_mutex_init(&r.take_mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	run_threads(&r, n);
	pthread_mutex_destroy(&r.mu);
	pthread_mutex_destroy(&r.take_mu);
	pthread_cond_destroy(&r.cv);
	free(r.slot);
	if (!r.fail || r.end != r.fail_at)
		return 0;
	p->failed = r.fail_at;	/* its slot still holds it */
	return r.fail;
}

unsigned wfw_par_file_threads(const char *path, unsigned jobs, bool given)
{
	struct stat st;

	if (jobs < 2 || stat(path, &st) || !S_ISREG(st.st_mode))
		return 1;
	return given || st.st_size >= WFW_PAR_MIN_BYTES ? jobs : 1;
}

unsigned wfw_par_file_parts(const char *path, unsigned threads, uint64_t bytes)
{
	struct stat st;
	uint64_t n = 0;

	if (!stat(path, &st))
		n = (uint64_t)st.st_size / bytes;
	if (n < 4ull * threads)
		n = 4ull * threads;
	return n > 1u << 20 ? 1u << 20 : (unsigned)n;
}

unsigned wfw_par_online_cpus(unsigned max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (unsigned long)n > max ? max : (unsigned)n;
}
