/* SPDX-License-Identifier: MIT */
/*
 * wultfw filter RESULT -o NEWRESULT: a new result directory holding the
 * rows an --include/--exclude expression selects (and, with --metrics,
 * only some columns), in the input's format unless --to says otherwise:
 * datapoints.csv or datapoints.wfb. Its info.yml is the old one plus what
 * was selected, from which result, and how many rows were kept, so every
 * wultfw command (and, for CSV, wult's tools) opens it like any result.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "datafmt/infoyml.h"
#include "datafmt/locate.h"
#include "datafmt/percpu.h"
#include "par/par.h"
#include "tools/convert.h"
#include "tools/filter.h"
#include "tools/replace.h"
#include "cliopts.h"
#include "resultdir.h"
#include "signals.h"

#define FILTER_BATCH 8192

struct filter {
	const char *in, *include, *exclude, *metrics;
	int to;				/* --to: index in formats[], -1: not given */
	const char *out;		/* the directory written now */
	struct wfw_replace rep;		/* NEWRESULT as the user named it */
	int outfmt;			/* WFW_FMT_CSV or WFW_FMT_BINARY; 0: the input's */
	bool force;
	bool one_pass;			/* the reader learns types from the first rows */
	unsigned jobs;			/* -j: threads */
	bool jobs_given;
	bool all_cols;			/* no --metrics: map is the identity */
	char path[PATH_MAX];		/* the datapoints file read */
	struct wfw_reader *rd;
	struct wfw_select sel;
	struct wultfw_column *cols;	/* the columns written */
	size_t *map;			/* their index in the input */
	struct wultfw_schema schema;
	struct wfw_writer w;		/* datapoints.csv or datapoints.wfb */
	bool cut;			/* chunks read (in_chunks) ended at a stop */
	bool chunked;			/* read in chunks: no reader saw every name */
	struct wfw_seen seen;		/* the names the readers saw */
	bool stopped;			/* a signal cut the rows short */
	bool one_file;			/* --one-file */
	long cpu_at;			/* one CPU of an experiment: its place; -1: all */
	uint64_t first;			/* the `index` of its first row */
	bool cpu_added;			/* its reader added the CPU column */
};

static const char *const formats[] = { "csv", "binary", NULL };

static const struct wfw_cli_opt filter_opts[] = {
	{ "output", 'o', WFW_CLI_STRING, "NEWRESULT", "the new result directory",
	  .off = offsetof(struct filter, out), .required = true },
	{ "to", 't', WFW_CLI_CHOICE, "FORMAT", "write this format instead",
	  .choices = formats, .off = offsetof(struct filter, to) },
	WFW_CLI_SELECT(struct filter, include, exclude),
	{ "metrics", 'm', WFW_CLI_STRING, "LIST", "keep only these columns, in the file's order: names or fnmatch(3) patterns, comma-separated, e.g. 'WakeLatency,CC*%' (each must match)",
	  .off = offsetof(struct filter, metrics) },
	{ "force", 'f', WFW_CLI_FLAG, NULL, "replace NEWRESULT if it is a result directory, once the new one is whole",
	  .off = offsetof(struct filter, force) },
	{ "one-file", 0, WFW_CLI_FLAG, NULL, "RESULT of several CPUs (EXP/cpuN/): one result with a CPU column, not NEWRESULT/cpuN/ again",
	  .off = offsetof(struct filter, one_file) },
	WFW_CLI_JOBS(struct filter, jobs, "threads; by default the online CPUs; 1: no threads"),
	WFW_CLI_END
};

static const struct wfw_cli filter_cli = {
	.name = "filter",
	.usage = "Usage: wultfw filter RESULT -o NEWRESULT [OPTION]...\n"
		 "\n"
		 "Write a new result directory with the datapoints of RESULT (a result\n"
		 "directory, ours or wult's, or a data file) that an expression selects.\n"
		 "NEWRESULT gets the rows in RESULT's format (datapoints.csv, or\n"
		 "datapoints.wfb for a binary RESULT) and an info.yml saying what was\n"
		 "selected. An experiment of several CPUs (EXP/cpuN/) gives one again:\n"
		 "NEWRESULT/cpuN/ of each CPU's selected rows (an expression reads the\n"
		 "experiment as one result with a CPU column, `index` counting over it).\n",
	.epilog = "Expressions: see wultfw(1), SELECTING DATAPOINTS.\n"
		  "Ctrl-C (SIGINT, SIGTERM): NEWRESULT keeps the rows read so far, its\n"
		  "info.yml says filter_status: 'interrupted'; exit status 130 (143).\n",
	.opts = filter_opts,
	.operand = "RESULT", .min_operands = 1, .max_operands = 1,
};

