/* SPDX-License-Identifier: MIT */
/*
 * Throwaway driver: runs the timer source through its ops, without the
 * core, and prints one datapoint per line (WakeLatency, SilentTime, LDist
 * in ns, ReqCState name) for doc/timer-vs-cyclictest.md. Replace by
 * `wultfw -c` once the core runs sources.
 *
 * usage: timer_collect CPU FROM_NS TO_NS COUNT PRIORITY [CSTATES(0/1)] [SEED]
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timer_priv.h"

extern const struct wultfw_plugin timer_LTX_wultfw_plugin;

static void collect_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
			const char *msg)
{
	fprintf(stderr, "timer: %s\n", msg);
}

static const struct wultfw_host collect_host = { .log = collect_log };

int main(int argc, char **argv)
{
	const struct wultfw_plugin *pl = &timer_LTX_wultfw_plugin;
	struct wultfw_value opts[TIMER_OPT_COUNT];
	struct wultfw_ctx ctx = { .plugin = pl, .opts = opts,
				  .host = &collect_host, .verbosity = 1 };
	struct wultfw_source_params params;
	struct wultfw_source_info info;
	struct wultfw_batch b = { 0 };
	uint64_t want, got = 0, discarded = 0;
	size_t cstate_col = 3;
	size_t r;

	if (argc < 6) {
		fprintf(stderr, "usage: %s CPU FROM_NS TO_NS COUNT PRIORITY [CSTATES] [SEED]\n",
			argv[0]);
		return 2;
	}
	memset(opts, 0, sizeof(opts));
	opts[TIMER_OPT_PRIORITY] = (struct wultfw_value){ .set = true, .i = atoi(argv[5]) };
	opts[TIMER_OPT_TIMERSLACK] = (struct wultfw_value){ .set = true, .ns = 1 };
	opts[TIMER_OPT_REQCSTATE] = (struct wultfw_value){ .set = true,
		.b = argc > 6 ? atoi(argv[6]) != 0 : true };
	opts[TIMER_OPT_RAW] = (struct wultfw_value){ .set = true, .b = false };
	opts[TIMER_OPT_RING_SIZE] = (struct wultfw_value){ .set = true, .i = 65536 };
	opts[TIMER_OPT_SYSFS_ROOT] = (struct wultfw_value){ .set = true, .s = "/sys" };
	/* mlock not given: lock when permitted, like the plugin's default. */

	params.cpu = atoi(argv[1]);
	params.ldist_from_ns = strtoull(argv[2], NULL, 0);
	params.ldist_to_ns = strtoull(argv[3], NULL, 0);
	params.seed = argc > 7 ? strtoull(argv[7], NULL, 0) : 1;
	want = strtoull(argv[4], NULL, 0);

	if (pl->source->open(&ctx, &info)) {
		fprintf(stderr, "open: %s\n", ctx.err);
		return 1;
	}
	b.ncols = info.schema->ncols;
	b.capacity = 4096;
	b.cells = calloc(b.capacity * b.ncols, sizeof(*b.cells));
	if (pl->source->start(&ctx, &params)) {
		fprintf(stderr, "start: %s\n", ctx.err);
		return 1;
	}
	printf("WakeLatency_ns,SilentTime_ns,LDist_ns,ReqCState\n");
	while (got < want) {
		b.rows = 0;
		if (pl->source->read(&ctx, &b, 100000000) < 0) {
			fprintf(stderr, "read: %s\n", ctx.err);
			return 1;
		}
		for (r = 0; r < b.rows && got < want; r++, got++) {
			const union wultfw_cell *row = wultfw_crow(&b, r);
			const struct wultfw_column *cc = info.schema->ncols > 3 ?
				&info.schema->cols[cstate_col] : NULL;
			int64_t cs = cc ? row[cstate_col].i : -1;

			printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%s\n",
			       row[0].i, row[1].i, row[2].i,
			       cs >= 0 && cc ? cc->enum_names[cs] : "");
		}
	}
	discarded = b.discarded;
	pl->source->stop(&ctx);
	pl->source->close(&ctx);
	free(b.cells);
	fprintf(stderr, "timer_collect: %" PRIu64 " datapoints, %" PRIu64 " discarded\n",
		got, discarded);
	return 0;
}
