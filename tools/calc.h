/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc's parts: the command line (cmd_calc.c), reading results into
 * statistics (calc_load.c, on several threads) and printing them
 * (calc_print.c).
 */
#ifndef WFW_CALC_H
#define WFW_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "datafmt/reader.h"
#include "expr/expr.h"
#include "expr/seen.h"
#include "stats/statset.h"
#include "suggest/suggest.h"

#define CALC_MAX_FUNCS 40
/* Kept values for exact percentiles: per metric (and group), and in all per thread. */
#define CALC_DEF_EXACT_LIMIT 1000000
#define CALC_DEF_EXACT_MEMORY ((size_t)16 << 20)
#define CALC_DEF_FUNCS "count,min,mean,std,median,p90,p99,p99.9,p99.99,p99.999,max"

enum calc_fn { FN_COUNT, FN_MIN, FN_MAX, FN_MEAN, FN_STD, FN_PCT };

struct calc_func {
	enum calc_fn fn;
	double p;		/* FN_PCT */
	size_t pidx;		/* index into the percentile list */
	char label[24];
};

struct calc_result {
	const char *arg;	/* as given on the command line */
	char path[4096];	/* the file read */
	struct wfw_reader *rd;
	struct wfw_statset set;
	struct wfw_select sel;
	struct wfw_seen seen;	/* names compared with, over every part */
	bool have_set;
	bool no_states;		/* ReqCState empty in every row */
};

struct calc {
	unsigned jobs;		/* threads per CSV file (-j) */
	bool jobs_given;	/* -j given: also for small files */
	struct calc_func funcs[CALC_MAX_FUNCS];
	size_t nfuncs;
	double pct[WFW_SUMMARY_MAX_PCT];
	size_t npct;
	struct wfw_names metrics;	/* -m: names or patterns; none: all */
	const char *include, *exclude;	/* selection expressions */
	bool per_cstate, estimated;	/* per_cstate: per value of group_by */
	const char *group_by;	/* an ENUM column: ReqCState (-c) or -g's */
	enum { CALC_TABLE, CALC_MARKDOWN, CALC_CSV, CALC_JSON } format;
	size_t exact_limit, exact_memory;
	uint64_t mem_limit;	/* --mem-limit, bytes; 0: none */
	bool mem_given;
	bool explain;		/* --explain: where the tail's time went */
	bool funcs_given;	/* -f on the command line */
	bool fleet;		/* --fleet: the results as SUTs (fleet.h) */
	double explain_pct;	/* its percentile */
	struct calc_result *res;
	size_t nres;
};

/*
 * -f LIST (calc_funcs.c): the functions into c->funcs and the percentiles
 * into c->pct. 0, -ENOMEM, or -EINVAL after one line on stderr.
 */
int calc_parse_funcs(struct calc *c, const char *list);
/* --list-funcs: the function names, ours and wult's. */
void calc_list_funcs(FILE *f);

/*
 * --mem-limit (calc_group_mem.c): SIZE ("256M", "1GiB", "none": 0) into
 * bytes (-EINVAL, -ERANGE); the default (3/4 of MemAvailable, 0 if
 * unknown); putting it in force (RLIMIT_DATA; never raising a lower one);
 * and the line saying it was reached (calc failed with -ENOMEM).
 */
int calc_mem_parse(const char *s, uint64_t *bytes);
uint64_t calc_mem_default(void);
int calc_mem_apply(uint64_t bytes);
void calc_mem_said(uint64_t bytes, bool given);
/* A limit the user set: one malloc arena for all threads (why: calc_group_mem.c). */
void calc_mem_one_arena(void);

/* Read result r (its arg set) into r->set; messages on stderr. */
int calc_load(struct calc *c, struct calc_result *r);
void calc_result_free(struct calc_result *r);

int calc_print_table(struct calc *c);
/*
 * r an experiment of several CPUs (calc_cpus.c): its CPUs side by side,
 * of the rows --include/--exclude select, flagged as stats/grouptab.h says,
 * onto f in c's format (JSON: a "cpus" member of r's object, from ",").
 */
int calc_cpus(const struct calc *c, const struct calc_result *r, FILE *f);

struct wfw_grouptab;
struct wfw_grouptab_row;
struct group_cfg {
	size_t exact_limit, exact_memory;	/* as calc's -e, -M */
	const char *metric;	/* NULL or not a column: WakeLatency, ... */
	const char *metric_opt;	/* the option naming it, for errors (NULL: -m) */
	bool strict;		/* metric not a column: an error, not the default */
	const char *include, *exclude;	/* NULL: every row */
};

/*
 * The table t as CSV after a blank line (a table of its own, with the
 * result `arg` in each row), or as the JSON member ',"cpus": {...}'
 * (calc_cpus_fmt.c).
 */
void calc_cpus_csv(const struct wfw_grouptab *t, const char *arg, FILE *f);
void calc_cpus_json(const struct wfw_grouptab *t, FILE *f);
/*
 * Every member's datapoints as one distribution (fleet_pool.c): the
 * first member's statistics, the others' merged in while their files have
 * its columns (else off, with why).
 */
struct group_pool {
	struct wfw_statset set;
	struct wfw_reader *rd;	/* the first member's: set's schema */
	bool have, off;
	char why[256];
};
/* Take set (and rd: true, they are the pool's now) or merge it in (false). */
bool group_pool_add(struct group_pool *p, struct wfw_statset *set, struct wfw_reader *rd,
		    const char *label);
/* The pooled rows (label "pooled") of t's C-states into t. 0 or -ENOMEM. */
int group_pool_rows(struct group_pool *p, struct wfw_grouptab *t);
void group_pool_free(struct group_pool *p);
/* Row g (SIZE_MAX: all) of metric 0 of set. 0 or an error of the summary. */
int group_summary_row(struct wfw_statset *set, const char *label, size_t g,
		      struct wfw_grouptab_row *row);
/*
 * One member's data file (label: its name in the table) into t: a row
 * per C-state, then "all", of cfg's metric (or the one t has already);
 * into pool too (NULL: none). 0, or a negative errno with err saying why.
 */
int grouptab_member(const struct group_cfg *cfg, const char *file, const char *label,
		    struct wfw_grouptab *t, struct group_pool *pool, char *err, size_t len);
/*
 * The table of experiment exp's CPUs (each CPU's file read on its own),
 * flagged. 0, or a negative errno with err saying why.
 */
int cpus_table(const char *exp, const struct group_cfg *cfg, struct wfw_grouptab *t,
	       char *err, size_t len);
int calc_print_json(struct calc *c);

/* Things calc_load.c says of a result, for --explain too. */
int calc_killed_before_data(const char *path);
void calc_no_cstates_note(const char *path);
int calc_no_group_column(const char *path, const char *name,
			 const struct wultfw_schema *s, char *err, size_t len);

/*
 * --explain (explain.c, doc/attribution.md): result r's latency explained,
 * printed as text, or as an element of the JSON array the first one
 * printed opens (*opened) and calc_explain_end() closes. 0, or an error
 * said on stderr.
 */
int calc_explain(struct calc *c, struct calc_result *r, bool *opened);
void calc_explain_end(struct calc *c, bool opened);

#endif
