/* SPDX-License-Identifier: MIT */
/*
 * One source's verdict for `wultfw scan` and `wultfw help`: its open()
 * probe with its default options and, where those cannot run here but a
 * known other setting can (skid's default event needs a hardware PMU, its
 * breakpoint and cpu-clock events do not), "yes" with that setting.
 */
#include "config.h"

#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include <sysstate/cpus.h>
#include "machine.h"
#include "options.h"
#include "plugins.h"

/* Settings to try, in order, when a source's default cannot run here. */
struct scan_try {
	const char *source, *key;
	const char *const *values;
};

static const char *const skid_events[] = { "breakpoint", "cpu-clock", NULL };
static const struct scan_try scan_tries[] = {
	{ "skid", "event", skid_events },
};

/*
 * Probe h's source with its defaults, or with key = value when key is
 * set. 1: it can run (si's description into line), 0: not (why into
 * line), -1: its options do not parse.
 */
static int probe_with(struct wfw_plugin_handle *h, const char *key, const char *value,
		      char *line, size_t len)
{
	struct wfw_cfgerr errs = { 0 };
	struct wultfw_source_info si;
	struct wfw_source_cpu sc;
	struct wfw_optvals opts;
	struct wultfw_ctx ctx;
	config_t cfg;
	config_setting_t *group = NULL;
	int ret, usable = 0;

	config_init(&cfg);
	if (key) {
		group = config_root_setting(&cfg);
		config_setting_set_string(config_setting_add(group, key, CONFIG_TYPE_STRING), value);
	}
	if (wfw_options_parse(h->desc->options, h->desc->cfg_size, group, NULL, h->desc->name,
			      h->desc->name, &opts, &errs)) {
		snprintf(line, len, "the options are refused (%s)", errs.n ? errs.msgs[0] : "?");
		usable = -1;
		goto out;
	}
	ret = wfw_source_probe(h->desc, &opts, wfw_default_cpu(NULL), NULL, &sc, &ctx, &si);
	if (ret < 0) {
		snprintf(line, len, "%s", ctx.err[0] ? ctx.err : strerror(-ret));
	} else {
		snprintf(line, len, "%s (resolution %llu ns)",
			 si.devdescr ? si.devdescr : h->desc->summary,
			 (unsigned long long)si.resolution_ns);
		h->desc->source->close(&ctx);
		usable = 1;
	}
	wfw_source_cpu_close(&sc);
	wfw_options_free(&opts);
out:
	wfw_cfgerr_free(&errs);
	config_destroy(&cfg);
	return usable;
}

/* The default option value of `key` in h's table ("?" if none). */
static const char *default_of(const struct wfw_plugin_handle *h, const char *key)
{
	const struct wultfw_option *o;

	for (o = h->desc->options; o && o->name; o++)
		if (!strcmp(o->name, key))
			return o->def ? o->def : "unset";
	return "?";
}

/*
 * The default cannot run (why in `why`): the settings of scan_tries that
 * can, as "yes: with KEY=A or KEY=B; its default KEY=X cannot: WHY" into
 * line. 1 when one can, else 0 (line untouched).
 */
static int probe_others(struct wfw_plugin_handle *h, const char *why, char *line, size_t len)
{
	char scratch[1024], with[256] = "";
	const struct scan_try *t;
	size_t at = 0, i;

	for (t = scan_tries; t < scan_tries + sizeof(scan_tries) / sizeof(*scan_tries); t++) {
		if (strcmp(t->source, h->desc->name))
			continue;
		for (i = 0; t->values[i]; i++) {
			if (probe_with(h, t->key, t->values[i], scratch, sizeof(scratch)) <= 0)
				continue;
			at += (size_t)snprintf(with + at, at < sizeof(with) ? sizeof(with) - at : 0,
					       "%s%s=%s", at ? " or " : "", t->key, t->values[i]);
		}
		if (!at)
			return 0;
		snprintf(line, len, "yes: with %s (set it in the experiment); its default %s=%s cannot: %s",
			 with, t->key, default_of(h, t->key), why);
		return 1;
	}
	return 0;
}

/*
 * Probe one source with its default options: "yes: what it measures
 * with" or "no: why not" into line (or "yes: with KEY=VALUE" where the
 * default cannot but a known other setting can). Returns 1 when it can
 * run here, 0 when not, -1 for a sink or a plugin that does not load.
 */
int wfw_scan_probe(const char *name, char *line, size_t len)
{
	struct wfw_plugin_handle h;
	char err[1024], why[1024];
	int ret;

	if (wfw_plugin_load(name, WULTFW_KIND_SOURCE, &h, err, sizeof(err)))
		return -1;	/* a sink, or broken: list-plugins tells */
	ret = probe_with(&h, NULL, NULL, why, sizeof(why));
	if (ret > 0)
		snprintf(line, len, "yes: %s", why);
	else if (ret < 0)
		snprintf(line, len, "no: the plugin's own defaults are broken: %s", why);
	else if (probe_others(&h, why, line, len))
		ret = 1;
	else
		snprintf(line, len, "no:  %s", why);
	wfw_plugin_unload(&h);
	return ret < 0 ? 0 : ret;
}
