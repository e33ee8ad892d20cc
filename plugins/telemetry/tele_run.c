/* SPDX-License-Identifier: MIT */
/*
 * telemetry source: taking samples. single: the core calls read() every
 * period (wultfw_source_info.period_ns), which samples at once and ends
 * after max_samples; on_demand: one sample per read(); repetitive: a
 * thread samples every period into a ring of max_samples rows that read()
 * drains, the oldest overwritten (and counted) when the consumer falls
 * behind.
 */
#include "config.h"

#include "tele_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct timespec tele_ts(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	return ts;
}

static void tele_sleep_until(uint64_t ns)
{
	struct timespec ts = tele_ts(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void tele_gone(void *arg, const struct tele_slot *s, int err)
{
	struct tele_priv *p = arg;

	wultfw_log(p->ctx, WULTFW_LOG_WARN,
		   "counter %s went away at sample %" PRIu64 " (%s%s%s): its column is empty from here on",
		   s->c.name, p->taken + 1, strerror(-err),
		   s->c.path[0] ? ", " : "", s->c.path);
}

/* Take one sample into row (ncols cells). */
static void tele_take(struct tele_priv *p, int64_t *row)
{
	size_t i, n = p->set.n;
	uint64_t t0 = tele_now_ns(), t1;

	tele_set_sample(&p->set, p->sync, p->clear, p->vals,
			p->per_value ? p->times : NULL, tele_gone, p);
	t1 = tele_now_ns();
	row[0] = (int64_t)t0;
	row[1] = (int64_t)(t1 - t0);
	for (i = 0; i < n; i++) {
		if (p->per_value) {
			row[TELE_FIXED_COLS + 2 * i] = p->vals[i];
			row[TELE_FIXED_COLS + 2 * i + 1] = p->times[i];
		} else {
			row[TELE_FIXED_COLS + i] = p->vals[i];
		}
	}
	if (!p->taken)
		p->first_ns = t0;
	p->last_ns = t0;
	p->taken++;
}

/* The deadline after `now`: late samples are skipped, not bunched up. */
static void tele_advance(struct tele_priv *p, uint64_t now)
{
	p->next_ns += p->period_ns;
	if (p->next_ns <= now)
		p->next_ns += (now - p->next_ns) / p->period_ns * p->period_ns +
			      p->period_ns;
}

static int tele_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t tele_median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), tele_cmp_u64);
	return v[n / 2];
}

/*
 * A few samples read back to back, and a few short sleeps to absolute
 * deadlines as the core and the ring thread sleep (the shortest period
 * allowed): the medians, so one preempted try does not decide.
 */
void tele_run_probe(struct tele_priv *p)
{
	uint64_t cost[TELE_PROBES], late[TELE_PROBES], at;

	for (int i = 0; i < TELE_PROBES; i++)
		cost[i] = tele_set_read_cost(&p->set, p->sync);
	for (int i = 0; i < TELE_PROBES; i++) {
		at = tele_now_ns() + TELE_MIN_PERIOD_NS;
		tele_sleep_until(at);
		late[i] = tele_now_ns() - at;
	}
	p->sample_ns = tele_median(cost, TELE_PROBES);
	p->late_ns = tele_median(late, TELE_PROBES);
	p->achievable_ns = p->sample_ns + p->late_ns;
}

