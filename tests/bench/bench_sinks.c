/* SPDX-License-Identifier: MIT */
/*
 * Sink and reader throughput: synthetic batches at full speed through the
 * csv and binary sinks (driven through their plugin descriptors, as the
 * core does), then the files read back with lib/datafmt's reader.
 * Prints datapoints per second. Not part of `make check`: run `make bench`.
 *
 *   bench_sinks [-n DATAPOINTS] [-d DIR] [-c CPU] [-x]
 *
 * -x discards the data instead of calling write(2): the sink's own cost,
 * without the kernel's copy into the page cache.
 *
 * Batches are generated before the clock starts and cycled, so the time
 * measured is the sink's (formatting, copying, write(2) into the page cache).
 */
#include "config.h"

#define _GNU_SOURCE 1
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "datafmt/out.h"
#include "datafmt/reader.h"

extern const struct wultfw_plugin csv_LTX_wultfw_plugin;
extern const struct wultfw_plugin binary_LTX_wultfw_plugin;

#define BATCH_ROWS	4096
#define NBATCHES	16

static const char *const cstates[] = { "POLL", "C1", "C1E", "C6" };

/* What the timer/tdt sources produce: raw ns shown as us, ReqCState, counters. */
static const struct wultfw_column int_cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "SilentTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "NMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
};

/* Plus residency percentages as doubles, as wult's full column set has. */
static const struct wultfw_column wult_cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "SilentTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC1%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC6%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "NMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
};

static int discard;

