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
};

void wfw_cfgerr_add(struct wfw_cfgerr *e, const char *file, int line,
		    const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same, located at setting `s` (its file and line). */
void wfw_cfgerr_at(struct wfw_cfgerr *e, const config_setting_t *s,
		   const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void wfw_cfgerr_print(const struct wfw_cfgerr *e);
void wfw_cfgerr_free(struct wfw_cfgerr *e);

/* The file a setting came from ("-" when none is known). */
const char *wfw_setting_file(const config_setting_t *s);

#endif
