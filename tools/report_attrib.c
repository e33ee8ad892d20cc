/* SPDX-License-Identifier: MIT */
/*
 * A result's latency attribution in its report (doc/attribution.md): kept
 * when the file has the columns and info.yml names the latency they
 * explain, one of the metrics shown; the thread names beside the file.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_load.h"

/* Append to r's notes on its explanation. */
static void note(struct wfw_rep_result *r, const char *text)
{
	size_t n = strlen(r->attrib_notes);

	snprintf(r->attrib_notes + n, sizeof(r->attrib_notes) - n, "%s%s",
		 n ? "; " : "", text);
}

static bool shown(const struct rep_names *nm, const char *name)
{
	for (size_t i = 0; i < nm->nmetrics; i++)
		if (!strcmp(nm->metrics[i], name))
			return true;
	return false;
}

/* Has s the attribution's columns whatever it explains? */
static bool has_parts(const struct wultfw_schema *s)
{
	for (int c = 0; c < WFW_XP_NCAT; c++)
		if (wfw_schema_find(s, wfw_xp_time_cols[c]) < 0)
			return false;
	return wfw_schema_find(s, "Cause") >= 0;
}

bool rep_attrib_wanted(struct wfw_rep_result *r, const struct wultfw_schema *s,
		       const struct rep_names *nm, bool warn)
{
	const char *lat = r->attrib_latency;

	if (!has_parts(s))
		return false;
	if (wfw_attrib_columns(s, lat))
		return shown(nm, lat);
	if (warn)
		fprintf(stderr, "wultfw report: warning: %s has attribution columns but %s: no explanation section (doc/attribution.md)\n",
			r->path, lat ? "not the column its info.yml's attrib_latency names" :
			"its info.yml names no attrib_latency");
	return false;
}

int rep_attrib_init(struct wfw_rep_result *r, const char *latency)
{
	r->attrib = calloc(1, sizeof(*r->attrib));
	if (!r->attrib || wfw_attrib_init(r->attrib, latency)) {
		free(r->attrib);
		r->attrib = NULL;
		return -ENOMEM;
	}
	return 0;
}

void rep_attrib_free(struct wfw_rep_result *r)
{
	if (r->attrib)
		wfw_attrib_free(r->attrib);
	free(r->attrib);
	r->attrib = NULL;
	wfw_xp_threads_free(&r->threads);
}

/* The thread names: attrib-threads.csv in the directory of r's file. */
static void load_threads(struct wfw_rep_result *r)
{
	const char *slash = strrchr(r->path, '/');
	int dirlen = slash ? (int)(slash - r->path) : 1;
	char path[sizeof(r->path) + 32], err[1024];
	int ret;

	snprintf(path, sizeof(path), "%.*s/attrib-threads.csv", dirlen,
		 slash ? r->path : ".");
	ret = wfw_xp_threads_load(&r->threads, path, err, sizeof(err));
	if (ret == -ENOENT) {
		note(r, "no attrib-threads.csv beside the datapoints: threads named by pid");
	} else if (ret) {
		fprintf(stderr, "wultfw report: warning: %s: threads named by pid\n", err);
		note(r, err);
		note(r, "threads named by pid");
	}
}

void rep_attrib_finish(struct wfw_rep_result *r)
{
	if (!r->attrib)
		return;
	wfw_attrib_finish(r->attrib);
	load_threads(r);
	if (r->attrib->all.values > r->attrib->all.explained)
		fprintf(stderr, "wultfw report: note: %s: %llu of %llu datapoints have no breakdown (events lost): left out of the explanation's shares\n",
			r->path, (unsigned long long)(r->attrib->all.values - r->attrib->all.explained),
			(unsigned long long)r->attrib->all.values);
	if (r->attrib->all.mismatched)
		fprintf(stderr, "wultfw report: warning: %s: %llu datapoint%s whose parts do not add up to %s\n",
			r->path, (unsigned long long)r->attrib->all.mismatched,
			r->attrib->all.mismatched > 1 ? "s" : "", r->attrib->latency);
}
