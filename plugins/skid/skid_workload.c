/* SPDX-License-Identifier: MIT */
/* The load + runway workload thread: see skid_workload.h. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "skid_workload.h"

/* Loop iterations per call of the generated code, between stop checks. */
#define SKID_CHUNK 256

int skid_workload_init(struct skid_workload *w, uint64_t size,
		       uint64_t stride, uint64_t runway, int cpu, char *err,
		       size_t errlen)
{
	int ret;

	memset(w, 0, sizeof(*w));
	w->size = size;
	w->stride = stride;
	w->cpu = cpu;
	w->buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (w->buf == MAP_FAILED) {
		w->buf = NULL;
		snprintf(err, errlen, "cannot map a %llu-byte buffer: %s (lower buffer_size)",
			 (unsigned long long)size, strerror(errno));
		return -ENOMEM;
	}
	/* Distinct pages, not one shared zero page: write every page. */
	for (uint64_t off = 0; off < size; off += 4096)
		w->buf[off] = (unsigned char)off;
	ret = skid_code_build(&w->code, runway, err, errlen);
	if (ret)
		skid_workload_free(w);
	return ret;
}

static void *run(void *arg)
{
	struct skid_workload *w = arg;
	uint64_t off = 0;

	atomic_store(&w->tid, (int)syscall(SYS_gettid));
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed))
		off = w->code.fn(w->buf, w->stride, w->size, SKID_CHUNK, off);
	return NULL;
}

int skid_workload_start(struct skid_workload *w, char *err, size_t errlen)
{
	struct timespec ms = { 0, 1000000 };
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	atomic_store(&w->stop, 0);
	atomic_store(&w->tid, 0);
	ret = pthread_create(&w->thread, &attr, run, w);
	pthread_attr_destroy(&attr);
	if (ret) {
		snprintf(err, errlen, "cannot start the workload thread on CPU %d: %s",
			 w->cpu, strerror(ret));
		return -ret;
	}
	w->started = 1;
	while (!atomic_load(&w->tid))
		nanosleep(&ms, NULL);
	return 0;
}

void skid_workload_stop(struct skid_workload *w)
{
	if (!w->started)
		return;
	atomic_store(&w->stop, 1);
	pthread_join(w->thread, NULL);
	w->started = 0;
}

void skid_workload_free(struct skid_workload *w)
{
	skid_workload_stop(w);
	skid_code_free(&w->code);
	if (w->buf)
		munmap(w->buf, w->size);
	w->buf = NULL;
}
