/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert FILE -o OUT: CSV <-> binary. Reading and writing go
 * through lib/datafmt, the code the csv and binary sinks use, so a binary
 * file converted to CSV equals byte for byte the csv sink's file of the
 * same run.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "expr/seen.h"
#include "par/par.h"
#include "tools/convert.h"
#include "tools/replace.h"
#include "tools/retype.h"
#include "cliopts.h"
#include "signals.h"

#define CONVERT_BATCH 8192

struct convert_args {
	const char *in, *out;		/* out: where it is written now */
	struct wfw_replace rep;		/* out as the user named it */
	const struct wfw_format *fmt;	/* of the output */
	const char *include, *exclude;	/* row selection, or NULL */
	int to;				/* --to: index in formats[], -1: not given */
	int flags;			/* WFW_OUT_EXCL unless --force */
	bool force;			/* --force */
	bool salvage;			/* skip damaged blocks of a binary input */
	bool one_pass;			/* CSV types from the first rows */
	unsigned jobs;			/* -j: formatting threads */
	bool jobs_given;		/* -j on the command line */
};

static const char *const formats[] = { "csv", "binary", NULL };

static const struct wfw_cli_opt convert_opts[] = {
	{ "output", 'o', WFW_CLI_STRING, "OUT", "file to write (never overwritten without --force)",
	  .off = offsetof(struct convert_args, out), .required = true },
	{ "to", 't', WFW_CLI_CHOICE, "FORMAT", "the output's format, else OUT's extension says it",
	  .choices = formats, .off = offsetof(struct convert_args, to) },
	{ "force", 'f', WFW_CLI_FLAG, NULL, "replace OUT if it exists, once the new file is whole",
	  .off = offsetof(struct convert_args, force) },
	WFW_CLI_SELECT(struct convert_args, include, exclude),
	{ "salvage", 0, WFW_CLI_FLAG, NULL, "binary FILE with damaged blocks (checksum mismatch): copy every intact block, skip the damaged ones",
	  .off = offsetof(struct convert_args, salvage) },
	WFW_CLI_JOBS(struct convert_args, jobs, "threads reading a binary FILE and writing it as CSV or binary, or parsing a CSV FILE in chunks for a binary OUT; by default the online CPUs, one parser for a CSV FILE under 8 MiB; 1: no threads. A version 2 FILE to binary is a copy of its blocks"),
	WFW_CLI_END
};