static void *tele_ring_thread(void *arg)
{
	struct tele_priv *p = arg;
	size_t ncols = p->schema.ncols;
	int64_t *row = calloc(ncols, sizeof(*row));

	for (;;) {
		struct timespec ts = tele_ts(p->next_ns);

		/* wait for the deadline, or for stop() however long the period */
		pthread_mutex_lock(&p->lock);
		while (!p->quit && row &&
		       pthread_cond_timedwait(&p->cond, &p->lock, &ts) != ETIMEDOUT)
			;
		if (p->quit || !row) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_mutex_unlock(&p->lock);
		tele_take(p, row);
		tele_advance(p, tele_now_ns());
		pthread_mutex_lock(&p->lock);
		if (p->count == p->max_samples) {
			p->head = (p->head + 1) % p->max_samples;
			p->count--;
			p->overwrites++;
		}
		memcpy(&p->ring[(p->head + p->count) % p->max_samples * ncols], row,
		       ncols * sizeof(*row));
		p->count++;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	free(row);
	return NULL;
}

/* What open() found, for info.yml: counters left out, the period here. */
static void tele_start_info(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	char v[4096], *kinds = tele_set_kinds_text(&p->set, p->clear);

	if (kinds)
		wultfw_info(ctx, "telemetry_kinds", kinds);
	free(kinds);
	if (p->set.nmissing) {
		tele_set_missing_text(&p->set, "", v, sizeof(v));
		wultfw_info(ctx, "telemetry_unavailable", v);
	}
	if (!p->achievable_ns)
		return;
	snprintf(v, sizeof(v), "%" PRIu64, p->achievable_ns);
	wultfw_info(ctx, "telemetry_period_achievable_ns", v);
	snprintf(v, sizeof(v), "%" PRIu64, p->sample_ns);
	wultfw_info(ctx, "telemetry_sample_ns", v);
}

int tele_run_start(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	char why[512];
	uint64_t now;
	int ret;

	p->ctx = ctx;
	ret = tele_set_baseline(&p->set, why, sizeof(why));
	if (ret)
		return wultfw_fail(ctx, ret, "%s", why);
	tele_start_info(ctx, p);
	if (p->mode != TELE_REPETITIVE)
		return 0;	/* single: the core keeps the schedule */
	now = tele_now_ns();
	/* sync_start: on a period boundary, so samplers of one period agree. */
	p->next_ns = p->sync ? (now / p->period_ns + 1) * p->period_ns
			     : now + p->period_ns;
	p->ring = calloc(p->max_samples * p->schema.ncols, sizeof(*p->ring));
	if (!p->ring)
		return wultfw_fail(ctx, -ENOMEM, "no memory for a ring of %" PRIu64 " samples",
				   p->max_samples);
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	ret = pthread_create(&p->thread, NULL, tele_ring_thread, p);
	if (ret)
		return wultfw_fail(ctx, -ret, "cannot start the sampling thread: %s",
				   strerror(ret));
	p->thread_on = true;
	return 0;
}

static int tele_read_ring(struct tele_priv *p, struct wultfw_batch *b,
			  uint64_t timeout_ns)
{
	size_t ncols = p->schema.ncols;
	struct timespec ts = tele_ts(tele_now_ns() + timeout_ns);

	pthread_mutex_lock(&p->lock);
	/* the thread also waits on cond: a wake-up meant for it may come
	 * here, and rows may still be 0 after one */
	while (!p->count && timeout_ns && p->thread_on &&
	       pthread_cond_timedwait(&p->cond, &p->lock, &ts) != ETIMEDOUT)
		;
	while (p->count && b->rows < b->capacity) {
		int64_t *src = &p->ring[p->head * ncols];
		union wultfw_cell *dst = wultfw_row(b, b->rows++);

		for (size_t c = 0; c < ncols; c++)
			dst[c].i = src[c];
		p->head = (p->head + 1) % p->max_samples;
		p->count--;
	}
	pthread_mutex_unlock(&p->lock);
	return WULTFW_READ_OK;
}

static void tele_take_row(struct tele_priv *p, struct wultfw_batch *b)
{
	union wultfw_cell *dst = wultfw_row(b, b->rows++);

	/* cells are 64-bit integers here: take straight into the row */
	tele_take(p, (int64_t *)(void *)dst);
}

int tele_run_read(struct wultfw_ctx *ctx, struct tele_priv *p,
		  struct wultfw_batch *b, uint64_t timeout_ns)
{
	(void)ctx;
	if (p->mode == TELE_REPETITIVE)
		return tele_read_ring(p, b, timeout_ns);
	/* after stop() only what is held is read: single and on_demand hold none */
	if (p->stopped || (p->max_samples && p->taken >= p->max_samples))
		return WULTFW_READ_END;
	if (b->rows >= b->capacity)
		return WULTFW_READ_OK;
	/* single: the core calls when the period's deadline came */
	tele_take_row(p, b);
	return p->max_samples && p->taken >= p->max_samples ? WULTFW_READ_END
							    : WULTFW_READ_OK;
}

/* Record the achieved period; warn when it is off by more than 10%. */
static void tele_report(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	char v[64];

	/* the rows given: repetitive gives all it holds, not those overwritten */
	snprintf(v, sizeof(v), "%" PRIu64, p->taken - p->overwrites);
	wultfw_info(ctx, "telemetry_samples", v);
	if (p->mode == TELE_REPETITIVE) {
		snprintf(v, sizeof(v), "%" PRIu64, p->overwrites);
		wultfw_info(ctx, "telemetry_overwrites", v);
		if (p->overwrites)
			wultfw_log(ctx, WULTFW_LOG_WARN,
				   "%" PRIu64 " samples were overwritten in the ring of %" PRIu64 " before they were read",
				   p->overwrites, p->max_samples);
	}
	if (p->mode == TELE_ON_DEMAND || p->taken < 2)
		return;
	double got = (double)(p->last_ns - p->first_ns) / (double)(p->taken - 1);

	snprintf(v, sizeof(v), "%.0f", got);
	wultfw_info(ctx, "telemetry_period_achieved_ns", v);
	if (got > 1.1 * (double)p->period_ns || got < 0.9 * (double)p->period_ns)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "achieved sample period %.3f ms differs from the asked %.3f ms by more than 10%%",
			   got / 1e6, (double)p->period_ns / 1e6);
}

void tele_run_stop(struct wultfw_ctx *ctx, struct tele_priv *p)
{
	p->stopped = true;
	if (p->thread_on) {
		pthread_mutex_lock(&p->lock);
		p->quit = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
		p->thread_on = false;
	}
	tele_report(ctx, p);
}
