/* SPDX-License-Identifier: MIT */
/* telemetry: every provider, in the order `wultfw help telemetry` lists them. */
#include "config.h"

#include "tele_provider.h"

extern const struct tele_provider tele_interrupts, tele_softirqs,
	tele_cpuidle, tele_cpufreq, tele_stat, tele_net, tele_rtnl,
	tele_ethtool, tele_aer, tele_perf, tele_thermal;

const struct tele_provider *const tele_providers[] = {
	&tele_interrupts, &tele_softirqs, &tele_cpuidle, &tele_cpufreq,
	&tele_stat, &tele_net, &tele_rtnl, &tele_ethtool, &tele_aer,
	&tele_perf, &tele_thermal,
};

const size_t tele_n_providers = sizeof(tele_providers) / sizeof(tele_providers[0]);
