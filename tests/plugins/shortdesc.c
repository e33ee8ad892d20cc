/* SPDX-License-Identifier: MIT */
/*
 * A descriptor built before its `restore` field existed: its .size ends
 * there (WULTFW_PLUGIN_SIZE_VER0). The field is set all the same, as the
 * bytes after an old descriptor may look like one: a core that read past
 * the size would call it (and it would say so). The core must take the
 * size at its word and read restore as absent.
 */
#include <errno.h>
#include <stddef.h>

#include <wultfw/plugin.h>

static int shortdesc_not_there(struct wultfw_ctx *ctx, const char *data)
{
	(void)data;
	return wultfw_fail(ctx, -EFAULT, "the core read past the end of an old descriptor");
}

static int shortdesc_open(struct wultfw_ctx *ctx, struct wultfw_source_info *i)
{
	(void)i;
	return wultfw_fail(ctx, -ENODEV, "shortdesc never measures");
}

static int shortdesc_start(struct wultfw_ctx *ctx,
			   const struct wultfw_source_params *p)
{
	(void)ctx;
	(void)p;
	return 0;
}

static int shortdesc_stop(struct wultfw_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int shortdesc_read(struct wultfw_ctx *ctx, struct wultfw_batch *b,
			  uint64_t timeout_ns)
{
	(void)ctx;
	(void)b;
	(void)timeout_ns;
	return WULTFW_READ_END;
}

static void shortdesc_close(struct wultfw_ctx *ctx)
{
	(void)ctx;
}

static const struct wultfw_source_ops shortdesc_ops = {
	.open = shortdesc_open,
	.start = shortdesc_start,
	.read = shortdesc_read,
	.stop = shortdesc_stop,
	.close = shortdesc_close,
};

WULTFW_PLUGIN(shortdesc) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = WULTFW_PLUGIN_SIZE_VER0,
	.kind = WULTFW_KIND_SOURCE,
	.name = "shortdesc",
	.summary = "a source built before descriptors had restore",
	.source = &shortdesc_ops,
	.restore = shortdesc_not_there,
};
