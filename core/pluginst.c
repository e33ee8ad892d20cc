/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "pluginst.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sysstate/sysfile.h>
#include <suggest/suggest.h>

#include "log.h"

int wfw_load_plugin(struct wfw_plugin_inst *pi, const config_setting_t *group,
		    const char *key, int kind, const char *const *reserved,
		    struct wfw_cfgerr *errs)
{
	const config_setting_t *ps;
	char pkey[160], err[1024];
	const char *name;

	snprintf(pi->key, sizeof(pi->key), "%s", key);
	wfw_loc_set(&pi->loc, group, key);
	if (config_setting_type(group) != CONFIG_TYPE_GROUP) {
		wfw_cfgerr_at(errs, group, key,
			      "expected a group such as { plugin = \"%s\"; }",
			      kind == WULTFW_KIND_SOURCE ? "timer" :
			      kind == WULTFW_KIND_ANNOTATOR ? "attrib" : "csv");
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
	if (wfw_cfgerr_type(errs, ps, pkey, CONFIG_TYPE_STRING, "a plugin name in quotes"))
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
	pi->parsed = true;
	return 0;
}

void wfw_plugin_validate(struct wfw_plugin_inst *pi, int cpu,
			 const char *sysfs_root, struct wfw_cfgerr *errs)
{
	const struct wultfw_plugin *d = pi->h.desc;
	char where[512];
	int ret;

	if (!pi->parsed || !d->validate)
		return;
	wfw_plugin_ctx_init(&pi->ctx, &pi->h);
	pi->ctx.opts = pi->opts.vals;
	pi->ctx.cfg = pi->opts.cfg;
	pi->ctx.sysfs_root = wfw_sysfs(sysfs_root);
	pi->ctx.cpu = cpu;
	ret = d->validate(&pi->ctx);
	if (ret >= 0)
		return;
	wfw_plugin_where(pi, where, sizeof(where));
	wfw_cfgerr_add(errs, "", 0, NULL, "%s: %s", where,
		       pi->ctx.err[0] ? pi->ctx.err : strerror(-ret));
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

const char *wfw_plugin_reason(struct wfw_plugin_inst *pi, int ret)
{
	if (!pi->ctx.err[0])
		snprintf(pi->ctx.err, sizeof(pi->ctx.err), "%s", strerror(-ret));
	return pi->ctx.err;
}

void wfw_plugin_error(struct wfw_plugin_inst *pi, int ret, const char *what)
{
	char where[512], sink[192];

	if (!what) {
		snprintf(sink, sizeof(sink), "sink '%s' (%s)", pi->h.desc->name, pi->key);
		what = sink;
	}
	if (pi->ctx.bad_opt >= 0) {
		wfw_plugin_where(pi, where, sizeof(where));
		wfw_err("%s: %s", where, wfw_plugin_reason(pi, ret));
	} else {
		wfw_err("%s: %s", what, wfw_plugin_reason(pi, ret));
	}
}

void wfw_plugin_inst_free(struct wfw_plugin_inst *pi)
{
	wfw_options_free(&pi->opts);
	wfw_plugin_unload(&pi->h);
}
