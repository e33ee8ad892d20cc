/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "experiment.h"

#include <sysstate/cpuidle.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include <sysstate/cpus.h>
#include "filehint.h"
#include "outfiles.h"
#include "overrides.h"
#include "sinkcols.h"
#include <suggest/suggest.h>

#include "collect.h"
#include <units/duration.h>

extern const char *wfw_cfg_main_file;

#define DEFAULT_LDIST_FROM	"50us"
#define DEFAULT_LDIST_TO	"4ms"

static const char *const top_keys[] = {
	"outdir", "source", "limits", "sinks", "cstates", "seed", "collect",
	"experiments", "name", "hosts", "sut_wultfw",
	"include", "exclude", "keep_filtered", NULL	/* core/datasel.c */
};
static const char *const exp_keys[] = {
	"name", "outdir", "source", "limits", "sinks", "cstates", "seed",
	"collect", "include", "exclude", "keep_filtered", NULL
};
static const char *const limit_keys[] = { "datapoints", "time", NULL };
static const char *const cstate_keys[] = { "only", "disable", "disable_deepest", NULL };
static const char *const source_core_keys[] = { "plugin", "cpu", "ldist", NULL };
static const char *const sink_core_keys[] = { "plugin", NULL };

static size_t count(const char *const *list)
{
	size_t n = 0;

	while (list[n])
		n++;
	return n;
}

static void set_loc(struct wfw_loc *loc, const config_setting_t *s,
		    const char *key)
{
	snprintf(loc->file, sizeof(loc->file), "%s", wfw_setting_file(s));
	loc->line = s ? config_setting_source_line(s) : 0;
	snprintf(loc->key, sizeof(loc->key), "%s", key);
}

/* Unknown keys in a core group, with a "did you mean". */
/* known[] as "a, b, c" in buf. */
static const char *join_names(const char *const *known, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; known[j] && used < len; j++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 j ? ", " : "", known[j]);
	return buf;
}

static void check_keys(const config_setting_t *group, const char *path,
		       const char *const *known, struct wfw_cfgerr *errs)
{
	char key[256], list[512];
	int i;

	for (i = 0; i < config_setting_length(group); i++) {
		const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(s);
		const char *hint;
		size_t j;

		for (j = 0; known[j]; j++)
			if (!strcmp(known[j], name))
				break;
		if (known[j])
			continue;
		snprintf(key, sizeof(key), "%s%s%s", path, *path ? "." : "", name);
		hint = wfw_suggest(name, known, count(known));
		if (hint)
			wfw_cfgerr_at(errs, s, key, "unknown key (did you mean '%s'?)", hint);
		else
			wfw_cfgerr_at(errs, s, key, "unknown key (known here: %s; see wultfw.cfg(5))",
				      join_names(known, list, sizeof(list)));
	}
}

/* The experiment's own setting, else the top-level default. */
static const config_setting_t *inherit(const config_setting_t *exp,
				       const config_setting_t *top,
				       const char *name)
{
	const config_setting_t *s = exp ? config_setting_get_member(exp, name) : NULL;

	return s ? s : config_setting_get_member(top, name);
}

/* "experiments[2].limits" or "limits" for an inherited top-level key. */
static void key_of(const config_setting_t *s, const config_setting_t *top,
		   const char *exp_path, const char *name, char *buf,
		   size_t len)
{
	if (config_setting_parent(s) == top)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s.%s", exp_path, name);
}

static int want_type(const config_setting_t *s, const char *key, int type,
		     const char *what, struct wfw_cfgerr *errs)
{
	if (config_setting_type(s) == type)
		return 0;
	wfw_cfgerr_at(errs, s, key, "expected %s", what);
	return -EINVAL;
}

static int parse_duration_setting(const config_setting_t *s, const char *key,
				  uint64_t *ns, struct wfw_cfgerr *errs)
{
	int ret;

	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wfw_cfgerr_at(errs, s, key,
			      "expected a duration in quotes such as \"10us\" (units: ns, us, ms, s, m, h)");
		return -EINVAL;
	}
	ret = wfw_parse_duration(config_setting_get_string(s), ns);
	if (ret)
		wfw_cfgerr_at(errs, s, key, "\"%s\" %s", config_setting_get_string(s),
			      wfw_duration_error(ret));
	return ret ? -EINVAL : 0;
}

