/* SPDX-License-Identifier: MIT */
/*
 * State shared by the timer source's ops (timer.c) and its measuring
 * thread (timer_loop.c). Private to the plugin and its unit test.
 */
#ifndef TIMER_STATE_H
#define TIMER_STATE_H

#include <pthread.h>
#include <time.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "sysstate/cpuidle.h"
#include "timer_ring.h"

/* Option indexes: must follow the order of timer_options[] in timer.c. */
enum timer_opt {
	TIMER_OPT_MODE,
	TIMER_OPT_PRIORITY,
	TIMER_OPT_MLOCK,
	TIMER_OPT_TIMERSLACK,
	TIMER_OPT_REQCSTATE,
	TIMER_OPT_RAW,
	TIMER_OPT_RING_SIZE,
	TIMER_OPT_COUNT
};

/* Where the core puts the option values (ABI v2: ctx->cfg). */
struct timer_cfg {
	const char *mode;	/* "ldist" or "grid"; NULL: "ldist" */
	int64_t priority;
	bool mlock;		/* only when given: see timer_parse_opts() */
	bool mlock_set;		/* given (it has no default) */
	uint64_t timerslack;
	bool reqcstate;
	bool raw;
	int64_t ring_size;
};

/* Where each sleep ends (option `mode`). */
enum timer_mode {
	TIMER_MODE_LDIST,	/* now + LDist: every sleep is LDist long */
	TIMER_MODE_GRID,	/* previous deadline + LDist: cyclictest -i */
};

/* The deadline generator of one run (timer_deadline.c). */
struct timer_deadline {
	enum timer_mode mode;
	uint64_t from, to;	/* LDist range: the step on the grid */
	uint64_t seed;
	int64_t ltime;		/* the last deadline handed out */
	bool started;
};

/* How hard to try mlockall(). */
enum timer_mlock {
	TIMER_MLOCK_OFF,	/* mlock = false */
	TIMER_MLOCK_TRY,	/* not given: lock if permitted, else warn */
	TIMER_MLOCK_MUST,	/* mlock = true: fail if not permitted */
};

/* Why a datapoint was discarded (timer_priv.disc_why, info.yml). */
enum timer_disc {
	TIMER_DISC_SIGNAL,	/* clock_nanosleep() ended by a signal */
	TIMER_DISC_NO_SLEEP,	/* TBI >= LTime: never slept */
	TIMER_DISC_EARLY,	/* TAI < LTime: woke before the launch time */
	TIMER_DISC_N
};

/* Most columns: WakeLatency SilentTime LDist ReqCState LTime TBI TAI. */
#define TIMER_MAX_COLS 7

/* ReqCState bookkeeping for the measured CPU. */
struct timer_cstates {
	bool on;		/* read usage counters around every sleep */
	struct wfw_cpuidle ci;	/* the measured CPU's states */
	/* ci state index -> ReqCState enum index in the schema, or unknown */
	int map[WFW_CPUIDLE_MAX_STATES];
	/* enum indices of the WFW_REQCSTATE_* values (no state's name) */
	int none, several, unknown;
};

struct timer_priv {
	/* options, as the core checked them; sysfs root from the core */
	enum timer_mode mode;
	int priority;		/* SCHED_FIFO priority, 0: SCHED_OTHER */
	enum timer_mlock mlock;
	uint64_t slack_ns;	/* PR_SET_TIMERSLACK of the measuring thread */
	bool reqcstate;		/* ReqCState column wanted */
	bool no_cpuidle;	/* ...but the CPU has no cpuidle states */
	bool raw;		/* LTime, TBI, TAI columns wanted */
	size_t ring_slots;
	const char *sysfs_root;

	/* schema, built by open() */
	struct wultfw_column cols[TIMER_MAX_COLS];
	struct wultfw_schema schema;
	/* the first CPU's state names, then the WFW_REQCSTATE_* values */
	char enum_store[WFW_CPUIDLE_MAX_STATES][WFW_CPUIDLE_NAME_LEN];
	const char *enum_names[WFW_CPUIDLE_MAX_STATES + WFW_REQCSTATE_N_EXTRA];
	size_t n_enum;

	/* one run, set up by start() */
	struct wultfw_source_params params;
	struct timer_cstates cs;
	struct timer_ring ring;
	struct timer_dp *popbuf;	/* read() copies the ring through it */
	size_t popbuf_len;
	bool locked;			/* we called mlockall() */
	pthread_t thread;
	bool thread_running;
	atomic_bool stop;

	/* written by the measuring thread, read by read() while it runs */
	atomic_uint_fast64_t produced;	/* datapoints pushed into the ring */
	atomic_uint_fast64_t discarded;	/* inconsistent, dropped */
	atomic_uint_fast64_t overruns;	/* lost because the ring was full */
	atomic_int thread_err;		/* negative errno: the thread gave up */
	atomic_int usage_err;		/* first cpuidle read error, if any */

	/* written by the thread, read only after it was joined */
	uint64_t pre_ns_sum;		/* "now" to TBI: work before the sleep */
	uint64_t post_ns_sum;		/* TAI to end of the post-wake work */
	uint64_t slept_ns_sum;		/* TAI - TBI: time in clock_nanosleep() */
	uint64_t loops;
	uint64_t grid_missed;		/* grid deadlines skipped, passed */
	uint64_t disc_why[TIMER_DISC_N];	/* discarded, by reason */

	/* the run as the kernel saw it (timer_run.c) */
	const char *proc_stat;		/* /proc/stat; tests give a model */
	const char *proc_sys_kernel;	/* /proc/sys/kernel */
	int64_t run_t0_ns;		/* when the thread was started */
	uint64_t idle0_ns;		/* the CPU's idle+iowait then */
	bool idle0_ok;
	clockid_t thread_clock;		/* the thread's CPU-time clock */
	bool have_thread_clock;
	uint64_t run_wall_ns, thread_cpu_ns, idle_ns;	/* at stop() */
	bool idle_ok;

	/* read()'s bookkeeping */
	uint64_t discarded_reported;
	uint64_t overruns_logged;
	int64_t overrun_log_ns;		/* when overruns were last logged */
};

void *timer_thread_main(void *arg);

/* TBI < LTime <= TAI: the thread really slept and woke after LTime. */
bool timer_dp_consistent(const struct timer_dp *dp);

/*
 * ReqCState enum index from usage counters around one sleep: the one state
 * entered, or cs->none / cs->several / cs->unknown.
 */
int timer_reqcstate(const struct timer_cstates *cs, const uint64_t *before,
		    const uint64_t *after);

int64_t timer_now_ns(void);

void timer_deadline_init(struct timer_deadline *d, enum timer_mode mode,
			 const struct wultfw_source_params *params);
/*
 * The next sleep's LTime, the thread about to arm it at `now`; grid
 * deadlines that had passed by then are skipped and added to *missed.
 */
int64_t timer_next_ltime(struct timer_deadline *d, int64_t now,
			 uint64_t *missed);

/* Why a datapoint is discarded, or -1 if it is kept (sleep_ret: errno). */
int timer_dp_why(const struct timer_dp *dp, int sleep_ret);

/* timer_run.c: what the kernel says about the run, before and after. */
struct wultfw_ctx;
void timer_run_begin(struct wultfw_ctx *ctx, struct timer_priv *p);
void timer_run_sample(struct timer_priv *p);	/* before the thread stops */
void timer_run_end(struct wultfw_ctx *ctx, struct timer_priv *p);

#endif
