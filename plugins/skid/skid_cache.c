/* SPDX-License-Identifier: MIT */
/* The largest cache of a CPU: see skid_cache.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <sysstate/sysfile.h>

#include "skid_cache.h"

/* "32768K", "512K", "2M" as sysfs cache/indexN/size writes them. */
static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return v;
}

static uint64_t from_sysfs(const char *sysfs_root, int cpu)
{
	uint64_t best = 0;
	char path[512], line[64];

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/cache/index%d/size",
			 sysfs_root, cpu, i);
		if (!wfw_read_line(path, line, sizeof(line)) && parse_size(line) > best)
			best = parse_size(line);
	}
	return best;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * Leaf 4 (Intel) and 0x8000001d (AMD, Hygon) share a layout: per subleaf
 * one cache, type in EAX[4:0] (0: no more), ways, partitions and line
 * size in EBX, sets in ECX, each minus one. The CPU we run on answers;
 * the caches of an x86 machine's CPUs are alike, as the kernel assumes
 * too.
 */
static uint64_t cache_leaves(unsigned leaf)
{
	unsigned a, b, c, d;
	uint64_t best = 0;

	for (unsigned i = 0; i < 16; i++) {
		uint64_t size;

		__cpuid_count(leaf, i, a, b, c, d);
		if (!(a & 0x1f))
			break;
		if ((a & 0x1f) == 2)
			continue;	/* instructions only */
		size = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
		       ((b & 0xfff) + 1) * ((uint64_t)c + 1);
		if (size > best)
			best = size;
	}
	return best;
}

static uint64_t real_cpuid(const char **leaf)
{
	unsigned a, b, c, d, max;

	if (!__get_cpuid(0, &max, &b, &c, &d)) {
		*leaf = "CPUID (none)";
		return 0;
	}
	/* "AuthenticAMD" / "HygonGenuine": EBX holds the first 4 letters. */
	if (b == 0x68747541 || b == 0x6f677948) {
		*leaf = "CPUID leaf 0x8000001d";
		if (__get_cpuid_max(0x80000000, NULL) < 0x8000001d ||
		    !__get_cpuid(0x80000001, &a, &b, &c, &d) ||
		    !(c & (1u << 22)))	/* TOPOEXT: the leaf is there */
			return 0;
		return cache_leaves(0x8000001d);
	}
	*leaf = "CPUID leaf 4";
	return max >= 4 ? cache_leaves(4) : 0;
}
#else
static uint64_t real_cpuid(const char **leaf)
{
	*leaf = "CPUID (not x86)";
	return 0;
}
#endif

const struct skid_cache_ask skid_cache_real = {
	.cpuid = real_cpuid,
	.sysconf = sysconf,
};

uint64_t skid_cache_size(const char *sysfs_root, int cpu,
			 const struct skid_cache_ask *ask, char *from,
			 size_t fromlen, char *err, size_t errlen)
{
	static const struct { int name; const char *text; } levels[] = {
		{ _SC_LEVEL3_CACHE_SIZE, "_SC_LEVEL3_CACHE_SIZE" },
		{ _SC_LEVEL2_CACHE_SIZE, "_SC_LEVEL2_CACHE_SIZE" },
		{ _SC_LEVEL1_DCACHE_SIZE, "_SC_LEVEL1_DCACHE_SIZE" },
	};
	const char *leaf = "CPUID";
	uint64_t size = from_sysfs(sysfs_root, cpu);

	if (size) {
		snprintf(from, fromlen, "sysfs %s/devices/system/cpu/cpu%d/cache/",
			 sysfs_root, cpu);
		return size;
	}
	size = ask->cpuid(&leaf);
	if (size) {
		snprintf(from, fromlen, "%s", leaf);
		return size;
	}
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		long v = ask->sysconf(levels[i].name);

		if (v > 0) {
			snprintf(from, fromlen, "sysconf(%s)", levels[i].text);
			return (uint64_t)v;
		}
	}
	snprintf(err, errlen, "no cache size known: none in %s/devices/system/cpu/cpu%d/cache/, %s describes no cache, sysconf(_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL1_DCACHE_SIZE) gives none: set buffer_size",
		 sysfs_root, cpu, leaf);
	return 0;
}
