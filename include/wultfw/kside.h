/* SPDX-License-Identifier: MIT */
/*
 * Part of the plugin API, installed with plugin.h and versioned with it
 * (WULTFW_PLUGIN_ABI_VERSION; its names begin with wultfw_ since ABI 3,
 * wfw_ before): an out-of-tree source
 * links libwultfw_kside.a (pkg-config --libs wultfw) into its plugin.
 *
 * Kernel-side datapoints -> wult columns. Every source whose timestamps are
 * taken in the kernel (hrt via eBPF, tdt/i210 via the kernel module) hands
 * its raw datapoint to this library, so WakeLatency, IntrLatency,
 * SilentTime, IntrOff and the C-state percentages are computed in exactly
 * one place and mean the same thing for every source.
 *
 * Usage:
 *   struct wultfw_kside ks;
 *   struct wultfw_kside_cfg cfg = { .counters = ..., .cstate_names = ... };
 *   wultfw_kside_init(&ks, &cfg);          // builds ks.schema
 *   ...
 *   if (wultfw_kside_check(&dp) != WULTFW_KSIDE_OK) b->discarded++;
 *   else wultfw_kside_fill(&ks, &dp, wultfw_row(b, b->rows++));
 *   // then the source fills its own extra columns from ks.first_extra on.
 *
 * All times are nanoseconds on one clock (the source converts first).
 *
 * Overheads: a source that measures the cost of its own timestamping says
 * so with WULTFW_KSIDE_HAS_OVERHEADS and fills tai_pre/tintr_pre/ai_overhead/
 * intr_overhead; WakeLatency and IntrLatency are then adjusted (see
 * wultfw_kside_fill()), and with cfg.raw the columns WakeLatencyRaw,
 * IntrLatencyRaw, AIOverhead and IntrOverhead keep the unadjusted values.
 * A source without the bit gets none of those four columns: they would be
 * zeros and copies of the adjusted latencies, i.e. invented data.
 */
#ifndef WULTFW_KSIDE_H
#define WULTFW_KSIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/plugin.h>

/* Optional counters a source can supply (bits of wultfw_kside_cfg.counters). */
#define WULTFW_KSIDE_HAS_TSC	(1u << 0)	/* TotCyc: TSC delta */
#define WULTFW_KSIDE_HAS_APERF	(1u << 1)
#define WULTFW_KSIDE_HAS_MPERF	(1u << 2)	/* CC0Cyc */
#define WULTFW_KSIDE_HAS_SMI	(1u << 3)	/* SMICnt */
#define WULTFW_KSIDE_HAS_NMI	(1u << 4)	/* NMICnt */
/* The timestamping cost is measured: raw adds WakeLatencyRaw..IntrOverhead. */
#define WULTFW_KSIDE_HAS_OVERHEADS	(1u << 5)

/* C-state residency counters (CC1, CC6, MC6, PC2, PC6, ...), in TSC cycles. */
#define WULTFW_KSIDE_MAX_RES	12
#define WULTFW_KSIDE_RES_NAME_LEN	8

/* Upper bound of columns a kside schema can have, extras included. */
#define WULTFW_KSIDE_MAX_COLS	64

struct wultfw_kside_cfg {
	unsigned int counters;		/* WULTFW_KSIDE_HAS_* */
	/*
	 * Residency counter names as wult spells them: "CC1", "CC6", "MC6",
	 * "PC2", "PC6". Each becomes a "<name>%" column (needs TSC).
	 */
	size_t nres;
	const char *res_names[WULTFW_KSIDE_MAX_RES];
	/* cpuidle state names for the ReqCState enum (index = state index). */
	const char *const *cstate_names;
	size_t n_cstates;
	/* Add the raw columns too: LTime, TBI, TAI, TIntr, TotCyc, CC0Cyc... */
	bool raw;
	/* Source-specific columns appended after the kside ones. */
	const struct wultfw_column *extra;
	size_t nextra;
};

