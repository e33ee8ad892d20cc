/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "sched.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpus.h"
#include "cstates.h"
#include "log.h"
#include "progress.h"
#include "resolved.h"
#include "resultdir.h"
#include "machine.h"
#include "signals.h"
#include "units.h"

#define READ_TIMEOUT_NS 100000000ULL	/* how often the loop looks at limits */
#define INFO_RESERVE 8192		/* info.yml room kept for a full disk */

/* What the host callbacks of one experiment's plugins need. */
struct run_state {
	struct wfw_experiment *e;
	struct wfw_info info;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void host_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		     const char *msg)
{
	const char *name = ctx->plugin ? ctx->plugin->name : "plugin";

	switch (level) {
	case WULTFW_LOG_ERROR:
		wfw_err("%s: %s", name, msg);
		break;
	case WULTFW_LOG_WARN:
		wfw_warn("%s: %s", name, msg);
		break;
	case WULTFW_LOG_INFO:
		wfw_info("%s: %s", name, msg);
		break;
	default:
		wfw_debug("%s: %s", name, msg);
		break;
	}
}

static void host_info(struct wultfw_ctx *ctx, const char *key,
		      const char *value)
{
	struct run_state *rs = ctx->host_data;

	wfw_info_str(&rs->info, key, value);
}

static bool host_stopping(struct wultfw_ctx *ctx)
{
	return wfw_stop_signal != 0;
}

static const struct wultfw_host host = {
	.log = host_log,
	.info = host_info,
	.stopping = host_stopping,
};

static void init_ctx(struct wfw_plugin_inst *pi, struct run_state *rs, int cpu)
{
	memset(&pi->ctx, 0, sizeof(pi->ctx));
	pi->ctx.cpu = cpu;
	pi->ctx.bad_opt = -1;
	pi->ctx.plugin = pi->h.desc;
	pi->ctx.opts = pi->opts.vals;
	pi->ctx.host = &host;
	pi->ctx.host_data = rs;
	pi->ctx.verbosity = wfw_verbosity;
}

/* The plugin's reason, or the errno text when it gave none. */
static const char *reason(struct wfw_plugin_inst *pi, int ret)
{
	if (!pi->ctx.err[0])
		snprintf(pi->ctx.err, sizeof(pi->ctx.err), "%s", strerror(-ret));
	return pi->ctx.err;
}

/*
 * Report a plugin's failure: at the experiment file's line when it blamed
 * one of its options, else as "WHAT: reason" (WHAT NULL: "sink 'csv'
 * (sinks[0])").
 */
static void plugin_error(struct wfw_plugin_inst *pi, int ret, const char *what)
{
	char where[512], sink[192];

	if (!what) {
		snprintf(sink, sizeof(sink), "sink '%s' (%s)", pi->h.desc->name, pi->key);
		what = sink;
	}

	if (pi->ctx.bad_opt >= 0) {
		wfw_plugin_where(pi, where, sizeof(where));
		wfw_err("%s: %s", where, reason(pi, ret));
	} else {
		wfw_err("%s: %s", what, reason(pi, ret));
	}
}

static void fill_info(struct run_state *rs, const struct wultfw_source_info *si,
		      const struct wfw_run_opts *o)
{
	struct wfw_experiment *e = rs->e;
	char date[64], buf[64];
	time_t now = time(NULL);
	struct tm tm;

	/* wult's report tools read results only under their own toolname. */
	wfw_info_str(&rs->info, "toolname", si->report_tool ? si->report_tool : "wult");
	wfw_info_str(&rs->info, "toolver", PACKAGE_VERSION);
	wfw_info_str(&rs->info, "collector", "wultfw " PACKAGE_VERSION);
	wfw_info_str(&rs->info, "format_version", "1.2");
	wfw_info_str(&rs->info, "reportid", e->name);
	wfw_info_identity(&rs->info, e->name);
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	wfw_info_str(&rs->info, "date", date);
	wfw_info_fmt(&rs->info, "cpunum", "%d", e->cpu);
	wfw_info_fmt(&rs->info, "cpu", "%d", e->cpu);
	wfw_info_str(&rs->info, "devid", si->devid ? si->devid : e->source.h.desc->name);
	wfw_info_str(&rs->info, "devdescr", si->devdescr ? si->devdescr : "");
	wfw_info_fmt(&rs->info, "resolution", "%" PRIu64, si->resolution_ns);
	wfw_format_duration(e->ldist_from_ns, buf, sizeof(buf));
	wfw_info_str(&rs->info, "ldist_from", buf);
	wfw_format_duration(e->ldist_to_ns, buf, sizeof(buf));
	wfw_info_str(&rs->info, "ldist_to", buf);
	wfw_info_fmt(&rs->info, "seed", "%" PRIu64, e->seed);
	wfw_info_str(&rs->info, "source", e->source.h.desc->name);
	wfw_info_str(&rs->info, "experiment_file", o->config_file ? o->config_file : "(embedded default)");
	wfw_info_raw(&rs->info, "duration", "0");
	wfw_info_raw(&rs->info, "datapoints", "0");
	wfw_info_raw(&rs->info, "discarded", "0");
	wfw_info_str(&rs->info, "status", "running");
}

