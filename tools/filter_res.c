/* SPDX-License-Identifier: MIT */
/* A filtered result's columns and info.yml (filter.h). */
#include "config.h"

#include "filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafmt/infoyml.h"
#include "resultdir.h"
#include <suggest/suggest.h>

/* Mark the columns `list` selects in want[]; -errno after saying why. */
static int want_columns(const struct wultfw_schema *s, const char *list, bool *want)
{
	const char *names[s->ncols ? s->ncols : 1];
	char why[2048];
	int ret;

	for (size_t i = 0; i < s->ncols; i++)
		names[i] = s->cols[i].name;
	ret = wfw_names_select(list, names, s->ncols, want, why, sizeof(why));
	if (ret)
		fprintf(stderr, "wultfw filter: --metrics: %s\n", why);
	return ret;
}

int filter_pick_columns(const struct wultfw_schema *s, const char *metrics,
			struct wultfw_column **cols, size_t **map, size_t *n)
{
	bool *want = calloc(s->ncols + 1, sizeof(*want));
	int ret = 0;

	*n = 0;
	*cols = calloc(s->ncols + 1, sizeof(**cols));
	*map = calloc(s->ncols + 1, sizeof(**map));
	if (!want || !*cols || !*map)
		ret = -ENOMEM;
	else if (metrics)
		ret = want_columns(s, metrics, want);
	for (size_t i = 0; i < s->ncols && !ret; i++) {
		if (metrics && !want[i])
			continue;
		(*map)[*n] = i;
		(*cols)[(*n)++] = s->cols[i];
	}
	free(want);
	return ret;
}

/*
 * Keys of the old info.yml about its files after a failed run (what each
 * held: csv_rows_in_file, stats_rows_in_file_2, datapoints_received), not
 * the new one's; nor a per-CPU experiment's, set anew if it is one.
 */
static bool old_file_key(const char *key)
{
	const char *in = strstr(key, "_in_file");

	return !strcmp(key, "datapoints_received") || !strcmp(key, "per_cpu_dirs") ||
	       !strcmp(key, "cpus") ||
	       (in && (!in[8] || (in[8] == '_' && strspn(in + 9, "0123456789") == strlen(in + 9))));
}

/* What was selected from where, and how many rows were kept. */
static void add_selection(struct wfw_info *info, const struct filter_note *n)
{
	if (n->cpus) {
		wfw_info_raw(info, "per_cpu_dirs", "true");
		wfw_info_raw(info, "cpus", n->cpus);
	}
	wfw_info_fmt(info, "datapoints", "%llu", (unsigned long long)n->kept);
	wfw_info_str(info, "filtered_from", n->from);
	if (n->include)
		wfw_info_str(info, "filter_include", n->include);
	if (n->exclude)
		wfw_info_str(info, "filter_exclude", n->exclude);
	if (n->metrics)
		wfw_info_str(info, "filter_metrics", n->metrics);
	wfw_info_fmt(info, "filter_rows_read", "%llu",
		     (unsigned long long)(n->kept + n->dropped));
	wfw_info_fmt(info, "filter_rows_kept", "%llu", (unsigned long long)n->kept);
	/* As a run stopped by a signal says, and which step it was. */
	wfw_info_str(info, "filter_status", n->stopped ? "interrupted" : "complete");
	if (n->stopped)
		wfw_info_str(info, "status", "interrupted");
}

int filter_write_info(const char *dir, const struct filter_note *n)
{
	struct wfw_info info = { 0 };
	struct wfw_infoyml old;
	char yml[4200];
	int ret;

	/* The old keys first, so the ones set below replace them in place. */
	snprintf(yml, sizeof(yml), "%s/info.yml", n->from);
	ret = n->cpus ? wfw_infoyml_read_path(&old, yml) : wfw_infoyml_read(&old, n->from);
	if (ret) {
		fprintf(stderr, "wultfw filter: %s\n", ret == -ENOMEM ? "out of memory" : old.err);
		return ret;
	}
	for (size_t i = 0; i < old.n; i++)
		if (!old_file_key(old.keys[i]))
			wfw_info_raw(&info, old.keys[i], old.vals[i]);
	wfw_infoyml_free(&old);
	add_selection(&info, n);
	ret = wfw_info_write(&info, dir, 0);
	if (ret)
		fprintf(stderr, "wultfw filter: cannot write %s/info.yml: %s\n",
			dir, strerror(-ret));
	wfw_info_free(&info);
	return ret;
}