void wfw_plugin_where(const struct wfw_plugin_inst *pi, char *buf, size_t len)
{
	int opt = pi->ctx.bad_opt;
	const config_setting_t *s = NULL;

	if (opt >= 0 && (size_t)opt < pi->opts.n && pi->opts.settings)
		s = pi->opts.settings[opt];
	if (opt >= 0 && (size_t)opt < pi->opts.n)
		snprintf(buf, len, "%s:%d: %s.%s",
			 s ? wfw_setting_file(s) : pi->loc.file,
			 s ? (int)config_setting_source_line(s) : pi->loc.line,
			 pi->key, pi->opts.table[opt].name);
	else
		snprintf(buf, len, "%s:%d: %s", pi->loc.file, pi->loc.line, pi->key);
}

/* The plugin's own check of its option values, before anything runs. */
static void validate_plugin(struct wfw_plugin_inst *pi, int cpu,
			    struct wfw_cfgerr *errs)
{
	const struct wultfw_plugin *d = pi->h.desc;
	char where[512];
	int ret;

	if (!d->validate)
		return;
	memset(&pi->ctx, 0, sizeof(pi->ctx));
	pi->ctx.plugin = d;
	pi->ctx.opts = pi->opts.vals;
	pi->ctx.cfg = pi->opts.cfg;
	pi->ctx.sysfs_root = "/sys";
	pi->ctx.cpu = cpu;
	pi->ctx.bad_opt = -1;
	ret = d->validate(&pi->ctx);
	if (ret >= 0)
		return;
	wfw_plugin_where(pi, where, sizeof(where));
	wfw_cfgerr_add(errs, "", 0, NULL, "%s: %s", where,
		       pi->ctx.err[0] ? pi->ctx.err : strerror(-ret));
}

int wfw_load_plugin(struct wfw_plugin_inst *pi, const config_setting_t *group,
		    const char *key, int kind, const char *const *reserved,
		    int cpu, struct wfw_cfgerr *errs)
{
	const config_setting_t *ps;
	char pkey[160], err[1024];
	const char *name;

	snprintf(pi->key, sizeof(pi->key), "%s", key);
	set_loc(&pi->loc, group, key);
	if (config_setting_type(group) != CONFIG_TYPE_GROUP) {
		wfw_cfgerr_at(errs, group, key,
			      "expected a group such as { plugin = \"%s\"; }",
			      kind == WULTFW_KIND_SOURCE ? "timer" : "csv");
		return -EINVAL;
	}
	snprintf(pkey, sizeof(pkey), "%s.plugin", key);
	ps = config_setting_get_member(group, "plugin");
	if (!ps) {
		wfw_cfgerr_at(errs, group, pkey,
			      "missing: which %s plugin? ('wultfw list-plugins' shows them)",
			      wfw_kind_name(kind));
		return -EINVAL;
	}
	if (want_type(ps, pkey, CONFIG_TYPE_STRING, "a plugin name in quotes", errs))
		return -EINVAL;
	name = config_setting_get_string(ps);
	if (wfw_plugin_load(name, kind, &pi->h, err, sizeof(err))) {
		size_t n = 0;
		char **names = wfw_plugin_names(&n);
		const char *hint = wfw_suggest(name, (const char *const *)names, n);

		if (hint && strcmp(hint, name))
			wfw_cfgerr_at(errs, ps, pkey, "%s (did you mean '%s'?)", err, hint);
		else
			wfw_cfgerr_at(errs, ps, pkey, "%s", err);
		wfw_plugin_names_free(names, n);
		return -EINVAL;
	}
	if (wfw_options_parse(pi->h.desc->options, pi->h.desc->cfg_size, group, reserved, key,
			      name, &pi->opts, errs))
		return -EINVAL;
	validate_plugin(pi, cpu, errs);
	return 0;
}

static void parse_ldist(struct wfw_experiment *e, const config_setting_t *src,
			const char *key, struct wfw_cfgerr *errs);

static void parse_source(struct wfw_experiment *e, const config_setting_t *src,
			 const char *key, const char *sysfs_root,
			 struct wfw_cfgerr *errs)
{
	static bool online[WFW_MAX_CPUS];
	const config_setting_t *s;
	char k[160];
	int n;

	/* The CPU first: the plugin's own checks may depend on it. */
	e->cpu = wfw_default_cpu(NULL);
	s = config_setting_type(src) == CONFIG_TYPE_GROUP ?
		config_setting_get_member(src, "cpu") : NULL;
	snprintf(k, sizeof(k), "%s.cpu", key);
	n = wfw_online_cpus(online, WFW_MAX_CPUS, sysfs_root);
	if (s && !want_type(s, k, CONFIG_TYPE_INT, "a CPU number", errs)) {
		e->cpu = config_setting_get_int(s);
		if (n > 0 && (e->cpu < 0 || e->cpu >= WFW_MAX_CPUS || !online[e->cpu]))
			wfw_cfgerr_at(errs, s, k,
				      "CPU %d is not online (see /sys/devices/system/cpu/online)",
				      e->cpu);
	}

