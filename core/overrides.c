/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "overrides.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A new `name` of `type` in group (an old one replaced), its hook the
 * option that set it: errors about it name the option (cfgerr.c).
 */
static config_setting_t *put(config_setting_t *group, const char *name, int type,
			     const char *opt)
{
	config_setting_t *s;

	if (config_setting_get_member(group, name))
		config_setting_remove(group, name);
	s = config_setting_add(group, name, type);
	if (s)
		config_setting_set_hook(s, (void *)opt);
	return s;
}

/* "100us" or "50us,4ms" as ldist: one string or [ from, to ]. */
static int put_ldist(config_setting_t *src, const char *text)
{
	const char *comma = strchr(text, ',');
	config_setting_t *s, *e;
	char from[64];

	if (!comma)
		return (s = put(src, "ldist", CONFIG_TYPE_STRING, "--ldist")) &&
		       config_setting_set_string(s, text) ? 0 : -ENOMEM;
	snprintf(from, sizeof(from), "%.*s", (int)(comma - text), text);
	s = put(src, "ldist", CONFIG_TYPE_ARRAY, "--ldist");
	e = s ? config_setting_set_string_elem(s, -1, from) : NULL;
	e = e ? config_setting_set_string_elem(s, -1, comma + 1) : NULL;
	return e ? 0 : -ENOMEM;
}

/* The numbers of the command line, checked once. */
struct nums {
	int cpu;
	bool cpu_list;			/* --cpu is a list, not one number */
	long long datapoints;
};

/* text as a whole number from min to max into *v; else -EINVAL, said. */
static int whole(const char *opt, const char *text, long long min, long long max,
		 long long *v, struct wfw_cfgerr *errs)
{
	char *end;

	errno = 0;
	*v = strtoll(text, &end, 10);
	if (!errno && end != text && !*end && *v >= min && *v <= max)
		return 0;
	wfw_cfgerr_add(errs, "", 0, NULL, "--%s '%s': expected a whole number from %lld%s",
		       opt, text, min, max == INT_MAX ? " (a CPU number)" : "");
	return -EINVAL;
}

static int parse_nums(const struct wfw_plan_overrides *ov, struct nums *n,
		      struct wfw_cfgerr *errs)
{
	long long v = 0;
	int ret = 0;

	/* A list ("0-3", "all") is the file's string: bind.c checks it. */
	n->cpu_list = ov->cpu && strspn(ov->cpu, "0123456789") != strlen(ov->cpu);
	if (ov->cpu && !n->cpu_list && whole("cpu", ov->cpu, 0, INT_MAX, &v, errs))
		ret = -EINVAL;
	n->cpu = (int)v;
	if (ov->datapoints &&
	    whole("datapoints", ov->datapoints, 1, LLONG_MAX, &n->datapoints, errs))
		ret = -EINVAL;
	return ret;
}

/* The overrides of a source group (an experiment's or the top level's). */
static int apply_source(config_setting_t *src, const struct wfw_plan_overrides *ov,
			const struct nums *n)
{
	config_setting_t *s;

	if (!src || config_setting_type(src) != CONFIG_TYPE_GROUP)
		return 0;	/* the parser says what is wrong with it */
	if (ov->cpu && n->cpu_list &&
	    !((s = put(src, "cpu", CONFIG_TYPE_STRING, "--cpu")) &&
	      config_setting_set_string(s, ov->cpu)))
		return -ENOMEM;
	if (ov->cpu && !n->cpu_list &&
	    !((s = put(src, "cpu", CONFIG_TYPE_INT, "--cpu")) &&
	      config_setting_set_int(s, n->cpu)))
		return -ENOMEM;
	return ov->ldist ? put_ldist(src, ov->ldist) : 0;
}

/* The overrides of a limits group, made when create and there is none. */
static int apply_limits(config_setting_t *parent, const struct wfw_plan_overrides *ov,
			const struct nums *n, bool create)
{
	config_setting_t *lim = config_setting_get_member(parent, "limits"), *s;

	if (!ov->datapoints && !ov->time)
		return 0;
	if (!lim && create)
		lim = config_setting_add(parent, "limits", CONFIG_TYPE_GROUP);
	if (!lim || config_setting_type(lim) != CONFIG_TYPE_GROUP)
		return create && !lim ? -ENOMEM : 0;
	if (ov->datapoints && !((s = put(lim, "datapoints", CONFIG_TYPE_INT64, "--datapoints")) &&
				config_setting_set_int64(s, n->datapoints)))
		return -ENOMEM;
	if (ov->time && !((s = put(lim, "time", CONFIG_TYPE_STRING, "--time")) &&
			  config_setting_set_string(s, ov->time)))
		return -ENOMEM;
	return 0;
}

int wfw_overrides_apply(config_t *cfg, const struct wfw_plan_overrides *ov,
			struct wfw_cfgerr *errs)
{
	config_setting_t *top = config_root_setting(cfg);
	config_setting_t *list = config_setting_get_member(top, "experiments");
	struct nums n = { 0 };
	int ret;

	if (parse_nums(ov, &n, errs))
		return -EINVAL;
	/* The top level: the one experiment, or the default of each. */
	ret = apply_source(config_setting_get_member(top, "source"), ov, &n);
	if (!ret)
		ret = apply_limits(top, ov, &n, true);
	for (int i = 0; !ret && list && i < config_setting_length(list); i++) {
		config_setting_t *exp = config_setting_get_elem(list, (unsigned)i);

		if (config_setting_type(exp) != CONFIG_TYPE_GROUP)
			continue;
		ret = apply_source(config_setting_get_member(exp, "source"), ov, &n);
		if (!ret)
			ret = apply_limits(exp, ov, &n, false);
	}
	if (ret)
		wfw_cfgerr_add(errs, "", 0, NULL, "out of memory applying the command line's settings");
	return ret ? -EINVAL : 0;
}
