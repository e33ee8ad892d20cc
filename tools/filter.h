/* SPDX-License-Identifier: MIT */
/*
 * wultfw filter's new result (filter_res.c): the columns --metrics keeps
 * and the info.yml that says what was selected from where. cli/cmd_filter.c
 * parses the command line and moves the rows.
 */
#ifndef WFW_TOOLS_FILTER_H
#define WFW_TOOLS_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/plugin.h>

/*
 * The columns `metrics` (NULL: all) keeps, in the input's order: *cols,
 * and *map their index in s, *n of them. 0, -ENOMEM, or -ENOENT after
 * "wultfw filter: --metrics: ..." on stderr. The caller frees both.
 */
int filter_pick_columns(const struct wultfw_schema *s, const char *metrics,
			struct wultfw_column **cols, size_t **map, size_t *n);

/* What a filter run kept, for its info.yml. */
struct filter_note {
	const char *from;		/* the data file read */
	const char *include, *exclude, *metrics;
	uint64_t kept, dropped;		/* rows */
	bool stopped;			/* a signal cut the rows short */
	/*
	 * A per-CPU experiment written again: its CPUs ("[0, 1]"), and from
	 * is the experiment's directory. NULL: one result (per-CPU keys of
	 * the input's info.yml left out: it has no cpuN/).
	 */
	const char *cpus;
};

/*
 * DIR/info.yml: the keys of the input's (but those about its data file)
 * and what was selected; 0, or -errno after saying why on stderr.
 */
int filter_write_info(const char *dir, const struct filter_note *n);

#endif
