/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "options.h"
#include <suggest/suggest.h>
#include <units/duration.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *wfw_option_type_name(enum wultfw_opt_type type)
{
	switch (type) {
	case WULTFW_OPT_BOOL:
		return "bool";
	case WULTFW_OPT_INT:
		return "integer";
	case WULTFW_OPT_FLOAT:
		return "number";
	case WULTFW_OPT_STRING:
		return "string";
	case WULTFW_OPT_DURATION:
		return "duration";
	case WULTFW_OPT_STRING_LIST:
		return "list of strings";
	case WULTFW_OPT_FLOAT_LIST:
		return "list of numbers";
	}
	return "?";
}

static bool is_number(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 ||
	       t == CONFIG_TYPE_FLOAT;
}

static void free_value(enum wultfw_opt_type type, struct wultfw_value *v)
{
	size_t i;

	if (!v->set)
		return;
	switch (type) {
	case WULTFW_OPT_STRING:
		free((char *)v->s);
		break;
	case WULTFW_OPT_STRING_LIST:
		for (i = 0; i < v->strs.n; i++)
			free((char *)v->strs.v[i]);
		free((void *)v->strs.v);
		break;
	case WULTFW_OPT_FLOAT_LIST:
		free((void *)v->floats.v);
		break;
	default:
		break;
	}
	memset(v, 0, sizeof(*v));
}

/* Split "a,b,c" for list defaults. Returns count or -ENOMEM. */
static int split_commas(const char *text, char ***out)
{
	char *copy = strdup(text), *tok, *save = NULL, **items = NULL;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(items, (size_t)(n + 1) * sizeof(*items));

		while (*tok == ' ')
			tok++;
		if (!grown || !(grown[n] = strdup(tok))) {
			free(grown ? grown : items);
			free(copy);
			return -ENOMEM;
		}
		items = grown;
		n++;
	}
	free(copy);
	*out = items;
	return n;
}

static int parse_float_text(const char *text, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(text, &end);
	return (errno || end == text || *end) ? -EINVAL : 0;
}

/* "50,90,99.9" */
static int parse_float_list_text(const char *text, struct wultfw_value *v)
{
	char **items = NULL;
	int n = split_commas(text, &items), i, ret = 0;
	double *d;

	if (n < 0)
		return n;
	d = calloc((size_t)n + 1, sizeof(*d));
	for (i = 0; i < n; i++) {
		if (d && parse_float_text(items[i], &d[i]))
			ret = -EINVAL;
		free(items[i]);
	}
	free(items);
	if (!d)
		return -ENOMEM;
	v->floats.v = d;
	v->floats.n = (size_t)n;
	return ret;
}

static int parse_text(enum wultfw_opt_type type, const char *text,
		      struct wultfw_value *v)
{
	char **items = NULL, *end;
	int n;

	switch (type) {
	case WULTFW_OPT_BOOL:
		v->b = !strcmp(text, "true");
		return v->b || !strcmp(text, "false") ? 0 : -EINVAL;
	case WULTFW_OPT_INT:
		errno = 0;
		v->i = strtoll(text, &end, 0);
		return errno || end == text || *end ? -EINVAL : 0;
	case WULTFW_OPT_FLOAT:
		return parse_float_text(text, &v->f);
	case WULTFW_OPT_STRING:
		v->s = strdup(text);
		return v->s ? 0 : -ENOMEM;
	case WULTFW_OPT_DURATION:
		return wfw_parse_duration(text, &v->ns) ? -EINVAL : 0;
	case WULTFW_OPT_STRING_LIST:
		n = split_commas(text, &items);
		if (n < 0)
			return n;
		v->strs.v = (const char *const *)items;
		v->strs.n = (size_t)n;
		return 0;
	default:
		return parse_float_list_text(text, v);
	}
}

/* A default written in the plugin's table. -EINVAL means a plugin bug. */
static int parse_default(const struct wultfw_option *opt,
			 struct wultfw_value *v)
{
	int ret = parse_text(opt->type, opt->def, v);

	if (ret != -ENOMEM)
		v->set = true;	/* even half-parsed: free_value() cleans up */
	return ret;
}

