#!/bin/sh
# Differential test of wultfw calc on random CSV files (test_calc_diff.py).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
/usr/bin/python3 "$srcdir/tests/integration/test_calc_diff.py" "$WULTFW" "$work" 40
