/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sysstate/cpuidle.h>
#include <sysstate/cpus.h>
#include <sysstate/facts.h>
#include <sysstate/proc.h>
#include <sysstate/sysfile.h>

#include "collect.h"
#include "sinkcols.h"
#include "cpulock.h"
#include "pin.h"
#include "cstates.h"
#include "housekeep.h"
#include "datasel.h"
#include "log.h"
#include "pace.h"
#include "percpu.h"
#include "progress.h"
#include "resolved.h"
#include "machine.h"
#include "restore.h"
#include "resultdir.h"
#include "runwatch.h"
#include "signals.h"
#include <units/duration.h>

#define READ_TIMEOUT_NS 100000000ULL	/* how often the loop looks at limits */
#define INFO_RESERVE 8192		/* info.yml room kept for a full disk */

/*
 * One experiment's run: everything set up along the way, so teardown
 * undoes exactly that in the mirrored order. The parsed plan stays as it
 * was parsed.
 */
struct wfw_run {
	struct wfw_experiment *e;
	const struct wfw_run_opts *o;
	struct wfw_run_result *r;
	const char *sysfs;		/* "/sys" or the tests' fake tree */
	struct wfw_source_cpu cpu;	/* the measured CPU's C-states */
	struct wultfw_source_info si;
	struct wultfw_source_params params;
	struct wfw_info info;		/* info.yml; plugins add keys */
	struct wultfw_batch batch;
	struct wfw_progress pg;
	char dir[PATH_MAX];
	int dirfd;			/* dir, held open: its files go there */
	char note[256];			/* what applying C-states noticed */
	FILE *logf;
	size_t nsinks_open;
	uint64_t flushed_rows;		/* datapoints when the sinks last flushed */
	uint64_t made;			/* rows the source gave, before selection */
	char why_empty[256];		/* a run without a datapoint: why */
	char stopped_by[384];		/* info.yml's, when stop_above ended it */
	struct wfw_plugin_inst *failed_sink;	/* said why; not flushed again */
	struct wfw_collectors *collectors;	/* running next to the source */
	struct wfw_annotators annot;		/* columns added to each datapoint */
	const struct wultfw_schema *schema;	/* what sinks get: annot's or the source's */
	struct wfw_datasel sel;			/* include/exclude while measuring */
	struct wfw_pace pace;		/* a sampler with a period: when to read */
	struct wfw_runwatch watch;	/* stop_above and the live figures */
	bool source_open, cstates_set, info_written, started;
	uint64_t start;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- services for plugins ---- */

/* The source or sink whose ctx this is. */
static struct wfw_plugin_inst *ctx_inst(const struct wultfw_ctx *ctx)
{
	const struct wfw_run *run = ctx->host_data;
	struct wfw_experiment *e = run->e;

	for (size_t i = 0; i < e->nsinks; i++)
		if (ctx == &e->sinks[i].ctx)
			return &e->sinks[i];
	for (size_t i = 0; i < e->annotate.n; i++)
		if (ctx == &e->annotate.pi[i].ctx)
			return &e->annotate.pi[i];
	return &e->source;
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
		if (ctx->bad_opt >= 0) {	/* about a setting: at its line */
			char where[512];

			wfw_plugin_where(ctx_inst(ctx), where, sizeof(where));
			wfw_warn("%s: %s: %s", where, name, msg);
		} else {
			wfw_warn("%s: %s", name, msg);
		}
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
	struct wfw_run *run = ctx->host_data;

	wfw_info_str(&run->info, key, value);
}

static bool host_stopping(struct wultfw_ctx *ctx)
{
	return wfw_stop_signal != 0;
}

/* A plugin's change to a system setting: the same state file as C-states. */
static int host_remember(struct wultfw_ctx *ctx, const char *what,
			 const struct wultfw_restore_step *steps, size_t n)
{
	char msg[256];
	int id;

	snprintf(msg, sizeof(msg), "%s: %s", ctx->plugin ? ctx->plugin->name : "plugin", what);
	/* What a later wultfw would refuse to write back is not changed. */
	id = wfw_restore_check_steps(ctx->sysfs_root, steps, n, ctx->err, sizeof(ctx->err));
	if (!id)
		id = wfw_restore_remember(msg, steps, n, ctx->err, sizeof(ctx->err));
	return id;
}

/* One only the plugin's restore op undoes, given data. */
static int host_remember_plugin(struct wultfw_ctx *ctx, const char *what,
				const char *data)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", ctx->plugin->name, what);
	return wfw_restore_remember_plugin(ctx->plugin->name, msg, data,
					   ctx->err, sizeof(ctx->err));
}

static int host_undo(struct wultfw_ctx *ctx, int id)
{
	(void)ctx;
	return wfw_restore_undo(id);
}

static void host_forget(struct wultfw_ctx *ctx, int id)
{
	(void)ctx;
	wfw_restore_forget(id);
}

/* A sink's file in the result directory (core/sinkfile.c). */
static int host_file_open(struct wultfw_ctx *ctx,
			  const struct wultfw_file_spec *spec,
			  struct wultfw_file **f)
{
	struct wfw_plugin_inst *pi = ctx_inst(ctx);

	if (pi->h.desc->kind != WULTFW_KIND_SINK &&
	    pi->h.desc->kind != WULTFW_KIND_ANNOTATOR)
		return wultfw_fail(ctx, -EPERM, "only sinks and annotators write files in the result directory");
	return wfw_sinkfile_open(&pi->files, ctx, spec, f);
}