	/* Go on after a bad plugin: ldist can still be checked. */
	wfw_load_plugin(&e->source, src, key, WULTFW_KIND_SOURCE, source_core_keys,
		    e->cpu, errs);
	if (config_setting_type(src) != CONFIG_TYPE_GROUP)
		return;
	parse_ldist(e, src, key, errs);
}

/* `ldist`: one duration or [ from, to ]; the core's default when not given. */
static void parse_ldist_value(struct wfw_experiment *e,
			      const config_setting_t *s, const char *k,
			      struct wfw_cfgerr *errs)
{
	if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		if (!parse_duration_setting(s, k, &e->ldist_from_ns, errs))
			e->ldist_to_ns = e->ldist_from_ns;
	} else if ((config_setting_type(s) == CONFIG_TYPE_ARRAY ||
		    config_setting_type(s) == CONFIG_TYPE_LIST) &&
		   config_setting_length(s) == 2) {
		if (!parse_duration_setting(config_setting_get_elem(s, 0), k,
					    &e->ldist_from_ns, errs) &&
		    !parse_duration_setting(config_setting_get_elem(s, 1), k,
					    &e->ldist_to_ns, errs) &&
		    e->ldist_from_ns > e->ldist_to_ns)
			wfw_cfgerr_at(errs, s, k,
				      "the range is backwards: write [ from, to ] with from <= to");
	} else {
		wfw_cfgerr_at(errs, s, k,
			      "expected one duration (\"200us\") or a range [ \"10us\", \"4ms\" ]");
	}
	if (e->ldist_to_ns == 0 && !errs->n)
		wfw_cfgerr_at(errs, s, k, "a launch distance of 0 cannot be measured");
}

/* The range against the fixed limits the source declares (ABI v2). */
static void check_ldist_limits(struct wfw_experiment *e,
			       const config_setting_t *where, const char *k,
			       struct wfw_cfgerr *errs)
{
	const struct wultfw_ldist_decl *d = &e->source.h.desc->ldist;
	char a[32], b[32], lo[32], hi[32];

	if ((!d->min_ns || e->ldist_from_ns >= d->min_ns) &&
	    (!d->max_ns || e->ldist_to_ns <= d->max_ns))
		return;
	wfw_format_duration(e->ldist_from_ns, a, sizeof(a));
	wfw_format_duration(e->ldist_to_ns, b, sizeof(b));
	wfw_format_duration(d->min_ns, lo, sizeof(lo));
	wfw_format_duration(d->max_ns, hi, sizeof(hi));
	wfw_cfgerr_at(errs, where, k,
		      "[%s, %s] is outside what source '%s' can take: [%s, %s]",
		      a, b, e->source.h.desc->name, lo, hi);
}

static void parse_ldist(struct wfw_experiment *e, const config_setting_t *src,
			const char *key, struct wfw_cfgerr *errs)
{
	const struct wultfw_plugin *d = e->source.h.desc;
	const config_setting_t *s;
	size_t nerr = errs->n;
	char k[160];

	snprintf(k, sizeof(k), "%s.ldist", key);
	s = config_setting_get_member(src, "ldist");
	set_loc(&e->ldist_loc, s ? s : src, k);
	e->ldist_use = d ? d->ldist.use : WULTFW_LDIST_LAUNCH;
	if (e->ldist_use == WULTFW_LDIST_NONE) {
		if (s)
			wfw_cfgerr_at(errs, s, k,
				      "source '%s' is a sampler and takes no launch distance: remove 'ldist'",
				      d->name);
		return;
	}
	wfw_parse_duration(DEFAULT_LDIST_FROM, &e->ldist_from_ns);
	wfw_parse_duration(DEFAULT_LDIST_TO, &e->ldist_to_ns);
	if (s)
		parse_ldist_value(e, s, k, errs);
	if (d && errs->n == nerr)
		check_ldist_limits(e, s ? s : src, k, errs);
}

