/* SPDX-License-Identifier: MIT */
/*
 * calc's functions (-f): count, min, ..., percentiles by our names and
 * wult's (med, 99%), read into the list of columns calc prints.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include <suggest/suggest.h>

/* A bad -f: one line on stderr. */
static int funcs_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int funcs_error(const char *fmt, ...)
{
	va_list ap;

	fputs("wultfw calc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* count, min, ...: the function name `tok` names, or -1. */
static int simple_func(const char *tok)
{
	static const struct { const char *name; enum calc_fn fn; } names[] = {
		{ "count", FN_COUNT }, { "N", FN_COUNT }, { "min", FN_MIN },
		{ "max", FN_MAX }, { "mean", FN_MEAN }, { "avg", FN_MEAN },
		{ "std", FN_STD }, { "stddev", FN_STD },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(tok, names[i].name))
			return (int)names[i].fn;
	return -1;
}

/* median, pNN, NN%: the percentile, or -1. */
static double pct_func(const char *tok)
{
	size_t l = strlen(tok);
	const char *num = tok;
	char *end;
	double p;

	if (!strcmp(tok, "median") || !strcmp(tok, "med"))
		return 50;
	if (tok[0] == 'p')
		num = tok + 1;
	else if (l < 2 || tok[l - 1] != '%')
		return -1;
	p = strtod(num, &end);
	if (!*num || end == num || (*end && strcmp(end, "%")) ||
	    !(p >= 0 && p <= 100))
		return -1;
	return p;
}

static int parse_func(struct calc *c, const char *tok)
{
	struct calc_func *f = &c->funcs[c->nfuncs];
	int fn = simple_func(tok);

	if (c->nfuncs == CALC_MAX_FUNCS)
		return funcs_error("-f: at most %d functions", CALC_MAX_FUNCS);
	snprintf(f->label, sizeof(f->label), "%s", tok);
	f->fn = fn < 0 ? FN_PCT : (enum calc_fn)fn;
	if (fn < 0) {
		static const char *const known[] = { "count", "min", "max", "mean",
						     "std", "stddev", "median", "avg" };
		const char *near = wfw_suggest(tok, known, sizeof(known) / sizeof(known[0]));

		f->p = pct_func(tok);
		if (f->p < 0)
			return funcs_error("-f: unknown function '%s'%s%s%s (count, min, max, mean, std, median, pNN, NN%%)",
					   tok, near ? " (did you mean '" : "", near ? near : "",
					   near ? "'?)" : "");
		if (c->npct == WFW_SUMMARY_MAX_PCT)
			return funcs_error("-f: at most %d percentiles",
					   WFW_SUMMARY_MAX_PCT);
		f->pidx = c->npct;
		c->pct[c->npct++] = f->p;
	}
	c->nfuncs++;
	return 0;
}

int calc_parse_funcs(struct calc *c, const char *list)
{
	char *dup = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	c->nfuncs = c->npct = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = parse_func(c, tok);
	free(dup);
	if (!ret && !c->nfuncs)
		ret = funcs_error("-f: no function given");
	return ret;
}

void calc_list_funcs(FILE *f)
{
	fputs("Functions of -f (wult's calc names in parentheses):\n"
	      "  count     number of datapoints (N)\n"
	      "  min       smallest value\n"
	      "  max       largest value\n"
	      "  mean      arithmetic mean (avg)\n"
	      "  std       sample standard deviation (stddev)\n"
	      "  median    50th percentile (med, p50, 50%)\n"
	      "  pNN       NNth percentile, 0 <= NN <= 100 (NN%: 99%, 99.9%, 99.99%)\n"
	      "Percentiles are exact up to --exact-limit values per metric and C-state\n"
	      "(within --exact-memory), then estimated from a histogram and marked '~'\n"
	      "(JSON: \"exact\": false); the table's last line states the switch point.\n", f);
}