static const struct wfw_cli convert_cli = {
	.name = "convert",
	.usage = "Usage: wultfw convert FILE -o OUT [--to csv|binary] [--force]\n"
		 "                      [--include EXPR] [--exclude EXPR] [--salvage] [-j N]\n"
		 "\n"
		 "Convert a result file between CSV (datapoints.csv, also as written by\n"
		 "wult) and wultfw's binary format (doc/binary-format.md). The input\n"
		 "format is recognized by content; the output format by OUT's extension\n"
		 "(.csv, .wfb) or by --to.\n",
	.opts = convert_opts,
	.operand = "input FILE", .min_operands = 1, .max_operands = 1,
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

/* The format OUT's extension names, or NULL. */
static const struct wfw_format *named_format(const char *out)
{
	if (ends_with(out, ".csv"))
		return &wfw_format_csv;
	if (ends_with(out, ".wfb") || ends_with(out, ".bin"))
		return &wfw_format_binary;
	return NULL;
}

/* The output format from --to, else from OUT's extension; NULL: said why. */
static const struct wfw_format *output_format(int to, const char *out)
{
	const struct wfw_format *named = named_format(out);
	const struct wfw_format *fmt = to == 0 ? &wfw_format_csv : &wfw_format_binary;

	if (to >= 0) {
		if (named && fmt != named)
			fprintf(stderr, "wultfw convert: warning: writing %s into %s, whose name says %s (--to %s)\n",
				fmt == &wfw_format_csv ? "CSV" : "binary", out,
				named == &wfw_format_csv ? "CSV" : "binary", formats[to]);
		return fmt;
	}
	if (named)
		return named;
	fprintf(stderr, "wultfw convert: cannot tell the format of %s from its name: add --to csv or --to binary\n",
		out);
	return NULL;
}

/* Returns -1 to go on, else the exit status. */
static int convert_parse_args(int argc, char **argv, struct convert_args *a)
{
	enum wfw_cli_next next;

	a->to = -1;
	next = wfw_cli_parse(&convert_cli, a, argc, argv);
	if (next != WFW_CLI_NEXT)
		return wfw_cli_status(next);
	a->flags = a->force ? 0 : WFW_OUT_EXCL;
	a->jobs_given = a->jobs != 0;
	if (!a->jobs)
		a->jobs = convert_online_cpus();
	a->in = argv[optind];
	/* Not standard output: the file is replaced only once whole. */
	if (!strcmp(a->out, "-")) {
		fprintf(stderr, "wultfw convert: -o -: convert writes a file, not standard output; name one (e.g. -o datapoints.csv, then cat it)\n");
		return 2;
	}
	a->fmt = output_format(a->to, a->out);
	return a->fmt ? -1 : 2;
}

/*
 * Every batch of the reader through the writer; 0 or an error said.
 * -ESTALE (not said): a column of a one-pass input changed its type, which
 * a binary file already holding blocks of the old type cannot follow.
 */
/* A batch r read into w, rows with a text (CSV to CSV) copied as they are. */
static int write_batch(struct wfw_reader *r, struct wfw_writer *w,
		       const struct wultfw_batch *b, const struct wfw_row_text *text)
{
	int ret;

	if (!text)
		return wfw_writer_write(w, b);
	ret = wfw_csvw_write_from(&w->impl.csv, r, b, text);
	if (!ret)
		w->rows += b->rows;
	return ret;
}

static int copy_rows(struct wfw_reader *r, struct wfw_writer *w,
		     struct wfw_select *sel)
{
	bool fixed = w->fmt == &wfw_format_binary;
	uint64_t gen = wfw_reader_schema_gen(r);
	const struct wfw_row_text *text = NULL;
	struct wultfw_batch b = { 0 };
	long n = 0;
	int ret = 0;

	if (wfw_batch_alloc(&b, wfw_reader_schema(r)->ncols, CONVERT_BATCH)) {
		fprintf(stderr, "wultfw convert: out of memory\n");
		return -ENOMEM;
	}
	/* CSV to CSV, every row: rows the reader vouches for as they are. */
	if (w->fmt == &wfw_format_csv && !wfw_select_active(sel))
		text = wfw_reader_row_texts(r, CONVERT_BATCH);
	while (!ret && (n = wfw_reader_read(r, &b)) > 0) {
		if (fixed && wfw_reader_schema_gen(r) != gen) {
			ret = -ESTALE;
			break;
		}
		wfw_select_batch(sel, &b);
		ret = write_batch(r, w, &b, text);
		if (ret)	/* WFW_E_CUT: the input was cut while copied */
			fprintf(stderr, "wultfw convert: %s\n", ret == WFW_E_CUT ?
				wfw_reader_error(r) : wfw_writer_msg(w));
		b.rows = 0;
	}
	if (!ret && n < 0) {
		fprintf(stderr, "wultfw convert: %s\n", wfw_reader_error(r));
		ret = (int)n;
	}
	wfw_batch_free(&b);
	return ret;
}

/*
 * CSV to binary, every row: parsed in chunks on every core (-j, or a file
 * of WFW_PAR_MIN_BYTES or more), while the types a one-pass reader learned
 * at open hold throughout.
 */
static bool csv_chunks_fit(struct wfw_reader *r, const struct convert_args *a)
{
	return a->one_pass && a->fmt == &wfw_format_binary &&
	       wfw_reader_format(r) == WFW_FMT_CSV &&
	       wfw_par_file_threads(a->in, a->jobs, a->jobs_given) > 1;
}

/* CSV to binary in chunks; 1: it cannot be, the output is back to its header. */
static int csv_in_chunks(const struct convert_args *a, struct wfw_writer *w,
			 struct csv2bin_names **names)
{
	int ret = csv2bin_parallel(a->in, w, a->jobs, &wfw_stop_signal, names);

	if (ret != -EAGAIN)
		return ret;
	ret = csv2bin_restart(w);
	if (ret)
		fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(w));
	return ret ? ret : 1;
}

/*
 * Version 2 binary to binary, every row: the blocks copied as they are;
 * with a selection: each block's kept rows gathered, on every core. Else, on two cores or more: binary to binary, reading and encoding on
 * every core; CSV to binary, parsing in chunks on every core, or reading
 * beside encoding; binary to CSV, reading and formatting (most of the
 * work) on every core. *names: see csv2bin_parallel().
 */
static int write_rows(struct wfw_reader *r, const struct convert_args *a,
		      struct wfw_writer *w, struct wfw_select *sel,
		      struct csv2bin_names **names)
{
	int ret;