static void parse_limits(struct wfw_experiment *e, const config_setting_t *lim,
			 const char *key, struct wfw_cfgerr *errs)
{
	const config_setting_t *s;
	char k[160];

	if (want_type(lim, key, CONFIG_TYPE_GROUP,
		      "a group such as { datapoints = 100000; time = \"10m\"; }", errs))
		return;
	check_keys(lim, key, limit_keys, errs);
	snprintf(k, sizeof(k), "%s.datapoints", key);
	s = config_setting_get_member(lim, "datapoints");
	if (s && (config_setting_type(s) == CONFIG_TYPE_INT ||
		  config_setting_type(s) == CONFIG_TYPE_INT64)) {
		long long v = config_setting_get_int64(s);

		if (v <= 0 && config_setting_type(s) == CONFIG_TYPE_INT)
			wfw_cfgerr_at(errs, s, k, "must be a positive number of datapoints%s",
				      " (above 2147483647, write it with an L: 3000000000L)");
		else if (v <= 0)
			wfw_cfgerr_at(errs, s, k, "must be a positive number of datapoints");
		else
			e->max_datapoints = (uint64_t)v;
	} else if (s) {
		wfw_cfgerr_at(errs, s, k, "expected a whole number of datapoints");
	}
	snprintf(k, sizeof(k), "%s.time", key);
	s = config_setting_get_member(lim, "time");
	if (s && !parse_duration_setting(s, k, &e->max_time_ns, errs) &&
	    !e->max_time_ns)
		wfw_cfgerr_at(errs, s, k, "must be longer than 0s");
}

static void parse_sinks(struct wfw_experiment *e, const config_setting_t *sinks,
			const char *key, struct wfw_cfgerr *errs)
{
	char k[160];
	int i, n;

	if (config_setting_type(sinks) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, sinks, key,
			      "expected a list of sinks such as ( { plugin = \"csv\"; } )");
		return;
	}
	n = config_setting_length(sinks);
	if (n == 0) {
		wfw_cfgerr_at(errs, sinks, key,
			      "no sinks: the datapoints would be lost; add ( { plugin = \"csv\"; } )");
		return;
	}
	e->sinks = calloc((size_t)n, sizeof(*e->sinks));
	if (!e->sinks)
		return;
	for (i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "%s[%d]", key, i);
		wfw_load_plugin(&e->sinks[i], config_setting_get_elem(sinks, (unsigned)i),
			    k, WULTFW_KIND_SINK, sink_core_keys, -1, errs);
		e->nsinks++;
	}
}

static bool has_cstate(const struct wfw_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->ncstates; i++)
		if (!strcmp(e->cstates[i], name))
			return true;
	return false;
}

/* What a cstates group asks for, before the CPU's states are looked at. */
struct cstates_req {
	const config_setting_t *list;	/* only or disable, or NULL */
	const config_setting_t *where;	/* the setting errors point at */
	const config_setting_t *deep;	/* disable_deepest */
	bool want_deep;
	char k[160];			/* its key: "cstates.only" */
};

static void parse_deepest(const config_setting_t *cs, const char *key,
			  struct cstates_req *rq, struct wfw_cfgerr *errs)
{
	rq->deep = config_setting_get_member(cs, "disable_deepest");
	if (!rq->deep)
		return;
	snprintf(rq->k, sizeof(rq->k), "%s.disable_deepest", key);
	if (!want_type(rq->deep, rq->k, CONFIG_TYPE_BOOL, "true or false", errs))
		rq->want_deep = config_setting_get_bool(rq->deep);
}

/* Returns false when there is nothing (more) to do. */
static bool cstates_request(struct wfw_experiment *e, const config_setting_t *cs,
			    const char *key, struct cstates_req *rq,
			    struct wfw_cfgerr *errs)
{
	const config_setting_t *only, *dis;

	if (want_type(cs, key, CONFIG_TYPE_GROUP,
		      "a group such as { only = [ \"POLL\" ]; } or { disable = [ \"C6\" ]; }",
		      errs))
		return false;
	check_keys(cs, key, cstate_keys, errs);
	only = config_setting_get_member(cs, "only");
	dis = config_setting_get_member(cs, "disable");
	parse_deepest(cs, key, rq, errs);
	if (only && (dis || rq->want_deep)) {
		wfw_cfgerr_at(errs, only, key,
			      "give either 'only' or 'disable'/'disable_deepest', not both");
		return false;
	}
	rq->list = only ? only : dis;
	if (!rq->list && !rq->want_deep)
		return false;
	rq->where = rq->list ? rq->list : rq->deep;
	e->cstate_mode = only ? WFW_CSTATES_ONLY : WFW_CSTATES_DISABLE;
	snprintf(rq->k, sizeof(rq->k), "%s.%s", key,
		 only ? "only" : rq->list ? "disable" : "disable_deepest");
	if (rq->list && config_setting_type(rq->list) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(rq->list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, rq->list, rq->k,
			      "expected a list of C-state names such as [ \"POLL\" ]");
		return false;
	}
	return true;
}

