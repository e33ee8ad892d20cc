/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "experiment.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <units/duration.h>

#define DEFAULT_LDIST_FROM	"50us"
#define DEFAULT_LDIST_TO	"4ms"

static const char *const exp_keys[] = {
	"name", "outdir", "source", "limits", "sinks", "cstates", "seed",
	"collect", "annotate", "include", "exclude", "keep_filtered",
	"housekeeping", NULL
};
static const char *const limit_keys[] = { "datapoints", "time", NULL };
static const char *const cstate_keys[] = { "only", "disable", "disable_deepest", NULL };
static const char *const source_core_keys[] = { "plugin", "cpu", "ldist", "stop_above", NULL };
static const char *const sink_core_keys[] = { "plugin", NULL };

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

static void parse_ldist(struct wfw_experiment *e, const config_setting_t *src,
			const char *key, struct wfw_cfgerr *errs);

static void parse_source(struct wfw_experiment *e, const config_setting_t *src,
			 const char *key, struct wfw_cfgerr *errs)
{
	const config_setting_t *s;
	char *k = e->req.cpu_key;

	/* The CPU is the machine's to judge: bind.c. */
	e->cpu = -1;
	s = config_setting_type(src) == CONFIG_TYPE_GROUP ?
		config_setting_get_member(src, "cpu") : NULL;
	snprintf(k, sizeof(e->req.cpu_key), "%s.cpu", key);
	if (s && (config_setting_type(s) == CONFIG_TYPE_INT ||
		  config_setting_type(s) == CONFIG_TYPE_STRING))
		e->req.cpu = s;
	else if (s)
		wfw_cfgerr_at(errs, s, k, "expected a CPU number or a CPU list in quotes (\"1-7,9\", \"all\", \"isolated\")");

	/* Go on after a bad plugin: ldist can still be checked. */
	wfw_load_plugin(&e->source, src, key, WULTFW_KIND_SOURCE, source_core_keys,
			errs);
	if (config_setting_type(src) != CONFIG_TYPE_GROUP)
		return;
	parse_ldist(e, src, key, errs);
	wfw_stop_above_parse(&e->stop_above, src, key, errs);
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
	wfw_loc_set(&e->ldist_loc, s ? s : src, k);
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

	if (wfw_cfgerr_type(errs, lim, key, CONFIG_TYPE_GROUP,
			    "a group such as { datapoints = 100000; time = \"10m\"; }"))
		return;
	wfw_cfgerr_keys(errs, lim, key, limit_keys);
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
			    k, WULTFW_KIND_SINK, sink_core_keys, errs);
		e->nsinks++;
	}
}

static void parse_deepest(const config_setting_t *cs, const char *key,
			  struct wfw_machine_req *rq, struct wfw_cfgerr *errs)
{
	rq->deep = config_setting_get_member(cs, "disable_deepest");
	if (!rq->deep)
		return;
	snprintf(rq->cstates_key, sizeof(rq->cstates_key), "%s.disable_deepest", key);
	if (!wfw_cfgerr_type(errs, rq->deep, rq->cstates_key, CONFIG_TYPE_BOOL, "true or false"))
		rq->want_deep = config_setting_get_bool(rq->deep);
}

/* Every listed C-state a name in quotes; true if so. */
static bool cstates_names(const config_setting_t *list, const char *k,
			  struct wfw_cfgerr *errs)
{
	bool ok = true;

	for (int i = 0; list && i < config_setting_length(list); i++) {
		const config_setting_t *el = config_setting_get_elem(list, (unsigned)i);

		if (config_setting_type(el) == CONFIG_TYPE_STRING)
			continue;
		wfw_cfgerr_at(errs, el, k, "element %d: expected a C-state name in quotes", i);
		ok = false;
	}
	return ok;
}

/*
 * What a cstates group asks for, as written: the CPU's states are looked
 * at when the experiment is bound to the machine (bind.c).
 */
