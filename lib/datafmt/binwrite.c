/* SPDX-License-Identifier: MIT */
/*
 * The binary writer (version 2): rows are staged until a block is full,
 * then packed and checksummed (binblock.c) into the output buffer. The
 * buffer and the file only ever hold whole blocks, so a failed write or a
 * crash leaves a file whose every block is complete but maybe the last.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/binblock.h"
#include "datafmt/binfmt.h"
#include "datafmt/le.h"
#include "datafmt/binwrite.h"

size_t wfw_bin_whole(const char *p, size_t n, uint64_t *rows)
{
	size_t off = 0;

	*rows = 0;
	while (n - off >= WFW_BLK_HDR_LEN) {
		uint32_t len = wfw_get32((const unsigned char *)p + off + 4);

		if (n - off - WFW_BLK_HDR_LEN < len)
			break;
		*rows += wfw_get32((const unsigned char *)p + off);
		off += WFW_BLK_HDR_LEN + len;
	}
	return off;
}

/* Whole blocks in p[0..n): the buffer always starts on a block. */
static size_t bin_whole(void *arg, const char *p, size_t n)
{
	uint64_t rows;

	(void)arg;
	return wfw_bin_whole(p, n, &rows);
}

/* Where the blocks go: a file of the writer's own, or a sink's (fwd). */
struct bin_dest {
	const char *path;
	int flags;
	const struct wfw_out_fwd *fwd;
	void *arg;
};

static int write_header(struct wfw_bin_writer *w, const struct bin_dest *to,
			const struct wultfw_schema *s, const char *const *meta)
{
	const char *path = to->path;
	size_t bound = wfw_blk_bound(s->ncols, w->block_rows) + WFW_BLK_SLACK;
	size_t hlen, bufsize = WFW_OUT_BUF > 2 * bound ? WFW_OUT_BUF : 2 * bound;
	size_t min_len = 0;
	char err[256];
	void *hdr;
	int ret;

	if (w->grows) {
		hdr = wfw_bin_header_build(s, NULL, &hlen, err, sizeof(err));
		free(hdr);
		min_len = hdr ? hlen + WFW_BINW_RESERVE : 0;
	}
	hdr = wfw_bin_header_build_min(s, meta, min_len, &hlen, err, sizeof(err));
	if (!hdr) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", path, err);
		return -EINVAL;
	}
	w->header_len = hlen;
	if (to->fwd)
		ret = wfw_out_open_fwd(&w->out, path, bufsize, to->fwd, to->arg);
	else
		ret = wfw_out_open(&w->out, path, bufsize, to->flags & ~WFW_BINW_GROWS);
	if (!ret)
		ret = wfw_out_write(&w->out, hdr, hlen);
	if (!ret)
		ret = wfw_out_flush(&w->out);
	free(hdr);
	return ret;
}

/*
 * The schema's enum names grew while writing, or a column's flags changed:
 * the header again, in the room it kept. -EOVERFLOW when they no longer fit.
 */
static int rewrite_header(struct wfw_bin_writer *w)
{
	char err[256];
	size_t hlen;
	void *hdr = wfw_bin_header_build_flags(w->schema, w->colflags,
					       (const char *const *)w->meta,
					       w->header_len, &hlen, err, sizeof(err));
	int ret = 0;

	if (!hdr) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: %s", w->out.path, err);
		return -EINVAL;
	}
	if (w->out.fd < 0) {	/* a sink's file: written once, in order */
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: the header cannot be written again here",
			 w->out.path);
		ret = -ENOTSUP;
	} else if (hlen != w->header_len) {
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: the names of the text columns outgrew the room kept in the header",
			 w->out.path);
		ret = -EOVERFLOW;
	} else if (pwrite(w->out.fd, hdr, hlen, 0) != (ssize_t)hlen) {
		ret = errno ? -errno : -EIO;
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: rewriting the header: %s",
			 w->out.path, strerror(-ret));
	}
	free(hdr);
	return ret;
}

/* key, value, ..., NULL as one allocation; NULL for none. */
static char **copy_meta(const char *const *meta, bool *oom)
{
	size_t n = 0, bytes = 0;
	char **out, *p;

	for (; meta && meta[n] && meta[n + 1]; n += 2)
		bytes += strlen(meta[n]) + strlen(meta[n + 1]) + 2;
	if (!n)
		return NULL;
	out = malloc((n + 1) * sizeof(*out) + bytes);
	*oom = !out;
	if (!out)
		return NULL;
	p = (char *)(out + n + 1);
	for (size_t i = 0; i < n; i++) {
		out[i] = strcpy(p, meta[i]);
		p += strlen(meta[i]) + 1;
	}
	out[n] = NULL;
	return out;
}

int wfw_binw_set_bare(struct wfw_bin_writer *w, size_t c, bool bare)
{
	uint8_t f = w->colflags[c];

	w->colflags[c] = bare ? f | WFW_BIN_COL_BARE : f & ~WFW_BIN_COL_BARE;
	if (w->colflags[c] == f)
		return 0;
	w->out.err = rewrite_header(w);
	return w->out.err;
}

