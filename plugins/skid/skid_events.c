/* SPDX-License-Identifier: MIT */
/* perf event names, attributes and refusals: see skid_events.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

#include <suggest/suggest.h>

#include "skid_events.h"

struct skid_named {
	const char *name;
	uint32_t type;
	uint64_t config;
};

#define LLC_READ_MISS (PERF_COUNT_HW_CACHE_LL | \
		       (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
		       (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

static const struct skid_named named[] = {
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, LLC_READ_MISS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "breakpoint", PERF_TYPE_BREAKPOINT, 0 },
};
#define N_NAMED (sizeof(named) / sizeof(named[0]))

/* perf's raw syntax: "r" and 1-16 hex digits. */
static int parse_raw(const char *name, uint64_t *config)
{
	char *end;

	if (name[0] != 'r' || !isxdigit((unsigned char)name[1]) ||
	    strlen(name) > 17)
		return -EINVAL;
	*config = strtoull(name + 1, &end, 16);
	return *end ? -EINVAL : 0;
}

static const struct skid_named *find(const char *name)
{
	for (size_t i = 0; i < N_NAMED; i++)
		if (!strcmp(named[i].name, name))
			return &named[i];
	return NULL;
}

int skid_event_check(const char *name, char *err, size_t errlen)
{
	uint64_t config;

	const char *names[N_NAMED], *near;

	if (find(name) || !parse_raw(name, &config))
		return 0;
	for (size_t i = 0; i < N_NAMED; i++)
		names[i] = named[i].name;
	near = wfw_suggest(name, names, N_NAMED);	/* case-insensitive */
	if (near) {
		snprintf(err, errlen, "unknown event '%s'; did you mean '%s'?",
			 name, near);
		return -EINVAL;
	}
	snprintf(err, errlen, "unknown event '%s'; use one of cache-misses, LLC-load-misses, branch-misses, instructions, cpu-clock, breakpoint, or a raw code as perf writes it (r412e)",
		 name);
	return -EINVAL;
}

uint64_t skid_event_default_period(const char *name)
{
	const struct skid_named *n = find(name);

	if (n && n->type == PERF_TYPE_BREAKPOINT)
		return 1;		/* every access */
	if (n && n->type == PERF_TYPE_SOFTWARE)
		return 100000;		/* ns of cpu-clock: 10 kHz */
	return 10007;			/* prime: no lock-step with the loop */
}

int skid_event_attr(const char *name, uint64_t period, int precise,
		    uint64_t bp_addr, struct perf_event_attr *a)
{
	const struct skid_named *n = find(name);

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (n) {
		a->type = n->type;
		a->config = n->config;
	} else {
		uint64_t config;

		a->type = PERF_TYPE_RAW;
		if (parse_raw(name, &config))
			return -EINVAL;
		a->config = config;
	}
	if (a->type == PERF_TYPE_BREAKPOINT) {
		a->bp_type = HW_BREAKPOINT_RW;
		a->bp_addr = bp_addr;
		a->bp_len = HW_BREAKPOINT_LEN_1;
	}
	a->sample_period = period ? period : skid_event_default_period(name);
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	a->precise_ip = (unsigned)precise;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->wakeup_events = 64;
	return 0;
}

