/* SPDX-License-Identifier: MIT */
/*
 * Sink and reader throughput: synthetic batches at full speed through the
 * csv and binary sinks (driven through their plugin descriptors with the
 * core's file handling and flush schedule, tests/unit/sinkhost.c, as in a
 * run), then the files read back with lib/datafmt's reader.
 * Prints datapoints per second and issue 14's targets (csv >= 2 M/s,
 * binary >= 20 M/s, by wall time). `make bench` runs it; `make check` only
 * runs it on a few datapoints (test_bench_build.sh), so it keeps building.
 *
 *   bench_sinks [-n DATAPOINTS] [-d DIR] [-c CPU] [-o OPTIONS] [-x]
 *
 * The sinks' options go through the core's parser as in a run, so their
 * files' durable flushing is on with its defaults (flush_rows,
 * flush_interval: doc/durability.md); -o adds options, e.g.
 * 'flush_rows = 1000000000; flush_interval = "1h";' to compare without.
 * -x discards the data instead of calling write(2): the sink's and the core
 * file's own cost, without the kernel's copy into the page cache (no
 * targets then).
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
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <wultfw/plugin.h>

#include "datafmt/filesink.h"
#include "datafmt/out.h"
#include "datafmt/reader.h"
#include "sinkhost.h"
#include "testopts.h"

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
static const char *extra_opts = "";	/* -o */

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

/* The sink's options as a run's configuration gives them: file, then -o. */
static void opts_text(char *text, size_t len, const char *file)
{
	snprintf(text, len, "source = { file = \"%s\"; %s };", file, extra_opts);
}

/* The sink opened as the core does; 0, or it said why. */
static int open_sink(struct tu_sink *sk, const struct wultfw_plugin *p,
		     const char *dir, const char *file,
		     const struct wultfw_source_info *src)
{
	char text[2048];
	int ret;

	opts_text(text, sizeof(text), file);
	ret = tu_sink_open(sk, p, text, dir, src, src->schema);
	if (ret && sk->ctx.plugin)	/* the sink's open() failed */
		fprintf(stderr, "%s: %s\n", p->name, sk->ctx.err);
	else if (ret)
		fprintf(stderr, "bench_sinks: %s: -o '%s' does not parse or %s cannot be opened: %s\n",
			p->name, extra_opts, dir, strerror(-ret));
	return ret;
}

/* n datapoints through the sink as the core drives it; the rate by wall time, or < 0. */
static double write_all(const struct wultfw_plugin *p, const char *dir,
			const struct wultfw_schema *s, uint64_t n,
			const char *label, const char *file, uint64_t *done)
{
	struct wultfw_batch b[NBATCHES];
	struct wultfw_source_info src = { .size = sizeof(src), .devid = "bench",
					  .schema = s };
	struct tu_sink sk;
	double t0, c0, t, c;
	int ret, cret;

	make_batches(b, s);
	ret = open_sink(&sk, p, dir, file, &src);
	t0 = now();
	c0 = cpu_now();
	for (int k = 0; *done < n && !ret; k = (k + 1) % NBATCHES) {
		ret = tu_sink_write(&sk, &b[k]);
		*done += BATCH_ROWS;
	}
	if (!ret)
		ret = tu_sink_flush(&sk);
	if (ret && sk.dirfd >= 0)	/* opened: say why before closing */
		fprintf(stderr, "%s: %s\n", p->name, sk.ctx.err);
	if (sk.dirfd >= 0) {
		cret = tu_sink_close(&sk, NULL);
		if (cret && !ret)
			fprintf(stderr, "%s: %s\n", p->name, sk.ctx.err);
		ret = ret ? ret : cret;
	}
	t = now() - t0;
	c = cpu_now() - c0;
	for (int k = 0; k < NBATCHES; k++)
		wfw_batch_free(&b[k]);
	if (ret)
		return -1;
	printf("  %-7s sink, %-32s %6.2f M datapoints/s  (%llu in %.2f s wall, %.2f s CPU: %.2f M/s)\n",
	       p->name, label, *done / t / 1e6, (unsigned long long)*done, t, c,
	       *done / c / 1e6);
	return *done / t / 1e6;
}

