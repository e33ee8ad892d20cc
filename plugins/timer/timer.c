/* SPDX-License-Identifier: MIT */
/*
 * timer: wake latency of a user-space thread sleeping with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), the way cyclictest
 * measures it. Needs nothing but Linux; SCHED_FIFO and mlockall() are
 * used when asked for and permitted.
 *
 * This file holds the plugin's options, schema and ops; the measuring
 * thread is in timer_loop.c, the hand-off ring in timer_ring.c.
 */
#include "config.h"

#include "timer_state.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* read() looks into the ring this often while it is empty; see timer_read(). */
#define TIMER_POLL_NS 1000000
/* Datapoints read() copies out of the ring at a time. */
#define TIMER_POPBUF_LEN 1024

#define CFG(field) .off = offsetof(struct timer_cfg, field)

static const char *const timer_modes[] = { "ldist", "grid", NULL };

static const struct wultfw_option timer_options[] = {
	[TIMER_OPT_MODE] = { "mode", WULTFW_OPT_STRING, "ldist",
		"Where each sleep ends. \"ldist\": LDist after the thread "
		"arms it, whatever the last wake-up's latency (wult's launch "
		"distance: every sleep is LDist long). \"grid\": the previous "
		"deadline plus LDist, a fixed grid as cyclictest -i keeps "
		"(cyclictest -i200 is ldist = \"200us\"); each sleep is then "
		"shorter by the last wake-up's latency and work, the LDist "
		"column holds that real distance, and deadlines that passed "
		"before the thread could arm them are skipped and counted "
		"(timer_grid_missed in info.yml).",
		.choices = timer_modes, CFG(mode) },
	[TIMER_OPT_PRIORITY] = { "priority", WULTFW_OPT_INT, "0",
		"SCHED_FIFO priority of the measuring thread (cyclictest "
		"-p90 is 90); 0 keeps normal scheduling (SCHED_OTHER). A "
		"priority that is not permitted (needs root, CAP_SYS_NICE or "
		"RLIMIT_RTPRIO) is an error, not a silent downgrade.",
		.min = "0", .max = "99", CFG(priority) },
	[TIMER_OPT_MLOCK] = { "mlock", WULTFW_OPT_BOOL, NULL,
		"Lock all process memory with mlockall() while measuring so no "
		"page fault lands in a measurement. Not given: lock when "
		"permitted, warn otherwise. true: fail when not permitted. "
		"false: do not lock.", CFG(mlock),
		.set_off = WULTFW_SET_FLAG(struct timer_cfg, mlock_set) },
	/* PR_SET_TIMERSLACK takes 0 as "back to the default 50 us": min 1ns. */
	[TIMER_OPT_TIMERSLACK] = { "timerslack", WULTFW_OPT_DURATION, "1ns",
		"Timer slack of the measuring thread (PR_SET_TIMERSLACK): the "
		"kernel may end a SCHED_OTHER thread's sleep this much late "
		"(50us unless set; 0 would mean that default, so 1ns is the "
		"least). Real-time threads get no slack.",
		.min = "1ns", .max = "1s", CFG(timerslack) },
	[TIMER_OPT_REQCSTATE] = { "reqcstate", WULTFW_OPT_BOOL, "true",
		"Fill ReqCState with the one C-state the measured CPU entered "
		"during a sleep (\"" WFW_REQCSTATE_NONE "\" when it entered "
		"none, \"" WFW_REQCSTATE_SEVERAL "\" when several, \""
		WFW_REQCSTATE_UNKNOWN "\" when the counters could not be "
		"read), from its cpuidle usage counters. They are read on the measured CPU "
		"once per wake-up, after TAI (about 1.5 us per state here); "
		"false drops the column and the reads.", CFG(reqcstate) },
	[TIMER_OPT_RAW] = { "raw", WULTFW_OPT_BOOL, "false",
		"Add the raw CLOCK_MONOTONIC timestamps TBI (just before the "
		"sleep call) and TAI (just after it returned), in ns, beside "
		"LTime (when the timer was due), which every row has.",
		CFG(raw) },
	[TIMER_OPT_RING_SIZE] = { "ring_size", WULTFW_OPT_INT, "65536",
		"Datapoints buffered between the measuring thread and the "
		"reader (rounded up to a power of 2). When it is full, new "
		"datapoints are lost and logged as overruns.",
		.min = "64", .max = "16777216", .unit = "datapoints",
		CFG(ring_size) },
	[TIMER_OPT_COUNT] = { .name = NULL },
};

