/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the timer source, driven through its descriptor's ops
 * without the core: options in table order, open/start/read/stop/close,
 * real datapoints from the running kernel, ReqCState against a fake
 * cpuidle sysfs tree, and discarded counting with signals that cut sleeps
 * short.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timer_health.h"
#include "timer_state.h"
#include "testopts.h"
#include "testutil.h"

extern const struct wultfw_plugin timer_LTX_wultfw_plugin;
static const struct wultfw_plugin *pl = &timer_LTX_wultfw_plugin;

/* ---- harness: a context with every option set, and a log catcher ---- */

struct harness {
	struct wultfw_value opts[TIMER_OPT_COUNT];
	struct timer_cfg cfg;
	struct wultfw_ctx ctx;
	struct wultfw_source_info info;
	struct wultfw_batch b;
	char log[8192];
	char infos[4096];	/* "key: value" lines from wultfw_info() */
};

static void h_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		  const char *msg)
{
	struct harness *h = ctx->host_data;
	size_t len = strlen(h->log);

	snprintf(h->log + len, sizeof(h->log) - len, "%s\n", msg);
}

static void h_info(struct wultfw_ctx *ctx, const char *key, const char *value)
{
	struct harness *h = ctx->host_data;
	size_t len = strlen(h->infos);

	snprintf(h->infos + len, sizeof(h->infos) - len, "%s: %s\n", key, value);
}

static const struct wultfw_host h_host = { .log = h_log, .info = h_info };

/* Every option gets a value, as the core would fill them from defaults. */
static void h_init(struct harness *h)
{
	memset(h, 0, sizeof(*h));
	h->cfg = (struct timer_cfg){ .priority = 0, .timerslack = 1,
				     .reqcstate = true, .ring_size = 65536 };
	/* Explicitly off: tests must not lock the test runner's memory. */
	h->opts[TIMER_OPT_MLOCK] = (struct wultfw_value){ .set = true, .b = false };
	h->cfg.mlock = false;
	h->cfg.mlock_set = true;
	h->ctx.plugin = pl;
	h->ctx.opts = h->opts;
	h->ctx.cfg = &h->cfg;
	h->ctx.sysfs_root = "/sys";
	h->ctx.host = &h_host;
	h->ctx.host_data = h;
	h->ctx.verbosity = 1;
}

static int h_open(struct harness *h)
{
	int ret = pl->source->open(&h->ctx, &h->info);

	if (ret)
		return ret;
	h->b.ncols = h->info.schema->ncols;
	h->b.capacity = 512;
	h->b.cells = calloc(h->b.capacity * h->b.ncols, sizeof(*h->b.cells));
	return 0;
}

static void h_close(struct harness *h)
{
	pl->source->close(&h->ctx);
	free(h->b.cells);
	h->b.cells = NULL;
	CU_ASSERT_PTR_NULL(h->ctx.priv);
}

/* The CPU to measure: the last one this process may use. */
static int test_cpu(void)
{
	cpu_set_t set;
	int cpu, last = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			last = cpu;
	return last;
}

static struct wultfw_source_params params(uint64_t from, uint64_t to)
{
	struct wultfw_source_params p = {
		.cpu = test_cpu(), .ldist_from_ns = from, .ldist_to_ns = to,
		.seed = 12345,
	};

	return p;
}

/* Read until `want` rows are in h->b (or 5 s pass). */
static void h_collect(struct harness *h, size_t want)
{
	int64_t end = timer_now_ns() + 5000000000LL;

	h->b.rows = 0;
	while (h->b.rows < want && timer_now_ns() < end) {
		int ret = pl->source->read(&h->ctx, &h->b, 100000000);

		CU_ASSERT_EQUAL_FATAL(ret, WULTFW_READ_OK);
	}
	CU_ASSERT_TRUE(h->b.rows >= want);
}

static int col_index(const struct wultfw_schema *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return (int)i;
	return -1;
}

/* ---- a fake sysfs tree ---- */

static char fake_root[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void mkdir_p(const char *path)
{
	char buf[512], *s;

	snprintf(buf, sizeof(buf), "%s", path);
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(buf, 0755);
		*s = '/';
	}
	mkdir(buf, 0755);
}

/* Fixed-width counters, so a rewrite in place never changes the length. */
#define FAKE_USAGE_FMT "%020" PRIu64 "\n"

static const char *const fake_names[] = { "POLL", "C1-FAKE", "C6-FAKE" };

/* cpuN/cpuidle/stateM/{name,usage} for every CPU; cpuidle: with states. */
static void make_fake_tree(bool cpuidle)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[512], usage[32];
	long cpu;
	int s;

	snprintf(fake_root, sizeof(fake_root), "/tmp/test_timer.XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(fake_root));
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%ld",
			 fake_root, cpu);
		mkdir_p(path);
		if (!cpuidle)
			continue;
		for (s = 0; s < 3; s++) {
			snprintf(path, sizeof(path),
				 "%s/devices/system/cpu/cpu%ld/cpuidle/state%d",
				 fake_root, cpu, s);
			mkdir_p(path);
			strcat(path, "/name");
			write_file(path, fake_names[s]);
			snprintf(path, sizeof(path),
				 "%s/devices/system/cpu/cpu%ld/cpuidle/state%d/usage",
				 fake_root, cpu, s);
			snprintf(usage, sizeof(usage), FAKE_USAGE_FMT,
				 (uint64_t)100 * s);
			write_file(path, usage);
		}
	}
}

static void remove_fake_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* ---- tests ---- */

