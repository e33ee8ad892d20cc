/* SPDX-License-Identifier: MIT */
/*
 * calc --mem-limit: a bound on calc's memory, so that many groups (-g)
 * end in an error naming the limit instead of the OOM killer or swap.
 * The kernel enforces it (RLIMIT_DATA: heap and private writable
 * mappings, not the file's pages mapped while reading), so every
 * allocation, whoever makes it, stays inside.
 */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "tools/calc.h"

/* The default: this share of MemAvailable, at least CALC_MEM_MIN_DEF. */
#define DEF_NUM 3
#define DEF_DEN 4
#define CALC_MEM_MIN_DEF (256ULL << 20)

int calc_mem_parse(const char *s, uint64_t *bytes)
{
	unsigned long long n;
	char *end;
	int shift = 0;

	if (!strcmp(s, "none")) {
		*bytes = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	}
	if (shift && !strcmp(end, "iB"))
		end += 2;
	else if (*end == 'B')
		end++;
	if (errno || *end)
		return -EINVAL;
	if (n > UINT64_MAX >> shift)
		return -ERANGE;
	*bytes = (uint64_t)n << shift;
	return 0;
}

/* The "KEY N kB" line of a /proc file (key with its ':'), in bytes; 0 if it does not say. */
static uint64_t proc_bytes(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	unsigned long long kib = 0;
	size_t n = strlen(key);
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n)) {
			kib = strtoull(line + n, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return kib > UINT64_MAX >> 10 ? 0 : (uint64_t)kib << 10;
}

uint64_t calc_mem_default(void)
{
	uint64_t avail = proc_bytes("/proc/meminfo", "MemAvailable:") / DEF_DEN * DEF_NUM;

	if (!avail)
		return 0;	/* unknown: no bound rather than a guess */
	return avail > CALC_MEM_MIN_DEF ? avail : CALC_MEM_MIN_DEF;
}

/*
 * The bound is on what calc takes from here on: the kernel also counts
 * what is mapped already (a sanitizer's shadow is terabytes of it).
 */
int calc_mem_apply(uint64_t bytes)
{
	/* What the kernel counts against RLIMIT_DATA already (VmData). */
	uint64_t base = proc_bytes("/proc/self/status", "VmData:");
	struct rlimit rl;

	if (!bytes || getrlimit(RLIMIT_DATA, &rl))
		return 0;
	bytes = bytes > UINT64_MAX - base ? UINT64_MAX : bytes + base;
	if (rl.rlim_max != RLIM_INFINITY && bytes > rl.rlim_max)
		bytes = rl.rlim_max;	/* a lower limit stays in force */
	if (rl.rlim_cur != RLIM_INFINITY && bytes > rl.rlim_cur)
		return 0;
	rl.rlim_cur = bytes;
	if (setrlimit(RLIMIT_DATA, &rl)) {
		fprintf(stderr, "wultfw calc: --mem-limit: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * Under a limit the user set, every thread takes memory from one arena:
 * when reading a file in parts runs out (each part keeps every group),
 * calc reads it again with one reader, and memory the parts' threads
 * freed into arenas of their own stays mapped there, counted against the
 * limit and out of the one reader's reach (1 M groups, -j 2 under 512M:
 * stopped at the limit; one arena: finished).
 */
void calc_mem_one_arena(void)
{
	mallopt(M_ARENA_MAX, 1);
}

void calc_mem_said(uint64_t bytes, bool given)
{
	fprintf(stderr, "wultfw calc: out of memory at the memory limit, %.0f MiB (%s): "
		"give a larger --mem-limit, or none\n", (double)bytes / (1 << 20),
		given ? "--mem-limit" : "by default 3/4 of MemAvailable");
}
