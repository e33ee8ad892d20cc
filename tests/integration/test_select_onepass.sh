#!/bin/sh
# --include/--exclude of filter, calc and report read a CSV file once: the
# reader learns the column types from the first rows and corrects them
# later, and the selection must follow. The file below changes after the
# first rows (and after the first batches): an INT column turns FLOAT at
# row 15000, a name first appears at row 12348, a column empty in its
# first 5000 rows gets numbers, another gets names at row 9001. The rows
# kept must be exactly those an independent awk computation selects (what
# reading the file twice gave); a comparison that does not fit the type a
# column gets late fails as it does when the types are known up front.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

mkdir -p res
awk 'BEGIN {
	print "Lat,State,Late,Tag,N";
	for (i = 1; i <= 20000; i++) {
		if (i < 15000)
			lat = sprintf("%d.%03d", i % 50, i % 1000);
		else
			lat = sprintf("%d.%04d", i % 50, i % 10000);
		st = i >= 12345 && i % 7 == 0 ? "C10" : (i % 2 ? "C1" : "C6");
		late = i <= 5000 ? "" : i % 100;
		tag = i <= 9000 ? "" : (i % 3 ? "x" : "y");
		printf "%s,%s,%s,%s,%d\n", lat, st, late, tag, i;
	}
}' >res/datapoints.csv
printf "toolname: 'wult'\nreportid: 'late'\n" >res/info.yml

# want AWK-CONDITION: the N (row number) of every row awk keeps.
want() {
	awk -F, "NR > 1 && ($1) { print \$5 }" res/datapoints.csv
}

# check NAME AWK-CONDITION WULTFW-OPTION...: filter, calc and report
# keep the rows awk keeps.
check() {
	name=$1 cond=$2
	shift 2
	want "$cond" >"$name.want"
	n=$(wc -l <"$name.want")
	first=$(head -n 1 "$name.want") last=$(tail -n 1 "$name.want")
	[ "$n" -gt 0 ] || fail "$name: the test selects no row"
	"$WULTFW" filter res -o "$name.f" "$@" 2>"$name.err"
	expect_status 0 $? "$name: filter"
	tail -n +2 "$name.f/datapoints.csv" | cut -d, -f5 >"$name.got"
	cmp -s "$name.got" "$name.want" && ok "$name: filter keeps the $n rows awk keeps" ||
		fail "$name: filter kept $(wc -l <"$name.got") rows, awk $n"
	# In chunks on three threads (each chunk learning its own types and
	# names): the same file, or one reader again where a chunk disagrees.
	"$WULTFW" filter res -o "$name.f3" -j 3 "$@" 2>"$name.err3"
	expect_status 0 $? "$name: filter -j 3"
	cmp -s "$name.f/datapoints.csv" "$name.f3/datapoints.csv" &&
		ok "$name: filter -j 3 writes what -j 1 writes" || fail "$name: filter -j 3 differs"
	"$WULTFW" calc -f count,min,max -m N res "$@" >"$name.calc" 2>&1
	expect_status 0 $? "$name: calc"
	expect_in "$name.calc" "$n of 20000 rows selected" "$name: calc selects $n rows"
	"$WULTFW" calc -j 2 -f count,min,max -m N res "$@" >"$name.calc2" 2>&1
	expect_in "$name.calc2" "$n of 20000 rows selected" "$name: calc -j 2 selects $n rows"
	"$WULTFW" report res -o "$name.r" -m N "$@" 2>"$name.rerr"
	expect_status 0 $? "$name: report"
	expect_in "$name.r/data.js" "\"rows\": $n," "$name: report keeps $n rows"
	expect_in "$name.r/data.js" "\"v\": [$n, $first," "$name: report's first row is $first"
	cat "$name.err" "$name.calc" "$name.calc2" "$name.rerr" | grep "no row has" &&
		fail "$name: a name found late warned about" || ok "$name: no name warned about"
}

# A name first seen at row 12348, long after the types were learned.
check late_name '$2 == "C10"' --include 'State == "C10"'
check late_name_ne '$2 != "C10"' --include 'State != "C10"'
check late_name_exclude '$2 != "C10" && $1 > 40' --exclude 'State == "C10"' --include 'Lat > 40'
# INT (3 decimals) until row 15000, FLOAT from there on.
check late_float '$1 > 20.5 && $1 < 30' --include 'Lat > 20.5 && Lat < 30'
# Empty in the rows types are learned from, numbers from row 5001 on.
check late_number '$3 != "" && $3 > 50' --include 'Late > 50'
check late_number_ne '$3 != 7' --include 'Late != 7'
# Empty until row 9000, then names.
check late_text '$4 == "y"' --include 'Tag == "y"'
check mixed '($3 != "" && $3 >= 10) && !($2 == "C10" || $4 == "x")' \
	--include 'Late >= 10' --exclude 'State == "C10" || Tag == "x"'
# pandas' spelling, as wult's users write --include: & | ~ as and, or, not.
check pandas '$2 == "C10" || ($1 > 40 && $2 != "C1")' \
	--include 'State == "C10" | Lat > 40 & ~(State == "C1")'

# A column typed late that does not fit the comparison: an error naming
# it, as when the types are known before the first row.
"$WULTFW" filter res -o bad1 --include 'Late == "x"' >bad1.err 2>&1
expect_status 1 $? "a string against a column that turns out numeric fails"
expect_in bad1.err "--include: in the rows after the first 5000: column 'Late' holds numbers" "saying which column and where"
expect_in bad1.err '  Late == "x"
          ^' "with a caret"
# A misspelt name: every tool says so after the rows, with the names.
for t in report convert filter; do
	case $t in
	report) "$WULTFW" report res -o typo.r -m N --include 'State == "c10"' 2>typo.err ;;
	filter) "$WULTFW" filter res -o typo.f --include 'State == "c10"' 2>typo.err ;;
	convert) "$WULTFW" convert res/datapoints.csv -o typo.csv --include 'State == "c10"' 2>typo.err ;;
	esac
	expect_status 0 $? "$t: a misspelt name is no error"
	expect_in typo.err "warning: " "$t: warns"
	expect_in typo.err "--include: no row has State \"c10\" (did you mean \"C10\"?); its names: C1, C6, C10" \
		"$t: names the name, the likely one and the names there are"
done
"$WULTFW" calc res --exclude 'Tag > 5' >bad2.err 2>&1
expect_status 1 $? "a number against a column that turns out to hold names fails"
expect_in bad2.err "--exclude: in the rows after the first" "calc says so"
expect_in bad2.err "column 'Tag' holds names" "naming the column"
finish
