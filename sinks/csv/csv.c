/* SPDX-License-Identifier: MIT */
/*
 * csv sink: datapoints.csv as wult writes it (header of column names,
 * INT columns shown as raw / divisor). Formatting lives in lib/datafmt so
 * `wultfw convert` writes the same bytes. A failed write (full disk, I/O
 * error) stops the run and leaves the file holding whole rows only.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

#include "datafmt/filesink.h"

/* The core checks the file name at its line (inside the result directory). */
static const struct wultfw_option csv_options[] = {
	WFW_FILESINK_OPTIONS("datapoints.csv")
};

static int csv_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	return wfw_filesink_open(ctx, &wfw_format_csv, run, NULL);
}

static const struct wultfw_sink_ops csv_ops = {
	.open = csv_open,
	.write = wfw_filesink_write,
	.flush = wfw_filesink_flush,
	.close = wfw_filesink_close,
};

WULTFW_PLUGIN(csv) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "csv",
	.summary = "datapoints.csv as wult writes it (latencies in microseconds)",
	.options = csv_options,
	.sink = &csv_ops,
	.cfg_size = sizeof(struct wfw_filesink_cfg),
};