	if (convert_raw_fits(r, w, sel))
		return convert_raw(r, w, "convert");
	if (csv_chunks_fit(r, a)) {
		ret = csv_in_chunks(a, w, names);
		if (ret <= 0)
			return ret;
	}
	/* Binary to binary with a selection: the kept rows' cells as packed. */
	if (wfw_select_active(sel) && convert_bin_filter_fits(r, w))
		return convert_bin_filter(r, w, sel, NULL, a->jobs, "convert");
	if (a->jobs > 1 && a->fmt == &wfw_format_binary &&
	    wfw_reader_format(r) == WFW_FMT_BINARY && !wfw_select_active(sel))
		return convert_bin_parallel(r, w, a->jobs);
	if (a->jobs > 1 && a->fmt == &wfw_format_binary)
		return convert_pipelined(r, w, sel, CONVERT_BATCH);
	/* Binary to CSV, even -j 1: rows printed from the blocks' integers. */
	if (wfw_reader_format(r) != WFW_FMT_BINARY || a->fmt != &wfw_format_csv)
		return copy_rows(r, w, sel);
	ret = convert_csv_parallel(r, &w->impl.csv, sel, NULL, a->jobs, CONVERT_BATCH,
				   "convert");
	w->rows = w->impl.csv.rows;
	return ret;
}

/*
 * Convert an opened input; the output is removed unless it came out whole.
 * *rows: the rows written. -ESTALE or -EOVERFLOW (not said): a one-pass
 * input outgrew what the binary header declared; read it again whole.
 */
static int convert(struct wfw_reader *r, const struct convert_args *a,
		   struct wfw_select *sel, uint64_t *rows)
{
	const char **meta = NULL;
	struct csv2bin_names *names = NULL;
	struct wfw_writer w;
	int ret, cret, flags = a->flags;

	if (a->fmt == &wfw_format_binary && wfw_reader_format(r) == WFW_FMT_BINARY)
		meta = convert_copy_meta(r);
	if (a->one_pass)
		flags |= WFW_BINW_GROWS;
	ret = wfw_writer_open(&w, a->fmt, a->out, wfw_reader_schema(r), meta, flags);
	free(meta);
	if (ret) {
		fprintf(stderr, "wultfw convert: %s%s\n", wfw_writer_msg(&w),
			ret == -EEXIST ? " (add --force to replace it)" : "");
		return ret;
	}
	ret = convert_bare_writer(&w, r, NULL, wfw_reader_schema(r)->ncols);
	if (ret)
		fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(&w));
	else
		ret = write_rows(r, a, &w, sel, &names);
	*rows = w.rows;
	cret = wfw_writer_close(&w);
	csv2bin_free(names);
	if (cret && !ret) {
		ret = cret;
		if (ret != -EOVERFLOW || !a->one_pass)
			fprintf(stderr, "wultfw convert: %s\n", wfw_writer_msg(&w));
	}
	if (ret && !(a->one_pass && (ret == -ESTALE || ret == -EOVERFLOW))) {
		/* A half-converted file would pass for a whole one: remove it. */
		unlink(a->out);
		if (a->rep.tmp)
			fprintf(stderr, "wultfw convert: %s left as it was\n", a->rep.final);
		else
			fprintf(stderr, "wultfw convert: %s removed\n", a->out);
	}
	return ret;
}

/* Open the input (and the selection); 0 or an error said. */
static int open_input(struct convert_args *a, struct wfw_reader **r,
		      struct wfw_select *sel)
{
	/* A selection resolves names when it is set up: learn all first. */
	struct wfw_reader_opts o = { .one_pass = a->one_pass,
				     .stop = &wfw_stop_signal };
	char err[512];

	if (wfw_reader_open_opts(r, a->in, &o, err, sizeof(err)) ||
	    wfw_select_init(sel, a->include, a->exclude, wfw_reader_schema(*r),
			    err, sizeof(err))) {
		fprintf(stderr, "wultfw convert: %s\n", err);
		return -EINVAL;
	}
	wfw_reader_set_salvage(*r, a->salvage);
	return 0;
}

/*
 * CSV is read in one pass, its column types learned from the first rows.
 * A CSV output follows a type that changes later; a binary one cannot (its
 * header and blocks declare the types), so then the file is converted
 * again from the start by a reader that learns the types from every row.
 */
static int run(struct convert_args *a, struct wfw_reader **r,
	       struct wfw_select *sel, uint64_t *rows)
{
	struct wultfw_column *first = NULL;
	char what[512];
	int ret;