/* Read the file back as wultfw calc/convert do; 0 when all rows came. */
static int read_back(const struct wultfw_plugin *p, const char *path,
		     const char *label, uint64_t done)
{
	struct wfw_reader *r;
	struct wultfw_batch rb;
	char err[512];
	uint64_t rows = 0;
	long got;
	double sum_v = 0, t0 = now(), c0 = cpu_now(), t, c;

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
	c = cpu_now() - c0;
	if (got < 0 || rows != done) {
		fprintf(stderr, "read back: %s (%llu rows)\n",
			wfw_reader_error(r), (unsigned long long)rows);
		return 1;
	}
	/* CPU too: on a loaded machine the wall time is mostly waiting to run. */
	printf("  %-7s read, %-32s %6.2f M datapoints/s  (%llu in %.2f s wall, %.2f s CPU: %.2f M/s, open included)%s\n",
	       p->name, label, rows / t / 1e6, (unsigned long long)rows, t, c,
	       rows / (c > 0 ? c : 1e-9) / 1e6, sum_v < 0 ? "!" : "");
	wfw_batch_free(&rb);
	wfw_reader_close(r);
	return 0;
}

/* One sink on one schema, against its target (M datapoints/s, wall). */
static int bench_sink(const struct wultfw_plugin *p, const char *dir,
		      const char *file, const struct wultfw_schema *s,
		      uint64_t n, const char *label, double target)
{
	char path[4096];
	uint64_t done = 0;
	struct stat st;
	double rate;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	unlink(path);
	rate = write_all(p, dir, s, n, label, file, &done);
	if (rate < 0)
		return 1;
	if (!discard) {
		double mb = stat(path, &st) ? 0 : st.st_size / 1e6;

		printf("  %-7s target >= %g M/s: %s (%.2f M/s; %.0f MB written, %.0f MB/s)\n",
		       p->name, target, rate >= target ? "ok" : "MISSED", rate,
		       mb, mb * rate * 1e6 / done);
		ret = read_back(p, path, label, done);
	}
	unlink(path);
	return ret;
}

/* What the durable flushing is, and where it goes; 2 for a bad -o. */
static int say_policy(const char *dir)
{
	struct wfw_optvals v = { 0 };
	const struct wfw_filesink_cfg *cfg;
	struct statfs fs;
	char text[2048];

	opts_text(text, sizeof(text), "x.csv");
	if (to_option_values(&csv_LTX_wultfw_plugin, text, &v)) {
		fprintf(stderr, "bench_sinks: -o '%s' does not parse\n", extra_opts);
		return 2;
	}
	cfg = v.cfg;
	printf("durable flushing: flush_rows = %lld, flush_interval = %.3f s (%s)\n",
	       (long long)cfg->f.flush_rows, cfg->f.flush_interval / 1e9,
	       *extra_opts ? "with -o" : "the sinks' defaults");
	if (!discard && !statfs(dir, &fs) && fs.f_type == TMPFS_MAGIC)
		printf("note: %s is tmpfs: fdatasync costs nothing there\n", dir);
	wfw_options_free(&v);
	return 0;
}

/* Options into the globals; the CPU to pin to (-1: none) in *cpu. */
static int parse_args(int argc, char **argv, uint64_t *n, const char **dir,
		      int *cpu)
{
	int opt;

	while ((opt = getopt(argc, argv, "n:d:c:o:xh")) != -1) {
		switch (opt) {
		case 'x':
			discard = 1;
			wfw_out_write_hook = discard_write;
			break;
		case 'n': *n = strtoull(optarg, NULL, 0); break;
		case 'd': *dir = optarg; break;
		case 'c': *cpu = atoi(optarg); break;
		case 'o': extra_opts = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n DATAPOINTS] [-d DIR] [-c CPU] [-o OPTIONS] [-x]\n",
				argv[0]);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct wultfw_schema int_schema = { 7, int_cols };
	const struct wultfw_schema wult_schema = { 10, wult_cols };
	const struct wultfw_plugin *csv = &csv_LTX_wultfw_plugin;
	const struct wultfw_plugin *bin = &binary_LTX_wultfw_plugin;
	uint64_t n = 10000000;
	char dirbuf[] = "/tmp/wfw-bench-XXXXXX";
	const char *dir = NULL;
	int cpu = -1, fails = 0;

	if (parse_args(argc, argv, &n, &dir, &cpu))
		return 2;
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
	if (say_policy(dir)) {
		if (dir == dirbuf)
			rmdir(dir);
		return 2;
	}
	fails += bench_sink(csv, dir, "bench.csv", &int_schema, n,
			    "7 cols (6 INT, 1 ENUM)", 2);
	fails += bench_sink(csv, dir, "bench.csv", &wult_schema, n,
			    "10 cols (+3 FLOAT %)", 2);
	fails += bench_sink(bin, dir, "bench.wfb", &int_schema, 5 * n,
			    "7 cols (6 INT, 1 ENUM)", 20);
	fails += bench_sink(bin, dir, "bench.wfb", &wult_schema, 5 * n,
			    "10 cols (+3 FLOAT %)", 20);
	if (dir == dirbuf)
		rmdir(dir);
	return fails ? 1 : 0;
}
