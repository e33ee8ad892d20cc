/* SPDX-License-Identifier: MIT */
#ifndef WFW_CORE_BIGINT_H
#define WFW_CORE_BIGINT_H

#include <stdbool.h>
#include <stddef.h>

#include "cfgerr.h"

/* The most of an experiment file scanned for big whole numbers. */
#define WFW_CFG_MAX_SCAN (16u << 20)

/*
 * Add an error at FILE:LINE for every whole number in `text` that
 * libconfig would cut to 32 bits (no L, outside -2^31..2^31-1); returns
 * how many. Names, strings and comments are passed over.
 */
size_t wfw_cfg_bigints(const char *text, size_t len, const char *file,
		       struct wfw_cfgerr *errs);
/* The same for the file at `path` (nothing if it cannot be read). */
size_t wfw_cfg_bigints_file(const char *path, struct wfw_cfgerr *errs);

#endif
