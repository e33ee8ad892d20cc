/* SPDX-License-Identifier: MIT */
/*
 * A minimal host for the hrt source, used by the integration test until the
 * core binary can run it: open/start/read/stop/close through the plugin's
 * ops, rows written as CSV with the schema's names and divisors.
 *
 *   hrt_driver [-c CPU] [-n COUNT] [-l FROM_NS,TO_NS] [-t SECONDS]
 *              [-o FILE] [-v]... [-O raw=true|ring_kib=N|poll=NS]
 *
 * Exit: 0 ok, 1 source error (message on stderr), 2 usage.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wultfw/plugin.h>

extern const struct wultfw_plugin hrt_LTX_wultfw_plugin;

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void host_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		     const char *msg)
{
	static const char *const lv[] = { "error", "warning", "info", "debug" };

	if ((int)level <= ctx->verbosity + 1)
		fprintf(stderr, "hrt: %s: %s\n", lv[level], msg);
}

static void host_info(struct wultfw_ctx *ctx, const char *key,
		      const char *value)
{
	(void)ctx;
	fprintf(stderr, "info: %s: %s\n", key, value);
}

static bool host_stopping(struct wultfw_ctx *ctx)
{
	(void)ctx;
	return stop_flag;
}

static const struct wultfw_host host = {
	.log = host_log, .info = host_info, .stopping = host_stopping,
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_cell(FILE *f, const struct wultfw_column *c,
		       union wultfw_cell v)
{
	uint32_t d = c->divisor ? c->divisor : 1;

	switch (c->type) {
	case WULTFW_COL_INT:
		if (d == 1)
			fprintf(f, "%" PRId64, v.i);
		else
			fprintf(f, "%.3f", (double)v.i / d);
		break;
	case WULTFW_COL_FLOAT:
		fprintf(f, "%g", v.f);
		break;
	case WULTFW_COL_ENUM:
		if (v.i >= 0 && (size_t)v.i < c->n_enum)
			fputs(c->enum_names[v.i], f);
		break;
	}
}

/* -O key=value for the few option types hrt has. */
static int set_opt(struct wultfw_value *vals, const char *kv)
{
	const struct wultfw_option *o = hrt_LTX_wultfw_plugin.options;
	const char *eq = strchr(kv, '=');
	size_t i;

	if (!eq)
		return -1;
	for (i = 0; o[i].name; i++) {
		if (strncmp(o[i].name, kv, (size_t)(eq - kv)) ||
		    o[i].name[eq - kv])
			continue;
		vals[i].set = true;
		if (o[i].type == WULTFW_OPT_BOOL)
			vals[i].b = !strcmp(eq + 1, "true");
		else if (o[i].type == WULTFW_OPT_DURATION)
			vals[i].ns = strtoull(eq + 1, NULL, 0);
		else
			vals[i].i = strtoll(eq + 1, NULL, 0);
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	const struct wultfw_plugin *pl = &hrt_LTX_wultfw_plugin;
	struct wultfw_value vals[16] = { { 0 } };
	struct wultfw_ctx ctx = { 0 };
	struct wultfw_source_info info = { 0 };
	struct wultfw_source_params par = { .cpu = 1, .ldist_from_ns = 50000,
					    .ldist_to_ns = 1000000, .seed = 1 };
	struct wultfw_batch b = { 0 };
	uint64_t want = 1000, got = 0, discarded = 0;
	double limit = 60, t0;
	const char *out = NULL;
	FILE *f = stdout;
	int opt, err, reader_cpu;
	size_t r, c;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:n:l:t:o:vO:")) != -1) {
		switch (opt) {
		case 'c': par.cpu = atoi(optarg); break;
		case 'n': want = strtoull(optarg, NULL, 0); break;
		case 'l':
			if (sscanf(optarg, "%" SCNu64 ",%" SCNu64,
				   &par.ldist_from_ns, &par.ldist_to_ns) != 2)
				return 2;
			break;
		case 't': limit = atof(optarg); break;
		case 'o': out = optarg; break;
		case 'v': ctx.verbosity++; break;
		case 'O':
			if (set_opt(vals, optarg)) {
				fprintf(stderr, "unknown option %s\n", optarg);
				return 2;
			}
			break;
		default: return 2;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	/* Like the core: the reader runs on a CPU other than the measured one. */
	reader_cpu = par.cpu == 0 ? 1 : 0;
	CPU_ZERO(&set);
	CPU_SET(reader_cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);

	ctx.plugin = pl;
	ctx.opts = vals;
	ctx.host = &host;
	err = pl->source->open(&ctx, &info);
	if (err) {
		fprintf(stderr, "hrt: %s\n", ctx.err);
		return 1;
	}
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		pl->source->close(&ctx);
		return 1;
	}
	for (c = 0; c < info.schema->ncols; c++)
		fprintf(f, "%s%s", c ? "," : "", info.schema->cols[c].name);
	fputc('\n', f);

	b.ncols = info.schema->ncols;
	b.capacity = 256;
	b.cells = calloc(b.capacity * b.ncols, sizeof(*b.cells));
	err = pl->source->start(&ctx, &par);
	t0 = now_s();
	while (!err && got < want && !stop_flag && now_s() - t0 < limit) {
		b.rows = 0;
		b.discarded = 0;
		err = pl->source->read(&ctx, &b, 100000000);
		if (err < 0)
			break;
		for (r = 0; r < b.rows && got < want; r++, got++) {
			const union wultfw_cell *row = wultfw_crow(&b, r);

			for (c = 0; c < b.ncols; c++) {
				if (c)
					fputc(',', f);
				print_cell(f, &info.schema->cols[c], row[c]);
			}
			fputc('\n', f);
		}
		discarded += b.discarded;
	}
	if (err < 0)
		fprintf(stderr, "hrt: %s\n", ctx.err);
	pl->source->stop(&ctx);
	pl->source->close(&ctx);
	if (fflush(f) || (out && fclose(f)))
		err = -EIO;
	fprintf(stderr, "datapoints: %" PRIu64 "\ndiscarded: %" PRIu64
		"\nseconds: %.3f\ninterrupted: %d\n", got, discarded,
		now_s() - t0, (int)stop_flag);
	free(b.cells);
	return err < 0 ? 1 : 0;
}