static const struct wultfw_host host = {
	.size = sizeof(struct wultfw_host),
	.log = host_log,
	.info = host_info,
	.stopping = host_stopping,
	.remember = host_remember,
	.undo = host_undo,
	.forget = host_forget,
	.remember_plugin = host_remember_plugin,
	.file_open = host_file_open,
	.file_reserve = wfw_sinkfile_reserve,
	.file_commit = wfw_sinkfile_commit,
	.file_write = wfw_sinkfile_write,
	.file_flush = wfw_sinkfile_flush,
	.file_close = wfw_sinkfile_close,
};

static void init_ctx(struct wfw_plugin_inst *pi, struct wfw_run *run, int cpu)
{
	wfw_plugin_ctx_init(&pi->ctx, &pi->h);
	pi->ctx.cpu = cpu;
	pi->ctx.opts = pi->opts.vals;
	pi->ctx.cfg = pi->opts.cfg;
	pi->ctx.sysfs_root = run->sysfs;
	pi->ctx.host = &host;
	pi->ctx.host_data = run;
	pi->ctx.verbosity = wfw_verbosity;
}

static void source_error(struct wfw_run *run, int ret, const char *what)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "source '%s'%s%s",
		 run->e->source.h.desc->name, what ? " " : "", what ? what : "");
	wfw_plugin_error(&run->e->source, ret, msg);
}

/* ---- probe: the source, its CPU and C-states ---- */

/* The measured CPU is online, and its cpuidle state names or why none. */
static int probe_cpu(struct wfw_run *run)
{
	struct wultfw_ctx *ctx = &run->e->source.ctx;
	int cpu = run->e->cpu;

	if (!wfw_cpu_online(cpu, run->sysfs)) {
		wfw_err("experiment '%s': CPU %d is not online (see %s/devices/system/cpu/online)",
			run->e->name, cpu, run->sysfs);
		return -ENODEV;
	}
	wfw_source_cpu_open(&run->cpu, cpu, run->sysfs, ctx);
	return 0;
}

/*
 * A source with a launch distance makes its first datapoint after the
 * shortest one at the earliest: one not below the time limit makes none.
 */
static bool ldist_beyond_limit(const struct wfw_run *run, char *why, size_t len)
{
	const struct wfw_experiment *e = run->e;
	char ld[32], lim[32];

	if (e->ldist_use == WULTFW_LDIST_NONE || !e->max_time_ns ||
	    run->params.ldist_from_ns < e->max_time_ns)
		return false;
	wfw_format_duration(run->params.ldist_from_ns, ld, sizeof(ld));
	wfw_format_duration(e->max_time_ns, lim, sizeof(lim));
	snprintf(why, len, "the shortest launch distance (%s) is not below the time limit (%s): no datapoint can arrive in time",
		 ld, lim);
	return true;
}

/* The annotators, after the source: the schema sinks get is theirs. */
static int open_annotators(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	struct wultfw_run_info ri = {
		.size = sizeof(ri), .experiment = e->name, .cpu = e->cpu,
		.source = &run->si, .schema = run->si.schema,
	};
	int ret;

	run->schema = run->si.schema;
	if (!e->annotate.n)
		return 0;
	for (size_t i = 0; i < e->annotate.n; i++)
		init_ctx(&e->annotate.pi[i], run, e->cpu);
	ret = wfw_annot_open(&run->annot, &e->annotate, &ri, WFW_BATCH_ROWS);
	if (!ret)
		run->schema = &run->annot.schema;
	return ret;
}

static int probe(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	char err[1024];
	int ret;

	init_ctx(&e->source, run, e->cpu);
	ret = probe_cpu(run);
	if (ret)
		return ret;
	run->si.size = sizeof(run->si);
	ret = e->source.h.desc->source->open(&e->source.ctx, &run->si);
	if (ret < 0) {
		source_error(run, ret, "cannot run here");
		return ret;
	}
	run->source_open = true;
	if (!run->si.schema || !run->si.schema->ncols) {
		wfw_err("source '%s' declared no columns: a plugin bug", e->source.h.desc->name);
		return -EINVAL;
	}
	ret = open_annotators(run);
	if (!ret)
		ret = wfw_datasel_compile(&run->sel, &e->select, run->schema);
	if (!ret)	/* a sink's column typo: no failed result directory */
		ret = wfw_sinkcols_refuse(e, run->schema);
	if (!ret && wfw_runwatch_open(&run->watch, &e->stop_above, run->schema,
				      run->si.interval_latency, run->o->live_stats,
				      e->cpu, err, sizeof(err))) {
		wfw_err("%s", err);
		ret = -EINVAL;
	}
	if (ret)
		return ret;
	if (e->ldist_use != WULTFW_LDIST_NONE) {
		ret = wfw_fit_ldist(e, &run->si, &run->params.ldist_from_ns,
				    &run->params.ldist_to_ns, err, sizeof(err));
		if (ret) {
			wfw_err("%s", err);
			return ret;
		}
		if (ldist_beyond_limit(run, err, sizeof(err)))
			wfw_warn("%s:%d: %s: %s: shorten ldist or lengthen limits.time",
				 e->ldist_loc.file, e->ldist_loc.line, e->ldist_loc.key, err);
	}
	if (run->o->parent_once)	/* set for every CPU before the runs */
		return 0;
	ret = wfw_cstates_apply(e, run->sysfs, run->note, sizeof(run->note),
				err, sizeof(err));
	if (ret) {
		wfw_err("experiment '%s': %s", e->name, err);
		return ret;
	}
	run->cstates_set = true;
	return 0;
}

