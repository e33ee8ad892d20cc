// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the binary reader (lib/datafmt, format in
 * doc/binary-format.md). Every input gets the magic (prepended when it
 * does not start with it). Then, so that mutations reach the header
 * parser and the block decoder instead of dying at a checksum, the
 * harness recomputes the header's CRC-32 and every block's two CRC-32Cs,
 * walking the blocks by their (mutated) payload lengths; the reader
 * itself is the production code. Two bits of the header's flags field,
 * which readers ignore, steer the harness:
 *   0x8000  keep the checksums as they are (the damage paths);
 *   0x4000  salvage: skip damaged blocks, as convert --salvage does.
 * The file is read whole; without salvage, read to the end, it must give
 * exactly the rows the reader counted at open. A file read whole is then
 * written again by the binary writer (as convert does, with short blocks
 * from flushes) and read back: every cell must come back bit for bit,
 * and read column by column (as calc does: INT cells as numbers) it must
 * give the same cells, with no NaN where the reader said none can be, and
 * the extremes and sums the decoder found must be those of the cells;
 * read as column chunks (as convert does, 3 rows a piece and whole
 * blocks) it must give them too.
 * With FUZZ_BINARY_DUMP=FILE in the environment, the file as the reader
 * saw it (magic added, checksums fixed) is also written to FILE: that is
 * what goes to tests/data/regress/ from a crash input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binblock.h"
#include "binfmt.h"
#include "datafmt/crc32c.h"
#include "datafmt/le.h"
#include "stats/moments.h"
#include "fuzz_read.h"
#include "writer.h"

#define FUZZ_KEEP_CRCS	0x8000
#define FUZZ_SALVAGE	0x4000
/* Round trips of files with more cells than this are skipped. */
#define FUZZ_MAX_CELLS	(1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Block checksums from offset off on (version 2 framing). */
static void fix_blocks(unsigned char *p, size_t n, size_t off)
{
	while (n - off >= WFW_BLK_HDR_LEN) {
		unsigned char *h = p + off;
		size_t len = wfw_get32(h + 4), avail = n - off - WFW_BLK_HDR_LEN;

		wfw_put32(h + 8, wfw_crc32c(0, h + WFW_BLK_HDR_LEN, len < avail ? len : avail));
		wfw_put32(h + 12, wfw_crc32c(0, h, 12));
		if (len > avail)
			return;		/* a cut last block */
		off += WFW_BLK_HDR_LEN + len;
	}
}

/* Checksums of p[0..n) as a writer would have computed them. */
static void fix_crcs(unsigned char *p, size_t n)
{
	size_t hlen;

	if (n < WFW_BIN_FIXED_LEN)
		return;
	hlen = wfw_get32(p + 16);
	if (hlen < WFW_BIN_FIXED_LEN || hlen > n)
		return;
	wfw_put32(p + 32, 0);
	wfw_put32(p + 32, wfw_crc32(0, p, hlen));
	if (wfw_get16(p + 12) == WFW_BIN_VERSION)
		fix_blocks(p, n, hlen);
}

/* Every cell of the file at path, up to FUZZ_MAX_CELLS; NULL if more or bad. */
static union wultfw_cell *read_cells(const char *path, struct wfw_reader **rp,
				     size_t *nrows)
{
	struct wultfw_batch b;
	char err[512];
	size_t ncols;
	long n;

	if (wfw_reader_open(rp, path, err, sizeof(err)))
		return NULL;
	ncols = wfw_reader_schema(*rp)->ncols;
	if (wfw_batch_alloc(&b, ncols, 256))
		return NULL;
	while ((n = wfw_reader_read(*rp, &b)) > 0 && b.rows * ncols < FUZZ_MAX_CELLS) {
		union wultfw_cell *nb = realloc(b.cells, (b.rows + 256) * ncols * sizeof(*nb) + 1);

		if (!nb)
			abort();
		b.cells = nb;
		b.capacity = b.rows + 256;
	}
	*nrows = b.rows;
	if (n == 0)
		return b.cells;
	free(b.cells);
	return NULL;
}

static void write_cells(const char *path, const struct wultfw_schema *s,
			union wultfw_cell *cells, size_t rows)
{
	struct wfw_bin_writer w;
	struct wultfw_batch b = { .cells = cells, .ncols = s->ncols };
	size_t step = rows / 3 + 1;