static void test_option_table(void)
{
	static const char *const names[TIMER_OPT_COUNT] = {
		[TIMER_OPT_MODE] = "mode",
		[TIMER_OPT_PRIORITY] = "priority",
		[TIMER_OPT_MLOCK] = "mlock",
		[TIMER_OPT_TIMERSLACK] = "timerslack",
		[TIMER_OPT_REQCSTATE] = "reqcstate",
		[TIMER_OPT_RAW] = "raw",
		[TIMER_OPT_RING_SIZE] = "ring_size",
	};
	int i;

	CU_ASSERT_EQUAL(pl->abi_version, WULTFW_PLUGIN_ABI_VERSION);
	CU_ASSERT_EQUAL(pl->kind, WULTFW_KIND_SOURCE);
	CU_ASSERT_STRING_EQUAL(pl->name, "timer");
	/* ctx->opts[i] is indexed by enum timer_opt: the table must agree. */
	for (i = 0; i < TIMER_OPT_COUNT; i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(pl->options[i].name);
		CU_ASSERT_STRING_EQUAL(pl->options[i].name, names[i]);
		CU_ASSERT_PTR_NOT_NULL(pl->options[i].help);
	}
	CU_ASSERT_PTR_NULL(pl->options[TIMER_OPT_COUNT].name);
	/* mlock has no default so "not given" can mean "try". */
	CU_ASSERT_PTR_NULL(pl->options[TIMER_OPT_MLOCK].def);
}

static char *parse_errors(const char *text)
{
	return to_option_errors(pl, text);
}

/* Bounds live in the option table; the core refuses values outside. */
static void test_bad_options(void)
{
	char *e = parse_errors("source = { priority = 100; ring_size = 10;\n"
			       "  timerslack = \"0ns\"; };\n");

	TU_ASSERT_CONTAINS(e, "source.priority: 100 is out of range: allowed 0 to 99");
	TU_ASSERT_CONTAINS(e, "source.ring_size: 10 is out of range: allowed 64 to 16777216 datapoints");
	TU_ASSERT_CONTAINS(e, "source.timerslack: \"0ns\" is out of range: allowed 1ns to 1s");
	free(e);
	e = parse_errors("source = { priority = 99; ring_size = 64; timerslack = \"1s\"; };\n");
	CU_ASSERT_STRING_EQUAL(e, "");
	free(e);
	/* The modes are the table's choices. */
	e = parse_errors("source = { mode = \"cyclic\"; };\n");
	TU_ASSERT_CONTAINS(e, "source.mode: \"cyclic\" is not allowed: use one of \"ldist\", \"grid\"");
	free(e);
	e = parse_errors("source = { mode = \"grid\"; };\n");
	CU_ASSERT_STRING_EQUAL(e, "");
	free(e);
}

static void test_schema(void)
{
	const struct wultfw_schema *s;
	struct harness h;
	int c;

	make_fake_tree(true);
	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	s = h.info.schema;
	CU_ASSERT_STRING_EQUAL(h.info.devid, "timer");
	CU_ASSERT_EQUAL(s->ncols, 5);	/* LTime in every row */
	CU_ASSERT_STRING_EQUAL(s->cols[4].name, "LTime");
	CU_ASSERT_STRING_EQUAL(h.info.interval_start, "LTime");
	CU_ASSERT_STRING_EQUAL(h.info.interval_latency, "WakeLatency");
	CU_ASSERT_STRING_EQUAL(s->cols[0].name, "WakeLatency");
	CU_ASSERT_EQUAL(s->cols[0].divisor, 1000);
	CU_ASSERT_STRING_EQUAL(s->cols[0].unit, "us");
	CU_ASSERT_STRING_EQUAL(s->cols[1].name, "SilentTime");
	CU_ASSERT_STRING_EQUAL(s->cols[2].name, "LDist");
	CU_ASSERT_EQUAL(s->cols[2].divisor, 1000);
	c = col_index(s, "ReqCState");
	CU_ASSERT_EQUAL_FATAL(c, 3);
	CU_ASSERT_EQUAL(s->cols[c].type, WULTFW_COL_ENUM);
	/* The states, then the values for a sleep without one known state. */
	CU_ASSERT_EQUAL_FATAL(s->cols[c].n_enum, 6);
	CU_ASSERT_STRING_EQUAL(s->cols[c].enum_names[1], "C1-FAKE");
	CU_ASSERT_STRING_EQUAL(s->cols[c].enum_names[2], "C6-FAKE");
	CU_ASSERT_STRING_EQUAL(s->cols[c].enum_names[3], "none");
	CU_ASSERT_STRING_EQUAL(s->cols[c].enum_names[4], "several");
	CU_ASSERT_STRING_EQUAL(s->cols[c].enum_names[5], "unknown");
	/* No fake interrupt time: user space cannot see it. */
	CU_ASSERT_EQUAL(col_index(s, "IntrLatency"), -1);
	h_close(&h);

	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	h.cfg.raw = true;
	h.cfg.reqcstate = false;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	s = h.info.schema;
	CU_ASSERT_EQUAL(s->ncols, 6);
	CU_ASSERT_EQUAL(col_index(s, "ReqCState"), -1);
	CU_ASSERT_EQUAL(col_index(s, "LTime"), 3);
	CU_ASSERT_EQUAL(col_index(s, "TBI"), 4);
	CU_ASSERT_EQUAL(col_index(s, "TAI"), 5);
	CU_ASSERT_EQUAL(s->cols[5].divisor, 1);
	h_close(&h);
	remove_fake_tree();
}

