/* SPDX-License-Identifier: MIT */
/*
 * Selecting datapoints while measuring: an experiment's `include` and
 * `exclude` expressions (lib/expr, as calc/filter's --include/--exclude)
 * and `keep_filtered = true`, as wult's start --include/--exclude/
 * --keep-filtered. Only the selected rows reach the sinks and count
 * against the datapoint limit; with keep_filtered the others go to
 * filtered.csv in the result directory.
 */
#ifndef WFW_DATASEL_H
#define WFW_DATASEL_H

#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>

#include <datafmt/writer.h>
#include <expr/expr.h>

#include "cfgerr.h"

#define WFW_DATASEL_FILE "filtered.csv"

/* Where a setting was written ("FILE:LINE: KEY"), for run-time errors. */
struct wfw_datasel_text {
	char *text;		/* NULL: not given */
	char where[512];
	const config_setting_t *setting;	/* for errors while loading */
	char key[160];
};

/* As parsed from the experiment file. */
struct wfw_datasel_cfg {
	struct wfw_datasel_text include, exclude;
	bool expr_given;	/* include or exclude set, even if invalid */
	bool keep_filtered;
	const config_setting_t *keep_setting;	/* for the "needs" error */
	char keep_key[160];
};

/* One run's selection. */
struct wfw_datasel {
	const struct wfw_datasel_cfg *cfg;
	struct wfw_select sel;
	struct wfw_csv_writer filtered;
	bool filtered_open;
	bool filtered_failed;		/* a write failed: in_file is what it kept */
	uint64_t in_file;		/* rows filtered.csv holds, once closed */
	struct wultfw_batch rest;	/* a batch's rows that were not selected */
};

/* The core keys this module reads from an experiment (or top level). */
extern const char *const wfw_datasel_keys[];

/* One of wfw_datasel_keys, as set at `s` under `key`: syntax checked. */
void wfw_datasel_parse(struct wfw_datasel_cfg *c, const config_setting_t *s,
		       const char *key, struct wfw_cfgerr *errs);
/* After every key: keep_filtered needs include or exclude. */
void wfw_datasel_check(const struct wfw_datasel_cfg *c, struct wfw_cfgerr *errs);
/*
 * include/exclude against the columns a source declares (its descriptor's
 * `columns`, NULL-name terminated; plugin: its name): an unknown column
 * (with a did-you-mean), a comparison its type cannot take, a unit it
 * cannot have, each at the setting's line. Without a declaration (NULL)
 * nothing: the source's open() gives the columns, checked then.
 */
void wfw_datasel_check_columns(const struct wfw_datasel_cfg *c,
			       const struct wultfw_column *declared,
			       const char *plugin, struct wfw_cfgerr *errs);
/*
 * The same against the schema the source gave when it opened on this
 * machine (--check): what would stop the run here goes to warns.
 */
void wfw_datasel_check_schema(const struct wfw_datasel_cfg *c,
			      const struct wultfw_schema *s, const char *plugin,
			      struct wfw_cfgerr *warns);
void wfw_datasel_cfg_free(struct wfw_datasel_cfg *c);

/* Is anything to be selected at all? */
static inline bool wfw_datasel_wanted(const struct wfw_datasel_cfg *c)
{
	return c->include.text || c->exclude.text;
}

/*
 * Compile against the source's schema: 0, or -EINVAL after printing the
 * error at the setting's file:line with the expression and a caret.
 */
int wfw_datasel_compile(struct wfw_datasel *d, const struct wfw_datasel_cfg *c,
			const struct wultfw_schema *s);
/* Open filtered.csv in `dir` when keep_filtered: 0 or -errno (printed). */
int wfw_datasel_open(struct wfw_datasel *d, const char *dir,
		     const struct wultfw_schema *s);
/*
 * Keep in b the selected rows, at most `room` of them, in order; the rows
 * not selected before the last one kept go to filtered.csv. 0 or -errno
 * (printed) when filtered.csv cannot be written.
 */
int wfw_datasel_batch(struct wfw_datasel *d, struct wultfw_batch *b,
		      uint64_t room);
/*
 * Close filtered.csv: 0 or -errno, printed unless said when a write
 * failed, or only noted when it is the run's own failure `failed` (a full
 * disk fails every file there; the first error says it). What it holds
 * then goes to info.yml.
 */
int wfw_datasel_close(struct wfw_datasel *d, int failed);
/* info.yml: select_include/_exclude, select_kept, select_left_out(_file),
 * filtered_rows_in_file after a failed write. */
struct wfw_info;
void wfw_datasel_info(const struct wfw_datasel *d, struct wfw_info *info);
void wfw_datasel_free(struct wfw_datasel *d);

#endif
