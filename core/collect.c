/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "collect.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <datafmt/writer.h>

#include "log.h"
#include "pace.h"
#include "signals.h"

/* Keys of a collector group the core reads; the rest are the plugin's. */
static const char *const collect_core_keys[] = { "plugin", "file", NULL };

#define COLLECT_READ_NS 100000000ULL	/* how often a thread looks at quit */
#define COLLECT_ROWS 256
/* How long a self-paced collector may hand over what it holds after stop(). */
#define COLLECT_DRAIN_NS 2000000000ull

/* ---- parsing ---- */

/* "telemetry.csv", or "telemetry-2.csv" for the second of that plugin. */
static char *default_file(const struct wfw_collect_list *cl, size_t i)
{
	const char *name = cl->pi[i].h.desc->name;
	size_t k, same = 0;
	char buf[128];

	for (k = 0; k < i; k++)
		same += !strcmp(cl->pi[k].h.desc->name, name);
	if (same)
		snprintf(buf, sizeof(buf), "%s-%zu.csv", name, same + 1);
	else
		snprintf(buf, sizeof(buf), "%s.csv", name);
	return strdup(buf);
}

static void parse_one(struct wfw_collect_list *cl, const config_setting_t *g,
		      const char *key, struct wfw_cfgerr *errs)
{
	struct wfw_plugin_inst *pi = &cl->pi[cl->n];
	const config_setting_t *f;

	if (wfw_load_plugin(pi, g, key, WULTFW_KIND_SOURCE, collect_core_keys, errs))
		goto drop;	/* the plugin and its options may be half there */
	if (pi->h.desc->ldist.use != WULTFW_LDIST_NONE) {
		wfw_cfgerr_at(errs, g, key,
			      "plugin '%s' times events with a launch distance: only samplers (such as telemetry) can be collectors",
			      pi->h.desc->name);
		goto drop;
	}
	cl->n++;
	f = config_setting_get_member(g, "file");
	if (f && (config_setting_type(f) != CONFIG_TYPE_STRING ||
		  strchr(config_setting_get_string(f), '/') ||
		  !config_setting_get_string(f)[0])) {
		wfw_cfgerr_at(errs, f, key, "file: expected a file name such as \"irqs.csv\" (no '/')");
		return;
	}
	cl->files[cl->n - 1] = f ? strdup(config_setting_get_string(f))
				 : default_file(cl, cl->n - 1);
	return;
drop:
	wfw_plugin_inst_free(pi);
	memset(pi, 0, sizeof(*pi));
}

void wfw_collect_parse(struct wfw_collect_list *cl, const config_setting_t *list,
		       const char *key, struct wfw_cfgerr *errs)
{
	char ekey[192];
	int n, i;

	if (config_setting_type(list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, list, key,
			      "expected a list of collectors such as ( { plugin = \"telemetry\"; counters = [ \"stat:ctxt\" ]; } )");
		return;
	}
	n = config_setting_length(list);
	cl->pi = calloc((size_t)n + 1, sizeof(*cl->pi));
	cl->files = calloc((size_t)n + 1, sizeof(char *));
	if (!cl->pi || !cl->files)
		return;
	for (i = 0; i < n; i++) {
		snprintf(ekey, sizeof(ekey), "%s[%d]", key, i);
		parse_one(cl, config_setting_get_elem(list, (unsigned)i), ekey, errs);
	}
	/* two writing one file: wfw_outfiles_check() */
}

void wfw_collect_free(struct wfw_collect_list *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		wfw_plugin_inst_free(&cl->pi[i]);
		free(cl->files[i]);
	}
	free(cl->pi);
	free(cl->files);
	cl->pi = NULL;
	cl->files = NULL;
	cl->n = 0;
}

/* ---- running ---- */

struct wfw_collector {
	struct wfw_plugin_inst *pi;
	const char *file;
	size_t index;
	struct wfw_info *info;
	struct wultfw_source_info si;
	struct wfw_csv_writer w;
	struct wultfw_batch b;
	pthread_t thread;
	bool running;
	atomic_bool quit;
	/* on_demand samplers: a sample per request, requests from the pump */
	pthread_mutex_t lock;
	pthread_cond_t asked_cond;
	uint64_t asked, served;
	struct wfw_pace pace;	/* a sampler with a period: read on its grid */
	char error[640];	/* why it stopped early; "" when it did not */
};

