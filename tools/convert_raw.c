/* SPDX-License-Identifier: MIT */
/*
 * wultfw convert, a version 2 binary file to binary with every row and
 * column: each block is checked as the reader checks it and copied as it
 * is, not decoded and encoded again. The blocks are the writer's own
 * format, so the copy reads back cell for cell as the input; it goes out
 * through the binary writer's buffer, whose file handling (whole blocks
 * only, cut back after a failed write) and closing are the same as for
 * encoded blocks.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "datafmt/binblock.h"

bool convert_raw_fits(struct wfw_reader *r, const struct wfw_writer *w,
		      const struct wfw_select *sel)
{
	uint32_t in_rows = wfw_reader_block_rows(r);

	/* An input block must be a block the writer could have written. */
	return w->fmt == &wfw_format_binary && in_rows &&
	       in_rows <= w->impl.bin.block_rows && !w->impl.bin.staged &&
	       wfw_reader_schema(r)->ncols == w->impl.bin.ncols &&
	       !wfw_select_active(sel);
}

/* One block from r into bw's buffer: its rows, 0 at the end, or < 0 (said). */
static long copy_block(struct wfw_reader *r, struct wfw_bin_writer *bw,
		       size_t room, const char *cmd)
{
	unsigned char *p = (unsigned char *)wfw_out_reserve(&bw->out, room);
	uint32_t rows = 0;
	long len;

	if (!p) {
		fprintf(stderr, "wultfw %s: %s\n", cmd, bw->out.msg);
		return bw->out.err;
	}
	len = wfw_reader_read_block(r, p, room, &rows);
	if (len < 0) {
		fprintf(stderr, "wultfw %s: %s\n", cmd, wfw_reader_error(r));
		return len;
	}
	wfw_out_commit(&bw->out, (size_t)len);
	return rows;
}

int convert_raw(struct wfw_reader *r, struct wfw_writer *w, const char *cmd)
{
	struct wfw_bin_writer *bw = &w->impl.bin;
	size_t room = wfw_blk_bound(bw->ncols, wfw_reader_block_rows(r)) + WFW_BLK_SLACK;
	long rows;

	while ((rows = copy_block(r, bw, room, cmd)) > 0) {
		bw->rows += (uint64_t)rows;
		w->rows += (uint64_t)rows;
	}
	return (int)rows;
}

/* Metadata of a binary input, passed on to a binary output. */
const char **convert_copy_meta(struct wfw_reader *r)
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

void convert_bare_ints(struct wfw_csvfmt *f, const struct wfw_reader *r,
		       const size_t *map, size_t ncols)
{
	for (size_t j = 0; j < ncols; j++)
		wfw_csvfmt_set_bare(f, j, wfw_reader_bare_ints(r, map ? map[j] : j));
}

int convert_bare_writer(struct wfw_writer *w, const struct wfw_reader *r,
			const size_t *map, size_t ncols)
{
	int ret = 0;

	for (size_t j = 0; j < ncols && !ret; j++)
		if (wfw_reader_bare_ints(r, map ? map[j] : j))
			ret = wfw_writer_set_bare(w, j, true);
	return ret;
}