static int type_err(struct wfw_cfgerr *errs, const config_setting_t *s,
		    const char *key, const char *what)
{
	wfw_cfgerr_at(errs, s, key, "expected %s", what);
	return -EINVAL;
}

static bool is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static bool is_list(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST;
}

static double number_of(const config_setting_t *s)
{
	return config_setting_type(s) == CONFIG_TYPE_FLOAT ?
		config_setting_get_float(s) : (double)config_setting_get_int64(s);
}

/* "10us" (or a bare 0) */
static int parse_duration_value(const config_setting_t *s, const char *key,
				struct wultfw_value *v, struct wfw_cfgerr *errs)
{
	int ret;

	if (is_int(s) && config_setting_get_int64(s) == 0) {
		v->ns = 0;
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return type_err(errs, s, key, "a duration such as \"10us\" (units: ns, us, ms, s, m, h)");
	ret = wfw_parse_duration(config_setting_get_string(s), &v->ns);
	if (ret == -ERANGE || ret == -EDOM) {
		wfw_cfgerr_at(errs, s, key, "\"%s\" %s", config_setting_get_string(s),
			      wfw_duration_error(ret));
		return -EINVAL;
	}
	return ret ? type_err(errs, s, key, "a duration such as \"10us\" (units: ns, us, ms, s, m, h)") : 0;
}

/* [ "a", "b" ], or one string as a list of one. */
static int parse_string_list(const config_setting_t *s, const char *key,
			     struct wultfw_value *v, struct wfw_cfgerr *errs)
{
	bool one = config_setting_type(s) == CONFIG_TYPE_STRING;
	int i, n = one ? 1 : config_setting_length(s);
	const char **items;

	if (!one && !is_list(s))
		return type_err(errs, s, key, "a list of strings such as [ \"a\", \"b\" ]");
	items = calloc((size_t)n + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	v->strs.v = items;
	v->set = true;	/* so free_value() cleans up on error */
	for (i = 0; i < n; i++) {
		const config_setting_t *e = one ? s : config_setting_get_elem(s, (unsigned)i);

		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			wfw_cfgerr_at(errs, e, key, "element %d: expected a string", i);
			return -EINVAL;
		}
		items[i] = strdup(config_setting_get_string(e));
		if (!items[i])
			return -ENOMEM;
		v->strs.n++;
	}
	return 0;
}

/* ( 50, 99.9 ) */
static int parse_float_list(const config_setting_t *s, const char *key,
			    struct wultfw_value *v, struct wfw_cfgerr *errs)
{
	int i, n;
	double *d;

	if (!is_list(s))
		return type_err(errs, s, key, "a list of numbers such as ( 50, 99.9 )");
	n = config_setting_length(s);
	d = calloc((size_t)n + 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	v->floats.v = d;
	v->set = true;
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);

		if (!is_number(e)) {
			wfw_cfgerr_at(errs, e, key, "element %d: expected a number", i);
			return -EINVAL;
		}
		d[i] = number_of(e);
		v->floats.n++;
	}
	return 0;
}

static int parse_scalar(const struct wultfw_option *opt,
			const config_setting_t *s, const char *key,
			struct wultfw_value *v, struct wfw_cfgerr *errs)
{
	switch (opt->type) {
	case WULTFW_OPT_BOOL:
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return type_err(errs, s, key, "true or false");
		v->b = config_setting_get_bool(s);
		return 0;
	case WULTFW_OPT_INT:
		if (!is_int(s))
			return type_err(errs, s, key, "an integer");
		v->i = config_setting_get_int64(s);
		return 0;
	case WULTFW_OPT_FLOAT:
		if (!is_number(s))
			return type_err(errs, s, key, "a number");
		v->f = number_of(s);
		return 0;
	case WULTFW_OPT_STRING:
		if (config_setting_type(s) != CONFIG_TYPE_STRING)
			return type_err(errs, s, key, "a string in double quotes");
		v->s = strdup(config_setting_get_string(s));
		return v->s ? 0 : -ENOMEM;
	default:
		return parse_duration_value(s, key, v, errs);
	}
}

static int parse_setting(const struct wultfw_option *opt,
			 const config_setting_t *s, const char *key,
			 struct wultfw_value *v, struct wfw_cfgerr *errs)
{
	int ret;

