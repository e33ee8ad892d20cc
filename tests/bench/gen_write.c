/* SPDX-License-Identifier: MIT */
/* The benchmarks' synthetic results (gen_write.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "datafmt/writer.h"
#include "gen_write.h"

int gen_write(uint64_t rows, const char *dir, const struct wultfw_schema *s,
	      void (*row)(union wultfw_cell *c, uint64_t *seed), uint64_t seed)
{
	struct wfw_csv_writer cw;
	struct wfw_bin_writer bw;
	struct wultfw_batch b = { .ncols = s->ncols, .capacity = 8192 };
	char path[4096];
	int bad;

	b.cells = calloc(b.capacity * s->ncols, sizeof(*b.cells));
	snprintf(path, sizeof(path), "%s/datapoints.csv", dir);
	if (!b.cells || wfw_csvw_open(&cw, path, s, 0)) {
		fprintf(stderr, "%s\n", b.cells ? cw.out.msg : "out of memory");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/datapoints.wfb", dir);
	if (wfw_binw_open(&bw, path, s, NULL, 0)) {
		fprintf(stderr, "%s\n", bw.out.msg);
		return 1;
	}
	for (uint64_t done = 0; done < rows; done += b.rows) {
		b.rows = rows - done < b.capacity ? rows - done : b.capacity;
		for (size_t r = 0; r < b.rows; r++)
			row(wultfw_row(&b, r), &seed);
		if (wfw_csvw_write(&cw, &b) || wfw_binw_write(&bw, &b)) {
			fprintf(stderr, "%s%s\n", cw.out.msg, bw.out.msg);
			return 1;
		}
	}
	bad = wfw_csvw_close(&cw) | wfw_binw_close(&bw);
	if (bad)
		fprintf(stderr, "%s%s\n", cw.out.msg, bw.out.msg);
	free(b.cells);
	return bad ? 1 : 0;
}
