/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "timer_health.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int timer_proc_idle_ns(const char *path, int cpu, uint64_t *ns)
{
	char line[512], want[32];
	unsigned long long v[5];
	long hz = sysconf(_SC_CLK_TCK);
	int ret = -ENOENT;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, want, strlen(want)))
			continue;
		/* user nice system idle iowait */
		ret = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu",
			     &v[0], &v[1], &v[2], &v[3], &v[4]) == 5 ? 0 : -EINVAL;
		break;
	}
	fclose(f);
	if (!ret)
		*ns = (uint64_t)(v[3] + v[4]) * (1000000000ULL / (uint64_t)(hz > 0 ? hz : 100));
	return ret;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0;
}

bool timer_idle_warn(const struct timer_idle_in *in, char *buf, size_t len)
{
	if (in->slept_ns < TIMER_IDLE_MIN_SLEPT_NS ||
	    in->idle_ns * 100 >= in->slept_ns * TIMER_IDLE_MIN_PCT)
		return false;
	snprintf(buf, len,
		 "CPU %d was idle for %.0f%% of the run (/proc/stat idle+iowait) while the measuring thread slept for %.0f%% of it: other tasks ran on it during the sleeps, so these are wake-ups of a busy CPU (scheduling latency), not exits from C-states; measure on a CPU nothing else runs on (isolcpus, or stop the other tasks)",
		 in->cpu, pct(in->idle_ns, in->wall_ns),
		 pct(in->slept_ns, in->wall_ns));
	return true;
}

bool timer_ldist_warn(uint64_t ldist_from_ns, int priority, char *buf,
		      size_t len)
{
	if (ldist_from_ns >= TIMER_MIN_LDIST_NS)
		return false;
	snprintf(buf, len,
		 "launch distances from %" PRIu64 " ns, below %d us: the loop's own cost per sleep (its work before and after it, the clock_nanosleep() call, arming the timer: 1-2 us) is a sizeable part of each, and the CPU hardly goes idle: WakeLatency is then mostly syscall latency, not a wake from idle%s; use ldist >= %d us",
		 ldist_from_ns, TIMER_MIN_LDIST_NS / 1000,
		 priority ? "; at SCHED_FIFO the thread also keeps the CPU from every other task until RT throttling stops it (up to tens of ms, which then shows as WakeLatency)" : "",
		 TIMER_MIN_LDIST_NS / 1000);
	return true;
}

bool timer_cost_warn(uint64_t pre_ns, uint64_t post_ns, uint64_t mean_ldist_ns,
		     char *buf, size_t len)
{
	if ((pre_ns + post_ns) * 100 <= mean_ldist_ns * TIMER_COST_MAX_PCT)
		return false;
	snprintf(buf, len,
		 "the loop's own work per sleep (%" PRIu64 " ns before, %" PRIu64 " ns after it) is %.0f%% of the mean launch distance (%" PRIu64 " ns): the measured CPU was busy with the measurement itself; use longer launch distances",
		 pre_ns, post_ns, pct(pre_ns + post_ns, mean_ldist_ns),
		 mean_ldist_ns);
	return true;
}

static int read_i64(const char *dir, const char *name, int64_t *v)
{
	char path[512];
	long long x;
	int ret;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ret = fscanf(f, "%lld", &x) == 1 ? 0 : -EINVAL;
	fclose(f);
	if (!ret)
		*v = x;
	return ret;
}

int timer_read_rt_limits(const char *dir, int64_t *runtime_us,
			 int64_t *period_us)
{
	int ret = read_i64(dir, "sched_rt_runtime_us", runtime_us);

	return ret ? ret : read_i64(dir, "sched_rt_period_us", period_us);
}

/*
 * Throttling stops RT tasks of a CPU once they ran runtime_us within one
 * period_us. Observable from here: the thread's CPU share came near that
 * limit (within 10%: a throttled thread is held just at it) and it ran
 * for at least one runtime_us in all, else no period could fill.
 */
bool timer_rt_warn(const struct timer_rt_in *in, char *buf, size_t len)
{
	double share, limit;

	if (!in->priority || in->runtime_us < 0 || in->period_us <= 0 ||
	    !in->wall_ns || in->cpu_ns < (uint64_t)in->runtime_us * 1000)
		return false;
	share = pct(in->cpu_ns, in->wall_ns);
	limit = pct((uint64_t)in->runtime_us, (uint64_t)in->period_us);
	if (share < limit * 0.9)
		return false;
	snprintf(buf, len,
		 "the SCHED_FIFO %d measuring thread kept its CPU busy %.0f%% of the run (%.1f s), near the RT limit of %.0f%% (sched_rt_runtime_us %" PRId64 " of sched_rt_period_us %" PRId64 "): the kernel has likely throttled it (dmesg: \"RT throttling activated\"), stopping it for up to %" PRId64 " ms per period, which shows as WakeLatency; the thread never slept long enough: use longer launch distances",
		 in->priority, share, (double)in->cpu_ns / 1e9, limit,
		 in->runtime_us, in->period_us,
		 (in->period_us - in->runtime_us) / 1000);
	return true;
}
