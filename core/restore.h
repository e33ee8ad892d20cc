/* SPDX-License-Identifier: MIT */
/*
 * System settings a run changes, and how to put them back -- even after
 * kill -9 or a power cut. One mechanism for every kind of setting (cpuidle
 * disable flags, the cpuidle governor, a plugin's driver binding or
 * qdiscs, ...): a change is remembered as the file writes that undo it, or
 * as a line of data its plugin's restore op undoes it from, in a state file
 * (STATE_DIR/PID.state, fsynced) written BEFORE the change is made and
 * removed once everything is put back. A later wultfw finds the state
 * file of a run that no longer runs, says what it left changed and
 * restores it (`wultfw restore`, `wultfw scan`, and every run before it
 * changes anything).
 *
 * STATE_DIR is $WULTFW_STATE_DIR, else /run/wultfw (gone at reboot, as the
 * changes are): wfw_restore_dir(), restore_file.h; it and its files are
 * used only when root (or we) own them and no one else can write them
 * (statedir.h).
 */
#ifndef WFW_RESTORE_H
#define WFW_RESTORE_H

#include <stdbool.h>
#include <stddef.h>

#include <wultfw/plugin.h>

/*
 * Before changing a setting: remember `what` ("C-state C1 of CPU 1
 * disabled") and the writes that undo it, in the state file, fsynced.
 * Returns an id (>= 0), or a negative errno with the reason in err; then
 * the caller must not make the change.
 */
int wfw_restore_remember(const char *what,
			 const struct wultfw_restore_step *steps, size_t n,
			 char *err, size_t errlen);
/*
 * The same for a change only `plugin`'s restore op puts back, given data
 * (wultfw_remember_plugin()).
 */
int wfw_restore_remember_plugin(const char *plugin, const char *what,
				const char *data, char *err, size_t errlen);
/*
 * Put one change back now and forget it; 0 or the first write's -errno. A
 * plugin's change that could not be put back is kept (and said why).
 */
int wfw_restore_undo(int id);
/* The caller put it back itself: forget it. */
void wfw_restore_forget(int id);
/*
 * Put back everything still remembered, newest first, and remove the
 * state file. Async-signal-safe: signal handlers call it. A plugin's
 * changes need its code: they stay in the state file (it says so).
 */
void wfw_restore_all(void);
/* The same at exit (atexit): the state file keeps only what is left. */
void wfw_restore_exit(void);

/*
 * State files of other wultfw processes: say what each left changed (on
 * stderr, `tool` prefixing) and, when `restore`, put back what killed
 * runs left. Files of runs still going are only mentioned. A state
 * directory or file that is not trusted (statedir.h), or that writes a
 * file outside `sysfs_root` (NULL: /sys), is refused, said in one line.
 * Returns the number of killed runs' files found (restored or not), or -1
 * when one was refused or a restore failed.
 */
int wfw_restore_leftovers(const char *tool, const char *sysfs_root,
			  bool restore);

/*
 * Do the writes of a plugin's wultfw_remember() lie below sysfs_root, the
 * only place a later wultfw writes back? 0, or -EXDEV with err saying
 * which is not.
 */
int wfw_restore_check_steps(const char *sysfs_root,
			    const struct wultfw_restore_step *steps, size_t n,
			    char *err, size_t errlen);

#endif /* WFW_RESTORE_H */
