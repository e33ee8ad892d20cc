/* SPDX-License-Identifier: MIT */
/* A plugin built for another ABI version: the core must refuse it. */
#include <wultfw/plugin.h>

WULTFW_PLUGIN(badabi) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION + 998,
	.kind = WULTFW_KIND_SINK,
	.name = "badabi",
	.summary = "wrong ABI version",
};
