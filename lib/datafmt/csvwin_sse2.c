/* SPDX-License-Identifier: MIT */
/*
 * The window path with csvnum.h's own scan: SSE2 on x86-64 (16 bytes a
 * compare), portable C elsewhere.
 */
#include "config.h"

#define WIN_TARGET
#define WIN_DELIMS64(p)	wfw_delims64(p)
#include "datafmt/csvwin_row.h"

static uint64_t scan(const char *p)
{
	return wfw_delims64(p);
}

WFW_WIN_ROWS(wfw_win_rows_sse2, "sse2", scan);
