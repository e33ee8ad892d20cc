#!/bin/sh
# The report's histogram bins (finding 19): a bulk of wakeups between 10
# and 20 us and a few far outliers (500 us, SMIs). The bins must span the
# least value to twice its distance to p99.9, so the bulk fills about half
# of them, and the "over" count must be exactly the outliers, for the whole
# and per C-state; a metric without outliers is binned to its maximum.
# Checked against the CSV itself (an independent reading in Python), for a
# result kept whole and for one sampled (over 1 M rows), from the CSV and
# from its binary twin (the same bins and over counts).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets"
cd "$work" || exit 1

# gen ROWS: WakeLatency 10.000 .. 19.990 (a bounded bulk), every 4000th
# row 500 + k (7 or more outliers), every 5000th empty; SilentTime
# uniform without outliers; states in turn.
gen() {
	awk -v n="$1" 'BEGIN { split("POLL C1 C6", cs, " ");
		print "WakeLatency,SilentTime,LDist,ReqCState";
		for (i = 0; i < n; i++) {
			w = sprintf("%.3f", 10 + ((i * 7919) % 1000) / 100);
			if (i % 4000 == 5) w = sprintf("%.3f", 500 + i / 4000);
			if (i % 5000 == 17) w = "";
			printf "%s,%.3f,%.3f,%s\n", w, 100 + (i * 31) % 400, 20 + (i * 17) % 480, cs[1 + i % 3];
		}
	}'
}

# check CSV DATAJS: the histograms of data.js against the CSV's values.
check() {
	python3 - "$1" "$2" <<'PY'
import csv, json, math, struct, sys

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

def pct(s, p):                      # numpy's linear interpolation
    h = (len(s) - 1) * p / 100
    k = int(h)
    return s[k] if k + 1 >= len(s) else s[k] + (h - k) * (s[k + 1] - s[k])

def close(a, b):                    # data.js prints 7 digits
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)

rows = list(csv.DictReader(open(sys.argv[1])))
s = open(sys.argv[2]).read()
rep = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
for m in rep["metrics"]:
    name, h = m["name"], m["dist"][0]["hist"]
    vals = [(f32(float(r[name])), r["ReqCState"]) for r in rows if r[name] != ""]
    srt = sorted(v for v, _ in vals)
    lo, mx = srt[0], srt[-1]
    # The edge is the summary table's p99.9: exact up to 1 M values, then
    # within the statistics' bound (0.1%) of the values' own.
    row = m["summary"][0][0]
    p = f32(row["v"][7])
    hi = f32(lo + 2 * (p - lo))
    hi = mx if not (p > lo and hi < mx) else hi
    over = sum(v > hi for v, _ in vals)
    print(name, "p99.9 ok:", abs(p - pct(srt, 99.9)) <= (1e-6 if row["exact"] else 1e-3) * abs(p))
    print(name, "lo ok:", close(h["lo"], lo), "hi ok:", close(h["hi"], hi),
          "max ok:", close(h["max"], mx), "width ok:", close(h["width"], (hi - lo) / 200))
    print(name, "over:", h["over"], "expected:", over, "exact:", h["over_exact"])
    print(name, "counted:", sum(h["counts"]) + h["over"], "of", len(vals))
    print(name, "bins used:", sum(c > 0 for c in h["counts"]))
    for g in h.get("groups", []):
        gv = [v for v, st in vals if st == g["name"]]
        print(name, g["name"], "over:", g["over"], "expected:", sum(v > hi for v in gv),
              "counted:", sum(g["counts"]) + g["over"], "of", len(gv))
    print(name, "groups add up:", [sum(c) for c in zip(*[g["counts"] for g in h["groups"]])] == h["counts"]
          if not m["dist"][0].get("sampled") else "sampled")
PY
}

# expect_bins CHECKFILE WHAT ROWS OUTLIERS: check's lines as they must be.
expect_bins() {
	expect_in "$1" "WakeLatency p99.9 ok: True" "$2: the table's p99.9 is the values'"
	expect_in "$1" "WakeLatency lo ok: True hi ok: True max ok: True width ok: True" "$2: bins from the least value to twice p99.9's distance"
	expect_in "$1" "WakeLatency over: $4 expected: $4 exact: True" "$2: the over bin counts exactly the $4 outliers"
	expect_in "$1" "WakeLatency counted: $3 of $3" "$2: bins and over count every value"
	for st in POLL C1 C6; do
		grep -q "^WakeLatency $st over: \([0-9]*\) expected: \1 counted: \([0-9]*\) of \2\$" "$1" &&
			ok "$2: $st's outliers in its own over bin" || fail "$2: $st: $(grep "^WakeLatency $st" "$1")"
	done
	bins=$(sed -n 's/^WakeLatency bins used: //p' "$1")
	[ "${bins:-0}" -ge 95 ] && [ "$bins" -le 105 ] && ok "$2: the bulk fills $bins of the 200 bins" ||
		fail "$2: the bulk fills ${bins:-no} bins, not about half"
	expect_in "$1" "SilentTime lo ok: True hi ok: True max ok: True width ok: True" "$2: no outlier: bins to the maximum"
	expect_in "$1" "SilentTime over: 0 expected: 0" "$2: and no over"
}

# hist_of DATAJS: each metric's bins and over counts (not the counts of a
# sample, which the CSV and its twin draw differently).
hist_of() {
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
rep = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
for m in rep["metrics"]:
    h = m["dist"][0]["hist"]
    print(m["name"], [h[k] for k in ("lo", "hi", "width", "max", "over", "over_exact")],
          [(g["name"], g["over"]) for g in h.get("groups", [])])
PY
}

gen 30000 >bulk.csv
"$WULTFW" report -o r-bulk -m WakeLatency,SilentTime bulk.csv 2>/dev/null
expect_status 0 $? "report of 30 000 rows"
check bulk.csv r-bulk/data.js >bulk.check
expect_bins bulk.check "kept whole" 29994 8
expect_in bulk.check "WakeLatency groups add up: True" "the C-states' bins add up to the whole's"
"$WULTFW" convert bulk.csv -o bulk.wfb 2>/dev/null &&
	"$WULTFW" report -o r-bulkb -m WakeLatency,SilentTime bulk.wfb 2>/dev/null
expect_status 0 $? "report of its binary twin"
sed -n 's/.*"metrics": //p' r-bulk/data.js >csv.metrics
sed -n 's/.*"metrics": //p' r-bulkb/data.js | cmp -s - csv.metrics &&
	ok "the binary twin: the same histograms, tables and plots" || fail "the CSV's and its twin's report data differ"

# Over the cap: a sample for the bulk, the tail (10 000 largest) exact;
# the over bin is above p99.9, so in the tail: still exact.
gen 1200000 >big.csv
"$WULTFW" report -o r-big -m WakeLatency,SilentTime big.csv 2>/dev/null
expect_status 0 $? "report of 1.2 M rows"
expect_in r-big/data.js '"sample": 250000' "sampled"
check big.csv r-big/data.js >big.check
expect_bins big.check "sampled" 1199760 300
"$WULTFW" convert big.csv -o big.wfb 2>/dev/null &&
	"$WULTFW" report -j 2 -o r-bigb -m WakeLatency,SilentTime big.wfb 2>/dev/null
expect_status 0 $? "report of its binary twin"
hist_of r-bigb/data.js >bigb.hist
hist_of r-big/data.js | cmp -s - bigb.hist && ok "the binary twin: the same bins and over counts" ||
	fail "the CSV's and its twin's bins differ: $(hist_of r-big/data.js | diff - bigb.hist)"
finish
