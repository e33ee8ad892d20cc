/* SPDX-License-Identifier: MIT */
/*
 * Write synthetic wult-like datapoints (random, not measured: for
 * benchmarks only) as OUTDIR/datapoints.csv and its binary twin
 * OUTDIR/datapoints.wfb, through the same writers as the csv and binary
 * sinks (gen_write.c). Usage: gen_datapoints [-w] ROWS OUTDIR
 * -w: the three latencies as wult itself writes them, floats of 16-17
 * significant digits (84.24659549922058), not fixed 3-decimal numbers.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "gen_write.h"

static const char *const cstates[] = { "POLL", "C1", "C1E", "C6" };
/* wult's 14 columns: latencies in us with 3 decimals, residencies in %. */
static const struct wultfw_column cols[] = {
	{ "WakeLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "SilentTime", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrLatency", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "IntrOff", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "LDist", "us", WULTFW_COL_INT, 1000, NULL, 0 },
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 4 },
	{ "CC0%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC1Derived%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC1%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "CC6%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "PC2%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "PC6%", "%", WULTFW_COL_FLOAT, 0, NULL, 0 },
	{ "SMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
	{ "NMICnt", "", WULTFW_COL_INT, 1, NULL, 0 },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
static const struct wultfw_schema schema = { NCOLS, cols };

/* The same with wult's own float latencies (-w). */
static struct wultfw_column wcols[NCOLS];
static const struct wultfw_schema wschema = { NCOLS, wcols };

/* One wult-like row. */
static void row(union wultfw_cell *c, uint64_t *seed)
{
	uint64_t x = wultfw_rand64(seed);
	int64_t ldist = 10000 + (int64_t)(x % 4000000);
	int64_t wake = 2000 + (int64_t)((x >> 24) % 30000) +
		((x & 0xfff) == 7 ? 5000000 : 0);
	uint64_t y = wultfw_rand64(seed);

	c[0].i = wake;
	c[1].i = ldist - wake / 2;
	c[2].i = wake + 500 + (int64_t)(x >> 50);
	c[3].i = (int64_t)((x >> 62) & 1);
	c[4].i = ldist;
	c[5].i = (int64_t)((x >> 40) % 4);
	/* residencies: k / 1000, written like Python's repr */
	c[6].f = (double)(y % 100000) / 1000.0;
	c[7].f = (double)((y >> 17) % 100000) / 1000.0;
	c[8].f = (double)((y >> 34) % 100000) / 1000.0;
	c[9].f = (double)((x >> 8) % 100000) / 1000.0;
	c[10].f = (double)((x >> 32) % 10000) / 1000.0;
	c[11].f = (double)((y >> 47) % 10000) / 1000.0;
	c[12].i = (int64_t)((x >> 60) == 0);
	c[13].i = (int64_t)((y >> 60) == 0);
}

/* row() with its latencies in us as floats: random below the ns, as measured. */
static void wult_row(union wultfw_cell *c, uint64_t *seed)
{
	row(c, seed);
	for (int i = 0; i < 3; i++) {
		double below_ns = (double)(wultfw_rand64(seed) >> 11) * 0x1p-53 * 1e-3;

		c[i].f = (double)c[i].i / 1000.0 + below_ns;
	}
}

int main(int argc, char **argv)
{
	int wult = argc == 4 && !strcmp(argv[1], "-w");

	if (argc != 3 + wult) {
		fprintf(stderr, "usage: gen_datapoints [-w] ROWS OUTDIR\n");
		return 2;
	}
	if (!wult)
		return gen_write(strtoull(argv[1], NULL, 10), argv[2], &schema, row, 42);
	memcpy(wcols, cols, sizeof(cols));
	for (int i = 0; i < 3; i++) {
		wcols[i].type = WULTFW_COL_FLOAT;
		wcols[i].divisor = 0;
	}
	return gen_write(strtoull(argv[2], NULL, 10), argv[3], &wschema, wult_row, 42);
}
