#!/bin/sh
# pandas' `index` in --include/--exclude (the row number from 0, of the
# rows as read, before any selection) gives the same rows on every
# reading path: filter, convert, calc, report and calc --explain; CSV
# (one reader, chunks, parts) and binary (blocks, parts); -j 1 and -j 2.
# The CSV has blank lines, which are no rows (pandas skips them too), and
# a column N holding each row's number, so awk says which rows are right.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# Every run bounded (30 000 rows take well under a second).
w() {
	timeout 120 "$WULTFW" "$@"
}

mkdir -p res bres
# Attribution columns (all of it idle exit) so that calc --explain reads it.
awk 'BEGIN {
	print "WakeLatency,ReqCState,N,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,IRQCnt,SWIRQCnt,NMICnt,Cause,CausePID";
	for (i = 0; i < 30000; i++) {
		if (i % 7001 == 5)
			print "";
		lat = sprintf("%d.%03d", 1 + i % 97, i % 1000);
		printf "%s,%s,%d,0,0,0,0,%s,0,0,0,idle-exit,\n", lat, i % 3 ? "C1" : "C6", i, lat;
	}
}' >res/datapoints.csv
printf "toolname: 'wult'\nreportid: 'index'\nattrib: 'on'\nattrib_latency: WakeLatency\nattrib_start: LTime\n" >res/info.yml
w convert res/datapoints.csv -o bres/datapoints.wfb 2>conv.err
expect_status 0 $? "the binary copy"
cp res/info.yml bres/

# check NAME AWK-CONDITION-ON-N WULTFW-OPTION...
check() {
	name=$1 cond=$2
	shift 2
	awk -F, "NR > 1 && NF > 3 { N = \$3 + 0; if ($cond) print N }" res/datapoints.csv >"$name.want"
	n=$(wc -l <"$name.want")
	[ "$n" -gt 0 ] || fail "$name: the test selects no row"
	for in in res bres; do
		for j in 1 2; do
			t="$name.$in.j$j"
			w filter $in -o "$t.f" -j $j "$@" 2>"$t.ferr"
			expect_status 0 $? "$t: filter"
			data_as_csv "$t.f" "$t.f.csv"
			tail -n +2 "$t.f.csv" | cut -d, -f3 >"$t.fgot"
			cmp -s "$t.fgot" "$name.want" && ok "$t: filter keeps the $n rows awk keeps" ||
				fail "$t: filter kept $(wc -l <"$t.fgot") rows, awk $n"
			w convert $in/datapoints.* -o "$t.csv" -j $j "$@" 2>"$t.cerr"
			expect_status 0 $? "$t: convert"
			tail -n +2 "$t.csv" | cut -d, -f3 >"$t.cgot"
			cmp -s "$t.cgot" "$name.want" && ok "$t: convert keeps them" ||
				fail "$t: convert kept $(wc -l <"$t.cgot") rows, awk $n"
			w calc -j $j -f count,min,max -m N $in "$@" >"$t.calc" 2>&1
			expect_status 0 $? "$t: calc"
			expect_in "$t.calc" "$n of 30000 rows selected" "$t: calc selects $n rows"
			awk -v n="$n" 'NR == 1 { a = $1 } END { print n, a, $1 }' "$name.want" >"$t.cwant"
			awk '$1 == "N" { print $2, $3, $4 }' "$t.calc" >"$t.cgot2"
			cmp -s "$t.cgot2" "$t.cwant" && ok "$t: calc's count, min and max of N" ||
				fail "$t: calc's count, min, max of N: $(cat "$t.cgot2"), awk's $(cat "$t.cwant")"
			w calc -j $j --explain 50 $in "$@" >"$t.x" 2>&1
			expect_status 0 $? "$t: calc --explain"
			expect_in "$t.x" "$n of 30000 rows selected" "$t: calc --explain selects $n rows"
		done
		w report $in -o "$name.$in.r" -m N "$@" 2>"$name.$in.rerr"
		expect_status 0 $? "$name.$in: report"
		expect_in "$name.$in.r/data.js" "\"rows\": $n," "$name.$in: report keeps $n rows"
	done
}

check first 'N < 10' --include 'index < 10'
check last_parts 'N >= 14990 && N % 3' --include 'index >= 14990 and ReqCState == "C1"'
check pandas 'N % 3 == 0 && !(N > 100 && N < 29000)' \
	--include 'ReqCState == "C6"' --exclude '100 < index & index < 29000'
check one 'N == 21003' --include 'index == 21003'

# A name no row has, and a column empty in every row: one warning line
# each, after the rows, on every path (chunks and parts merge what each
# reader saw: C6 rows are in every part, so no part alone may warn).
awk -F, -v OFS=, 'NR == 1 { print $0, "Empty"; next } NF > 3 { print $0, "" }' \
	res/datapoints.csv >eres.csv
mkdir -p eres && cp eres.csv eres/datapoints.csv && cp res/info.yml eres/
inc='ReqCState == "C7" || Empty > 1 || ReqCState == "C6"'
for t in calc.1 calc.2 explain.1 explain.2 filter.1 filter.3 convert.1 convert.2 report.1; do
	j=${t#*.}
	case $t in
	calc.*) w calc -j $j -m N eres --include "$inc" >/dev/null 2>w.$t ;;
	explain.*) w calc -j $j --explain 50 eres --include "$inc" >/dev/null 2>w.$t ;;
	filter.*) w filter -j $j eres -o w.$t.f --include "$inc" 2>w.$t ;;
	convert.*) w convert -j $j eres.csv -o w.$t.csv --include "$inc" 2>w.$t ;;
	report.*) w report eres -o w.$t.r -m N --include "$inc" 2>w.$t ;;
	esac
	expect_in w.$t '--include: no row has ReqCState "C7" (did you mean "C6"?); its names: ' \
		"$t: the name no row has"
	expect_in w.$t '--include: no row has a value in Empty: the column is empty in every row' \
		"$t: the empty column"
	[ "$(grep -c 'warning: ' w.$t)" -eq 2 ] && ok "$t: two lines, C6 not among them" ||
		fail "$t: $(grep -c 'warning: ' w.$t) warnings: $(cat w.$t)"
done

# Where it means nothing, or cannot: a clear refusal.
w filter res -o bad.f --include 'index < 1ms' >bad1.err 2>&1
expect_status 1 $? "index with a unit"
expect_in bad1.err "index is a row number: write it without a unit ('ms')" "says so"
w filter res -o bad.f --include 'index == N' >bad2.err 2>&1
expect_status 1 $? "index against a column"
expect_in bad2.err "compares with a number only" "says so"
cat >idx.cfg <<'CFG'
experiments = ( { name = "i"; source = { plugin = "timer"; };
		  sinks = ( { plugin = "csv"; } ); include = "index < 10"; } );
CFG
w -c idx.cfg --check >bad3.err 2>&1
expect_status 2 $? "index in an experiment's live filter"
expect_in bad3.err "idx.cfg:2: " "at file:line"
expect_in bad3.err "'index' (a result's row number) means nothing while measuring" "says why"
finish