	if (wfw_binw_open(&w, path, s, NULL, 0)) {
		fprintf(stderr, "fuzz: cannot write what was read: %s\n", w.out.msg);
		abort();
	}
	/* Three writes with a flush after each: short blocks, as a sink makes. */
	for (size_t r = 0; r < rows; r += step) {
		b.cells = cells + r * s->ncols;
		b.rows = b.capacity = rows - r < step ? rows - r : step;
		if (wfw_binw_write(&w, &b) || wfw_binw_flush(&w))
			break;
	}
	if (wfw_binw_close(&w)) {
		fprintf(stderr, "fuzz: writing what was read failed: %s\n", w.out.msg);
		abort();
	}
}

static bool same_schema(const struct wultfw_schema *a, const struct wultfw_schema *b)
{
	if (a->ncols != b->ncols)
		return false;
	for (size_t c = 0; c < a->ncols; c++) {
		const struct wultfw_column *x = &a->cols[c], *y = &b->cols[c];

		if (x->type != y->type || x->divisor != y->divisor || x->n_enum != y->n_enum ||
		    strcmp(x->name, y->name) || strcmp(x->unit, y->unit))
			return false;
		for (size_t k = 0; k < x->n_enum; k++)
			if (strcmp(x->enum_names[k], y->enum_names[k]))
				return false;
	}
	return true;
}

/* One cell as wfw_col_batch.numbers gives it. */
static int64_t as_number(const struct wultfw_column *col, union wultfw_cell c)
{
	union wultfw_cell n = { .f = (double)c.i };

	if (col->type != WULTFW_COL_INT)
		return c.i;
	return c.i == WULTFW_CELL_EMPTY ? WULTFW_FLOAT_EMPTY_BITS : n.i;
}

/* Does batch b agree with rows [r0, r0 + b->rows) of the row cells? */
static bool cols_match(const struct wultfw_schema *s, const struct wfw_col_batch *b,
		       const union wultfw_cell *cells, size_t r0)
{
	for (size_t c = 0; c < s->ncols; c++)
		for (size_t k = 0; k < b->rows; k++) {
			union wultfw_cell want = cells[(r0 + k) * s->ncols + c];

			if (b->col[c][k].i != as_number(&s->cols[c], want) ||
			    (!b->may_nan[c] && s->cols[c].type != WULTFW_COL_ENUM &&
			     b->col[c][k].f != b->col[c][k].f))
				return false;
		}
	return true;
}

/*
 * Where the decoder says it found a column's extremes and sum, they are
 * what wfw_min_max_sum() gives for the cells it decoded, bit for bit.
 */
static bool sums_match(const struct wfw_col_batch *b)
{
	for (size_t c = 0; c < b->ncols; c++) {
		const struct wfw_run_sums *s = &b->sums[c];
		double lo = INFINITY, hi = -INFINITY, sum;

		if (!s->ok)
			continue;
		sum = wfw_min_max_sum(&b->col[c][0].f, b->rows, &lo, &hi);
		if (memcmp(&lo, &s->lo, sizeof(lo)) || memcmp(&hi, &s->hi, sizeof(hi)) ||
		    memcmp(&sum, &s->sum, sizeof(sum)))
			return false;
	}
	return true;
}

/* Column by column, as numbers: the same cells as rows. */
static void check_cols(const char *path, const union wultfw_cell *cells, size_t rows)
{
	struct wfw_reader *r;
	struct wfw_col_batch b;
	size_t at = 0;
	char err[512];
	long n = 0;

	if (wfw_reader_open(&r, path, err, sizeof(err)))
		abort();	/* it opened a moment ago */
	if (wfw_col_batch_alloc(&b, wfw_reader_schema(r)->ncols, 100, NULL))
		abort();
	b.numbers = true;
	b.sums = calloc(b.ncols + 1, sizeof(*b.sums));	/* as calc asks */
	if (!b.sums)
		abort();
	while (at < rows && (n = wfw_reader_read_cols(r, &b)) > 0) {
		if (at + b.rows > rows || !cols_match(wfw_reader_schema(r), &b, cells, at)) {
			fprintf(stderr, "fuzz: rows %zu.. read column by column differ\n", at);
			abort();
		}
		if (!sums_match(&b)) {
			fprintf(stderr, "fuzz: rows %zu..: the decoder's sums are not the cells'\n", at);
			abort();
		}
		at += b.rows;
		b.rows = 0;
	}
	if (n < 0 || at != rows) {
		fprintf(stderr, "fuzz: %zu rows read, column by column %zu\n", rows, at);
		abort();
	}
	free(b.sums);
	wfw_col_batch_free(&b);
	wfw_reader_close(r);
}