struct wfw_collectors {
	struct wfw_collector *c;
	size_t n;
	cpu_set_t cpus;		/* every allowed CPU but the measured one */
};

static void coll_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		     const char *msg)
{
	struct wfw_collector *c = ctx->host_data;

	char where[512];

	if (level == WULTFW_LOG_WARN && ctx->bad_opt >= 0) {	/* at its line */
		wfw_plugin_where(c->pi, where, sizeof(where));
		wfw_warn("%s: collector %s (%s): %s", where, c->pi->h.desc->name,
			 c->file, msg);
	} else if (level == WULTFW_LOG_ERROR || level == WULTFW_LOG_WARN)
		wfw_warn("collector %s (%s): %s", c->pi->h.desc->name, c->file, msg);
	else if (level == WULTFW_LOG_INFO)
		wfw_info("collector %s (%s): %s", c->pi->h.desc->name, c->file, msg);
}

/* Only called from the collector's thread while the main one waits in
 * wfw_collect_stop(), or before the thread starts. */
static void coll_info(struct wultfw_ctx *ctx, const char *key, const char *val)
{
	struct wfw_collector *c = ctx->host_data;
	char k[160];

	snprintf(k, sizeof(k), "collect%zu_%s", c->index, key);
	wfw_info_str(c->info, k, val);
}

static bool coll_stopping(struct wultfw_ctx *ctx)
{
	struct wfw_collector *c = ctx->host_data;

	return wfw_stop_signal != 0 || atomic_load(&c->quit);
}

static const struct wultfw_host coll_host = {
	.size = sizeof(struct wultfw_host),
	.log = coll_log, .info = coll_info, .stopping = coll_stopping,
};

static void coll_fail(struct wfw_collector *c, const char *what, int ret)
{
	snprintf(c->error, sizeof(c->error), "%s: %s", what,
		 c->pi->ctx.err[0] ? c->pi->ctx.err : strerror(-ret));
	wfw_err("collector %s (%s) %s; the measurement goes on without it",
		c->pi->h.desc->name, c->file, c->error);
}

/* Write and flush what b holds, so the file is whole at any moment. */
static int coll_write(struct wfw_collector *c)
{
	int ret = 0;

	if (c->b.rows)
		ret = wfw_csvw_write(&c->w, &c->b);
	if (!ret)
		ret = wfw_csvw_flush(&c->w);
	c->b.rows = 0;
	if (ret)
		snprintf(c->pi->ctx.err, sizeof(c->pi->ctx.err), "%s", c->w.out.msg);
	return ret;
}

/*
 * How long the next read() may wait: a self-paced sampler gets a slice so
 * the thread notices quit; one with a period waits here for its deadline,
 * and an on_demand one for a request (false: quit first), and is then
 * read without waiting.
 */
static bool coll_wait_turn(struct wfw_collector *c, uint64_t *timeout)
{
	bool go;

	*timeout = COLLECT_READ_NS;
	if (c->pace.period) {
		*timeout = 0;
		while (!wfw_pace_wait(&c->pace, COLLECT_READ_NS))
			if (atomic_load(&c->quit))
				return false;
		return !atomic_load(&c->quit);
	}
	if (!c->si.on_demand)
		return true;
	*timeout = 0;
	pthread_mutex_lock(&c->lock);
	while (c->served == c->asked && !atomic_load(&c->quit))
		pthread_cond_wait(&c->asked_cond, &c->lock);
	go = c->served < c->asked;
	c->served = c->asked;	/* requests while it sampled merge into one */
	pthread_mutex_unlock(&c->lock);
	return go;
}

static uint64_t coll_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * What a self-paced source still holds after stop(): full batches until a
 * read comes back short, for at most COLLECT_DRAIN_NS, so that a source
 * that goes on producing cannot hold the run open.
 */
static void coll_drain(struct wfw_collector *c)
{
	const struct wultfw_source_ops *src = c->pi->h.desc->source;
	uint64_t end = coll_mono_ns() + COLLECT_DRAIN_NS;
	bool full;

	do {
		if (src->read(&c->pi->ctx, &c->b, 0) < 0 || !c->b.rows)
			return;
		full = c->b.rows == c->b.capacity;
		if (coll_write(c))
			return;
	} while (full && coll_mono_ns() < end);
}

