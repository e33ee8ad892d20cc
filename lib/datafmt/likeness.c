/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/likeness.h"

#include <stdlib.h>
#include <string.h>

#include "datafmt/infoyml.h"

/* info.yml keys of the settings a latency depends on. */
static const char *const latency_keys[] = {
	"source", "ldist", "cstates", "timer_sched", NULL
};

/* key's value; "ldist": "FROM to TO" from ldist_from and ldist_to. */
static char *setting(const struct wfw_infoyml *y, const char *key)
{
	char *from, *to, *both = NULL;

	if (strcmp(key, "ldist"))
		return wfw_infoyml_get(y, key);
	from = wfw_infoyml_get(y, "ldist_from");
	to = wfw_infoyml_get(y, "ldist_to");
	if (from && to && asprintf(&both, "%s to %s", from, to) < 0)
		both = NULL;
	free(from);
	free(to);
	return both;
}

/* Lines for result i against the first; how many. */
static size_t against_first(FILE *out, const char *tool, const struct wfw_infoyml *first,
			    const struct wfw_infoyml *y, const char *name0,
			    const char *name)
{
	size_t lines = 0;

	for (size_t k = 0; latency_keys[k]; k++) {
		char *a = setting(first, latency_keys[k]);
		char *b = setting(y, latency_keys[k]);

		if (a && b && strcmp(a, b)) {
			fprintf(out, "wultfw %s: %s and %s differ in %s ('%s' vs '%s'): "
				"their latencies differ by that too, not only by the machine\n",
				tool, name, name0, latency_keys[k], b, a);
			lines++;
		}
		free(a);
		free(b);
	}
	return lines;
}

size_t wfw_likeness_warn(FILE *out, const char *tool, const char *const *datafiles,
			 const char *const *names, size_t n)
{
	struct wfw_infoyml first, y;
	size_t lines = 0;

	if (n < 2 || wfw_infoyml_read(&first, datafiles[0]))
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (wfw_infoyml_read(&y, datafiles[i]))
			continue;
		lines += against_first(out, tool, &first, &y, names[0], names[i]);
		wfw_infoyml_free(&y);
	}
	wfw_infoyml_free(&first);
	return lines;
}