/* The output columns: all, or those of --metrics in the file's order. */
static int pick_columns(struct filter *f)
{
	const struct wultfw_schema *s = wfw_reader_schema(f->rd);
	int ret = filter_pick_columns(s, f->metrics, &f->cols, &f->map,
				      &f->schema.ncols);

	/* A CPU's rows go back into its cpuN/ as they were: no CPU column added. */
	if (!ret && f->cpu_added && f->schema.ncols && f->map[f->schema.ncols - 1] == s->ncols - 1)
		f->schema.ncols--;
	f->schema.cols = f->cols;
	f->all_cols = f->schema.ncols == s->ncols;
	return ret;
}

/*
 * The selected columns of in's rows: in itself when all are, else out.
 * The columns are copied again first: a one-pass reader may have changed
 * a type or added names, and the CSV writer prints each batch by the
 * schema as it is then.
 */
static const struct wultfw_batch *project(struct filter *f,
					  const struct wultfw_batch *in,
					  struct wultfw_batch *out)
{
	const struct wultfw_schema *s = wfw_reader_schema(f->rd);

	for (size_t j = 0; j < f->schema.ncols; j++)
		f->cols[j] = s->cols[f->map[j]];
	if (f->all_cols)
		return in;
	wfw_batch_project(in, f->map, out);
	return out;
}

static bool csv_out(const struct filter *f)
{
	return f->w.fmt == &wfw_format_csv;
}

/* A batch of the kept rows into the output (CSV: lines with a text as they are). */
static int put_rows(struct filter *f, const struct wultfw_batch *b,
		    const struct wfw_row_text *text)
{
	int ret = csv_out(f) ? wfw_csvw_write_from(&f->w.impl.csv, f->rd, b, text)
			     : wfw_writer_write(&f->w, b);

	if (ret)	/* WFW_E_CUT: the input was cut while copied */
		fprintf(stderr, "wultfw filter: %s\n", ret == WFW_E_CUT ?
			wfw_reader_error(f->rd) : wfw_writer_msg(&f->w));
	return ret;
}

/* Every row through one reader (f->rd, not read yet) into f->w. */
static int copy_rows(struct filter *f)
{
	struct wultfw_batch in = { 0 }, out = { 0 };
	const struct wfw_row_text *text = NULL;
	long n = 0;
	int ret = 0;

	if (wfw_batch_alloc(&in, wfw_reader_schema(f->rd)->ncols, FILTER_BATCH) ||
	    wfw_batch_alloc(&out, f->schema.ncols, FILTER_BATCH)) {
		fprintf(stderr, "wultfw filter: out of memory\n");
		ret = -ENOMEM;
	}
	/* Every row, every column: rows the reader can vouch for as they are. */
	if (!ret && csv_out(f) && f->all_cols && !wfw_select_active(&f->sel))
		text = wfw_reader_row_texts(f->rd, FILTER_BATCH);
	while (!ret && (n = wfw_reader_read(f->rd, &in)) > 0) {
		ret = wfw_select_batch(&f->sel, &in);
		if (ret) {
			fprintf(stderr, "wultfw filter: %s: %s\n", f->path, f->sel.err);
			break;
		}
		ret = put_rows(f, project(f, &in, &out), text);
		in.rows = 0;
	}
	if (!ret && n < 0) {
		fprintf(stderr, "wultfw filter: %s\n", wfw_reader_error(f->rd));
		ret = (int)n;
	}
	wfw_batch_free(&in);
	wfw_batch_free(&out);
	return ret;
}

/*
 * The file in chunks on several threads. Where that cannot give what one
 * reader gives, the output starts again for one reader: 1 then.
 */