/*
 * In pieces of a block's column chunks, as convert takes them (pieces of
 * `max` rows: copied, or the block's own buffer handed over): the cells.
 */
static void check_chunks(const char *path, const union wultfw_cell *cells,
			 size_t rows, size_t max)
{
	struct wfw_reader *r;
	struct wfw_blk_col *c;
	union wultfw_cell cell;
	unsigned char *buf = NULL;
	size_t cap = 0, first, at = 0, nc;
	char err[512];
	long n = 0;

	if (wfw_reader_open(&r, path, err, sizeof(err)))
		abort();	/* it opened a moment ago */
	nc = wfw_reader_schema(r)->ncols;
	c = calloc(nc ? nc : 1, sizeof(*c));
	if (!c)
		abort();
	while (wfw_reader_native_cols(r) &&
	       (n = wfw_reader_read_chunks(r, max, &buf, &cap, c, &first)) > 0) {
		for (size_t k = 0; k < (size_t)n; k++, at++)
			for (size_t j = 0; j < nc; j++) {
				wfw_blk_decode_col(&c[j], first + k, 1, &cell);
				if (at >= rows || cell.i != cells[at * nc + j].i) {
					fprintf(stderr, "fuzz: row %zu column %zu read as chunks (%zu a piece) differs\n",
						at, j, max);
					abort();
				}
			}
	}
	if (n < 0 || (wfw_reader_native_cols(r) && at != rows)) {
		fprintf(stderr, "fuzz: %zu rows read, as chunks %zu\n", rows, at);
		abort();
	}
	free(buf);
	free(c);
	wfw_reader_close(r);
}

/* What a file read whole holds must survive the writer bit for bit. */
static void round_trip(const char *path)
{
	struct wfw_reader *r = NULL, *r2 = NULL;
	union wultfw_cell *a, *b = NULL;
	size_t rows, rows2 = 0;
	char out[64];
	int fd;

	a = read_cells(path, &r, &rows);
	if (a) {
		check_cols(path, a, rows);
		check_chunks(path, a, rows, 3);
		check_chunks(path, a, rows, 65536);
	}
	fd = a ? fuzz_memfd("", 0, "", 0, out, sizeof(out)) : -1;
	if (fd >= 0) {
		const struct wultfw_schema *s = wfw_reader_schema(r);

		write_cells(out, s, a, rows);
		b = read_cells(out, &r2, &rows2);
		if (b && !same_schema(s, wfw_reader_schema(r2))) {
			fprintf(stderr, "fuzz: the schema changed on the way through the writer\n");
			abort();
		}
		if (!b || rows2 != rows || memcmp(a, b, rows * s->ncols * sizeof(*a))) {
			fprintf(stderr, "fuzz: %zu rows read, written and read back as %zu rows%s\n",
				rows, rows2, b ? ", different cells" : " with an error");
			abort();
		}
		close(fd);
	}
	free(a);
	free(b);
	wfw_reader_close(r);
	wfw_reader_close(r2);
}

/* The file as the reader sees it to $FUZZ_BINARY_DUMP, if set. */
static void dump(const unsigned char *p, size_t n)
{
	const char *name = getenv("FUZZ_BINARY_DUMP");
	FILE *f = name ? fopen(name, "wb") : NULL;

	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t plen = 0, n;
	uint16_t flags = 0;
	unsigned char *buf;
	struct fuzz_run run = { 0 };
	char path[64];
	int fd;

	if (size < WFW_BIN_MAGIC_LEN || memcmp(data, WFW_BIN_MAGIC, WFW_BIN_MAGIC_LEN))
		plen = WFW_BIN_MAGIC_LEN;
	n = plen + size;
	buf = malloc(n ? n : 1);
	if (!buf)
		return 0;
	memcpy(buf, WFW_BIN_MAGIC, plen);
	memcpy(buf + plen, data, size);
	if (n >= WFW_BIN_FIXED_LEN)
		flags = wfw_get16(buf + 14);
	if (!(flags & FUZZ_KEEP_CRCS))
		fix_crcs(buf, n);
	dump(buf, n);
	fd = fuzz_memfd(buf, n, "", 0, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	fuzz_read(path, &(struct wfw_reader_opts){ 0 }, 64, flags & FUZZ_SALVAGE, &run);
	if (!run.ret && !(flags & FUZZ_SALVAGE))
		round_trip(path);
	close(fd);
	return 0;
}
