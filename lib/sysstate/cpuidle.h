/* SPDX-License-Identifier: MIT */
/*
 * Linux cpuidle in sysfs: the driver and governor of the system, and per
 * CPU the state names, usage and time counters, and the per-state disable
 * flags. Shared by the core (C-state restriction, info.yml) and the
 * sources (naming ReqCState).
 */
#ifndef WFW_SYSSTATE_CPUIDLE_H
#define WFW_SYSSTATE_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WFW_CPUIDLE_MAX_STATES 16
#define WFW_CPUIDLE_NAME_LEN 32

/*
 * ReqCState values that are not a state's name, for a sleep whose requested
 * state a source cannot know: it entered no state, several states, or the
 * counters could not be read. Written as they are, so the CSV has no empty
 * cell (wult rejects a file with one) and nothing is guessed; see
 * doc/wult-compat.md.
 */
#define WFW_REQCSTATE_NONE "none"
#define WFW_REQCSTATE_SEVERAL "several"
#define WFW_REQCSTATE_UNKNOWN "unknown"
#define WFW_REQCSTATE_N_EXTRA 3

struct wfw_cpuidle {
	int cpu;
	int nstates;
	char root[256];		/* sysfs mount point, "/sys" normally */
	char names[WFW_CPUIDLE_MAX_STATES][WFW_CPUIDLE_NAME_LEN];
	const char *name_ptrs[WFW_CPUIDLE_MAX_STATES];	/* into names[] */
	int usage_fd[WFW_CPUIDLE_MAX_STATES];	/* opened on demand */
	int time_fd[WFW_CPUIDLE_MAX_STATES];
};

/*
 * Read the state names of `cpu` below `sysfs_root` (NULL: "/sys").
 * Returns 0, or -ENOENT when the CPU has no cpuidle directory (no cpuidle
 * driver), or another negative errno.
 */
int wfw_cpuidle_open(struct wfw_cpuidle *ci, int cpu, const char *sysfs_root);
void wfw_cpuidle_close(struct wfw_cpuidle *ci);

/*
 * Set in the environment, every CPU of this machine (sysfs root "/sys")
 * looks as if it had no cpuidle states, as on a machine without a cpuidle
 * driver: tests run the whole suite so. Fake sysfs trees are unaffected.
 */
#define WFW_CPUIDLE_HIDE_ENV "WULTFW_HIDE_CPUIDLE"

/* "CPU N has no cpuidle states (cpuidle driver: none)": why open failed. */
void wfw_cpuidle_why_none(int cpu, const char *sysfs_root, char *buf,
			  size_t len);

/* "ROOT/devices/system/cpu/cpuidle/FILE" (current_governor, ...). */
void wfw_cpuidle_path(const char *sysfs_root, const char *file, char *buf,
		      size_t len);
/* The cpuidle driver ("intel_idle", "haltpoll"), or "none" without one. */
void wfw_cpuidle_driver(const char *sysfs_root, char *buf, size_t len);
/* The cpuidle governor in force, or "none". */
void wfw_cpuidle_governor(const char *sysfs_root, char *buf, size_t len);
/* The governors to choose from ("menu teo haltpoll"), or "". */
void wfw_cpuidle_governors(const char *sysfs_root, char *buf, size_t len);

/* "ROOT/devices/system/cpu/cpuN/cpuidle/stateS/FILE" of ci's CPU. */
void wfw_cpuidle_state_path(const struct wfw_cpuidle *ci, int state,
			    const char *file, char *buf, size_t len);

/* Index of the state called `name`, or -1. */
int wfw_cpuidle_find(const struct wfw_cpuidle *ci, const char *name);

/* usage[i] = times state i was entered; fds stay open for speed. */
int wfw_cpuidle_read_usage(struct wfw_cpuidle *ci, uint64_t *usage);
/* time_us[i] = microseconds spent in state i. */
int wfw_cpuidle_read_time(struct wfw_cpuidle *ci, uint64_t *time_us);

/*
 * Given usage before and after an interval, the one state entered during
 * it, or WFW_CPUIDLE_NONE_ENTERED (-1) when no state was entered, or
 * WFW_CPUIDLE_SEVERAL_ENTERED (-2) when more than one was.
 */
#define WFW_CPUIDLE_NONE_ENTERED (-1)
#define WFW_CPUIDLE_SEVERAL_ENTERED (-2)
int wfw_cpuidle_only_state(const struct wfw_cpuidle *ci,
			   const uint64_t *before, const uint64_t *after);

int wfw_cpuidle_get_disable(const struct wfw_cpuidle *ci, int state,
			    bool *disabled);
int wfw_cpuidle_set_disable(const struct wfw_cpuidle *ci, int state,
			    bool disabled);

/* What is in force on `cpu` ("POLL on, C1 off"), or "no cpuidle states". */
void wfw_cpuidle_describe(int cpu, const char *sysfs_root, char *buf,
			  size_t len);

#endif
