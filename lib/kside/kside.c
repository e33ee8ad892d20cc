/* SPDX-License-Identifier: MIT */
/* Kernel-side datapoints -> wult columns; see kside.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <wultfw/kside.h>

static const char *const kside_bool_names[] = { "False", "True" };

/* Append one column; -1 when the schema is full. */
static int add_col(struct wultfw_kside *ks, const char *name, const char *unit,
		   enum wultfw_col_type type, uint32_t divisor)
{
	size_t i = ks->schema.ncols;

	if (i >= WULTFW_KSIDE_MAX_COLS)
		return -1;
	ks->cols[i] = (struct wultfw_column){
		.name = name, .unit = unit, .type = type, .divisor = divisor,
	};
	ks->schema.ncols++;
	return (int)i;
}

#define NS_AS_US(name) add_col(ks, name, "us", WULTFW_COL_INT, 1000)
#define RAW_NS(name) add_col(ks, name, "ns", WULTFW_COL_INT, 1)
#define PERCENT(name) add_col(ks, name, "%", WULTFW_COL_FLOAT, 0)

/* wult's first columns: latencies, IntrOff, LDist, ReqCState. 0 or -EINVAL. */
static int add_wult_cols(struct wultfw_kside *ks, const struct wultfw_kside_cfg *cfg)
{
	ks->c_wake = NS_AS_US("WakeLatency");
	ks->c_silent = NS_AS_US("SilentTime");
	ks->c_intr = NS_AS_US("IntrLatency");
	ks->c_introff = add_col(ks, "IntrOff", "", WULTFW_COL_ENUM, 0);
	ks->cols[ks->c_introff].enum_names = kside_bool_names;
	ks->cols[ks->c_introff].n_enum = 2;
	ks->c_ldist = NS_AS_US("LDist");
	/* No cpuidle states, no column: never a column of empty cells. */
	ks->c_reqcs = -1;
	if (cfg->n_cstates) {
		ks->c_reqcs = add_col(ks, "ReqCState", "", WULTFW_COL_ENUM, 0);
		if (ks->c_reqcs < 0)
			return -EINVAL;
		ks->cols[ks->c_reqcs].enum_names = cfg->cstate_names;
		ks->cols[ks->c_reqcs].n_enum = cfg->n_cstates;
	}
	return 0;
}

/* The residency percentages and counters the machine has. 0 or -EINVAL. */
static int add_counter_cols(struct wultfw_kside *ks, const struct wultfw_kside_cfg *cfg)
{
	unsigned int has = cfg->counters;

	if (has & WULTFW_KSIDE_HAS_MPERF) {
		ks->c_cc0 = PERCENT("CC0%");
		ks->c_cc1d = PERCENT("CC1Derived%");
	}
	for (size_t i = 0; i < cfg->nres; i++) {
		const char *n = cfg->res_names[i];

		if (!n || !*n || strlen(n) > WULTFW_KSIDE_RES_NAME_LEN)
			return -EINVAL;
		snprintf(ks->res_col_names[i], sizeof(ks->res_col_names[i]),
			 "%s%%", n);
		if (PERCENT(ks->res_col_names[i]) < 0)
			return -EINVAL;
		if (i == 0)
			ks->c_res0 = (int)ks->schema.ncols - 1;
	}
	if ((has & WULTFW_KSIDE_HAS_APERF) && (has & WULTFW_KSIDE_HAS_MPERF))
		ks->c_cpufreq = add_col(ks, "CPUFreq", "MHz", WULTFW_COL_FLOAT, 0);
	if (has & WULTFW_KSIDE_HAS_SMI)
		ks->c_smi = add_col(ks, "SMICnt", "", WULTFW_COL_INT, 1);
	if (has & WULTFW_KSIDE_HAS_NMI)
		ks->c_nmi = add_col(ks, "NMICnt", "", WULTFW_COL_INT, 1);
	return 0;
}

/* wult's names for the unadjusted latencies and the raw times and cycles. */
static void add_raw_cols(struct wultfw_kside *ks, const struct wultfw_kside_cfg *cfg)
{
	unsigned int has = cfg->counters;

	/* Unmeasured overheads would be columns of zeros and copies. */
	if (has & WULTFW_KSIDE_HAS_OVERHEADS) {
		ks->c_wake_raw = NS_AS_US("WakeLatencyRaw");
		NS_AS_US("IntrLatencyRaw");
		NS_AS_US("AIOverhead");
		NS_AS_US("IntrOverhead");
	}
	ks->c_raw0 = RAW_NS("LTime");
	RAW_NS("TBI");
	RAW_NS("TAI");
	RAW_NS("TIntr");
	if (has & WULTFW_KSIDE_HAS_TSC)
		add_col(ks, "TotCyc", "cycles", WULTFW_COL_INT, 1);
	if (has & WULTFW_KSIDE_HAS_MPERF)
		add_col(ks, "CC0Cyc", "cycles", WULTFW_COL_INT, 1);
	if (has & WULTFW_KSIDE_HAS_APERF)
		add_col(ks, "APERF", "cycles", WULTFW_COL_INT, 1);
	for (size_t i = 0; i < cfg->nres; i++) {
		snprintf(ks->res_raw_names[i], sizeof(ks->res_raw_names[i]),
			 "%sCyc", cfg->res_names[i]);
		add_col(ks, ks->res_raw_names[i], "cycles", WULTFW_COL_INT, 1);
	}
}