	if (opt->type == WULTFW_OPT_STRING_LIST)
		ret = parse_string_list(s, key, v, errs);
	else if (opt->type == WULTFW_OPT_FLOAT_LIST)
		ret = parse_float_list(s, key, v, errs);
	else
		ret = parse_scalar(opt, s, key, v, errs);
	if (!ret)
		v->set = true;
	return ret;
}

/* Compare a scalar value with a bound written as text: <0, 0, >0. */
static int cmp_bound(enum wultfw_opt_type type, const struct wultfw_value *v,
		     const char *text)
{
	struct wultfw_option o = { .name = "bound", .type = type, .def = text };
	struct wultfw_value b = { 0 };

	if (parse_default(&o, &b))
		return 0;	/* a bad bound is a plugin bug, reported at load */
	switch (type) {
	case WULTFW_OPT_INT:
		return v->i < b.i ? -1 : v->i > b.i;
	case WULTFW_OPT_DURATION:
		return v->ns < b.ns ? -1 : v->ns > b.ns;
	default:
		return v->f < b.f ? -1 : v->f > b.f;
	}
}

/* "allowed: 1 to 99 priorities" for an error or `wultfw help`. */
void wfw_option_range(const struct wultfw_option *opt, char *buf, size_t len)
{
	const char *const *c;
	size_t used;

	buf[0] = 0;
	if (opt->min && opt->max)
		snprintf(buf, len, "%s to %s", opt->min, opt->max);
	else if (opt->min)
		snprintf(buf, len, "at least %s", opt->min);
	else if (opt->max)
		snprintf(buf, len, "at most %s", opt->max);
	for (c = opt->choices; c && *c; c++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s\"%s\"",
			 c == opt->choices ? "one of " : ", ", *c);
	}
	if (buf[0] && opt->unit && opt->unit[0] && !opt->choices) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " %s", opt->unit);
	}
}

static bool in_list(const char *name, const char *const *list);

/*
 * A value as the user wrote it where it is a string ("0s", not the "0ns"
 * it parsed to), else as `type` formats it: errors echo what was typed.
 */
static void value_text(const struct wultfw_option *scalar, const struct wultfw_value *v,
		       const config_setting_t *s, int elem, char *buf, size_t len)
{
	const config_setting_t *e = s && elem >= 0 ? config_setting_get_elem(s, (unsigned)elem) : s;

	if (e && config_setting_type(e) == CONFIG_TYPE_STRING)
		snprintf(buf, len, "\"%s\"", config_setting_get_string(e));
	else
		wfw_option_format(scalar, v, buf, len);
}

/* One scalar (or list element `elem`, -1: none) against min/max/choices. */
static int check_one(const struct wultfw_option *opt, enum wultfw_opt_type type,
		     const struct wultfw_value *v, const config_setting_t *s,
		     const char *key, int elem, struct wfw_cfgerr *errs)
{
	struct wultfw_option scalar = *opt;
	char val[128], allowed[512], where[32] = "";

	scalar.type = type;
	if (elem >= 0)
		snprintf(where, sizeof(where), "element %d: ", elem);
	wfw_option_range(opt, allowed, sizeof(allowed));
	if (type == WULTFW_OPT_STRING) {
		if (!opt->choices || in_list(v->s, opt->choices))
			return 0;
		wfw_cfgerr_at(errs, s, key, "%s\"%s\" is not allowed: use %s",
			      where, v->s, allowed);
		return -EINVAL;
	}
	if ((!opt->min || cmp_bound(type, v, opt->min) >= 0) &&
	    (!opt->max || cmp_bound(type, v, opt->max) <= 0))
		return 0;
	value_text(&scalar, v, s, elem, val, sizeof(val));
	wfw_cfgerr_at(errs, s, key, "%s%s is out of range: allowed %s", where,
		      val, allowed);
	return -EINVAL;
}