/* -x: write(2) replaced by nothing, to see the sink's own cost. */
static long discard_write(int fd, const void *p, size_t n)
{
	(void)fd;
	(void)p;
	return (long)n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void make_batches(struct wultfw_batch *b, const struct wultfw_schema *s)
{
	uint64_t seed = 42;

	for (int k = 0; k < NBATCHES; k++) {
		if (wfw_batch_alloc(&b[k], s->ncols, BATCH_ROWS)) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		for (size_t r = 0; r < BATCH_ROWS; r++) {
			union wultfw_cell *row = wultfw_row(&b[k], r);
			uint64_t ld = 10000 + wultfw_rand64(&seed) % 3990000;
			uint64_t lat = 2000 + wultfw_rand64(&seed) % 60000;

			for (size_t c = 0; c < s->ncols; c++) {
				const struct wultfw_column *col = &s->cols[c];

				if (!strcmp(col->name, "LDist"))
					row[c].i = (int64_t)ld;
				else if (!strcmp(col->name, "SilentTime"))
					row[c].i = (int64_t)(ld - 1500);
				else if (col->type == WULTFW_COL_ENUM)
					row[c].i = (int64_t)(wultfw_rand64(&seed) % 4);
				else if (col->type == WULTFW_COL_FLOAT)
					/* a ratio of cycle counts, as derived columns are */
					row[c].f = 100.0 * (double)(wultfw_rand64(&seed) % 1000000) /
						   (double)(1000000 + wultfw_rand64(&seed) % 7);
				else if (col->divisor == 1)
					row[c].i = (int64_t)(wultfw_rand64(&seed) % 2);
				else
					row[c].i = (int64_t)(lat + (c * 377) % 900);
			}
		}
		b[k].rows = BATCH_ROWS;
	}
}

static int bench_sink(const struct wultfw_plugin *p, const char *dir,
		      const char *file, const struct wultfw_schema *s,
		      uint64_t n, const char *label)
{
	struct wultfw_batch b[NBATCHES];
	struct wultfw_value opts[1] = { { .set = true, .s = file } };
	struct wultfw_ctx ctx = { .plugin = p, .opts = opts };
	struct wultfw_source_info src = { .devid = "bench", .schema = s };
	struct wultfw_run_info run = { .experiment = "bench", .outdir = dir,
				       .source = &src, .schema = s };
	struct wultfw_run_summary sum = { 0 };
	char path[4096];
	double t0, c0, t, c;
	uint64_t done = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	unlink(path);
	make_batches(b, s);
	ret = p->sink->open(&ctx, &run);
	if (ret) {
		fprintf(stderr, "%s: open: %s\n", p->name, ctx.err);
		return 1;
	}
	t0 = now();
	c0 = cpu_now();
	for (int k = 0; done < n && !ret; k = (k + 1) % NBATCHES) {
		ret = p->sink->write(&ctx, &b[k]);
		done += BATCH_ROWS;
	}
	if (!ret)
		ret = p->sink->flush(&ctx);
	ret |= p->sink->close(&ctx, &sum);
	t = now() - t0;
	c = cpu_now() - c0;
	if (ret) {
		fprintf(stderr, "%s: %s\n", p->name, ctx.err);
		return 1;
	}
	printf("  %-7s sink, %-32s %6.2f M datapoints/s  (%llu in %.2f s wall, %.2f s CPU)\n",
	       p->name, label, done / t / 1e6, (unsigned long long)done, t, c);
	for (int k = 0; k < NBATCHES; k++)
		wfw_batch_free(&b[k]);

	/* And read it back, as wultfw calc/convert do. */
	if (!discard) {
		struct wfw_reader *r;
		struct wultfw_batch rb;
		char err[512];
		uint64_t rows = 0;
		long got;
		double sum_v = 0;

		t0 = now();
		if (wfw_reader_open(&r, path, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		wfw_batch_alloc(&rb, wfw_reader_schema(r)->ncols, 65536);
		while ((got = wfw_reader_read(r, &rb)) > 0) {
			rows += (uint64_t)got;
			sum_v += (double)wultfw_row(&rb, 0)[0].i;	/* keep it honest */
			rb.rows = 0;
		}
		t = now() - t0;
		if (got < 0 || rows != done) {
			fprintf(stderr, "read back: %s (%llu rows)\n",
				wfw_reader_error(r), (unsigned long long)rows);
			return 1;
		}
		printf("  %-7s read, %-32s %6.2f M datapoints/s  (%llu in %.2f s, open included)%s\n",
		       p->name, label, rows / t / 1e6, (unsigned long long)rows, t,
		       sum_v < 0 ? "!" : "");
		wfw_batch_free(&rb);
		wfw_reader_close(r);
	}
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	const struct wultfw_schema int_schema = { 7, int_cols };
	const struct wultfw_schema wult_schema = { 10, wult_cols };
	uint64_t n = 10000000;
	char dirbuf[] = "/tmp/wfw-bench-XXXXXX";
	const char *dir = NULL;
	int cpu = -1, opt, fails = 0;

	while ((opt = getopt(argc, argv, "n:d:c:xh")) != -1) {
		switch (opt) {
		case 'x':
			discard = 1;
			wfw_out_write_hook = discard_write;
			break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'd': dir = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-n DATAPOINTS] [-d DIR] [-c CPU] [-x]\n", argv[0]);
			return 2;
		}
	}
	if (!dir) {
		dir = mkdtemp(dirbuf);
		if (!dir) {
			perror("mkdtemp");
			return 1;
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	printf("bench_sinks: %llu datapoints per run, batches of %d rows, %s %s\n",
	       (unsigned long long)n, BATCH_ROWS,
	       discard ? "writes discarded (-x), no files; dir" : "files in", dir);
	fails += bench_sink(&csv_LTX_wultfw_plugin, dir, "bench.csv", &int_schema, n,
			    "7 cols (6 INT, 1 ENUM)");
	fails += bench_sink(&csv_LTX_wultfw_plugin, dir, "bench.csv", &wult_schema, n,
			    "10 cols (+3 FLOAT %)");
	fails += bench_sink(&binary_LTX_wultfw_plugin, dir, "bench.wfb", &int_schema, 5 * n,
			    "7 cols (6 INT, 1 ENUM)");
	fails += bench_sink(&binary_LTX_wultfw_plugin, dir, "bench.wfb", &wult_schema, 5 * n,
			    "10 cols (+3 FLOAT %)");
	if (dir == dirbuf)
		rmdir(dir);
	return fails ? 1 : 0;
}
