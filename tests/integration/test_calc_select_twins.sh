#!/bin/sh
# calc --include of a binary file takes the kept rows as numbers with
# their extremes and sums (the columns the expression reads decoded raw,
# the others as numbers): with empty cells, a NaN, a FLOAT column, every
# row kept or some, and an expression on a metric or on the group, it
# prints what calc of the CSV twin prints. Each run is bounded (60 s).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 30000 rows (many batches): empty INT cells, a NaN among floats.
awk 'BEGIN {
	srand(11);
	print "WakeLatency,IntrLatency,LDist,Ratio,ReqCState";
	n = split("POLL C1 C6 -", st, " ");
	for (r = 0; r < 30000; r++) {
		w = rand() < 0.02 ? "" : sprintf("%.3f", 0.1 + rand() * 500);
		i = rand() < 0.01 ? "" : sprintf("%d", int(rand() * 100000) - 5);
		f = rand() < 0.005 ? "nan" : sprintf("%.2f", rand() * 6 - 3);
		s = st[1 + int(rand() * n)];
		printf "%s,%s,%d,%s,%s\n", w, i, 1 + int(rand() * 4000), f, s == "-" ? "" : s;
	}
}' >a.csv
timeout 60 "$WULTFW" convert a.csv -o a.wfb >/dev/null 2>&1 || fail "convert"

for sel in "LDist > 0" "LDist > 1000" "WakeLatency > 100" "Ratio < 1" \
	   'ReqCState == "C6"' "IntrLatency > 50 && LDist < 3000"; do
	for c in "" "-c"; do
		# shellcheck disable=SC2086
		timeout 60 "$WULTFW" calc $c -j 1 -f count,min,mean,std,median,max --include "$sel" a.csv \
			>csv.out 2>&1 || fail "calc $c --include '$sel' a.csv"
		# shellcheck disable=SC2086
		timeout 60 "$WULTFW" calc $c -f count,min,mean,std,median,max --include "$sel" a.wfb \
			2>&1 | sed 's/a\.wfb/a.csv/g' >wfb.out
		if grep -q "rows selected" csv.out && cmp -s csv.out wfb.out; then
			ok "calc $c --include '$sel': the twins agree"
		else fail "calc $c --include '$sel': the twins differ:"; diff csv.out wfb.out | head; fi
	done
done
finish
