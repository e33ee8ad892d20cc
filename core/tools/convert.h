/* SPDX-License-Identifier: MIT */
/* wultfw convert's parts (cmd_convert.c, convert_par.c). */
#ifndef WFW_CONVERT_H
#define WFW_CONVERT_H

#include "datafmt/reader.h"
#include "datafmt/writer.h"
#include "expr/expr.h"

/*
 * Every row of r (whose schema never changes: a binary file) through sel
 * into the CSV writer w, formatted by n threads, batches of `rows` rows.
 * 0, or a negative errno after saying why on stderr.
 */
int convert_csv_parallel(struct wfw_reader *r, struct wfw_csv_writer *w,
			 struct wfw_select *sel, unsigned n, size_t rows);

#endif