int wultfw_kside_init(struct wultfw_kside *ks, const struct wultfw_kside_cfg *cfg)
{
	unsigned int has = cfg->counters;
	bool tsc = has & WULTFW_KSIDE_HAS_TSC;

	memset(ks, 0, sizeof(*ks));
	ks->cfg = *cfg;
	ks->schema.cols = ks->cols;
	ks->c_cc0 = ks->c_cc1d = ks->c_res0 = ks->c_cpufreq = -1;
	ks->c_smi = ks->c_nmi = ks->c_raw0 = ks->c_wake_raw = ks->c_ltime = -1;

	/* Percentages are cycles / TotCyc: meaningless without the TSC. */
	if (cfg->nres > WULTFW_KSIDE_MAX_RES || (cfg->nres && !tsc) ||
	    ((has & (WULTFW_KSIDE_HAS_APERF | WULTFW_KSIDE_HAS_MPERF)) && !tsc))
		return -EINVAL;
	/* wult's column order. */
	if (add_wult_cols(ks, cfg) || add_counter_cols(ks, cfg))
		return -EINVAL;
	if (cfg->raw)
		add_raw_cols(ks, cfg);
	/* When the timer was due: in every row, for annotators. */
	ks->c_ltime = cfg->raw ? ks->c_raw0 : RAW_NS("LTime");
	ks->first_extra = ks->schema.ncols;
	for (size_t i = 0; i < cfg->nextra; i++) {
		if (ks->schema.ncols >= WULTFW_KSIDE_MAX_COLS)
			return -EINVAL;
		ks->cols[ks->schema.ncols++] = cfg->extra[i];
	}
	/* add_col() returns -1 once full: the last fixed column tells. */
	if (ks->c_ldist < 0 || ks->c_ltime < 0 || (cfg->raw && ks->c_raw0 < 0))
		return -EINVAL;
	return 0;
}

/*
 * The adjusted latencies (kside.h). Nonzero if they make no sense: one
 * below zero, or the event that waited for the other (the handler with
 * interrupts off in idle, the idle exit with them on) now before it.
 */
static int kside_adjust(const struct wultfw_kside_dp *dp, int64_t *wake,
			int64_t *intr)
{
	int off = wultfw_kside_intr_off(dp);

	*wake = (int64_t)(dp->tai - dp->ltime) - (int64_t)dp->tai_pre -
		(off ? 0 : (int64_t)dp->intr_overhead);
	*intr = (int64_t)(dp->tintr - dp->ltime) - (int64_t)dp->tintr_pre -
		(off ? (int64_t)dp->ai_overhead : 0);
	if (*wake < 0 || *intr < 0)
		return -1;
	return off ? *intr < *wake : *wake < *intr;
}

enum wultfw_kside_bad wultfw_kside_check(const struct wultfw_kside *ks,
				   const struct wultfw_kside_dp *dp)
{
	int64_t wake, intr;

	if (!dp->tbi || !dp->ltime || !dp->tai || !dp->tintr)
		return WULTFW_KSIDE_BAD_ZERO;
	if (dp->tbi >= dp->ltime)
		return WULTFW_KSIDE_BAD_TBI;
	if (dp->tai <= dp->ltime)
		return WULTFW_KSIDE_BAD_TAI;
	if (dp->tintr < dp->ltime)
		return WULTFW_KSIDE_BAD_TINTR;
	if ((ks->cfg.counters & WULTFW_KSIDE_HAS_TSC) && !dp->tsc)
		return WULTFW_KSIDE_BAD_TOTCYC;
	if (kside_adjust(dp, &wake, &intr))
		return WULTFW_KSIDE_BAD_OVERHEAD;
	return WULTFW_KSIDE_OK;
}

int wultfw_kside_intr_off(const struct wultfw_kside_dp *dp)
{
	if (dp->intr_off >= 0)
		return dp->intr_off ? 1 : 0;
	/* handler before idle exit: interrupts were on in idle */
	return dp->tai <= dp->tintr ? 1 : 0;
}