static int in_chunks(struct filter *f, unsigned jobs)
{
	struct wfw_csv_writer *w = &f->w.impl.csv;
	struct csv_par_args a = {
		.cmd = "filter", .path = f->path,
		.include = f->include, .exclude = f->exclude,
		.one_pass = f->one_pass, .map = f->all_cols ? NULL : f->map,
		.nout = f->schema.ncols, .jobs = jobs, .w = w,
		.stop = &wfw_stop_signal,
	};
	int ret = csv_parallel(&a, wfw_reader_schema(f->rd)->ncols);

	if (!ret) {
		f->sel.kept = a.kept;
		f->sel.dropped = a.dropped;
		f->cut = a.stopped;
		f->chunked = true;
		f->seen = a.seen;
		return 0;
	}
	wfw_seen_free(&a.seen);
	if (ret != -EAGAIN)
		return ret;
	ret = csv_restart(w);
	if (ret)
		fprintf(stderr, "wultfw filter: %s\n", w->out.msg);
	return ret ? ret : 1;
}

/*
 * Threads for a CSV file to CSV: -j, else one for a small file. With a
 * selection too: each chunk resolves its names as its rows bring them and
 * keeps what one reader keeps, as long as its types agree with the first
 * chunk's (else, or at a comparison the types do not fit, the file is
 * read again by one reader, which says where).
 */
static unsigned csv_jobs(const struct filter *f)
{
	return wfw_par_file_threads(f->path, f->jobs, f->jobs_given);
}

/*
 * A binary file to binary: every row and column, its blocks copied as
 * they are; else each block's kept rows and columns gathered as packed, on
 * every core (-j 1: on this thread, the same blocks). Version 1: rows.
 */
static int bin_to_bin(struct filter *f)
{
	int ret;

	if (f->all_cols && convert_raw_fits(f->rd, &f->w, &f->sel)) {
		ret = convert_raw(f->rd, &f->w, "filter");
		f->sel.kept = f->w.rows;
		return ret;
	}
	if (convert_bin_filter_fits(f->rd, &f->w))
		return convert_bin_filter(f->rd, &f->w, &f->sel,
					  f->all_cols ? NULL : f->map, f->jobs,
					  "filter");
	return copy_rows(f);
}

static int write_rows(struct filter *f)
{
	bool bin = wfw_reader_format(f->rd) == WFW_FMT_BINARY;
	unsigned jobs;
	int ret;

	if (bin && !csv_out(f))
		return bin_to_bin(f);
	/*
	 * A binary file's schema never changes: read and format it on every
	 * core (-j 1: on this thread, still from the blocks' chunks).
	 */
	if (bin)
		return convert_csv_parallel(f->rd, &f->w.impl.csv, &f->sel,
					    f->all_cols ? NULL : f->map, f->jobs,
					    FILTER_BATCH, "filter");
	/* CSV to binary: one reader that learned every type at open. */
	jobs = csv_out(f) && f->cpu_at < 0 ? csv_jobs(f) : 1;
	if (jobs > 1) {
		ret = in_chunks(f, jobs);
		if (ret <= 0)
			return ret;
	}
	return copy_rows(f);
}

