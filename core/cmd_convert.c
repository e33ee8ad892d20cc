/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert FILE -o OUT: CSV <-> binary. Reading and writing go
 * through lib/datafmt, the code the csv and binary sinks use, so a binary
 * file converted to CSV equals byte for byte the csv sink's file of the
 * same run.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "datafmt/reader.h"
#include "datafmt/writer.h"
#include "expr/expr.h"

#define CONVERT_BATCH 8192

static void convert_usage(FILE *f)
{
	fputs("Usage: wultfw convert FILE -o OUT [--to csv|binary] [--force]\n"
	      "                      [--include EXPR] [--exclude EXPR]\n"
	      "\n"
	      "Convert a result file between CSV (datapoints.csv, also as written by\n"
	      "wult) and wultfw's binary format (doc/binary-format.md). The input\n"
	      "format is recognized by content; the output format by OUT's extension\n"
	      "(.csv, .wfb) or by --to.\n"
	      "\n"
	      "  -o, --output OUT   file to write (never overwritten without --force)\n"
	      "  -t, --to FORMAT    csv or binary\n"
	      "  -f, --force        overwrite OUT if it exists\n"
	      "      --include=EXPR only rows where EXPR holds\n"
	      "      --exclude=EXPR leave out rows where EXPR holds\n"
	      "                     (expressions: wultfw(1), SELECTING DATAPOINTS)\n"
	      "  -h, --help         this help\n", f);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

/* Metadata of a binary input, passed on to a binary output. */
static const char **copy_meta(struct wfw_reader *r)
{
	static const char *const keys[] = {
		"experiment", "devid", "devdescr", "cpu", "resolution_ns",
	};
	const char **meta = calloc(2 * 5 + 1, sizeof(char *));
	size_t n = 0;

	if (!meta)
		return NULL;
	for (size_t i = 0; i < 5; i++) {
		const char *v = wfw_reader_meta(r, keys[i]);

		if (v) {
			meta[n++] = keys[i];
			meta[n++] = v;
		}
	}
	return meta;
}

int wfw_cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "to", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'f' },
		{ "include", required_argument, NULL, 'I' },
		{ "exclude", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in, *out = NULL, *to = NULL, *include = NULL, *exclude = NULL;
	struct wfw_select sel = { 0 };
	struct wfw_csv_writer cw;
	struct wfw_bin_writer bw;
	struct wfw_reader *r = NULL;
	struct wultfw_batch b = { 0 };
	const char **meta = NULL;
	int binary_out, flags = WFW_OUT_EXCL, ret, opt;
	char err[512];
	long n;

	optind = 0;	/* glibc: full reset, main() may have used getopt */
	while ((opt = getopt_long(argc, argv, "o:t:fh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 't': to = optarg; break;
		case 'f': flags = 0; break;
		case 'I': include = optarg; break;
		case 'X': exclude = optarg; break;
		case 'h': convert_usage(stdout); return 0;
		default: convert_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !out) {
		fprintf(stderr, "wultfw convert: %s\n",
			optind >= argc ? "no input FILE given"
			: optind < argc - 1 ? "give exactly one input FILE"
			: "no output given: add -o OUT");
		convert_usage(stderr);
		return 2;
	}
	in = argv[optind];
	if (to) {
		if (!strcmp(to, "csv")) {
			binary_out = 0;
		} else if (!strcmp(to, "binary")) {
			binary_out = 1;
		} else {
			fprintf(stderr, "wultfw convert: --to %s: use csv or binary\n", to);
			return 2;
		}
	} else if (ends_with(out, ".csv")) {
		binary_out = 0;
	} else if (ends_with(out, ".wfb") || ends_with(out, ".bin")) {
		binary_out = 1;
	} else {
		fprintf(stderr, "wultfw convert: cannot tell the format of %s from its name: add --to csv or --to binary\n",
			out);
		return 2;
	}

	ret = wfw_reader_open(&r, in, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wultfw convert: %s\n", err);
		return 1;
	}
	if (wfw_select_init(&sel, include, exclude, wfw_reader_schema(r), err,
			    sizeof(err))) {
		fprintf(stderr, "wultfw convert: %s\n", err);
		wfw_reader_close(r);
		return 1;
	}
	if (wfw_reader_ignored_bytes(r))
		fprintf(stderr, "wultfw convert: warning: %s: the last %llu bytes are a partial record (file cut short), ignored\n",
			in, (unsigned long long)wfw_reader_ignored_bytes(r));

	if (binary_out) {
		if (wfw_reader_format(r) == WFW_FMT_BINARY)
			meta = copy_meta(r);
		ret = wfw_binw_open(&bw, out, wfw_reader_schema(r), meta, flags);
	} else {
		ret = wfw_csvw_open(&cw, out, wfw_reader_schema(r), flags);
	}
	if (ret) {
		fprintf(stderr, "wultfw convert: %s%s\n",
			binary_out ? bw.out.msg : cw.out.msg,
			ret == -EEXIST ? " (add --force to replace it)" : "");
		free(meta);
		wfw_select_free(&sel);
		wfw_reader_close(r);
		return 1;
	}
	if (wfw_batch_alloc(&b, wfw_reader_schema(r)->ncols, CONVERT_BATCH)) {
		fprintf(stderr, "wultfw convert: out of memory\n");
		ret = -ENOMEM;
	}
	while (!ret && (n = wfw_reader_read(r, &b)) > 0) {
		wfw_select_batch(&sel, &b);
		ret = binary_out ? wfw_binw_write(&bw, &b) : wfw_csvw_write(&cw, &b);
		if (ret)
			fprintf(stderr, "wultfw convert: %s\n",
				binary_out ? bw.out.msg : cw.out.msg);
		b.rows = 0;
	}
	if (!ret && n < 0) {
		fprintf(stderr, "wultfw convert: %s\n", wfw_reader_error(r));
		ret = (int)n;
	}
	{
		int cret = binary_out ? wfw_binw_close(&bw) : wfw_csvw_close(&cw);

		if (cret && !ret) {
			fprintf(stderr, "wultfw convert: %s\n",
				binary_out ? bw.out.msg : cw.out.msg);
			ret = cret;
		}
	}
	if (ret) {
		/* A half-converted file would pass for a whole one: remove it. */
		unlink(out);
		fprintf(stderr, "wultfw convert: %s removed\n", out);
	} else if (wfw_select_active(&sel)) {
		fprintf(stderr, "wultfw convert: %llu of %llu rows from %s to %s\n",
			(unsigned long long)sel.kept,
			(unsigned long long)wfw_reader_rows(r), in, out);
	} else {
		fprintf(stderr, "wultfw convert: %llu rows from %s to %s\n",
			(unsigned long long)wfw_reader_rows(r), in, out);
	}
	wfw_select_free(&sel);
	wfw_batch_free(&b);
	free(meta);
	wfw_reader_close(r);
	return ret ? 1 : 0;
}
