/* SPDX-License-Identifier: MIT */
/*
 * The binary reader: files written by the `binary` sink
 * (doc/binary-format.md), read with pread in whole records.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafmt/binfmt.h"
#include "datafmt/reader_impl.h"

#define rfail wfw_reader_fail

struct bin_reader {
	struct wfw_reader base;
	struct wfw_bin_header hdr;
};

static struct bin_reader *to_bin(struct wfw_reader *r)
{
	return (struct bin_reader *)r;	/* base is the first member */
}


static int bin_open(struct wfw_reader *base, uint64_t size)
{
	struct bin_reader *r = to_bin(base);
	size_t want = size < 65536 ? (size_t)size : 65536, need = 0;
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
		if (need > size || (size_t)got < want) {
			free(buf);
			return rfail(&r->base, -EINVAL, "%s: truncated header: the file has %llu bytes, its header needs %zu",
				     r->base.path, (unsigned long long)size, need);
		}
		want = need;
	}
	free(buf);
	if (ret)
		return rfail(&r->base, ret, "%s: %s", r->base.path, why);
	r->base.schema = r->hdr.schema;
	r->base.rows = (size - r->hdr.header_len) / r->hdr.record_size;
	r->base.ignored = (size - r->hdr.header_len) % r->hdr.record_size;
	return 0;
}

static long bin_read(struct wfw_reader *base, struct wultfw_batch *b)
{
	struct bin_reader *r = to_bin(base);
	size_t rs = r->hdr.record_size, ncols = r->base.schema.ncols;
	uint64_t left = r->base.rows - r->base.rows_done;
	size_t want = b->capacity - b->rows, done = 0;
	char *dst = (char *)wultfw_row(b, b->rows);
	uint64_t off = r->hdr.header_len + r->base.rows_done * rs;

	if (want > left)
		want = (size_t)left;
	while (done < want * rs) {
		ssize_t got = pread(r->base.fd, dst + done, want * rs - done,
				    (off_t)(off + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return rfail(&r->base, got < 0 ? -errno : -EIO,
				     "%s: read failed at byte %llu: %s", r->base.path,
				     (unsigned long long)(off + done),
				     got < 0 ? strerror(errno) : "file shrank while reading");
		done += (size_t)got;
	}
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
					     r->base.path, (unsigned long long)(r->base.rows_done + k),
					     col->name, (long long)v, col->n_enum);
		}
	}
	b->rows += want;
	r->base.rows_done += want;
	return (long)want;
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
	free(r);
}

const struct wfw_reader_ops wfw_bin_reader_ops = {
	.fmt = WFW_FMT_BINARY,
	.alloc = bin_alloc,
	.open = bin_open,
	.read = bin_read,
	.meta = bin_meta,
	.free = bin_free,
};
