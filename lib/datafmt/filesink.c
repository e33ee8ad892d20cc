/* SPDX-License-Identifier: MIT */
/*
 * One result file per sink: a format's writer whose output is the file
 * the core opened for the sink.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/filesink.h"

struct filesink {
	struct wfw_writer w;
	struct wultfw_ctx *ctx;
	struct wultfw_file *f;
};

/* The file's failure, as the writer's: it reports it naming the file. */
static int fwd_failed(struct wfw_out *o, int ret)
{
	struct filesink *fs = o->fwd_arg;

	o->err = ret;
	snprintf(o->msg, sizeof(o->msg), "%s", fs->ctx->err);
	return ret;
}

static char *fwd_reserve(struct wfw_out *o, size_t n)
{
	struct filesink *fs = o->fwd_arg;
	void *p;
	int ret = wultfw_file_reserve(fs->ctx, fs->f, n, &p);

	if (ret)
		fwd_failed(o, ret);
	return ret ? NULL : p;
}

static int fwd_commit(struct wfw_out *o, size_t n, uint64_t rows)
{
	struct filesink *fs = o->fwd_arg;
	int ret = wultfw_file_commit(fs->ctx, fs->f, n, rows);

	return ret ? fwd_failed(o, ret) : 0;
}

static int fwd_write(struct wfw_out *o, const void *p, size_t n)
{
	struct filesink *fs = o->fwd_arg;
	int ret = wultfw_file_write(fs->ctx, fs->f, p, n, 0);

	return ret ? fwd_failed(o, ret) : 0;
}

static int fwd_flush(struct wfw_out *o)
{
	struct filesink *fs = o->fwd_arg;
	int ret = wultfw_file_flush(fs->ctx, fs->f, false);

	return ret ? fwd_failed(o, ret) : 0;
}

static const struct wfw_out_fwd fwd_ops = {
	.reserve = fwd_reserve,
	.commit = fwd_commit,
	.write = fwd_write,
	.flush = fwd_flush,
};

/* The core asks before a flush: the rows a format holds back go out. */
static int filesink_seal(struct wultfw_ctx *ctx, struct wultfw_file *f)
{
	struct filesink *fs = ctx->priv;
	int ret;

	(void)f;
	ret = wfw_writer_flush(&fs->w);
	return ret ? wultfw_fail(ctx, ret, "%s", wfw_writer_msg(&fs->w)) : 0;
}

int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const struct wultfw_run_info *run,
		      const char *const *meta)
{
	const struct wfw_filesink_cfg *cfg = ctx->cfg;
	struct wultfw_file_spec spec = {
		.size = sizeof(spec), .name = cfg->f.file, .opt = 0,
		.rows_word = fmt->rows_word, .kept_key = fmt->kept_key,
		.sync_ns = cfg->f.flush_interval,
		.handoff_rows = cfg->f.flush_rows > 0 ? (uint64_t)cfg->f.flush_rows : 0,
		.whole = fmt->whole, .seal = filesink_seal,
	};
	struct filesink *fs = calloc(1, sizeof(*fs));
	int ret;

	if (!fs)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	fs->ctx = ctx;
	ctx->priv = fs;
	ret = wultfw_file_open(ctx, &spec, &fs->f);
	if (!ret) {
		ret = wfw_writer_open_fwd(&fs->w, fmt, cfg->f.file, run->schema,
					  meta, &fwd_ops, fs);
		if (ret) {
			wultfw_fail(ctx, ret, "%s", wfw_writer_msg(&fs->w));
			wultfw_file_close(ctx, fs->f, false);
		}
	}
	if (ret) {
		free(fs);
		ctx->priv = NULL;
	}
	return ret;
}

int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct filesink *fs = ctx->priv;
	int ret = wfw_writer_write(&fs->w, b);

	return ret ? wultfw_fail(ctx, ret, "%s", wfw_writer_msg(&fs->w)) : 0;
}

int wfw_filesink_flush(struct wultfw_ctx *ctx)
{
	return filesink_seal(ctx, NULL);
}

int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary)
{
	struct filesink *fs = ctx->priv;
	int ret, cret;

	(void)summary;
	if (!fs)
		return 0;
	ret = wfw_writer_close(&fs->w);
	if (ret)
		wultfw_fail(ctx, ret, "%s", wfw_writer_msg(&fs->w));
	cret = wultfw_file_close(ctx, fs->f, true);
	free(fs);
	ctx->priv = NULL;
	return ret ? ret : cret;
}