/* One listed name: a state of the measured CPU, else say which it has. */
static void cstates_add(struct wfw_experiment *e, const struct wfw_cpuidle *ci,
			const config_setting_t *el, int i, const char *k,
			struct wfw_cfgerr *errs)
{
	char avail[512] = "";
	const char *name;
	int j;

	if (config_setting_type(el) != CONFIG_TYPE_STRING) {
		wfw_cfgerr_at(errs, el, k, "element %d: expected a C-state name in quotes", i);
		return;
	}
	name = config_setting_get_string(el);
	if (wfw_cpuidle_find(ci, name) >= 0) {
		e->cstates[e->ncstates++] = strdup(name);
		return;
	}
	for (j = 0; j < ci->nstates; j++)
		snprintf(avail + strlen(avail), sizeof(avail) - strlen(avail),
			 "%s\"%s\"", j ? ", " : "", ci->names[j]);
	wfw_cfgerr_at(errs, el, k, "CPU %d has no C-state \"%s\" (it has %s)",
		      e->cpu, name, avail);
}

/* Linux always needs a state to enter: refuse turning them all off. */
static void cstates_keep_one(struct wfw_experiment *e,
			     const struct wfw_cpuidle *ci,
			     const struct cstates_req *rq, struct wfw_cfgerr *errs)
{
	const char *deepest = ci->names[ci->nstates - 1];
	size_t off = e->ncstates + (rq->want_deep && !has_cstate(e, deepest));

	if ((e->cstate_mode == WFW_CSTATES_ONLY && e->ncstates == 0) ||
	    (e->cstate_mode == WFW_CSTATES_DISABLE && off >= (size_t)ci->nstates))
		wfw_cfgerr_at(errs, rq->where, rq->k,
			      "this would disable every C-state of CPU %d: leave at least one enabled",
			      e->cpu);
}

/* "All but the deepest", whatever this CPU calls its deepest state. */
static void cstates_add_deepest(struct wfw_experiment *e,
				const struct wfw_cpuidle *ci, const char *key,
				const struct cstates_req *rq,
				struct wfw_cfgerr *errs)
{
	const char *deepest = ci->names[ci->nstates - 1];

	if (ci->nstates < 2)
		wfw_cfgerr_at(errs, rq->deep, key,
			      "CPU %d has one C-state only (\"%s\"): disabling it leaves none",
			      e->cpu, deepest);
	else if (!has_cstate(e, deepest))
		e->cstates[e->ncstates++] = strdup(deepest);
}

static void parse_cstates(struct wfw_experiment *e, const config_setting_t *cs,
			  const char *key, const char *sysfs_root,
			  struct wfw_cfgerr *errs)
{
	struct cstates_req rq = { 0 };
	size_t nerr = errs->n;
	struct wfw_cpuidle ci;
	int i, n;

	if (!cstates_request(e, cs, key, &rq, errs))
		return;
	set_loc(&e->cstates_loc, rq.where, rq.k);
	if (wfw_cpuidle_open(&ci, e->cpu, sysfs_root)) {
		/*
		 * A machine fact, not a mistake in the file: --check warns
		 * (core/machine.c) and the experiment refuses when it starts.
		 */
		e->cstates = calloc(1, sizeof(*e->cstates));
		return;
	}
	n = rq.list ? config_setting_length(rq.list) : 0;
	e->cstates = calloc((size_t)n + 2, sizeof(*e->cstates));
	for (i = 0; e->cstates && i < n; i++)
		cstates_add(e, &ci, config_setting_get_elem(rq.list, (unsigned)i),
			    i, rq.k, errs);
	if (e->cstates && errs->n == nerr)
		cstates_keep_one(e, &ci, &rq, errs);
	if (e->cstates && rq.want_deep)
		cstates_add_deepest(e, &ci, key, &rq, errs);
	wfw_cpuidle_close(&ci);
}

static bool valid_exp_name(const char *name)
{
	const char *p;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-+", *p)))
			return false;
	return true;
}

static void parse_name(struct wfw_experiment *e, const config_setting_t *exp,
		       const config_setting_t *top, const char *path,
		       struct wfw_cfgerr *errs)
{
	const config_setting_t *s = config_setting_get_member(exp ? exp : top, "name");
	char key[160];

	snprintf(key, sizeof(key), "%s%sname", path, *path ? "." : "");
	if (!s) {
		wfw_cfgerr_at(errs, exp ? exp : top, key,
			      "missing: every experiment needs a name (it names the result directory)");
		return;
	}
	if (want_type(s, key, CONFIG_TYPE_STRING, "a name in quotes", errs))
		return;
	if (!valid_exp_name(config_setting_get_string(s)))
		wfw_cfgerr_at(errs, s, key,
			      "\"%s\" cannot name a directory: use letters, digits and . _ - +",
			      config_setting_get_string(s));
	e->name = strdup(config_setting_get_string(s));
}