static void *coll_thread(void *arg)
{
	struct wfw_collector *c = arg;
	const struct wultfw_source_ops *src = c->pi->h.desc->source;
	uint64_t timeout;
	int ret = 0;

	while (!atomic_load(&c->quit) && !ret && coll_wait_turn(c, &timeout)) {
		ret = src->read(&c->pi->ctx, &c->b, timeout);
		if (c->pace.period)
			wfw_pace_next(&c->pace);
		if (ret < 0) {
			int wret = coll_write(c);	/* rows before the error count */

			coll_fail(c, "failed to read", wret ? wret : ret);
			break;
		}
		if (coll_write(c)) {
			coll_fail(c, "cannot write", -EIO);
			ret = -EIO;
			break;
		}
	}
	src->stop(&c->pi->ctx);
	/* One the core paces or asks holds nothing and would sample on
	 * every read. */
	if (ret >= 0 && !c->si.on_demand && !c->pace.period)
		coll_drain(c);
	return NULL;
}

static int coll_open(struct wfw_collector *c, int cpu, const char *dir,
		     const char *sysfs)
{
	struct wfw_plugin_inst *pi = c->pi;
	char path[PATH_MAX];
	int ret;

	wfw_plugin_ctx_init(&pi->ctx, &pi->h);
	pi->ctx.opts = pi->opts.vals;
	pi->ctx.cfg = pi->opts.cfg;
	pi->ctx.host = &coll_host;
	pi->ctx.host_data = c;
	pi->ctx.verbosity = wfw_verbosity;
	pi->ctx.cpu = cpu;
	pi->ctx.sysfs_root = sysfs;
	pi->ctx.no_cstates = "a collector";
	c->si.size = sizeof(c->si);
	ret = pi->h.desc->source->open(&pi->ctx, &c->si);
	if (ret < 0) {
		coll_fail(c, "cannot run here", ret);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, c->file);
	ret = wfw_csvw_open(&c->w, path, c->si.schema, 0);
	if (!ret) {
		(void)fdatasync(c->w.out.fd);	/* its header on the disk */
		c->b.ncols = c->si.schema->ncols;
		c->b.capacity = COLLECT_ROWS;
		c->b.cells = calloc(c->b.capacity * c->b.ncols, sizeof(*c->b.cells));
		if (!c->b.cells)
			ret = -ENOMEM;
		else
			ret = pi->h.desc->source->start(&pi->ctx,
				&(struct wultfw_source_params){
					.size = sizeof(struct wultfw_source_params),
					.cpu = cpu });
		if (!ret && !c->si.on_demand)
			wfw_pace_start(&c->pace, c->si.period_ns, c->si.period_aligned);
		if (ret < 0)
			wfw_csvw_close(&c->w);
	} else {
		snprintf(pi->ctx.err, sizeof(pi->ctx.err), "%s", c->w.out.msg);
	}
	if (ret < 0) {
		coll_fail(c, "cannot start", ret);
		pi->h.desc->source->close(&pi->ctx);
		free(c->b.cells);
		c->b.cells = NULL;
	}
	return ret;
}

static void coll_launch(struct wfw_collectors *cs, struct wfw_collector *c,
			int cpu, const char *dir, const char *sysfs)
{
	pthread_attr_t attr;
	int ret;

	if (coll_open(c, cpu, dir, sysfs) < 0)
		return;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->asked_cond, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(cs->cpus), &cs->cpus);
	ret = pthread_create(&c->thread, &attr, coll_thread, c);
	pthread_attr_destroy(&attr);
	if (ret) {
		coll_fail(c, "cannot start its thread", -ret);
		c->pi->h.desc->source->stop(&c->pi->ctx);
		c->pi->h.desc->source->close(&c->pi->ctx);
		wfw_csvw_close(&c->w);
		return;
	}
	c->running = true;
}

struct wfw_collectors *wfw_collect_start_on(struct wfw_collect_list *cl, int cpu,
					    const cpu_set_t *where,
					    const char *dir, const char *sysfs,
					    struct wfw_info *info)
{
	struct wfw_collectors *cs;
	size_t i;

