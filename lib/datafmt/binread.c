/* SPDX-License-Identifier: MIT */
/*
 * The binary reader: files written by the `binary` sink
 * (doc/binary-format.md). Version 2 files are read block by block, each
 * block's checksums verified before any of its rows is handed out;
 * version 1 files (fixed 64-bit records) are read with pread in whole
 * records. Either can be read in parts (wfw_reader_opts.nparts), each
 * starting at a block (version 1: a record), for several threads.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/binblock.h"
#include "datafmt/binfmt.h"
#include "datafmt/crc32c.h"
#include "datafmt/reader_impl.h"
#include "stats/moments.h"

#define rfail wfw_reader_fail

struct bin_reader {
	struct wfw_reader base;
	struct wfw_bin_header hdr;
	uint64_t size;
	/* version 2 */
	uint64_t pos;		/* file offset of the next block */
	uint64_t block_no;	/* its number, 0 for the first */
	uint64_t rows_before;	/* rows in the blocks before it */
	uint64_t stop;		/* a part ends at the first block from here */
	bool walk_damaged;	/* the walk met a damaged block header */
	/* version 1: the next record and the end of the records read */
	uint64_t rec_next, rec_end;
	unsigned char *buf;	/* the current block's payload */
	size_t bufcap;
	struct wfw_blk_col *cols;
	uint32_t blk_rows, blk_next;
	/*
	 * Set by a damaged block: its payload length and row count when its
	 * header holds, else -1.
	 */
	int64_t damage_len, damage_rows;
	char why[256];		/* detail of the last damaged block */
};

static struct bin_reader *to_bin(struct wfw_reader *r)
{
	return (struct bin_reader *)r;	/* base is the first member */
}