static void parse_outdir(struct wfw_experiment *e, const config_setting_t *exp,
			 const config_setting_t *top, const char *path,
			 const struct wfw_plan_overrides *ov,
			 struct wfw_cfgerr *errs)
{
	const config_setting_t *s = inherit(exp, top, "outdir");
	char key[160];

	e->outdir = strdup(ov && ov->outdir ? ov->outdir : ".");
	if (!s || (ov && ov->outdir))
		return;
	key_of(s, top, path, "outdir", key, sizeof(key));
	if (!want_type(s, key, CONFIG_TYPE_STRING, "a directory in quotes", errs)) {
		free(e->outdir);
		e->outdir = strdup(config_setting_get_string(s));
	}
}

/* Recorded in info.yml and logs/config, so a run can be repeated. */
static void parse_seed(struct wfw_experiment *e, const config_setting_t *exp,
		       const config_setting_t *top, const char *path,
		       struct wfw_cfgerr *errs)
{
	const config_setting_t *s = inherit(exp, top, "seed");
	char key[160];

	e->seed = ((uint64_t)time(NULL) ^ ((uint64_t)clock() << 32)) & INT64_MAX;
	if (!s)
		return;
	key_of(s, top, path, "seed", key, sizeof(key));
	if ((config_setting_type(s) == CONFIG_TYPE_INT ||
	     config_setting_type(s) == CONFIG_TYPE_INT64) && config_setting_get_int64(s) >= 0)
		e->seed = (uint64_t)config_setting_get_int64(s);
	else
		wfw_cfgerr_at(errs, s, key, "expected an integer from 0 (above 2147483647 with an L: 4000000000L)");
}

/*
 * The experiment's group `name` or the top-level one; NULL with an error
 * saying `missing` when a required one is absent. Its key goes to `key`.
 */
static const config_setting_t *
group_of(const config_setting_t *exp, const config_setting_t *top,
	 const char *path, const char *name, const char *missing, char *key,
	 size_t len, struct wfw_cfgerr *errs)
{
	const config_setting_t *s = inherit(exp, top, name);

	if (s) {
		key_of(s, top, path, name, key, len);
	} else if (missing) {
		snprintf(key, len, "%s%s%s", path, *path ? "." : "", name);
		wfw_cfgerr_at(errs, exp ? exp : top, key, "missing: %s", missing);
	}
	return s;
}

/* include, exclude, keep_filtered: selecting datapoints (core/datasel.c). */
static void parse_select(struct wfw_experiment *e, const config_setting_t *exp,
			 const config_setting_t *top, const char *path,
			 struct wfw_cfgerr *errs)
{
	const char *const *name;
	char key[160];

	for (name = wfw_datasel_keys; *name; name++) {
		const config_setting_t *s = inherit(exp, top, *name);

		if (!s)
			continue;
		key_of(s, top, path, *name, key, sizeof(key));
		wfw_datasel_parse(&e->select, s, key, errs);
	}
	wfw_datasel_check(&e->select, errs);
	if (e->source.h.desc)
		wfw_datasel_check_columns(&e->select, wfw_plugin_columns(&e->source.h),
					  e->source.h.desc->name, errs);
}

static void parse_experiment(struct wfw_plan *plan, struct wfw_experiment *e,
			     const config_setting_t *exp, const char *path,
			     const struct wfw_plan_overrides *ov,
			     struct wfw_cfgerr *errs)
{
	const config_setting_t *top = config_root_setting(&plan->cfg);
	const char *sysfs_root = ov ? ov->sysfs_root : NULL;
	const config_setting_t *s;
	char key[160];

	if (exp)
		check_keys(exp, path, exp_keys, errs);
	parse_name(e, exp, top, path, errs);
	parse_outdir(e, exp, top, path, ov, errs);
	parse_seed(e, exp, top, path, errs);
	s = group_of(exp, top, path, "source",
		     "which source measures? e.g. source = { plugin = \"timer\"; };",
		     key, sizeof(key), errs);
	if (s)
		parse_source(e, s, key, sysfs_root, errs);
	s = group_of(exp, top, path, "limits", NULL, key, sizeof(key), errs);
	if (s)
		parse_limits(e, s, key, errs);
	s = group_of(exp, top, path, "sinks",
		     "where do datapoints go? e.g. sinks = ( { plugin = \"csv\"; } );",
		     key, sizeof(key), errs);
	if (s)
		parse_sinks(e, s, key, errs);
	s = group_of(exp, top, path, "cstates", NULL, key, sizeof(key), errs);
	if (s)
		parse_cstates(e, s, key, sysfs_root, errs);
	s = group_of(exp, top, path, "collect", NULL, key, sizeof(key), errs);
	if (s)
		wfw_collect_parse(e, s, key, errs);
	parse_select(e, exp, top, path, errs);
	wfw_outfiles_check(e, errs);
	wfw_sinkcols_check(e, errs);
}