	if (!cl->n)
		return NULL;
	cs = calloc(1, sizeof(*cs));
	if (cs)
		cs->c = calloc(cl->n, sizeof(*cs->c));
	if (!cs || !cs->c) {
		wfw_err("collectors: out of memory; the measurement goes on without them");
		free(cs);
		return NULL;
	}
	cs->n = cl->n;
	if (where)
		cs->cpus = *where;
	else
		sched_getaffinity(0, sizeof(cs->cpus), &cs->cpus);
	for (i = 0; i < cs->n; i++) {
		struct wfw_collector *c = &cs->c[i];

		*c = (struct wfw_collector){ .pi = &cl->pi[i], .file = cl->files[i],
					     .index = i, .info = info };
		if (!CPU_COUNT(&cs->cpus)) {
			snprintf(c->error, sizeof(c->error),
				 "no CPU but the measured CPU %d to run on", cpu);
			wfw_err("collector %s (%s): %s; the measurement goes on without it",
				c->pi->h.desc->name, c->file, c->error);
			continue;
		}
		coll_launch(cs, c, cpu, dir, sysfs);
	}
	return cs;
}

struct wfw_collectors *wfw_collect_start(struct wfw_collect_list *cl, int cpu,
					 const char *dir, const char *sysfs,
					 struct wfw_info *info)
{
	cpu_set_t cpus;

	sched_getaffinity(0, sizeof(cpus), &cpus);
	CPU_CLR(cpu, &cpus);
	return wfw_collect_start_on(cl, cpu, &cpus, dir, sysfs, info);
}

void wfw_collect_tick(struct wfw_collectors *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->n; i++) {
		struct wfw_collector *c = &cs->c[i];

		if (!c->running || !c->si.on_demand)
			continue;
		pthread_mutex_lock(&c->lock);
		c->asked++;
		pthread_cond_signal(&c->asked_cond);
		pthread_mutex_unlock(&c->lock);
	}
}

/* "telemetry (net.csv)" appended to lost, for the run's final line. */
static void add_lost(const struct wfw_collector *c, char *lost, size_t len)
{
	size_t at = strlen(lost);

	if (at < len)
		snprintf(lost + at, len - at, "%s%s (%s)", at ? ", " : "",
			 c->pi->h.desc->name, c->file);
}

size_t wfw_collect_stop(struct wfw_collectors *cs, struct wfw_info *info,
			char *lost, size_t lostlen)
{
	char list[1024] = "", k[64];
	size_t i, len = 0, failed = 0;

	if (lostlen)
		lost[0] = '\0';
	if (!cs)
		return 0;
	for (i = 0; i < cs->n; i++) {
		atomic_store(&cs->c[i].quit, true);
		if (cs->c[i].running) {
			pthread_mutex_lock(&cs->c[i].lock);
			pthread_cond_signal(&cs->c[i].asked_cond);
			pthread_mutex_unlock(&cs->c[i].lock);
		}
	}
	/* all joined before info is touched: their stop() may add keys */
	for (i = 0; i < cs->n; i++)
		if (cs->c[i].running)
			pthread_join(cs->c[i].thread, NULL);
	for (i = 0; i < cs->n; i++) {
		struct wfw_collector *c = &cs->c[i];

		if (c->running) {
			/* Its last rows on the disk, and what the file holds. */
			if (wfw_csvw_flush(&c->w) && !c->error[0])
				snprintf(c->error, sizeof(c->error), "cannot write: %s", c->w.out.msg);
			snprintf(k, sizeof(k), "collect%zu_rows", i);
			wfw_info_fmt(info, k, "%" PRIu64, wfw_csvw_in_file(&c->w));
			if (c->si.on_demand) {	/* requests met while it sampled merge */
				snprintf(k, sizeof(k), "collect%zu_requests", i);
				wfw_info_fmt(info, k, "%" PRIu64, c->asked);
			}
			wfw_csvw_close(&c->w);
			c->pi->h.desc->source->close(&c->pi->ctx);
			free(c->b.cells);
			pthread_cond_destroy(&c->asked_cond);
			pthread_mutex_destroy(&c->lock);
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						len ? ", " : "", c->file);
		}
		snprintf(k, sizeof(k), "collect%zu_plugin", i);
		wfw_info_str(info, k, c->pi->h.desc->name);
		snprintf(k, sizeof(k), "collect%zu_file", i);
		wfw_info_str(info, k, c->running ? c->file : "");
		if (c->error[0]) {
			snprintf(k, sizeof(k), "collect%zu_error", i);
			wfw_info_str(info, k, c->error);
			add_lost(c, lost, lostlen);
			failed++;
		}
	}
	wfw_info_str(info, "collectors", list);
	/* Beside status: the measurement is whole, what they add is not. */
	wfw_info_fmt(info, "collectors_failed", "%zu", failed);
	free(cs->c);
	free(cs);
	return failed;
}
