/* SPDX-License-Identifier: MIT */
/* Tests of option tables: the core's parser over a source group in text. */
#ifndef WFW_TESTOPTS_H
#define WFW_TESTOPTS_H

#include <stddef.h>

#include <wultfw/plugin.h>

/*
 * Parse `text` ("source = { ... };") with the table of `p` as the core
 * does; returns the errors, one per line ("" for none), to free().
 */
char *to_option_errors(const struct wultfw_plugin *p, const char *text);

#endif /* WFW_TESTOPTS_H */