/* Closed, and the files they left open closed and kept. */
static void close_annotators(struct wfw_run *run)
{
	struct wfw_annot_list *al = &run->e->annotate;
	size_t n = run->annot.nopen;

	wfw_annot_close(&run->annot);
	for (size_t i = 0; i < n && i < al->n; i++) {
		wfw_sinkfiles_close_all(&al->pi[i].files, &al->pi[i].ctx, true);
		wfw_sinkfiles_free(&al->pi[i].files);
	}
}

static void unprobe(struct wfw_run *run)
{
	if (run->cstates_set)
		wfw_cstates_restore();
	close_annotators(run);		/* opened after the source */
	if (run->source_open)
		run->e->source.h.desc->source->close(&run->e->source.ctx);
	wfw_source_cpu_close(&run->cpu);
	wfw_datasel_free(&run->sel);
}

/* ---- prepare the result directory ---- */

/*
 * "wultfw SOURCE source: what it measures": wult's report shows it after
 * devid as the "Device ID", the one free-text row of its intro.
 */
static void devdescr(const struct wfw_run *run, char *buf, size_t len)
{
	const char *d = run->si.devdescr;

	snprintf(buf, len, "wultfw %s source%s%s", run->e->source.h.desc->name,
		 d && *d ? ": " : "", d && *d ? d : "");
}

static void fill_info(struct wfw_run *run)
{
	const struct wultfw_source_info *si = &run->si;
	struct wfw_experiment *e = run->e;
	struct wfw_info *info = &run->info;
	char date[64], buf[64], buf2[512];
	time_t now = time(NULL);
	struct tm tm;

	/* wult's report tools read results only under their own toolname. */
	wfw_info_str(info, "toolname", si->report_tool ? si->report_tool : "wult");
	/*
	 * wult's report shows "<Toolname> version <toolver>" and compares
	 * toolver only for equality: no wult version collected this, which
	 * it then says (doc/wult-compat.md); devdescr names wultfw's source.
	 */
	wfw_info_str(info, "toolver", "n/a (wultfw " PACKAGE_VERSION ")");
	wfw_info_str(info, "collector", "wultfw " PACKAGE_VERSION);
	wfw_info_str(info, "format_version", "1.3");
	wfw_info_str(info, "reportid", e->name);
	wfw_info_identity(info, e->name);
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	wfw_info_str(info, "date", date);
	wfw_info_fmt(info, "cpunum", "%d", e->cpu);
	wfw_info_fmt(info, "cpu", "%d", e->cpu);
	wfw_info_str(info, "devid", si->devid ? si->devid : e->source.h.desc->name);
	devdescr(run, buf2, sizeof(buf2));
	wfw_info_str(info, "devdescr", buf2);
	wfw_info_fmt(info, "resolution", "%" PRIu64, si->resolution_ns);
	if (e->ldist_use != WULTFW_LDIST_NONE) {
		wfw_format_duration(e->ldist_from_ns, buf, sizeof(buf));
		wfw_info_str(info, "ldist_from", buf);
		wfw_format_duration(e->ldist_to_ns, buf, sizeof(buf));
		wfw_info_str(info, "ldist_to", buf);
	}
	wfw_info_fmt(info, "seed", "%" PRIu64, e->seed);
	wfw_info_str(info, "source", e->source.h.desc->name);
	wfw_info_running(info, run->o->config_file);
}

static void write_logs(const struct wfw_run *run)
{
	const struct wfw_run_opts *o = run->o;
	char *text;
	int ret;

	if (o->cmdline) {
		char *line = malloc(strlen(o->cmdline) + 2);

		if (line) {
			sprintf(line, "%s\n", o->cmdline);
			wfw_write_text_at(run->dirfd, "logs/cmdline", line);
			free(line);
		}
	}
	text = wfw_resolved_config(run->e, o->config_file);
	if (text) {
		ret = wfw_write_text_at(run->dirfd, "logs/config", text);
		if (ret)
			wfw_warn("cannot write %s/logs/config: %s", run->dir, strerror(-ret));
		free(text);
	}
}

/*
 * logs/wultfw.log gets the messages kept since the run began and a copy
 * of every message from here on, each in the file once it is said (line
 * buffered: a kill -9 loses none).
 */
