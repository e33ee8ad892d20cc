/* SPDX-License-Identifier: MIT */
/*
 * A report's results opened (located, read's first rows, info.yml, names
 * told apart) and the report directory written (report_prep.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/likeness.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "report/assets.h"
#include "report_load.h"
#include "report_prep.h"

/* The last part of a path, "dir/" included. */
static const char *path_base(const char *arg)
{
	const char *slash = strrchr(arg, '/');

	while (slash && !slash[1] && slash > arg) {	/* "dir/" */
		const char *p = slash - 1;

		while (p > arg && *p != '/')
			p--;
		return *p == '/' ? p + 1 : p;
	}
	return slash ? slash + 1 : arg;
}

/* The report id: --reportids' (or "ID/cpuN"), info.yml's reportid, or the argument. */
static const char *result_id(const struct rep_args *a, struct wfw_rep_result *r,
			     size_t i, char **owned)
{
	if (a->id[i])
		return a->id[i];
	*owned = wfw_infoyml_get(&r->info, "reportid");
	return *owned ? *owned : path_base(a->v[i]);
}

/*
 * Two results with one reportid (a filtered result keeps its original's;
 * two experiments' CPUs) would be told apart by nothing: the later one is
 * named by its path (a CPU's: "EXP/cpuN" as given, its last part is cpuN).
 */
static void unique_id(struct wfw_rep_result *res, size_t i, const struct rep_args *a)
{
	const char *alt = a->cpu[i] ? a->v[i] : path_base(a->v[i]);

	for (size_t k = 0; k < i; k++) {
		if (strcmp(res[k].id, res[i].id))
			continue;
		fprintf(stderr, "wultfw report: note: %s has the reportid '%s' of %s: shown as '%s' (--reportids names them)\n",
			res[i].path, res[i].id, res[k].path, alt);
		res[i].id = alt;
		return;
	}
}

/* A line per latency setting in which a result differs from the first. */
static void warn_unlike(const struct wfw_rep_result *res, size_t n)
{
	const char **files = calloc(n, sizeof(*files)), **names = calloc(n, sizeof(*names));

	for (size_t i = 0; files && names && i < n; i++) {
		files[i] = res[i].path;
		names[i] = res[i].id;
	}
	if (files && names)
		wfw_likeness_warn(stderr, "report", files, names, n);
	free(files);
	free(names);
}

int rep_open_all(const struct rep_args *a, struct wfw_rep_result *res,
		 struct wfw_reader **rd, char **owned)
{
	/* One pass: the selection follows the types learned as rows come. */
	struct wfw_reader_opts o = { .one_pass = true };
	char err[1024];
	int ret;

	for (size_t i = 0; i < a->n; i++) {
		struct wfw_rep_result *r = &res[i];

		ret = wfw_result_locate(a->v[i], r->path, sizeof(r->path), err,
					sizeof(err));
		if (!ret) {
			wfw_run_end_warn("report", r->path);
			ret = wfw_reader_open_opts(&rd[i], r->path, &o, err, sizeof(err));
		}
		/* A bad info.yml is ignored: wfw_run_end_warn() said so. */
		if (!ret && wfw_infoyml_read(&r->info, r->path) == -ENOMEM) {
			snprintf(err, sizeof(err), "out of memory");
			ret = -ENOMEM;
		}
		if (ret) {
			fprintf(stderr, "wultfw report: %s\n", err);
			return ret;
		}
		r->id = result_id(a, r, i, &owned[i]);
		unique_id(res, i, a);
		r->collectors = wfw_infoyml_get(&r->info, "collectors");
		r->source = wfw_infoyml_get(&r->info, "source");
		r->attrib_latency = wfw_infoyml_get(&r->info, "attrib_latency");
		r->attrib_smi = wfw_infoyml_get(&r->info, "attrib_smi");
		r->attrib_lost = wfw_infoyml_get(&r->info, "attrib_lost");
	}
	warn_unlike(res, a->n);
	return 0;
}

int rep_write(const struct rep_cli *c, const struct wfw_report *rep)
{
	char err[1024], path[PATH_MAX];
	FILE *f = NULL;
	int ret = wfw_report_prepare_dir(c->out, c->force, err, sizeof(err)), fd;

	if (!ret)
		ret = wfw_report_copy_assets(c->out, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw report: %s\n", err);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/data.js", c->out);
	/* 0644 less the umask, as the page beside it and every result file. */
	fd = wfw_report_create(c->out, "data.js", err, sizeof(err));
	if (fd >= 0 && !(f = fdopen(fd, "w"))) {
		snprintf(err, sizeof(err), "%s: %s", path, strerror(errno));
		close(fd);
	}
	if (!f) {
		fprintf(stderr, "wultfw report: %s\n", err);
		return -EIO;
	}
	ret = wfw_report_write_data(rep, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "wultfw report: writing %s: %s\n", path,
			strerror(-ret));
	return ret;
}
