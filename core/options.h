/* SPDX-License-Identifier: MIT */
/*
 * A plugin's config group checked against its option table: every key
 * known, every value of the declared type, defaults filled in.
 */
#ifndef WFW_OPTIONS_H
#define WFW_OPTIONS_H

#include <libconfig.h>
#include <stdio.h>

#include <wultfw/plugin.h>

#include "cfgerr.h"

struct wfw_optvals {
	const struct wultfw_option *table;
	struct wultfw_value *vals;	/* one per option, table order */
	const config_setting_t **settings;	/* where each was set, or NULL */
	void *cfg;			/* the filled config struct, or NULL */
	size_t n;
};

/*
 * Parse `group` (NULL: only defaults), enforcing each option's bounds and
 * choices; with cfg_size, also fill out->cfg at each option's .off. Keys in `reserved` (NULL-terminated)
 * belong to the core and are skipped; `path` names the group in errors
 * ("experiments[0].source"). Returns 0, or -EINVAL with errors in `errs`.
 */
int wfw_options_parse(const struct wultfw_option *table, size_t cfg_size,
		      const config_setting_t *group,
		      const char *const *reserved, const char *path,
		      const char *plugin, struct wfw_optvals *out,
		      struct wfw_cfgerr *errs);
void wfw_options_free(struct wfw_optvals *v);

/* One value as config text ("10us", "true", "[ \"a\" ]"). */
void wfw_option_format(const struct wultfw_option *opt,
		       const struct wultfw_value *val, char *buf, size_t len);
const char *wfw_option_type_name(enum wultfw_opt_type type);
/* "1 to 99 priorities", "one of \"tsc\", \"hpet\"", or "" without limits. */
void wfw_option_range(const struct wultfw_option *opt, char *buf, size_t len);

#endif