static void parse_cstates(struct wfw_experiment *e, const config_setting_t *cs,
			  const char *key, struct wfw_cfgerr *errs)
{
	struct wfw_machine_req *rq = &e->req;
	const config_setting_t *only, *dis, *list;

	if (wfw_cfgerr_type(errs, cs, key, CONFIG_TYPE_GROUP,
			    "a group such as { only = [ \"POLL\" ]; } or { disable = [ \"C6\" ]; }"))
		return;
	wfw_cfgerr_keys(errs, cs, key, cstate_keys);
	only = config_setting_get_member(cs, "only");
	dis = config_setting_get_member(cs, "disable");
	parse_deepest(cs, key, rq, errs);
	if (only && (dis || rq->want_deep)) {
		wfw_cfgerr_at(errs, only, key,
			      "give either 'only' or 'disable'/'disable_deepest', not both");
		return;
	}
	list = only ? only : dis;
	if (!list && !rq->want_deep)
		return;
	e->cstate_mode = only ? WFW_CSTATES_ONLY : WFW_CSTATES_DISABLE;
	snprintf(rq->cstates_key, sizeof(rq->cstates_key), "%s.%s", key,
		 only ? "only" : list ? "disable" : "disable_deepest");
	snprintf(rq->cstates_group, sizeof(rq->cstates_group), "%s", key);
	if (list && config_setting_type(list) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, list, rq->cstates_key,
			      "expected a list of C-state names such as [ \"POLL\" ]");
		return;
	}
	rq->cstates = list;
	rq->cstates_at = list ? list : rq->deep;
	rq->cstates_named = cstates_names(list, rq->cstates_key, errs);
	wfw_loc_set(&e->cstates_loc, rq->cstates_at, rq->cstates_key);
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
	if (wfw_cfgerr_type(errs, s, key, CONFIG_TYPE_STRING, "a name in quotes"))
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
	if (!wfw_cfgerr_type(errs, s, key, CONFIG_TYPE_STRING, "a directory in quotes")) {
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

/* `housekeeping`: a CPU list as `cpu` takes, bound (bind.c) later. */
static void parse_housekeeping(struct wfw_experiment *e,
			       const config_setting_t *exp,
			       const config_setting_t *top, const char *path,
			       struct wfw_cfgerr *errs)
{
	const config_setting_t *s = inherit(exp, top, "housekeeping");

	if (!s)
		return;
	key_of(s, top, path, "housekeeping", e->req.hk_key, sizeof(e->req.hk_key));
	if (config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_STRING)
		e->req.hk = s;
	else
		wfw_cfgerr_at(errs, s, e->req.hk_key, "expected a CPU number or a CPU list in quotes (\"0\", \"2-3\") where wultfw's own threads run");
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
		wfw_datasel_check_columns(&e->select, e->columns,
					  e->source.h.desc->name, errs);
}

/* How many columns a declared list holds. */
static size_t count_columns(const struct wultfw_column *c)
{
	size_t n = 0;

	while (c && c[n].name)
		n++;
	return n;
}

/*
 * Every column the experiment's datapoints may have: the source's
 * declared ones, then each annotator's; NULL when one declares none
 * (known only at open: checked then).
 */
static void declared_columns(struct wfw_experiment *e)
{
	const struct wultfw_column *src = wfw_plugin_columns(&e->source.h);
	size_t n = count_columns(src), at;

	if (!src || !e->annotate.n) {
		e->columns = src;
		return;
	}
	for (size_t i = 0; i < e->annotate.n; i++) {
		if (!e->annotate.pi[i].h.desc->columns)
			return;
		n += count_columns(e->annotate.pi[i].h.desc->columns);
	}
	e->own_columns = calloc(n + 1, sizeof(*e->own_columns));
	if (!e->own_columns)
		return;
	at = count_columns(src);
	memcpy(e->own_columns, src, at * sizeof(*src));
	for (size_t i = 0; i < e->annotate.n; i++) {
		const struct wultfw_column *c = e->annotate.pi[i].h.desc->columns;
		size_t k = count_columns(c);

		memcpy(&e->own_columns[at], c, k * sizeof(*c));
		at += k;
	}
	e->columns = e->own_columns;
}

void wfw_experiment_parse(struct wfw_experiment *e, const config_setting_t *exp,
			  const config_setting_t *top, const char *path,
			  const struct wfw_plan_overrides *ov,
			  struct wfw_cfgerr *errs)
{
	const config_setting_t *s;
	char key[160];

	if (exp)
		wfw_cfgerr_keys(errs, exp, path, exp_keys);
	parse_name(e, exp, top, path, errs);
	parse_outdir(e, exp, top, path, ov, errs);
	parse_seed(e, exp, top, path, errs);
	parse_housekeeping(e, exp, top, path, errs);
	s = group_of(exp, top, path, "source",
		     "which source measures? e.g. source = { plugin = \"timer\"; };",
		     key, sizeof(key), errs);
	if (s)
		parse_source(e, s, key, errs);
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
		parse_cstates(e, s, key, errs);
	s = group_of(exp, top, path, "collect", NULL, key, sizeof(key), errs);
	if (s)
		wfw_collect_parse(&e->collect, s, key, errs);
	s = group_of(exp, top, path, "annotate", NULL, key, sizeof(key), errs);
	if (s)
		wfw_annot_parse(&e->annotate, s, key, errs);
	declared_columns(e);
	wfw_stop_above_check(&e->stop_above, e->columns, errs);
	parse_select(e, exp, top, path, errs);
}

void wfw_experiment_free(struct wfw_experiment *e)
{
	size_t i;

	for (i = 0; i < e->nsinks; i++)
		wfw_plugin_inst_free(&e->sinks[i]);
	free(e->sinks);
	free(e->cpus);
	e->cpus = NULL;
	e->ncpus = 0;
	free(e->hk_cpus);
	wfw_collect_free(&e->collect);
	wfw_annot_free(&e->annotate);
	free(e->own_columns);
	e->own_columns = NULL;
	e->columns = NULL;
	wfw_datasel_cfg_free(&e->select);
	wfw_plugin_inst_free(&e->source);
	for (i = 0; i < e->ncstates; i++)
		free(e->cstates[i]);
	free(e->cstates);
	free(e->name);
	free(e->outdir);
	memset(e, 0, sizeof(*e));
}