/* n bytes at off, retrying short reads; -EIO when the file ends first. */
static int pread_full(int fd, void *p, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t got = pread(fd, (char *)p + done, n - done, (off_t)(off + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		done += (size_t)got;
	}
	return 0;
}

static int read_header(struct bin_reader *r)
{
	size_t want = r->size < 65536 ? (size_t)r->size : 65536, need = 0;
	unsigned char *buf = NULL;
	char why[256];
	int ret;

	for (;;) {
		unsigned char *nb = realloc(buf, want ? want : 1);
		ssize_t got;

		if (!nb) {
			free(buf);
			return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
		}
		buf = nb;
		got = pread(r->base.fd, buf, want, 0);
		if (got < 0) {
			ret = -errno;
			free(buf);
			return rfail(&r->base, ret, "%s: read failed: %s", r->base.path, strerror(-ret));
		}
		ret = wfw_bin_header_parse(&r->hdr, buf, (size_t)got, &need,
					   why, sizeof(why));
		if (ret != -EAGAIN)
			break;
		if (need > r->size || (size_t)got < want) {
			free(buf);
			return rfail(&r->base, -EINVAL, "%s: truncated header: the file has %llu bytes, its header needs %zu",
				     r->base.path, (unsigned long long)r->size, need);
		}
		want = need;
	}
	free(buf);
	return ret ? rfail(&r->base, ret, "%s: %s", r->base.path, why) : 0;
}

/* ---- version 2: blocks ---- */

/*
 * The block header at off: 0 (h filled), 1 when the file ends inside the
 * block (a cut last block), or -EBADMSG / -EINVAL (damaged header).
 */
static int probe_block(struct bin_reader *r, uint64_t off, struct wfw_blk_hdr *h)
{
	unsigned char p[WFW_BLK_HDR_LEN];
	int ret;

	if (r->size - off < WFW_BLK_HDR_LEN)
		return 1;
	ret = pread_full(r->base.fd, p, sizeof(p), off);
	if (ret)
		return ret == -EIO ? 1 : ret;
	ret = wfw_blk_hdr_parse(p, r->base.schema.ncols, r->hdr.block_rows, h);
	if (!ret && r->size - off - WFW_BLK_HDR_LEN < h->len)
		return 1;
	return ret;
}

/* Where part k of n starts in the data (the file less its header). */
static uint64_t part_off(const struct bin_reader *r, unsigned k, unsigned n)
{
	uint64_t data = r->size - r->hdr.header_len;

	return r->hdr.header_len + (uint64_t)((unsigned __int128)data * k / n);
}

/*
 * Rows in the whole blocks, up to a cut last block or the first damage.
 * Reading a part: the blocks whose header starts in the part's share of
 * the bytes; r->pos and r->stop bound them, base.rows counts their rows.
 */
static void walk_blocks(struct bin_reader *r)
{
	unsigned k = r->base.opts.part, n = r->base.opts.nparts;
	uint64_t off = r->hdr.header_len, lo = off, hi = UINT64_MAX;
	struct wfw_blk_hdr h;
	int ret;

	if (n > 1) {
		lo = part_off(r, k, n);
		hi = k + 1 < n ? part_off(r, k + 1, n) : UINT64_MAX;
	}
	r->stop = UINT64_MAX;
	while ((ret = probe_block(r, off, &h)) == 0) {
		uint64_t next = off + WFW_BLK_HDR_LEN + (uint64_t)h.len;

		if (off < lo) {
			r->rows_before += h.rows;
			r->block_no++;
			r->pos = next;
		} else if (off < hi) {
			r->base.rows += h.rows;
		} else if (r->stop == UINT64_MAX) {
			r->stop = off;
		}
		off = next;
	}
	if (ret == 1)
		r->base.ignored = r->size - off;
	else
		r->walk_damaged = true;
	if (r->pos < lo)	/* no block starts in this part */
		r->pos = r->stop = off;
}

/* rows: the damaged block's row count, or -1 when its header is damaged. */
static int damaged(struct bin_reader *r, int ret, int64_t len, int64_t rows,
		   const char *what)
{
	r->damage_len = len;
	r->damage_rows = rows;
	if (!r->base.damaged)
		snprintf(r->base.first_damage, sizeof(r->base.first_damage),
			 "block %llu at byte %llu: %s", (unsigned long long)r->block_no,
			 (unsigned long long)r->pos, what);
	return rfail(&r->base, ret, "%s: block %llu at byte %llu: %s (the file is damaged there; the %llu rows before it are intact; `wultfw convert --salvage %s -o OUT` copies every undamaged block)",
		     r->base.path, (unsigned long long)r->block_no,
		     (unsigned long long)r->pos, what,
		     (unsigned long long)r->rows_before, r->base.path);
}

static int grow_buf(struct bin_reader *r, size_t need)
{
	unsigned char *nb;

	if (need <= r->bufcap)
		return 0;
	nb = realloc(r->buf, need);
	if (!nb)
		return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
	r->buf = nb;
	r->bufcap = need;
	return 0;
}

/* Past the block at r->pos, whose payload is len bytes of `rows` rows. */
static void next_block(struct bin_reader *r, uint32_t len, uint32_t rows)
{
	r->pos += WFW_BLK_HDR_LEN + (uint64_t)len;
	r->rows_before += rows;
	r->block_no++;
}

/*
 * The block at r->pos, checked and made current (r->pos moves past it):
 * 0 loaded, 1 no more blocks, < 0 an error (damage_len >= -1: damaged).
 */
static int load_block(struct bin_reader *r)
{
	struct wfw_blk_hdr h;
	int ret;

	r->damage_len = -2;
	if (r->pos >= r->stop)
		return 1;
	ret = probe_block(r, r->pos, &h);
	if (ret == 1)
		return 1;
	if (ret == -EBADMSG)
		return damaged(r, -EBADMSG, -1, -1, "checksum mismatch in the block header");
	if (ret == -EINVAL)
		return damaged(r, -EINVAL, -1, -1, "impossible block header (row count or length)");
	if (ret)
		return rfail(&r->base, ret, "%s: read failed at byte %llu: %s", r->base.path,
			     (unsigned long long)r->pos, strerror(-ret));
	ret = grow_buf(r, (size_t)h.len + WFW_BLK_SLACK);
	if (!ret)
		ret = pread_full(r->base.fd, r->buf, h.len, r->pos + WFW_BLK_HDR_LEN);
	if (ret)
		return ret == -ENOMEM ? ret : rfail(&r->base, ret, "%s: read failed at byte %llu: %s",
				r->base.path, (unsigned long long)r->pos,
				ret == -EIO ? "file shrank while reading" : strerror(-ret));
	if (wfw_crc32c(0, r->buf, h.len) != h.crc)
		return damaged(r, -EBADMSG, h.len, h.rows, "checksum mismatch");
	if (wfw_blk_parse(&r->base.schema, r->buf, h.len, h.rows, r->cols,
			  r->why, sizeof(r->why)))
		return damaged(r, -EINVAL, h.len, h.rows, r->why);
	r->blk_rows = h.rows;
	r->blk_next = 0;
	next_block(r, h.len, h.rows);
	return 0;
}

/* The next offset from `from` on where an intact block header starts. */
static uint64_t find_header(struct bin_reader *r, uint64_t from)
{
	enum { WIN = 65536 };
	unsigned char *win = malloc(WIN + WFW_BLK_HDR_LEN);
	struct wfw_blk_hdr h;

	for (uint64_t off = from; win && r->size - off >= WFW_BLK_HDR_LEN; off += WIN) {
		size_t n = r->size - off < WIN + WFW_BLK_HDR_LEN
			   ? (size_t)(r->size - off) : WIN + WFW_BLK_HDR_LEN;

		if (pread_full(r->base.fd, win, n, off))
			break;
		for (size_t i = 0; i + WFW_BLK_HDR_LEN <= n; i++) {
			if (!wfw_blk_hdr_parse(win + i, r->base.schema.ncols,
					       r->hdr.block_rows, &h)) {
				free(win);
				return off + i;
			}
		}
	}
	free(win);
	return r->size;
}

/* Salvage: past the damaged block at r->pos to the next one. */
static void skip_damage(struct bin_reader *r)
{
	r->base.damaged++;
	if (r->damage_rows >= 0)
		r->base.damaged_rows += (uint64_t)r->damage_rows;
	else
		r->base.damaged_rows_unknown = true;
	r->block_no++;
	if (r->damage_len >= 0)
		r->pos += WFW_BLK_HDR_LEN + (uint64_t)r->damage_len;
	else	/* the length went with the header: look for the next one */
		r->pos = find_header(r, r->pos + 1);
}

/*
 * Rows left in the current block, the next intact one loaded when it is
 * used up (salvage: damaged ones skipped): > 0, 0 at the end, or < 0.
 */
static long ready_rows(struct bin_reader *r)
{
	while (r->blk_next == r->blk_rows) {
		int ret = load_block(r);

		if (ret == 1)
			return 0;
		if (ret < 0 && r->base.salvage && r->damage_len >= -1) {
			skip_damage(r);
			continue;
		}
		if (ret < 0)
			return ret;
	}
	return (long)(r->blk_rows - r->blk_next);
}

static long read_v2(struct bin_reader *r, struct wultfw_batch *b)
{
	const size_t ncols = r->base.schema.ncols;
	long got = 0;

	while (b->rows < b->capacity) {
		long ready = ready_rows(r);
		size_t n = (size_t)ready;

		if (ready <= 0) {	/* the rows so far first, an error next time */
			if (!got && ready < 0)
				return ready;
			break;
		}
		if (n > b->capacity - b->rows)
			n = b->capacity - b->rows;
		wfw_blk_decode(r->cols, ncols, r->blk_next, n, wultfw_row(b, b->rows));
		r->blk_next += (uint32_t)n;
		b->rows += n;
		got += (long)n;
	}
	r->base.rows_done += (uint64_t)got;
	return got;
}

/*
 * n rows of the current block into the batch's columns. Numbers that
 * start the batch come with their sums when the caller asked (the rows of
 * a second block leave them unknown).
 */
static void decode_cols(struct bin_reader *r, struct wfw_col_batch *b, size_t n)
{
	const struct wultfw_column *cols = r->base.schema.cols;

	for (size_t c = 0; c < b->ncols; c++) {
		union wultfw_cell *d = b->col[c];
		bool nums = b->numbers && !(b->raw && b->raw[c]);

		if (!d)
			continue;
		b->may_nan[c] |= wfw_blk_may_nan(&r->cols[c], cols[c].type);
		if (b->sums)
			b->sums[c].ok = false;
		if (b->sums && nums && !b->rows &&
		    wfw_blk_decode_sums(&r->cols[c], cols[c].type, r->blk_next, n,
					&d[0].f, &b->sums[c]))
			continue;
		if (nums && cols[c].type == WULTFW_COL_INT)
			wfw_blk_decode_num(&r->cols[c], r->blk_next, n, &d[b->rows].f);
		else
			wfw_blk_decode_col(&r->cols[c], r->blk_next, n, d + b->rows);
	}
}

/* The same column by column, only the columns the batch has arrays for. */
static long read_cols_v2(struct wfw_reader *base, struct wfw_col_batch *b)
{
	struct bin_reader *r = to_bin(base);
	long got = 0;

	while (b->rows < b->capacity) {
		long ready = ready_rows(r);
		size_t n = (size_t)ready;

		if (ready <= 0) {
			if (!got && ready < 0)
				return ready;
			break;
		}
		if (n > b->capacity - b->rows)
			n = b->capacity - b->rows;
		decode_cols(r, b, n);
		r->blk_next += (uint32_t)n;
		b->rows += n;
		got += (long)n;
	}
	r->base.rows_done += (uint64_t)got;
	return got;
}

/* ---- whole blocks as they are in the file (convert's copy) ---- */

uint32_t wfw_reader_block_rows(const struct wfw_reader *base)
{
	const struct bin_reader *r = (const struct bin_reader *)base;

	if (base->ops != &wfw_bin_reader_ops || r->hdr.version == WFW_BIN_VERSION_V1)
		return 0;
	return r->hdr.block_rows;
}

/*
 * The header of the block at r->pos into h, with load_block's checks and
 * messages: 0, 1 when there are no more blocks, or < 0 (said).
 */
static int raw_probe(struct bin_reader *r, struct wfw_blk_hdr *h)
{
	int ret;

	r->damage_len = -2;
	if (r->pos >= r->stop)
		return 1;
	ret = probe_block(r, r->pos, h);
	if (ret == -EBADMSG)
		return damaged(r, -EBADMSG, -1, -1, "checksum mismatch in the block header");
	if (ret == -EINVAL)
		return damaged(r, -EINVAL, -1, -1, "impossible block header (row count or length)");
	if (ret < 0)
		return rfail(&r->base, ret, "%s: read failed at byte %llu: %s", r->base.path,
			     (unsigned long long)r->pos, strerror(-ret));
	return ret;
}

/*
 * The block at r->pos into dst (cap bytes) as the file has it, checked as
 * load_block checks it: its length, 0 at the end, or < 0 (said).
 */
static long load_raw(struct bin_reader *r, unsigned char *dst, size_t cap,
		     uint32_t *rows)
{
	unsigned char *payload = dst + WFW_BLK_HDR_LEN;
	struct wfw_blk_hdr h;
	int ret = raw_probe(r, &h);

	if (ret)
		return ret == 1 ? 0 : ret;
	if ((size_t)h.len > cap - WFW_BLK_HDR_LEN - WFW_BLK_SLACK)
		return rfail(&r->base, -E2BIG, "%s: block %llu at byte %llu holds %u bytes, more than the room for a block",
			     r->base.path, (unsigned long long)r->block_no,
			     (unsigned long long)r->pos, h.len);
	ret = pread_full(r->base.fd, payload, h.len, r->pos + WFW_BLK_HDR_LEN);
	if (ret)
		return rfail(&r->base, ret, "%s: read failed at byte %llu: %s", r->base.path,
			     (unsigned long long)r->pos,
			     ret == -EIO ? "file shrank while reading" : strerror(-ret));
	if (wfw_crc32c(0, payload, h.len) != h.crc)
		return damaged(r, -EBADMSG, h.len, h.rows, "checksum mismatch");
	if (wfw_blk_parse(&r->base.schema, payload, h.len, h.rows, r->cols,
			  r->why, sizeof(r->why)))
		return damaged(r, -EINVAL, h.len, h.rows, r->why);
	wfw_blk_hdr_put(dst, &h);	/* the file's bytes: its checksum held */
	*rows = h.rows;
	next_block(r, h.len, h.rows);
	return (long)(WFW_BLK_HDR_LEN + h.len);
}

long wfw_reader_read_block(struct wfw_reader *base, void *dst, size_t cap,
			   uint32_t *rows)
{
	struct bin_reader *r = to_bin(base);
	long got;

	if (!wfw_reader_block_rows(base) || r->blk_next != r->blk_rows ||
	    cap < WFW_BLK_HDR_LEN + WFW_BLK_SLACK)
		return rfail(base, -EINVAL, "%s: not between two blocks of a version 2 binary file",
			     base->path);
	*rows = 0;
	if (wfw_reader_stop_now(base))
		return 0;
	for (;;) {
		got = load_raw(r, dst, cap, rows);
		if (got >= 0 || !base->salvage || r->damage_len < -1)
			break;
		skip_damage(r);
	}
	base->rows_done += *rows;
	return got;
}

/* ---- version 1: fixed records ---- */

static long read_v1(struct bin_reader *r, struct wultfw_batch *b)
{
	size_t rs = r->hdr.record_size, ncols = r->base.schema.ncols;
	uint64_t left = r->rec_end - r->rec_next;
	size_t want = b->capacity - b->rows;
	char *dst = (char *)wultfw_row(b, b->rows);
	uint64_t off = r->hdr.header_len + r->rec_next * rs;
	int ret;

	if (want > left)
		want = (size_t)left;
	ret = pread_full(r->base.fd, dst, want * rs, off);
	if (ret)
		return rfail(&r->base, ret, "%s: read failed at byte %llu: %s", r->base.path,
			     (unsigned long long)off,
			     ret == -EIO ? "file shrank while reading" : strerror(-ret));
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
	for (size_t k = 0; k < want * ncols; k++)
		((uint64_t *)dst)[k] = __builtin_bswap64(((uint64_t *)dst)[k]);
#endif
	/* Enum cells index name tables: never hand out an index out of range. */
	for (size_t c = 0; c < ncols; c++) {
		const struct wultfw_column *col = &r->base.schema.cols[c];

		if (col->type != WULTFW_COL_ENUM)
			continue;
		for (size_t k = 0; k < want; k++) {
			int64_t v = wultfw_row(b, b->rows + k)[c].i;

			if (v < -1 || v >= (int64_t)col->n_enum)
				return rfail(&r->base, -EINVAL, "%s: record %llu: column %s holds %lld, outside its %zu names (corrupt file)",
					     r->base.path, (unsigned long long)(r->rec_next + k),
					     col->name, (long long)v, col->n_enum);
		}
	}
	b->rows += want;
	r->base.rows_done += want;
	r->rec_next += want;
	return (long)want;
}

/* ---- the reader ops ---- */

/* Version 1: part k of n is the k-th n-th of the records. */
static void open_v1(struct bin_reader *r)
{
	unsigned k = r->base.opts.part, n = r->base.opts.nparts;
	uint64_t all = (r->size - r->hdr.header_len) / r->hdr.record_size;

	r->base.ignored = (r->size - r->hdr.header_len) % r->hdr.record_size;
	r->rec_end = all;
	if (n > 1) {
		r->rec_next = (uint64_t)((unsigned __int128)all * k / n);
		r->rec_end = (uint64_t)((unsigned __int128)all * (k + 1) / n);
	}
	r->base.first_row = r->rec_next;
	r->base.rows = r->rec_end - r->rec_next;
}

static int bin_open(struct wfw_reader *base, uint64_t size)
{
	struct bin_reader *r = to_bin(base);
	int ret;

	r->size = size;
	ret = read_header(r);
	if (ret)
		return ret;
	r->base.schema = r->hdr.schema;
	if (r->hdr.version == WFW_BIN_VERSION_V1) {
		open_v1(r);
		return 0;
	}
	r->cols = calloc(r->base.schema.ncols, sizeof(*r->cols));
	if (!r->cols)
		return rfail(&r->base, -ENOMEM, "%s: out of memory", r->base.path);
	r->pos = r->hdr.header_len;
	walk_blocks(r);
	r->base.first_row = r->rows_before;
	/* Parts cannot see past damage: the whole file says where it is. */
	if (r->walk_damaged && r->base.opts.nparts > 1)
		return rfail(&r->base, -EAGAIN, "%s: a damaged block: read the file whole",
			     r->base.path);
	return 0;
}

static long bin_read(struct wfw_reader *base, struct wultfw_batch *b)
{
	struct bin_reader *r = to_bin(base);

	return r->hdr.version == WFW_BIN_VERSION_V1 ? read_v1(r, b) : read_v2(r, b);
}

static bool bin_native_cols(const struct wfw_reader *base)
{
	return ((const struct bin_reader *)base)->hdr.version != WFW_BIN_VERSION_V1;
}

static const char *bin_meta(const struct wfw_reader *base, const char *key)
{
	const struct bin_reader *r = (const struct bin_reader *)base;

	for (size_t i = 0; i < r->hdr.nmeta; i++)
		if (!strcmp(r->hdr.meta[2 * i], key))
			return r->hdr.meta[2 * i + 1];
	return NULL;
}

static struct wfw_reader *bin_alloc(void)
{
	struct bin_reader *r = calloc(1, sizeof(*r));

	return r ? &r->base : NULL;
}

static void bin_free(struct wfw_reader *base)
{
	struct bin_reader *r = to_bin(base);

	wfw_bin_header_free(&r->hdr);
	free(r->buf);
	free(r->cols);
	free(r);
}

static bool bin_bare_ints(const struct wfw_reader *base, size_t c)
{
	const struct bin_reader *r = (const struct bin_reader *)base;

	return r->hdr.cols[c].type == WULTFW_COL_FLOAT &&
	       (r->hdr.colflags[c] & WFW_BIN_COL_BARE);
}

const struct wfw_reader_ops wfw_bin_reader_ops = {
	.fmt = WFW_FMT_BINARY,
	.parts = true,
	.alloc = bin_alloc,
	.open = bin_open,
	.read = bin_read,
	.read_cols = read_cols_v2,
	.native_cols = bin_native_cols,
	.meta = bin_meta,
	.bare_ints = bin_bare_ints,
	.free = bin_free,
};

/* ---- a block's chunks, for formatting them directly ---- */

/* The current block's payload length, from where its last chunk ends. */
static size_t payload_len(const struct bin_reader *r)
{
	const struct wfw_blk_col *last = &r->cols[r->base.schema.ncols - 1];

	return (size_t)(last->data - r->buf) + (size_t)r->blk_rows * last->width;
}

/* *buf (of *cap bytes) grown to n bytes; 0 or -ENOMEM. */
static int grow_copy(unsigned char **buf, size_t *cap, size_t n)
{
	unsigned char *nb;

	if (n <= *cap)
		return 0;
	nb = realloc(*buf, n);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = n;
	return 0;
}

/*
 * The block's last rows go out: the caller takes its buffer whole and
 * the next block is read into the caller's old one (grown by load_block()
 * as it needs), a copy of every block less (5% of convert's instructions).
 */
static void swap_buf(struct bin_reader *r, unsigned char **buf, size_t *cap)
{
	unsigned char *b = *buf;
	size_t c = *cap;

	*buf = r->buf;
	*cap = r->bufcap;
	r->buf = b;
	r->bufcap = c;
}

long wfw_reader_read_chunks(struct wfw_reader *base, size_t max,
			    unsigned char **buf, size_t *cap,
			    struct wfw_blk_col *cols, size_t *first)
{
	struct bin_reader *r = to_bin(base);
	const size_t ncols = base->schema.ncols;
	const unsigned char *old;
	long ready;
	size_t len, n;

	if (base->ops != &wfw_bin_reader_ops || r->hdr.version == WFW_BIN_VERSION_V1)
		return rfail(base, -EINVAL, "%s: not a binary file of version 2", base->path);
	if (wfw_reader_stop_now(base))
		return 0;
	ready = ready_rows(r);
	if (ready <= 0)
		return ready;
	n = (size_t)ready < max ? (size_t)ready : max;
	old = r->buf;
	if (r->blk_next + n == r->blk_rows) {
		swap_buf(r, buf, cap);
	} else {
		len = payload_len(r);
		if (grow_copy(buf, cap, len + WFW_BLK_SLACK))
			return rfail(base, -ENOMEM, "%s: out of memory", base->path);
		memcpy(*buf, r->buf, len + WFW_BLK_SLACK);
	}
	for (size_t c = 0; c < ncols; c++) {
		cols[c] = r->cols[c];
		cols[c].data = *buf + (r->cols[c].data - old);
	}
	*first = r->blk_next;
	r->blk_next += (uint32_t)n;
	base->rows_done += n;
	return (long)n;
}
