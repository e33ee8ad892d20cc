/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "aer": PCIe Advanced Error Reporting counters, from
 * SYS/bus/pci/devices/BDF/aer_dev_{correctable,fatal,nonfatal} ("RxErr 0"
 * lines). A counter is BDF:KIND:FIELD, e.g. 0000:00:1c.0:correctable:RxErr.
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tele_aer_kinds[] = { "correctable", "fatal", "nonfatal" };

static void tele_aer_list_dev(const struct tele_env *env, const char *bdf,
			      tele_add_fn add, void *arg, int *found)
{
	char path[PATH_MAX], buf[4096], name[TELE_NAME_LEN], field[64];
	const char *line;
	size_t k;

	for (k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/aer_dev_%s",
			 env->sys, bdf, tele_aer_kinds[k]);
		if (tele_read_small(path, buf, sizeof(buf)) < 0)
			continue;
		(*found)++;
		for (line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
			if (sscanf(line, "%63s", field) == 1) {
				snprintf(name, sizeof(name), "aer:%s:%s:%s", bdf, tele_aer_kinds[k], field);
				add(arg, name);
			}
	}
}

static int tele_aer_list(const struct tele_env *env, tele_add_fn add,
			 void *arg, char *why, size_t len)
{
	char dir[PATH_MAX], **devs;
	int n, i, found = 0;

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", env->sys);
	n = tele_list_dir(dir, &devs);
	for (i = 0; i < n; i++)
		tele_aer_list_dev(env, devs[i], add, arg, &found);
	if (n > 0)
		tele_free_names(devs, n);
	if (found)
		return 0;
	snprintf(why, len, "no PCIe device reports AER (no %s/*/aer_dev_correctable)", dir);
	return -ENOENT;
}

static int tele_aer_open(const struct tele_env *env, const char *id,
			 struct tele_counter *c, char *why, size_t len)
{
	const char *field = strrchr(id, ':'), *kind;
	size_t k;

	for (kind = field; kind && kind > id && kind[-1] != ':'; kind--)
		;
	if (!field || !kind || kind - 1 <= id || !field[1] || strchr(id, '/'))
		goto bad;
	for (k = 0; k < 3; k++)
		if (!strncmp(kind, tele_aer_kinds[k], (size_t)(field - kind)) &&
		    strlen(tele_aer_kinds[k]) == (size_t)(field - kind))
			break;
	if (k == 3 || strlen(field + 1) >= sizeof(c->key))
		goto bad;
	snprintf(c->key, sizeof(c->key), "%s", field + 1);
	c->unit = "errors";
	c->bits = 64;
	return tele_set_path(c, "%s/bus/pci/devices/%.*s/aer_dev_%s", env->sys,
			     (int)(kind - 1 - id), id, tele_aer_kinds[k]);
bad:
	snprintf(why, len, "'%s' is not BDF:correctable|fatal|nonfatal:FIELD", id);
	return -EINVAL;
}

static int tele_aer_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	char buf[4096], *end;
	size_t klen = strlen(c->key);
	const char *line;
	int ret = tele_read_small(c->path, buf, sizeof(buf));

	(void)gen;
	if (ret < 0)
		return ret;
	for (line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncmp(line, c->key, klen) && line[klen] == ' ') {
			*raw = strtoull(line + klen + 1, &end, 10);
			return end == line + klen + 1 ? -EBADMSG : 0;
		}
	return -ENOENT;
}

const struct tele_provider tele_aer = {
	.name = "aer",
	.ids = "BDF:KIND:FIELD (KIND correctable, fatal or nonfatal; FIELD as aer_dev_KIND names it: RxErr, TOTAL_ERR_COR, ...)",
	.list = tele_aer_list,
	.open = tele_aer_open,
	.read = tele_aer_read,
	.close = tele_close_nothing,
};
