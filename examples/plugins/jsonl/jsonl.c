/* SPDX-License-Identifier: MIT */
/*
 * jsonl: an out-of-tree sink, the smallest real one. Every datapoint
 * becomes one line of JSON ("JSON lines"): an object with a member per
 * column, numbers as the CSV shows them (raw integers over their divisor),
 * C-state names as strings, empty cells as null.
 *
 * It never opens a file itself: wultfw_file_open() asks the core, so the
 * file option is checked like the csv sink's (inside the result
 * directory, at the file's line, `wultfw --check` included), the file is
 * never opened over an existing one, a full disk leaves whole lines and
 * says how many, and flush_interval / flush_rows bound what a power cut
 * or kill -9 can lose.
 *
 * Build against an installed wultfw:   make
 * Run:  WULTFW_PLUGIN_PATH=$PWD wultfw -c jsonl.cfg
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wultfw/plugin.h>

struct jsonl_cfg {
	struct wultfw_file_cfg f;	/* file, flush_interval, flush_rows */
};

static const struct wultfw_option jsonl_options[] = {
	WULTFW_FILE_OPTIONS(struct jsonl_cfg, f, "datapoints.jsonl"),
	{ NULL },
};

struct jsonl_priv {
	struct wultfw_file *f;
	const struct wultfw_schema *schema;
	char *buf;		/* one batch as text */
	size_t len, cap;
};

/* Room for n more bytes of text. */
static int jsonl_room(struct jsonl_priv *p, size_t n)
{
	char *grown;
	size_t cap;

	if (p->cap - p->len >= n)
		return 0;
	cap = 2 * (p->len + n);
	grown = realloc(p->buf, cap);
	if (!grown)
		return -ENOMEM;
	p->buf = grown;
	p->cap = cap;
	return 0;
}

/* A string as a JSON string, quotes included. */
static int jsonl_string(struct jsonl_priv *p, const char *s)
{
	if (jsonl_room(p, 6 * strlen(s) + 2))
		return -ENOMEM;
	p->buf[p->len++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			p->len += (size_t)sprintf(p->buf + p->len, "\\%c", c);
		else if (c < 0x20)
			p->len += (size_t)sprintf(p->buf + p->len, "\\u%04x", c);
		else
			p->buf[p->len++] = (char)c;
	}
	p->buf[p->len++] = '"';
	return 0;
}

/*
 * INT: raw / divisor with as many decimals as the divisor has zeros (a
 * power of ten, as plugin.h asks). out: VALUE_MAX bytes.
 */
#define VALUE_MAX 40

static int jsonl_int(char *out, int64_t raw, uint32_t divisor)
{
	uint64_t mag = raw < 0 ? 0 - (uint64_t)raw : (uint64_t)raw;
	int decimals = 0;

	if (raw == WULTFW_CELL_EMPTY)
		return sprintf(out, "null");
	if (divisor <= 1)
		return sprintf(out, "%" PRId64, raw);
	for (uint32_t d = divisor; d > 1; d /= 10)
		decimals++;
	return snprintf(out, VALUE_MAX, "%s%" PRIu64 ".%0*" PRIu64,
			raw < 0 ? "-" : "", mag / divisor, decimals, mag % divisor);
}