static void write_logs(const struct wfw_experiment *e, const char *dir,
		       const struct wfw_run_opts *o)
{
	char logs[PATH_MAX], *text;
	int ret;

	snprintf(logs, sizeof(logs), "%s/logs", dir);
	if (o->cmdline) {
		char *line = malloc(strlen(o->cmdline) + 2);

		if (line) {
			sprintf(line, "%s\n", o->cmdline);
			wfw_write_text(logs, "cmdline", line);
			free(line);
		}
	}
	text = wfw_resolved_config(e, o->config_file);
	if (text) {
		ret = wfw_write_text(logs, "config", text);
		if (ret)
			wfw_warn("cannot write %s/config: %s", logs, strerror(-ret));
		free(text);
	}
}

/* The sink whose write failed: it has said why, flushing it again won't help. */
static struct wfw_plugin_inst *failed_sink;

/* Give a batch to every sink; the first failure stops the run. */
static int write_sinks(struct wfw_experiment *e, const struct wultfw_batch *b)
{
	size_t i;
	int ret;

	for (i = 0; i < e->nsinks; i++) {
		struct wfw_plugin_inst *pi = &e->sinks[i];

		ret = pi->h.desc->sink->write(&pi->ctx, b);
		if (ret < 0) {
			plugin_error(pi, ret, NULL);
			failed_sink = pi;
			return ret;
		}
	}
	return 0;
}

/* Keep at most `room` rows of the batch (the datapoint limit). */
static void clip(struct wultfw_batch *b, uint64_t total, uint64_t max)
{
	if (max && total + b->rows > max)
		b->rows = (size_t)(max - total);
}

/*
 * The measuring loop. Returns 0 or the first error; r->datapoints and
 * r->discarded are kept up to date so a failure still reports them.
 */
static int measure(struct wfw_experiment *e, struct wultfw_batch *b,
		   struct wfw_progress *pg, struct wfw_run_result *r,
		   uint64_t start)
{
	const struct wultfw_source_ops *src = e->source.h.desc->source;
	uint64_t deadline = e->max_time_ns ? start + e->max_time_ns : 0;
	char where[128];
	int ret;

	for (;;) {
		uint64_t timeout = READ_TIMEOUT_NS, now = now_ns();

		if (wfw_stop_signal)
			return 0;
		if (deadline && now >= deadline)
			return 0;
		if (deadline && deadline - now < timeout)
			timeout = deadline - now;
		b->rows = 0;
		b->discarded = 0;
		ret = src->read(&e->source.ctx, b, timeout);
		/* Rows read before a failure are real: keep them. */
		r->discarded += b->discarded;
		clip(b, r->datapoints, e->max_datapoints);
		if (b->rows) {
			int wret = write_sinks(e, b);

			if (wret)
				return wret;
			r->datapoints += b->rows;
		}
		if (ret == -EINTR && wfw_stop_signal)
			return 0;
		if (ret < 0) {
			snprintf(where, sizeof(where), "source '%s'", e->source.h.desc->name);
			plugin_error(&e->source, ret, where);
			return ret;
		}
		wfw_progress_update(pg, r->datapoints, r->discarded);
		if (ret == WULTFW_READ_END)
			return 0;
		if (e->max_datapoints && r->datapoints >= e->max_datapoints)
			return 0;
	}
}

/* After stop(): what the source still holds, within the limit. */
static int drain(struct wfw_experiment *e, struct wultfw_batch *b,
		 struct wfw_run_result *r)
{
	const struct wultfw_source_ops *src = e->source.h.desc->source;
	int ret;

