#!/bin/sh
# calc -g with more groups than a histogram each fits --mem-limit: groups
# past the switch point take sketches of the histogram's buckets. The
# output says so (a line under the table, "approximate" in JSON), the
# numbers are those the histograms give (the same buckets: the same bytes
# but for that line, -j 1 and -j 2), every approximate percentile is
# within the stated bound of the exact one (all values kept: -e, -M),
# and a run whose groups fit keeps today's output (test_calc_memlimit.sh).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 150 groups of 1 600 rows, past the switch point (-e 1000): each takes a
# histogram (about 75 KiB) or a sketch.
awk 'BEGIN {
	print "Grp,Lat,Cnt"; s = 7
	for (r = 0; r < 240000; r++) {
		s = (s * 1103515245 + 12345) % 2147483648
		printf "g%d,%.3f,%d\n", r % 150, exp((s % 100000) / 9000.0), s % 5000
	}
}' >many.csv

F=count,min,mean,std,median,p10,p90,p99,p99.9,max
# calc ARGS...: into out (stdout) and err, within 120 s; -e 1000: every
# group past the switch point (the exact run below raises it). 150
# histograms of 2 metrics (23 MiB) are over a quarter of 48M: sketches.
# Under ASan the limit also counts the freed memory it holds back: less.
calc() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4" \
		"$WULTFW" calc -g Grp -f $F -e 1000 "$@" many.csv >out 2>err &
	wait_bounded $! 120
}

for j in 1 2; do
	calc -j $j --mem-limit 48M
	expect_status 0 $? "150 groups of 1 600 under --mem-limit 48M (-j $j)" err
	mv out sk.$j
	calc -j $j --mem-limit none
	expect_status 0 $? "the same, no limit (-j $j)" err
	mv out hist.$j
done
expect_in sk.1 "Approximate: the percentiles (marked ~) of 150 groups past the switch point come from sketches of the histogram's buckets, within 0.098%: a histogram for each group would not fit the memory limit, 48 MiB (--mem-limit)." "the table says which and why"
if grep -q '^Approximate' hist.1; then fail "a run without a limit says approximate"
else ok "histograms when they fit: no such line"; fi
grep -v '^Approximate' sk.1 >sk.cut
if cmp -s sk.cut hist.1; then ok "sketches give the histograms' numbers"
else fail "sketch and histogram tables differ"; diff sk.cut hist.1 | head; fi
if cmp -s sk.1 sk.2; then ok "-j 1 and -j 2 agree"; else fail "-j 1 and -j 2 differ"; diff sk.1 sk.2 | head; fi

calc -j 2 --mem-limit 48M -F json
expect_status 0 $? "JSON under the limit" err
mv out sk.json
expect_in sk.json '"approximate": true' "JSON flags approximate"
expect_in sk.json '"sketch_relative_error": 0.000976562' "JSON names the bound"
calc -j 2 --mem-limit none -e 100000 -M 64 -F json
expect_status 0 $? "every value kept: exact" err
mv out exact.json
if grep -q '"approximate"' exact.json; then fail "an exact run flagged approximate"
else ok "exact run not flagged"; fi

if ! command -v python3 >/dev/null; then
	skip_part "no python3 here to compare the JSON percentiles"
	finish
fi
python3 - sk.json exact.json <<'PY' >cmp.out 2>&1
import json, sys
a, e = (json.load(open(f))["results"][0]["stats"] for f in sys.argv[1:3])
checked = 0
for m, am in a["metrics"].items():
    for g, s in am["Grp"].items():
        x = e["metrics"][m]["Grp"][g]
        assert x["exact"], (m, g, "not exact")
        for k in ("count", "min", "max"):
            assert s[k] == x[k], (m, g, k, s[k], x[k])
        for k in ("mean", "stddev"):
            assert abs(s[k] - x[k]) <= 1e-9 * abs(x[k]), (m, g, k, s[k], x[k])
        bound = s["relative_error_bound"]
        assert not s["exact"] and bound == 2.0 ** -10, (m, g, bound)
        for k in ["median"] + list(s["percentiles"]):
            v = s[k] if k == "median" else s["percentiles"][k]
            w = x[k] if k == "median" else x["percentiles"][k]
            assert abs(v - w) <= bound * abs(w) * (1 + 1e-12), (m, g, k, v, w)
            checked += 1
print("checked", checked)
PY
if [ $? -eq 0 ]; then ok "every approximate percentile within the bound ($(cat cmp.out))"
else fail "approximate percentile past the bound"; cat cmp.out; fi
finish