/* ---- open(): options, schema ---- */

/* The core checked every value against the table's bounds. */
static void timer_parse_opts(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	const struct timer_cfg *cfg = ctx->cfg;

	p->mode = cfg->mode && !strcmp(cfg->mode, "grid") ? TIMER_MODE_GRID :
							     TIMER_MODE_LDIST;
	p->priority = (int)cfg->priority;
	/* mlock has no default: "not given" means "try". */
	if (!cfg->mlock_set)
		p->mlock = TIMER_MLOCK_TRY;
	else
		p->mlock = cfg->mlock ? TIMER_MLOCK_MUST : TIMER_MLOCK_OFF;
	p->slack_ns = cfg->timerslack;
	p->reqcstate = cfg->reqcstate;
	p->raw = cfg->raw;
	p->ring_slots = (size_t)cfg->ring_size;
	p->sysfs_root = ctx->sysfs_root ? ctx->sysfs_root : "/sys";
	p->proc_stat = "/proc/stat";
	p->proc_sys_kernel = "/proc/sys/kernel";
}

static void *timer_probe_thread(void *arg)
{
	return arg;
}

/*
 * Find out now, before anything is measured, whether SCHED_FIFO at the
 * wanted priority is permitted: a thread created with it either starts
 * or fails with EPERM (no root / CAP_SYS_NICE / RLIMIT_RTPRIO, or an RT
 * cgroup without runtime).
 */
static int timer_probe_priority(struct wultfw_ctx *ctx, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t attr;
	pthread_t t;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	ret = pthread_create(&t, &attr, timer_probe_thread, NULL);
	pthread_attr_destroy(&attr);
	if (ret == EPERM)
		return wultfw_fail_opt(ctx, TIMER_OPT_PRIORITY, -EPERM,
				   "priority = %d: SCHED_FIFO is not permitted here (needs root, CAP_SYS_NICE or RLIMIT_RTPRIO >= %d, and RT runtime in this cgroup); run as root or set priority = 0",
				   prio, prio);
	if (ret)
		return wultfw_fail(ctx, -ret,
				   "priority = %d: cannot create a SCHED_FIFO thread: %s",
				   prio, strerror(ret));
	pthread_join(t, NULL);
	return 0;
}

/*
 * The CPU whose cpuidle names the states: the measured one when the core
 * says which, else the first this process may run on.
 */
