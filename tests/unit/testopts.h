/* SPDX-License-Identifier: MIT */
/* Tests of option tables: the core's parser over a source group in text. */
#ifndef WFW_TESTOPTS_H
#define WFW_TESTOPTS_H

#include <stddef.h>

#include <wultfw/plugin.h>

/*
 * Parse `text` ("source = { ... };") with the table of `p` as the core
 * does; returns the errors, one per line ("" for none), to free().
 */
char *to_option_errors(const struct wultfw_plugin *p, const char *text);

struct wfw_optvals;

/*
 * The values the core would hand a plugin for `text`: v->vals (ctx->opts)
 * and v->cfg (ctx->cfg). Returns 0, or -EINVAL; free with wfw_options_free().
 */
int to_option_values(const struct wultfw_plugin *p, const char *text,
		     struct wfw_optvals *v);

#endif /* WFW_TESTOPTS_H */
