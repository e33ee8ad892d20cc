/* SPDX-License-Identifier: MIT */
/*
 * The state file of restore.h: a process's remembered changes, as text
 * another wultfw reads after this one was killed.
 *
 *   # comment lines
 *   pid 1234
 *   pid_start 5678          (start time in clock ticks: pids get reused)
 *   boot_id 0f3c...         (a state file from an earlier boot is stale)
 *   change C-state C1 of CPU 1 disabled
 *   write /sys/devices/system/cpu/cpu1/cpuidle/state2/disable\t0
 *   change ndl: qdisc etf on eth1 TX queue 0 under a root mqprio 100: (before: the defaults)
 *   plugin ndl\tv1 3 eth1 mqprio 0 0
 *
 * Each `change` is undone either by its `write` lines in order, or by
 * its one `plugin` line: that plugin's restore op gets the data after the
 * tab (wultfw_remember_plugin()). Changes are undone newest first. In
 * values, paths and data, \n, \t and \\ are escaped.
 *
 * Another process's file is checked before anything in it is done: a
 * change has writes or a plugin, and every write's path lies below the
 * sysfs root in force (wfw_state_confined()); otherwise none is made.
 */
#ifndef WFW_RESTORE_FILE_H
#define WFW_RESTORE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <wultfw/plugin.h>

#define WFW_RESTORE_DEFAULT_DIR "/run/wultfw"

/* Where state files live: $WULTFW_STATE_DIR, else the default. */
const char *wfw_restore_dir(void);

#define WFW_RESTORE_MAX_CHANGES 64
#define WFW_RESTORE_MAX_STEPS 4

enum wfw_change_kind {
	WFW_CHANGE_WRITES,	/* undone by writing files (steps) */
	WFW_CHANGE_PLUGIN,	/* undone by plugin's restore op, given data */
};

struct wfw_change {
	bool live;		/* still to be undone */
	enum wfw_change_kind kind;
	int line;		/* of its `change` line, in a parsed file */
	char what[200];
	size_t nsteps;
	struct {
		char path[320];
		char value[96];
		int line;	/* of its `write` line, in a parsed file */
	} steps[WFW_RESTORE_MAX_STEPS];
	char plugin[64];
	char data[WULTFW_RESTORE_DATA_MAX];
};

struct wfw_state {
	pid_t pid;
	unsigned long long pid_start;
	char boot_id[64];
	struct wfw_change *changes;
	size_t nchanges;
};

/* Copy a change in; -EINVAL when a string does not fit. */
int wfw_change_set(struct wfw_change *c, const char *what,
		   const struct wultfw_restore_step *steps, size_t n);
/* The same for a change plugin's restore op undoes with data. */
int wfw_change_set_plugin(struct wfw_change *c, const char *what,
			  const char *plugin, const char *data);
/*
 * Do c's writes in order (a plugin's change: nothing, -ENOSYS). A file that is gone (the device or fake tree
 * went away) has nothing to restore, nor has a write the kernel refuses
 * with ENODEV (unbinding a device the driver no longer has). Returns 0 or the first -errno;
 * async-signal-safe.
 */
int wfw_change_put_back(const struct wfw_change *c);
/*
 * The same for another process's change, each file opened only below
 * `root` (lib/sysstate/beneath.h): a path that leads elsewhere is not
 * written (-EXDEV). Not async-signal-safe.
 */
int wfw_change_put_back_beneath(const struct wfw_change *c, const char *root);
/*
 * Every write of st's live changes below `root`? 0, or -EXDEV with err
 * saying "line N: ..." for the first that is not (a missing file is
 * fine: there is nothing to write back).
 */
int wfw_state_confined(const struct wfw_state *st, const char *root,
		       char *err, size_t errlen);
/* Any change still to undo? */
bool wfw_state_live(const struct wfw_state *st);
/* The live changes as the file's text (malloc'ed), or NULL. */
char *wfw_state_format(const struct wfw_state *st);
/*
 * Parse a state file's text; st->changes is malloc'ed (free it). On a
 * malformed line, or a change with no write or plugin line: -EINVAL, err
 * names the line.
 */
int wfw_state_parse(const char *text, struct wfw_state *st, char *err,
		    size_t errlen);

#endif /* WFW_RESTORE_FILE_H */
