/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "filehint.h"
#include "openreg.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suggest/suggest.h>

/* Enough for an examples/ or results directory; the rest is not looked at. */
#define HINT_MAX_NAMES	256

const char *wfw_include_name(const char *file, int line, char *buf, size_t len)
{
	char text[1024], *q, *end;
	FILE *f = wfw_fopen_regular(file);	/* a FIFO would wait for a writer */
	bool found = false;

	for (int n = 1; f && n <= line && fgets(text, sizeof(text), f); n++)
		found = n == line;
	if (f)
		fclose(f);
	q = found ? strstr(text, "@include") : NULL;
	q = q ? strchr(q, '"') : NULL;
	end = q ? strchr(q + 1, '"') : NULL;
	if (!end)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(end - q - 1), q + 1);
	return buf;
}

const char *wfw_file_hint(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dlen = slash ? (int)(slash - path) : 1;
	char dir[4096], *names[HINT_MAX_NAMES];
	const char *hit = NULL;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", dlen, slash ? path : ".");
	d = opendir(slash && !dlen ? "/" : dir);
	if (!d)
		return NULL;
	while (n < HINT_MAX_NAMES && (de = readdir(d)))
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	hit = wfw_suggest(base, (const char *const *)names, n);
	if (hit)
		snprintf(buf, len, "%.*s%s%s", slash ? dlen : 0, path,
			 slash ? "/" : "", hit);
	while (n)
		free(names[--n]);
	return hit ? buf : NULL;
}
