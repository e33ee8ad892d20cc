/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bind.h"
#include "cpuset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysstate/cpuidle.h>
#include <sysstate/cpus.h>
#include <sysstate/sysfile.h>

/* A CPU list needs a source whose instances each measure their own CPU. */
static void refuse_list(const struct wfw_experiment *e, struct wfw_cfgerr *errs)
{
	const struct wfw_machine_req *rq = &e->req;
	const struct wultfw_plugin *d = e->source.h.desc;

	if (d && !(d->caps & WULTFW_CAP_CPU_LIST))
		wfw_cfgerr_at(errs, rq->cpu, rq->cpu_key,
			      "source '%s' measures one CPU per experiment (%zu listed): give one CPU number, or one experiment per CPU",
			      d->name, e->ncpus);
}

/* The CPU or CPUs given, if online; else the default one. */
static void bind_cpu(struct wfw_experiment *e, const char *root,
		     struct wfw_cfgerr *errs)
{
	const struct wfw_machine_req *rq = &e->req;
	char err[512];

	if (!rq->cpu || config_setting_type(rq->cpu) == CONFIG_TYPE_INT) {
		e->cpu = rq->cpu ? config_setting_get_int(rq->cpu) : wfw_default_cpu(root);
		e->cpus = malloc(sizeof(*e->cpus));
		if (e->cpus) {
			e->cpus[0] = e->cpu;
			e->ncpus = 1;
		}
		if (rq->cpu && !wfw_cpu_online(e->cpu, root))
			wfw_cfgerr_at(errs, rq->cpu, rq->cpu_key,
				      "CPU %d is not online (see %s/devices/system/cpu/online)",
				      e->cpu, wfw_sysfs(root));
		return;
	}
	if (wfw_cpuset_parse(config_setting_get_string(rq->cpu), root, &e->cpus,
			     &e->ncpus, err, sizeof(err))) {
		wfw_cfgerr_at(errs, rq->cpu, rq->cpu_key, "%s", err);
		e->cpu = wfw_default_cpu(root);	/* the rest is still checked */
		return;
	}
	e->cpu = e->cpus[0];
	if (e->ncpus > 1)
		refuse_list(e, errs);
}

/* `housekeeping`: online CPUs, as `cpu` takes them (housekeep.h). */
static void bind_housekeeping(struct wfw_experiment *e, const char *root,
			      struct wfw_cfgerr *errs)
{
	const config_setting_t *s = e->req.hk;
	char text[32], err[512];
	const char *t = text;

	if (!s)
		return;
	if (config_setting_type(s) == CONFIG_TYPE_INT)
		snprintf(text, sizeof(text), "%d", config_setting_get_int(s));
	else
		t = config_setting_get_string(s);
	if (wfw_cpuset_parse(t, root, &e->hk_cpus, &e->nhk, err, sizeof(err)))
		wfw_cfgerr_at(errs, s, e->req.hk_key, "%s", err);
}

static bool has_cstate(const struct wfw_experiment *e, const char *name)
{
	for (size_t i = 0; i < e->ncstates; i++)
		if (!strcmp(e->cstates[i], name))
			return true;
	return false;
}

/* One listed name: a state of the measured CPU, else say which it has. */
static void cstates_add(struct wfw_experiment *e, const struct wfw_cpuidle *ci,
			const config_setting_t *el, struct wfw_cfgerr *errs)
{
	const char *name = config_setting_get_string(el);
	char avail[512] = "";

	if (wfw_cpuidle_find(ci, name) >= 0) {
		e->cstates[e->ncstates++] = strdup(name);
		return;
	}
	for (int j = 0; j < ci->nstates; j++)
		snprintf(avail + strlen(avail), sizeof(avail) - strlen(avail),
			 "%s\"%s\"", j ? ", " : "", ci->names[j]);
	wfw_cfgerr_at(errs, el, e->req.cstates_key,
		      "CPU %d has no C-state \"%s\" (it has %s)", e->cpu, name, avail);
}