static void open_log(struct wfw_run *run)
{
	int fd = openat(run->dirfd, "logs/wultfw.log",
			O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	run->logf = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!run->logf) {
		wfw_warn("cannot write %s/logs/wultfw.log: %s", run->dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	setvbuf(run->logf, NULL, _IOLBF, 0);
	wfw_log_tee(run->logf);
}

/* A generated name taken already got a number: the experiment has it too. */
static void rename_experiment(struct wfw_run *run)
{
	const char *base = strrchr(run->dir, '/');
	char *name;

	base = base ? base + 1 : run->dir;
	if (!strcmp(base, run->e->name) || run->o->dirname)
		return;
	name = strdup(base);
	if (!name)
		return;
	free(run->e->name);
	run->e->name = name;
}

static void add_fact(void *info, const char *key, const char *value)
{
	wfw_info_str(info, key, value);
}

/* The C-states in force, the governor and the machine's facts. */
static void machine_info(struct wfw_run *run)
{
	char buf[1024];

	wfw_cpuidle_describe(run->e->cpu, run->sysfs, buf, sizeof(buf));
	wfw_info_str(&run->info, "cstates", buf);
	wfw_cpuidle_governor(run->sysfs, buf, sizeof(buf));
	wfw_info_str(&run->info, "cpuidle_governor", buf);
	wfw_machine_facts(run->sysfs, run->e->cpu, add_fact, &run->info);
}

/*
 * The directory, then info.yml (status running, our pid), then logs/:
 * a directory with logs/ always says who writes to it, so --force of
 * another run leaves it alone (wfw_resultdir_replaceable).
 */
static int make_resultdir(struct wfw_run *run)
{
	char err[1024];
	int ret;

	run->dirfd = wfw_resultdir_make(run->dir, sizeof(run->dir), run->o->force,
					run->o->numbered, err, sizeof(err));
	if (run->dirfd < 0) {
		wfw_err("%s", err);
		return run->dirfd;
	}
	rename_experiment(run);
	fill_info(run);
	machine_info(run);
	/*
	 * info.yml first, with room for its final version, before logs/ and
	 * any sink take the space: a full disk or a kill -9 still leaves one
	 * saying what happened.
	 */
	ret = wfw_info_write_at(&run->info, run->dirfd, INFO_RESERVE);
	if (ret) {
		wfw_err("cannot write %s/info.yml: %s", run->dir, strerror(-ret));
		return ret;
	}
	run->info_written = true;
	if (mkdirat(run->dirfd, "logs", 0755)) {
		ret = -errno;
		wfw_err("cannot create %s/logs: %s", run->dir, strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * Keep our own work off the measured CPU: on the housekeeping CPUs the
 * user named (housekeep.h), else anywhere but there.
 */
static void keep_off(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	struct wfw_housekeep hk;
	bool widened;

	if (e->nhk) {
		wfw_housekeep_plan(e, &hk);
		if (!run->o->parent_once)	/* a child has its parent's */
			wfw_housekeep_apply(e, &hk);
		wfw_housekeep_info(&hk, &run->info);
		return;
	}
	if (wfw_pin_away_from(e->cpu, &widened))
		wfw_debug("could not move wultfw's main thread off CPU %d", e->cpu);
	else if (widened)
		wfw_warn("experiment '%s': wultfw was started on CPU %d only (taskset?): its reading thread runs on the other CPUs, off the measured one",
			 e->name, e->cpu);
	if (wfw_may_run_on(e->cpu))
		wfw_warn("experiment '%s': wultfw's reading thread could not be moved off the measured CPU %d: it will disturb the measurement",
			 e->name, e->cpu);
}

static int prepare_resultdir(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	int ret = make_resultdir(run);

	if (ret)
		return ret;
	open_log(run);
	write_logs(run);
	wfw_info("experiment '%s': source %s on CPU %d, results in %s",
		 e->name, e->source.h.desc->name, e->cpu, run->dir);
	if (run->note[0])
		wfw_warn("experiment '%s': %s", e->name, run->note);
	keep_off(run);
	run->batch.ncols = run->si.schema->ncols;
	run->batch.capacity = WFW_BATCH_ROWS;
	run->batch.cells = calloc(run->batch.capacity * run->batch.ncols,
				  sizeof(*run->batch.cells));
	if (!run->batch.cells) {
		wfw_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void report(struct wfw_run *run, int ret);

static void unprepare_resultdir(struct wfw_run *run, int ret)
{
	free(run->batch.cells);
	run->batch.cells = NULL;
	report(run, ret);
	wfw_log_tee(NULL);
	if (run->logf)
		fclose(run->logf);
	run->logf = NULL;
}

/* ---- sinks ---- */

static int open_sinks(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	struct wultfw_run_info ri = {
		.size = sizeof(ri), .experiment = e->name, .outdir = run->dir, .cpu = e->cpu,
		.source = &run->si, .schema = run->schema,
	};
	int ret;

	for (; run->nsinks_open < e->nsinks; run->nsinks_open++) {
		struct wfw_plugin_inst *pi = &e->sinks[run->nsinks_open];

		init_ctx(pi, run, -1);
		wfw_sinkfiles_init(&pi->files, run->dirfd, run->dir);
		ret = pi->h.desc->sink->open(&pi->ctx, &ri);
		if (ret < 0) {
			wfw_plugin_error(pi, ret, NULL);
			/* What it opened and left: not a file of the result. */
			wfw_sinkfiles_close_all(&pi->files, &pi->ctx, false);
			return ret;
		}
		/* Its header on the disk before its file takes its name. */
		ret = wfw_sinkfiles_opened(&pi->files, &pi->ctx);
		if (ret < 0) {
			wfw_plugin_error(pi, ret, NULL);
			run->failed_sink = pi;
			run->nsinks_open++;	/* opened: close() is its due */
			return ret;
		}
	}
	return 0;
}

/*
 * The one way batches reach the sinks, and their files the kernel and the
 * disk on their schedule; the first failure stops the run.
 */
static int write_sinks(struct wfw_run *run, const struct wultfw_batch *b)
{
	size_t i;
	int ret;

	for (i = 0; i < run->e->nsinks; i++) {
		struct wfw_plugin_inst *pi = &run->e->sinks[i];

		pi->files.inflight = b->rows;
		ret = pi->h.desc->sink->write(&pi->ctx, b);
		if (ret >= 0)
			ret = wfw_sinkfiles_wrote(&pi->files, &pi->ctx, b->rows);
		if (ret < 0) {
			wfw_plugin_error(pi, ret, NULL);
			run->failed_sink = pi;
			/* The batch is not counted: not by the sinks before either. */
			while (i--)
				wfw_sinkfiles_unwrote(&run->e->sinks[i].files, b->rows);
			return ret;
		}
	}
	return 0;
}

/*
 * The source went quiet: whatever the sinks still hold goes to the disk
 * now rather than at their next write (which may never come).
 */
static int flush_sinks(struct wfw_run *run)
{
	size_t i;
	int ret;

	if (run->r->datapoints == run->flushed_rows)
		return 0;
	for (i = 0; i < run->nsinks_open; i++) {
		struct wfw_plugin_inst *pi = &run->e->sinks[i];

		ret = pi->h.desc->sink->flush(&pi->ctx);
		if (ret >= 0)
			ret = wfw_sinkfiles_sync(&pi->files, &pi->ctx);
		if (ret < 0) {
			wfw_plugin_error(pi, ret, NULL);
			run->failed_sink = pi;
			return ret;
		}
	}
	run->flushed_rows = run->r->datapoints;
	return 0;
}

/*
 * A sink's failure at the end: an error, unless the run failed already
 * for the same reason (a full disk fails every sink writing there): the
 * first says it, info.yml counts what each file holds.
 */
static void close_error(struct wfw_plugin_inst *pi, int ret, int failed,
			const char *what)
{
	char sink[192];

	snprintf(sink, sizeof(sink), "sink '%s' (%s)%s", pi->h.desc->name, pi->key, what);
	if (ret == failed)
		wfw_info("%s: %s", sink, wfw_plugin_reason(pi, ret));
	else
		wfw_plugin_error(pi, ret, sink);
}

/* Flush and close every opened sink; the first failure fails the run. */
static int close_sinks(struct wfw_run *run, int ret)
{
	const struct wfw_run_result *r = run->r;
	struct wultfw_run_summary sum = {
		.size = sizeof(sum), .datapoints = r->datapoints, .discarded = r->discarded,
		.duration_s = r->duration_s, .interrupted = r->stop_signal != 0,
		.failed = ret < 0,
	};
	size_t i;

	for (i = 0; i < run->nsinks_open; i++) {
		struct wfw_plugin_inst *pi = &run->e->sinks[i];
		const struct wultfw_sink_ops *ops = pi->h.desc->sink;
		bool failed = pi == run->failed_sink;
		int fret = failed ? 0 : ops->flush(&pi->ctx);
		int cret;

		if (fret >= 0 && !failed)
			fret = wfw_sinkfiles_sync(&pi->files, &pi->ctx);
		if (fret < 0)
			close_error(pi, fret, ret, ": flush");
		cret = ops->close(&pi->ctx, &sum);
		wfw_sinkfiles_close_all(&pi->files, &pi->ctx, true);
		if (cret < 0 && fret >= 0 && !failed)
			close_error(pi, cret, ret, "");
		if ((fret < 0 || cret < 0) && !ret)
			ret = fret < 0 ? fret : cret;
	}
	return ret;
}

/* ---- pump: source to sinks ---- */

/*
 * The source's read(), or for a sampler with a period the wait for its
 * next deadline within the timeout and the read then (zero rows before).
 */
static int read_source(struct wfw_run *run, uint64_t timeout)
{
	struct wfw_plugin_inst *src = &run->e->source;
	int ret;

	if (!run->pace.period)
		return src->h.desc->source->read(&src->ctx, &run->batch, timeout);
	if (!wfw_pace_wait(&run->pace, timeout))
		return WULTFW_READ_OK;
	ret = src->h.desc->source->read(&src->ctx, &run->batch, 0);
	wfw_pace_next(&run->pace);
	return ret;
}

/*
 * One read from the source, its rows (clipped to the datapoint limit)
 * handed to the sinks. Returns the read's status or a sink's error.
 */
static int pump_once(struct wfw_run *run, uint64_t timeout, bool *sink_failed)
{
	struct wfw_experiment *e = run->e;
	struct wultfw_batch *b = &run->batch;
	struct wfw_run_result *r = run->r;
	int ret, wret;

	b->rows = 0;
	b->discarded = 0;
	ret = read_source(run, timeout);
	/* Rows read before a failure are real: keep them. */
	r->discarded += b->discarded;
	run->made += b->rows;
	if (e->annotate.n) {
		b = wfw_annot_batch(&run->annot, b);
		if (!b) {
			*sink_failed = true;	/* said why; ends the run as a sink would */
			return -EIO;
		}
	}
	/* The selected rows only, clipped to the datapoint limit. */
	wret = wfw_datasel_batch(&run->sel, b, e->max_datapoints ?
				 e->max_datapoints - r->datapoints : UINT64_MAX);
	*sink_failed = wret != 0;
	if (wret)
		return wret;
	if (!b->rows) {		/* a quiet source: a chance to flush */
		wret = flush_sinks(run);
		*sink_failed = wret < 0;
		return wret < 0 ? wret : ret;
	}
	wfw_runwatch_clip(&run->watch, b);	/* stop_above: up to the crossing */
	wret = write_sinks(run, b);
	if (wret) {
		*sink_failed = true;
		return wret;
	}
	r->datapoints += b->rows;
	wfw_runwatch_done(&run->watch, b, r->datapoints, r->discarded, &r->stop_hit);
	wfw_collect_tick(run->collectors);
	return ret;
}

static bool limit_reached(const struct wfw_run *run)
{
	return run->e->max_datapoints &&
	       run->r->datapoints >= run->e->max_datapoints;
}

/* stop_above crossed here, or (per-CPU runs) on another CPU. */
static bool stop_above_ended(struct wfw_run *run)
{
	const int *req = run->o->stop_req;

	if (req && __atomic_load_n(req, __ATOMIC_ACQUIRE))
		run->r->stopped_by_other = true;
	return run->r->stop_hit.hit || run->r->stopped_by_other;
}

/* The measuring loop: until a limit, a signal, the source's end or an error. */
static int measure(struct wfw_run *run)
{
	uint64_t max_time = run->e->max_time_ns;
	uint64_t deadline = max_time ? run->start + max_time : 0;
	bool sink_failed;
	int ret;

	for (;;) {
		uint64_t timeout = READ_TIMEOUT_NS, now = now_ns();

		if (wfw_stop_signal || (deadline && now >= deadline))
			return 0;
		if (deadline && deadline - now < timeout)
			timeout = deadline - now;
		ret = pump_once(run, timeout, &sink_failed);
		if (sink_failed)
			return ret;
		if (ret == -EINTR && wfw_stop_signal)
			return 0;
		if (ret < 0) {
			source_error(run, ret, NULL);
			return ret;
		}
		wfw_progress_update(&run->pg, run->r->datapoints, run->r->discarded);
		if (run->o->live) {
			run->o->live[0] = run->r->datapoints;
			run->o->live[1] = run->r->discarded;
		}
		if (ret == WULTFW_READ_END || limit_reached(run) || stop_above_ended(run))
			return 0;
	}
}

/*
 * Past the limit or a stop_above crossing no row is kept, but what the
 * source discarded until its stop still counts: its reasons (in info.yml)
 * cover that time too, so 'discarded' must.
 */
static void drain_discards(struct wfw_run *run)
{
	struct wultfw_batch *b = &run->batch;
	int ret;

	do {
		b->rows = 0;
		b->discarded = 0;
		ret = read_source(run, 0);
		run->r->discarded += b->discarded;
	} while (ret == WULTFW_READ_OK && b->rows == b->capacity);
}

/*
 * After stop(): what the source still holds, within the limit. A sampler
 * the core paces holds nothing: a read would be a new sample.
 */
static int drain(struct wfw_run *run)
{
	bool sink_failed;
	int ret;

	if (run->pace.period)
		return 0;
	do {
		if (limit_reached(run) || run->r->stop_hit.hit) {
			drain_discards(run);
			return 0;
		}
		ret = pump_once(run, 0, &sink_failed);
		if (sink_failed)
			return ret;
		if (ret < 0)
			return 0;	/* nothing more to be had */
	} while (run->batch.rows == run->batch.capacity);
	return 0;
}

/* Annotators start before the source; their files go to the result. */
static int start_annotators(struct wfw_run *run)
{
	struct wfw_annot_list *al = &run->e->annotate;

	for (size_t i = 0; i < al->n; i++)
		wfw_sinkfiles_init(&al->pi[i].files, run->dirfd, run->dir);
	return wfw_annot_start(&run->annot);
}

static int pump(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	const struct wultfw_source_ops *src = e->source.h.desc->source;
	int ret, sret;

	run->params.size = sizeof(run->params);
	run->params.cpu = e->cpu;
	run->params.seed = e->seed;
	ret = wfw_datasel_open(&run->sel, run->dir, run->schema);
	if (ret)
		return ret;
	ret = start_annotators(run);
	if (ret)
		return ret;
	/* collectors run before, during and after the main source */
	if (!run->o->parent_once)
		run->collectors = wfw_collect_start(&e->collect, e->cpu, run->dir,
						   run->sysfs, &run->info);
	run->start = now_ns();
	run->watch.start_ns = run->start;
	ret = src->start(&e->source.ctx, &run->params);
	if (ret < 0) {
		source_error(run, ret, "cannot start");
		run->r->collectors_failed = wfw_collect_stop(run->collectors, &run->info,
			run->r->collectors_lost, sizeof(run->r->collectors_lost));
		return ret;
	}
	run->started = true;
	if (!run->si.on_demand)
		wfw_pace_start(&run->pace, run->si.period_ns, run->si.period_aligned);
	wfw_progress_begin(&run->pg, e->name, e->max_datapoints, e->max_time_ns,
			   run->o->progress);
	ret = measure(run);
	wfw_progress_end(&run->pg);
	sret = src->stop(&e->source.ctx);
	if (sret < 0)
		wfw_warn("source '%s' did not stop cleanly: %s",
			 e->source.h.desc->name, wfw_plugin_reason(&e->source, sret));
	if (!ret)
		ret = drain(run);
	sret = wfw_annot_stop(&run->annot);
	if (!ret)
		ret = sret;
	run->r->collectors_failed = wfw_collect_stop(run->collectors, &run->info,
		run->r->collectors_lost, sizeof(run->r->collectors_lost));
	return ret;
}

/* ---- finish ---- */

/* The fewest rows any sink's file holds, and whether one holds other than `got`. */
static uint64_t least_in_files(const struct wfw_experiment *e, uint64_t got,
			       bool *differ)
{
	uint64_t least = got;

	*differ = false;
	for (size_t i = 0; i < e->nsinks; i++) {
		const struct wfw_sinkfiles *fs = &e->sinks[i].files;

		for (size_t k = 0; k < fs->ncounts; k++) {
			*differ |= fs->counts[k].rows != got;
			if (fs->counts[k].rows < least)
				least = fs->counts[k].rows;
		}
	}
	return least;
}

/* "KEY", or "KEY_2", "KEY_3"... for a second file with the same key. */
static void file_key(const struct wfw_info *info, const char *key, char *buf,
		     size_t len)
{
	int n = 1;

	snprintf(buf, len, "%s", key);
	for (size_t i = 0; i < info->n; i++) {
		if (strcmp(info->keys[i], buf))
			continue;
		snprintf(buf, len, "%s_%d", key, ++n);
		i = (size_t)-1;		/* look again from the first key */
	}
}

/*
 * datapoints: what every file of the result holds (doc/durability.md).
 * Once a file holds other than the sinks received (a failed write, a
 * stats.json not rewritten), each file's count and what was received.
 */
static void count_datapoints(struct wfw_run *run)
{
	struct wfw_experiment *e = run->e;
	uint64_t got = run->r->datapoints;
	bool differ;
	uint64_t least = least_in_files(e, got, &differ);
	char key[160];

	wfw_info_fmt(&run->info, "datapoints", "%" PRIu64, least);
	if (!differ)
		return;
	wfw_info_fmt(&run->info, "datapoints_received", "%" PRIu64, got);
	for (size_t i = 0; i < e->nsinks; i++) {
		const struct wfw_sinkfiles *fs = &e->sinks[i].files;

		for (size_t k = 0; k < fs->ncounts; k++) {
			file_key(&run->info, fs->counts[k].key, key, sizeof(key));
			wfw_info_fmt(&run->info, key, "%" PRIu64, fs->counts[k].rows);
		}
	}
}

static void finish_info(struct wfw_run *run)
{
	const struct wfw_run_result *r = run->r;
	struct wfw_info *info = &run->info;
	int ret;

	wfw_info_fmt(info, "duration", "%.3f", r->duration_s);
	count_datapoints(run);
	wfw_info_fmt(info, "discarded", "%" PRIu64, r->discarded);
	wfw_info_str(info, "status",
		     r->failed ? "failed" :
		     r->stop_signal ? "interrupted" :
		     wfw_stopped(r) ? "stopped" :
		     r->empty ? "empty" : "complete");
	if (wfw_stopped(r) && !r->stop_signal)
		wfw_info_str(info, "stopped_by", run->stopped_by);
	if (r->failed && wfw_log_first_error()[0])
		wfw_info_str(info, "error", wfw_log_first_error());
	if (r->empty)
		wfw_info_str(info, "empty_reason", run->why_empty);
	ret = wfw_info_write_at(info, run->dirfd, 0);
	if (ret)
		wfw_err("cannot write %s/info.yml: %s", run->dir, strerror(-ret));
}

/* A run that ended without a datapoint: the likeliest reason first. */
static void why_empty(struct wfw_run *run)
{
	const struct wfw_run_result *r = run->r;
	char *why = run->why_empty;
	size_t len = sizeof(run->why_empty);

	if (ldist_beyond_limit(run, why, len))
		return;
	if (run->made)
		snprintf(why, len, "the include/exclude selection kept none of the %" PRIu64 " datapoints the source made",
			 run->made);
	else if (r->discarded)
		snprintf(why, len, "the source discarded all %" PRIu64 " datapoints it made as inconsistent (its drop reasons are in info.yml)",
			 r->discarded);
	else
		snprintf(why, len, "the source delivered none in %.1fs", r->duration_s);
}

/* info.yml's stopped_by: what crossed stop_above, or that another CPU did. */
static void stopped_by(struct wfw_run *run)
{
	const struct wfw_run_result *r = run->r;
	char what[256];

	if (r->stop_hit.hit) {
		wfw_stop_describe(&r->stop_hit, what, sizeof(what));
		snprintf(run->stopped_by, sizeof(run->stopped_by), "stop_above: %s", what);
	} else if (r->stopped_by_other) {
		snprintf(run->stopped_by, sizeof(run->stopped_by),
			 "stop_above: another CPU's run crossed it (the experiment's info.yml says which)");
	}
}

/* Sinks closed with the final counts, then info.yml's final state. */
static int finish(struct wfw_run *run, int ret)
{
	struct wfw_run_result *r = run->r;
	int dret;

	r->duration_s = run->start ? (double)(now_ns() - run->start) / 1e9 : 0;
	r->stop_signal = wfw_stop_signal;
	ret = close_sinks(run, ret);
	dret = wfw_datasel_close(&run->sel, ret);
	if (dret < 0 && !ret)
		ret = dret;
	wfw_datasel_info(&run->sel, &run->info);
	r->failed = ret < 0;
	r->empty = !r->failed && !r->stop_signal && !wfw_stopped(r) &&
		   !r->datapoints && run->started;
	stopped_by(run);
	if (r->empty)
		why_empty(run);
	if (run->info_written)
		finish_info(run);
	for (size_t i = 0; i < run->e->nsinks; i++)
		wfw_sinkfiles_free(&run->e->sinks[i].files);
	return ret;
}

/* The closing lines: discarded datapoints, and where the results are. */
static void report(struct wfw_run *run, int ret)
{
	const struct wfw_run_result *r = run->r;
	const char *name = run->e->name;

	if (r->discarded > r->datapoints)
		wfw_warn("experiment '%s': %" PRIu64 " datapoints discarded as inconsistent, more than the %" PRIu64
			 " kept: a launch distance too short for the source? its drop reasons are in info.yml",
			 name, r->discarded, r->datapoints);
	else if (r->discarded)
		wfw_info("experiment '%s': %" PRIu64 " datapoint%s discarded as inconsistent by the source",
			 name, r->discarded, r->discarded == 1 ? "" : "s");
	if (ret < 0 || !run->started)
		return;
	if (r->stop_signal)
		wfw_info("experiment '%s' interrupted by signal %d after %" PRIu64 " datapoints in %.1fs; results saved in %s",
			 name, r->stop_signal, r->datapoints, r->duration_s, run->dir);
	else if (r->stop_hit.hit && !run->o->live_stats)
		wfw_stop_report(name, &r->stop_hit, r->datapoints, run->dir);
	else if (wfw_stopped(r))	/* a CPU of several: the parent says why */
		wfw_info("experiment '%s': %" PRIu64 " datapoints in %.1fs, stopped by stop_above %s; results in %s",
			 name, r->datapoints, r->duration_s,
			 r->stop_hit.hit ? "here" : "on another CPU", run->dir);
	else if (r->empty)
		wfw_warn("experiment '%s': no datapoint in %.1fs: %s (info.yml in %s says status: 'empty')",
			 name, r->duration_s, run->why_empty, run->dir);
	else if (r->collectors_failed)
		wfw_warn("experiment '%s': %" PRIu64 " datapoints in %.1fs, results in %s, without the data of collector %s (info.yml says why)",
			 name, r->datapoints, r->duration_s, run->dir, r->collectors_lost);
	else
		wfw_info("experiment '%s': %" PRIu64 " datapoints in %.1fs, results in %s (statistics: wultfw calc %s)",
			 name, r->datapoints, r->duration_s, run->dir, run->dir);
}

/*
 * probe -> result directory -> sinks -> pump -> finish; each phase that
 * got set up is torn down in the mirrored order, whatever failed.
 */
/*
 * The measured CPU's lock (cpulock.h): its fd, or < 0 (busy: said;
 * -EPERM: the file or directory refused, said: the run stops).
 */
static int lock_cpu(const struct wfw_experiment *e)
{
	pid_t other;
	char err[1024], who[32] = "pid unknown";
	int fd = wfw_cpulock_take(e->cpu, &other, err, sizeof(err));

	if (other)
		snprintf(who, sizeof(who), "pid %d", (int)other);
	if (fd == -EBUSY)
		wfw_warn("experiment '%s': another wultfw (%s) is measuring CPU %d too: each disturbs the other's wake-ups",
			 e->name, who, e->cpu);
	else if (fd == -EPERM)
		wfw_err("experiment '%s': CPU %d's lock: %s", e->name, e->cpu, err);
	return fd;
}

int wfw_run_experiment(struct wfw_experiment *e, const struct wfw_run_opts *o,
		       struct wfw_run_result *r)
{
	struct wfw_run run = {
		.e = e, .o = o, .r = r, .dirfd = -1,
		.sysfs = wfw_sysfs(o->sysfs_root),
	};
	int ret, lock;

	if (e->ncpus > 1)
		return wfw_run_percpu(e, o, r);
	memset(r, 0, sizeof(*r));
	wfw_log_reset_first_error();
	wfw_log_keep();		/* for logs/wultfw.log, once it exists */
	snprintf(run.dir, sizeof(run.dir), "%s/%s", e->outdir,
		 o->dirname ? o->dirname : e->name);
	/* What a killed run left changed goes back before we change anything. */
	if (!o->no_leftovers && wfw_restore_leftovers("run", o->sysfs_root, true) < 0)
		wfw_warn("settings a killed wultfw changed could not all be restored (above): this experiment may measure with them");

	lock = lock_cpu(e);
	if (lock == -EPERM) {
		r->failed = true;
		return lock;
	}
	ret = probe(&run);
	if (!ret) {
		ret = prepare_resultdir(&run);
		if (!ret) {
			ret = open_sinks(&run);
			if (!ret)
				ret = pump(&run);
		}
		/* Whatever got opened is closed, and info.yml says how it ended. */
		ret = finish(&run, ret);
		unprepare_resultdir(&run, ret);
	} else {
		report(&run, ret);
	}
	unprobe(&run);
	wfw_cpulock_release(lock);
	if (run.dirfd >= 0)
		close(run.dirfd);
	wfw_info_free(&run.info);
	if (ret < 0)
		r->failed = true;
	return ret < 0 ? ret : 0;
}
