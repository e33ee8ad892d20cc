/* SPDX-License-Identifier: MIT */
/*
 * The measuring side of latency attribution (doc/attribution.md): loads
 * attrib.bpf.c for one CPU and hands its events (attrib_event.h) on in
 * time order. Built without the eBPF part (configure found no clang,
 * bpftool, libbpf or BTF), attrib_trace_check() and attrib_trace_open()
 * say so and nothing else works.
 *
 * Lifetime: check (optional), open (load: the verifier's verdict comes
 * here), attach, poll/read while measuring, detach (the events still
 * stored stay readable: poll or read until they give 0), close.
 *
 * A function that fails returns a negative errno and writes why into
 * why[len]: one line that names what is missing and what to do.
 */
#ifndef ATTRIB_TRACE_H
#define ATTRIB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "attrib_event.h"

#define ATTRIB_WHY_LEN		1024
/* Default ring: 65536 events (3.5 MiB), 0.3 s of a storm here. */
#define ATTRIB_RING_EVENTS	65536

struct attrib_trace;

struct attrib_trace_opts {
	int cpu;		/* the measured CPU */
	/* Events the ring holds: a power of two, 64 to 2^24; 0: default. */
	unsigned ring_events;
	/*
	 * Time every program into stats.cost_ns/cost_cnt. Adds two clock
	 * reads to each event (doc/attribution.md has the numbers).
	 */
	bool cost;
	/*
	 * With smi: smi_fd, a perf event counting on cpu (attrib_smi_open()),
	 * is read into every record (ATTRIB_F_SMI). The caller keeps it open
	 * while tracing.
	 */
	bool smi;
	int smi_fd;
};

struct attrib_trace_stats {
	uint64_t seen;		/* events on the measured CPU */
	uint64_t lost;		/* of them, never stored: the ring was full */
	uint64_t delivered;	/* records handed on, ATTRIB_LOST included */
	/*
	 * Records that came after a later one had been handed on, handed
	 * on as ATTRIB_LOST instead (0 unless the reader fell a whole ring
	 * buffer behind).
	 */
	uint64_t late;
	uint64_t reordered;	/* records the sort moved (nested contexts) */
	uint64_t cost_ns, cost_cnt;	/* opts.cost: inside the programs */
};

/* 0 if the attribution can run on this machine, else why not. */
int attrib_trace_check(char *why, size_t len);

/*
 * Load the programs for o->cpu: those whose tracepoint the kernel's BTF
 * lacks are left out (attrib_trace_missing() names them); none there
 * is an error.
 */
int attrib_trace_open(struct attrib_trace **tp,
		      const struct attrib_trace_opts *o, char *why,
		      size_t len);

/*
 * Tracepoints this kernel lacks, space-separated; "" when none. Those
 * named in the environment variable ATTRIB_HIDE_TP_ENV count as missing
 * (tests play a kernel without x86's vectors so).
 */
#define ATTRIB_HIDE_TP_ENV	"WULTFW_ATTRIB_HIDE_TP"
const char *attrib_trace_missing(const struct attrib_trace *t);

/* Start tracing, once per open: events from now on are stored. */
int attrib_trace_attach(struct attrib_trace *t, char *why, size_t len);

/*
 * Takes n events in time order. A non-zero return stops poll, which
 * returns it; the events passed count as handed on either way.
 */
typedef int (*attrib_trace_fn)(void *arg, const struct attrib_event *ev,
			       size_t n);

/*
 * Hand every event stored so far to fn, in time order, without waiting.
 * Returns how many were handed on (0: none stored), or fn's non-zero
 * return, or a negative errno. Never wakes the measured CPU: call it
 * periodically (every 10-100 ms; the ring holds ring_events).
 */
ssize_t attrib_trace_poll(struct attrib_trace *t, attrib_trace_fn fn,
			  void *arg, char *why, size_t len);

/* The same into buf: up to cap events; the rest wait for the next call. */
ssize_t attrib_trace_read(struct attrib_trace *t, struct attrib_event *buf,
			  size_t cap, char *why, size_t len);

void attrib_trace_stats(const struct attrib_trace *t,
			struct attrib_trace_stats *st);

/*
 * The kernel's run time of the programs, summed over all of them and all
 * CPUs (calls on other CPUs, which only check the CPU, included); 0 and 0
 * unless the kernel's BPF statistics are on (kernel.bpf_stats_enabled,
 * or bpf_enable_stats()). For measuring the cost; 0 or -errno.
 */
int attrib_trace_runtime(const struct attrib_trace *t, uint64_t *ns,
			 uint64_t *cnt);

/*
 * Stop tracing. What the programs stored stays readable by poll/read;
 * waits (at most 200 ms) for events of programs still running.
 */
void attrib_trace_detach(struct attrib_trace *t);

/* Detach if attached, free everything; t may be NULL. */
void attrib_trace_close(struct attrib_trace *t);

#endif