static int timer_first_allowed_cpu(const struct wultfw_ctx *ctx)
{
	cpu_set_t set;
	int cpu;

	if (ctx->cpu >= 0)
		return ctx->cpu;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

/*
 * ReqCState's names, from the measured CPU when the core told us which
 * (ctx->cpu), else from the first allowed CPU; start() maps the measured
 * CPU's states onto them by name.
 */
static int timer_load_state_names(struct wultfw_ctx *ctx,
				  struct timer_priv *p)
{
	struct wfw_cpuidle *ci = malloc(sizeof(*ci));
	int cpu = timer_first_allowed_cpu(ctx), ret, i;

	if (!ci)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	ret = wfw_cpuidle_open(ci, cpu, p->sysfs_root);
	if (ret == -ENOENT) {
		char why[160];

		/* No states to name: no ReqCState column, not empty cells. */
		wfw_cpuidle_why_none(cpu, p->sysfs_root, why, sizeof(why));
		wultfw_log(ctx, WULTFW_LOG_INFO, "%s: no ReqCState column", why);
		p->reqcstate = false;
		p->no_cpuidle = true;
		free(ci);
		return 0;
	}
	if (ret) {
		free(ci);
		return wultfw_fail(ctx, ret,
				   "cannot read the C-state names below %s/devices/system/cpu/cpu%d/cpuidle: %s; set reqcstate = false to measure without ReqCState",
				   p->sysfs_root, cpu, strerror(-ret));
	}
	for (i = 0; i < ci->nstates; i++) {
		memcpy(p->enum_store[i], ci->names[i], WFW_CPUIDLE_NAME_LEN);
		p->enum_names[i] = p->enum_store[i];
	}
	/* Values for a sleep without one known state, after the names. */
	p->enum_names[i++] = WFW_REQCSTATE_NONE;
	p->enum_names[i++] = WFW_REQCSTATE_SEVERAL;
	p->enum_names[i++] = WFW_REQCSTATE_UNKNOWN;
	p->n_enum = (size_t)i;
	wfw_cpuidle_close(ci);
	free(ci);
	return 0;
}

static void timer_add_col(struct timer_priv *p, const char *name,
			  const char *unit, enum wultfw_col_type type,
			  uint32_t divisor)
{
	struct wultfw_column *c = &p->cols[p->schema.ncols++];

	c->name = name;
	c->unit = unit;
	c->type = type;
	c->divisor = divisor;
	if (type == WULTFW_COL_ENUM) {
		c->enum_names = p->enum_names;
		c->n_enum = p->n_enum;
	}
}

/*
 * Every column open() may give, in the order timer_fill_row() writes
 * cells in; the descriptor declares them (include/exclude are checked
 * against them when the experiment file is loaded).
 */
static const struct wultfw_column timer_columns[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	/* LTime - TBI: how long before the launch the thread went to sleep. */
	{ "SilentTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	/* LTime - when the timer was armed; in mode grid less than ldist. */
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 1, NULL, 0 },	/* reqcstate */
	/* When the timer was due, CLOCK_MONOTONIC: always, so annotators and
	 * collectors line up with each datapoint. */
	{ "LTime", "ns", WULTFW_COL_INT, 1, NULL, 0 },
	{ "TBI", "ns", WULTFW_COL_INT, 1, NULL, 0 },		/* raw: 2 */
	{ "TAI", "ns", WULTFW_COL_INT, 1, NULL, 0 },
	{ .name = NULL },
};

enum { TIMER_COL_REQCSTATE = 3, TIMER_COL_RAW = 5 };

static void timer_build_schema(struct timer_priv *p)
{
	p->schema.cols = p->cols;
	p->schema.ncols = 0;
	for (size_t i = 0; timer_columns[i].name; i++) {
		const struct wultfw_column *c = &timer_columns[i];

		if ((i == TIMER_COL_REQCSTATE && !p->reqcstate) ||
		    (i >= TIMER_COL_RAW && !p->raw))
			continue;
		timer_add_col(p, c->name, c->unit, c->type, c->divisor);
	}
}

static void timer_free(struct timer_priv *p)
{
	if (p->cs.on)
		wfw_cpuidle_close(&p->cs.ci);
	p->cs.on = false;
	timer_ring_free(&p->ring);
	free(p->popbuf);
	p->popbuf = NULL;
}

static int timer_open(struct wultfw_ctx *ctx, struct wultfw_source_info *info)
{
	struct timer_priv *p = calloc(1, sizeof(*p));
	struct timespec res;
	int ret;

	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	timer_parse_opts(ctx, p);
	ret = 0;
	if (p->priority)
		ret = timer_probe_priority(ctx, p->priority);
	if (!ret && p->reqcstate)
		ret = timer_load_state_names(ctx, p);
	if (!ret && clock_getres(CLOCK_MONOTONIC, &res))
		ret = wultfw_fail(ctx, -errno,
				  "clock_getres(CLOCK_MONOTONIC) failed: %s",
				  strerror(errno));
	if (ret) {
		free(p);
		return ret;
	}
	if (res.tv_sec || res.tv_nsec > 1000)
		wultfw_log(ctx, WULTFW_LOG_WARN,
			   "CLOCK_MONOTONIC resolution is %ld ns: this kernel has no high-resolution timers, wake latencies include up to one tick",
			   res.tv_sec * 1000000000L + res.tv_nsec);
	timer_build_schema(p);

	info->devid = "timer";
	info->devdescr = "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) in a user-space thread";
	info->resolution_ns = (uint64_t)(res.tv_sec * 1000000000L + res.tv_nsec);
	info->ldist_min_ns = 1000;
	info->ldist_max_ns = (uint64_t)60 * 1000000000;
	info->ldist_gran_ns = 1;
	info->schema = &p->schema;
	/* What annotators join to: LTime to TAI, the return to user space. */
	info->interval_start = "LTime";
	info->interval_latency = "WakeLatency";
	ctx->priv = p;
	return 0;
}

/* ---- start(): CPU, C-states, memory, thread ---- */

/* Says why `cpu` cannot be measured, from sysfs; 0 if it looks fine. */
static int timer_check_cpu(struct wultfw_ctx *ctx, struct timer_priv *p,
			   int cpu)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[512], c = '1';
	int fd;

	if (cpu < 0 || cpu >= CPU_SETSIZE || (ncpus > 0 && cpu >= ncpus))
		return wultfw_fail(ctx, -EINVAL,
				   "CPU %d does not exist: this machine has CPUs 0-%ld",
				   cpu, ncpus - 1);
	/* cpu0 often has no "online" file: it cannot be taken offline. */
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/online",
		 p->sysfs_root, cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '1';
		close(fd);
	}
	if (c == '0')
		return wultfw_fail(ctx, -ENODEV,
				   "CPU %d is offline (%s is 0): bring it online or measure another CPU",
				   cpu, path);
	return 0;
}

