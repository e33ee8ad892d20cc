/* SPDX-License-Identifier: MIT */
/*
 * The window path in portable C, as a build without SSE2 compiles it:
 * here csvnum.h's byte loops (digits, delimiters, quotes, the two-cell
 * division) run and are tested on x86-64 too, as test_csvnum_nosse does
 * for its cases.
 */
#include "config.h"

#undef __SSE2__
#define WIN_TARGET
#define WIN_DELIMS64(p)	wfw_delims64(p)
#include "datafmt/csvwin_row.h"

static uint64_t scan(const char *p)
{
	return wfw_delims64(p);
}

WFW_WIN_ROWS(wfw_win_rows_scalar, "scalar", scan);
