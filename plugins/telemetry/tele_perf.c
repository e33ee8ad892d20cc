/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "perf": perf events in counting mode on one CPU,
 * named PMU/EVENT[:cpuN] as SYS/bus/event_source/devices names them
 * (msr/tsc, msr/smi, power/energy-pkg), plus the software events
 * (software/context-switches, ...). Without :cpuN, the first CPU of the
 * PMU's cpumask, or CPU 0. Opening system-wide events needs root (or
 * perf_event_paranoid <= 0).
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sysstate/sysfile.h>

struct tele_sw_event {
	const char *name;
	uint64_t config;
	const char *unit;
};

/* The software PMU lists no events in sysfs: these are perf's own names. */
static const struct tele_sw_event tele_sw_events[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK, "ns" },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, "count" },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS, "count" },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS, "count" },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN, "count" },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ, "count" },
};
#define TELE_N_SW (sizeof(tele_sw_events) / sizeof(tele_sw_events[0]))

#define TELE_PMU_DIR "%s/bus/event_source/devices/%s"

static int tele_perf_list(const struct tele_env *env, tele_add_fn add,
			  void *arg, char *why, size_t len)
{
	char dir[PATH_MAX], name[TELE_NAME_LEN], **pmus, **evs;
	int n, i, k, ne;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", env->sys);
	n = tele_list_dir(dir, &pmus);
	if (n < 0) {
		snprintf(why, len, "no perf events (cannot list %s: %s)", dir, strerror(-n));
		return n;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(pmus[i], "software"))
			for (k = 0; k < (int)TELE_N_SW; k++) {
				snprintf(name, sizeof(name), "perf:software/%s", tele_sw_events[k].name);
				add(arg, name);
			}
		snprintf(dir, sizeof(dir), TELE_PMU_DIR "/events", env->sys, pmus[i]);
		ne = tele_list_dir(dir, &evs);
		for (k = 0; k < ne; k++) {
			/* energy-pkg.scale, energy-pkg.unit: not events */
			if (strchr(evs[k], '.'))
				continue;
			snprintf(name, sizeof(name), "perf:%s/%s", pmus[i], evs[k]);
			add(arg, name);
		}
		if (ne > 0)
			tele_free_names(evs, ne);
	}
	tele_free_names(pmus, n);
	return 0;
}

/*
 * config from "event=0x02,umask=0x1": each term's value shifted to the
 * first bit its format file ("config:0-7") gives. Only `config` terms.
 */
static int tele_perf_config(const struct tele_env *env, const char *pmu,
			    char *terms, uint64_t *config)
{
	char path[PATH_MAX], fmt[64], *save = NULL, *t;

	*config = 0;
	for (t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		unsigned lo;

		if (!eq)
			return -EINVAL;
		*eq = '\0';
		snprintf(path, sizeof(path), TELE_PMU_DIR "/format/%s", env->sys, pmu, t);
		if (wfw_read_line(path, fmt, sizeof(fmt)) ||
		    sscanf(fmt, "config:%u", &lo) != 1 || lo > 63)
			return -EINVAL;
		*config |= strtoull(eq + 1, NULL, 0) << lo;
	}
	return 0;
}

static int tele_perf_cpu(const struct tele_env *env, const char *pmu)
{
	char path[PATH_MAX], mask[64];
	int cpu = 0;

	snprintf(path, sizeof(path), TELE_PMU_DIR "/cpumask", env->sys, pmu);
	if (!wfw_read_line(path, mask, sizeof(mask)))
		sscanf(mask, "%d", &cpu);
	return cpu;
}

/*
 * The unit a PMU gives for an event in EVENT.unit and EVENT.scale (RAPL:
 * energy-pkg counts 2.3283064365386962890625e-10 Joules each) as "SCALE
 * UNIT" in buf; the values stay raw counts, so the scale goes with them.
 */
