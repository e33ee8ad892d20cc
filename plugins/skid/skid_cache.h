/* SPDX-License-Identifier: MIT */
/*
 * The largest cache of the measured CPU, for the default buffer size:
 * from sysfs (cpuN/cache/index*), else CPUID's cache description leaves
 * (what the kernel builds sysfs from), else the C library's sysconf. Some
 * guests have no cpuN/cache/ directory while the CPU still answers.
 */
#ifndef SKID_CACHE_H
#define SKID_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* Where to ask besides sysfs: the real ones, or a test's fakes. */
struct skid_cache_ask {
	/*
	 * The largest data or unified cache CPUID's cache leaves describe,
	 * in bytes, and the leaf's name in *leaf; 0 (and *leaf what was
	 * asked) when there are none.
	 */
	uint64_t (*cpuid)(const char **leaf);
	long (*sysconf)(int name);
};

extern const struct skid_cache_ask skid_cache_real;

/*
 * The largest cache of `cpu` in bytes, and where it came from in `from`
 * ("sysfs /sys/devices/system/cpu/cpu1/cache/", "CPUID leaf 0x8000001d",
 * "sysconf(_SC_LEVEL3_CACHE_SIZE)"). 0 when nothing knows, with every
 * place that was asked in err.
 */
uint64_t skid_cache_size(const char *sysfs_root, int cpu,
			 const struct skid_cache_ask *ask, char *from,
			 size_t fromlen, char *err, size_t errlen);

#endif