static int write_info(struct filter *f)
{
	struct filter_note n = {
		.from = f->path, .include = f->include, .exclude = f->exclude,
		.metrics = f->metrics, .kept = f->sel.kept,
		.dropped = f->sel.dropped, .stopped = f->stopped,
	};

	return filter_write_info(f->out, &n);
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(struct filter *f, int argc, char **argv)
{
	enum wfw_cli_next next;

	f->to = -1;
	next = wfw_cli_parse(&filter_cli, f, argc, argv);
	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	f->in = argv[optind];
	f->cpu_at = -1;
	f->outfmt = f->to < 0 ? 0 : f->to ? WFW_FMT_BINARY : WFW_FMT_CSV;
	f->jobs_given = f->jobs != 0;
	if (!f->jobs)
		f->jobs = convert_online_cpus();
	return -1;
}

/*
 * CPU cpu_at of the experiment f->in alone, with the experiment's CPU
 * column; written in its own file's format unless --to says.
 */
static int open_cpu(struct filter *f, char *err, size_t errlen)
{
	struct wfw_percpu p;
	int ret = wfw_percpu_find(&p, f->in, err, errlen);

	if (!ret && (size_t)f->cpu_at < p.n)
		snprintf(f->path, sizeof(f->path), "%s", p.file[f->cpu_at]);
	wfw_percpu_free(&p);
	if (!ret)
		ret = wfw_percpu_reader_open_one(&f->rd, f->in, (size_t)f->cpu_at,
						 &f->cpu_added, err, errlen);
	if (!ret && !f->outfmt) {
		size_t n = strlen(f->path);

		f->outfmt = n > 4 && !strcmp(f->path + n - 4, ".wfb") ? WFW_FMT_BINARY : WFW_FMT_CSV;
	}
	return ret;
}

/*
 * The input, read in one pass: the selection follows the types learned as
 * rows come. A CSV file to binary is read by a reader that learns every
 * type first: a binary file's header and blocks declare them.
 */
static int open_input(struct filter *f, char *err, size_t errlen)
{
	struct wfw_reader_opts o = { .one_pass = true, .stop = &wfw_stop_signal };
	struct wfw_infoyml y;
	int ret = wfw_result_locate(f->in, f->path, sizeof(f->path), err, errlen);

	if (!ret && f->cpu_at >= 0)
		return open_cpu(f, err, errlen);

	/* Its info.yml goes on to the new result: refuse a bad one now. */
	if (!ret && (ret = wfw_infoyml_read(&y, f->path)))
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" : y.err);
	else if (!ret)
		wfw_infoyml_free(&y);
	if (!ret)
		ret = wfw_reader_open_opts(&f->rd, f->path, &o, err, errlen);
	if (ret)
		return ret;
	if (!f->outfmt)
		f->outfmt = wfw_reader_format(f->rd);
	if (f->outfmt == WFW_FMT_BINARY && wfw_reader_format(f->rd) == WFW_FMT_CSV) {
		wfw_reader_close(f->rd);
		f->rd = NULL;
		o.one_pass = false;
		ret = wfw_reader_open_opts(&f->rd, f->path, &o, err, errlen);
	}
	f->one_pass = o.one_pass;
	return ret;
}

/* NEWRESULT's data file, in the output's format. */
static int open_output(struct filter *f, char *err, size_t errlen)
{
	bool bin = f->outfmt == WFW_FMT_BINARY;
	const char **meta = NULL;
	char path[PATH_MAX + 32];
	int ret;

	if (bin && wfw_reader_format(f->rd) == WFW_FMT_BINARY &&
	    !(meta = convert_copy_meta(f->rd))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/%s", f->out,
		 bin ? "datapoints.wfb" : "datapoints.csv");
	ret = wfw_writer_open(&f->w, bin ? &wfw_format_binary : &wfw_format_csv,
			      path, &f->schema, meta, WFW_OUT_EXCL);
	free(meta);
	if (!ret)
		ret = convert_bare_writer(&f->w, f->rd, f->map, f->schema.ncols);
	if (ret)
		snprintf(err, errlen, "%s", wfw_writer_msg(&f->w));
	return ret;
}

/* Everything up to the first row: input, selection, output directory. */
static int prepare(struct filter *f, char *err, size_t errlen)
{
	int ret = open_input(f, err, errlen);

	if (!ret)
		ret = wfw_select_init(&f->sel, f->include, f->exclude,
				      wfw_reader_schema(f->rd), err, errlen);
	if (ret)
		return ret;
	f->sel.next_index = f->first;
	ret = pick_columns(f);
	if (ret) {
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" : "");
		return ret;
	}
	if (wfw_stop_signal)	/* nothing made yet: leave it so */
		return -EINTR;
	ret = wfw_replace_begin_dir(&f->rep, f->path, f->out, f->force, err, errlen);
	if (ret)
		return ret;
	f->out = wfw_replace_path(&f->rep);
	ret = wfw_resultdir_create(f->out, f->force, err, errlen);
	return ret ? ret : open_output(f, err, errlen);
}

/*
 * A failure after the output directory was made: it holds part of the
 * rows and no info.yml, which no tool would take for the whole result.
 */
static void remove_partial(const struct filter *f)
{
	int ret = wfw_remove_tree(f->out);

	if (ret)
		fprintf(stderr, "wultfw filter: cannot remove the partial %s: %s\n",
			f->out, strerror(-ret));
	else
		fprintf(stderr, "wultfw filter: removed the partial %s%s%s\n", f->out,
			f->rep.tmp ? "; left as it was: " : "", f->rep.tmp ? f->rep.final : "");
}

/*
 * A name compared with that no row has (ReqCState == "C7" keeps nothing),
 * once the reader saw every row: each chunk's reader saw only its own.
 */
static void warn_unmatched(struct filter *f)
{
	if (f->stopped || !wfw_select_active(&f->sel))
		return;
	if (!f->chunked && !wfw_seen_init(&f->seen, &f->sel))
		wfw_seen_note(&f->seen, wfw_reader_schema(f->rd));
	wfw_seen_warn(&f->seen, "filter", f->path, stderr);
}

/* A whole new result built beside an old NEWRESULT takes its place. */
static int commit(struct filter *f)
{
	char err[PATH_MAX + 128];
	int ret = wfw_replace_commit_dir(&f->rep, err, sizeof(err));

	if (ret)
		fprintf(stderr, "wultfw filter: %s\n", err);
	else
		f->out = f->rep.final;
	return ret;
}

/*
 * The rows, then info.yml: after a stop signal too, for the rows read
 * until then (whole rows or blocks: the writer's buffer holds no part of
 * one). A failure removes the directory.
 */
static int filter_rows(struct filter *f)
{
	int ret = write_rows(f);

	f->stopped = !ret && (f->cut || wfw_reader_stopped(f->rd));
	if (wfw_writer_close(&f->w) && !ret) {
		fprintf(stderr, "wultfw filter: %s\n", wfw_writer_msg(&f->w));
		ret = -EIO;
	}
	if (!ret)
		ret = write_info(f);
	if (ret)
		remove_partial(f);
	else if (!f->stopped)
		ret = commit(f);	/* a failure keeps the new one, said */
	if (ret)
		return ret;
	if (f->stopped)
		fprintf(stderr, "wultfw filter: interrupted by %s: %s holds the %llu rows kept of the first %llu of %s (info.yml: filter_status: 'interrupted')%s%s\n",
			wfw_signal_name(wfw_stop_signal), f->out,
			(unsigned long long)f->sel.kept,
			(unsigned long long)(f->sel.kept + f->sel.dropped), f->path,
			f->rep.tmp ? "; left as it was: " : "", f->rep.tmp ? f->rep.final : "");
	else if (f->cpu_at < 0)	/* a CPU's: filter_cpus() says the whole */
		fprintf(stderr, "wultfw filter: %llu of %llu rows of %s kept in %s\n",
			(unsigned long long)f->sel.kept,
			(unsigned long long)(f->sel.kept + f->sel.dropped),
			f->path, f->rep.final);
	/* A CPU has no rows of the others': CPU == "1" matches none of cpu0's. */
	if (f->cpu_at < 0)
		warn_unmatched(f);
	return ret;
}

/* One result f->in (or one CPU of it) into f->out; errors said. */
static int filter_one(struct filter *f)
{
	char err[2048] = "";
	int ret = prepare(f, err, sizeof(err));

	if (ret == -EINTR && wfw_stop_signal)
		fprintf(stderr, "wultfw filter: interrupted by %s before %s was made: nothing written\n",
			wfw_signal_name(wfw_stop_signal), f->out);
	else if (ret && *err)
		fprintf(stderr, "wultfw filter: %s\n", err);
	if (!ret && wfw_reader_ignored_bytes(f->rd))
		fprintf(stderr, "wultfw filter: warning: %s: ignored the last %llu bytes: a partial row or block (file cut short)\n",
			f->path, (unsigned long long)wfw_reader_ignored_bytes(f->rd));
	if (!ret)
		ret = filter_rows(f);
	wfw_select_free(&f->sel);
	wfw_seen_free(&f->seen);
	if (f->rd)
		wfw_reader_close(f->rd);
	f->rd = NULL;
	free(f->cols);
	free(f->map);
	f->cols = NULL;
	f->map = NULL;
	wfw_replace_free(&f->rep);
	return ret;
}

/* An experiment of several CPUs: wfw_result_locate() says "EXP/". */
static bool filter_is_percpu(const char *in)
{
	char path[PATH_MAX], err[1024];
	size_t n;

	if (wfw_result_locate(in, path, sizeof(path), err, sizeof(err)))
		return false;
	n = strlen(path);
	return n && path[n - 1] == '/';
}

/* Each CPU of p into dir/cpuN/ (filter_one()), counted in *note. */
static int cpus_rows(struct filter *f, const struct wfw_percpu *p, const char *dir,
		     struct filter_note *note, char *cpus, size_t len)
{
	const struct filter opts = *f;	/* nothing read yet: only the options */
	uint64_t first = 0;
	size_t at = 0;
	int ret = 0;

	for (size_t i = 0; i < p->n && !ret && !f->stopped; i++) {
		char out[PATH_MAX + 32];
		struct filter one = opts;

		snprintf(out, sizeof(out), "%s/cpu%u", dir, p->cpu[i]);
		one.out = out;
		one.force = false;
		one.cpu_at = (long)i;
		one.first = first;
		ret = filter_one(&one);
		if (ret)
			break;
		first = one.sel.next_index;
		note->kept += one.sel.kept;
		note->dropped += one.sel.dropped;
		f->stopped = one.stopped;
		at += (size_t)snprintf(cpus + at, len - at, "%s%u", i ? ", " : "[", p->cpu[i]);
	}
	if (at < len)
		snprintf(cpus + at, len - at, "]");
	return ret;
}

/*
 * An experiment of several CPUs into NEWRESULT/cpuN/ and NEWRESULT/info.yml
 * naming them, built beside an old NEWRESULT (--force) and put in its
 * place once whole. A stop keeps the CPUs done (info.yml names only them).
 */
static int filter_cpus(struct filter *f)
{
	struct filter_note note = { .from = f->in, .include = f->include,
				    .exclude = f->exclude, .metrics = f->metrics };
	struct wfw_replace rep = { 0 };
	char err[2048] = "", cpus[WFW_PERCPU_MAX * 6 + 4];
	const char *dir = NULL;
	struct wfw_percpu p;
	int ret = wfw_percpu_find(&p, f->in, err, sizeof(err));

	if (!ret)
		ret = wfw_replace_begin_dir(&rep, p.file[0], f->out, f->force, err, sizeof(err));
	if (!ret)
		ret = wfw_resultdir_create(dir = wfw_replace_path(&rep), f->force, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw filter: %s\n", err);
		goto out;
	}
	ret = cpus_rows(f, &p, dir, &note, cpus, sizeof(cpus));
	note.cpus = cpus;
	note.stopped = f->stopped;
	if (!ret)
		ret = filter_write_info(dir, &note);
	if (ret && wfw_remove_tree(dir))
		fprintf(stderr, "wultfw filter: cannot remove the partial %s\n", dir);
	else if (!ret && !f->stopped && (ret = wfw_replace_commit_dir(&rep, err, sizeof(err))))
		fprintf(stderr, "wultfw filter: %s\n", err);
	if (!ret)
		fprintf(stderr, "wultfw filter: %llu of %llu rows of %s kept in %s, CPUs %s%s\n",
			(unsigned long long)note.kept,
			(unsigned long long)(note.kept + note.dropped), f->in,
			f->stopped ? dir : rep.final, cpus, f->stopped ? " (interrupted)" : "");
out:
	wfw_replace_free(&rep);
	wfw_percpu_free(&p);
	return ret;
}

/* Exit status: 128+N when signal N stopped it, as for a run. */
int wfw_cmd_filter(int argc, char **argv)
{
	struct filter f = { 0 };
	int ret = parse_args(&f, argc, argv);

	if (ret >= 0)
		return ret;
	/* Ctrl-C, SIGTERM, SIGHUP: stop reading, keep what is written. */
	wfw_signals_install();
	if (!f.one_file && filter_is_percpu(f.in))
		ret = filter_cpus(&f);
	else
		ret = filter_one(&f);
	if ((ret == -EINTR && wfw_stop_signal) || (!ret && f.stopped))
		return 128 + wfw_stop_signal;
	return ret ? 1 : 0;
}
