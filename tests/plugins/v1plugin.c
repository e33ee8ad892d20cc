/* SPDX-License-Identifier: MIT */
/*
 * A plugin as wultfw 1.x built it: ABI version 1, whose descriptor began
 * with the same two fields. The core must refuse it in one line naming
 * the file and the version, before it reads anything else.
 */
#include <stdint.h>

struct v1_descriptor {
	uint32_t abi_version;
	uint32_t kind;
	const char *name;
	const char *summary;
	const void *options, *source, *sink, *validate;
};

extern const struct v1_descriptor v1plugin_LTX_wultfw_plugin;
const struct v1_descriptor v1plugin_LTX_wultfw_plugin = {
	.abi_version = 1,
	.kind = 2,
	.name = "v1plugin",
	.summary = "built for plugin ABI version 1",
};
