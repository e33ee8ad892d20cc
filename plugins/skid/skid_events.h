/* SPDX-License-Identifier: MIT */
/*
 * Event names as perf writes them, turned into perf_event_attr, and the
 * kernel's refusals turned into one line that says why.
 */
#ifndef SKID_EVENTS_H
#define SKID_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* 0 when `name` is a known event or a raw code; else -EINVAL. */
int skid_event_check(const char *name, char *err, size_t errlen);

/*
 * Fill *a for sampling `name` every `period` events (0: the event's
 * default) at `precise`, on the breakpoint address `bp_addr` (the
 * breakpoint event only). User space only: the workload is there.
 */
int skid_event_attr(const char *name, uint64_t period, int precise,
		    uint64_t bp_addr, struct perf_event_attr *a);

/* The period used when the option says 0. */
uint64_t skid_event_default_period(const char *name);

/* perf_event_open(a, tid, cpu -1); -errno on failure. */
int skid_event_open(struct perf_event_attr *a, int tid);

/*
 * Why the kernel refused `name` at `precise` with `err` (a negative
 * errno): "no hardware PMU: ...", "precise_ip 3 is not supported ...".
 */
void skid_event_why(const char *name, int precise, int err,
		    const char *sysfs_root, char *buf, size_t len);

/*
 * Can `name` be opened at `precise` here (on this thread, disabled)?
 * 0 or the negative errno; nothing is measured.
 */
int skid_event_probe(const char *name, int precise, uint64_t bp_addr);

/*
 * Does `name`'s PMU have precise levels? Not the software (cpu-clock) and
 * breakpoint PMUs: they accept precise_ip and ignore it (there is no skid
 * to lessen), so one level is all there is to sample.
 */
int skid_event_has_precise(const char *name);

/*
 * Does `name` count a known load here? Opened counting on this thread:
 * breakpoint over SKID_ALIVE_READS reads of a watched byte, cpu-clock
 * over 1 ms of this thread spinning; a few ms in all. 1 it counts
 * (or is a hardware or raw event: no load is sure to count those), 0 it
 * opened but counted nothing, why in buf; a negative errno when it does
 * not open.
 */
#define SKID_ALIVE_READS 512
int skid_event_alive(const char *name, char *buf, size_t len);

/*
 * One line for `wultfw scan` and info.yml: which named events open and
 * count here, at which precise levels and, with_refused, why the others
 * are refused; a reason equal to `said` (one already printed, or NULL)
 * is written "the same reason".
 */
void skid_event_offer(uint64_t bp_addr, const char *sysfs_root,
		      int with_refused, const char *said, char *buf,
		      size_t len);

#endif
