/* SPDX-License-Identifier: MIT */
/*
 * What this machine can run. The experiment file may be valid and still
 * ask for what this machine lacks (no cpuidle states, no kernel module
 * support, no such NIC): --check says so early, as warnings at the line
 * of the setting, by asking the same questions a run asks first.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <sysstate/cpuidle.h>
#include <sysstate/sysfile.h>

#include "log.h"
#include "machine.h"
#include "resultdir.h"
#include "sinkcols.h"
#include <units/duration.h>

int wfw_fit_ldist(const struct wfw_experiment *e,
		  const struct wultfw_source_info *si, uint64_t *from,
		  uint64_t *to, char *err, size_t errlen)
{
	uint64_t gran = si->ldist_gran_ns > 1 ? si->ldist_gran_ns : 1;
	const struct wfw_loc *l = &e->ldist_loc;
	char a[32], b[32], lo[32], hi[32];

	*from = (e->ldist_from_ns + gran - 1) / gran * gran;
	*to = e->ldist_to_ns / gran * gran;
	wfw_format_duration(e->ldist_from_ns, a, sizeof(a));
	wfw_format_duration(e->ldist_to_ns, b, sizeof(b));
	wfw_format_duration(si->ldist_min_ns, lo, sizeof(lo));
	wfw_format_duration(si->ldist_max_ns, hi, sizeof(hi));
	if (*from > *to) {
		snprintf(err, errlen, "%s:%d: %s: [%s, %s] holds no multiple of the source's granularity (%" PRIu64 "ns)",
			 l->file, l->line, l->key, a, b, gran);
		return -EINVAL;
	}
	if ((si->ldist_min_ns && *from < si->ldist_min_ns) ||
	    (si->ldist_max_ns && *to > si->ldist_max_ns)) {
		snprintf(err, errlen, "%s:%d: %s: [%s, %s] is outside what source '%s' can do here: [%s, %s]",
			 l->file, l->line, l->key, a, b,
			 e->source.h.desc->name, lo, hi);
		return -EINVAL;
	}
	return 0;
}

static void quiet_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		      const char *msg)
{
	if (level == WULTFW_LOG_DEBUG)
		wfw_debug("%s: %s", ctx->plugin->name, msg);
}

static const struct wultfw_host quiet_host = {
	.size = sizeof(struct wultfw_host), .log = quiet_log,
};

/* --check: what open() warns of about an option, at the setting's line. */
struct probe_notes {
	const struct wfw_plugin_inst *pi;
	const char *what;	/* "source", "collector" */
	struct wfw_cfgerr *warns;
};

static void noting_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		       const char *msg)
{
	const struct probe_notes *pn = ctx->host_data;
	char where[512];

	if (level != WULTFW_LOG_WARN || ctx->bad_opt < 0) {
		quiet_log(ctx, level, msg);
		return;
	}
	wfw_plugin_where(pn->pi, where, sizeof(where));
	wfw_cfgerr_add(pn->warns, "", 0, NULL, "%s: %s '%s': %s", where, pn->what,
		       pn->pi->h.desc->name, msg);
}

static const struct wultfw_host noting_host = {
	.size = sizeof(struct wultfw_host), .log = noting_log,
};

void wfw_source_cpu_open(struct wfw_source_cpu *sc, int cpu,
			 const char *sysfs_root, struct wultfw_ctx *ctx)
{
	memset(sc, 0, sizeof(*sc));
	if (wfw_cpuidle_open(&sc->ci, cpu, sysfs_root)) {
		sc->ci.nstates = 0;
		wfw_cpuidle_why_none(cpu, sysfs_root, sc->why_none,
				     sizeof(sc->why_none));
		ctx->no_cstates = sc->why_none;
		return;
	}
	ctx->cstate_names = sc->ci.name_ptrs;
	ctx->n_cstates = sc->ci.nstates;
}

void wfw_source_cpu_close(struct wfw_source_cpu *sc)
{
	if (sc->ci.nstates)
		wfw_cpuidle_close(&sc->ci);
	sc->ci.nstates = 0;
}

static int probe_with(const struct wultfw_plugin *desc,
		      const struct wfw_optvals *opts, int cpu,
		      const char *sysfs_root, struct wfw_source_cpu *sc,
		      struct wultfw_ctx *ctx, struct wultfw_source_info *si,
		      struct probe_notes *pn)
{
	memset(ctx, 0, sizeof(*ctx));
	memset(si, 0, sizeof(*si));
	ctx->size = sizeof(*ctx);
	si->size = sizeof(*si);
	ctx->plugin = desc;
	ctx->opts = opts->vals;
	ctx->cfg = opts->cfg;
	ctx->sysfs_root = wfw_sysfs(sysfs_root);
	ctx->cpu = cpu;
	ctx->bad_opt = -1;
	ctx->host = pn ? &noting_host : &quiet_host;
	ctx->host_data = pn;
	ctx->verbosity = wfw_verbosity;
	wfw_source_cpu_open(sc, cpu, ctx->sysfs_root, ctx);
	return desc->source->open(ctx, si);
}

int wfw_source_probe(const struct wultfw_plugin *desc,
		     const struct wfw_optvals *opts, int cpu,
		     const char *sysfs_root, struct wfw_source_cpu *sc,
		     struct wultfw_ctx *ctx, struct wultfw_source_info *si)
{
	return probe_with(desc, opts, cpu, sysfs_root, sc, ctx, si, NULL);
}

/*
 * Can the source open here, take the experiment's launch distances, and
 * give the columns its include/exclude compare?
 */
