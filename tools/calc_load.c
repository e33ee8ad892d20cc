/* SPDX-License-Identifier: MIT */
/*
 * wultfw calc: a result file into statistics, in one pass. A CSV file is
 * read by several threads at once (-j), each over a part of the file that
 * starts and ends at row boundaries, and their statistics are merged; a
 * part that cannot be read alone (a quoted field, a bad row) sends the
 * whole file to one reader, which gives the exact error; a file cut
 * shorter while its parts are read is an error there and then.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calc.h"
#include <suggest/suggest.h>
#include "datafmt/infoyml.h"
#include "datafmt/locate.h"
#include "datafmt/runstate.h"
#include "par/par.h"
#include "stats/report.h"

/*
 * Rows per batch read. 1024 rows of 14 cells (115 KB) stay in the L2 cache
 * between the reader writing them and the statistics reading them: 4% less
 * CPU than 8192 for calc on a 14-column CSV file, the same with -c.
 */
#define CALC_BATCH_ROWS 1024

/*
 * A result measured without cpuidle states by an older wultfw has a
 * ReqCState column with every cell empty: one "-" group equal to "all".
 */
static void note_no_states(struct calc *c, struct calc_result *r)
{
	uint64_t total = 0, none = 0;
	size_t g;

	if (!c->per_cstate || r->set.gcol < 0 ||
	    strcmp(c->group_by, "ReqCState"))
		return;
	for (g = 0; g < r->set.ngroups; g++) {
		total += wfw_statset_group_count(&r->set, g);
		if (!strcmp(wfw_statset_group_name(&r->set, g), "-"))
			none += wfw_statset_group_count(&r->set, g);
	}
	if (!total || none != total)
		return;
	r->no_states = true;
	fprintf(stderr, "wultfw calc: %s: ReqCState is empty in every row "
		"(measured without cpuidle states), --per-cstate shows all rows only\n",
		r->path);
}

/* -g names a column the result lacks: say which ones it has. */
int calc_no_group_column(const char *path, const char *name,
			   const struct wultfw_schema *s, char *err, size_t len)
{
	const char *text[s->ncols ? s->ncols : 1];
	const char *near;
	size_t n = 0, at;

	text[0] = NULL;
	for (size_t k = 0; k < s->ncols; k++)
		if (s->cols[k].type == WULTFW_COL_ENUM)
			text[n++] = s->cols[k].name;
	/* A typo of a text column ("ReqCstate") gets its right spelling. */
	near = wfw_suggest(name, text, n);
	at = (size_t)snprintf(err, len, "%s: no text column '%s' to group by%s%s%s; it has:",
			      path, name, near ? " (did you mean '" : "",
			      near ? near : "", near ? "'?)" : "");
	for (size_t k = 0; k < n && at < len; k++)
		at += (size_t)snprintf(err + at, len - at, "%s %s", k ? "," : "", text[k]);
	if (!n && at < len)
		snprintf(err + at, len - at, " none");
	return -ENOENT;
}

/* A -m name that matches no column of the file: said, with a did-you-mean. */
static void unmatched_metrics(const struct calc *c, const struct calc_result *r,
			      const struct wultfw_schema *s)
{
	const char *names[s->ncols ? s->ncols : 1];

	for (size_t k = 0; k < s->ncols; k++)
		names[k] = s->cols[k].name;
	for (size_t i = 0; i < c->metrics.n; i++) {
		const char *near;
		size_t k = 0;

		while (k < s->ncols && fnmatch(c->metrics.v[i], names[k], 0))
			k++;
		if (k < s->ncols)
			continue;
		near = wfw_suggest(c->metrics.v[i], names, s->ncols);
		fprintf(stderr, "wultfw calc: warning: %s: -m %s matches no column%s%s%s\n",
			r->path, c->metrics.v[i], near ? " (did you mean '" : "",
			near ? near : "", near ? "'?)" : "");
	}
}

/*
 * Open r->path (part `part` of `nparts`, cut from a file of `size` bytes)
 * and set up its statistics.
 */
