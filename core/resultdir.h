/* SPDX-License-Identifier: MIT */
/* One result directory per experiment: info.yml, logs/, and what sinks write. */
#ifndef WFW_RESULTDIR_H
#define WFW_RESULTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Create `path` (and its parents) with logs/ inside. An existing
 * directory is an error unless `force`, which removes it first -- only if
 * it is a result directory (has logs/).
 */
int wfw_resultdir_create(const char *path, bool force, char *err,
			 size_t errlen);

/* 0 when --force may replace `path` (a result directory: logs/), else why. */
int wfw_resultdir_replaceable(const char *path, char *err, size_t errlen);

/* mkdir -p; returns 0 or -errno. */
int wfw_mkdir_p(const char *path);
/* rm -r without following links; returns 0 or -errno. */
int wfw_remove_tree(const char *path);

/* info.yml as key/value pairs in insertion order; a later set replaces. */
struct wfw_info {
	char **keys;
	char **vals;		/* already YAML-formatted */
	size_t n;
};

void wfw_info_str(struct wfw_info *info, const char *key, const char *val);
void wfw_info_raw(struct wfw_info *info, const char *key, const char *val);
void wfw_info_fmt(struct wfw_info *info, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Write dir/info.yml atomically (temporary file, fsync, rename), padded
 * with a comment to `reserve` bytes. When the disk is full, overwrite the
 * existing file in place instead: an earlier write with a reserve makes
 * sure that fits.
 */
int wfw_info_write(const struct wfw_info *info, const char *dir, size_t reserve);
/*
 * The machine's identity: sut_hostname (what it calls itself), and for a
 * run started by a controller (WULTFW_HOST set) host, the controller's
 * name for it, which also prefixes reportid so reports of several SUTs
 * can be told apart.
 */
void wfw_info_identity(struct wfw_info *info, const char *name);
void wfw_info_free(struct wfw_info *info);

/* Write a small text file in dir; returns 0 or -errno. */
int wfw_write_text(const char *dir, const char *name, const char *text);

#endif
