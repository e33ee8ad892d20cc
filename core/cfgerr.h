/* SPDX-License-Identifier: MIT */
/*
 * Errors found in an experiment file, collected so the user sees all of
 * them at once, each as "FILE:LINE: KEY: what is wrong".
 */
#ifndef WFW_CFGERR_H
#define WFW_CFGERR_H

#include <libconfig.h>
#include <stddef.h>

struct wfw_cfgerr {
	char **msgs;
	size_t n;
	int *lines;		/* msgs[i]'s line, 0: the whole file */
	char **files;		/* msgs[i]'s file ("" : its own words) */
};

/* Where a setting was written, for errors found after parsing. */
struct wfw_loc {
	char file[256];
	int line;
	char key[128];
};

/* loc of setting s (NULL: the main file, line 0), called key. */
void wfw_loc_set(struct wfw_loc *loc, const config_setting_t *s,
		 const char *key);

void wfw_cfgerr_add(struct wfw_cfgerr *e, const char *file, int line,
		    const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same, located at setting `s` (its file and line). */
void wfw_cfgerr_at(struct wfw_cfgerr *e, const config_setting_t *s,
		   const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* 0 when s has `type`, else -EINVAL with "expected WHAT" at s. */
int wfw_cfgerr_type(struct wfw_cfgerr *e, const config_setting_t *s,
		    const char *key, int type, const char *what);
/*
 * Every key of `group` (at `path`) not among `known`: unknown, with a
 * "did you mean" or the known ones.
 */
void wfw_cfgerr_keys(struct wfw_cfgerr *e, const config_setting_t *group,
		     const char *path, const char *const *known);

void wfw_cfgerr_print(const struct wfw_cfgerr *e);
void wfw_cfgerr_free(struct wfw_cfgerr *e);

/* The file a setting came from ("-" when none is known). */
const char *wfw_setting_file(const config_setting_t *s);

#endif
