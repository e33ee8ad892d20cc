#!/bin/sh
# filter copies rows it can vouch for from the input: the same bytes as
# formatting every row (test_filter_verbatim.py).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
/usr/bin/python3 "$srcdir/tests/integration/test_filter_verbatim.py" "$WULTFW" "$work" 60
