/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "report/assets.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * A build tree's wultfw (config.status beside it) takes the page and
 * plotly.js from the paths make wrote into lib/report/build-paths beside
 * it; an installed one has no such file and compiles in no build path
 * (the Debian package stays byte-reproducible).
 */
static bool key_line(const char *line, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);

	if (strncmp(line, key, k) || line[k] != '=')
		return false;
	snprintf(out, len, "%.*s", (int)strcspn(line + k + 1, "\n"), line + k + 1);
	return true;
}

bool wfw_report_build_paths(char *assets, size_t alen, char *plotly, size_t plen)
{
	char path[PATH_MAX], line[PATH_MAX + 16], *slash;
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 32);
	FILE *f;

	*assets = *plotly = '\0';
	if (len <= 0)
		return false;
	path[len] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return false;
	strcpy(slash + 1, "config.status");
	if (access(path, F_OK))
		return false;
	strcpy(slash + 1, "lib/report/build-paths");
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!key_line(line, "assets", assets, alen))
			key_line(line, "plotly", plotly, plen);
	fclose(f);
	return *assets != '\0';
}
