/* SPDX-License-Identifier: MIT */
/* telemetry provider "thermal": thermal zone temperatures (a gauge, m°C). */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tele_thermal_list(const struct tele_env *env, tele_add_fn add,
			     void *arg, char *why, size_t len)
{
	char dir[PATH_MAX], name[TELE_NAME_LEN], **zones;
	int n, i, zone, end, found = 0;

	snprintf(dir, sizeof(dir), "%s/class/thermal", env->sys);
	n = tele_list_dir(dir, &zones);
	for (i = 0; i < n; i++) {
		end = 0;
		if (sscanf(zones[i], "thermal_zone%d%n", &zone, &end) != 1 || zones[i][end])
			continue;
		snprintf(name, sizeof(name), "thermal:zone%d:temp", zone);
		add(arg, name);
		found++;
	}
	if (n > 0)
		tele_free_names(zones, n);
	if (found)
		return 0;
	snprintf(why, len, "no thermal zones (nothing like %s/thermal_zone0)", dir);
	return -ENOENT;
}

static int tele_thermal_open(const struct tele_env *env, const char *id,
			     struct tele_counter *c, char *why, size_t len)
{
	int zone, end = 0;

	if (sscanf(id, "zone%d:temp%n", &zone, &end) != 1 || !end || id[end]) {
		snprintf(why, len, "'%s' is not zoneN:temp", id);
		return -EINVAL;
	}
	c->unit = "mC";
	c->gauge = true;
	c->bits = 64;
	return tele_set_path(c, "%s/class/thermal/thermal_zone%d/temp", env->sys, zone);
}

/* Temperatures may be below zero: read signed, keep the bits. */
static int tele_thermal_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	char buf[32], *end;
	int ret = tele_read_small(c->path, buf, sizeof(buf));

	(void)gen;
	if (ret < 0)
		return ret;
	*raw = (uint64_t)strtoll(buf, &end, 10);
	return end == buf ? -EBADMSG : 0;
}

const struct tele_provider tele_thermal = {
	.name = "thermal",
	.ids = "zoneN:temp (thermal_zoneN, millidegrees Celsius)",
	.list = tele_thermal_list,
	.open = tele_thermal_open,
	.read = tele_thermal_read,
	.close = tele_close_nothing,
};