/* Real sleeps on the real kernel: every cell must make sense. */
static void test_datapoints(void)
{
	struct wultfw_source_params pa = params(100000, 300000);
	uint64_t seed = pa.seed, skipped = 0;
	const struct wultfw_schema *s;
	struct harness h;
	bool varied = false;
	int64_t prev_ltime = 0;
	int cs_col, raw;
	size_t r;

	h_init(&h);
	h.cfg.raw = true;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	s = h.info.schema;
	/* This machine's CPU may have no cpuidle states: no ReqCState then. */
	cs_col = col_index(s, "ReqCState");
	CU_ASSERT_EQUAL_FATAL(s->ncols, cs_col < 0 ? 6 : 7);
	raw = cs_col < 0 ? 3 : 4;
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	h_collect(&h, 300);
	CU_ASSERT_EQUAL(pl->source->stop(&h.ctx), 0);
	TU_ASSERT_CONTAINS(h.infos, "timer_mode: ldist\n");
	CU_ASSERT_PTR_NULL(strstr(h.infos, "timer_grid_missed"));

	/*
	 * LDist follows the generator from the given seed; a discarded
	 * datapoint (rare: the thread was held up for longer than LDist
	 * before its sleep, as under valgrind) skips one value.
	 */
	for (r = 0; r < h.b.rows; r++) {
		int64_t want = (int64_t)wultfw_pick_ldist(&seed,
				pa.ldist_from_ns, pa.ldist_to_ns, 0);

		while (want != wultfw_crow(&h.b, r)[2].i &&
		       skipped < h.b.discarded) {
			want = (int64_t)wultfw_pick_ldist(&seed,
					pa.ldist_from_ns, pa.ldist_to_ns, 0);
			skipped++;
		}
		CU_ASSERT_EQUAL(wultfw_crow(&h.b, r)[2].i, want);
	}
	for (r = 0; r < h.b.rows; r++) {
		const union wultfw_cell *c = wultfw_crow(&h.b, r);
		int64_t wake = c[0].i, silent = c[1].i, ldist = c[2].i;
		int64_t cstate = cs_col < 0 ? -1 : c[cs_col].i;
		int64_t ltime = c[raw].i, tbi = c[raw + 1].i, tai = c[raw + 2].i;

		CU_ASSERT_TRUE(wake >= 0);
		CU_ASSERT_TRUE(ldist >= (int64_t)pa.ldist_from_ns &&
			       ldist <= (int64_t)pa.ldist_to_ns);
		CU_ASSERT_TRUE(silent > 0 && silent <= ldist);
		/* Never empty: a state, or none/several/unknown. */
		CU_ASSERT_TRUE(cs_col < 0 || (cstate >= 0 &&
			       cstate < (int64_t)s->cols[cs_col].n_enum));
		CU_ASSERT_EQUAL(wake, tai - ltime);
		CU_ASSERT_EQUAL(silent, ltime - tbi);
		/* One sleep after the other, in order. */
		CU_ASSERT_TRUE(ltime > prev_ltime);
		prev_ltime = tai;
		if (r && ldist != wultfw_crow(&h.b, r - 1)[2].i)
			varied = true;
	}
	CU_ASSERT_TRUE(varied);
	/*
	 * Most sleeps of 100-300 us are kept: a wrong rule would discard
	 * nearly all (test_consistency_rule checks the rule itself); a loaded
	 * machine that holds the thread up longer than LDist before its
	 * sleep discards some, how many is the scheduler's business.
	 */
	CU_ASSERT_TRUE(h.b.discarded < h.b.rows);
	h_close(&h);
}

/*
 * Mode grid on the real kernel: every LTime is the first plus whole
 * periods, LDist is what that timer was armed with (more than 0, at most
 * a period, armed after the previous wake-up), and the periods between
 * rows that have no row are no more than the skipped, discarded and lost
 * ones. No check depends on how late the thread woke.
 */
static void test_grid_datapoints(void)
{
	const int64_t period = 100000;
	struct wultfw_source_params pa = params(period, period);
	int64_t first = 0, prev_ltime = 0, prev_tai = 0;
	uint64_t gaps = 0, unaccounted;
	struct timer_priv *p;
	struct harness h;
	int raw;
	size_t r;

	h_init(&h);
	h.cfg.mode = "grid";
	h.cfg.raw = true;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	raw = col_index(h.info.schema, "LTime");
	CU_ASSERT_FATAL(raw > 2);
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	h_collect(&h, 300);
	CU_ASSERT_EQUAL(pl->source->stop(&h.ctx), 0);
	p = h.ctx.priv;
	for (r = 0; r < h.b.rows; r++) {
		const union wultfw_cell *c = wultfw_crow(&h.b, r);
		int64_t silent = c[1].i, ldist = c[2].i;
		int64_t ltime = c[raw].i, tai = c[raw + 2].i;

		if (!r)
			first = ltime;
		CU_ASSERT_EQUAL((ltime - first) % period, 0);
		CU_ASSERT_TRUE(ldist > 0 && ldist <= period);
		CU_ASSERT_TRUE(silent > 0 && silent <= ldist);
		if (r) {
			CU_ASSERT_TRUE(ltime > prev_ltime);
			CU_ASSERT_TRUE(ltime - ldist >= prev_tai);
			gaps += (uint64_t)((ltime - prev_ltime) / period - 1);
		}
		prev_ltime = ltime;
		prev_tai = tai;
	}
	unaccounted = p->grid_missed + atomic_load(&p->discarded) +
		      atomic_load(&p->overruns);
	CU_ASSERT_TRUE(gaps <= unaccounted);
	TU_ASSERT_CONTAINS(h.infos, "timer_mode: grid\n");
	TU_ASSERT_CONTAINS(h.infos, "timer_grid_missed: ");
	h_close(&h);
}