static int open_result(struct calc *c, struct calc_result *r, unsigned part,
		       unsigned nparts, uint64_t size, char *err, size_t len)
{
	/* One pass: the selection follows the types learned as rows come. */
	struct wfw_reader_opts o = { .one_pass = true, .part = part,
				     .nparts = nparts, .part_size = size };
	struct wfw_statset_cfg cfg = {
		.exact_limit = c->exact_limit, .exact_memory = c->exact_memory,
		.group_by = c->per_cstate ? c->group_by : NULL,
		.metrics = c->metrics.n ? c->metrics.v : NULL,
		.nmetrics = c->metrics.n, .pending_text = true,
		.mem_limit = c->mem_limit,
	};
	size_t at;
	int ret = wfw_reader_open_opts(&r->rd, r->path, &o, err, len);

	if (ret)
		return ret;
	if (!part)
		unmatched_metrics(c, r, wfw_reader_schema(r->rd));
	at = (size_t)snprintf(err, len, "%s: ", r->path);
	ret = wfw_statset_init(&r->set, wfw_reader_schema(r->rd), &cfg, err + at, len - at);
	if (ret)
		return ret;
	r->have_set = true;
	if (c->per_cstate && r->set.gcol < 0 && strcmp(c->group_by, "ReqCState"))
		return calc_no_group_column(r->path, c->group_by, wfw_reader_schema(r->rd),
				       err, len);
	ret = wfw_select_init(&r->sel, c->include, c->exclude,
			      wfw_reader_schema(r->rd), err + at, len - at);
	/* `index` numbers rows in the whole file: a part starts at its first. */
	if (!ret && wfw_select_uses_index(&r->sel) &&
	    wfw_reader_first_row(r->rd, &r->sel.next_index))
		return -EAGAIN;		/* read it whole */
	return ret;
}

/*
 * Column c's kept cells (keep NULL: all) moved up as numbers, with the
 * extremes and sum the decoder finds for plain calc (a selection needs
 * the cells raw to compare them): --include then costs what calc does.
 */
static void keep_nums(struct wfw_col_batch *b, size_t c, int type, const uint32_t *keep,
		      size_t k, struct wfw_run_sums *sums, bool *may_nan)
{
	union wultfw_cell *col = b->col[c];
	struct wfw_stage_mms g;

	sums[c].ok = false;
	may_nan[c] = true;
	if (type == WULTFW_COL_INT) {
		may_nan[c] = !wfw_int_nums_sums(col, keep, k, &sums[c]);
	} else if (type == WULTFW_COL_FLOAT) {	/* NaNs left to statset */
		wfw_stage_mms_start(&g);
		wfw_stage_mms_gather(&g, &col[0].f, col, keep, k);
		sums[c].sum = wfw_stage_mms_end(&g, &col[0].f, &sums[c].lo, &sums[c].hi);
		sums[c].ok = true;
	} else {
		for (size_t i = 0; keep && i < k; i++)
			col[i] = col[keep[i]];
	}
}

/*
 * Column c, decoded as numbers (with the decoder's sums where it found
 * them), its kept cells moved up with their extremes and sum taken anew.
 */
static void keep_decoded(struct wfw_col_batch *b, size_t c, const uint32_t *keep,
			 size_t k, struct wfw_run_sums *sums, bool *may_nan)
{
	union wultfw_cell *col = b->col[c];
	struct wfw_stage_mms g;

	may_nan[c] = b->may_nan[c];
	if (!keep)
		return;		/* every row: the decoder's sums hold */
	wfw_stage_mms_start(&g);
	wfw_stage_mms_gather(&g, &col[0].f, col, keep, k);
	sums[c].sum = wfw_stage_mms_end(&g, &col[0].f, &sums[c].lo, &sums[c].hi);
	sums[c].ok = true;	/* used only where no NaN is among them */
}

/*
 * The rows the selection keeps, as numbers with their sums, into the
 * statistics: columns the expression reads came raw (b->raw), the others
 * as numbers.
 */
static int select_nums(struct calc_result *r, struct wfw_col_batch *b, uint32_t *keep,
		       struct wfw_run_sums *sums, bool *may_nan)
{
	const struct wultfw_schema *sc = wfw_reader_schema(r->rd);
	size_t n = b->rows, k;

	k = wfw_select_cols(&r->sel, (const union wultfw_cell *const *)b->col, b->ncols,
			    n, r->sel.next_index, keep);
	if (k == (size_t)-1)
		return -ENOMEM;
	for (size_t c = 0; c < b->ncols; c++) {
		int type = sc->cols[c].type;

		if (!b->col[c] || !wfw_statset_reads(&r->set, c))
			continue;
		if (b->raw[c] || type == WULTFW_COL_ENUM)
			keep_nums(b, c, type, k == n ? NULL : keep, k, sums, may_nan);
		else
			keep_decoded(b, c, k == n ? NULL : keep, k, sums, may_nan);
	}
	r->sel.next_index += n;
	r->sel.kept += k;
	r->sel.dropped += n - k;
	b->rows = k;
	return wfw_statset_add_nums_sums(&r->set, (const union wultfw_cell *const *)b->col,
					 may_nan, sums, k);
}

