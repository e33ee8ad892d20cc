/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * wultfw kernel side <-> user space interface: the one header shared by the
 * kernel modules (kmod/) and the user-space plugins that read /dev/wultfw.
 *
 * Usage: open /dev/wultfw (root, one opener at a time), WULTFW_IOC_CONFIG,
 * WULTFW_IOC_START, read() whole struct wultfw_record's, WULTFW_IOC_STOP or
 * close(). Closing the file stops a run.
 */
#ifndef _UAPI_WULTFW_IOCTL_H
#define _UAPI_WULTFW_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define WULTFW_DEVNAME		"wultfw"
#define WULTFW_NAME_LEN		16
#define WULTFW_WHY_LEN		128
#define WULTFW_DEV_DATA		2	/* device-specific values per record */

/* Time base of ltime/tbi/tai/tintr in a record (device dependent). */
#define WULTFW_TUNIT_NS		0	/* CLOCK_MONOTONIC nanoseconds */
#define WULTFW_TUNIT_TSC	1	/* TSC cycles */

/*
 * Counter slots in a record. A counter the CPU lacks has its bit clear in
 * ctr_present and its value 0; never use a value whose bit is clear.
 */
enum wultfw_ctr {
	WULTFW_CTR_TSC = 0,
	WULTFW_CTR_APERF,
	WULTFW_CTR_MPERF,
	WULTFW_CTR_SMI,		/* MSR_SMI_COUNT (0x34) */
	WULTFW_CTR_NMI,		/* the kernel's per-CPU NMI count */
	WULTFW_CTR_CC1,		/* core C1 residency (0x660) */
	WULTFW_CTR_CC3,		/* core C3 residency (0x3fc) */
	WULTFW_CTR_CC6,		/* core C6 residency (0x3fd) */
	WULTFW_CTR_CC7,		/* core C7 residency (0x3fe) */
	WULTFW_CTR_MC6,		/* module C6 residency (0x664) */
	WULTFW_CTR_PC2,		/* package C2 residency (0x60d) */
	WULTFW_CTR_PC3,		/* package C3 residency (0x3f8) */
	WULTFW_CTR_PC6,		/* package C6 residency (0x3f9) */
	WULTFW_CTR_PC7,		/* package C7 residency (0x3fa) */
	WULTFW_CTR_PC8,		/* package C8 residency (0x630) */
	WULTFW_CTR_PC9,		/* package C9 residency (0x631) */
	WULTFW_CTR_PC10,	/* package C10 residency (0x632) */
	WULTFW_NR_CTRS
};

/* Configure a run: in = size..reserved, out = the rest. */
struct wultfw_config {
	__u32 size;			/* in: sizeof(struct wultfw_config) */
	__u32 cpu;			/* in: measured CPU, must be online */
	char device[WULTFW_NAME_LEN];	/* in: "hrt", "tdt", ... NUL-terminated */
	__u64 ldist_from_ns;		/* in: launch distance range, inclusive */
	__u64 ldist_to_ns;
	/*
	 * in: seed of the launch distance generator. The same seed gives the
	 * same sequence: the n-th arm of a run (record.arm_seq == n) uses the
	 * n-th value, whatever was dropped in between.
	 */
	__u64 seed;
	__u64 reserved;			/* in: must be 0 */
	__u64 resolution_ns;		/* out: device granularity */
	__u64 ldist_min_ns;		/* out: device limits */
	__u64 ldist_max_ns;
	__u32 tunit;			/* out: WULTFW_TUNIT_* */
	__u32 ctr_present;		/* out: bit per enum wultfw_ctr */
	/* out: names of record.dev_data[i] (nanoseconds); "" = unused */
	char dev_data_names[WULTFW_DEV_DATA][WULTFW_NAME_LEN];
	char why[WULTFW_WHY_LEN];	/* out: why the config was refused */
};

/* One datapoint; read() returns only whole records. */
struct wultfw_record {
	__u64 seq;		/* 0, 1, 2, ... per run, over published records */
	__u64 ldist_ns;		/* launch distance requested */
	__u64 ltime;		/* launch time (device time base, tunit) */
	__u64 tbi;		/* time before idle (last idle entry before LTime) */
	__u64 tai;		/* time after idle (first idle exit after LTime) */
	__u64 tintr;		/* time in the device's interrupt path */
	__u64 discarded;	/* inconsistent datapoints dropped so far this run */
	__u64 arm_seq;		/* which arm of the run (0, 1, ...) this is */
	/*
	 * Cost of our own timestamping, in nanoseconds (kmod/README.md,
	 * "Overheads"): the part of the TAI / TIntr read before the time was
	 * sampled, and our code that runs after the TAI sample (counters) or
	 * after the TIntr sample (waking the armer) and so delays the other.
	 */
	__u64 tai_pre_ns;	/* WakeLatency includes it */
	__u64 tintr_pre_ns;	/* IntrLatency includes it */
	__u64 ai_overhead_ns;	/* AIOverhead: in IntrLatency if interrupts off */
	__u64 intr_overhead_ns;	/* IntrOverhead: in WakeLatency if irqs on */
	__u64 dev_data[WULTFW_DEV_DATA];	/* config.dev_data_names, ns */
	__u64 ctr_bi[WULTFW_NR_CTRS];	/* counters at TBI */
	__u64 ctr_ai[WULTFW_NR_CTRS];	/* counters at TAI */
	__u32 ctr_present;	/* bit per enum wultfw_ctr */
	__u32 tunit;		/* WULTFW_TUNIT_* */
	__u32 cpu;		/* measured CPU */
	__u32 req_cstate;	/* cpuidle state index requested at TBI */
};

struct wultfw_stats {
	__u32 size;		/* in: sizeof(struct wultfw_stats) */
	__u32 running;		/* out: 1 while the armer runs */
	__u64 armed;		/* events armed */
	__u64 published;	/* records put in the ring */
	__u64 discarded;	/* total of the discard_* reasons below */
	__u64 discard_cpu;	/* event handled on another CPU */
	__u64 discard_noidle;	/* the CPU was not idle when the event fired */
	__u64 discard_order;	/* TBI < LTime < TAI or LTime < TIntr violated */
	/*
	 * The device's event changed after arming (tdt: another deadline in
	 * the MSR at the last idle entry before the event).
	 */
	__u64 discard_changed;
	__u64 timeouts;		/* event never came (cancelled) */
	__u64 rearm;		/* device could not arm cleanly, retried */
	__u64 ring_waits;	/* armer waited for the reader */
	/* One read of the device time, measured at start on the measured CPU (0: unknown). */
	__u64 read_cost_ns;
};

#define WULTFW_IOC_MAGIC	'W'
#define WULTFW_IOC_CONFIG	_IOWR(WULTFW_IOC_MAGIC, 1, struct wultfw_config)
#define WULTFW_IOC_START	_IO(WULTFW_IOC_MAGIC, 2)
#define WULTFW_IOC_STOP		_IO(WULTFW_IOC_MAGIC, 3)
#define WULTFW_IOC_GET_STATS	_IOWR(WULTFW_IOC_MAGIC, 4, struct wultfw_stats)

#endif /* _UAPI_WULTFW_IOCTL_H */