/* The shortest text that reads back as the same double: 0.33, not 0.33000000000000002. */
static int jsonl_double(char *out, double v)
{
	int n = 0;

	for (int prec = 15; prec <= 17; prec++) {
		n = sprintf(out, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	return n;
}

/* One cell's value; JSON has no NaN or infinity: null. */
static int jsonl_value(struct jsonl_priv *p, const struct wultfw_column *col,
		       union wultfw_cell v)
{
	if (jsonl_room(p, VALUE_MAX))
		return -ENOMEM;
	switch (col->type) {
	case WULTFW_COL_INT:
		p->len += (size_t)jsonl_int(p->buf + p->len, v.i, col->divisor);
		return 0;
	case WULTFW_COL_FLOAT:
		p->len += (size_t)(isfinite(v.f) ? jsonl_double(p->buf + p->len, v.f) :
			sprintf(p->buf + p->len, "null"));
		return 0;
	default:
		if (v.i >= 0 && (size_t)v.i < col->n_enum && col->enum_names[v.i])
			return jsonl_string(p, col->enum_names[v.i]);
		p->len += (size_t)sprintf(p->buf + p->len, "null");
		return 0;
	}
}

static int jsonl_row(struct jsonl_priv *p, const union wultfw_cell *row)
{
	const struct wultfw_schema *s = p->schema;
	int ret = 0;

	for (size_t c = 0; c < s->ncols && !ret; c++) {
		ret = jsonl_room(p, 2);
		if (!ret) {
			p->buf[p->len++] = c ? ',' : '{';
			ret = jsonl_string(p, s->cols[c].name);
		}
		if (!ret && !jsonl_room(p, 1))
			p->buf[p->len++] = ':';
		if (!ret)
			ret = jsonl_value(p, &s->cols[c], row[c]);
	}
	if (!ret)
		ret = jsonl_room(p, 3);
	if (!ret)
		p->len += (size_t)sprintf(p->buf + p->len, "}\n");
	return ret;
}

/* A write cut short keeps the whole lines before its last newline. */
static size_t jsonl_whole(const char *p, size_t n, uint64_t *rows)
{
	size_t keep = 0;

	*rows = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\n') {
			keep = i + 1;
			(*rows)++;
		}
	return keep;
}

static int jsonl_open(struct wultfw_ctx *ctx, const struct wultfw_run_info *run)
{
	const struct jsonl_cfg *cfg = ctx->cfg;
	struct wultfw_file_spec spec = {
		.size = sizeof(spec),
		.name = cfg->f.file,
		.opt = 0,		/* "file": blamed when the name is wrong */
		.kept_key = "jsonl_rows_in_file",
		.sync_ns = cfg->f.flush_interval,
		.handoff_rows = (uint64_t)cfg->f.flush_rows,
		.whole = jsonl_whole,
	};
	struct jsonl_priv *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return wultfw_fail(ctx, -ENOMEM, "out of memory");
	p->schema = run->schema;
	ret = wultfw_file_open(ctx, &spec, &p->f);
	if (ret) {
		free(p);
		return ret;
	}
	ctx->priv = p;
	return 0;
}

static int jsonl_write(struct wultfw_ctx *ctx, const struct wultfw_batch *b)
{
	struct jsonl_priv *p = ctx->priv;

	p->len = 0;
	for (size_t r = 0; r < b->rows; r++)
		if (jsonl_row(p, wultfw_crow(b, r)))
			return wultfw_fail(ctx, -ENOMEM, "out of memory");
	/* Whole lines, and how many: the core keeps count. */
	return wultfw_file_write(ctx, p->f, p->buf, p->len, b->rows);
}

/* Nothing held back here: the core puts the file on the disk. */
static int jsonl_flush(struct wultfw_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int jsonl_close(struct wultfw_ctx *ctx,
		       const struct wultfw_run_summary *summary)
{
	struct jsonl_priv *p = ctx->priv;
	int ret;

	(void)summary;
	ret = wultfw_file_close(ctx, p->f, true);
	free(p->buf);
	free(p);
	ctx->priv = NULL;
	return ret;
}

static const struct wultfw_sink_ops jsonl_ops = {
	.open = jsonl_open,
	.write = jsonl_write,
	.flush = jsonl_flush,
	.close = jsonl_close,
};

WULTFW_PLUGIN(jsonl) = {
	.abi_version = WULTFW_PLUGIN_ABI_VERSION,
	.size = sizeof(struct wultfw_plugin),
	.kind = WULTFW_KIND_SINK,
	.name = "jsonl",
	.summary = "example sink: one JSON object per datapoint, a line each",
	.options = jsonl_options,
	.sink = &jsonl_ops,
	.cfg_size = sizeof(struct jsonl_cfg),
};