static const char *tele_perf_unit(const struct tele_env *env, const char *pmu,
				  const char *ev, char *buf, size_t len)
{
	char path[PATH_MAX], unit[24], scale[36];

	snprintf(path, sizeof(path), TELE_PMU_DIR "/events/%s.unit", env->sys, pmu, ev);
	if (wfw_read_line(path, unit, sizeof(unit)) || !unit[0])
		return "count";
	snprintf(path, sizeof(path), TELE_PMU_DIR "/events/%s.scale", env->sys, pmu, ev);
	if (wfw_read_line(path, scale, sizeof(scale)) || !scale[0])
		snprintf(buf, len, "%s", unit);
	else
		snprintf(buf, len, "%s %s", scale, unit);
	return buf;
}

/* attr for PMU/EVENT; -errno with why. */
static int tele_perf_attr(const struct tele_env *env, const char *pmu,
			  const char *ev, struct perf_event_attr *a,
			  const char **unit, char *why, size_t len)
{
	char path[PATH_MAX], text[256];
	size_t k;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	*unit = "count";
	if (!strcmp(pmu, "software")) {
		for (k = 0; k < TELE_N_SW; k++)
			if (!strcmp(ev, tele_sw_events[k].name)) {
				a->type = PERF_TYPE_SOFTWARE;
				a->config = tele_sw_events[k].config;
				*unit = tele_sw_events[k].unit;
				return 0;
			}
		snprintf(why, len, "no software event '%s'", ev);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), TELE_PMU_DIR "/type", env->sys, pmu);
	if (wfw_read_line(path, text, sizeof(text)) || sscanf(text, "%u", &a->type) != 1) {
		snprintf(why, len, "no perf PMU '%s' (no %s)", pmu, path);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), TELE_PMU_DIR "/events/%s", env->sys, pmu, ev);
	if (wfw_read_line(path, text, sizeof(text))) {
		snprintf(why, len, "PMU '%s' has no event '%s' (no %s)", pmu, ev, path);
		return -ENOENT;
	}
	uint64_t config;

	if (tele_perf_config(env, pmu, text, &config)) {
		snprintf(why, len, "cannot make sense of %s", path);
		return -EINVAL;
	}
	a->config = config;
	return 0;
}

static int tele_perf_open(const struct tele_env *env, const char *id,
			  struct tele_counter *c, char *why, size_t len)
{
	char pmu[64], ev[64];
	struct perf_event_attr a;
	int cpu = -1, n, ret, end = 0;

	n = sscanf(id, "%63[^/]/%63[^:]%n:cpu%d", pmu, ev, &end, &cpu);
	if (n < 2 || (id[end] && n != 3)) {
		snprintf(why, len, "'%s' is not PMU/EVENT or PMU/EVENT:cpuN", id);
		return -EINVAL;
	}
	ret = tele_perf_attr(env, pmu, ev, &a, &c->unit, why, len);
	if (ret)
		return ret;
	if (a.type != PERF_TYPE_SOFTWARE)	/* key: free for perf, holds the text */
		c->unit = tele_perf_unit(env, pmu, ev, c->key, sizeof(c->key));
	if (cpu < 0)
		cpu = tele_perf_cpu(env, pmu);
	c->bits = 64;
	c->fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		ret = -errno;
		snprintf(why, len, "perf_event_open(%s/%s on CPU %d): %s%s", pmu, ev, cpu,
			 strerror(errno), errno == EACCES || errno == EPERM
			 ? " (needs root or kernel.perf_event_paranoid <= 0)" : "");
		return ret;
	}
	return 0;
}

static int tele_perf_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	ssize_t n = read(c->fd, raw, sizeof(*raw));

	(void)gen;
	if (n < 0)
		return -errno;
	return n == sizeof(*raw) ? 0 : -ENODEV;	/* 0 bytes: CPU went away */
}

static void tele_perf_close(struct tele_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

const struct tele_provider tele_perf = {
	.name = "perf",
	.ids = "PMU/EVENT[:cpuN] (msr/tsc, msr/smi, power/energy-pkg, software/context-switches, ...)",
	.list = tele_perf_list,
	.open = tele_perf_open,
	.read = tele_perf_read,
	.close = tele_perf_close,
};