	a->one_pass = !a->include && !a->exclude;
	ret = open_input(a, r, sel);
	if (!ret && wfw_reader_ignored_bytes(*r))
		fprintf(stderr, "wultfw convert: warning: %s: ignored the last %llu bytes: a partial block or record (file cut short)\n",
			a->in, (unsigned long long)wfw_reader_ignored_bytes(*r));
	if (!ret)
		first = wfw_retype_keep(wfw_reader_schema(*r));
	if (!ret)
		ret = convert(*r, a, sel, rows);
	if (ret != -ESTALE && ret != -EOVERFLOW) {
		free(first);
		return ret;
	}
	what[0] = '\0';
	if (ret == -ESTALE)	/* "A: integers, then numbers" */
		wfw_retype_words(first, wfw_reader_schema(*r), what, sizeof(what));
	free(first);
	fprintf(stderr, "wultfw convert: %s: %s after the first rows%s%s%s: converting again with the types of every row\n",
		a->in, ret == -ESTALE ? "column types changed" : "more names",
		*what ? " (" : "", what, *what ? ")" : "");
	wfw_select_free(sel);
	wfw_reader_close(*r);
	*r = NULL;
	a->one_pass = false;
	a->flags &= ~WFW_OUT_EXCL;	/* the output is our own by now */
	ret = open_input(a, r, sel);
	return ret ? ret : convert(*r, a, sel, rows);
}

/* What a whole conversion did, on stderr. */

/* Each name compared with that no row has, a line each. */
static void warn_unmatched(const struct wfw_select *sel, struct wfw_reader *r,
			   const char *path)
{
	struct wfw_seen z = { 0 };

	if (!wfw_select_active(sel) || wfw_seen_init(&z, sel)) {
		wfw_seen_free(&z);
		return;
	}
	wfw_seen_note(&z, wfw_reader_schema(r));
	wfw_seen_warn(&z, "convert", path, stderr);
	wfw_seen_free(&z);
}
static void say_done(const struct convert_args *a, struct wfw_reader *r,
		     const struct wfw_select *sel, uint64_t rows)
{
	char msg[1024];

	if (wfw_reader_damaged(r)) {
		wfw_reader_damage_summary(r, msg, sizeof(msg));
		fprintf(stderr, "wultfw convert: %s: %s\n", a->in, msg);
	}
	warn_unmatched(sel, r, a->in);
	if (wfw_select_active(sel))
		fprintf(stderr, "wultfw convert: %llu of %llu rows from %s to %s\n",
			(unsigned long long)sel->kept,
			(unsigned long long)(sel->kept + sel->dropped), a->in, a->rep.final);
	else
		fprintf(stderr, "wultfw convert: %llu rows from %s to %s\n",
			(unsigned long long)rows, a->in, a->rep.final);
}

/*
 * Stopped by a signal: the output holds the first rows, whole; it takes
 * the place of an older OUT only when the conversion completes.
 */
static void say_stopped(const struct convert_args *a, uint64_t rows)
{
	fprintf(stderr, "wultfw convert: interrupted by %s: the first %llu rows of %s are in %s (whole rows or blocks: it reads as it is)%s%s%s\n",
		wfw_signal_name(wfw_stop_signal), (unsigned long long)rows, a->in,
		a->out, a->rep.tmp ? "; " : "", a->rep.tmp ? a->rep.final : "",
		a->rep.tmp ? " left as it was" : "");
}

/* Exit status: 128+N when signal N stopped it (SIGINT, SIGTERM, SIGHUP). */
int wfw_cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	struct wfw_select sel = { 0 };
	struct wfw_reader *r = NULL;
	uint64_t rows = 0;
	bool stopped;
	int ret = convert_parse_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	if (wfw_replace_begin(&a.rep, "convert", a.in, a.out, !(a.flags & WFW_OUT_EXCL)))
		return 1;
	a.out = wfw_replace_path(&a.rep);
	/* Ctrl-C, SIGTERM, SIGHUP: stop reading, keep what is written. */
	wfw_signals_install();
	ret = run(&a, &r, &sel, &rows);
	stopped = !ret && wfw_stop_signal;
	if (stopped)
		say_stopped(&a, wfw_select_active(&sel) ? sel.kept : rows);
	else if (!ret)
		ret = wfw_replace_commit(&a.rep, "convert");
	if (!ret && !stopped)
		say_done(&a, r, &sel, rows);
	wfw_replace_free(&a.rep);
	wfw_select_free(&sel);
	if (r)
		wfw_reader_close(r);
	if (stopped)
		return 128 + wfw_stop_signal;
	return ret ? 1 : 0;
}