	do {
		if (e->max_datapoints && r->datapoints >= e->max_datapoints)
			return 0;
		b->rows = 0;
		b->discarded = 0;
		ret = src->read(&e->source.ctx, b, 0);
		if (ret < 0)
			return 0;	/* nothing more to be had */
		r->discarded += b->discarded;
		clip(b, r->datapoints, e->max_datapoints);
		if (b->rows) {
			int wret = write_sinks(e, b);

			if (wret)
				return wret;
			r->datapoints += b->rows;
		}
	} while (b->rows == b->capacity);
	return 0;
}

static void finish_info(struct run_state *rs, const struct wfw_run_result *r,
			const char *dir)
{
	int ret;

	wfw_info_fmt(&rs->info, "duration", "%.3f", r->duration_s);
	wfw_info_fmt(&rs->info, "datapoints", "%" PRIu64, r->datapoints);
	wfw_info_fmt(&rs->info, "discarded", "%" PRIu64, r->discarded);
	wfw_info_str(&rs->info, "status",
		     r->failed ? "failed" :
		     r->stop_signal ? "interrupted" : "complete");
	if (r->failed && wfw_log_first_error()[0])
		wfw_info_str(&rs->info, "error", wfw_log_first_error());
	ret = wfw_info_write(&rs->info, dir, 0);
	if (ret)
		wfw_err("cannot write %s/info.yml: %s", dir, strerror(-ret));
}

int wfw_run_experiment(struct wfw_experiment *e, const struct wfw_run_opts *o,
		       struct wfw_run_result *r)
{
	const struct wultfw_source_ops *src = e->source.h.desc->source;
	struct wultfw_source_params params;
	struct wultfw_source_info si;
	struct wultfw_run_info run;
	struct wultfw_run_summary sum;
	struct wultfw_batch batch;
	struct run_state rs;
	struct wfw_progress pg;
	char dir[PATH_MAX], logpath[PATH_MAX + 16], err[1024], cs[512], note[256];
	size_t opened = 0, i;
	bool started = false, info_written = false;
	uint64_t start = 0;
	FILE *logf = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&rs, 0, sizeof(rs));
	wfw_log_reset_first_error();
	failed_sink = NULL;
	memset(&si, 0, sizeof(si));
	memset(&batch, 0, sizeof(batch));
	rs.e = e;
	snprintf(dir, sizeof(dir), "%s/%s", e->outdir, e->name);

	/* Probe the source first: a source that cannot run leaves no files. */
	init_ctx(&e->source, &rs, e->cpu);
	ret = src->open(&e->source.ctx, &si);
	if (ret < 0) {
		snprintf(err, sizeof(err), "source '%s' cannot run here",
			 e->source.h.desc->name);
		plugin_error(&e->source, ret, err);
		goto out_noopen;
	}
	if (!si.schema || !si.schema->ncols) {
		wfw_err("source '%s' declared no columns: a plugin bug", e->source.h.desc->name);
		ret = -EINVAL;
		goto out_close_source;
	}
	ret = wfw_fit_ldist(e, &si, &params.ldist_from_ns, &params.ldist_to_ns,
			    err, sizeof(err));
	if (ret) {
		wfw_err("%s", err);
		goto out_close_source;
	}

	ret = wfw_cstates_apply(e, o->sysfs_root, note, sizeof(note), err, sizeof(err));
	if (ret) {
		wfw_err("experiment '%s': %s", e->name, err);
		goto out_close_source;
	}

	ret = wfw_resultdir_create(dir, o->force, err, sizeof(err));
	if (ret) {
		wfw_err("%s", err);
		goto out_restore;
	}
	snprintf(logpath, sizeof(logpath), "%s/logs/wultfw.log", dir);
	logf = fopen(logpath, "we");
	if (logf)
		wfw_log_tee(logf);
	write_logs(e, dir, o);
	wfw_info("experiment '%s': source %s on CPU %d, results in %s",
		 e->name, e->source.h.desc->name, e->cpu, dir);
	fill_info(&rs, &si, o);
	if (note[0])
		wfw_warn("experiment '%s': %s", e->name, note);

	wfw_cstates_describe(e->cpu, o->sysfs_root, cs, sizeof(cs));
	wfw_info_str(&rs.info, "cstates", cs);
	wfw_cstates_governor(o->sysfs_root, cs, sizeof(cs));
	wfw_info_str(&rs.info, "cpuidle_governor", cs);
	/* Keep our own work off the measured CPU. */
	if (wfw_pin_away_from(e->cpu))
		wfw_debug("could not move wultfw's main thread off CPU %d", e->cpu);

	batch.ncols = si.schema->ncols;
	batch.capacity = WFW_BATCH_ROWS;
	batch.cells = calloc(batch.capacity * batch.ncols, sizeof(*batch.cells));
	if (!batch.cells) {
		ret = -ENOMEM;
		wfw_err("out of memory");
		goto out_restore;
	}

	run.experiment = e->name;
	run.outdir = dir;
	run.cpu = e->cpu;
	run.source = &si;
	run.schema = si.schema;
	for (opened = 0; opened < e->nsinks; opened++) {
		struct wfw_plugin_inst *pi = &e->sinks[opened];

		init_ctx(pi, &rs, -1);
		ret = pi->h.desc->sink->open(&pi->ctx, &run);
		if (ret < 0) {
			plugin_error(pi, ret, NULL);
			goto out_sinks;
		}
	}
	/* info.yml exists from the start, so even a killed run has one. */
	ret = wfw_info_write(&rs.info, dir, INFO_RESERVE);
	if (ret) {
		wfw_err("cannot write %s/info.yml: %s", dir, strerror(-ret));
		goto out_sinks;
	}
	info_written = true;

	params.cpu = e->cpu;
	params.seed = e->seed;
	start = now_ns();
	ret = src->start(&e->source.ctx, &params);
	if (ret < 0) {
		snprintf(err, sizeof(err), "source '%s' cannot start",
			 e->source.h.desc->name);
		plugin_error(&e->source, ret, err);
		goto out_sinks;
	}
	started = true;
	wfw_progress_begin(&pg, e->name, e->max_datapoints, e->max_time_ns,
			   o->progress);
	ret = measure(e, &batch, &pg, r, start);
	wfw_progress_end(&pg);

