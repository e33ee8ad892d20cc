#!/bin/sh
# wultfw filter on binary results: the result is written in the input's
# format (datapoints.wfb) unless --to says otherwise, and holds the rows
# the CSV route keeps, byte for byte once printed as CSV. Blocks whose
# every row is kept are copied as they are; the others' kept rows are
# gathered; -j 1 and -j 2 write the same file.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 30000 rows (four blocks of the writer): an index, 3-decimal floats, a
# float of full precision, an integer column with empty cells, an enum and
# a constant column, so every chunk encoding is filtered.
awk 'BEGIN {
	srand(11);
	split("POLL C1 C6 C10", cs, " ");
	print "Idx,WakeLatency,Frac,Cnt,ReqCState,Const";
	for (i = 0; i < 30000; i++)
		printf "%d,%.3f,%.17g,%s,%s,7\n", i, 1 + rand() * 200, rand() / 3,
			i % 11 == 0 ? "" : int(rand() * 1000),
			cs[1 + int(rand() * 4)];
}' >raw.csv
mkdir -p bres cres
# (through t.wfb: a header without the room a CSV's names may need)
"$WULTFW" convert raw.csv -o t.wfb 2>/dev/null &&
	"$WULTFW" convert t.wfb -o bres/datapoints.wfb 2>/dev/null &&
	"$WULTFW" convert bres/datapoints.wfb -o cres/datapoints.csv 2>/dev/null
expect_status 0 $? "the binary result and its CSV twin"
printf "reportid: 'twin'\nbinary_records_in_file: 30000\n" >bres/info.yml
cp bres/info.yml cres/info.yml

# as_csv DIR: DIR's data file printed as CSV (to DIR.csv).
as_csv() {
	data_as_csv "$1" "$1.csv"
}

# same_rows NAME [OPTION...]: filter of the binary result (binary out) and
# of the CSV twin (CSV out) keep the same rows, byte for byte as CSV.
same_rows() {
	name=$1; shift
	"$WULTFW" filter bres -o "b.$name" "$@" 2>"b.$name.err"
	sb=$?
	"$WULTFW" filter cres -o "c.$name" "$@" 2>/dev/null
	sc=$?
	[ $sb = 0 ] && [ $sc = 0 ] && [ -f "b.$name/datapoints.wfb" ] &&
		[ ! -e "b.$name/datapoints.csv" ] && as_csv "b.$name" &&
		cmp -s "b.$name.csv" "c.$name/datapoints.csv" &&
		ok "binary in, binary out: the CSV route's rows ($name)" ||
		{ fail "binary filter differs from the CSV route: $name"; cat "b.$name.err"; }
}
same_rows c6 --include 'ReqCState == "C6"'
same_rows wl --include 'WakeLatency > 20us' --exclude 'Cnt < 100'
same_rows empty --include 'Cnt != 5'
same_rows metrics -m ReqCState,Frac,Idx --exclude 'ReqCState == "POLL"'
same_rows metrics_all -m Cnt,Const
same_rows none --include 'Idx < 0'
same_rows firstblock --include 'Idx >= 8192'
kept=$(($(wc -l <c.c6/datapoints.csv) - 1))
[ "$kept" -gt 6000 ] && [ "$kept" -lt 9000 ] && ok "C6 selects $kept of 30000 rows" ||
	fail "C6 should select about a quarter of the rows, not $kept"
[ "$(wc -l <c.none/datapoints.csv)" = 1 ] && ok "a selection of no row: the header only" ||
	fail "c.none holds rows"

# The block copy: no selection, or one every row passes, gives the file
# as it is; a block whose every row is kept is copied as it is.
"$WULTFW" filter bres -o copy 2>/dev/null
cmp -s copy/datapoints.wfb bres/datapoints.wfb && ok "no selection: the blocks copied as they are" ||
	fail "filter without a selection changed the binary file"
"$WULTFW" filter bres -o allkept --include 'Idx >= 0' 2>/dev/null
cmp -s allkept/datapoints.wfb bres/datapoints.wfb && ok "every row kept: the same file" ||
	fail "a selection keeping every row changed the binary file"
tail -c 40000 bres/datapoints.wfb >in.tail
tail -c 40000 b.firstblock/datapoints.wfb >out.tail
cmp -s in.tail out.tail && ok "blocks after the first, all kept, copied as they are" ||
	fail "the kept blocks were not copied as they are"
cmp -s b.c6/datapoints.wfb bres/datapoints.wfb && fail "C6 wrote the input file" ||
	ok "a block with dropped rows is written anew"

# -j 1 and -j 2: the same bytes.
for sel in "--include ReqCState==\"C1\"" "-m Idx,Frac --exclude WakeLatency<100"; do
	# shellcheck disable=SC2086
	"$WULTFW" filter bres -o j1 -j 1 $sel 2>/dev/null &&
		"$WULTFW" filter bres -o j2 -j 2 $sel 2>/dev/null
	cmp -s j1/datapoints.wfb j2/datapoints.wfb && ok "-j 1 and -j 2 write the same file: $sel" ||
		fail "-j 1 and -j 2 differ: $sel"
	rm -rf j1 j2
