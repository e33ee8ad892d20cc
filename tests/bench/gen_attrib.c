/* SPDX-License-Identifier: MIT */
/*
 * Write a synthetic result with the latency attribution's columns (random,
 * not measured: for benchmarks of calc --explain only, doc/attribution.md):
 * OUTDIR/datapoints.csv, its binary twin OUTDIR/datapoints.wfb, info.yml
 * and attrib-threads.csv (gen_write.c). Every row's parts add up to its
 * WakeLatency.
 * Usage: gen_attrib ROWS OUTDIR
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <wultfw/plugin.h>

#include "gen_write.h"

static const char *const cstates[] = { "POLL", "C1", "C6" };
static const char *const causes[] = {
	"idle-exit", "irq:24 virtio1-input.0", "irq:LOC", "softirq:NET_RX",
	"softirq:TIMER", "nmi", "thread",
};
enum { IDLE, IRQ24, LOC, NET_RX, TIMER, NMI, THREAD };

#define US(name) { name, "us", WULTFW_COL_INT, 1000, NULL, 0 }
#define CNT(name) { name, "", WULTFW_COL_INT, 1, NULL, 0 }
static const struct wultfw_column cols[] = {
	US("WakeLatency"), US("LDist"),
	{ "ReqCState", "", WULTFW_COL_ENUM, 0, cstates, 3 },
	US("IRQTime"), US("SoftIRQTime"), US("NMITime"), US("ThreadTime"), US("ExitTime"),
	CNT("IRQCnt"), CNT("SWIRQCnt"), CNT("NMICnt"),
	{ "Cause", "", WULTFW_COL_ENUM, 0, causes, 7 },
	CNT("CausePID"),
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
static const struct wultfw_schema schema = { NCOLS, cols };

/* One row: an idle exit, now and then an interrupt, softirq, NMI or thread. */
static void row(union wultfw_cell *c, uint64_t *seed)
{
	uint64_t x = wultfw_rand64(seed), y = wultfw_rand64(seed);
	int64_t t[5] = { 0, 0, 0, 0, 5000 + (int64_t)(x % 30000) };	/* ExitTime */
	unsigned pick = (unsigned)(y % 10000);
	int cause = IDLE, k;

	c[8].i = c[9].i = c[10].i = 0;
	c[12].i = WULTFW_CELL_EMPTY;
	if (pick < 50) {		/* 0.5%: the NIC's interrupt */
		t[0] = 20000 + (int64_t)((y >> 16) % 200000);
		cause = IRQ24;
		c[8].i = 1;
	} else if (pick < 70) {
		t[1] = 10000 + (int64_t)((y >> 16) % 80000);
		cause = NET_RX;
		c[9].i = 1 + (int64_t)((y >> 40) % 3);
	} else if (pick < 80) {
		t[3] = 40000 + (int64_t)((y >> 16) % 100000);
		cause = THREAD;
		c[12].i = 100 + (int64_t)((y >> 40) % 8);
	} else if (pick < 81) {
		t[2] = 50000 + (int64_t)((y >> 16) % 10000);
		cause = NMI;
		c[10].i = 1;
	} else if (pick < 500) {	/* the tick, small */
		t[0] = 1000 + (int64_t)((y >> 16) % 2000);
		c[8].i = 1;
		cause = t[0] > t[4] ? LOC : IDLE;
	}
	c[0].i = 0;
	for (k = 0; k < 5; k++) {
		c[3 + k].i = t[k];
		c[0].i += t[k];
	}
	c[1].i = 10000 + (int64_t)((x >> 32) % 1000000);
	c[2].i = (int64_t)((x >> 60) % 3);
	c[11].i = cause;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_attrib ROWS OUTDIR\n");
		return 2;
	}
	return gen_write(strtoull(argv[1], NULL, 10), argv[2], &schema, row, 30) ||
	       write_text(argv[2], "info.yml", "attrib: 'on'\nattrib_latency: WakeLatency\n"
			  "attrib_smi: 'synthetic data: no SMI count'\n") ||
	       write_text(argv[2], "attrib-threads.csv", "PID,Comm\n100,kworker/1:0\n"
			  "101,kworker/1:1\n102,kworker/1:2\n103,ksoftirqd/1\n104,rcu_preempt\n"
			  "105,migration/1\n106,\"a,b\"\n107,irq/24-virtio\n");
}