static void check_source(struct wfw_experiment *e, const char *sysfs_root,
			 struct wfw_cfgerr *warns)
{
	struct wfw_plugin_inst *src = &e->source;
	struct probe_notes pn = { src, "source", warns };
	struct wultfw_source_info si;
	struct wfw_source_cpu sc;
	char where[512], err[1024];
	uint64_t from, to;
	int ret;

	ret = probe_with(src->h.desc, &src->opts, e->cpu, sysfs_root, &sc,
			 &src->ctx, &si, &pn);
	if (ret < 0) {
		wfw_source_cpu_close(&sc);
		if (!src->ctx.err[0])
			snprintf(src->ctx.err, sizeof(src->ctx.err), "%s", strerror(-ret));
		wfw_plugin_where(src, where, sizeof(where));
		wfw_cfgerr_add(warns, "", 0, NULL, "%s: source '%s' cannot run on this machine: %s",
			       where, src->h.desc->name, src->ctx.err);
		return;
	}
	if (e->ldist_use != WULTFW_LDIST_NONE &&
	    wfw_fit_ldist(e, &si, &from, &to, err, sizeof(err)))
		wfw_cfgerr_add(warns, "", 0, NULL, "%s", err);
	if (si.schema) {
		wfw_datasel_check_schema(&e->select, si.schema, src->h.desc->name, warns);
		wfw_sinkcols_check_schema(e, si.schema, warns);
	}
	src->h.desc->source->close(&src->ctx);
	wfw_source_cpu_close(&sc);
}

/* A C-state restriction needs cpuidle states on the measured CPU. */
static void check_cstates(const struct wfw_experiment *e,
			  const char *sysfs_root, struct wfw_cfgerr *warns)
{
	const struct wfw_loc *l = &e->cstates_loc;
	struct wfw_cpuidle ci;
	char why[160];

	if (e->cstate_mode == WFW_CSTATES_ANY)
		return;
	if (!wfw_cpuidle_open(&ci, e->cpu, sysfs_root)) {
		wfw_cpuidle_close(&ci);
		return;
	}
	wfw_cpuidle_why_none(e->cpu, sysfs_root, why, sizeof(why));
	wfw_cfgerr_add(warns, l->file, l->line, l->key,
		       "%s, so C-states cannot be restricted on this machine", why);
}

/*
 * Each collector opened as a run opens it (collect.c), quietly: one that
 * cannot run here leaves its file out of the result.
 */
static void check_collector(struct wfw_experiment *e, size_t i,
			    const char *sysfs_root, struct wfw_cfgerr *warns)
{
	struct wfw_plugin_inst *pi = &e->collect.pi[i];
	struct probe_notes pn = { pi, "collector", warns };
	struct wultfw_source_info si;
	struct wfw_source_cpu sc;
	char where[512];
	int ret;

	ret = probe_with(pi->h.desc, &pi->opts, e->cpu, sysfs_root, &sc,
			 &pi->ctx, &si, &pn);
	if (ret >= 0)
		pi->h.desc->source->close(&pi->ctx);
	wfw_source_cpu_close(&sc);
	if (ret >= 0)
		return;
	if (!pi->ctx.err[0])
		snprintf(pi->ctx.err, sizeof(pi->ctx.err), "%s", strerror(-ret));
	wfw_plugin_where(pi, where, sizeof(where));
	wfw_cfgerr_add(warns, "", 0, NULL, "%s: collector '%s' cannot run on this machine: %s (a run would go on without its %s)",
		       where, pi->h.desc->name, pi->ctx.err, e->collect.files[i]);
}

/* Collectors run off the measured CPU: is there another one? */
static void check_collectors(struct wfw_experiment *e, const char *sysfs_root,
			     struct wfw_cfgerr *warns)
{
	cpu_set_t cpus;

	if (!e->collect.n)
		return;
	if (!sched_getaffinity(0, sizeof(cpus), &cpus)) {
		CPU_CLR(e->cpu, &cpus);
		if (!CPU_COUNT(&cpus)) {
			wfw_cfgerr_add(warns, e->collect.pi[0].loc.file, e->collect.pi[0].loc.line,
				       e->collect.pi[0].key,
				       "collectors run off the measured CPU %d, and wultfw may run on no other one here (taskset?)",
				       e->cpu);
			return;
		}
	}
	for (size_t i = 0; i < e->collect.n; i++)
		check_collector(e, i, sysfs_root, warns);
}

/* A run does not overwrite a result directory without --force. */
static void check_resultdir(const struct wfw_experiment *e, bool force,
			    struct wfw_cfgerr *warns)
{
	char dir[PATH_MAX], err[PATH_MAX + 256];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/%s", e->outdir, e->name);
	if (stat(dir, &st))
		return;
	if (wfw_resultdir_replaceable(dir, err, sizeof(err)))
		wfw_cfgerr_add(warns, "", 0, NULL, "experiment '%s': %s", e->name, err);
	else if (!force)
		wfw_cfgerr_add(warns, "", 0, NULL,
			       "experiment '%s': result directory %s exists already: a run would refuse it; move it away, choose another outdir (-o), or replace it with --force",
			       e->name, dir);
}

size_t wfw_machine_check(struct wfw_experiment *e, const char *sysfs_root,
			 bool force, struct wfw_cfgerr *warns)
{
	size_t before = warns->n;

	check_cstates(e, sysfs_root, warns);
	check_source(e, sysfs_root, warns);
	check_collectors(e, sysfs_root, warns);
	if (e->name && e->outdir)
		check_resultdir(e, force, warns);
	return warns->n - before;
}