static void free_experiment(struct wfw_experiment *e)
{
	size_t i;

	for (i = 0; i < e->nsinks; i++) {
		wfw_options_free(&e->sinks[i].opts);
		wfw_plugin_unload(&e->sinks[i].h);
	}
	free(e->sinks);
	wfw_collect_free(e);
	wfw_datasel_cfg_free(&e->select);
	wfw_options_free(&e->source.opts);
	wfw_plugin_unload(&e->source.h);
	for (i = 0; i < e->ncstates; i++)
		free(e->cstates[i]);
	free(e->cstates);
	free(e->name);
	free(e->outdir);
	memset(e, 0, sizeof(*e));
}

/* Keep only experiment `only`; an unknown name is an error with a hint. */
static void select_only(struct wfw_plan *plan, const char *only,
			struct wfw_cfgerr *errs)
{
	const char *names[256];
	size_t i, keep = plan->n;

	for (i = 0; i < plan->n && i < 256; i++) {
		names[i] = plan->exps[i].name ? plan->exps[i].name : "";
		if (!strcmp(names[i], only))
			keep = i;
	}
	if (keep == plan->n) {
		const char *hint = wfw_suggest(only, names, i);

		/* A command-line error: no line of the file to point at. */
		wfw_cfgerr_add(errs, "", 0, NULL,
			       "--only %s: no experiment of that name in %s%s%s%s", only,
			       plan->file, hint ? " (did you mean \"" : "", hint ? hint : "",
			       hint ? "\"?)" : "");
		return;
	}
	for (i = 0; i < plan->n; i++)
		if (i != keep)
			free_experiment(&plan->exps[i]);
	plan->exps[0] = plan->exps[keep];
	plan->n = 1;
}

static void check_unique_names(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	const config_setting_t *list =
		config_setting_get_member(config_root_setting(&plan->cfg), "experiments");
	size_t i, j;

	for (i = 0; i < plan->n; i++)
		for (j = 0; j < i; j++)
			if (plan->exps[i].name && plan->exps[j].name &&
			    !strcmp(plan->exps[i].name, plan->exps[j].name) &&
			    !strcmp(plan->exps[i].outdir, plan->exps[j].outdir)) {
				const config_setting_t *exp = list ?
					config_setting_get_elem(list, (unsigned)i) : NULL;
				const config_setting_t *name = exp ?
					config_setting_get_member(exp, "name") : NULL;
				char key[64];

				snprintf(key, sizeof(key), "experiments[%zu].name", i);
				wfw_cfgerr_at(errs, name, key,
					      "another experiment is named \"%s\" too: they would share one result directory",
					      plan->exps[i].name);
			}
}

/* The embedded default runs again and again: date its result directory. */
static void date_names(struct wfw_plan *plan)
{
	char stamp[32], *name;
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (i = 0; i < plan->n; i++) {
		if (!plan->exps[i].name)
			continue;
		name = malloc(strlen(plan->exps[i].name) + strlen(stamp) + 2);
		if (!name)
			continue;
		sprintf(name, "%s-%s", plan->exps[i].name, stamp);
		free(plan->exps[i].name);
		plan->exps[i].name = name;
	}
}

/* Read `file` (NULL: the embedded default) into plan->cfg. */
static int read_plan(struct wfw_plan *plan, const char *file,
		     struct wfw_cfgerr *errs)
{
	char dir[256], *slash;
	struct stat st;

	if (!file)
		return config_read_string(&plan->cfg, wfw_default_experiment) ? 0 : -EINVAL;
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "is a directory: give an experiment file (examples/ has some)");
		return -EISDIR;
	}
	if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "the experiment file is empty (examples/ has some to start from)");
		return -ENODATA;
	}
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		config_set_include_dir(&plan->cfg, dir);
	}
	return config_read_file(&plan->cfg, file) ? 0 : -EINVAL;
}

