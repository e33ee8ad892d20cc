/* SPDX-License-Identifier: MIT */
/*
 * The CSV reader's window path (rows of short cells, no call per cell):
 * what csvread.c plans for it, and its SIMD levels. Each level is the same
 * row loop (csvwin_row.h) compiled with its own delimiter scan in its own
 * file; wfw_win_rows() picks one, the best the CPU has unless a test or a
 * fuzzer forces another through wfw_csv_force_level.
 */
#ifndef WFW_CSVWIN_H
#define WFW_CSVWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wultfw/plugin.h>

#include "datafmt/csvnum.h"
#include "datafmt/enumtab.h"

/* A column read_cols was not asked for: its cells are only delimited. */
#define WIN_SKIP	(-1)
/* An INT column read_cols wants as doubles (wfw_col_batch.numbers). */
#define WIN_INT_NUM	(-2)
/* A text column read_cols was not asked for: see csvread.c's plan_type(). */
#define WIN_WORDS	(-3)

/*
 * A cell of the window path is at most WFW_CELL_LONG (24) bytes, most 16
 * or less; a row of them (25 bytes a cell with its delimiter) is scanned
 * 64 bytes at a time from its start.
 */
#define WIN_CELL_MAX	(WFW_CELL_LONG + 1)
#define WIN_ROW_SLACK	(64 + WFW_CSV_WIN)

/* What the window path needs of a column, beside the row loop. */
struct wincol {
	int type, dec;
	bool pair;	/* this and the next cell may go through win_pair() */
	struct wfw_fixed fx;	/* the layout win_pair() takes */
	double div;	/* what win_pair() divides the digits by */
	const struct wfw_enum_tab *et;
	uintptr_t off;	/* a row's cell is at its address + off (cell_at()) */
};

/*
 * Where cell c of a row goes: a row of a row batch is at `at` with cells
 * at offsets 0, 8, ...; a row of a column batch is at its index times 8,
 * each column's cells at its array's address.
 */
static inline union wultfw_cell *cell_at(const struct wincol *plan, uintptr_t at,
					 size_t c)
{
	return (union wultfw_cell *)(at + plan[c].off);
}

/*
 * Cells c.. of a row from *pp, up to the first the window path does not
 * take: how many it took (csvwin_row.h's win_row()). odd: note FLOAT
 * fields the formatter would print otherwise (only the `odd` entry).
 */
typedef size_t (*wfw_win_row_fn)(const struct wincol *plan, size_t c, size_t nc,
				 const char **pp, uintptr_t at, bool *odd);

/* One SIMD level of the window path. */
struct wfw_win_rows {
	const char *name;
	uint64_t (*delims64)(const char *p);	/* for tests: the scan alone */
	wfw_win_row_fn fast;	/* one cell at a time */
	wfw_win_row_fn pairs;	/* two at a time where the plan says */
	wfw_win_row_fn odd;	/* one at a time, odd fields noted */
};

enum wfw_csv_level {
	WFW_CSV_SCALAR,		/* portable C, as other architectures build it */
	WFW_CSV_SSE2,		/* 16 bytes a compare: every x86-64 */
	WFW_CSV_AVX2,		/* 32 bytes a compare, when the CPU has AVX2 */
	WFW_CSV_NLEVELS
};

/*
 * Tests and fuzzers set this to a wfw_csv_level to read with that level
 * (csvread.c reads it whenever it plans the columns); -1: the best one.
 */
extern int wfw_csv_force_level;

/* Level lvl, or NULL when this build or this CPU lacks it. */
const struct wfw_win_rows *wfw_win_rows_level(enum wfw_csv_level lvl);
/* The forced level when there is one and the CPU has it, else the best. */
const struct wfw_win_rows *wfw_win_rows(void);
/* The level's name, whether or not it is there ("avx2"). */
const char *wfw_csv_level_name(enum wfw_csv_level lvl);

/* The levels, each in its own file (csvwin_*.c). */
extern const struct wfw_win_rows wfw_win_rows_scalar;
extern const struct wfw_win_rows wfw_win_rows_sse2;
extern const struct wfw_win_rows wfw_win_rows_avx2;

#endif