/* Linux always needs a state to enter: refuse turning them all off. */
static void cstates_keep_one(struct wfw_experiment *e,
			     const struct wfw_cpuidle *ci, struct wfw_cfgerr *errs)
{
	const struct wfw_machine_req *rq = &e->req;
	const char *deepest = ci->names[ci->nstates - 1];
	size_t off = e->ncstates + (rq->want_deep && !has_cstate(e, deepest));

	if ((e->cstate_mode == WFW_CSTATES_ONLY && e->ncstates == 0) ||
	    (e->cstate_mode == WFW_CSTATES_DISABLE && off >= (size_t)ci->nstates))
		wfw_cfgerr_at(errs, rq->cstates_at, rq->cstates_key,
			      "this would disable every C-state of CPU %d: leave at least one enabled",
			      e->cpu);
}

/* "All but the deepest", whatever this CPU calls its deepest state. */
static void cstates_add_deepest(struct wfw_experiment *e,
				const struct wfw_cpuidle *ci,
				struct wfw_cfgerr *errs)
{
	const char *deepest = ci->names[ci->nstates - 1];

	if (ci->nstates < 2)
		wfw_cfgerr_at(errs, e->req.deep, e->req.cstates_group,
			      "CPU %d has one C-state only (\"%s\"): disabling it leaves none",
			      e->cpu, deepest);
	else if (!has_cstate(e, deepest))
		e->cstates[e->ncstates++] = strdup(deepest);
}

/* The names the file lists, as the measured CPU has them. */
static void bind_cstates(struct wfw_experiment *e, const char *root,
			 struct wfw_cfgerr *errs)
{
	const struct wfw_machine_req *rq = &e->req;
	size_t nerr = errs->n;
	struct wfw_cpuidle ci;
	int n;

	if (!rq->cstates_at)
		return;
	if (wfw_cpuidle_open(&ci, e->cpu, root)) {
		/*
		 * A machine fact, not a mistake in the file: --check warns
		 * (core/machine.c) and the experiment refuses when it starts.
		 */
		e->cstates = calloc(1, sizeof(*e->cstates));
		return;
	}
	n = rq->cstates ? config_setting_length(rq->cstates) : 0;
	e->cstates = calloc((size_t)n + 2, sizeof(*e->cstates));
	for (int i = 0; e->cstates && i < n; i++) {
		const config_setting_t *el = config_setting_get_elem(rq->cstates, (unsigned)i);

		if (config_setting_type(el) == CONFIG_TYPE_STRING)	/* else said */
			cstates_add(e, &ci, el, errs);
	}
	if (e->cstates && rq->cstates_named && errs->n == nerr)
		cstates_keep_one(e, &ci, errs);
	if (e->cstates && rq->want_deep)
		cstates_add_deepest(e, &ci, errs);
	wfw_cpuidle_close(&ci);
}

void wfw_bind_experiment(struct wfw_experiment *e, const char *sysfs_root,
			 struct wfw_cfgerr *errs)
{
	bind_cpu(e, sysfs_root, errs);
	bind_housekeeping(e, sysfs_root, errs);
	/* The plugins' own checks may depend on the CPU. */
	wfw_plugin_validate(&e->source, e->cpu, sysfs_root, errs);
	for (size_t i = 0; i < e->nsinks; i++)
		wfw_plugin_validate(&e->sinks[i], -1, sysfs_root, errs);
	bind_cstates(e, sysfs_root, errs);
	for (size_t i = 0; i < e->collect.n; i++)
		wfw_plugin_validate(&e->collect.pi[i], e->cpu, sysfs_root, errs);
	for (size_t i = 0; i < e->annotate.n; i++)
		wfw_plugin_validate(&e->annotate.pi[i], e->cpu, sysfs_root, errs);
}
