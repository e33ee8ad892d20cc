/* SPDX-License-Identifier: MIT */
/*
 * The experiment file read (its errors at file:line), the command line's
 * settings written over it, then each experiment parsed (experiment.c),
 * checked as a whole (the files its sinks write, the columns they name)
 * and bound to this machine (bind.c).
 */
#include "config.h"

#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <suggest/suggest.h>

#include "bigint.h"
#include "bind.h"
#include "cfgsyntax.h"
#include "default_experiment.h"
#include "filehint.h"
#include "outfiles.h"
#include "sinkcols.h"

extern const char *wfw_cfg_main_file;

static const char *const top_keys[] = {
	"outdir", "source", "limits", "sinks", "cstates", "seed", "collect", "annotate",
	"experiments", "name", "hosts", "sut_wultfw", "housekeeping",
	"include", "exclude", "keep_filtered", NULL	/* core/datasel.c */
};
/* One experiment: parsed, checked as a whole, bound to the machine. */
static void load_experiment(struct wfw_experiment *e, const config_setting_t *exp,
			    const config_setting_t *top, const char *path,
			    const struct wfw_plan_overrides *ov,
			    struct wfw_cfgerr *errs)
{
	wfw_experiment_parse(e, exp, top, path, ov, errs);
	wfw_outfiles_check(e, errs);
	wfw_sinkcols_check(e, errs);
	wfw_bind_experiment(e, ov ? ov->sysfs_root : NULL, errs);
}

/* Keep only experiment `only`; an unknown name is an error with a hint. */
static void select_only(struct wfw_plan *plan, const char *only,
			struct wfw_cfgerr *errs)
{
	const char *names[256];
	size_t i, keep = plan->n;

	for (i = 0; i < plan->n && i < 256; i++) {
		names[i] = plan->exps[i].name ? plan->exps[i].name : "";
		if (!strcmp(names[i], only))
			keep = i;
	}
	if (keep == plan->n) {
		const char *hint = wfw_suggest(only, names, i);

		/* A command-line error: no line of the file to point at. */
		wfw_cfgerr_add(errs, "", 0, NULL,
			       "--only %s: no experiment of that name in %s%s%s%s", only,
			       plan->file, hint ? " (did you mean \"" : "", hint ? hint : "",
			       hint ? "\"?)" : "");
		return;
	}
	for (i = 0; i < plan->n; i++)
		if (i != keep)
			wfw_experiment_free(&plan->exps[i]);
	plan->exps[0] = plan->exps[keep];
	plan->n = 1;
}

static void check_unique_names(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	const config_setting_t *list =
		config_setting_get_member(config_root_setting(&plan->cfg), "experiments");
	size_t i, j;

	for (i = 0; i < plan->n; i++)
		for (j = 0; j < i; j++)
			if (plan->exps[i].name && plan->exps[j].name &&
			    !strcmp(plan->exps[i].name, plan->exps[j].name) &&
			    !strcmp(plan->exps[i].outdir, plan->exps[j].outdir)) {
				const config_setting_t *exp = list ?
					config_setting_get_elem(list, (unsigned)i) : NULL;
				const config_setting_t *name = exp ?
					config_setting_get_member(exp, "name") : NULL;
				char key[64];

				snprintf(key, sizeof(key), "experiments[%zu].name", i);
				wfw_cfgerr_at(errs, name, key,
					      "another experiment is named \"%s\" too: they would share one result directory",
					      plan->exps[i].name);
			}
}

/* The embedded default runs again and again: date its result directory. */
static void date_names(struct wfw_plan *plan)
{
	char stamp[32], *name;
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (i = 0; i < plan->n; i++) {
		if (!plan->exps[i].name)
			continue;
		name = malloc(strlen(plan->exps[i].name) + strlen(stamp) + 2);
		if (!name)
			continue;
		sprintf(name, "%s-%s", plan->exps[i].name, stamp);
		free(plan->exps[i].name);
		plan->exps[i].name = name;
	}
}

/* Read `file` (NULL: the embedded default) into plan->cfg. */
static int read_plan(struct wfw_plan *plan, const char *file,
		     struct wfw_cfgerr *errs)
{
	char dir[256], *slash;
	struct stat st;

	if (!file)
		return config_read_string(&plan->cfg, wfw_default_experiment) ? 0 : -EINVAL;
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "is a directory: give an experiment file (examples/ has some)");
		return -EISDIR;
	}
	if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "the experiment file is empty (examples/ has some to start from)");
		return -ENODATA;
	}
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		config_set_include_dir(&plan->cfg, dir);
	}
	return config_read_file(&plan->cfg, file) ? 0 : -EINVAL;
}

/* An @include that names no file: which, where it was looked for, a hint. */
static bool include_error(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	const char *file = config_error_file(&plan->cfg), *text = config_error_text(&plan->cfg);
	int line = config_error_line(&plan->cfg);
	char name[512], path[1024], hint[4096] = "", *slash;

	file = file ? file : plan->file;
	if (!text || strcmp(text, "cannot open include file") ||
	    !wfw_include_name(file, line, name, sizeof(name)))
		return false;
	/* libconfig looks beside the experiment file (its include dir). */
	slash = strrchr(plan->file, '/');
	snprintf(path, sizeof(path), "%.*s%s", slash ? (int)(slash - plan->file + 1) : 0,
		 plan->file, name);
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	if (access(path, F_OK) && !wfw_file_hint(path, hint, sizeof(hint)))
		hint[0] = '\0';
	if (!access(path, F_OK))
		wfw_cfgerr_add(errs, file, line, NULL, "@include \"%s\": cannot read %s: %s",
			       name, path, strerror(access(path, R_OK) ? errno : EISDIR));
	else
		wfw_cfgerr_add(errs, file, line, NULL, "@include \"%s\": no such file %s%s%s%s",
			       name, path, *hint ? " (did you mean '" : "", hint,
			       *hint ? "'?)" : "");
	return true;
}

