/* SPDX-License-Identifier: MIT */
/*
 * calc --explain of an experiment of several CPUs (datafmt/percpu.h): the
 * attribution keys are in each CPU's info.yml, not the experiment's.
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
