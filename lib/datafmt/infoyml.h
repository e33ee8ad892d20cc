/* SPDX-License-Identifier: MIT */
/*
 * Reading a result's info.yml (ours or wult's): its top-level keys in
 * order, each with its value as written (indented lines that follow a key
 * belong to it). Enough for copying it on (filter) and showing it
 * (report); not a YAML parser.
 */
#ifndef WFW_INFOYML_H
#define WFW_INFOYML_H

#include <stddef.h>

/*
 * Bounds a hostile info.yml meets (ours are a few KB): the file, and the
 * keys (a filtered result copies them one by one, each replacing one of
 * the same name).
 */
#define WFW_INFOYML_MAX (1 << 20)
#define WFW_INFOYML_MAX_KEYS 4096

struct wfw_infoyml {
	size_t n;
	char **keys, **vals;	/* vals: raw text, quotes kept */
	char err[512];		/* why it could not be read (not -ENOMEM) */
};

/*
 * Read the info.yml beside `datafile` (a result's datapoints file).
 * A missing file gives no keys; a symbolic link is not followed.
 * Returns 0, -ENOMEM, or another -errno with y->err saying why ("PATH:
 * not a regular file", a link, too large, too many keys); y has no keys
 * then.
 */
int wfw_infoyml_read(struct wfw_infoyml *y, const char *datafile);
/* The same for the info.yml at `path`. */
int wfw_infoyml_read_path(struct wfw_infoyml *y, const char *path);

/*
 * text[0..len) as an info.yml: its lines (LF or CRLF; a NUL ends a line's
 * text) are keys ("KEY: VALUE" at the line's start), continuations of the
 * last key's value (lines starting with a space or '-') or ignored.
 * In time and memory linear in len. 0, -ENOMEM, -EFBIG or -E2BIG (err).
 */
int wfw_infoyml_parse(struct wfw_infoyml *y, const char *text, size_t len);

/* The value of key without YAML quotes (malloc'ed), or NULL. */
char *wfw_infoyml_get(const struct wfw_infoyml *y, const char *key);
/* The same for the i-th key's value. */
char *wfw_infoyml_value(const struct wfw_infoyml *y, size_t i);

void wfw_infoyml_free(struct wfw_infoyml *y);

#endif