/* Map the measured CPU's C-states onto the schema's ReqCState names. */
static int timer_setup_cstates(struct wultfw_ctx *ctx, struct timer_priv *p,
			       int cpu)
{
	struct timer_cstates *cs = &p->cs;
	int ret, i;
	size_t j;

	if (!p->reqcstate || !p->n_enum)
		return 0;
	cs->none = (int)p->n_enum - WFW_REQCSTATE_N_EXTRA;
	cs->several = cs->none + 1;
	cs->unknown = cs->none + 2;
	ret = wfw_cpuidle_open(&cs->ci, cpu, p->sysfs_root);
	if (ret == -ENOENT) {
		wultfw_log(ctx, WULTFW_LOG_INFO,
			   "CPU %d has no cpuidle directory below %s: ReqCState will be \"" WFW_REQCSTATE_UNKNOWN "\"",
			   cpu, p->sysfs_root);
		return 0;
	}
	if (ret)
		return wultfw_fail(ctx, ret,
				   "cannot read CPU %d's C-states below %s/devices/system/cpu/cpu%d/cpuidle: %s; set reqcstate = false to measure without ReqCState",
				   cpu, p->sysfs_root, cpu, strerror(-ret));
	for (i = 0; i < cs->ci.nstates; i++) {
		cs->map[i] = cs->unknown;
		for (j = 0; j < (size_t)cs->none; j++)
			if (!strcmp(cs->ci.names[i], p->enum_names[j]))
				cs->map[i] = (int)j;
		if (cs->map[i] == cs->unknown)
			wultfw_log(ctx, WULTFW_LOG_WARN,
				   "CPU %d's C-state %d (%s) is not among the states of the first CPU: ReqCState is \"" WFW_REQCSTATE_UNKNOWN "\" when it is entered",
				   cpu, i, cs->ci.names[i]);
	}
	/* Open the counters now, not on the first measurement. */
	{
		uint64_t usage[WFW_CPUIDLE_MAX_STATES];

		ret = wfw_cpuidle_read_usage(&cs->ci, usage);
	}
	if (ret) {
		wfw_cpuidle_close(&cs->ci);
		return wultfw_fail(ctx, ret,
				   "cannot read CPU %d's cpuidle usage counters below %s: %s; set reqcstate = false to measure without ReqCState",
				   cpu, p->sysfs_root, strerror(-ret));
	}
	cs->on = true;
	return 0;
}

