/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "datafmt/infoyml.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct wfw_infoyml *y, char *key, char *val)
{
	char **k = realloc(y->keys, (y->n + 1) * sizeof(*k));
	char **v = k ? realloc(y->vals, (y->n + 1) * sizeof(*v)) : NULL;

	if (k)
		y->keys = k;
	if (v)
		y->vals = v;
	if (!k || !v || !key || !val) {
		free(key);
		free(val);
		return -ENOMEM;
	}
	y->keys[y->n] = key;
	y->vals[y->n++] = val;
	return 0;
}

/* An indented line continues the last key's value. */
static int append(struct wfw_infoyml *y, const char *line)
{
	size_t old = strlen(y->vals[y->n - 1]), len = strlen(line);
	char *v = realloc(y->vals[y->n - 1], old + len + 2);

	if (!v)
		return -ENOMEM;
	snprintf(v + old, len + 2, "\n%s", line);
	y->vals[y->n - 1] = v;
	return 0;
}

int wfw_infoyml_read(struct wfw_infoyml *y, const char *datafile)
{
	const char *slash = strrchr(datafile, '/');
	char path[PATH_MAX + 16], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;
	FILE *fp;

	memset(y, 0, sizeof(*y));
	snprintf(path, sizeof(path), "%.*sinfo.yml",
		 slash ? (int)(slash - datafile + 1) : 0, datafile);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (!ret && (len = getline(&line, &cap, fp)) >= 0) {
		char *colon = strchr(line, ':');

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == ' ' || line[0] == '-') {
			if (y->n)
				ret = append(y, line);
		} else if (line[0] != '#' && colon) {
			*colon = '\0';
			ret = add(y, strdup(line),
				  strdup(colon[1] == ' ' ? colon + 2 : colon + 1));
		}
	}
	free(line);
	fclose(fp);
	return ret;
}

char *wfw_infoyml_get(const struct wfw_infoyml *y, const char *key)
{
	for (size_t i = 0; i < y->n; i++) {
		const char *v = y->vals[i];
		size_t len = strlen(v);
		char *out, *o;

		if (strcmp(y->keys[i], key))
			continue;
		if (len < 2 || (v[0] != '\'' && v[0] != '"') || v[len - 1] != v[0])
			return strdup(v);
		out = o = malloc(len);
		if (!out)
			return NULL;
		/* 'it''s' -> it's; "..." taken as is */
		for (size_t k = 1; k < len - 1; k++) {
			*o++ = v[k];
			if (v[0] == '\'' && v[k] == '\'' && v[k + 1] == '\'')
				k++;
		}
		*o = '\0';
		return out;
	}
	return NULL;
}

void wfw_infoyml_free(struct wfw_infoyml *y)
{
	for (size_t i = 0; i < y->n; i++) {
		free(y->keys[i]);
		free(y->vals[i]);
	}
	free(y->keys);
	free(y->vals);
	memset(y, 0, sizeof(*y));
}