const char *wultfw_kside_bad_str(enum wultfw_kside_bad why)
{
	switch (why) {
	case WULTFW_KSIDE_OK:
		return "consistent";
	case WULTFW_KSIDE_BAD_TBI:
		return "idle entered after the launch time (TBI >= LTime)";
	case WULTFW_KSIDE_BAD_TAI:
		return "idle exit before the launch time (TAI <= LTime)";
	case WULTFW_KSIDE_BAD_TINTR:
		return "handler ran before the launch time (TIntr < LTime)";
	case WULTFW_KSIDE_BAD_ZERO:
		return "a timestamp is missing";
	case WULTFW_KSIDE_BAD_TOTCYC:
		return "TSC did not advance (TotCyc = 0)";
	case WULTFW_KSIDE_BAD_OVERHEAD:
		return "measured overheads exceed the latency they are part of";
	}
	return "unknown";
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? (double)part * 100.0 / (double)total : NAN;
}

/* Core C-state residencies are "CCn"; package "PCn" and module "MCn" are not. */
static bool is_core_res(const char *name)
{
	return name[0] == 'C' && name[1] == 'C';
}

void wultfw_kside_fill(const struct wultfw_kside *ks, const struct wultfw_kside_dp *dp,
		    union wultfw_cell *row)
{
	const struct wultfw_kside_cfg *cfg = &ks->cfg;
	int64_t wake_raw = (int64_t)(dp->tai - dp->ltime);
	int64_t intr_raw = (int64_t)(dp->tintr - dp->ltime);
	int64_t wake, intr;
	size_t i;

	/* Take out what our own timestamping added (see kside.h). */
	kside_adjust(dp, &wake, &intr);
	row[ks->c_wake].i = wake;
	row[ks->c_silent].i = (int64_t)(dp->ltime - dp->tbi);
	row[ks->c_intr].i = intr;
	row[ks->c_introff].i = wultfw_kside_intr_off(dp);
	row[ks->c_ldist].i = (int64_t)dp->ldist;
	if (ks->c_reqcs >= 0)
		row[ks->c_reqcs].i = dp->req_state >= 0 &&
				     (size_t)dp->req_state < cfg->n_cstates ?
				     dp->req_state : -1;

	if (ks->c_cc0 >= 0) {
		double cc0 = pct(dp->mperf, dp->tsc), other = 0.0;

		row[ks->c_cc0].f = cc0;
		/*
		 * CC1Derived: time neither in C0 nor in a deeper core C-state
		 * that has its own counter (CC1 has none on most CPUs).
		 */
		for (i = 0; i < cfg->nres; i++)
			if (is_core_res(cfg->res_names[i]) &&
			    strcmp(cfg->res_names[i], "CC1"))
				other += pct(dp->res[i], dp->tsc);
		row[ks->c_cc1d].f = 100.0 - cc0 - other;
	}
	for (i = 0; i < cfg->nres; i++)
		row[ks->c_res0 + (int)i].f = pct(dp->res[i], dp->tsc);
	if (ks->c_cpufreq >= 0) {
		uint64_t ns = dp->cyc_ns ? dp->cyc_ns : dp->tai - dp->tbi;

		/* TSC rate times APERF/MPERF: the average clock while in C0. */
		row[ks->c_cpufreq].f = dp->mperf && ns ?
			(double)dp->tsc / (double)ns * 1000.0 *
			(double)dp->aperf / (double)dp->mperf : NAN;
	}
	if (ks->c_smi >= 0)
		row[ks->c_smi].i = (int64_t)dp->smi;
	if (ks->c_nmi >= 0)
		row[ks->c_nmi].i = (int64_t)dp->nmi;

	if (ks->c_wake_raw >= 0) {
		int c = ks->c_wake_raw;

		row[c++].i = wake_raw;
		row[c++].i = intr_raw;
		row[c++].i = (int64_t)dp->ai_overhead;
		row[c++].i = (int64_t)dp->intr_overhead;
	}
	row[ks->c_ltime].i = (int64_t)dp->ltime;
	if (ks->c_raw0 >= 0) {
		int c = ks->c_raw0;

		row[c++].i = (int64_t)dp->ltime;
		row[c++].i = (int64_t)dp->tbi;
		row[c++].i = (int64_t)dp->tai;
		row[c++].i = (int64_t)dp->tintr;
		if (cfg->counters & WULTFW_KSIDE_HAS_TSC)
			row[c++].i = (int64_t)dp->tsc;
		if (cfg->counters & WULTFW_KSIDE_HAS_MPERF)
			row[c++].i = (int64_t)dp->mperf;
		if (cfg->counters & WULTFW_KSIDE_HAS_APERF)
			row[c++].i = (int64_t)dp->aperf;
		for (i = 0; i < cfg->nres; i++)
			row[c++].i = (int64_t)dp->res[i];
	}
}
