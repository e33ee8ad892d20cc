/* SPDX-License-Identifier: MIT */
/*
 * Where calc's time goes, stage by stage, on one thread: the cost of
 * read(2) of the file (what `cat` pays), of the reader turning it into
 * cells, and of the statistics calc keeps of every numeric value
 * (moments and percentiles in bounded memory, wfw_acc_add_many()), each
 * in CPU seconds of this process. The statistics alone set a floor under
 * calc that no faster reader can lower: issue 32's "within 3x of cat"
 * is measured against it in doc/benchmarks.md.
 *
 * Usage: bench_floor FILE   (a datapoints.csv or .wfb, page cache hot)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "datafmt/reader.h"
#include "stats/statset.h"
#include "stats/stats.h"

#define BATCH_ROWS 65536
#define READ_BUF (1u << 20)

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* read(2) of the whole file into one reused buffer, as cat does. */
static int time_read(const char *path, double *secs, unsigned long long *bytes)
{
	static char buf[READ_BUF];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	double t0 = cpu_now();
	ssize_t got;

	if (fd < 0)
		return -errno;
	*bytes = 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		*bytes += (unsigned long long)got;
	*secs = cpu_now() - t0;
	close(fd);
	return got < 0 ? -EIO : 0;
}

struct floor {
	double read_s, stats_s;
	unsigned long long values;
	struct wfw_acc *acc;	/* one per column; unused for text columns */
	double *col;		/* one column of a batch, as doubles */
};

/* The numeric cells of column c of batch b into f->col: how many. */
static size_t gather(const struct wultfw_column *col, struct wultfw_batch *b,
		     size_t c, double *out)
{
	size_t n = 0;

	for (size_t r = 0; r < b->rows; r++) {
		union wultfw_cell cell = wultfw_row(b, r)[c];
		double v;

		if (wfw_cell_empty(col, cell))
			continue;
		v = wfw_cell_value(col, cell);
		if (wfw_value_ok(v))
			out[n++] = v;
	}
	return n;
}

static int add_batch(struct floor *f, const struct wultfw_schema *s,
		     struct wultfw_batch *b)
{
	for (size_t c = 0; c < s->ncols; c++) {
		size_t n;
		double t0;

		if (s->cols[c].type == WULTFW_COL_ENUM)
			continue;
		n = gather(&s->cols[c], b, c, f->col);
		t0 = cpu_now();
		if (wfw_acc_add_many(&f->acc[c], f->col, n))
			return -ENOMEM;
		f->stats_s += cpu_now() - t0;
		f->values += n;
	}
	return 0;
}

static int time_reader(const char *path, struct floor *f)
{
	struct wfw_reader *r;
	struct wultfw_batch b;
	const struct wultfw_schema *s;
	char err[512];
	long n;
	int ret = wfw_reader_open(&r, path, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "bench_floor: %s\n", err);
		return ret;
	}
	s = wfw_reader_schema(r);
	f->acc = calloc(s->ncols, sizeof(*f->acc));
	f->col = malloc(BATCH_ROWS * sizeof(*f->col));
	if (!f->acc || !f->col || wfw_batch_alloc(&b, s->ncols, BATCH_ROWS)) {
		free(f->acc);
		free(f->col);
		wfw_reader_close(r);
		return -ENOMEM;
	}
	for (size_t c = 0; c < s->ncols; c++)
		wfw_acc_init(&f->acc[c], WFW_STATS_DEF_EXACT_LIMIT,
			     s->cols[c].type == WULTFW_COL_INT);
	for (;;) {
		double t0 = cpu_now();

		n = wfw_reader_read(r, &b);
		f->read_s += cpu_now() - t0;
		if (n <= 0)
			break;
		ret = add_batch(f, s, &b);
		if (ret)
			break;
		b.rows = 0;
	}
	if (n < 0)
		fprintf(stderr, "bench_floor: %s\n", wfw_reader_error(r));
	for (size_t c = 0; c < s->ncols; c++)
		wfw_acc_free(&f->acc[c]);
	free(f->acc);
	free(f->col);
	wfw_batch_free(&b);
	wfw_reader_close(r);
	return n < 0 ? (int)n : ret;
}

int main(int argc, char **argv)
{
	struct floor f = { 0 };
	unsigned long long bytes = 0;
	double cat_s = 0, per;
	int ret;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"Usage: bench_floor FILE\nCPU seconds, one thread, of read(2) of FILE, of the reader's cells and of the statistics of every numeric value.\n");
		return argc == 2 ? 0 : 2;
	}
	ret = time_read(argv[1], &cat_s, &bytes);
	if (ret) {
		fprintf(stderr, "bench_floor: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	if (time_reader(argv[1], &f))
		return 1;
	per = f.values ? 1e9 / (double)f.values : 0;
	printf("file %s: %llu bytes, %llu numeric values\n", argv[1], bytes, f.values);
	printf("read(2) of the file      %8.3f CPU s\n", cat_s);
	printf("reader, rows to cells    %8.3f CPU s  %6.2f ns a value\n", f.read_s, f.read_s * per);
	printf("statistics of the values %8.3f CPU s  %6.2f ns a value\n", f.stats_s, f.stats_s * per);
	return 0;
}