/* The declared bounds and choices, for every element of a list. */
static int check_value(const struct wultfw_option *opt,
		       const struct wultfw_value *v, const config_setting_t *s,
		       const char *key, struct wfw_cfgerr *errs)
{
	struct wultfw_value e = { .set = true };
	size_t i;
	int ret = 0;

	switch (opt->type) {
	case WULTFW_OPT_INT:
	case WULTFW_OPT_FLOAT:
	case WULTFW_OPT_DURATION:
	case WULTFW_OPT_STRING:
		return check_one(opt, opt->type, v, s, key, -1, errs);
	case WULTFW_OPT_STRING_LIST:
		for (i = 0; i < v->strs.n && !ret; i++) {
			e.s = v->strs.v[i];
			ret = check_one(opt, WULTFW_OPT_STRING, &e, s, key,
					(int)i, errs);
		}
		return ret;
	case WULTFW_OPT_FLOAT_LIST:
		for (i = 0; i < v->floats.n && !ret; i++) {
			e.f = v->floats.v[i];
			ret = check_one(opt, WULTFW_OPT_FLOAT, &e, s, key,
					(int)i, errs);
		}
		return ret;
	default:
		return 0;
	}
}

static bool in_list(const char *name, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static void unknown_key(const struct wultfw_option *table,
			const char *const *reserved,
			const config_setting_t *s, const char *key,
			const char *plugin, struct wfw_cfgerr *errs)
{
	const char *names[128];
	const char *hint;
	size_t n = 0;

	for (; reserved && *reserved && n < 64; reserved++)
		names[n++] = *reserved;
	for (; table && table->name && n < 128; table++)
		names[n++] = table->name;
	hint = wfw_suggest(config_setting_name(s), names, n);
	if (hint)
		wfw_cfgerr_at(errs, s, key,
			      "unknown key for plugin '%s' (did you mean '%s'?)",
			      plugin, hint);
	else
		wfw_cfgerr_at(errs, s, key,
			      "unknown key for plugin '%s' ('wultfw help %s' lists its options)",
			      plugin, plugin);
}

/*
 * Every value at its .off in a fresh config struct (ctx->cfg), and at
 * .set_off whether it has one.
 */
static int fill_cfg(struct wfw_optvals *out, size_t cfg_size)
{
	size_t i;

	out->cfg = calloc(1, cfg_size);
	if (!out->cfg)
		return -ENOMEM;
	for (i = 0; i < out->n; i++) {
		const struct wultfw_value *v = &out->vals[i];
		char *field = (char *)out->cfg + out->table[i].off;

		if (out->table[i].set_off)
			memcpy((char *)out->cfg + out->table[i].set_off - 1, &v->set,
			       sizeof(v->set));

		switch (out->table[i].type) {
		case WULTFW_OPT_BOOL:
			memcpy(field, &v->b, sizeof(v->b));
			break;
		case WULTFW_OPT_INT:
			memcpy(field, &v->i, sizeof(v->i));
			break;
		case WULTFW_OPT_FLOAT:
			memcpy(field, &v->f, sizeof(v->f));
			break;
		case WULTFW_OPT_STRING:
			memcpy(field, &v->s, sizeof(v->s));
			break;
		case WULTFW_OPT_DURATION:
			memcpy(field, &v->ns, sizeof(v->ns));
			break;
		case WULTFW_OPT_STRING_LIST:
			memcpy(field, &v->strs, sizeof(v->strs));
			break;
		case WULTFW_OPT_FLOAT_LIST:
			memcpy(field, &v->floats, sizeof(v->floats));
			break;
		}
	}
	return 0;
}

static size_t find_option(const struct wultfw_option *table, size_t n,
			  const char *name)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (!strcmp(table[j].name, name))
			break;
	return j;
}

/* Every key in the group must be the core's or the plugin's. */
static int parse_group(const config_setting_t *group,
		       const char *const *reserved, const char *path,
		       const char *plugin, struct wfw_optvals *out,
		       struct wfw_cfgerr *errs)
{
	int i, len = group ? config_setting_length(group) : 0;
	char key[256];

	for (i = 0; i < len; i++) {
		const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(s);
		size_t j = find_option(out->table, out->n, name);
		int ret;

		if (in_list(name, reserved))
			continue;
		snprintf(key, sizeof(key), "%s.%s", path, name);
		if (j == out->n) {
			unknown_key(out->table, reserved, s, key, plugin, errs);
			continue;
		}
		out->settings[j] = s;
		ret = parse_setting(&out->table[j], s, key, &out->vals[j], errs);
		if (ret == -ENOMEM)
			return ret;
		if (!ret)
			check_value(&out->table[j], &out->vals[j], s, key, errs);
	}
	return 0;
}

