/* SPDX-License-Identifier: MIT */
/*
 * Parts in parallel, results in order: the one engine under calc,
 * convert, filter and report. An input is cut into parts (byte ranges of
 * a file that its reader starts at row or block boundaries, or the next
 * batches of one shared reader); threads take the next part and work on
 * it side by side; each part's result goes to the caller's in-order step
 * (write it out, merge it) in part order, one part at a time. At most
 * `slots` parts are in flight (taken and not yet emitted), so memory is
 * the slots' whatever the input's size. The caller gives an ops table and
 * keeps its own state per slot (an array of `slots` entries it indexes).
 *
 * Part k's error ends the run after the parts before it went out: no part
 * after it is emitted and none is taken any more; the error returned is
 * that of the first part (in part order) whose take, work or emit failed.
 */
#ifndef WFW_PAR_H
#define WFW_PAR_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* emit()'s answer for "this part is the last one": the run ends, no error. */
#define WFW_PAR_CUT 1

struct wfw_par_ops {
	/*
	 * Optional: part k's input into slot `slot` (the next batch of a
	 * shared reader); called for one part at a time, in order of k. > 0:
	 * part k is there; 0: the parts end before k; < 0: part k's error.
	 * Without it the parts are 0 .. nparts - 1.
	 */
	long (*take)(void *ctx, unsigned slot, uint64_t k);
	/*
	 * Optional: part k's work in slot `slot`, beside other parts' take,
	 * work and emit. 0, or a negative errno.
	 */
	int (*work)(void *ctx, unsigned slot, uint64_t k);
	/*
	 * Part k's result (its take and work went well), in order of k, one
	 * part at a time. 0: on to part k + 1; WFW_PAR_CUT: k is the last
	 * part; < 0: an error. The slot takes another part once it returns.
	 */
	int (*emit)(void *ctx, unsigned slot, uint64_t k);
};

struct wfw_par {
	const struct wfw_par_ops *ops;
	void *ctx;			/* passed to every op */
	uint64_t nparts;		/* parts (with take: at most; UINT64_MAX) */
	unsigned threads;		/* the calling one among them; 1: no other */
	unsigned slots;			/* parts in flight at most; 0: `threads` */
	const volatile sig_atomic_t *stop;	/* set: no part is taken any more */
	/* Set by wfw_par_run(): */
	uint64_t emitted;		/* parts 0 .. emitted - 1 went out */
	uint64_t failed;		/* the part whose error it returned */
	bool stopped;			/* *stop ended it before the parts did */
	bool cut;			/* emit() said WFW_PAR_CUT */
};

/*
 * Run p: 0 when the parts went out (all of them, up to a cut, or those
 * taken before *stop was set), else the first failed part's error.
 * -ENOMEM when it could not start.
 */
int wfw_par_run(struct wfw_par *p);

/* Below this, a second thread on one file costs more than it saves. */
#define WFW_PAR_MIN_BYTES	(8u << 20)

/*
 * Threads reading the file at `path` in parts: `jobs`, or 1 for what is
 * not a regular file and for a file under WFW_PAR_MIN_BYTES unless the
 * user asked for them (`given`: -j on the command line).
 */
unsigned wfw_par_file_threads(const char *path, unsigned jobs, bool given);

/*
 * Parts of the file at `path` for `threads` threads: one per `bytes` of
 * it, four per thread at least (so the threads end together), 2^20 at most.
 */
unsigned wfw_par_file_parts(const char *path, unsigned threads, uint64_t bytes);

/* The online CPUs, 1 to `max`. */
unsigned wfw_par_online_cpus(unsigned max);

#endif