/*
 * Grouped statistics gather a column said to hold no NaN with its
 * extremes and sum on the way, not with a test of every value and
 * another pass at the flush: a CSV reader does not look, so calc looks
 * here (calc -c of a CSV file, 3 M rows: 12.6% -> 9.0% more instructions
 * than calc; the look costs some 2 instructions a value).
 */
static void look_for_nans(const struct calc_result *r, struct wfw_col_batch *b)
{
	const struct wultfw_schema *sc = wfw_reader_schema(r->rd);

	if (r->set.gcol < 0 || !b->numbers)
		return;
	for (size_t c = 0; c < b->ncols; c++)
		if (b->col[c] && b->may_nan[c] && (int)c != r->set.gcol &&
		    sc->cols[c].type != WULTFW_COL_ENUM && wfw_statset_reads(&r->set, c))
			b->may_nan[c] = !wfw_nums_all_ok(b->col[c], b->rows);
}

/* A batch of columns into the statistics, through the selection if any. */
static int add_cols(struct calc_result *r, struct wfw_col_batch *b, uint32_t *keep,
		    struct wfw_run_sums *sums, bool *may_nan)
{
	if (!keep) {
		look_for_nans(r, b);
		r->sel.kept += b->rows;
		return wfw_statset_add_nums_sums(&r->set, (const union wultfw_cell *const *)b->col,
						 b->may_nan, b->sums, b->rows);
	}
	return select_nums(r, b, keep, sums, may_nan);
}

/*
 * A binary file: its blocks are stored column by column, so only the
 * columns the statistics and the selection read are decoded, each into an
 * array of its own. Without a selection INT cells go straight to the
 * doubles the statistics take, with the extremes and sums the decoder
 * finds on the way; with one, the cells the expression reads stay as it
 * compares them (b.raw) and the rows it keeps are moved up in the columns
 * the statistics read, as those numbers and sums (select_nums()).
 */