/* Defaults for what the group did not set. */
static int fill_defaults(const char *plugin, struct wfw_optvals *out,
			 struct wfw_cfgerr *errs)
{
	const struct wultfw_option *t = out->table;
	size_t i;
	int ret;

	for (i = 0; i < out->n; i++) {
		if (out->vals[i].set || !t[i].def)
			continue;
		ret = parse_default(&t[i], &out->vals[i]);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			wfw_cfgerr_add(errs, "(plugin)", 0, t[i].name,
				       "plugin '%s' has a bad default \"%s\" for this %s option: report this bug",
				       plugin, t[i].def, wfw_option_type_name(t[i].type));
	}
	return 0;
}

int wfw_options_parse(const struct wultfw_option *table, size_t cfg_size,
		      const config_setting_t *group,
		      const char *const *reserved, const char *path,
		      const char *plugin, struct wfw_optvals *out,
		      struct wfw_cfgerr *errs)
{
	size_t nerr = errs->n, n = 0;

	while (table && table[n].name)
		n++;
	out->table = table;
	out->n = n;
	out->cfg = NULL;
	out->vals = calloc(n + 1, sizeof(*out->vals));
	out->settings = calloc(n + 1, sizeof(*out->settings));
	if (!out->vals || !out->settings)
		return -ENOMEM;
	if (parse_group(group, reserved, path, plugin, out, errs) ||
	    fill_defaults(plugin, out, errs))
		return -ENOMEM;
	if (errs->n > nerr)
		return -EINVAL;
	return cfg_size ? fill_cfg(out, cfg_size) : 0;
}

void wfw_options_free(struct wfw_optvals *v)
{
	size_t i;

	for (i = 0; v->vals && i < v->n; i++)
		free_value(v->table[i].type, &v->vals[i]);
	free(v->vals);
	free(v->settings);
	free(v->cfg);
	v->cfg = NULL;
	v->vals = NULL;
	v->settings = NULL;
	v->n = 0;
}

/* The shortest text that reads back as the same double: 99.9, not 99.900000000000006. */
static void format_double(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void wfw_option_format(const struct wultfw_option *opt,
		       const struct wultfw_value *val, char *buf, size_t len)
{
	size_t i, used;

	if (!val->set) {
		snprintf(buf, len, "(unset)");
		return;
	}
	switch (opt->type) {
	case WULTFW_OPT_BOOL:
		snprintf(buf, len, "%s", val->b ? "true" : "false");
		break;
	case WULTFW_OPT_INT:
		snprintf(buf, len, "%" PRId64, val->i);
		break;
	case WULTFW_OPT_FLOAT:
		format_double(val->f, buf, len);
		if (!strpbrk(buf, ".eEn"))
			strncat(buf, ".0", len - strlen(buf) - 1);
		break;
	case WULTFW_OPT_STRING:
		snprintf(buf, len, "\"%s\"", val->s);
		break;
	case WULTFW_OPT_DURATION: {
		char d[32];

		wfw_format_duration(val->ns, d, sizeof(d));
		snprintf(buf, len, "\"%s\"", d);
		break;
	}
	case WULTFW_OPT_STRING_LIST:
		snprintf(buf, len, "[");
		for (i = 0; i < val->strs.n; i++) {
			used = strlen(buf);
			snprintf(buf + used, len - used, "%s\"%s\"",
				 i ? ", " : " ", val->strs.v[i]);
		}
		used = strlen(buf);
		snprintf(buf + used, len - used, " ]");
		break;
	case WULTFW_OPT_FLOAT_LIST:
		snprintf(buf, len, "(");
		for (i = 0; i < val->floats.n; i++) {
			used = strlen(buf);
			char num[32];

			format_double(val->floats.v[i], num, sizeof(num));
			snprintf(buf + used, len - used, "%s%s", i ? ", " : " ", num);
		}
		used = strlen(buf);
		snprintf(buf + used, len - used, " )");
		break;
	}
}
