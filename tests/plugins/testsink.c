/* SPDX-License-Identifier: MIT */
/*
 * A sink for testing the core: checks that rows arrive in order (column
 * Seq) and writes what it saw to a small report file at close.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <wultfw/plugin.h>

enum { O_FILE, O_FAIL_AFTER, O_RAISE_AFTER, O_FAIL_OPEN };

static const struct wultfw_option options[] = {
	[O_FILE] = { "file", WULTFW_OPT_STRING, "testsink.txt", "report file in the result directory" },
	[O_FAIL_AFTER] = { "fail_after", WULTFW_OPT_INT, "0", "write() fails with ENOSPC once this many rows arrived" },
	[O_RAISE_AFTER] = { "raise_after", WULTFW_OPT_INT, "0", "raise SIGINT once this many rows arrived" },
	[O_FAIL_OPEN] = { "fail_open", WULTFW_OPT_BOOL, "false", "open() fails" },
	{ NULL }
};

struct testsink {
	char path[PATH_MAX];
	uint64_t rows, batches, flushes;
	int64_t last;
	bool in_order, raised;
	size_t ncols;
};

static int testsink_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	struct testsink *t;

	if (ctx->opts[O_FAIL_OPEN].b)
		return wultfw_fail(ctx, -EACCES, "simulated open failure");
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	snprintf(t->path, sizeof(t->path), "%s/%s", run->outdir, ctx->opts[O_FILE].s);
	t->last = -1;
	t->in_order = true;
	t->ncols = run->schema->ncols;
	ctx->priv = t;
	return 0;
}

static int testsink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct testsink *t = ctx->priv;
	int64_t fail = ctx->opts[O_FAIL_AFTER].i, raise_at = ctx->opts[O_RAISE_AFTER].i;
	size_t r;

	if (fail && t->rows >= (uint64_t)fail)
		return wultfw_fail(ctx, -ENOSPC, "simulated full disk after %" PRIu64 " rows", t->rows);
	for (r = 0; r < b->rows; r++) {
		int64_t seq = wultfw_crow(b, r)[0].i;

		if (seq <= t->last)
			t->in_order = false;
		t->last = seq;
	}
	t->rows += b->rows;
	t->batches++;
	if (raise_at && !t->raised && t->rows >= (uint64_t)raise_at) {
		t->raised = true;
		raise(SIGINT);
	}
	return 0;
}

static int testsink_flush(struct wultfw_ctx *ctx)
{
	struct testsink *t = ctx->priv;

	t->flushes++;
	return 0;
}

static int testsink_close(struct wultfw_ctx *ctx, const struct wultfw_run_summary *s)
{
	struct testsink *t = ctx->priv;
	FILE *f = fopen(t->path, "w");
	int ret = 0;

	if (!f)
		ret = wultfw_fail(ctx, -errno, "cannot write %s", t->path);
	else {
		fprintf(f, "rows=%" PRIu64 " batches=%" PRIu64 " flushes=%" PRIu64
			" in_order=%d last=%" PRId64 " ncols=%zu summary_datapoints=%" PRIu64
			" summary_discarded=%" PRIu64 " interrupted=%d failed=%d\n",
			t->rows, t->batches, t->flushes, t->in_order, t->last, t->ncols,
			s->datapoints, s->discarded, s->interrupted, s->failed);
		fclose(f);
	}
	free(t);
	ctx->priv = NULL;
	return ret;
}

static const struct wultfw_sink_ops ops = {
	.open = testsink_open,
	.write = testsink_write,
	.flush = testsink_flush,
	.close = testsink_close,
};

WULTFW_PLUGIN(testsink) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "testsink",
	.summary = "checks row order and reports what it saw, for tests",
	.options = options,
	.sink = &ops,
};
