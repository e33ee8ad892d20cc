/* SPDX-License-Identifier: MIT */
/* One result directory per experiment: info.yml, logs/, and what sinks write. */
#ifndef WFW_RESULTDIR_H
#define WFW_RESULTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Make the directory `path` (its parents as needed) and return it open
 * (O_DIRECTORY), or -errno with `err` set. Its last mkdir is exclusive:
 * of runs that want one name at once, one gets it. When it exists:
 * `numbered` (a generated name) tries path-2, path-3, ... and updates
 * `path` (of `size` bytes); else it is an error unless `force`, which
 * removes it first -- only a result directory (logs/) that no running
 * wultfw writes to (wfw_resultdir_replaceable).
 */
int wfw_resultdir_make(char *path, size_t size, bool force, bool numbered,
		       char *err, size_t errlen);

/* wfw_resultdir_make() of `path`, not numbered, with logs/ inside. */
int wfw_resultdir_create(const char *path, bool force, char *err,
			 size_t errlen);

/*
 * 0 when --force may replace `path`: a result directory (logs/) whose
 * info.yml does not name a run still going (datafmt/runstate.h); else
 * -EEXIST or -EBUSY and why, in one line that says what to do.
 */
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
 * The keys of a run that has just started: its experiment file, counts
 * of 0, status running, and who runs it (pid, its start time, boot id),
 * so a killed run is told from a going one.
 */
void wfw_info_running(struct wfw_info *info, const char *config_file);
/*
 * Write dir/info.yml atomically (temporary file, fsync, rename), padded
 * with a comment to `reserve` bytes. When the disk is full, overwrite the
 * existing file in place instead: an earlier write with a reserve makes
 * sure that fits.
 */
int wfw_info_write(const struct wfw_info *info, const char *dir, size_t reserve);
/* The same in the directory open as dirfd. */
int wfw_info_write_at(const struct wfw_info *info, int dirfd, size_t reserve);
/*
 * The machine's identity: sut_hostname (what it calls itself), and for a
 * run started by a controller (WULTFW_HOST set) host, the controller's
 * name for it, which also prefixes reportid so reports of several SUTs
 * can be told apart.
 */
void wfw_info_identity(struct wfw_info *info, const char *name);
void wfw_info_free(struct wfw_info *info);

/* Write a small text file (name may be "logs/x") in dirfd; 0 or -errno. */
int wfw_write_text_at(int dirfd, const char *name, const char *text);

#endif
