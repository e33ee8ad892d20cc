/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cstates.h"

#include <sysstate/cpuidle.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"

/*
 * The changes made, as restore.c ids: each was remembered in the state
 * file before it was made, so a killed run's are put back by the next
 * wultfw, and fatal signals put them back through wfw_restore_all().
 */
static int ids[WFW_CPUIDLE_MAX_STATES + 1];
static int nids;

void wfw_cstates_restore(void)
{
	/* Newest first: the flags, then the governor. */
	while (nids > 0) {
		int id = ids[--nids];

		wfw_restore_undo(id);
	}
}

/* Remember how to undo writing to `path` (now `old`), then write `val`. */
static int change(const char *path, const char *old, const char *val,
		  const char *what, char *err, size_t errlen)
{
	struct wultfw_restore_step step = { path, old };
	int id = wfw_restore_remember(what, &step, 1, err, errlen);
	FILE *f;

	if (id < 0)
		return id;
	f = fopen(path, "we");
	if (!f || fputs(val, f) < 0 || fclose(f)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "cannot write %s: %s%s", path, strerror(e),
			 e == EACCES || e == EPERM ? " (run as root)" : "");
		wfw_restore_forget(id);
		return -e;
	}
	ids[nids++] = id;
	return 0;
}

static bool listed(const struct wfw_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->ncstates; i++)
		if (!strcmp(e->cstates[i], name))
			return true;
	return false;
}

/*
 * The haltpoll governor (KVM guests) never looks at the disable flags, so
 * a restriction would silently do nothing. Switch to a governor that
 * honours them for the experiment; restore() puts haltpoll back.
 */
static int fix_governor(const char *root, char *note, size_t notelen,
			char *err, size_t errlen)
{
	static const char *const honest[] = { "menu", "teo", "ladder" };
	char path[320], avail[256], cur[64], why[512], what[96];
	size_t i;
	int ret;

	wfw_cpuidle_governor(root, cur, sizeof(cur));
	if (strcmp(cur, "haltpoll"))
		return 0;
	wfw_cpuidle_path(root, "current_governor", path, sizeof(path));
	wfw_cpuidle_governors(root, avail, sizeof(avail));
	strncat(avail, " ", sizeof(avail) - strlen(avail) - 1);
	for (i = 0; i < sizeof(honest) / sizeof(honest[0]); i++) {
		char word[16];

		snprintf(word, sizeof(word), "%s ", honest[i]);
		if (!strstr(avail, word))
			continue;
		snprintf(what, sizeof(what), "cpuidle governor switched from haltpoll to %s",
			 honest[i]);
		ret = change(path, "haltpoll", honest[i], what, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen,
				 "the haltpoll cpuidle governor ignores C-state restrictions and cannot be changed: %s",
				 why);
			return ret;
		}
		snprintf(note, notelen,
			 "the haltpoll cpuidle governor ignores C-state restrictions: using '%s' for this experiment",
			 honest[i]);
		return 0;
	}
	snprintf(err, errlen,
		 "the haltpoll cpuidle governor ignores C-state restrictions and no other governor is available (%s): remove 'cstates' or boot with cpuidle.governor=menu",
		 avail);
	return -ENOTSUP;
}

/* One state's disable flag, remembered for restoring first. */
static int set_flag(const struct wfw_cpuidle *ci, int cpu, int state,
		    bool disable, char *err, size_t errlen)
{
	char path[320], what[192], why[512];
	int ret;

	wfw_cpuidle_state_path(ci, state, "disable", path, sizeof(path));
	snprintf(what, sizeof(what), "C-state %s of CPU %d %s", ci->names[state],
		 cpu, disable ? "disabled" : "enabled");
	ret = change(path, disable ? "0" : "1", disable ? "1" : "0", what,
		     why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "cannot %s C-state %s of CPU %d: %s",
			 disable ? "disable" : "enable", ci->names[state], cpu, why);
	return ret;
}

/* Why C-states cannot be restricted on `cpu`, at the key that asks. */
static void no_cpuidle(const struct wfw_experiment *e, int cpu,
		       const char *sysfs_root, char *err, size_t errlen)
{
	char why[160];

	wfw_cpuidle_why_none(cpu, sysfs_root, why, sizeof(why));
	snprintf(err, errlen, "%s:%d: %s: %s, so C-states cannot be restricted on this machine: remove 'cstates' or measure on a machine with a cpuidle driver",
		 e->cstates_loc.file, e->cstates_loc.line, e->cstates_loc.key, why);
}

/* One CPU's flags as the experiment wants them; the changes remembered. */
static int apply_cpu(const struct wfw_experiment *e, int cpu,
		     const char *sysfs_root, char *err, size_t errlen)
{
	struct wfw_cpuidle ci;
	bool prev[WFW_CPUIDLE_MAX_STATES];
	int i, ret;

	ret = wfw_cpuidle_open(&ci, cpu, sysfs_root);
	if (ret) {
		no_cpuidle(e, cpu, sysfs_root, err, errlen);
		return ret;
	}
	for (i = 0; i < ci.nstates && !ret; i++) {
		ret = wfw_cpuidle_get_disable(&ci, i, &prev[i]);
		if (ret)
			snprintf(err, errlen, "cannot read state%d/disable of CPU %d: %s",
				 i, cpu, strerror(-ret));
	}
	for (i = 0; i < ci.nstates && !ret; i++) {
		bool in = listed(e, ci.names[i]);
		bool disable = e->cstate_mode == WFW_CSTATES_ONLY ? !in : in;

		if (disable != prev[i])
			ret = set_flag(&ci, cpu, i, disable, err, errlen);
	}
	wfw_cpuidle_close(&ci);
	return ret;
}

/* Every measured CPU's (one run per CPU or not), the governor first. */
int wfw_cstates_apply(const struct wfw_experiment *e, const char *sysfs_root,
		      char *note, size_t notelen, char *err, size_t errlen)
{
	size_t n = e->ncpus > 1 ? e->ncpus : 1;
	struct wfw_cpuidle ci;
	int ret;

	note[0] = '\0';
	if (e->cstate_mode == WFW_CSTATES_ANY)
		return 0;
	ret = wfw_cpuidle_open(&ci, e->cpu, sysfs_root);
	if (ret) {
		no_cpuidle(e, e->cpu, sysfs_root, err, errlen);
		return ret;
	}
	ret = fix_governor(ci.root, note, notelen, err, errlen);
	wfw_cpuidle_close(&ci);
	for (size_t i = 0; i < n && !ret; i++)
		ret = apply_cpu(e, e->ncpus > 1 ? e->cpus[i] : e->cpu, sysfs_root,
				err, errlen);
	if (ret)
		wfw_cstates_restore();
	return ret;
}
