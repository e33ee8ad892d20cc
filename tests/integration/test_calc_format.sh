#!/bin/sh
# Numbers in calc's table: one rule of decimals for a statistic over all
# of a metric's rows (groups and results), so its points align; whole
# numbers without ".000", small ones with 3 significant digits, large
# ones without an exponent, and no "-0.000" in a difference.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

printf '%s\n' 'Count,Tiny,Big,Lat,ReqCState' \
	'0,0.000012,1000000000000000,5.5,C6' '1,0.000034,2000000000000000,6,C6' \
	'0,0.000020,1000000000000000,7.25,C1' '0,0.000020,1000000000000000,8,C1' \
	'1,0.000020,1000000000000000,9,C1' >a.csv
"$WULTFW" calc -c -f count,min,mean,median,max a.csv >out 2>&1
expect_status 0 $? "calc -c"
# row: the cells of a metric's row, one blank apart.
row() { grep -E "^$1 +$2 " out | tr -s ' '; }
expect_row() {
	if [ "$(row "$1" "$2")" = "$3" ]; then ok "$4"; else
		fail "$4: '$(row "$1" "$2")', expected '$3'"; fi
}
expect_row Count all "Count all 5 0 0.400 0.000 1" "counts: whole min and max, a median column with one 0.5 all in 3 decimals"
expect_row Count C6 "Count C6 2 0 0.500 0.500 1" "the 0.5 median"
expect_row Count C1 "Count C1 3 0 0.333 0.000 1" "a whole median in the same decimals as the 0.5"
expect_row Tiny C6 "Tiny C6 2 0.000012 0.0000230 0.000023 0.000034" "small values: the data's decimals, a mean to 3 significant digits"
expect_row Big all "Big all 5 1000000000000000 1200000000000000 1000000000000000 2000000000000000" "no exponent"
expect_row Lat C1 "Lat C1 3 7.250 8.083 8.000 9.000" "floats in 3 decimals"
if grep -q 'e+' out; then fail "an exponent:"; cat out; else ok "no exponent anywhere"; fi
w=$(grep -E '^Count' out | awk '{ print length($0) }' | sort -u | wc -l)
if [ "$w" -eq 1 ]; then ok "rows of one width"; else fail "rows of $w widths"; cat out; fi

# Two results: a difference that rounds to zero is +0.000 (+0.0%).
sed 's/^1,0.000034,2000000000000000,6,/1,0.000034,2000000000000000,5.9999,/' a.csv >b.csv
"$WULTFW" calc -f mean,max -m Lat a.csv b.csv >out 2>&1
expect_in out "+0.000 (+0.0%)" "a tiny difference: +0.000 (+0.0%)"
if grep -q -- '-0\.000' out; then fail "a -0.000:"; cat out; else ok "no -0.000"; fi
# CSV: differences are numbers, the percentages a row of their own.
"$WULTFW" calc -F csv -f mean,max -m Lat a.csv b.csv >csv 2>&1
if grep -q '(' csv; then fail "text in a CSV's numbers:"; cat csv; else ok "CSV differences are numbers"; fi
expect_in csv "Lat,%,diff% vs a.csv,+0.0,+0.0" "and their percentages a row of their own"
finish
