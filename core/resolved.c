/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "resolved.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <units/duration.h>

static void put_options(FILE *f, const struct wfw_plugin_inst *pi)
{
	char val[1024];
	size_t i;

	fprintf(f, "plugin = \"%s\";", pi->h.desc->name);
	for (i = 0; i < pi->opts.n; i++) {
		if (!pi->opts.vals[i].set)
			continue;
		wfw_option_format(&pi->opts.table[i], &pi->opts.vals[i], val, sizeof(val));
		fprintf(f, " %s = %s;", pi->opts.table[i].name, val);
	}
}

/* A libconfig string: backslash and double quote escaped. */
static void put_quoted(FILE *f, const char *key, const char *text)
{
	fprintf(f, "%s = \"", key);
	for (; *text; text++) {
		if (*text == '"' || *text == '\\')
			fputc('\\', f);
		fputc(*text, f);
	}
	fprintf(f, "\";\n");
}

/* include, exclude, keep_filtered (core/datasel.c). */
static void put_select(FILE *f, const struct wfw_datasel_cfg *c)
{
	if (c->include.text)
		put_quoted(f, "include", c->include.text);
	if (c->exclude.text)
		put_quoted(f, "exclude", c->exclude.text);
	if (c->keep_filtered)
		fprintf(f, "keep_filtered = true;\n");
}

char *wfw_resolved_config(const struct wfw_experiment *e, const char *from)
{
	char *text = NULL, a[32], b[32];
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "# Experiment \"%s\" as it ran, from %s.\n", e->name,
		from ? from : "the embedded default");
	fprintf(f, "# Run it again with: wultfw -c logs/config\n");
	fprintf(f, "name = \"%s\";\n", e->name);
	fprintf(f, "outdir = \"%s\";\n", e->outdir);
	fprintf(f, "seed = %" PRIu64 "L;\n", e->seed);
	wfw_format_duration(e->ldist_from_ns, a, sizeof(a));
	wfw_format_duration(e->ldist_to_ns, b, sizeof(b));
	fprintf(f, "source = { ");
	put_options(f, &e->source);
	fprintf(f, " cpu = %d;", e->cpu);
	if (e->ldist_use != WULTFW_LDIST_NONE)
		fprintf(f, " ldist = [ \"%s\", \"%s\" ];", a, b);
	wfw_stop_above_write(&e->stop_above, f);
	fprintf(f, " };\n");
	if (e->max_datapoints || e->max_time_ns) {
		fprintf(f, "limits = {");
		if (e->max_datapoints)
			fprintf(f, " datapoints = %" PRIu64 "L;", e->max_datapoints);
		if (e->max_time_ns) {
			wfw_format_duration(e->max_time_ns, a, sizeof(a));
			fprintf(f, " time = \"%s\";", a);
		}
		fprintf(f, " };\n");
	}
	fprintf(f, "sinks = (");
	for (i = 0; i < e->nsinks; i++) {
		fprintf(f, "%s\n  { ", i ? "," : "");
		put_options(f, &e->sinks[i]);
		fprintf(f, " }");
	}
	fprintf(f, "\n);\n");
	if (e->cstate_mode != WFW_CSTATES_ANY) {
		fprintf(f, "cstates = { %s = [",
			e->cstate_mode == WFW_CSTATES_ONLY ? "only" : "disable");
		for (i = 0; i < e->ncstates; i++)
			fprintf(f, "%s \"%s\"", i ? "," : "", e->cstates[i]);
		fprintf(f, " ]; };\n");
	}
	put_select(f, &e->select);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