/*
 * read() honours its timeout, stop() does not wait for a long sleep. The
 * sleep is 10 s and the bounds 5 s: only waiting for the sleep breaks
 * them, not a loaded machine's scheduling delays.
 */
static void test_timeouts(void)
{
	struct wultfw_source_params pa = params(10000000000ULL, 10000000000ULL);
	struct harness h;
	int64_t t0, dt;

	h_init(&h);
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	t0 = timer_now_ns();
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 30000000), WULTFW_READ_OK);
	dt = timer_now_ns() - t0;
	CU_ASSERT_EQUAL(h.b.rows, 0);
	CU_ASSERT_TRUE(dt >= 30000000 && dt < 5000000000LL);

	t0 = timer_now_ns();
	CU_ASSERT_EQUAL(pl->source->stop(&h.ctx), 0);
	CU_ASSERT_TRUE(timer_now_ns() - t0 < 5000000000LL);
	/* Stopped and drained: the source says it has nothing more. */
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 30000000), WULTFW_READ_END);
	h_close(&h);
}

static void test_consistency_rule(void)
{
	struct timer_dp dp = { .ltime = 1000, .tbi = 900, .tai = 1005 };

	CU_ASSERT_TRUE(timer_dp_consistent(&dp));
	dp.tai = 1000;		/* woke exactly at LTime: latency 0 is fine */
	CU_ASSERT_TRUE(timer_dp_consistent(&dp));
	dp.tai = 999;		/* woke before LTime */
	CU_ASSERT_FALSE(timer_dp_consistent(&dp));
	dp.tai = 1005;
	dp.tbi = 1000;		/* never slept: LTime passed before the call */
	CU_ASSERT_FALSE(timer_dp_consistent(&dp));
}

/* Mode ldist: every deadline is `now` plus the generator's next pick. */
static void test_deadline_ldist(void)
{
	struct wultfw_source_params pa = { .ldist_from_ns = 100,
					   .ldist_to_ns = 300, .seed = 7 };
	struct timer_deadline d;
	uint64_t seed = pa.seed, missed = 0;
	int64_t now = 1000;
	int i;

	timer_deadline_init(&d, TIMER_MODE_LDIST, &pa);
	for (i = 0; i < 100; i++, now += 5000) {
		int64_t want = now + (int64_t)wultfw_pick_ldist(&seed, 100, 300, 0);

		CU_ASSERT_EQUAL(timer_next_ltime(&d, now, &missed), want);
	}
	CU_ASSERT_EQUAL(missed, 0);
}

/*
 * Mode grid, made-up clocks: the first deadline is now + the period, each
 * next one the previous plus the period however late the thread arms it,
 * and every deadline not after `now` is skipped and counted.
 */
static void test_deadline_grid(void)
{
	struct wultfw_source_params pa = { .ldist_from_ns = 200,
					   .ldist_to_ns = 200, .seed = 7 };
	struct timer_deadline d;
	uint64_t missed = 0;

	timer_deadline_init(&d, TIMER_MODE_GRID, &pa);
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 1000, &missed), 1200);
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 1250, &missed), 1400);	/* woke 50 late */
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 1599, &missed), 1600);	/* 1 ns to spare */
	CU_ASSERT_EQUAL(missed, 0);
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 1800, &missed), 2000);	/* 1800 is now: skipped */
	CU_ASSERT_EQUAL(missed, 1);
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 2750, &missed), 2800);	/* 2200-2600 passed */
	CU_ASSERT_EQUAL(missed, 4);
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 3000, &missed), 3200);	/* 3000 is now */
	CU_ASSERT_EQUAL(missed, 5);
	/* A stall of 10 s: 50 million deadlines skipped at once. */
	CU_ASSERT_EQUAL(timer_next_ltime(&d, 3200 + 10000000000LL, &missed),
			3400 + 10000000000LL);
	CU_ASSERT_EQUAL(missed, 5 + 50000000);
}

/*
 * Mode grid with a range: each step is the generator's next pick, skipped
 * steps too, so the deadlines are the first plus the sum of the picks.
 */
static void test_deadline_grid_range(void)
{
	struct wultfw_source_params pa = { .ldist_from_ns = 100,
					   .ldist_to_ns = 300, .seed = 99 };
	struct timer_deadline d;
	uint64_t seed = pa.seed, missed = 0, skipped = 0;
	int64_t want = 0, now = 0, got;
	int i;

	timer_deadline_init(&d, TIMER_MODE_GRID, &pa);
	for (i = 0; i < 200; i++) {
		/* Every 10th arming comes 1 us late: steps are skipped. */
		now = i % 10 ? want + 50 : want + 1000;
		got = timer_next_ltime(&d, now, &missed);
		/* The first deadline is now + a step, as in mode ldist. */
		want = (i ? want : now) +
		       (int64_t)wultfw_pick_ldist(&seed, 100, 300, 0);
		while (want <= now) {
			want += (int64_t)wultfw_pick_ldist(&seed, 100, 300, 0);
			skipped++;
		}
		CU_ASSERT_EQUAL_FATAL(got, want);
	}
	CU_ASSERT_EQUAL(missed, skipped);
	CU_ASSERT_TRUE(skipped > 0);
}

