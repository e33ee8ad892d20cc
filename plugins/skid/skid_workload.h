/* SPDX-License-Identifier: MIT */
/*
 * The measured workload: a buffer larger than the last-level cache and a
 * thread pinned to the measured CPU that runs the generated load + runway
 * loop (skid_code.h) over it until told to stop.
 */
#ifndef SKID_WORKLOAD_H
#define SKID_WORKLOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "skid_code.h"

struct skid_workload {
	struct skid_code code;
	unsigned char *buf;
	uint64_t size, stride;
	int cpu;
	pthread_t thread;
	int started;
	atomic_int tid;		/* the thread's id once it runs; 0 before */
	atomic_int stop;
};

/* Map and touch the buffer, generate the code. 0 or -errno, why in err. */
int skid_workload_init(struct skid_workload *w, uint64_t size,
		       uint64_t stride, uint64_t runway, int cpu, char *err,
		       size_t errlen);
/* Start the thread and wait until it runs on `cpu`; 0 or -errno. */
int skid_workload_start(struct skid_workload *w, char *err, size_t errlen);
void skid_workload_stop(struct skid_workload *w);
void skid_workload_free(struct skid_workload *w);

#endif
