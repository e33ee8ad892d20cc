/* SPDX-License-Identifier: MIT */
/*
 * Facts about the machine that decide a latency, for info.yml (and the
 * report's intro): what it is, what kernel, and how timekeeping,
 * isolation, RT throttling and THP are set up.
 */
#ifndef WFW_SYSSTATE_FACTS_H
#define WFW_SYSSTATE_FACTS_H

/* Gets each fact: its info.yml key and its value. */
typedef void (*wfw_fact_fn)(void *arg, const char *key, const char *value);

/*
 * Hand fn hostname, kernel (release and build), cpumodel (/proc/cpuinfo's
 * model name), cpuidle_driver ("none" without one), and the clocksource,
 * `cpu`'s clockevent and cpufreq governor, isolated and nohz_full CPUs,
 * THP, sched_rt_runtime_us and the kernel command line, sysfs below
 * sysfs_root (NULL: "/sys"). A fact that cannot be read is left out,
 * never guessed.
 */
void wfw_machine_facts(const char *sysfs_root, int cpu, wfw_fact_fn fn,
		       void *arg);

#endif
