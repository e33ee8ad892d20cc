/* SPDX-License-Identifier: MIT */
/*
 * A sink that writes one result file in a format (lib/datafmt/writer.h):
 * the csv and binary sinks are this plus their format and file name. The
 * file is the core's (wultfw_file_open(), as for any sink): the writer's
 * bytes go there through a forwarding out (out.h), so the name's
 * confinement, exclusive create, full-disk handling, the count of rows the
 * file keeps and the flush schedule (file options flush_interval and
 * flush_rows) are the core's, the same for every sink.
 */
#ifndef WFW_FILESINK_H
#define WFW_FILESINK_H

#include <stddef.h>

#include <wultfw/plugin.h>

#include "datafmt/writer.h"

/* The file sinks' config struct (ctx->cfg): WULTFW_FILE_OPTIONS. */
struct wfw_filesink_cfg {
	struct wultfw_file_cfg f;
};

/* The option table of a file sink whose default file name is `def`. */
#define WFW_FILESINK_OPTIONS(def) \
	WULTFW_FILE_OPTIONS(struct wfw_filesink_cfg, f, def), \
	{ .name = NULL }

/*
 * Open the file the config names (option 0) in `fmt`. meta: key, value,
 * ..., NULL for formats that keep it.
 */
int wfw_filesink_open(struct wultfw_ctx *ctx, const struct wfw_format *fmt,
		      const struct wultfw_run_info *run,
		      const char *const *meta);
int wfw_filesink_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b);
/* What the writer holds (the binary format's block) to the file. */
int wfw_filesink_flush(struct wultfw_ctx *ctx);
int wfw_filesink_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary);

#endif /* WFW_FILESINK_H */
