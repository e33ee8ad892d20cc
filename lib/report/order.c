/* SPDX-License-Identifier: MIT */
/*
 * The order of a report's groups (requested C-states): by depth, as calc
 * lists them, once for the whole page, so that every table, legend and
 * plot of every result lists them alike and gives each the same colour.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/cstate.h"
#include "stats/report.h"

static int by_depth(const void *a, const void *b)
{
	return wfw_cstate_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of r's groups that have rows, appended to v[*n..). */
static int add_groups(const struct wfw_rep_result *r, const char ***v,
		      size_t *n, size_t *cap)
{
	for (size_t g = 0; r->set.gcol >= 0 && g < r->set.ngroups; g++) {
		if (!wfw_statset_group_count(&r->set, g))
			continue;
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			const char **nv = realloc(*v, c * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = c;
		}
		(*v)[(*n)++] = wfw_statset_group_name(&r->set, g);
	}
	return 0;
}

int wfw_rep_states_json(const struct wfw_report *rep, FILE *f)
{
	const char **v = NULL;
	size_t n = 0, cap = 0, shown = 0;
	int ret = 0;

	for (size_t i = 0; i < rep->nres && !ret; i++)
		ret = add_groups(&rep->res[i], &v, &n, &cap);
	if (n)
		qsort(v, n, sizeof(*v), by_depth);
	fputs("\"states\": [", f);
	for (size_t i = 0; i < n && !ret; i++) {
		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		fputs(shown++ ? ", " : "", f);
		wfw_json_string(f, v[i]);
	}
	fputs("]", f);
	free(v);
	return ret;
}
