#!/bin/sh
# filter and convert (CSV to CSV) copy rows they can vouch for from the input: the same bytes as
# formatting every row (test_filter_verbatim.py).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
/usr/bin/python3 "$srcdir/tests/integration/test_filter_verbatim.py" "$WULTFW" "$work" 60