static int binw_open(struct wfw_bin_writer *w, const struct bin_dest *to,
		     const struct wultfw_schema *s, const char *const *meta)
{
	const char *path = to->path;
	bool oom = false;
	int ret;

	memset(w, 0, sizeof(*w));
	w->out.fd = -1;
	w->schema = s;
	w->ncols = s->ncols;
	w->block_rows = wfw_blk_rows_for(s->ncols);
	w->grows = (to->flags & WFW_BINW_GROWS) && !meta;
	/* Blocks are encoded by the types as they were at open. */
	w->types = malloc((s->ncols + 1) * sizeof(*w->types));
	if (w->types) {
		memcpy(w->types, s->cols, s->ncols * sizeof(*w->types));
		w->enc = (struct wultfw_schema){ s->ncols, w->types };
	}
	w->colflags = calloc(s->ncols + 1, sizeof(*w->colflags));
	w->meta = copy_meta(meta, &oom);
	ret = w->types && w->colflags && !oom ? write_header(w, to, s, meta) : -ENOMEM;
	if (ret == -ENOMEM)
		snprintf(w->out.msg, sizeof(w->out.msg), "%s: out of memory", path);
	w->data_off = w->out.good_off;
	w->out.whole = bin_whole;
	if (!ret) {
		w->stage = malloc((size_t)w->block_rows * w->ncols * sizeof(*w->stage));
		if (!w->stage) {
			snprintf(w->out.msg, sizeof(w->out.msg), "%s: out of memory", path);
			ret = -ENOMEM;
		}
	}
	if (ret) {
		wfw_out_close(&w->out);	/* keeps out.msg */
		free(w->types);
		free(w->stage);
		free(w->colflags);
		free(w->meta);
		w->types = NULL;
		w->stage = NULL;
		w->colflags = NULL;
		w->meta = NULL;
	}
	return ret;
}

int wfw_binw_open(struct wfw_bin_writer *w, const char *path,
		  const struct wultfw_schema *s, const char *const *meta,
		  int flags)
{
	struct bin_dest to = { .path = path, .flags = flags };

	return binw_open(w, &to, s, meta);
}

int wfw_binw_open_fwd(struct wfw_bin_writer *w, const char *name,
		      const struct wultfw_schema *s, const char *const *meta,
		      const struct wfw_out_fwd *fwd, void *arg)
{
	struct bin_dest to = { .path = name, .fwd = fwd, .arg = arg };

	return binw_open(w, &to, s, meta);
}

/* The staged rows as one block into the output buffer. */
static int emit(struct wfw_bin_writer *w)
{
	size_t bound = wfw_blk_bound(w->ncols, w->staged) + WFW_BLK_SLACK;
	unsigned char *p = (unsigned char *)wfw_out_reserve(&w->out, bound);
	size_t rows = w->staged;

	w->staged = 0;
	if (!p)
		return w->out.err;
	return wfw_out_commit_rows(&w->out, wfw_blk_encode(&w->enc, w->stage, w->block_rows,
							   rows, p), rows);
}

/* Rows into the stage, transposed: the stage holds a block column by column. */
static void stage_rows(struct wfw_bin_writer *w, const union wultfw_cell *src,
		       size_t n)
{
	wfw_blk_stage(w->stage + w->staged, w->block_rows, src, w->ncols, n);
	w->staged += n;
}

int wfw_binw_write(struct wfw_bin_writer *w, const struct wultfw_batch *b)
{
	const size_t full = w->block_rows;
	size_t r = 0;

	if (b->ncols != w->ncols)
		return wfw_out_bad_batch(&w->out, b->ncols, w->ncols);
	if (w->out.err)
		return w->out.err;
	while (r < b->rows) {
		size_t n = b->rows - r;

		n = n < full - w->staged ? n : full - w->staged;
		stage_rows(w, wultfw_crow(b, r), n);
		r += n;
		if (w->staged == full && emit(w))
			return w->out.err;
	}
	w->rows += b->rows;
	return 0;
}

int wfw_binw_flush(struct wfw_bin_writer *w)
{
	if (w->out.err)
		return w->out.err;
	if (w->staged && emit(w))
		return w->out.err;
	return wfw_out_flush(&w->out);
}

int wfw_binw_close(struct wfw_bin_writer *w)
{
	int ret = wfw_out_is_open(&w->out) ? wfw_binw_flush(w) : 0;
	int cret;

	if (!ret && w->grows && w->out.fd >= 0)
		ret = rewrite_header(w);
	cret = wfw_out_close(&w->out);

	free(w->stage);
	free(w->types);
	free(w->colflags);
	free(w->meta);
	w->stage = NULL;
	w->types = NULL;
	w->colflags = NULL;
	w->meta = NULL;
	return ret ? ret : cret;
}

long long wfw_binw_kept(const struct wfw_bin_writer *w)
{
	unsigned char h[WFW_BLK_HDR_LEN];
	uint64_t off = w->data_off;
	long long rows = 0;
	int fd = w->out.path ? open(w->out.path, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		return -1;
	while (off + WFW_BLK_HDR_LEN <= w->out.good_off &&
	       pread(fd, h, sizeof(h), (off_t)off) == (ssize_t)sizeof(h)) {
		rows += wfw_get32(h);
		off += WFW_BLK_HDR_LEN + wfw_get32(h + 4);
	}
	close(fd);
	return rows;
}
