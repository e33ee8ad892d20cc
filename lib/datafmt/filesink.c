/* SPDX-License-Identifier: MIT */
/* One result file per sink, in a format behind the writer interface. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "datafmt/filesink.h"

int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const char *file, int opt_file,
		      const struct wultfw_run_info *run,
		      const char *const *meta)
{
	const char *def = ctx->plugin->options[opt_file].def;
	struct wfw_writer *w;
	char path[4096];
	int ret;

	/* Drivers that skip the core's defaults get the table's. */
	if (!ctx->opts[opt_file].set)
		file = def;
	if (!file || !*file)
		return wultfw_fail_opt(ctx, opt_file, -EINVAL,
				       "empty: give a file name such as \"%s\"", def);
	if (file[0] == '/' || !run->outdir)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", run->outdir, file);
	w = calloc(1, sizeof(*w));
	if (!w)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	ret = wfw_writer_open(w, fmt, path, run->schema, meta, WFW_OUT_EXCL);
	if (ret) {
		wultfw_fail(ctx, ret, "%s", wfw_writer_msg(w));
		free(w);
		return ret;
	}
	ctx->priv = w;
	return 0;
}

int wfw_filesink_validate(struct wultfw_ctx *ctx, int opt_file)
{
	const struct wultfw_value *v = &ctx->opts[opt_file];

	if (v->set && (!v->s || !*v->s))
		return wultfw_fail_opt(ctx, opt_file, -EINVAL,
				       "empty: give a file name such as \"%s\"",
				       ctx->plugin->options[opt_file].def);
	return 0;
}

static int filesink_fail(struct wultfw_ctx *ctx, struct wfw_writer *w, int ret)
{
	const char *what = w->fmt->rows_word;

	return wultfw_fail(ctx, ret, "%s (%llu %s received, the file keeps the whole %s that reached the disk; free space and run again)",
			   wfw_writer_msg(w), (unsigned long long)w->rows, what,
			   what);
}

int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct wfw_writer *w = ctx->priv;
	int ret = wfw_writer_write(w, b);

	return ret ? filesink_fail(ctx, w, ret) : 0;
}

int wfw_filesink_flush(struct wultfw_ctx *ctx)
{
	struct wfw_writer *w = ctx->priv;
	int ret = wfw_writer_flush(w);

	return ret ? filesink_fail(ctx, w, ret) : 0;
}

int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary)
{
	struct wfw_writer *w = ctx->priv;
	long long kept;
	char v[32];
	int ret;

	(void)summary;
	if (!w)
		return 0;
	/* After a failed write, say in info.yml what the file holds. */
	kept = wfw_writer_kept(w);
	if (kept >= 0) {
		snprintf(v, sizeof(v), "%lld", kept);
		wultfw_info(ctx, w->fmt->kept_key, v);
	}
	ret = wfw_writer_close(w);
	if (ret)
		filesink_fail(ctx, w, ret);
	free(w);
	ctx->priv = NULL;
	return ret;
}
