/* SPDX-License-Identifier: MIT */
/*
 * A change only its plugin can put back (wultfw_remember_plugin()): load
 * the plugin by name and call its restore op with the remembered data --
 * in the process that made the change, or in a later wultfw after that one
 * was killed. The op sees a context of its own: no options, no private
 * state, the data is all it has.
 */
#include "config.h"

#include "restore_plugin.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "plugins.h"

typedef int (*restore_op)(struct wultfw_ctx *ctx, const char *data);

static void op_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		   const char *msg)
{
	const char *tool = ctx->host_data;

	if (tool && level == WULTFW_LOG_DEBUG)
		return;
	if (tool)
		fprintf(stderr, "wultfw %s: %s: %s\n", tool, ctx->plugin->name, msg);
	else if (level == WULTFW_LOG_ERROR)
		wfw_err("%s: %s", ctx->plugin->name, msg);
	else if (level == WULTFW_LOG_WARN)
		wfw_warn("%s: %s", ctx->plugin->name, msg);
	else if (level == WULTFW_LOG_INFO)
		wfw_info("%s: %s", ctx->plugin->name, msg);
	else
		wfw_debug("%s: %s", ctx->plugin->name, msg);
}

static const struct wultfw_host op_host = {
	.size = sizeof(struct wultfw_host), .log = op_log,
};

static int call_op(const struct wfw_plugin_handle *h,
		   const struct wfw_change *c, const char *tool,
		   char *err, size_t errlen)
{
	/* NULL as well in a descriptor whose size ends before it */
	restore_op op = h->desc->restore;
	struct wultfw_ctx ctx;
	int ret;

	if (!op) {
		snprintf(err, errlen, "plugin %s (%s) has no restore op: a newer build of it made this change; install that one",
			 c->plugin, h->file);
		return -ENOSYS;
	}
	wfw_plugin_ctx_init(&ctx, h);
	ctx.host = &op_host;
	ctx.host_data = (void *)tool;
	ctx.verbosity = 1;
	ret = op(&ctx, c->data);
	if (ret)
		snprintf(err, errlen, "%s", ctx.err[0] ? ctx.err : strerror(-ret));
	return ret > 0 ? -EIO : ret;
}

int wfw_restore_plugin_change(const struct wfw_change *c, const char *tool)
{
	struct wfw_plugin_handle h;
	char err[600];
	int ret;

	ret = wfw_plugin_load(c->plugin, 0, &h, err, sizeof(err));
	if (!ret) {
		ret = call_op(&h, c, tool, err, sizeof(err));
		wfw_plugin_unload(&h);
	}
	if (!ret)
		return 0;
	if (tool)
		fprintf(stderr, "wultfw %s: cannot put back '%s': %s%s\n", tool, c->what, err,
			ret == -EACCES || ret == -EPERM ? " (run 'wultfw restore' as root)" : "");
	else
		wfw_err("cannot put back '%s': %s; kept in %s/ for 'wultfw restore'",
			c->what, err, wfw_restore_dir());
	return ret;
}