static int timer_lock_memory(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	if (p->mlock == TIMER_MLOCK_OFF)
		return 0;
	if (!mlockall(MCL_CURRENT | MCL_FUTURE)) {
		p->locked = true;
		return 0;
	}
	if (p->mlock == TIMER_MLOCK_MUST)
		return wultfw_fail(ctx, -errno,
				   "mlock = true but mlockall() failed: %s (needs root, CAP_IPC_LOCK or a large enough RLIMIT_MEMLOCK); run as root or set mlock = false",
				   strerror(errno));
	wultfw_log(ctx, WULTFW_LOG_WARN,
		   "mlockall() failed (%s; needs root, CAP_IPC_LOCK or a large enough RLIMIT_MEMLOCK): measuring without locked memory, page faults may show up as latency; set mlock = false to silence this",
		   strerror(errno));
	return 0;
}

static int timer_start_thread(struct wultfw_ctx *ctx, struct timer_priv *p,
			      int cpu)
{
	struct sched_param sp = { .sched_priority = p->priority };
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	/* mlockall(MCL_FUTURE) would lock a default 8 MiB stack. */
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (p->priority) {
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	ret = pthread_create(&p->thread, &attr, timer_thread_main, p);
	pthread_attr_destroy(&attr);
	if (ret == EINVAL)
		return wultfw_fail(ctx, -EINVAL,
				   "cannot run the measuring thread on CPU %d: it is not among the CPUs this process may use (taskset, cgroup cpuset)",
				   cpu);
	if (ret == EPERM)
		return wultfw_fail_opt(ctx, TIMER_OPT_PRIORITY, -EPERM,
				   "SCHED_FIFO priority %d is not permitted; run as root or set priority = 0",
				   p->priority);
	if (ret)
		return wultfw_fail(ctx, -ret,
				   "cannot create the measuring thread: %s",
				   strerror(ret));
	p->thread_running = true;
	return 0;
}

/* Record how this run was set up in info.yml. */
static void timer_record_setup(struct wultfw_ctx *ctx, struct timer_priv *p)
{
	char buf[64];

	wultfw_info(ctx, "timer_mode",
		    p->mode == TIMER_MODE_GRID ? "grid" : "ldist");
	if (p->mode == TIMER_MODE_GRID)
		wultfw_log(ctx, WULTFW_LOG_INFO,
			   "mode grid: each deadline is the previous one plus %s, as cyclictest -i; LDist is the real distance from arming to the deadline",
			   p->params.ldist_from_ns == p->params.ldist_to_ns ?
			   "ldist" : "a step picked from the ldist range (not a fixed grid)");
	if (p->priority)
		snprintf(buf, sizeof(buf), "SCHED_FIFO %d", p->priority);
	else
		snprintf(buf, sizeof(buf), "SCHED_OTHER");
	wultfw_info(ctx, "timer_sched", buf);
	wultfw_info(ctx, "timer_mlock", p->locked ? "yes" : "no");
	snprintf(buf, sizeof(buf), "%" PRIu64, p->slack_ns);
	wultfw_info(ctx, "timer_slack_ns", buf);
	wultfw_info(ctx, "timer_reqcstate",
		    p->cs.on ? "cpuidle usage counters, read after each wake-up" :
		    p->no_cpuidle ? "none: the CPU has no cpuidle states" :
		    p->reqcstate ? "no cpuidle" : "off");
	if (!p->priority)
		wultfw_log(ctx, WULTFW_LOG_INFO,
			   "measuring at normal priority: other tasks on CPU %d delay wake-ups; priority = 90 matches cyclictest -p90",
			   p->params.cpu);
}

static void timer_reset_run(struct timer_priv *p)
{
	timer_free(p);
	atomic_store(&p->stop, false);
	atomic_store(&p->produced, 0);
	atomic_store(&p->discarded, 0);
	atomic_store(&p->overruns, 0);
	atomic_store(&p->thread_err, 0);
	atomic_store(&p->usage_err, 0);
	p->pre_ns_sum = p->post_ns_sum = p->slept_ns_sum = p->loops = 0;
	p->grid_missed = 0;
	memset(p->disc_why, 0, sizeof(p->disc_why));
	p->discarded_reported = p->overruns_logged = 0;
	p->overrun_log_ns = 0;
}

static int timer_stop(struct wultfw_ctx *ctx);

static int timer_start(struct wultfw_ctx *ctx,
		       const struct wultfw_source_params *params)
{
	struct timer_priv *p = ctx->priv;
	int ret;

	if (p->thread_running)
		return wultfw_fail(ctx, -EBUSY, "already started");
	/* The core keeps the range within .ldist below; reversed is a core bug. */
	if (params->ldist_from_ns > params->ldist_to_ns)
		return wultfw_fail(ctx, -EINVAL, "launch distance range is reversed");
	timer_reset_run(p);
	p->params = *params;

	ret = timer_check_cpu(ctx, p, params->cpu);
	if (!ret)
		ret = timer_setup_cstates(ctx, p, params->cpu);
	if (!ret) {
		ret = timer_ring_init(&p->ring, p->ring_slots);
		p->popbuf = calloc(TIMER_POPBUF_LEN, sizeof(*p->popbuf));
		p->popbuf_len = TIMER_POPBUF_LEN;
		if (ret || !p->popbuf)
			ret = wultfw_fail(ctx, -ENOMEM,
					  "out of memory for a ring of %zu datapoints: lower ring_size",
					  p->ring_slots);
	}
	/* After the allocations, so MCL_CURRENT locks the ring too. */
	if (!ret)
		ret = timer_lock_memory(ctx, p);
	if (!ret)
		ret = timer_start_thread(ctx, p, params->cpu);
	if (ret) {
		timer_stop(ctx);
		timer_free(p);
		return ret;
	}
	timer_record_setup(ctx, p);
	timer_run_begin(ctx, p);
	return 0;
}

/* ---- read(): hand datapoints over ---- */

static void timer_fill_row(const struct timer_priv *p, union wultfw_cell *row,
			   const struct timer_dp *dp)
{
	size_t c = 0;

	row[c++].i = dp->tai - dp->ltime;	/* WakeLatency */
	row[c++].i = dp->ltime - dp->tbi;	/* SilentTime */
	row[c++].i = dp->ldist;
	if (p->reqcstate)
		row[c++].i = dp->cstate;
	row[c++].i = dp->ltime;
	if (p->raw) {
		row[c++].i = dp->tbi;
		row[c++].i = dp->tai;
	}
}

/* Discarded datapoints go to the batch; overruns are logged, at most 1/s. */
static void timer_account(struct wultfw_ctx *ctx, struct timer_priv *p,
			  struct wultfw_batch *b)
{
	uint64_t d = atomic_load(&p->discarded);
	uint64_t o = atomic_load(&p->overruns);
	int64_t now;

	b->discarded += d - p->discarded_reported;
	p->discarded_reported = d;
	if (o == p->overruns_logged)
		return;
	now = timer_now_ns();
	if (p->overrun_log_ns && now - p->overrun_log_ns < 1000000000)
		return;
	wultfw_log(ctx, WULTFW_LOG_WARN,
		   "%" PRIu64 " datapoints lost so far: the ring of %zu datapoints was full because the reader fell behind; raise ring_size",
		   o, timer_ring_size(&p->ring));
	p->overruns_logged = o;
	p->overrun_log_ns = now;
}

/*
 * While the ring is empty, read() naps TIMER_POLL_NS at a time instead of
 * being woken by the measuring thread: waking a reader would cost the
 * measured CPU a futex syscall per datapoint. Datapoints reach the core up
 * to 1 ms late, which only matters for the progress line.
 */
static int timer_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
		      uint64_t timeout_ns)
{
	struct timer_priv *p = ctx->priv;
	int64_t deadline = timer_now_ns() + (int64_t)timeout_ns;

	if (b->ncols != p->schema.ncols)
		return wultfw_fail(ctx, -EINVAL,
				   "batch has %zu columns, the schema %zu",
				   b->ncols, p->schema.ncols);
	if (!p->ring.slots)
		return wultfw_fail(ctx, -EINVAL, "read() before start()");
	for (;;) {
		size_t got = 0, n, i;
		int64_t left;
		int err;

		do {
			size_t room = b->capacity - b->rows;

			n = timer_ring_pop(&p->ring, p->popbuf,
					   room < p->popbuf_len ? room :
								  p->popbuf_len);
			for (i = 0; i < n; i++)
				timer_fill_row(p, wultfw_row(b, b->rows++),
					       &p->popbuf[i]);
			got += n;
		} while (n == p->popbuf_len);
		timer_account(ctx, p, b);
		if (got || b->rows == b->capacity)
			return WULTFW_READ_OK;

		err = atomic_load(&p->thread_err);
		if (err)
			return wultfw_fail(ctx, err,
					   "the measuring thread could not set its timer slack: %s",
					   strerror(-err));
		if (!p->thread_running)
			return WULTFW_READ_END;
		/* Ctrl-C: let the core stop now, not after the timeout. */
		if (wultfw_stopping(ctx))
			return WULTFW_READ_OK;
		left = deadline - timer_now_ns();
		if (left <= 0)
			return WULTFW_READ_OK;
		{
			struct timespec nap = { 0, left < TIMER_POLL_NS ?
						   left : TIMER_POLL_NS };

			nanosleep(&nap, NULL);
		}
	}
}

