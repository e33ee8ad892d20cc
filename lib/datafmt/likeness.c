/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/likeness.h"

#include <stdlib.h>
#include <string.h>

#include "datafmt/infoyml.h"

/* info.yml keys of the settings a latency depends on. */
static const char *const latency_keys[] = {
	"source", "ldist_from", "ldist_to", "cstates", "timer_sched", NULL
};

/* Lines for result i against the first; how many. */
static size_t against_first(FILE *out, const char *tool, const struct wfw_infoyml *first,
			    const struct wfw_infoyml *y, const char *name0,
			    const char *name)
{
	size_t lines = 0;

	for (size_t k = 0; latency_keys[k]; k++) {
		char *a = wfw_infoyml_get(first, latency_keys[k]);
		char *b = wfw_infoyml_get(y, latency_keys[k]);

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