/* libconfig's "syntax error" and line, made into what is expected there. */
static void syntax_error(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	const char *file = config_error_file(&plan->cfg);
	int line = config_error_line(&plan->cfg);
	char msg[512];

	file = file ? file : plan->file;
	wfw_cfg_syntax_hint(file, &line, config_error_text(&plan->cfg), msg, sizeof(msg));
	wfw_cfgerr_add(errs, file, line, NULL, "%s", msg);
}

static void read_error(struct wfw_plan *plan, struct wfw_cfgerr *errs)
{
	char hint[4096];
	int err = errno ? errno : ENOENT;

	if (config_error_type(&plan->cfg) == CONFIG_ERR_FILE_IO && err == ENOENT &&
	    !strcmp(plan->file, "-"))
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "an experiment is read from a file, not from standard input: save it and give its path (or ./- for a file named '-')");
	else if (config_error_type(&plan->cfg) == CONFIG_ERR_FILE_IO && err == ENOENT &&
		 wfw_file_hint(plan->file, hint, sizeof(hint)))
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "no such file (did you mean '%s'?)", hint);
	else if (config_error_type(&plan->cfg) == CONFIG_ERR_FILE_IO)
		wfw_cfgerr_add(errs, plan->file, 0, NULL,
			       "cannot read the experiment file: %s", strerror(err));
	else if (include_error(plan, errs))
		return;
	else
		syntax_error(plan, errs);
}

/* Does every experiment name its sinks (or the top level for all)? */
static bool sinks_everywhere(const config_setting_t *top)
{
	const config_setting_t *list = config_setting_get_member(top, "experiments");
	int i, n;

	if (config_setting_get_member(top, "sinks"))
		return true;
	if (!list || config_setting_type(list) != CONFIG_TYPE_LIST)
		return false;
	n = config_setting_length(list);
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);

		if (config_setting_is_group(e) && !config_setting_get_member(e, "sinks"))
			return false;
	}
	return true;
}

/*
 * No sinks named: datapoints.csv, as wult writes it, so a short file
 * (a source and its limits) measures; sinks = ( ) stays an error.
 */
static void default_sinks(struct wfw_plan *plan)
{
	config_setting_t *top = config_root_setting(&plan->cfg), *list, *g, *p;

	if (sinks_everywhere(top))
		return;
	list = config_setting_add(top, "sinks", CONFIG_TYPE_LIST);
	g = list ? config_setting_add(list, NULL, CONFIG_TYPE_GROUP) : NULL;
	p = g ? config_setting_add(g, "plugin", CONFIG_TYPE_STRING) : NULL;
	if (p)
		config_setting_set_string(p, "csv");
}

/* `experiments = ( ... )`, or the top level as the one experiment. */
static int parse_experiments(struct wfw_plan *plan,
			     const struct wfw_plan_overrides *ov,
			     struct wfw_cfgerr *errs)
{
	const config_setting_t *top = config_root_setting(&plan->cfg);
	const config_setting_t *list = config_setting_get_member(top, "experiments");
	int i, n;

	wfw_cfgerr_keys(errs, top, "", top_keys);
	if (list && config_setting_type(list) != CONFIG_TYPE_LIST) {
		wfw_cfgerr_at(errs, list, "experiments",
			      "expected a list of groups: experiments = ( { name = \"...\"; ... } );");
		return -EINVAL;
	}
	n = list ? config_setting_length(list) : 1;
	if (n == 0) {
		wfw_cfgerr_at(errs, list, "experiments", "the list is empty: nothing to run");
		return -EINVAL;
	}
	plan->exps = calloc((size_t)n, sizeof(*plan->exps));
	if (!plan->exps)
		return -ENOMEM;
	for (i = 0; i < n; i++, plan->n++) {
		const config_setting_t *exp = list ? config_setting_get_elem(list, (unsigned)i) : NULL;
		char path[64];

		if (list)
			snprintf(path, sizeof(path), "experiments[%d]", i);
		else
			*path = '\0';
		if (exp && config_setting_type(exp) != CONFIG_TYPE_GROUP)
			wfw_cfgerr_at(errs, exp, path, "expected a group { name = \"...\"; ... }");
		else
			load_experiment(&plan->exps[i], exp, top, path, ov, errs);
	}
	return 0;
}

int wfw_plan_load(struct wfw_plan *plan, const char *file,
		  const struct wfw_plan_overrides *ov, struct wfw_cfgerr *errs)
{
	int ret;

	memset(plan, 0, sizeof(*plan));
	config_init(&plan->cfg);
	plan->embedded = !file;
	snprintf(plan->file, sizeof(plan->file), "%s",
		 file ? file : "(embedded default experiment)");
	wfw_cfg_main_file = plan->file;
	ret = read_plan(plan, file, errs);
	if (ret == -EINVAL)
		read_error(plan, errs);
	if (!ret && file)
		wfw_cfg_bigints_file(file, errs);
	if (!ret && ov)
		ret = wfw_overrides_apply(&plan->cfg, ov, errs);
	if (!ret)
		default_sinks(plan);
	if (!ret)
		ret = parse_experiments(plan, ov, errs);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	if (ov && ov->only && !errs->n)
		select_only(plan, ov->only, errs);
	check_unique_names(plan, errs);
	if (plan->embedded)
		date_names(plan);
	return errs->n ? -EINVAL : 0;
}

void wfw_plan_free(struct wfw_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		wfw_experiment_free(&plan->exps[i]);
	free(plan->exps);
	plan->exps = NULL;
	plan->n = 0;
	config_destroy(&plan->cfg);
}
