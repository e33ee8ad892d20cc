/* SPDX-License-Identifier: MIT */
/*
 * Reading a result's info.yml (ours or wult's): its top-level keys in
 * order, each with its value as written (indented lines that follow a key
 * belong to it). Enough for copying it on (filter) and showing it
 * (report); not a YAML parser.
 */
#ifndef WFW_INFOYML_H
#define WFW_INFOYML_H

#include <stddef.h>

struct wfw_infoyml {
	size_t n;
	char **keys, **vals;	/* vals: raw text, quotes kept */
};

/*
 * Read the info.yml beside `datafile` (a result's datapoints file).
 * A missing file gives no keys. Returns 0 or -ENOMEM.
 */
int wfw_infoyml_read(struct wfw_infoyml *y, const char *datafile);

/* The value of key without YAML quotes (malloc'ed), or NULL. */
char *wfw_infoyml_get(const struct wfw_infoyml *y, const char *key);

void wfw_infoyml_free(struct wfw_infoyml *y);

#endif
