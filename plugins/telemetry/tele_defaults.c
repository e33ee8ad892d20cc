/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tele_defaults.h"
#include "tele_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Providers whose counters are per CPU and say which in their ID. */
static const char *const per_cpu_providers[] = {
	"interrupts", "softirqs", "cpuidle", "cpufreq", "stat", NULL,
};

static bool is_per_cpu_provider(const char *name)
{
	size_t len = strcspn(name, ":");

	for (size_t i = 0; per_cpu_providers[i]; i++)
		if (strlen(per_cpu_providers[i]) == len &&
		    !strncmp(per_cpu_providers[i], name, len))
			return true;
	return false;
}

/* Is "cpuN" one of name's colon-separated fields? */
static bool names_cpu(const char *name, int cpu)
{
	char field[24];
	int len = snprintf(field, sizeof(field), "cpu%d", cpu);

	for (const char *p = name; p; p = strchr(p, ':')) {
		p += *p == ':';
		if (!strncmp(p, field, (size_t)len) && (p[len] == ':' || !p[len]))
			return true;
	}
	return false;
}

static void keep(void *arg, const char *name)
{
	struct tele_defaults *d = arg;

	if (d->failed || !is_per_cpu_provider(name) || !names_cpu(name, d->cpu))
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		char **v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->failed = true;
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n] = strdup(name);
	if (d->v[d->n])
		d->n++;
	else
		d->failed = true;
}

/* A provider this machine lacks (no cpufreq driver): not in the defaults. */
static void skip_missing(void *arg, const char *prov, const char *why)
{
	(void)arg;
	(void)prov;
	(void)why;
}

int tele_defaults_list(struct tele_defaults *d, const struct tele_env *env, int cpu)
{
	memset(d, 0, sizeof(*d));
	d->cpu = cpu;
	tele_set_offered(env, keep, skip_missing, d);
	return d->failed ? -ENOMEM : 0;
}

void tele_defaults_free(struct tele_defaults *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
