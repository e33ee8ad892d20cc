/* SPDX-License-Identifier: MIT */
/*
 * hrt's hardware counters: which of the msr / cstate_core / cstate_module /
 * cstate_pkg perf events this machine has (from sysfs), and opening them on
 * the measured CPU so the eBPF program can read them at idle entry and exit.
 * Apart from hrt.c so unit tests can run it on a fake sysfs tree.
 */
#ifndef HRT_PMU_H
#define HRT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/kside.h>

/* TSC, APERF, MPERF, SMI and up to 12 residency counters. */
#define HRT_PMU_MAX	16

/* What a counter means to lib/kside. */
enum hrt_pmu_kind {
	HRT_PMU_TSC,
	HRT_PMU_APERF,
	HRT_PMU_MPERF,
	HRT_PMU_SMI,
	HRT_PMU_RES,		/* C-state residency, TSC cycles */
};

struct hrt_pmu_ctr {
	const char *pmu;	/* "msr", "cstate_core", ... */
	const char *event;	/* "tsc", "c6-residency", ... */
	enum hrt_pmu_kind kind;
	const char *res_name;	/* wult's name for HRT_PMU_RES: "CC6", "PC6" */
	uint32_t type;		/* perf_event_attr.type from sysfs */
	uint64_t config;	/* perf_event_attr.config from sysfs */
	int fd;			/* perf event on the measured CPU, or -1 */
};

struct hrt_pmu {
	size_t n;			/* present counters, kside order */
	struct hrt_pmu_ctr c[HRT_PMU_MAX];
	int cpu;			/* CPU the fds count on, -1: none */
	/* Known counters this machine lacks, "pmu/event" comma-separated. */
	char absent[512];
};

/*
 * Find the counters under `root` (normally /sys/bus/event_source/devices).
 * A PMU or event file that is missing makes the counter absent; one that
 * exists but cannot be parsed is an error (-EINVAL, message in err).
 * A residency counter without msr/tsc is useless (percentages are of TotCyc)
 * and is listed as absent.
 */
int hrt_pmu_discover(struct hrt_pmu *pmu, const char *root, char *err,
		     size_t errlen);

/*
 * Open every present counter on `cpu` (system-wide, pinned). On failure all
 * are closed and err names the counter and the errno.
 */
int hrt_pmu_open(struct hrt_pmu *pmu, int cpu, char *err, size_t errlen);
void hrt_pmu_close(struct hrt_pmu *pmu);

/* Counter flags and residency names for lib/kside (names live in pmu). */
void hrt_pmu_kside_cfg(const struct hrt_pmu *pmu, struct wultfw_kside_cfg *kc);

/*
 * Put counter deltas (deltas[i] for pmu->c[i]) into a kside datapoint.
 * dp->cyc_ns is left alone: the caller knows what the deltas cover.
 */
void hrt_pmu_fill_dp(const struct hrt_pmu *pmu, const uint64_t *deltas,
		     struct wultfw_kside_dp *dp);

/*
 * True if a counter besides the TSC is present: only those give columns
 * outside raw mode (CC0%, CCx%, PCx%, CPUFreq, SMICnt).
 */
bool hrt_pmu_beyond_tsc(const struct hrt_pmu *pmu);

/* "msr/tsc,cstate_core/c6-residency" (or "none") into buf. */
void hrt_pmu_present_str(const struct hrt_pmu *pmu, char *buf, size_t len);

/*
 * Parse an events/NAME file ("event=0x03", "event=0x01,umask=0x2") against
 * the PMU's format/ directory (`fmtdir`, "config:0-63" per term) into
 * *config. Returns 0 or -EINVAL.
 */
int hrt_pmu_parse_event(const char *fmtdir, const char *spec,
			uint64_t *config);

#endif