done

# --to: binary to CSV, CSV to binary.
"$WULTFW" filter bres -o tocsv --to csv --include 'ReqCState == "C6"' 2>/dev/null
[ ! -e tocsv/datapoints.wfb ] && cmp -s tocsv/datapoints.csv c.c6/datapoints.csv &&
	ok "--to csv from binary: the CSV route's file" || fail "--to csv from binary"
"$WULTFW" filter cres -o tobin --to binary --include 'ReqCState == "C6"' 2>/dev/null
[ ! -e tobin/datapoints.csv ] && as_csv tobin && cmp -s tobin.csv c.c6/datapoints.csv &&
	ok "--to binary from CSV: the same rows" || fail "--to binary from CSV"
"$WULTFW" filter bres -o tobin2 --to binary -m Idx 2>/dev/null
[ -f tobin2/datapoints.wfb ] && ok "--to binary from binary" || fail "--to binary from binary"
"$WULTFW" filter bres -o bad --to bin >bad.err 2>&1
expect_status 2 $? "--to bin is refused"
expect_in bad.err "--to bin: use csv or binary (did you mean 'binary'?)" "with a did-you-mean"
[ ! -e bad ] && ok "and writes nothing" || fail "--to bin left bad/"
"$WULTFW" convert bres/datapoints.wfb -o bad.out --to cvs >bad.err 2>&1
expect_in bad.err "--to cvs: use csv or binary (did you mean 'csv'?)" "convert's --to says the same"

# A version 1 binary file (fixed records) to binary: rows, not blocks.
"$WULTFW" filter "$srcdir/tests/data/binary-v1/datapoints.wfb" -o v1 -j 2 \
	--include 'WakeLatency > 0' 2>/dev/null &&
	"$WULTFW" filter "$srcdir/tests/data/binary-v1/datapoints.csv" -o v1c \
		--include 'WakeLatency > 0' 2>/dev/null
as_csv v1 && cmp -s v1.csv v1c/datapoints.csv && ok "a version 1 binary file: the CSV route's rows" ||
	fail "filter of a version 1 binary file"

# CSV to binary where a column's type changes after the first rows: the
# types of every row (a binary file declares them).
awk 'BEGIN { print "A,B";
	for (i = 0; i < 5000; i++) printf "%d,%s\n", i, i < 4000 ? i % 7 : i / 8 }' >ty.csv
"$WULTFW" filter ty.csv -o ty --to binary --include 'A >= 10' 2>ty.err
expect_status 0 $? "CSV to binary with a type change"
"$WULTFW" calc -f count,max -m B ty >ty.out 2>&1
expect_in ty.out "4990" "every selected row in the binary file"
expect_in ty.out "624.875" "B's later values as floats"

# The new result opens like any: info.yml, calc, report.
expect_in b.c6/info.yml "datapoints: $kept" "info.yml: the rows kept"
expect_in b.c6/info.yml "filtered_from: 'bres/datapoints.wfb'" "info.yml: the file read"
grep -q binary_records_in_file b.c6/info.yml && fail "info.yml keeps the old file's record count" ||
	ok "info.yml drops what the old one said of its file"
"$WULTFW" calc -f count -m WakeLatency b.c6 >calc.out 2>&1
expect_status 0 $? "calc of the filtered binary result"
expect_in calc.out " $kept" "calc counts $kept rows"
"$WULTFW" report -o rep b.c6 >/dev/null 2>&1
expect_status 0 $? "report of the filtered binary result"
"$WULTFW" filter b.c6 -o again --include 'WakeLatency > 100' 2>/dev/null
[ -f again/datapoints.wfb ] && ok "filtering a filtered binary result" || fail "filter of b.c6"

# A damaged block found mid-read leaves no half-written result behind, on
# each path: the block copy, and gathering on two threads.
cp bres/datapoints.wfb dmg.wfb
size=$(stat -c %s dmg.wfb)
printf '\377\377\377\377\377\377\377\377' |
	dd of=dmg.wfb bs=1 seek=$((size - 64)) conv=notrunc 2>/dev/null
for opts in "-j 1" "-j 2 --include Idx>5"; do
	# shellcheck disable=SC2086
	"$WULTFW" filter dmg.wfb -o dmgout $opts >dmg.err 2>&1
	expect_status 1 $? "a damaged binary file fails filter ($opts)"
	expect_in dmg.err "removed the partial dmgout" "and says it removed the partial output"
	[ ! -e dmgout ] && ok "which is gone" || { fail "dmgout/ left behind"; rm -rf dmgout; }
done
finish