/* Each discarded datapoint has one reason, in this order. */
static void test_discard_reasons(void)
{
	struct timer_dp dp = { .tbi = 100, .ltime = 200, .tai = 250 };

	CU_ASSERT_EQUAL(timer_dp_why(&dp, 0), -1);
	CU_ASSERT_EQUAL(timer_dp_why(&dp, EINTR), TIMER_DISC_SIGNAL);
	dp.tbi = 200;
	CU_ASSERT_EQUAL(timer_dp_why(&dp, 0), TIMER_DISC_NO_SLEEP);
	dp.tbi = 100;
	dp.tai = 199;
	CU_ASSERT_EQUAL(timer_dp_why(&dp, 0), TIMER_DISC_EARLY);
}

/*
 * A model /proc/stat: cpu1's idle (4th) + iowait (5th) in USER_HZ ticks.
 * The trial's busy CPU (idle 0 while the thread slept 90%) is warned
 * about with both shares; an idle CPU and a run too short are not.
 */
static void test_idle_model(void)
{
	char *dir = tu_tmpdir(), *path;
	long hz = sysconf(_SC_CLK_TCK);
	struct timer_idle_in in = { .cpu = 1, .wall_ns = 1000000000,
				    .idle_ns = 0, .slept_ns = 900000000 };
	char msg[640];
	uint64_t ns = 0;

	path = tu_write(dir, "stat", "cpu  9 9 9 9 9 0 0 0 0 0\n"
			"cpu1 5 6 7 80 20 0 0 0 0 0\ncpu10 1 1 1 1 1 0 0 0 0 0\n");
	CU_ASSERT_EQUAL(timer_proc_idle_ns(path, 1, &ns), 0);
	CU_ASSERT_EQUAL(ns, 100 * (1000000000ULL / (uint64_t)hz));
	CU_ASSERT_EQUAL(timer_proc_idle_ns(path, 2, &ns), -ENOENT);
	free(path);

	CU_ASSERT_TRUE(timer_idle_warn(&in, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "CPU 1 was idle for 0% of the run");
	TU_ASSERT_CONTAINS(msg, "slept for 90% of it");
	TU_ASSERT_CONTAINS(msg, "not exits from C-states");
	in.idle_ns = 850000000;		/* idle nearly whenever it slept */
	CU_ASSERT_FALSE(timer_idle_warn(&in, msg, sizeof(msg)));
	in.idle_ns = 400000000;		/* less than half */
	CU_ASSERT_TRUE(timer_idle_warn(&in, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "idle for 40%");
	in.idle_ns = 0;			/* 10 ticks: too coarse to judge */
	in.slept_ns = 100000000;
	CU_ASSERT_FALSE(timer_idle_warn(&in, msg, sizeof(msg)));
	tu_rmtree(dir);
	free(dir);
}

/* The launch distance and loop-cost warnings, from the trial's 1 us run. */
static void test_ldist_and_cost(void)
{
	char msg[768];

	CU_ASSERT_TRUE(timer_ldist_warn(1000, 0, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "from 1000 ns, below 10 us");
	TU_ASSERT_CONTAINS(msg, "syscall latency");
	CU_ASSERT_PTR_NULL(strstr(msg, "RT throttling"));
	CU_ASSERT_TRUE(timer_ldist_warn(1000, 90, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "until RT throttling stops it");
	CU_ASSERT_FALSE(timer_ldist_warn(10000, 90, msg, sizeof(msg)));
	/* 40 ns before, 250 ns after: 29% of 1 us, 0.1% of 275 us. */
	CU_ASSERT_TRUE(timer_cost_warn(40, 250, 1000, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "(40 ns before, 250 ns after it) is 29%");
	CU_ASSERT_FALSE(timer_cost_warn(40, 250, 275000, msg, sizeof(msg)));
}

/*
 * RT throttling, modelled: sched_rt_runtime_us 950000 of 1000000. A
 * SCHED_FIFO thread busy 95% of 2 s may have been throttled; one busy 5%,
 * at SCHED_OTHER, under no limit (-1), or busy too briefly to fill a
 * runtime was not.
 */
static void test_rt_model(void)
{
	char *dir = tu_tmpdir(), *f1, *f2, msg[640];
	struct timer_rt_in in = { .priority = 90, .wall_ns = 2000000000,
				  .cpu_ns = 1900000000 };

	f1 = tu_write(dir, "sched_rt_runtime_us", "950000\n");
	f2 = tu_write(dir, "sched_rt_period_us", "1000000\n");
	CU_ASSERT_EQUAL_FATAL(timer_read_rt_limits(dir, &in.runtime_us,
						   &in.period_us), 0);
	CU_ASSERT_EQUAL(in.runtime_us, 950000);
	CU_ASSERT_EQUAL(in.period_us, 1000000);
	CU_ASSERT_TRUE(timer_rt_warn(&in, msg, sizeof(msg)));
	TU_ASSERT_CONTAINS(msg, "busy 95% of the run");
	TU_ASSERT_CONTAINS(msg, "RT throttling activated");
	TU_ASSERT_CONTAINS(msg, "up to 50 ms");
	in.cpu_ns = 100000000;
	CU_ASSERT_FALSE(timer_rt_warn(&in, msg, sizeof(msg)));
	in.cpu_ns = 1900000000;
	in.priority = 0;
	CU_ASSERT_FALSE(timer_rt_warn(&in, msg, sizeof(msg)));
	in.priority = 90;
	in.runtime_us = -1;
	CU_ASSERT_FALSE(timer_rt_warn(&in, msg, sizeof(msg)));
	in.runtime_us = 950000;
	in.wall_ns = in.cpu_ns = 20000000;	/* 20 ms: no period filled */
	CU_ASSERT_FALSE(timer_rt_warn(&in, msg, sizeof(msg)));
	free(f1);
	free(f2);
	tu_rmtree(dir);
	free(dir);
}

static void test_reqcstate_logic(void)
{
	struct timer_cstates cs = { .on = true, .none = 3, .several = 4,
				    .unknown = 5 };
	uint64_t before[3] = { 5, 7, 9 }, after[3];

	cs.ci.nstates = 3;
	cs.map[0] = 0;
	cs.map[1] = 2;		/* measured CPU's state 1 is schema name 2 */
	cs.map[2] = cs.unknown;	/* a state the schema does not know */

	memcpy(after, before, sizeof(after));
	CU_ASSERT_EQUAL(timer_reqcstate(&cs, before, after), cs.none);
	after[1] = 8;
	CU_ASSERT_EQUAL(timer_reqcstate(&cs, before, after), 2);
	after[1] = 10;		/* entered several times, still one state */
	CU_ASSERT_EQUAL(timer_reqcstate(&cs, before, after), 2);
	after[0] = 6;		/* two states: unknown which one was requested */
	CU_ASSERT_EQUAL(timer_reqcstate(&cs, before, after), cs.several);
	memcpy(after, before, sizeof(after));
	after[2] = 10;
	CU_ASSERT_EQUAL(timer_reqcstate(&cs, before, after), cs.unknown);
}

/* Bumps one fake usage counter of the measured CPU while sleeps run. */
struct bumper {
	pthread_t t;
	atomic_bool stop;
	char path[512];
};

static void *bumper_main(void *arg)
{
	struct bumper *bp = arg;
	int fd = open(bp->path, O_WRONLY);
	uint64_t v = 200;
	char buf[32];

	while (fd >= 0 && !atomic_load(&bp->stop)) {
		int len = snprintf(buf, sizeof(buf), FAKE_USAGE_FMT, ++v);

		if (pwrite(fd, buf, (size_t)len, 0) != len)
			break;
		usleep(50);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void test_reqcstate_fake_sysfs(void)
{
	struct wultfw_source_params pa = params(300000, 500000);
	struct bumper bp;
	struct harness h;
	size_t r, named = 0;

	make_fake_tree(true);

	/* Counters that never move: no state was entered, ReqCState "none". */
	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	h_collect(&h, 50);
	pl->source->stop(&h.ctx);
	for (r = 0; r < h.b.rows; r++)
		CU_ASSERT_EQUAL(wultfw_crow(&h.b, r)[3].i, 3);
	h_close(&h);

	/* Only "C6-FAKE" moves: ReqCState is C6-FAKE (or "none", if a sleep
	 * saw no bump), never another state. */
	memset(&bp, 0, sizeof(bp));
	snprintf(bp.path, sizeof(bp.path),
		 "%s/devices/system/cpu/cpu%d/cpuidle/state2/usage",
		 fake_root, pa.cpu);
	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&bp.t, NULL, bumper_main, &bp), 0);
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	/*
	 * Until a sleep saw the bump (at most 100 rounds of 50 sleeps): how
	 * many did depends on when the bumper thread ran, which a loaded
	 * 2-CPU machine does not promise (distcheck under check-all once saw
	 * fewer than half of 50). A source that never names the state fails.
	 */
	for (int round = 0; round < 100 && !named; round++) {
		h_collect(&h, 50);
		for (r = 0; r < h.b.rows; r++) {
			int64_t cs = wultfw_crow(&h.b, r)[3].i;

			CU_ASSERT_TRUE(cs == 3 || cs == 2);
			named += cs == 2;
		}
	}
	pl->source->stop(&h.ctx);
	atomic_store(&bp.stop, true);
	pthread_join(bp.t, NULL);
	CU_ASSERT_TRUE(named > 0);
	h_close(&h);
	remove_fake_tree();
}

static void test_no_cpuidle(void)
{
	struct wultfw_source_params pa = params(100000, 100000);
	struct harness h;
	size_t r;

	make_fake_tree(false);
	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	/* No states to name: no ReqCState column rather than empty cells. */
	CU_ASSERT_PTR_NOT_NULL(strstr(h.log, "no ReqCState column"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h.log, "cpuidle driver: none"));
	CU_ASSERT_EQUAL_FATAL(h.info.schema->ncols, 4);
	for (r = 0; r < h.info.schema->ncols; r++)
		CU_ASSERT_STRING_NOT_EQUAL(h.info.schema->cols[r].name, "ReqCState");
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	h_collect(&h, 20);
	pl->source->stop(&h.ctx);
	CU_ASSERT_TRUE(h.b.rows > 0);
	for (r = 0; r < h.b.rows; r++)
		CU_ASSERT_EQUAL(wultfw_crow(&h.b, r)[2].i, 100000);	/* LDist */
	h_close(&h);
	remove_fake_tree();
}

static void test_bad_cpu(void)
{
	struct wultfw_source_params pa = params(100000, 100000);
	char path[512];
	struct harness h;

	h_init(&h);
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	pa.cpu = 100000;
	CU_ASSERT_EQUAL(pl->source->start(&h.ctx, &pa), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.ctx.err, "does not exist"));
	pa.cpu = -1;
	CU_ASSERT_EQUAL(pl->source->start(&h.ctx, &pa), -EINVAL);
	pa = params(2000, 1000);	/* reversed range */
	CU_ASSERT_EQUAL(pl->source->start(&h.ctx, &pa), -EINVAL);
	h_close(&h);

	/* An offline CPU, as sysfs reports it. */
	make_fake_tree(true);
	pa = params(100000, 100000);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/online",
		 fake_root, pa.cpu);
	write_file(path, "0\n");
	h_init(&h);
	h.ctx.sysfs_root = fake_root;
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	CU_ASSERT_EQUAL(pl->source->start(&h.ctx, &pa), -ENODEV);
	CU_ASSERT_PTR_NOT_NULL(strstr(h.ctx.err, "offline"));
	h_close(&h);
	remove_fake_tree();
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A signal ends a sleep early: that datapoint is counted as discarded. */
static void test_discarded(void)
{
	struct wultfw_source_params pa = params(40000000, 40000000);
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct timer_priv *p;
	struct harness h;
	uint64_t total = 0;
	int i;

	sigemptyset(&sa.sa_mask);
	CU_ASSERT_EQUAL_FATAL(sigaction(SIGUSR1, &sa, NULL), 0);
	h_init(&h);
	CU_ASSERT_EQUAL_FATAL(h_open(&h), 0);
	CU_ASSERT_EQUAL_FATAL(pl->source->start(&h.ctx, &pa), 0);
	p = h.ctx.priv;
	usleep(10000);
	/*
	 * Under load the thread may be running, not sleeping, when a signal
	 * lands; such a signal discards nothing. So signal until three sleeps
	 * were cut short, and check no signal was counted twice.
	 */
	for (i = 0; i < 200 && total < 3; i++) {
		pthread_kill(p->thread, SIGUSR1);
		usleep(25000);	/* lands in the next 40 ms sleep */
		h.b.rows = 0;
		h.b.discarded = 0;
		CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
		total += h.b.discarded;
	}
	CU_ASSERT_EQUAL(total, 3);
	CU_ASSERT_TRUE(total <= (uint64_t)i);
	/* Counted once: reading again adds nothing. */
	h.b.rows = 0;
	h.b.discarded = 0;
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
	CU_ASSERT_EQUAL(h.b.discarded, 0);
	pl->source->stop(&h.ctx);
	/* info.yml says why, per reason. */
	TU_ASSERT_CONTAINS(h.infos, "timer_discarded_signal: 3\n");
	TU_ASSERT_CONTAINS(h.infos, "timer_discarded_tbi_after_ltime: 0\n");
	TU_ASSERT_CONTAINS(h.infos, "timer_discarded_tai_before_ltime: 0\n");
	h_close(&h);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * Overruns said once, in stop(), before the core's summary: the reads that
 * drain the ring afterwards must not say them again.
 */
/*
 * A timer source with a ring of 64 that nobody reads, started: 0 once the
 * ring overflowed (a loaded machine may take a while), else -1.
 */
static int overflowing(struct harness *h, const struct wultfw_source_params *pa)
{
	struct timer_priv *p;

	h_init(h);
	h->cfg.ring_size = 64;
	h->cfg.reqcstate = false;
	if (h_open(h) || pl->source->start(&h->ctx, pa))
		return -1;
	p = h->ctx.priv;
	for (int waited = 0; waited < 500 && !atomic_load(&p->overruns); waited++)
		usleep(10000);
	return 0;
}

static void test_overruns_once(void)
{
	struct wultfw_source_params pa = params(1000, 1000);
	struct harness h;
	const char *at;
	int n = 0;

	CU_ASSERT_EQUAL_FATAL(overflowing(&h, &pa), 0);
	pl->source->stop(&h.ctx);
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
	CU_ASSERT_EQUAL(h.b.rows, 64);
	for (at = h.log; (at = strstr(at, "lost")); at++)
		n++;
	CU_ASSERT_EQUAL(n, 1);
	h_close(&h);
}

/* A tiny ring that nobody reads: the loss is counted and logged. */
static void test_overruns(void)
{
	struct wultfw_source_params pa = params(1000, 1000);
	struct timer_priv *p;
	struct harness h;

	CU_ASSERT_EQUAL_FATAL(overflowing(&h, &pa), 0);
	p = h.ctx.priv;
	CU_ASSERT_EQUAL(pl->source->read(&h.ctx, &h.b, 0), WULTFW_READ_OK);
	CU_ASSERT_EQUAL(h.b.rows, 64);
	pl->source->stop(&h.ctx);
	CU_ASSERT_TRUE(atomic_load(&p->overruns) > 0);
	/* Overruns are not inconsistent datapoints. */
	CU_ASSERT_TRUE(h.b.discarded < atomic_load(&p->overruns));
	CU_ASSERT_PTR_NOT_NULL(strstr(h.log, "raise ring_size"));
	h_close(&h);
}

/*
 * ASan answers mlockall() itself with success and never asks the kernel
 * (its terabytes of shadow memory could not be locked), so under ASan an
 * mlockall() that is not permitted cannot fail: those checks need a build
 * without it.
 */
#if defined(__SANITIZE_ADDRESS__)
#define MLOCK_CAN_FAIL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLOCK_CAN_FAIL 0
#endif
#endif
#ifndef MLOCK_CAN_FAIL
#define MLOCK_CAN_FAIL 1
#endif

/* mlock = true but not permitted: start() fails and says why. */
static int refused_mlock_checks(const struct wultfw_source_params *pa)
{
	struct harness h;

	h_init(&h);
	h.opts[TIMER_OPT_MLOCK].b = true;
	h.cfg.mlock = true;
	if (h_open(&h))
		return 4;
	if (pl->source->start(&h.ctx, pa) >= 0 ||
	    !strstr(h.ctx.err, "mlockall() failed"))
		return 5;
	h_close(&h);
	return 0;
}

/* No real-time priority, no locked memory, not root: 0, or 1 or 2. */
static int drop_privileges(void)
{
	struct rlimit zero = { 0, 0 };

	if (setrlimit(RLIMIT_RTPRIO, &zero) || setrlimit(RLIMIT_MEMLOCK, &zero))
		return 1;
	if (geteuid() == 0 && setresuid(65534, 65534, 65534))
		return 2;
	return 0;
}

/*
 * Each runs in a child without privileges: returns 0, or the number of
 * the first check that failed.
 */
static int unprivileged_checks(void)
{
	struct wultfw_source_params pa = params(100000, 100000);
	struct harness h;
	int ret;

	if ((ret = drop_privileges()))
		return ret;

	/* An explicit SCHED_FIFO priority that is not permitted: fail. */
	h_init(&h);
	h.cfg.priority = 90;
	if (h_open(&h) != -EPERM || !strstr(h.ctx.err, "not permitted"))
		return 3;

	/* mlock not given: measure anyway. */
	h_init(&h);
	h.opts[TIMER_OPT_MLOCK].set = false;
	h.cfg.mlock_set = false;
	if (h_open(&h) || pl->source->start(&h.ctx, &pa))
		return 6;
	h_collect(&h, 5);
	if (h.b.rows < 5)
		return 8;
	pl->source->stop(&h.ctx);
	h_close(&h);
	return 0;
}

static int unprivileged_mlock_checks(void)
{
	struct wultfw_source_params pa = params(100000, 100000);
	struct harness h;
	int ret;

	if ((ret = drop_privileges()) || (ret = refused_mlock_checks(&pa)))
		return ret;

	/* mlock not given: the refusal is a warning. */
	h_init(&h);
	h.opts[TIMER_OPT_MLOCK].set = false;
	h.cfg.mlock_set = false;
	if (h_open(&h) || pl->source->start(&h.ctx, &pa))
		return 6;
	if (!strstr(h.log, "mlockall() failed"))
		return 7;
	pl->source->stop(&h.ctx);
	h_close(&h);
	return 0;
}

static void run_unprivileged(int (*checks)(void))
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		_exit(checks());
	CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status));
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
}

static void test_unprivileged(void)
{
	run_unprivileged(unprivileged_checks);
}

static void test_unprivileged_mlock(void)
{
	if (!MLOCK_CAN_FAIL)
		TU_SKIP("ASan answers mlockall() itself with success, so a refused one cannot be seen (a build without ASan checks it)");
	run_unprivileged(unprivileged_mlock_checks);
}

static void test_ring(void)
{
	struct timer_ring ring;
	struct timer_dp dp = { 0 }, out[8];
	int i;

	CU_ASSERT_EQUAL_FATAL(timer_ring_init(&ring, 5), 0);
	CU_ASSERT_EQUAL(timer_ring_size(&ring), 8);
	for (i = 0; i < 8; i++) {
		dp.ldist = i;
		CU_ASSERT_TRUE(timer_ring_push(&ring, &dp));
	}
	CU_ASSERT_FALSE(timer_ring_push(&ring, &dp));
	CU_ASSERT_EQUAL(timer_ring_pop(&ring, out, 3), 3);
	CU_ASSERT_EQUAL(out[0].ldist, 0);
	CU_ASSERT_EQUAL(out[2].ldist, 2);
	dp.ldist = 8;
	CU_ASSERT_TRUE(timer_ring_push(&ring, &dp));	/* wraps around */
	CU_ASSERT_EQUAL(timer_ring_pop(&ring, out, 8), 6);
	CU_ASSERT_EQUAL(out[0].ldist, 3);
	CU_ASSERT_EQUAL(out[5].ldist, 8);
	CU_ASSERT_EQUAL(timer_ring_pop(&ring, out, 8), 0);
	timer_ring_free(&ring);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("timer", NULL, NULL);
	CU_add_test(s, "option table order", test_option_table);
	CU_add_test(s, "bad options", test_bad_options);
	CU_add_test(s, "schema", test_schema);
	CU_add_test(s, "ring", test_ring);
	CU_add_test(s, "consistency rule", test_consistency_rule);
	CU_add_test(s, "ReqCState logic", test_reqcstate_logic);
	CU_add_test(s, "real datapoints", test_datapoints);
	CU_add_test(s, "deadlines, mode ldist", test_deadline_ldist);
	CU_add_test(s, "deadlines, mode grid", test_deadline_grid);
	CU_add_test(s, "deadlines, mode grid with a range", test_deadline_grid_range);
	CU_add_test(s, "real datapoints, mode grid", test_grid_datapoints);
	CU_add_test(s, "read timeout and prompt stop", test_timeouts);
	CU_add_test(s, "ReqCState from a fake sysfs", test_reqcstate_fake_sysfs);
	CU_add_test(s, "no cpuidle", test_no_cpuidle);
	CU_add_test(s, "bad CPU", test_bad_cpu);
	CU_add_test(s, "discarded", test_discarded);
	CU_add_test(s, "overruns", test_overruns);
	CU_add_test(s, "overruns said once", test_overruns_once);
	CU_add_test(s, "discard reasons", test_discard_reasons);
	CU_add_test(s, "idle share, modelled", test_idle_model);
	CU_add_test(s, "launch distance and loop cost", test_ldist_and_cost);
	CU_add_test(s, "RT throttling, modelled", test_rt_model);
	CU_add_test(s, "without privileges", test_unprivileged);
	CU_add_test(s, "mlockall() refused without privileges", test_unprivileged_mlock);
	return tu_run();
}