/* ---- stop(), close() ---- */

static int timer_stop(struct wultfw_ctx *ctx)
{
	struct timer_priv *p = ctx->priv;
	uint64_t overruns;
	int uerr;
	char buf[32];

	if (p->thread_running) {
		timer_run_sample(p);
		atomic_store(&p->stop, true);
		/* Ends a long sleep at once; see timer_thread_main(). */
		pthread_cancel(p->thread);
		pthread_join(p->thread, NULL);
		p->thread_running = false;

		overruns = atomic_load(&p->overruns);
		if (overruns)
			wultfw_log(ctx, WULTFW_LOG_WARN,
				   "%" PRIu64 " datapoints were lost because the ring was full; raise ring_size",
				   overruns);
		/* Said in full: reads that drain the ring do not repeat it. */
		p->overruns_logged = overruns;
		snprintf(buf, sizeof(buf), "%" PRIu64, overruns);
		wultfw_info(ctx, "timer_overruns", buf);
		uerr = atomic_load(&p->usage_err);
		if (uerr)
			wultfw_log(ctx, WULTFW_LOG_WARN,
				   "reading cpuidle usage counters failed (%s): some ReqCState cells are empty",
				   strerror(-uerr));
		timer_run_end(ctx, p);
	}
	if (p->locked) {
		munlockall();
		p->locked = false;
	}
	return 0;
}

static void timer_close(struct wultfw_ctx *ctx)
{
	struct timer_priv *p = ctx->priv;

	if (!p)
		return;
	timer_stop(ctx);
	timer_free(p);
	free(p);
	ctx->priv = NULL;
}

static const struct wultfw_source_ops timer_ops = {
	.open = timer_open,
	.start = timer_start,
	.read = timer_read,
	.stop = timer_stop,
	.close = timer_close,
};

WULTFW_PLUGIN(timer) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SOURCE,
	.name = "timer",
	.summary = "wake latency of a user-space clock_nanosleep() (cyclictest style), needs no root",
	.options = timer_options,
	.source = &timer_ops,
	.cfg_size = sizeof(struct timer_cfg),
	.ldist = { WULTFW_LDIST_LAUNCH, 1000, 60000000000ULL },
	.columns = timer_columns,
	.caps = WULTFW_CAP_CPU_LIST,	/* one pinned instance per CPU */
};
