/* SPDX-License-Identifier: MIT */
/*
 * telemetry provider "stat": /proc/stat's CPU times (cpu:FIELD for all
 * CPUs, cpuN:FIELD for one, in USER_HZ ticks) and its counts (ctxt, intr,
 * processes).
 */
#include "config.h"

#include "tele_provider.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tele_stat_fields[] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq",
	"steal", "guest", "guest_nice",
};
#define TELE_STAT_NFIELDS (sizeof(tele_stat_fields) / sizeof(tele_stat_fields[0]))
static const char *const tele_stat_counts[] = { "ctxt", "intr", "processes" };

/* The line of /proc/stat whose first word is `key` (after it), or NULL. */
static const char *tele_stat_row(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	const char *line = buf;

	while (line) {
		if (!strncmp(line, key, klen) && line[klen] == ' ')
			return line + klen;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

static int tele_stat_list(const struct tele_env *env, tele_add_fn add,
			  void *arg, char *why, size_t len)
{
	struct tele_snap s = { .gen = 0 };
	char name[TELE_NAME_LEN], key[32];
	const char *line;
	size_t f;
	int ret;

	snprintf(s.path, sizeof(s.path), "%s/stat", env->proc);
	ret = tele_snap_read(&s, 1);
	if (ret) {
		snprintf(why, len, "cannot read %s: %s", s.path, strerror(-ret));
		free(s.buf);
		return ret;
	}
	for (line = s.buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (sscanf(line, "%31s", key) != 1 || strncmp(key, "cpu", 3))
			continue;
		for (f = 0; f < TELE_STAT_NFIELDS; f++) {
			snprintf(name, sizeof(name), "stat:%s:%s", key, tele_stat_fields[f]);
			add(arg, name);
		}
	}
	for (f = 0; f < 3; f++)
		if (tele_stat_row(s.buf, tele_stat_counts[f])) {
			snprintf(name, sizeof(name), "stat:%s", tele_stat_counts[f]);
			add(arg, name);
		}
	free(s.buf);
	return 0;
}

static int tele_stat_open(const struct tele_env *env, const char *id,
			  struct tele_counter *c, char *why, size_t len)
{
	const char *colon = strchr(id, ':');
	size_t f;

	c->bits = 64;
	snprintf(c->snap->path, sizeof(c->snap->path), "%s/stat", env->proc);
	for (f = 0; !colon && f < 3; f++)
		if (!strcmp(id, tele_stat_counts[f])) {
			snprintf(c->key, sizeof(c->key), "%s", id);
			c->col = 0;
			c->unit = "count";
			return 0;
		}
	for (f = 0; colon && f < TELE_STAT_NFIELDS; f++)
		if (!strcmp(colon + 1, tele_stat_fields[f]) && !strncmp(id, "cpu", 3) &&
		    (size_t)(colon - id) < sizeof(c->key)) {
			snprintf(c->key, sizeof(c->key), "%.*s", (int)(colon - id), id);
			c->col = (int)f;
			c->unit = "ticks";
			return 0;
		}
	snprintf(why, len, "'%s' is not cpu:FIELD, cpuN:FIELD, ctxt, intr or processes", id);
	return -EINVAL;
}

static int tele_stat_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	const char *p;
	char *end;
	int ret = tele_snap_read(c->snap, gen), k;

	if (ret)
		return ret;
	p = tele_stat_row(c->snap->buf, c->key);
	if (!p)
		return -ENOENT;		/* the CPU went offline */
	for (k = 0; k <= c->col; k++) {
		*raw = strtoull(p, &end, 10);
		if (end == p)
			return -EBADMSG;
		p = end;
	}
	return 0;
}

const struct tele_provider tele_stat = {
	.name = "stat",
	.ids = "cpu:FIELD or cpuN:FIELD (user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice; USER_HZ ticks), ctxt, intr, processes",
	.list = tele_stat_list,
	.open = tele_stat_open,
	.read = tele_stat_read,
	.close = tele_close_nothing,
};