/* An @include that names no file: which, where it was looked for, a hint. */
static bool include_error(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	const char *file = config_error_file(&plan->cfg), *text = config_error_text(&plan->cfg);
	int line = config_error_line(&plan->cfg);
	char name[512], path[1024], hint[4096] = "", *slash;

	file = file ? file : plan->file;
	if (!text || strcmp(text, "cannot open include file") ||
	    !wfw_include_name(file, line, name, sizeof(name)))
		return false;
	/* libconfig looks beside the experiment file (its include dir). */
	slash = strrchr(plan->file, '/');
	snprintf(path, sizeof(path), "%.*s%s", slash ? (int)(slash - plan->file + 1) : 0,
		 plan->file, name);
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	if (access(path, F_OK) && !wfw_file_hint(path, hint, sizeof(hint)))
		hint[0] = '\0';
	if (!access(path, F_OK))
		wfw_cfgerr_add(errs, file, line, NULL, "@include \"%s\": cannot read %s: %s",
			       name, path, strerror(access(path, R_OK) ? errno : EISDIR));
	else
		wfw_cfgerr_add(errs, file, line, NULL, "@include \"%s\": no such file %s%s%s%s",
			       name, path, *hint ? " (did you mean '" : "", hint,
			       *hint ? "'?)" : "");
	return true;
}

static void read_error(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	char hint[4096];
	int err = errno ? errno : ENOENT;

	if (config_error_type(&plan->cfg) == CONFIG_ERR_FILE_IO && err == ENOENT &&
	    wfw_file_hint(plan->file, hint, sizeof(hint)))
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "no such file (did you mean '%s'?)", hint);
	else if (config_error_type(&plan->cfg) == CONFIG_ERR_FILE_IO)
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "cannot read the experiment file: %s", strerror(err));
	else if (include_error(plan, errs))
		return;
	else
		wfw_cfgerr_add(errs,
			       config_error_file(&plan->cfg) ?
			       config_error_file(&plan->cfg) : plan->file,
			       config_error_line(&plan->cfg), NULL,
			       "syntax error: %s", config_error_text(&plan->cfg));
}

/* `experiments = ( ... )`, or the top level as the one experiment. */
static int parse_experiments(struct wfw_plan *plan,
			     const struct wfw_plan_overrides *ov,
			     struct wfw_cfgerr *errs)
{
	const config_setting_t *top = config_root_setting(&plan->cfg);
	const config_setting_t *list = config_setting_get_member(top, "experiments");
	int i, n;

	check_keys(top, "", top_keys, errs);
	if (list && config_setting_type(list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, list, "experiments",
			      "expected a list of groups: experiments = ( { name = \"...\"; ... } );");
		return -EINVAL;
	}
	n = list ? config_setting_length(list) : 1;
	if (n == 0) {
		wfw_cfgerr_at(errs, list, "experiments", "the list is empty: nothing to run");
		return -EINVAL;
	}
	plan->exps = calloc((size_t)n, sizeof(*plan->exps));
	if (!plan->exps)
		return -ENOMEM;
	for (i = 0; i < n; i++, plan->n++) {
		const config_setting_t *exp = list ? config_setting_get_elem(list, (unsigned)i) : NULL;
		char path[64];

		snprintf(path, sizeof(path), list ? "experiments[%d]" : "", i);
		if (exp && config_setting_type(exp) != CONFIG_TYPE_GROUP)
			wfw_cfgerr_at(errs, exp, path, "expected a group { name = \"...\"; ... }");
		else
			parse_experiment(plan, &plan->exps[i], exp, path, ov, errs);
	}
	return 0;
}

int wfw_plan_load(struct wfw_plan *plan, const char *file,
		  const struct wfw_plan_overrides *ov, struct wfw_cfgerr *errs)
{
	int ret;

	memset(plan, 0, sizeof(*plan));
	config_init(&plan->cfg);
	plan->embedded = !file;
	snprintf(plan->file, sizeof(plan->file), "%s",
		 file ? file : "(embedded default experiment)");
	wfw_cfg_main_file = plan->file;
	ret = read_plan(plan, file, errs);
	if (ret == -EINVAL)
		read_error(plan, errs);
	if (!ret && ov)
		ret = wfw_overrides_apply(&plan->cfg, ov, errs);
	if (!ret)
		ret = parse_experiments(plan, ov, errs);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	if (ov && ov->only && !errs->n)
		select_only(plan, ov->only, errs);
	check_unique_names(plan, errs);
	if (plan->embedded)
		date_names(plan);
	return errs->n ? -EINVAL : 0;
}

void wfw_plan_free(struct wfw_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		free_experiment(&plan->exps[i]);
	free(plan->exps);
	plan->exps = NULL;
	plan->n = 0;
	config_destroy(&plan->cfg);
}