out_sinks:
	if (started) {
		int sret = src->stop(&e->source.ctx);

		if (sret < 0)
			wfw_warn("source '%s' did not stop cleanly: %s",
				 e->source.h.desc->name, reason(&e->source, sret));
		if (!ret)
			ret = drain(e, &batch, r);
	}
	r->duration_s = start ? (double)(now_ns() - start) / 1e9 : 0;
	r->stop_signal = wfw_stop_signal;
	r->failed = ret < 0;
	sum.datapoints = r->datapoints;
	sum.discarded = r->discarded;
	sum.duration_s = r->duration_s;
	sum.interrupted = r->stop_signal != 0;
	sum.failed = r->failed;
	for (i = 0; i < opened; i++) {
		struct wfw_plugin_inst *pi = &e->sinks[i];
		int fret = pi == failed_sink ? 0 : pi->h.desc->sink->flush(&pi->ctx);
		int cret;

		if (fret < 0)
			wfw_err("sink '%s' (%s): flush: %s", pi->h.desc->name, pi->key,
				reason(pi, fret));
		cret = pi->h.desc->sink->close(&pi->ctx, &sum);
		if (cret < 0 && fret >= 0 && pi != failed_sink)
			plugin_error(pi, cret, NULL);
		if ((fret < 0 || cret < 0) && !ret) {
			ret = fret < 0 ? fret : cret;
			r->failed = true;
		}
	}
	if (info_written)
		finish_info(&rs, r, dir);
	free(batch.cells);
out_restore:
	wfw_cstates_restore();
out_close_source:
	src->close(&e->source.ctx);
out_noopen:
	if (r->discarded > r->datapoints)
		wfw_warn("experiment '%s': %" PRIu64 " datapoints discarded as inconsistent, more than the %" PRIu64
			 " kept: a launch distance too short for the source? its drop reasons are in info.yml",
			 e->name, r->discarded, r->datapoints);
	else if (r->discarded)
		wfw_info("experiment '%s': %" PRIu64 " datapoint%s discarded as inconsistent by the source",
			 e->name, r->discarded, r->discarded == 1 ? "" : "s");
	if (ret < 0)
		r->failed = true;
	else if (!started)
		;
	else if (r->stop_signal)
		wfw_info("experiment '%s' interrupted by signal %d after %" PRIu64 " datapoints in %.1fs; results saved in %s",
			 e->name, r->stop_signal, r->datapoints, r->duration_s, dir);
	else
		wfw_info("experiment '%s': %" PRIu64 " datapoints in %.1fs, results in %s (statistics: wultfw calc %s)",
			 e->name, r->datapoints, r->duration_s, dir, dir);
	wfw_log_tee(NULL);
	if (logf)
		fclose(logf);
	wfw_info_free(&rs.info);
	return ret < 0 ? ret : 0;
}
