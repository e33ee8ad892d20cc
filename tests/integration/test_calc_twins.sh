#!/bin/sh
# wultfw calc -c prints the same table, byte for byte and with the same
# exactness marks (~), for a CSV file, its binary twin, the same rows in
# another order, and a filtered binary file that keeps names no row uses
# (its CSV twin has only the names used): C-states are listed by depth,
# and each metric's room for exact values is shared by the groups that
# have values, however many names the ReqCState column holds.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 60050 rows, three metrics, groups of very different sizes, C6 first.
awk 'BEGIN {
	srand(7);
	print "WakeLatency,IntrOff,SilentTime,ReqCState";
	n = split("C6 C10 C1 C1E POLL -", st, " ");
	split("40000 100 15000 900 4000 50", left, " ");
	total = 60050;
	for (r = 0; r < total; r++) {
		k = int(rand() * (total - r));
		for (i = 1; i <= n; i++) { if (k < left[i]) break; k -= left[i]; }
		left[i]--;
		printf "%.3f,%d,%.3f,%s\n", 1 + i + rand() * 50, int(rand() * 2),
			rand() * 4000, st[i] == "-" ? "" : st[i];
	}
}' >a.csv
{ head -n 1 a.csv; tail -n +2 a.csv | sort -t, -k4,4r -k1,1n; } >sorted.csv
"$WULTFW" convert a.csv -o a.wfb >/dev/null 2>&1 || fail "convert"
"$WULTFW" filter a.wfb -o fb --exclude 'ReqCState == "C1"' >/dev/null 2>&1 || fail "filter to binary"
"$WULTFW" filter a.csv -o fc --exclude 'ReqCState == "C1"' >/dev/null 2>&1 || fail "filter to CSV"

# -M 1: 43690 exact values per metric; C6 (40000) is over its fair share
# (23640), the others are exact.
calc() {
	"$WULTFW" calc -c -M 1 -f count,mean,median,p99,max "$@"
}
calc -j 1 a.csv >csv.out 2>&1 || fail "calc a.csv"
for v in "-j 2 a.csv" "a.wfb" "-j 2 a.wfb" "-j 1 sorted.csv" "-j 2 sorted.csv"; do
	# shellcheck disable=SC2086
	calc $v >v.out 2>&1
	if cmp -s csv.out v.out; then ok "calc -c $v prints what calc -c a.csv prints"; else
		fail "calc -c $v differs from a.csv's:"; diff csv.out v.out | head -20; fi
done
grep -E '^WakeLatency' csv.out | awk '{ print $3 }' | tr '\n' ' ' >order
if [ "$(cat order)" = "all POLL C1 C1E C6 C10 - " ]; then ok "C-states by depth"; else
	fail "C-states in the order '$(cat order)'"; fi
if grep -E '^WakeLatency +us +C1 ' csv.out | grep -q '~'; then
	fail "C1 (15000 values) approximate:"; cat csv.out
else ok "C1 stays exact (the groups' room is shared, not split by names)"; fi
if grep -E '^WakeLatency +us +C6 ' csv.out | grep -q '~'; then ok "C6 (40000) from the histogram"; else
	fail "C6 exact beyond the memory cap:"; cat csv.out; fi
expect_in csv.out "exact up to 23640 values per metric and group" "the switch point is stated"

calc fc/datapoints.csv >fc.out 2>&1 || fail "calc the filtered CSV"
calc fb/datapoints.wfb >fb.out 2>&1 || fail "calc the filtered binary file"
if cmp -s fc.out fb.out; then ok "a filtered binary file that keeps unused names prints what its CSV twin prints"; else
	fail "filtered twins differ:"; diff fc.out fb.out; fi
if grep -q '~' fb.out && ! grep -E ' (POLL|C1E|C10|-) ' fb.out | grep -q '~'; then
	ok "in the filtered files only C6 and all are approximate"
else fail "exactness of the filtered files:"; cat fb.out; fi
# JSON too, but for the file's name.
for f in a.csv a.wfb fc/datapoints.csv fb/datapoints.wfb; do
	"$WULTFW" calc -c -M 1 -F json "$f" 2>/dev/null | grep -v '"file"\|"result"' >"$(echo "$f" | tr / _).json"
done
if cmp -s a.csv.json a.wfb.json && cmp -s fc_datapoints.csv.json fb_datapoints.wfb.json; then
	ok "calc -c --json: the twins agree"
else fail "calc -c --json: the twins differ"; diff a.csv.json a.wfb.json | head; fi
# --include and --exclude: a binary file's rows are selected column by
# column, a CSV's row by row; the tables agree (index too).
for sel in "--include=WakeLatency > 20 && ReqCState != \"C6\"" "--exclude=index < 20000 && IntrOff == 0" \
	"--include=index >= 30000 || IntrOff == 1"; do
	"$WULTFW" calc -c -M 1 "$sel" a.csv >sel-csv.out 2>&1
	"$WULTFW" calc -c -M 1 "$sel" a.wfb 2>&1 | sed 's/a\.wfb/a.csv/' >sel-wfb.out
	if grep -q "rows selected" sel-csv.out && cmp -s sel-csv.out sel-wfb.out; then
		ok "calc -c '$sel': the twins agree"
	else fail "calc -c '$sel': the twins differ:"; diff sel-csv.out sel-wfb.out | head; fi
done
finish
