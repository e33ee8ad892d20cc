/* SPDX-License-Identifier: MIT */
/*
 * calc --explain of an experiment of several CPUs (datafmt/percpu.h): the
 * attribution keys are in each CPU's info.yml, not the experiment's, and
 * the thread names in each CPU's attrib-threads.csv (pids are the
 * system's: one list serves them all).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_impl.h"
#include "datafmt/infoyml.h"
#include "datafmt/percpu.h"
#include "explain/threads.h"

/* key: 'value' (quotes doubled) onto f, if the value is there. */
static void put_key(FILE *f, const char *key, const char *val)
{
	if (!val)
		return;
	fprintf(f, "%s: '", key);
	for (const char *p = val; *p; p++) {
		if (*p == '\'')
			fputc('\'', f);
		fputc(*p, f);
	}
	fputs("'\n", f);
}

/*
 * The first CPU's attrib_latency and attrib_smi (one experiment: one
 * setting), the events lost summed over the CPUs, into text f.
 */
static int cpus_keys(const struct wfw_percpu *p, FILE *f)
{
	char *lat = NULL, *smi = NULL;
	uint64_t lost = 0;
	bool any_lost = false;

	for (size_t i = 0; i < p->n; i++) {
		struct wfw_infoyml y;
		char *l;
		int ret = wfw_infoyml_read(&y, p->file[i]);

		if (ret == -ENOMEM)
			return ret;
		if (ret)
			continue;	/* as for one result: a bad info.yml gives no keys */
		if (!lat)
			lat = wfw_infoyml_get(&y, "attrib_latency");
		if (!smi)
			smi = wfw_infoyml_get(&y, "attrib_smi");
		if ((l = wfw_infoyml_get(&y, "attrib_lost"))) {
			lost += strtoull(l, NULL, 10);
			any_lost = true;
			free(l);
		}
		wfw_infoyml_free(&y);
	}
	put_key(f, "attrib_latency", lat);
	put_key(f, "attrib_smi", smi);
	if (any_lost)
		fprintf(f, "attrib_lost: %" PRIu64 "\n", lost);
	free(lat);
	free(smi);
	return 0;
}

int explain_info_read(struct wfw_infoyml *y, const char *path)
{
	struct wfw_percpu p;
	char err[1024], *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!wfw_percpu_is_dir(path) || wfw_percpu_find(&p, path, err, sizeof(err)) || !p.n)
		return wfw_infoyml_read(y, path);
	f = open_memstream(&text, &len);
	ret = f ? cpus_keys(&p, f) : -ENOMEM;
	if (f && fclose(f) && !ret)
		ret = -ENOMEM;
	wfw_percpu_free(&p);
	if (!ret)
		ret = wfw_infoyml_parse(y, text, len);
	else
		memset(y, 0, sizeof(*y));
	free(text);
	return ret;
}

struct pidname {
	int64_t pid;
	char *comm;
};

static int cmp_pid(const void *a, const void *b)
{
	int64_t x = ((const struct pidname *)a)->pid, y = ((const struct pidname *)b)->pid;

	return (x > y) - (x < y);
}

/* u's threads into t (both emptied), sorted, each pid once. */
static int merge(struct wfw_xp_threads *t, struct wfw_xp_threads *u)
{
	size_t n = t->n + u->n, k = 0;
	struct pidname *e = malloc((n ? n : 1) * sizeof(*e));
	int64_t *pid = malloc((n ? n : 1) * sizeof(*pid));
	char **comm = malloc((n ? n : 1) * sizeof(*comm));

	if (!e || !pid || !comm) {
		free(e), free(pid), free(comm);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++)
		e[i] = (struct pidname){ t->pid[i], t->comm[i] };
	for (size_t i = 0; i < u->n; i++)
		e[t->n + i] = (struct pidname){ u->pid[i], u->comm[i] };
	if (n > 1)
		qsort(e, n, sizeof(*e), cmp_pid);
	for (size_t i = 0; i < n; i++) {
		if (k && pid[k - 1] == e[i].pid) {
			free(e[i].comm);
			continue;
		}
		pid[k] = e[i].pid;
		comm[k++] = e[i].comm;
	}
	free(t->pid), free(t->comm), free(u->pid), free(u->comm);
	memset(u, 0, sizeof(*u));
	*t = (struct wfw_xp_threads){ .pid = pid, .comm = comm, .n = k, .cap = k };
	free(e);
	return 0;
}

int explain_threads_read(struct xthreads *th, const char *path)
{
	struct wfw_percpu p;
	char err[1024];
	int ret = 0;

	if (!wfw_percpu_is_dir(path) || wfw_percpu_find(&p, path, err, sizeof(err)) || !p.n)
		return wfw_xp_threads_beside(&th->t, path, th->path, sizeof(th->path),
					     &th->found, th->err, sizeof(th->err));
	memset(&th->t, 0, sizeof(th->t));
	th->found = false;
	th->err[0] = '\0';
	for (size_t i = 0; i < p.n && !ret; i++) {
		struct wfw_xp_threads u;
		char upath[sizeof(th->path)], uerr[sizeof(th->err)];
		bool found;

		ret = wfw_xp_threads_beside(&u, p.file[i], upath, sizeof(upath), &found,
					    uerr, sizeof(uerr));
		if (!ret && found && !th->found)
			snprintf(th->path, sizeof(th->path), "%s", upath);
		th->found |= found;
		if (!ret && uerr[0] && !th->err[0])
			snprintf(th->err, sizeof(th->err), "%s", uerr);
		if (!ret)
			ret = merge(&th->t, &u);
		wfw_xp_threads_free(&u);
	}
	wfw_percpu_free(&p);
	return ret;
}