/* One raw kernel-side datapoint. */
struct wultfw_kside_dp {
	uint64_t tbi;		/* time before idle (last idle entry) */
	uint64_t ltime;		/* launch time: when the event was due */
	uint64_t tai;		/* time after idle (idle exit) */
	uint64_t tintr;		/* time in the interrupt/timer handler */
	uint64_t ldist;		/* launch distance asked for */
	int req_state;		/* cpuidle state index requested; -1 unknown */
	/*
	 * 1: the C-state was entered with interrupts off (the idle exit runs
	 * before the handler), 0: with interrupts on, -1: unknown, derive it
	 * from the order of TAI and TIntr.
	 */
	int intr_off;
	/* Counter deltas over the idle period; only those in cfg.counters. */
	uint64_t tsc, aperf, mperf, smi, nmi;
	uint64_t res[WULTFW_KSIDE_MAX_RES];	/* same order as cfg.res_names */
	/* Wall time the counter deltas cover (for CPUFreq); 0: TAI - TBI. */
	uint64_t cyc_ns;
	/*
	 * Our own timestamping, ns. tai_pre/tintr_pre: the part of the TAI /
	 * TIntr read before the time was sampled (always in the latency).
	 * ai_overhead: our code after the TAI sample, which the handler waits
	 * for when interrupts are off in idle; intr_overhead: our code after
	 * the TIntr sample, which the idle exit waits for when they are on.
	 */
	uint64_t tai_pre, tintr_pre, ai_overhead, intr_overhead;
};

/* Why a datapoint is inconsistent (wultfw_kside_check()). */
enum wultfw_kside_bad {
	WULTFW_KSIDE_OK = 0,
	WULTFW_KSIDE_BAD_TBI,	/* TBI >= LTime: idle entered after launch */
	WULTFW_KSIDE_BAD_TAI,	/* TAI <= LTime: woke up before the event */
	WULTFW_KSIDE_BAD_TINTR,	/* TIntr < LTime: handler before the event */
	WULTFW_KSIDE_BAD_ZERO,	/* a timestamp is missing (0) */
	WULTFW_KSIDE_BAD_TOTCYC,	/* TSC present but its delta is 0 */
	WULTFW_KSIDE_BAD_OVERHEAD,	/* overheads exceed the latency they are in */
};

struct wultfw_kside {
	struct wultfw_kside_cfg cfg;
	struct wultfw_column cols[WULTFW_KSIDE_MAX_COLS];
	char res_col_names[WULTFW_KSIDE_MAX_RES][WULTFW_KSIDE_RES_NAME_LEN + 2];
	char res_raw_names[WULTFW_KSIDE_MAX_RES][WULTFW_KSIDE_RES_NAME_LEN + 4];
	struct wultfw_schema schema;	/* cols[0..ncols) */
	size_t first_extra;		/* column index of cfg.extra[0] */
	/* Column index of each derived value, -1 when absent. */
	int c_wake, c_silent, c_intr, c_introff, c_ldist, c_reqcs;
	int c_cc0, c_cc1d, c_res0, c_cpufreq, c_smi, c_nmi;
	int c_raw0;			/* first raw column */
	int c_wake_raw;			/* WakeLatencyRaw, IntrLatencyRaw,
					   AIOverhead, IntrOverhead follow */
	int c_ltime;			/* LTime: in every row (raw or not) */
};

/*
 * The interval annotators join to (wultfw_source_info.interval_*): from
 * LTime to the handler, IntrLatency (doc/attribution.md).
 */
static inline void wultfw_kside_interval(struct wultfw_source_info *info)
{
	info->interval_start = "LTime";
	info->interval_latency = "IntrLatency";
}

/*
 * Build the schema from cfg (copied; the strings it points to must outlive
 * ks). Returns 0, or -EINVAL (too many columns, a residency counter or
 * CPUFreq without the TSC, a residency name too long).
 */
int wultfw_kside_init(struct wultfw_kside *ks, const struct wultfw_kside_cfg *cfg);

/* WULTFW_KSIDE_OK, or why the datapoint must be dropped. */
enum wultfw_kside_bad wultfw_kside_check(const struct wultfw_kside *ks,
				   const struct wultfw_kside_dp *dp);
/* 1 if the C-state was entered with interrupts off (see intr_off). */
int wultfw_kside_intr_off(const struct wultfw_kside_dp *dp);
const char *wultfw_kside_bad_str(enum wultfw_kside_bad why);

/*
 * Fill the kside columns of one row (ks->schema.ncols cells; the extra
 * columns are left for the caller). dp must have passed wultfw_kside_check().
 * Percentages are FLOAT; NaN where the TSC delta is 0.
 *
 *   WakeLatency = TAI - LTime - tai_pre - (IntrOff ? 0 : intr_overhead)
 *   IntrLatency = TIntr - LTime - tintr_pre - (IntrOff ? ai_overhead : 0)
 */
void wultfw_kside_fill(const struct wultfw_kside *ks, const struct wultfw_kside_dp *dp,
		    union wultfw_cell *row);

#endif
