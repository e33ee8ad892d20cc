#!/bin/sh
# A CSV column that holds integers ("5") and later a value with a fraction
# ("7.25") is FLOAT, yet convert and filter write its integers as the input
# did, "5" and not "5.0": whether the reader learned the type from the
# first rows or changed it after them (one pass, a column INT until row
# 3001), on one thread or in chunks, directly or through the binary
# format; the copy still reads back as FLOAT. A column born FLOAT ("5.0")
# keeps its ".0".
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

printf 'A,B,F\n5,1,5.0\n6,2,6.5\n7.25,3,7.0\n8,4,8.0\n-3,5,9.0\n' >small.csv

"$WULTFW" convert small.csv -o small2.csv 2>/dev/null
expect_status 0 $? "convert CSV to CSV"
cmp -s small.csv small2.csv && ok "integers stay integers, FLOAT's \"5.0\" stays" ||
	{ fail "convert changed the text"; diff small.csv small2.csv | head -6; }
"$WULTFW" filter small.csv -o f1 -m 'A,F' --exclude 'B == 2' 2>/dev/null
printf 'A,F\n5,5.0\n7.25,7.0\n8,8.0\n-3,9.0\n' >f1.want
cmp -s f1.want f1/datapoints.csv && ok "filter -m --exclude: the same" ||
	{ fail "filter changed the text"; cat f1/datapoints.csv; }

# FLOAT on the way back: calc prints a FLOAT column's min with decimals.
"$WULTFW" calc -f min -m A small2.csv >c.out 2>&1
expect_in c.out "-3.000" "the copy's column reads back as FLOAT"

# Through the binary format: its header keeps the column's way of writing
# integers (a flag older readers ignore); the column is FLOAT there.
"$WULTFW" convert small.csv -o small.wfb 2>/dev/null &&
	"$WULTFW" convert small.wfb -o small3.csv 2>/dev/null
cmp -s small.csv small3.csv && ok "CSV to binary and back: the input's text" ||
	{ fail "the binary round trip changed the text"; diff small.csv small3.csv | head -6; }
"$WULTFW" calc -f min -m A small.wfb >cb.out 2>&1
expect_in cb.out "-3.000" "the binary file's column is FLOAT"
"$WULTFW" filter small.wfb -o fb -m 'A,F' --exclude 'B == 2' 2>/dev/null &&
	"$WULTFW" convert fb/datapoints.wfb -o fb.csv 2>/dev/null
cmp -s f1.want fb.csv && ok "filter of the binary file, to binary, then CSV: the same" ||
	{ fail "binary filter changed the text"; cat fb.csv; }
"$WULTFW" filter small.wfb -o fbc -m 'A,F' --exclude 'B == 2' --to csv 2>/dev/null
cmp -s f1.want fbc/datapoints.csv && ok "filter of the binary file to CSV: the same" ||
	{ fail "binary filter to CSV changed the text"; cat fbc/datapoints.csv; }

# A type changed after the rows a one-pass reader learns from: the rows
# before were printed as integers already, the later ones must match.
awk 'BEGIN {
	print "WakeLatency,A";
	for (i = 0; i < 3000; i++) printf "%.3f,%d\n", i / 7, i % 50;
	print "1.000,7.25";
	for (i = 0; i < 3000; i++) printf "%.3f,%d\n", i / 3, i % 40;
}' >late.csv
"$WULTFW" convert late.csv -o late2.csv 2>/dev/null
cmp -s late.csv late2.csv && ok "a type changed at row 3001: convert writes the input's text" ||
	{ fail "convert after a change"; diff late.csv late2.csv | head -4; }
"$WULTFW" filter late.csv -o f2 -j 1 2>/dev/null
cmp -s late.csv f2/datapoints.csv && ok "and filter -j 1" ||
	{ fail "filter after a change"; diff late.csv f2/datapoints.csv | head -4; }

# Chunks on two threads (a file over 8 MiB): as one reader writes it.
awk 'BEGIN {
	print "A,B,C";
	for (i = 0; i < 500000; i++)
		printf "%s,%d,%.3f\n", i % 4 ? i % 50 : i % 50 + 0.25, i, i / 7;
}' >big.csv
for j in 1 2; do
	"$WULTFW" filter big.csv -o fb$j -j $j 2>/dev/null
	cmp -s big.csv fb$j/datapoints.csv && ok "filter -j $j of 500000 mixed rows writes them as they are" ||
		{ fail "filter -j $j"; diff big.csv fb$j/datapoints.csv | head -4; }
	"$WULTFW" convert big.csv -o big$j.wfb -j $j 2>/dev/null &&
		"$WULTFW" convert big$j.wfb -o big$j.csv -j $j 2>/dev/null
	cmp -s big.csv big$j.csv && ok "convert -j $j to binary and back: as they are" ||
		{ fail "convert -j $j round trip"; diff big.csv big$j.csv | head -4; }
done
"$WULTFW" convert late.csv -o late.wfb 2>/dev/null &&
	"$WULTFW" convert late.wfb -o late3.csv 2>/dev/null
cmp -s late.csv late3.csv && ok "a type changed at row 3001, through binary: the input's text" ||
	{ fail "late binary round trip"; diff late.csv late3.csv | head -4; }
# Integers ("5") only in the first chunk, later integral values written
# "49.0": every chunk prints them as one reader does, as integers.
awk 'BEGIN {
	print "A,B";
	for (i = 0; i < 500000; i++) {
		if (i < 2000 && i % 2)
			a = i % 50;
		else if (i % 5000 == 4999)
			a = sprintf("%d.0", i % 50);
		else
			a = i % 50 + (i % 2 ? 0.5 : 0.25);
		printf "%s,%d\n", a, i;
	}
}' >few.csv
sed 's/^49\.0,/49,/' few.csv >few.want
"$WULTFW" filter few.csv -o fw1 -j 1 2>/dev/null
cmp -s few.want fw1/datapoints.csv && ok "one reader: \"49.0\" in a column of integers prints \"49\"" ||
	{ fail "filter -j 1, integers at the start"; diff few.want fw1/datapoints.csv | head -4; }
"$WULTFW" filter few.csv -o fw2 -j 2 2>/dev/null
cmp -s fw1/datapoints.csv fw2/datapoints.csv && ok "-j 2 writes what -j 1 writes" ||
	{ fail "filter -j 2, integers at the start"; diff fw1/datapoints.csv fw2/datapoints.csv | head -4; }

exit $((failures > 0))
