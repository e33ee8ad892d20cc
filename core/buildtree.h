/* SPDX-License-Identifier: MIT */
/* Plugins of the build tree, for a wultfw run from where it was built. */
#ifndef WFW_BUILDTREE_H
#define WFW_BUILDTREE_H

#include <limits.h>
#include <stddef.h>

/*
 * When this wultfw is the one of a build tree (config.status beside it),
 * the directories of its plugins (plugins/X/ and sinks/X/ with a .la
 * file) into dirs; how many. 0 for an installed wultfw.
 */
size_t wfw_build_tree_dirs(char dirs[][PATH_MAX], size_t max);

#endif
