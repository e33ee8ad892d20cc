/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sinkhost.h"
#include "testopts.h"

static void th_log(struct wultfw_ctx *ctx, enum wultfw_log_level level,
		   const char *msg)
{
	struct tu_sink *s = ctx->host_data;
	size_t len = strlen(s->log);

	(void)level;
	snprintf(s->log + len, sizeof(s->log) - len, "%s\n", msg);
}

static void th_info(struct wultfw_ctx *ctx, const char *key, const char *value)
{
	struct tu_sink *s = ctx->host_data;
	size_t len = strlen(s->info);

	snprintf(s->info + len, sizeof(s->info) - len, "%s: %s\n", key, value);
}

static int th_file_open(struct wultfw_ctx *ctx,
			const struct wultfw_file_spec *spec,
			struct wultfw_file **f)
{
	struct tu_sink *s = ctx->host_data;

	return wfw_sinkfile_open(&s->files, ctx, spec, f);
}

static const struct wultfw_host th_host = {
	.size = sizeof(struct wultfw_host),
	.log = th_log,
	.info = th_info,
	.file_open = th_file_open,
	.file_reserve = wfw_sinkfile_reserve,
	.file_commit = wfw_sinkfile_commit,
	.file_write = wfw_sinkfile_write,
	.file_flush = wfw_sinkfile_flush,
	.file_close = wfw_sinkfile_close,
};

int tu_sink_open(struct tu_sink *s, const struct wultfw_plugin *p,
		 const char *text, const char *dir,
		 const struct wultfw_source_info *src,
		 const struct wultfw_schema *schema)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->dirfd = -1;
	ret = to_option_values(p, text, &s->vals);
	if (ret)
		return ret;
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return -errno;
	wfw_sinkfiles_init(&s->files, s->dirfd, dir);
	s->ctx = (struct wultfw_ctx){ .size = sizeof(s->ctx), .plugin = p,
		.opts = s->vals.vals, .cfg = s->vals.cfg, .host = &th_host,
		.host_data = s, .cpu = -1, .sysfs_root = "/sys", .bad_opt = -1 };
	s->run = (struct wultfw_run_info){ .size = sizeof(s->run),
		.experiment = "unit-test", .outdir = dir, .cpu = 1,
		.source = src, .schema = schema };
	ret = p->sink->open(&s->ctx, &s->run);
	if (ret)
		wfw_sinkfiles_close_all(&s->files, &s->ctx, false);
	/* As the core does: the header on the disk, the file in place. */
	if (!ret && (ret = wfw_sinkfiles_opened(&s->files, &s->ctx)) < 0) {
		char why[sizeof(s->ctx.err)];

		memcpy(why, s->ctx.err, sizeof(why));
		p->sink->close(&s->ctx, &(struct wultfw_run_summary){ .size = sizeof(struct wultfw_run_summary) });
		wfw_sinkfiles_close_all(&s->files, &s->ctx, true);
		memcpy(s->ctx.err, why, sizeof(why));
	}
	if (ret) {
		wfw_sinkfiles_free(&s->files);
		wfw_options_free(&s->vals);
		close(s->dirfd);
		s->dirfd = -1;
	}
	return ret;
}

int tu_sink_write(struct tu_sink *s, const struct wultfw_batch *b)
{
	int ret = s->ctx.plugin->sink->write(&s->ctx, b);

	return ret ? ret : wfw_sinkfiles_wrote(&s->files, &s->ctx, b->rows);
}

int tu_sink_flush(struct tu_sink *s)
{
	int ret = s->ctx.plugin->sink->flush(&s->ctx);

	return ret ? ret : wfw_sinkfiles_sync(&s->files, &s->ctx);
}

int tu_sink_close(struct tu_sink *s, const struct wultfw_run_summary *sum)
{
	struct wultfw_run_summary zero = { .size = sizeof(zero) };
	int ret = s->ctx.plugin->sink->close(&s->ctx, sum ? sum : &zero);

	wfw_sinkfiles_close_all(&s->files, &s->ctx, true);
	for (size_t i = 0; i < s->files.ncounts; i++) {	/* as info.yml would */
		size_t len = strlen(s->info);

		snprintf(s->info + len, sizeof(s->info) - len, "%s: %llu\n",
			 s->files.counts[i].key,
			 (unsigned long long)s->files.counts[i].rows);
	}
	wfw_sinkfiles_free(&s->files);
	wfw_options_free(&s->vals);
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
	return ret;
}
