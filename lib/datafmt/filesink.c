/* SPDX-License-Identifier: MIT */
/*
 * One result file per sink, in a format behind the writer interface, made
 * durable on the schedule of durable.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic/durable.h"
#include "datafmt/filesink.h"
#include "datafmt/resultfile.h"

struct filesink {
	struct wfw_writer w;		/* first: the writer is the sink */
	struct wfw_durable d;
};

/* The flush policy from ctx->cfg, or the table's defaults without one. */
static void policy_init(struct wultfw_ctx *ctx, struct wfw_durable *d)
{
	const struct wfw_filesink_cfg *cfg = ctx->cfg;
	uint64_t ns = 1000000000ULL, rows = strtoull(WFW_FILESINK_FLUSH_ROWS, NULL, 10);

	if (cfg && ctx->plugin->cfg_size >= sizeof(*cfg)) {
		ns = cfg->flush_interval;
		rows = cfg->flush_rows > 0 ? (uint64_t)cfg->flush_rows : rows;
	}
	wfw_durable_init(d, ns, rows);
}

/* The new file's name in its directory survives a power cut too. */
static void sync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		(void)fsync(fd);	/* best effort: the data syncs still hold */
		close(fd);
	}
	free(copy);
}

int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const char *file, int opt_file,
		      const struct wultfw_run_info *run,
		      const char *const *meta)
{
	const char *def = ctx->plugin->options[opt_file].def;
	struct filesink *fs;
	char path[4096];
	int ret;

	/* Drivers that skip the core's defaults get the table's. */
	if (!ctx->opts[opt_file].set)
		file = def;
	if (!file || !*file)
		return wultfw_fail_opt(ctx, opt_file, -EINVAL,
				       "empty: give a file name such as \"%s\"", def);
	if (!wfw_resultfile_inside(file))	/* validate() said it at its line */
		return wultfw_fail_opt(ctx, opt_file, -EINVAL,
				       "\"%s\" is outside the result directory", file);
	if (!run->outdir)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", run->outdir, file);
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	ret = wfw_writer_open(&fs->w, fmt, path, run->schema, meta, WFW_OUT_EXCL);
	if (ret) {
		wultfw_fail(ctx, ret, "%s", wfw_writer_msg(&fs->w));
		free(fs);
		return ret;
	}
	sync_dir_of(path);
	policy_init(ctx, &fs->d);
	ctx->priv = fs;
	return 0;
}

int wfw_filesink_validate(struct wultfw_ctx *ctx, int opt_file)
{
	const struct wultfw_value *v = &ctx->opts[opt_file];

	if (v->set && (!v->s || !*v->s))
		return wultfw_fail_opt(ctx, opt_file, -EINVAL,
				       "empty: give a file name such as \"%s\"",
				       ctx->plugin->options[opt_file].def);
	return wfw_resultfile_check(ctx, opt_file);
}

static int filesink_fail(struct wultfw_ctx *ctx, struct wfw_writer *w, int ret)
{
	const char *what = w->fmt->rows_word;

	return wultfw_fail(ctx, ret, "%s (%llu %s received, the file keeps the whole %s that reached the disk; free space and run again)",
			   wfw_writer_msg(w), (unsigned long long)w->rows, what,
			   what);
}

/*
 * The buffered rows to the kernel (safe from kill -9); `sync`: also wait
 * for the disk (safe from a power cut), else only start the writeback.
 */
static int filesink_sync(struct wultfw_ctx *ctx, struct filesink *fs, bool sync)
{
	struct wfw_out *o = fs->w.fmt->out(&fs->w.impl);
	int ret = wfw_writer_flush(&fs->w);

	if (ret)
		return filesink_fail(ctx, &fs->w, ret);
	if (!sync) {
		/* Best effort: the fdatasync at the interval still follows. */
		(void)sync_file_range(o->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		wfw_durable_handed_off(&fs->d);
		return 0;
	}
	if (fdatasync(o->fd) && errno != EINVAL && errno != EROFS) {
		ret = -errno;
		return wultfw_fail(ctx, ret, "%s: fdatasync: %s (the data may not be on the disk)",
				   o->path, strerror(-ret));
	}
	wfw_durable_synced(&fs->d);
	return 0;
}

int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct filesink *fs = ctx->priv;
	int ret = wfw_writer_write(&fs->w, b);

	if (ret)
		return filesink_fail(ctx, &fs->w, ret);
	switch (wfw_durable_due(&fs->d, b->rows)) {
	case WFW_DURABLE_SYNC:
		return filesink_sync(ctx, fs, true);
	case WFW_DURABLE_HANDOFF:
		return filesink_sync(ctx, fs, false);
	default:
		return 0;
	}
}

int wfw_filesink_flush(struct wultfw_ctx *ctx)
{
	struct filesink *fs = ctx->priv;

	if (!fs->d.unsynced && !fs->w.fmt->out(&fs->w.impl)->len)
		return 0;	/* nothing new since the last sync */
	return filesink_sync(ctx, fs, true);
}

int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary)
{
	struct filesink *fs = ctx->priv;
	struct wfw_writer *w = fs ? &fs->w : NULL;
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
	free(fs);
	ctx->priv = NULL;
	return ret;
}
