/* SPDX-License-Identifier: MIT */
/*
 * Benchmark: synthetic batches with wult's columns through the stats sink
 * on one core. Prints datapoints/s of the sink's write() and the peak
 * resident memory against issue 14's targets (>= 10 M/s by wall time,
 * < 64 MiB). Usage: bench_stats_sink [DATAPOINTS] [OUTDIR]
 * (default 100000000, /tmp). The batches are generated before timing and
 * reused, so only the sink is measured. It is driven as the core drives it
 * (tests/unit/sinkhost.c): durable flushing is on as in a run, stats.json
 * in OUTDIR put in place whole (the core's REPLACE file) every
 * flush_interval (default 1s). `make check` runs it on a few datapoints
 * (test_bench_build.sh), so it keeps building.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <wultfw/plugin.h>

#include "sinkhost.h"

extern const struct wultfw_plugin stats_LTX_wultfw_plugin;

static const char *const cstates[] = { "POLL", "C1", "C1E", "C6" };
static const struct wultfw_column cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "SilentTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "IntrOff", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC1%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC6%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "NMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
static const struct wultfw_schema schema = { NCOLS, cols };

#define BATCH 4096
#define NBATCH 32

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of this process: less disturbed than wall time on a busy host. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void free_batches(struct wultfw_batch *b)
{
	for (int k = 0; k < NBATCH; k++)
		free(b[k].cells);
}

int main(int argc, char **argv)
{
	const struct wultfw_plugin *p = &stats_LTX_wultfw_plugin;
	uint64_t total = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000ULL;
	const char *outdir = argc > 2 ? argv[2] : "/tmp";
	/* Options through the core's parser, as in a run. */
	static const char opts[] =
		"source = { percentiles = ( 50, 90, 99, 99.9, 99.99, 99.999 );\n"
		"  exact_limit = 100000; exact_memory = 32; group_by = \"ReqCState\";\n"
		"  json = true; table = true; };";
	struct tu_sink sk;
	struct wultfw_run_summary sum = { .size = sizeof(sum) };
	struct wultfw_batch b[NBATCH] = { 0 };
	uint64_t seed = 1, done = 0;
	struct rusage ru;
	double t0, t1, c0, c1;
	int ret;

	for (int k = 0; k < NBATCH; k++) {
		b[k].cells = malloc(BATCH * NCOLS * sizeof(union wultfw_cell));
		if (!b[k].cells) {
			fprintf(stderr, "out of memory\n");
			return free_batches(b), 1;
		}
		b[k].ncols = NCOLS;
		b[k].rows = b[k].capacity = BATCH;
		for (size_t r = 0; r < BATCH; r++) {
			union wultfw_cell *c = wultfw_row(&b[k], r);
			uint64_t x = wultfw_rand64(&seed);
			int64_t ldist = 10000 + (int64_t)(x % 4000000);
			int64_t wake = 2000 + (int64_t)((x >> 24) % 30000) +
				((x & 0xfff) == 7 ? 5000000 : 0);

			c[0].i = wake;
			c[1].i = wake + 500 + (int64_t)(x >> 50);
			c[2].i = ldist - wake / 2;
			c[3].i = ldist;
			c[4].i = (int64_t)((x >> 40) % 4);
			c[5].i = (int64_t)((x >> 44) & 1);
			c[6].f = (double)((x >> 8) % 10000) / 100.0;
			c[7].f = (double)((x >> 16) % 10000) / 100.0;
			c[8].f = (double)((x >> 32) % 10000) / 100.0;
			c[9].i = 0;
			c[10].i = (int64_t)((x >> 60) == 0);
		}
	}
	ret = tu_sink_open(&sk, p, opts, outdir, NULL, &schema);
	if (ret) {
		fprintf(stderr, "open: %s\n", sk.ctx.plugin ? sk.ctx.err
			: "the options do not parse or OUTDIR cannot be opened");
		return free_batches(b), 1;
	}
	sk.ctx.verbosity = 1;	/* the table at close(), as `wultfw run` prints it */
	t0 = now();
	c0 = cpu_s();
	for (uint64_t i = 0; done < total; i++) {
		struct wultfw_batch *bb = &b[i % NBATCH];

		bb->rows = total - done < BATCH ? total - done : BATCH;
		if (tu_sink_write(&sk, bb)) {
			fprintf(stderr, "write: %s\n", sk.ctx.err);
			tu_sink_close(&sk, NULL);
			return free_batches(b), 1;
		}
		done += bb->rows;
	}
	t1 = now();
	c1 = cpu_s();
	sum.datapoints = done;
	sum.duration_s = t1 - t0;
	ret = tu_sink_close(&sk, &sum);
	free_batches(b);
	fputs(sk.log, stderr);	/* what it logged, as a run's log shows */
	if (ret) {
		fprintf(stderr, "close: %s\n", sk.ctx.err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("stats sink: %llu datapoints x %zu metrics in %.2f s: "
	       "%.2f M datapoints/s (%.2f M per CPU second); peak RSS %.1f "
	       "MiB (incl. %.1f MiB of pre-generated batches)\n",
	       (unsigned long long)done, NCOLS - 1, t1 - t0,
	       done / (t1 - t0) / 1e6, done / (c1 - c0) / 1e6,
	       ru.ru_maxrss / 1024.0,
	       NBATCH * BATCH * NCOLS * 8 / 1048576.0);
	printf("stats sink targets: >= 10 M/s: %s (%.2f M/s wall); < 64 MiB: %s\n",
	       done / (t1 - t0) >= 10e6 ? "ok" : "MISSED", done / (t1 - t0) / 1e6,
	       ru.ru_maxrss < 65536 ? "ok" : "MISSED");
	return 0;
}
