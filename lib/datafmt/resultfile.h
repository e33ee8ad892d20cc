/* SPDX-License-Identifier: MIT */
/*
 * A sink's file option names a file inside the run's result directory:
 * no leading '/', no '..' component. Otherwise the run would say
 * "results in DIR" while writing elsewhere (over another run's files,
 * or anywhere root may write), and calc of DIR would not find them.
 * Header only: every sink checks with this one function at validate().
 */
#ifndef WFW_RESULTFILE_H
#define WFW_RESULTFILE_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <wultfw/plugin.h>

/* Does `name` (relative to the result directory) stay inside it? */
static inline bool wfw_resultfile_inside(const char *name)
{
	const char *p = name;

	if (name[0] == '/')
		return false;
	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		p = p ? p + 1 : NULL;
	}
	return true;
}

/* For validate(): option `opt`, when set, must stay inside; blamed at its line. */
static inline int wfw_resultfile_check(struct wultfw_ctx *ctx, int opt)
{
	const struct wultfw_value *v = &ctx->opts[opt];
	const char *base;

	if (!v->set || !v->s || wfw_resultfile_inside(v->s))
		return 0;
	base = strrchr(v->s, '/');
	base = base ? base + 1 : v->s;
	if (!*base || !strcmp(base, ".."))
		base = ctx->plugin->options[opt].def ? ctx->plugin->options[opt].def
						     : "results.txt";
	return wultfw_fail_opt(ctx, opt, -EINVAL,
			       "\"%s\" is outside the result directory: give a name inside it, such as \"%s\" (no leading '/', no '..')",
			       v->s, base);
}

#endif /* WFW_RESULTFILE_H */