int skid_event_open(struct perf_event_attr *a, int tid)
{
	long fd = syscall(SYS_perf_event_open, a, tid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int skid_event_probe(const char *name, int precise, uint64_t bp_addr)
{
	struct perf_event_attr a;
	int fd;

	if (skid_event_attr(name, 0, precise, bp_addr, &a))
		return -EINVAL;
	fd = skid_event_open(&a, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* A core PMU ("cpu", or "cpu_core" on hybrid parts) is registered. */
static int have_cpu_pmu(const char *sysfs_root)
{
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[512];
	struct stat st;

	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s",
			 sysfs_root, pmus[i]);
		if (!stat(path, &st))
			return 1;
	}
	return 0;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

void skid_event_why(const char *name, int precise, int err,
		    const char *sysfs_root, char *buf, size_t len)
{
	const struct skid_named *n = find(name);
	int hw = !n || n->type == PERF_TYPE_HARDWARE ||
		 n->type == PERF_TYPE_HW_CACHE;

	if (err == -ENOENT && hw && !have_cpu_pmu(sysfs_root))
		snprintf(buf, len, "no hardware PMU: perf_event_open gives ENOENT and %s/bus/event_source/devices has no cpu PMU (a VM without a virtual PMU?)",
			 sysfs_root);
	else if (err == -ENOENT || err == -EINVAL)
		snprintf(buf, len, "the PMU does not know this event (perf_event_open: %s)",
			 strerror(-err));
	else if (err == -EOPNOTSUPP && precise)
		snprintf(buf, len, "precise_ip %d is not supported by this PMU (perf_event_open: EOPNOTSUPP)",
			 precise);
	else if (err == -EACCES || err == -EPERM)
		snprintf(buf, len, "not permitted (perf_event_paranoid is %d): run as root or lower /proc/sys/kernel/perf_event_paranoid",
			 paranoid());
	else
		snprintf(buf, len, "perf_event_open: %s", strerror(-err));
}

int skid_event_has_precise(const char *name)
{
	const struct skid_named *n = find(name);

	return !n || (n->type != PERF_TYPE_SOFTWARE &&
		      n->type != PERF_TYPE_BREAKPOINT);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The load the probe counts: reads of `watched` or this thread's CPU time. */
static volatile unsigned char watched;

static void known_load(uint32_t type)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

	if (type == PERF_TYPE_BREAKPOINT) {
		for (int i = 0; i < SKID_ALIVE_READS; i++)
			(void)watched;
		return;
	}
	/*
	 * 1 ms of spinning: cpu-clock counts any time on the CPU, and this
	 * thread is on it whenever it reads the clock (the vDSO's monotonic
	 * clock: the thread CPU clock is a system call, slow under a counter).
	 */
	while (clock_ns(CLOCK_MONOTONIC) - t0 < 1000000)
		;
}

int skid_event_alive(const char *name, char *buf, size_t len)
{
	const struct skid_named *n = find(name);
	struct perf_event_attr a;
	uint64_t count = 0;
	int fd, ok, err;

	if (skid_event_has_precise(name))
		return 1;
	skid_event_attr(name, 0, 0, (uint64_t)(uintptr_t)&watched, &a);
	a.sample_period = 0;	/* counting, not sampling */
	a.sample_type = 0;
	a.wakeup_events = 0;
	fd = skid_event_open(&a, 0);
	if (fd < 0)
		return fd;
	ok = !ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	known_load(n->type);
	ok = ok && !ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) &&
	     read(fd, &count, sizeof(count)) == (ssize_t)sizeof(count);
	err = errno;
	close(fd);
	if (!ok) {
		snprintf(buf, len, "%s events open but reading their count fails: %s",
			 name, strerror(err));
		return 0;
	}
	if (count)
		return 1;
	if (n->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, len, "breakpoint events open but never count on this machine: 0 of %d reads of a watched byte counted (a hypervisor that does not deliver debug exceptions?)",
			 SKID_ALIVE_READS);
	else
		snprintf(buf, len, "%s events open but never count on this machine: 0 over 1 ms of this thread spinning",
			 name);
	return 0;
}

/* "0-3", "0", "0,2": the levels set in mask. */
static void levels_text(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	if (mask == 0xf) {
		snprintf(buf, len, "0-3");
		return;
	}
	for (int l = 0; l < 4 && n < len; l++)
		if (mask & (1u << l))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", l);
}

/* The levels `name` opens at (a bit each), the reason in why if none. */
static unsigned offered_levels(const struct skid_named *n, uint64_t bp_addr,
			       const char *sysfs_root, char *why, size_t len)
{
	int top = skid_event_has_precise(n->name) ? 3 : 0, r = 0;
	unsigned mask = 0;

	for (int l = top; l >= 0; l--) {
		r = skid_event_probe(n->name, l, bp_addr);
		if (!r)
			mask |= 1u << l;
	}
	if (!mask) {
		skid_event_why(n->name, 0, r, sysfs_root, why, len);
		return 0;
	}
	r = skid_event_alive(n->name, why, len);
	if (r < 0)
		skid_event_why(n->name, 0, r, sysfs_root, why, len);
	return r > 0 ? mask : 0;
}

/* " cpu-clock", " cache-misses (precise 0-3)": one offered event. */
static size_t offered_one(const struct skid_named *n, unsigned mask,
			  char *buf, size_t len)
{
	char lv[16];

	if (!skid_event_has_precise(n->name))
		return (size_t)snprintf(buf, len, " %s", n->name);
	levels_text(mask, lv, sizeof(lv));
	return (size_t)snprintf(buf, len, " %s (precise %s)", n->name, lv);
}

void skid_event_offer(uint64_t bp_addr, const char *sysfs_root,
		      int with_refused, const char *said, char *buf,
		      size_t len)
{
	char why[N_NAMED][256];
	unsigned mask[N_NAMED];
	size_t n = 0, i, j;

	for (i = 0; i < N_NAMED; i++)
		mask[i] = offered_levels(&named[i], bp_addr, sysfs_root, why[i],
					 sizeof(why[i]));
	n += (size_t)snprintf(buf + n, len - n, "offered here:");
	for (i = 0, j = 0; i < N_NAMED && n < len; i++) {
		if (!mask[i])
			continue;
		if (j++ && n < len)
			n += (size_t)snprintf(buf + n, len - n, ",");
		if (n < len)
			n += offered_one(&named[i], mask[i], buf + n, len - n);
	}
	if (!j && n < len)
		n += (size_t)snprintf(buf + n, len - n, " none");
	if (!with_refused)
		return;
	/* Refused: the names, then the reason, once per run of equal reasons. */
	for (i = 0; i < N_NAMED && n < len; i++) {
		if (mask[i])
			continue;
		n += (size_t)snprintf(buf + n, len - n, "; refused: %s", named[i].name);
		for (j = i + 1; j < N_NAMED && (mask[j] || !strcmp(why[j], why[i])); j++)
			if (!mask[j] && n < len) {
				n += (size_t)snprintf(buf + n, len - n, ", %s", named[j].name);
				mask[j] = 0x10;	/* said */
			}
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, " (%s)",
					      said && !strcmp(said, why[i]) ?
					      "the same reason" : why[i]);
	}
}
