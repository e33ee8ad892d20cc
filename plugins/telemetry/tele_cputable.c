/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "tele_cputable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TELE_MAX_CPUS 4096

/* CPU numbers of the header's columns; returns how many. */
static int tele_header_cpus(const char *buf, int *cpus)
{
	const char *p = buf;
	int n = 0;

	while (*p && *p != '\n' && n < TELE_MAX_CPUS) {
		int cpu, len;

		while (*p == ' ')
			p++;
		if (sscanf(p, "CPU%d%n", &cpu, &len) != 1)
			break;
		cpus[n++] = cpu;
		p += len;
	}
	return n;
}

/* The row called `key` (its text after "KEY:"), or NULL. */
static const char *tele_find_row(const char *buf, const char *key)
{
	const char *line = strchr(buf, '\n');
	size_t klen = strlen(key);

	while (line && *++line) {
		const char *p = line;

		while (*p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return p + klen + 1;
		line = strchr(line, '\n');
	}
	return NULL;
}

/* The counts at the start of a row, up to max; returns how many. */
static int tele_row_counts(const char *p, uint64_t *v, int max)
{
	int n = 0;

	while (n < max) {
		char *end;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n++] = strtoull(p, &end, 10);
		p = end;
	}
	return n;
}

int tele_cputable_list(const char *path, const char *prov, tele_add_fn add,
		       void *arg, char *why, size_t len)
{
	struct tele_snap s = { .gen = 0 };
	static int cpus[TELE_MAX_CPUS];
	uint64_t v[TELE_MAX_CPUS];
	char name[TELE_NAME_LEN];
	const char *line;
	int ret, ncpu;

	snprintf(s.path, sizeof(s.path), "%s", path);
	ret = tele_snap_read(&s, 1);
	if (ret) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(-ret));
		free(s.buf);
		return ret;
	}
	ncpu = tele_header_cpus(s.buf, cpus);
	for (line = strchr(s.buf, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		char key[64];
		int k, n;

		if (sscanf(line + 1, " %63[^: ]:", key) != 1)
			continue;
		n = tele_row_counts(tele_find_row(s.buf, key), v, ncpu);
		if (n < ncpu) {
			snprintf(name, sizeof(name), "%s:%s", prov, key);
			add(arg, name);
			continue;
		}
		for (k = 0; k < ncpu; k++) {
			snprintf(name, sizeof(name), "%s:%s:cpu%d", prov, key, cpus[k]);
			add(arg, name);
		}
	}
	free(s.buf);
	return 0;
}

int tele_cputable_open(const char *path, const char *id,
		       struct tele_counter *c, char *why, size_t len)
{
	int cpu = -1, n;

	n = sscanf(id, "%63[^:]:cpu%d", c->key, &cpu);
	if (n < 1 || (strchr(id, ':') && n != 2)) {
		snprintf(why, len, "'%s' is not KEY:cpuN or KEY", id);
		return -EINVAL;
	}
	c->col = cpu;		/* a CPU number until read() finds its column */
	c->bits = 32;		/* the kernel counts these in unsigned int */
	c->unit = "count";
	snprintf(c->snap->path, sizeof(c->snap->path), "%s", path);
	return 0;
}

int tele_cputable_read(struct tele_counter *c, uint64_t gen, uint64_t *raw)
{
	static _Thread_local int cpus[TELE_MAX_CPUS];
	static _Thread_local uint64_t v[TELE_MAX_CPUS];
	const char *row;
	int ret, ncpu, k, col = 0, n;

	ret = tele_snap_read(c->snap, gen);
	if (ret)
		return ret;
	row = tele_find_row(c->snap->buf, c->key);
	if (!row)
		return -ENOENT;
	ncpu = tele_header_cpus(c->snap->buf, cpus);
	if (c->col >= 0) {
		for (k = 0; k < ncpu && cpus[k] != c->col; k++)
			;
		if (k == ncpu)
			return -ENODEV;	/* the CPU went offline */
		col = k;
	}
	n = tele_row_counts(row, v, ncpu ? ncpu : 1);
	if (n <= col)
		return -EBADMSG;
	*raw = v[col];
	return 0;
}
