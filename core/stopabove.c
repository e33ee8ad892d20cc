/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "stopabove.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <suggest/suggest.h>
#include <units/duration.h>

#include "livestats.h"
#include "options.h"

/* The bounds, declared as a plugin declares an option's. */
static const struct wultfw_option stop_opt = {
	"stop_above", WULTFW_OPT_DURATION, NULL,
	"end the run when a datapoint's metric goes above this",
	.min = "1ns", .max = "1h",
};

static const char *const duration_hint =
	"expected a duration such as \"200us\" (units: ns, us, ms, s, m, h)";

static bool in_bounds(uint64_t ns)
{
	uint64_t lo, hi;

	wfw_parse_duration(stop_opt.min, &lo);
	wfw_parse_duration(stop_opt.max, &hi);
	return ns >= lo && ns <= hi;
}

static void parse_one(struct wfw_stop_above *sa, const config_setting_t *s,
		      const char *metric, const char *key, struct wfw_cfgerr *errs)
{
	struct wfw_stop_rule *r = &sa->rules[sa->n];
	char range[128];
	int ret;

	if (sa->n == WFW_STOP_MAX_RULES) {
		wfw_cfgerr_at(errs, s, key, "more than %d metrics: keep the ones that matter",
			      WFW_STOP_MAX_RULES);
		return;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wfw_cfgerr_at(errs, s, key, "%s", duration_hint);
		return;
	}
	ret = wfw_parse_duration(config_setting_get_string(s), &r->ns);
	if (ret) {
		wfw_cfgerr_at(errs, s, key, "\"%s\": %s", config_setting_get_string(s),
			      ret == -EINVAL ? duration_hint : wfw_duration_error(ret));
		return;
	}
	if (!in_bounds(r->ns)) {
		wfw_option_range(&stop_opt, range, sizeof(range));
		wfw_cfgerr_at(errs, s, key, "\"%s\" is out of range: allowed %s",
			      config_setting_get_string(s), range);
		return;
	}
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	snprintf(r->key, sizeof(r->key), "%s", key);
	r->at = s;
	sa->n++;
}

void wfw_stop_above_parse(struct wfw_stop_above *sa, const config_setting_t *src,
			  const char *key, struct wfw_cfgerr *errs)
{
	const config_setting_t *s;
	char k[192];

	memset(sa, 0, sizeof(*sa));
	if (config_setting_type(src) != CONFIG_TYPE_GROUP ||
	    !(s = config_setting_get_member(src, "stop_above")))
		return;
	snprintf(k, sizeof(k), "%s.stop_above", key);
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		parse_one(sa, s, "", k, errs);
		return;
	}
	if (!config_setting_length(s))
		wfw_cfgerr_at(errs, s, k, "no metric: write { WakeLatency = \"200us\"; } or one duration");
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *m = config_setting_get_elem(s, (unsigned)i);

		snprintf(k, sizeof(k), "%s.stop_above.%s", key, config_setting_name(m));
		parse_one(sa, m, config_setting_name(m), k, errs);
	}
}

/* "did you mean" among the duration columns, else the list of them. */
static void unknown_metric(const struct wfw_stop_rule *r,
			   const struct wultfw_column *cols, struct wfw_cfgerr *errs)
{
	const char *names[128] = { NULL }, *hint;
	char list[512] = "";
	size_t n = 0, used = 0;

	for (; cols->name && n < 128; cols++) {
		if (wfw_live_ns_per_raw(cols) <= 0)
			continue;
		names[n++] = cols->name;
		used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
					 "%s%s", n > 1 ? ", " : "", cols->name);
	}
	hint = wfw_suggest(r->metric, names, n);
	if (hint)
		wfw_cfgerr_at(errs, r->at, r->key, "no duration metric '%s' (did you mean '%s'?)",
			      r->metric, hint);
	else
		wfw_cfgerr_at(errs, r->at, r->key, "no duration metric '%s': the source has %s",
			      r->metric, n ? list : "none");
}

void wfw_stop_above_check(const struct wfw_stop_above *sa,
			  const struct wultfw_column *cols, struct wfw_cfgerr *errs)
{
	for (size_t i = 0; cols && i < sa->n; i++) {
		const struct wultfw_column *c = cols;

		if (!sa->rules[i].metric[0])
			continue;
		while (c->name && strcmp(c->name, sa->rules[i].metric))
			c++;
		if (!c->name || wfw_live_ns_per_raw(c) <= 0)
			unknown_metric(&sa->rules[i], cols, errs);
	}
}

static int find_col(const struct wultfw_schema *s, const char *name)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i].name, name))
			return wfw_live_ns_per_raw(&s->cols[i]) > 0 ? (int)i : -1;
	return -1;
}

int wfw_stop_compile(const struct wfw_stop_above *sa, const struct wultfw_schema *s,
		     const char *interval_latency, struct wfw_stop_check *c,
		     char *err, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->schema = s;
	for (size_t i = 0; i < sa->n; i++) {
		const struct wfw_stop_rule *r = &sa->rules[i];
		int col = r->metric[0] ? find_col(s, r->metric) :
			  wfw_live_metric(s, interval_latency);

		if (col < 0) {
			struct wfw_loc loc;

			wfw_loc_set(&loc, r->at, r->key);
			if (r->metric[0])
				snprintf(err, len, "%s:%d: %s: this run's datapoints have no duration column '%s'",
					 loc.file, loc.line, r->key, r->metric);
			else
				snprintf(err, len, "%s:%d: %s: this run's datapoints have no latency column: name a duration column, as in { Metric = \"200us\"; }",
					 loc.file, loc.line, r->key);
			return -EINVAL;
		}
		c->col[c->n] = col;
		c->ns_per_raw[c->n] = wfw_live_ns_per_raw(&s->cols[col]);
		c->rule[c->n++] = r;
	}
	return 0;
}

long wfw_stop_scan(const struct wfw_stop_check *c, struct wultfw_batch *b,
		   size_t *rule)
{
	for (size_t row = 0; c->n && row < b->rows; row++) {
		const union wultfw_cell *cell = wultfw_row(b, row);

		for (size_t k = 0; k < c->n; k++) {
			double ns = (double)cell[c->col[k]].i * c->ns_per_raw[k];

			if (ns > (double)c->rule[k]->ns) {
				*rule = k;
				return (long)row;
			}
		}
	}
	return -1;
}

void wfw_stop_describe(const struct wfw_stop_hit *h, char *buf, size_t len)
{
	char v[32], lim[32];

	snprintf(v, sizeof(v), "%.3fus", h->value_ns / 1e3);
	wfw_format_duration((uint64_t)h->limit_ns, lim, sizeof(lim));
	snprintf(buf, len, "CPU %d: %s %s is above stop_above %s at datapoint %llu, %.2fs into the run",
		 h->cpu, h->metric, v, lim, (unsigned long long)h->index, h->at_s);
}

void wfw_stop_above_write(const struct wfw_stop_above *sa, FILE *f)
{
	char d[32];

	if (!sa->n)
		return;
	if (sa->n == 1 && !sa->rules[0].metric[0]) {
		wfw_format_duration(sa->rules[0].ns, d, sizeof(d));
		fprintf(f, " stop_above = \"%s\";", d);
		return;
	}
	fprintf(f, " stop_above = {");
	for (size_t i = 0; i < sa->n; i++) {
		wfw_format_duration(sa->rules[i].ns, d, sizeof(d));
		fprintf(f, " %s = \"%s\";", sa->rules[i].metric, d);
	}
	fprintf(f, " };");
}