static int stream_cols(struct calc_result *r, char *err, size_t len)
{
	size_t ncols = wfw_reader_schema(r->rd)->ncols;
	bool *want = calloc(ncols ? ncols : 1, sizeof(*want));
	struct wfw_run_sums *sums = calloc(ncols ? ncols : 1, sizeof(*sums));
	bool select = wfw_select_active(&r->sel);
	uint32_t *keep = select ? malloc(CALC_BATCH_ROWS * sizeof(*keep)) : NULL;
	bool *may_nan = calloc(ncols ? ncols : 1, sizeof(*may_nan));
	bool *raw = calloc(ncols ? ncols : 1, sizeof(*raw));
	struct wfw_col_batch b;
	long n = -ENOMEM;

	for (size_t c = 0; want && c < ncols; c++)
		want[c] = wfw_statset_reads(&r->set, c);
	if (want && raw && select) {
		wfw_select_columns(&r->sel, want);
		wfw_select_columns(&r->sel, raw);
	}
	if (!want || !sums || !may_nan || !raw || (select && !keep) ||
	    wfw_col_batch_alloc(&b, ncols, CALC_BATCH_ROWS, want)) {
		free(want);
		free(sums);
		free(keep);
		free(may_nan);
		free(raw);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	free(want);
	b.numbers = true;
	b.raw = raw;	/* the expression compares INT cells as integers */
	b.sums = sums;
	while ((n = wfw_reader_read_cols(r->rd, &b)) > 0) {
		if (add_cols(r, &b, keep, sums, may_nan)) {
			snprintf(err, len, "%s: out of memory", r->path);
			n = -ENOMEM;
			break;
		}
		b.rows = 0;
	}
	wfw_col_batch_free(&b);
	free(sums);
	free(keep);
	free(may_nan);
	free(raw);
	if (n < 0 && n != -ENOMEM)
		snprintf(err, len, "%s", wfw_reader_error(r->rd));
	return n < 0 ? (int)n : 0;
}

/*
 * Column by column where the reader fills the arrays directly; a CSV file
 * with a selection goes by rows: names first seen after the learning rows
 * reach the expression through wfw_select_batch() alone.
 */
static bool by_cols(const struct calc_result *r)
{
	return wfw_reader_native_cols(r->rd) ||
	       (wfw_reader_direct_cols(r->rd) && !wfw_select_active(&r->sel));
}

/* Every row of the file through the selection into the statistics. */
static int stream_rows(struct calc_result *r, char *err, size_t len)
{
	struct wultfw_batch b;
	long n;

	if (by_cols(r))
		return stream_cols(r, err, len);

	if (wfw_batch_alloc(&b, wfw_reader_schema(r->rd)->ncols, CALC_BATCH_ROWS)) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	while ((n = wfw_reader_read(r->rd, &b)) > 0) {
		if (wfw_select_batch(&r->sel, &b)) {
			snprintf(err, len, "%s: %s", r->path, r->sel.err);
			n = -EINVAL;
			break;
		}
		if (wfw_statset_add(&r->set, &b)) {
			snprintf(err, len, "%s: out of memory", r->path);
			n = -ENOMEM;
			break;
		}
		b.rows = 0;
	}
	wfw_batch_free(&b);
	if (n < 0 && n != -ENOMEM && !r->sel.err[0])
		snprintf(err, len, "%s", wfw_reader_error(r->rd));
	return n < 0 ? (int)n : 0;
}

void calc_result_free(struct calc_result *r)
{
	if (r->have_set)
		wfw_statset_free(&r->set);
	wfw_select_free(&r->sel);
	wfw_seen_free(&r->seen);
	if (r->rd)
		wfw_reader_close(r->rd);
	r->have_set = false;
	r->rd = NULL;
	memset(&r->sel, 0, sizeof(r->sel));
}

/* ---- several threads over parts of one CSV file ---- */

/* Part k (of cp->n) of the file into its own statistics, cp->res[k]. */
struct calc_parts {
	struct calc *c;
	struct calc_result *res;
	unsigned n;
	uint64_t size;		/* the file's, when the parts were planned */
	char (*cut)[700];	/* per part: why, if it found the file cut */
};

static int part_read(void *ctx, unsigned slot, uint64_t k)
{
	struct calc_parts *cp = ctx;
	struct calc_result *r = &cp->res[k];
	char *err = cp->cut[k];	/* said only if the file was cut */
	int ret = open_result(cp->c, r, (unsigned)k, cp->n, cp->size, err,
			      sizeof(cp->cut[k]));

	if (!ret)
		ret = stream_rows(r, err, sizeof(cp->cut[k]));
	if (ret != WFW_E_CUT)
		err[0] = '\0';	/* one reader says what else is wrong */
	return ret;
}

/* Parts 1.. into part 0, in order. */
static int part_merge(void *ctx, unsigned slot, uint64_t k)
{
	struct calc_parts *cp = ctx;
	struct calc_result *dst = &cp->res[0], *src = &cp->res[k];
	int ret;

	/* the names each part's reader saw, before it goes */
	if (!k && wfw_select_active(&dst->sel))
		wfw_seen_init(&dst->seen, &dst->sel);
	wfw_seen_note(&dst->seen, wfw_reader_schema(src->rd));
	if (!k)
		return 0;
	ret = wfw_statset_merge(&dst->set, &src->set);
	dst->sel.kept += src->sel.kept;
	dst->sel.dropped += src->sel.dropped;
	calc_result_free(src);
	return ret;
}

static const struct wfw_par_ops part_ops = { .work = part_read, .emit = part_merge };

/*
 * A part found the file cut shorter while read: the one reader the other
 * errors fall back to would read another file (the rest of it, and exit
 * 0), so that is final. WFW_E_CUT with its error in err, or 0.
 */
static int parts_cut(const struct calc_parts *cp, char *err, size_t len)
{
	for (unsigned k = 0; k < cp->n; k++)
		if (cp->cut[k][0]) {
			snprintf(err, len, "%s", cp->cut[k]);
			return WFW_E_CUT;
		}
	return 0;
}

/*
 * 0; WFW_E_CUT, said in err; or anything else: read the file with one
 * reader instead.
 */
static int load_parts(struct calc *c, struct calc_result *r, unsigned n,
		      char *err, size_t len)
{
	struct calc_parts cp = { .c = c, .res = calloc(n, sizeof(*cp.res)), .n = n,
				 .cut = calloc(n, sizeof(*cp.cut)) };
	struct wfw_par p = { .ops = &part_ops, .ctx = &cp, .nparts = n, .threads = n };
	struct calc_result *m = cp.res;
	struct stat st;
	int ret = -ENOMEM;

	if (cp.res && cp.cut && !stat(r->path, &st)) {	/* else one reader says why */
		cp.size = (uint64_t)st.st_size;
		for (unsigned k = 0; k < n; k++) {
			cp.res[k].arg = r->arg;
			memcpy(cp.res[k].path, r->path, sizeof(r->path));
		}
		ret = wfw_par_run(&p);
		if (ret && parts_cut(&cp, err, len))
			ret = WFW_E_CUT;
	}
	if (!ret) {	/* part 0 becomes r */
		r->rd = m->rd;
		r->set = m->set;
		r->sel = m->sel;
		r->seen = m->seen;
		r->have_set = true;
		m->rd = NULL;
		m->have_set = false;
		memset(&m->sel, 0, sizeof(m->sel));
		memset(&m->seen, 0, sizeof(m->seen));
	}
	for (unsigned k = 0; cp.res && k < n; k++)
		calc_result_free(&cp.res[k]);
	free(cp.res);
	free(cp.cut);
	return ret;
}

/* ---- one result ---- */

/* -e asked for more kept values than -M holds: say what it got. */
static void note_limit(const struct calc *c, const struct calc_result *r)
{
	if (c->exact_limit == CALC_DEF_EXACT_LIMIT || r->set.exact_limit >= c->exact_limit)
		return;
	fprintf(stderr, "wultfw calc: %s: -e %zu: %zu values per metric%s fit in -M %zu MiB; raise -M for more\n",
		r->path, c->exact_limit, r->set.exact_limit,
		r->set.gcol >= 0 ? " (all its groups)" : "", c->exact_memory >> 20);
}

static void notes(struct calc *c, struct calc_result *r)
{
	note_no_states(c, r);
	/* Empty, NaN and out-of-range cells are left out: say so. */
	wfw_report_skipped(stderr, "calc", r->path, &r->set);
	note_limit(c, r);
	if (wfw_select_active(&r->sel))
		fprintf(stderr, "wultfw calc: %s: %llu of %llu rows selected\n",
			r->path, (unsigned long long)r->sel.kept,
			(unsigned long long)(r->sel.kept + r->sel.dropped));
	wfw_seen_warn(&r->seen, "calc", r->path, stderr);
	if (wfw_reader_ignored_bytes(r->rd))
		fprintf(stderr, "wultfw calc: %s: ignored %llu bytes after the "
			"last whole record (file cut short)\n", r->path,
			(unsigned long long)wfw_reader_ignored_bytes(r->rd));
}

/* A killed run's file the kill left empty: say that, not "empty file". */
int calc_killed_before_data(const char *path)
{
	struct stat st;
	char why[256];

	if (stat(path, &st) || st.st_size != 0 ||
	    wfw_run_end(path, why, sizeof(why)) != WFW_RUN_KILLED)
		return 0;
	fprintf(stderr, "wultfw calc: %s: the run was killed before its first "
		"datapoint reached this file: nothing to compute\n", path);
	return 1;
}

/* -c on a result without C-states: say so, and why when info.yml knows. */
void calc_no_cstates_note(const char *path)
{
	struct wfw_infoyml y;
	char *drv = NULL, *cs = NULL, why[512] = "";

	if (!wfw_infoyml_read(&y, path)) {
		drv = wfw_infoyml_get(&y, "cpuidle_driver");
		cs = wfw_infoyml_get(&y, "cstates");
		wfw_infoyml_free(&y);
	}
	if (drv && cs)
		snprintf(why, sizeof(why), " (its run: cpuidle driver %s, %s)", drv, cs);
	else if (drv || cs)
		snprintf(why, sizeof(why), " (its run: %s%s)", drv ? "cpuidle driver " : "",
			 drv ? drv : cs);
	fprintf(stderr, "wultfw calc: %s: no ReqCState column, --per-cstate shows all rows only%s\n",
		path, why);
	free(drv);
	free(cs);
}

int calc_load(struct calc *c, struct calc_result *r)
{
	char err[700];
	unsigned n;
	int ret;

	ret = wfw_result_locate(r->arg, r->path, sizeof(r->path), err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw calc: %s\n", err);
		return ret;
	}
	wfw_run_end_warn("calc", r->path);
	if (calc_killed_before_data(r->path))
		return -ENODATA;
	/* Each part selects rows under the names and types its reader learns. */
	n = wfw_par_file_threads(r->path, c->jobs, c->jobs_given);
	ret = n < 2 ? 1 : load_parts(c, r, n, err, sizeof(err));
	if (ret && ret != WFW_E_CUT) {
		ret = open_result(c, r, 0, 1, 0, err, sizeof(err));
		if (!ret)
			ret = stream_rows(r, err, sizeof(err));
		if (!ret && wfw_select_active(&r->sel) && !wfw_seen_init(&r->seen, &r->sel))
			wfw_seen_note(&r->seen, wfw_reader_schema(r->rd));
	}
	if (ret) {
		fprintf(stderr, "wultfw calc: %s\n", err);
		return ret;
	}
	if (c->per_cstate && r->set.gcol < 0)
		calc_no_cstates_note(r->path);
	notes(c, r);
	return 0;
}
