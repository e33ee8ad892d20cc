#!/bin/sh
# wultfw report, opened in headless Chromium: real timer results (CSV and
# binary, and one as without cpuidle), hrt where it runs, a filtered one,
# wult's own results (formats 1.2 and 1.3), a diff of three, a 1 M-datapoint
# one, --xaxes/--yaxes, a skid result (per precise level) and one with a
# collector (Timeline tab). Each page, opened with #all, must draw every
# tab and plot without a JavaScript error (report.js sets the footer's
# data-status); one page opened as a user does draws only what is in view; a
# screenshot of each goes to test_report-shots/. Every run has a time
# limit; a part this machine cannot measure (now) is skipped, named.
# Every page's plots must draw every datapoint data.js gives them
# (test_report_drawn.js counts what plotly drew), a page of 150 discrete
# values and one with lone tail datapoints included, and each (result,
# C-state) one colour in every plot and table (one result, diffs of two
# and three); --hist/--chist.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
export WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets"
chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	echo "SKIP: no chromium (Debian package chromium) to open the reports in"
	exit 77
fi
shots="$top/tests/integration/test_report-shots"
rm -rf "$shots" && mkdir -p "$shots"
cd "$work" || exit 1

# colours_check NAME WHAT: drawn.js found every (result, C-state) in one
# colour in every plot, table swatch and card, none shared in a result.
colours_check() {
	if grep -q '^drawn-short colours' "$1.drawn"; then
		fail "$1: $2: colours disagree:"
		grep '^drawn-short colours' "$1.drawn" | head -4 | sed 's/^/    /'
	else
		expect_in "$1.drawn" "drawn-ok colours: " "$1: $2: one colour per (result, C-state) across the page"
	fi
}

# open_report NAME DIR TABS: drawn, checked, screenshot (report_open.sh).
. "$srcdir/tests/integration/report_open.sh"

# Samplers drawn as what they are (issue 31): a skid result of four
# precise levels (synthetic: this machine has no PMU, and its events have
# one level) with hits, loop and outside samples and a lone far skid; a
# real telemetry result (rates of its totals, one point per interval);
# the timer run with a collector: its counters' rates on the time axis of
# the datapoints' LTime.
samplers_pages() {
	awk 'BEGIN { srand(8); print "Event,Precise,Skid,SkidBytes,Where,Time";
		for (i = 0; i < 2000; i++) {
			p = i % 4; u = rand();
			if (u < 0.02) { printf "r412e,p%d,,,outside,%.6f\n", p, i / 1000; continue }
			s = p == 3 ? (u < 0.5 ? 0 : 1) : int(rand() * (40 - 10 * p)) + p;
			if (i == 1001) s = 1234;
			w = s == 0 ? "hit" : s <= 100 ? "runway" : "loop";
			printf "r412e,p%d,%d,%d,%s,%.6f\n", p, s, s ? s + 4 : 0, w, i / 1000;
		}
	}' >skid4.csv
	"$WULTFW" report -o r-skid4 skid4.csv 2>/dev/null
	expect_status 0 $? "report of a skid result of four precise levels"
	open_report skid4 r-skid4 1
	for p in p0 p1 p2 p3; do
		n=$(awk -F, -v p=$p '$2 == p && $3 != "" { n++ } END { print n }' skid4.csv)
		expect_in skid4.drawn "drawn-ok Skid skid-skid $p: $n of $n drawn, rows with a distance $n, the table's count $n" \
			"the $p histogram draws its $n samples with a Skid"
		expect_in skid4.drawn "drawn-ok Skid skid-bytes $p: $n of $n" "and in bytes"
	done
	out=$(awk -F, '$5 == "outside" && $2 == "p1" { n++ } END { print n }' skid4.csv)
	expect_in skid4.dom "<td>p1</td><td class=\"num\">500</td><td class=\"num\">" "the classes table counts p1's 500 samples"
	expect_in skid4.dom "$out ($(awk -v n=$out 'BEGIN { printf "%.1f", 100 * n / 500 }')%)</td></tr>" "with its $out outside samples and their share"

	cat >tele.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "tele";
    source = { plugin = "telemetry"; period = "20ms"; counters = [ "stat:ctxt", "stat:cpu1:idle" ]; };
    limits = { datapoints = 50; time = "60s"; };
    sinks = ( { plugin = "csv"; }, { plugin = "binary"; } );
  }
);
CFG
	"$WULTFW" -q -c tele.cfg 2>tele.err
	expect_status 0 $? "a telemetry run"
	"$WULTFW" report -o r-tele out/tele/datapoints.wfb 2>/dev/null
	expect_status 0 $? "report of a telemetry result"
	open_report tele r-tele 2
	n=$(sed -n "s/^telemetry_samples: '\(.*\)'/\1/p" out/tele/info.yml)
	expect_in tele.drawn "drawn-ok timeline tele stat:ctxt rate: $((n - 1)) points for $((n - 1)) intervals" \
		"a total's rate: one point per interval of its $n samples"
	expect_in r-tele/data.js '"unit": "count", "kind": "total", "rate": true' "its kind from info.yml, its unit from the binary file"
	expect_in tele.dom "stat:ctxt rate (count/s)" "the rate's unit on its axis"

	expect_in timeline.drawn "drawn-ok timeline col stat:ctxt rate: " "the collector's total as its rate"
	expect_in timeline.drawn "on the datapoints' time axis" "on the time axis of the datapoints' LTime"
}

# open_lazy NAME DIR TAB: DIR/index.html as a user opens it, in a short
# window: tab TAB's tables and the plots in view drawn, the rest of the
# page not (drawn when scrolled to or opened), and the footer says so.
open_lazy() {
	# 600 px: at 900 the first callback of the observer, in real time, finds
	# all four plots of a wult result in view
	page_open "$1" "file://$PWD/$2/index.html" 1400,600
	status=$(sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"[^>]*>\([^<]*\).*/\1: \2/p' "$1.dom")
	drawn=$(grep -o 'data-drawn="yes"' "$1.dom" | wc -l)
	plots=$(grep -o 'class="plot[ "]' "$1.dom" | wc -l)
	case "$status" in
	"ok: ok: tab $3 drawn, $drawn plots in view, "*" more as they scroll into view; "*" when opened")
		ok "$1: $status" ;;
	*) fail "$1: the page says '${status:-nothing (did it load?)}' ($drawn plots drawn)" ;;
	esac
	[ "$drawn" -gt 0 ] && [ "$drawn" -lt "$plots" ] && ok "$1: $drawn of the tab's $plots plots drawn" ||
		fail "$1: $drawn of $plots plots drawn (want some, not all)"
	expect_in "$1.dom" "<table>" "$1: its tables are there"
	grep -q '<section class="panel" data-metric="[^"]*"></section>' "$1.dom" &&
		ok "$1: the other tab left for when it is opened" || fail "$1: every tab built"
	grep -q 'data-first-tab-ms="[0-9]' "$1.dom" && ! grep -q 'data-drawn-ms=' "$1.dom" &&
		ok "$1: data-first-tab-ms set, data-drawn-ms not" || fail "$1: the footer's times"
}

cat >timer.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = 1; ldist = [ "20us", "500us" ]; };
    limits = { datapoints = 3000; time = "5m"; };
    sinks = ( { plugin = "csv"; }, { plugin = "binary"; } );
  }
);
CFG
"$WULTFW" -q -c timer.cfg
expect_status 0 $? "a real timer measurement"

"$WULTFW" report -o r-timer --title "timer, 3000 datapoints" --descr "integration test" out/timer 2>r.err
expect_status 0 $? "report of a timer result"
for f in index.html data.js report.js colors.js dist.js metric.js timeline.js explain.js skid.js telemetry.js report.css plotly.min.js; do
	[ -s "r-timer/$f" ] || fail "r-timer/$f missing"
done
if grep -qE 'src="(https?:)?//' r-timer/index.html; then fail "index.html loads something from the network"; else ok "nothing loaded from the network"; fi
open_report timer r-timer 1
expect_in timer.dom '<p class="descr">TAI - LTime: launch time to the measuring thread running again in user space after clock_nanosleep() returned' "the page says what timer's WakeLatency is"
for key in '"kernel": ' '"hostname": ' '"cpuidle_driver": ' '"cpuidle_governor": '; do
	expect_in r-timer/data.js "$key" "the intro has $key from info.yml"
done

# Every datapoint drawn (issue 31): 150 rows of six discrete values (each
# bin with empty neighbours), and a bulk with a lone datapoint inside the
# bins' range and one far above it (the over bin).
awk 'BEGIN { srand(3); split("10 12 15 21 33 47", vs, " "); split("POLL C1 C6", cs, " ");
	print "WakeLatency,LDist,ReqCState";
	for (i = 0; i < 150; i++) printf "%d,%d,%s\n", vs[1 + int(rand() * 6)], 20 + (i * 7) % 480, cs[1 + i % 3];
}' >discrete.csv
awk 'BEGIN { srand(4); split("POLL C1 C6", cs, " ");
	print "WakeLatency,LDist,ReqCState";
	for (i = 0; i < 4000; i++) {
		w = i == 1234 ? 27.5 : i == 2345 ? 900 : 10 + 10 * rand();
		printf "%.3f,%.3f,%s\n", w, 20 + rand() * 480, cs[1 + i % 3];
	}
}' >lone.csv
"$WULTFW" report -o r-discrete discrete.csv 2>/dev/null && "$WULTFW" report -o r-lone lone.csv 2>/dev/null
expect_status 0 $? "reports of 150 discrete values and of a lone tail"
open_report discrete r-discrete 1
expect_in discrete.drawn "drawn-ok WakeLatency histogram all: 150 of 150" "the 150 discrete values all in the histogram"
open_report lone r-lone 1
expect_in lone.drawn "drawn-ok WakeLatency histogram C1: 1333 of 1333" "the lone datapoint at 27.5 us in C1's histogram"
expect_in lone.drawn "drawn-ok WakeLatency ccdf lone.csv: largest value 900 drawn" "the far one at the CCDF's end"
colours_check lone "one result of three C-states"

# A C-state of one datapoint (here a timer run may give "haltpoll idle"
# once): its CCDF is one point, which a line does not draw; a marker does.
awk 'BEGIN { srand(3); print "WakeLatency,SilentTime,LDist,ReqCState";
	for (i = 0; i < 500; i++) printf "%.3f,100.000,110.000,POLL\n", 20 + 30 * rand();
	print "39.062,100.000,110.000,haltpoll idle" }' >onestate.csv
"$WULTFW" report -o r-onestate onestate.csv 2>/dev/null
expect_status 0 $? "report of a C-state with one datapoint"
open_report onestate r-onestate 1
expect_in onestate.drawn "drawn-ok WakeLatency ccdf haltpoll idle: largest value 39.062 drawn" \
	"the one datapoint's CCDF drawn (as a marker)"

"$WULTFW" report -o r-bin out/timer/datapoints.wfb 2>/dev/null
expect_status 0 $? "report of the binary file"
open_report timer-binary r-bin 1

"$WULTFW" filter out/timer -o filtered --include 'WakeLatency < 0.5ms' 2>/dev/null &&
	"$WULTFW" report -o r-filtered filtered 2>/dev/null
expect_status 0 $? "report of a filtered result"
open_report filtered r-filtered 1

# The filtered result keeps its original's reportid: named by its path.
"$WULTFW" report -o r-both out/timer filtered -m WakeLatency 2>both.err
expect_status 0 $? "report of a result and its filtered copy"
expect_in both.err "shown as 'filtered'" "says how the copy is named"
expect_in r-both/data.js '"id": "filtered"' "the copy has its own name"
"$WULTFW" report -o r-ids --reportids a,a out/timer filtered 2>ids.err
expect_status 2 $? "--reportids with one name twice"
expect_in ids.err "'a' twice" "says which"

"$WULTFW" report -o r-wult "$srcdir/tests/data/wult-1.3" 2>/dev/null
expect_status 0 $? "report of a wult 1.3 result"
open_report wult-1.3 r-wult 2
expect_in wult-1.3.dom '<p class="descr">launch time to the CPU running again after idle</p>' "the page says what wult's WakeLatency is"
expect_in r-wult/data.js '"toolver": "1.12.65"' "wult's info.yml shown"
"$WULTFW" report -o r-lazy "$srcdir/tests/data/wult-1.3" 2>/dev/null
expect_status 0 $? "report of a wult 1.3 result, opened as a user does"
open_lazy lazy r-lazy WakeLatency

"$WULTFW" report -o r-diff --reportids wult12,wult13,timer -m WakeLatency \
	"$srcdir/tests/data/wult-1.2" "$srcdir/tests/data/wult-1.3" out/timer 2>/dev/null
expect_status 0 $? "a diff of three results"
open_report diff3 r-diff 1
expect_in diff3.dom "vs wult12" "the tables compare with the first result"
colours_check diff3 "a diff of three"
"$WULTFW" report -o r-diff2 discrete.csv lone.csv 2>/dev/null
expect_status 0 $? "a diff of two results of three C-states"
open_report diff2 r-diff2 1
colours_check diff2 "a diff of two"
expect_in diff2.drawn "drawn-ok WakeLatency ccdf lone.csv C6: largest value 900 drawn" "C6's CCDF drawn to its far datapoint"
expect_in r-diff2/data.js '"states": ["POLL", "C1", "C6"]' "the C-states by depth, once for the page"
expect_in r-diff2/data.js '"ccdf_groups": [{"name": "POLL", "ccdf": {"x": [' "a CCDF per C-state"

# 1 M datapoints: the page stays small (density + tail) and opens.
awk 'BEGIN { srand(5); split("POLL C1 C6", cs, " ");
	print "WakeLatency,SilentTime,LDist,ReqCState";
	for (i = 0; i < 1000000; i++) {
		ld = 20 + rand() * 480; u = rand();
		printf "%.3f,%.3f,%.3f,%s\n", 5 - 8 * log(1 - u), ld * 0.9, ld, cs[1 + int(rand() * 3)];
	}
}' >big.csv
t0=$(date +%s)
"$WULTFW" report -o r-big big.csv 2>/dev/null
expect_status 0 $? "report of 1 M datapoints"
echo "  (report of 1 M datapoints written in $(($(date +%s) - t0)) s, data.js $(($(stat -c %s r-big/data.js) / 1024)) KiB)"
[ "$(stat -c %s r-big/data.js)" -lt 20000000 ] && ok "its data stay under 20 MB" || fail "data.js too big"
expect_in r-big/data.js '"reduced": true' "the scatter plots were reduced"
open_report big r-big 1
expect_in big.dom "Large result" "and the page says how"

# Above the cap (WFW_REPORT_KEEP_ROWS, 1 M): plots from a seeded uniform
# sample of 250 k rows, each metric's 10 000 largest exact. 30 planted
# outliers (100000 + k us) must all be shown as themselves, in the
# scatter plots and the CCDF; weights and histogram counts still add up
# to every datapoint; the same file gives the same report.
awk 'BEGIN { srand(6); split("POLL C1 C6", cs, " ");
	print "WakeLatency,SilentTime,LDist,ReqCState";
	for (i = 0; i < 1200000; i++) {
		ld = 20 + rand() * 480; u = rand();
		w = i % 40000 == 7 ? 100000 + i / 40000 : 5 - 8 * log(1 - u);
		printf "%.3f,%.3f,%.3f,%s\n", w, ld * 0.9, ld, cs[1 + int(rand() * 3)];
	}
}' >huge.csv
"$WULTFW" report -o r-huge -m WakeLatency huge.csv 2>/dev/null
expect_status 0 $? "report of 1.2 M datapoints (sampled)"
expect_in r-huge/data.js '"rows": 1200000, "sample": 250000,' "a sample of 250 k of the 1.2 M rows kept"

# sample_check DATAJS: what a sampled report of huge.csv's first metric
# shows (the planted outliers, weights, bounds, histogram, summary).
sample_check() {
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
rep = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
m = rep["metrics"][0]
planted = set(100000 + k for k in range(30))
for axis, res in m["scatter"].items():
    ys = [y for g in res[0] for y in g["y"]]
    print(axis, "outliers shown:", len(planted & set(ys)))
    print(axis, "weights:", sum(sum(g["w"]) for g in res[0]))
    print(axis, "points <= 1000 + 3 * 30 * 30:", len(ys) <= 1000 + 3 * 30 * 30)
d = m["dist"][0]
print("ccdf outliers:", len(planted & set(d["ccdf"]["x"])))
# Each C-state's CCDF from the sample and its exact tail: from share 1 to
# the C-state's own max (its summary row).
mx = {r["group"]: r["v"][10] for r in m["summary"][0]}
gs = d.get("ccdf_groups", [])
print("group ccdfs:", len(gs), all(g["ccdf"]["p"][0] == 1 and
      abs(g["ccdf"]["x"][-1] - mx[g["name"]]) <= 1e-6 * mx[g["name"]] for g in gs))
h = d["hist"]
print("histogram:", sum(h["counts"]) + h["over"], "tail:", d["sampled"]["tail"])
# The planted outliers are far above the bins (twice p99.9's distance
# from the least value): all in the over bin, counted exactly.
print("over bin:", h["over"] >= 30 and h["over_exact"] and h["hi"] < 100000 <= h["max"])
print("summary:", json.dumps(m["summary"]))
print("whole histogram:", d["hist"]["counts"])
PY
}

# expect_sampled CHECKFILE WHAT: sample_check's lines as they must be.
expect_sampled() {
	expect_in "$1" "LDist outliers shown: 30" "$2: every outlier in the scatter plot"
	expect_in "$1" "LDist weights: 1200000" "$2: weights add up"
	expect_in "$1" "LDist points <= 1000 + 3 * 30 * 30: True" "$2: points bounded"
	expect_in "$1" "ccdf outliers: 30" "$2: every outlier in the CCDF"
	expect_in "$1" "histogram: 1200000 tail: 10000" "$2: the histogram (with its over bin) counts every datapoint"
	expect_in "$1" "over bin: True" "$2: the outliers in the exact over bin, above the bins"
	expect_in "$1" "group ccdfs: 3 True" "$2: a CCDF per C-state, each to its max"
}

sample_check r-huge/data.js >huge.check
expect_sampled huge.check "CSV"
"$WULTFW" report -o r-huge2 -m WakeLatency huge.csv 2>/dev/null
cmp -s r-huge/data.js r-huge2/data.js && ok "the same file, the same sample" || fail "two reports of one file differ"
open_report huge r-huge 1
expect_in huge.dom "the density is drawn from a uniform sample of 250000 of 1200000" "the page says what is sampled"
over=$(python3 -c 'import json, sys; s = open(sys.argv[1]).read()
print(json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))["metrics"][0]["dist"][0]["hist"]["over"])' r-huge/data.js)
expect_in huge.dom "over: $over datapoints above " "the histogram labels its over bin with the count and range"
expect_in huge.dom "counted in the over bin on its right" "and the page says how the bins were chosen"

# Its binary twin: read column by column, rows counted when opened, the
# sample chosen as rows pass (the same rows with -j 1 and -j 2). The same
# checks, the summary tables equal to the CSV's.
"$WULTFW" convert huge.csv -o huge.wfb 2>/dev/null &&
	"$WULTFW" report -j 1 -o r-hugeb1 -m WakeLatency huge.wfb 2>/dev/null &&
	"$WULTFW" report -j 2 -o r-hugeb2 -m WakeLatency huge.wfb 2>/dev/null &&
	"$WULTFW" report -j 2 -o r-hugeb3 -m WakeLatency huge.wfb 2>/dev/null
expect_status 0 $? "reports of the binary twin with -j 1 and -j 2"
expect_in r-hugeb1/data.js '"rows": 1200000, "sample": 250000,' "binary: a sample of 250 k of the 1.2 M rows"
for r in r-hugeb1 r-hugeb2; do
	sample_check $r/data.js >$r.check
	expect_sampled $r.check "$r"
done
grep '^summary' huge.check >huge.summary
grep '^summary' r-hugeb1.check | cmp -s - huge.summary &&
	ok "binary: the CSV's summary tables" || fail "binary and CSV summary tables differ"
cmp -s r-hugeb1.check r-hugeb2.check && ok "binary: -j 2 gives -j 1's tables and histogram" ||
	fail "binary: -j 1 and -j 2 differ"
cmp -s r-hugeb2/data.js r-hugeb3/data.js && ok "binary: the same file, the same report" || fail "binary: two reports of one file differ"
open_report huge-binary r-hugeb2 1

# Under the cap, read by two threads whose parts are uneven (the first
# holds 650 k short rows, over its share): the same data.js as one reader,
# every row kept (the part that sampled is read again by one reader).
awk 'BEGIN { srand(7); split("POLL C1 C6", cs, " ");
	print "WakeLatency,SilentTime,LDist,ReqCState";
	for (i = 0; i < 1000000; i++) {
		ld = 20 + rand() * 480; u = rand();
		f = i < 650000 ? "%.3f,%.1f,%.1f,%s\n" : "%.6f,%.6f,%.6f,%s\n";
		printf f, 5 - 8 * log(1 - u), ld * 0.9, ld, cs[1 + int(rand() * 3)];
	}
}' >uneven.csv
"$WULTFW" report -j 1 -o r-un1 uneven.csv 2>/dev/null &&
	"$WULTFW" report -j 2 -o r-un2 uneven.csv 2>/dev/null
expect_status 0 $? "reports of 1 M rows with -j 1 and -j 2"
cmp -s r-un1/data.js r-un2/data.js && ok "-j 2 gives what -j 1 does" || fail "-j 1 and -j 2 differ under the cap"
if grep -q '"sample"' r-un2/data.js; then fail "1 M rows sampled"; else ok "every row kept"; fi

# wult's --xaxes/--yaxes: x axes in the order given, scatter plots only
# for the --yaxes metrics.
"$WULTFW" report -o r-axes --xaxes 'SilentTime,LDist' --yaxes WakeLatency out/timer 2>/dev/null
expect_status 0 $? "--xaxes and --yaxes"
expect_in r-axes/data.js '"axis_units": {"SilentTime": "us", "LDist": "us"}' "x axes in the order given"
open_report axes r-axes 1
"$WULTFW" report -o r-axes2 --xaxes LDsit out/timer >bad.err 2>&1
expect_status 1 $? "an unknown --xaxes column fails"
expect_in bad.err "--xaxes: no metric 'LDsit'" "naming the option"

# Any metric against any metric (wult's meaning of --xaxes/--yaxes), and
# --hist/--chist: which metrics get a histogram and a CCDF (named ones get
# a tab; none: no such plot).
"$WULTFW" report -o r-xy --xaxes WakeLatency --yaxes LDist lone.csv 2>/dev/null
expect_status 0 $? "--xaxes WakeLatency --yaxes LDist"
open_report xy r-xy 2
expect_in xy.drawn "drawn-ok LDist scatter-WakeLatency: 4000 of 4000" "LDist against WakeLatency drawn"
plots_of() {
	python3 -c 'import json, sys; s = open(sys.argv[1]).read()
for m in json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))["metrics"]:
    print(m["name"], "hist" if m["hist"] else "-", "ccdf" if m["ccdf"] else "-")' "$1"
}
"$WULTFW" report -o r-hist --hist 'Wake*' --chist LDist lone.csv 2>/dev/null
expect_status 0 $? "--hist 'Wake*' --chist LDist"
plots_of r-hist/data.js >hist.plots
expect_in hist.plots "WakeLatency hist -" "WakeLatency: a histogram, no CCDF"
expect_in hist.plots "LDist - ccdf" "LDist: a tab with a CCDF only"
open_report hist r-hist 2
if grep -q -e 'WakeLatency ccdf' -e 'LDist histogram' hist.drawn; then fail "a plot --hist/--chist left out is drawn"; else ok "only the chosen plots drawn"; fi
"$WULTFW" report -o r-hnone --hist none --chist none lone.csv 2>/dev/null
expect_status 0 $? "--hist none --chist none"
plots_of r-hnone/data.js >hnone.plots
expect_in hnone.plots "WakeLatency - -" "no histogram, no CCDF"
open_report hnone r-hnone 1
"$WULTFW" report -o r-hbad --chist WakeLatncy lone.csv >bad.err 2>&1
expect_status 1 $? "a misspelt --chist metric fails"
expect_in bad.err "--chist: no metric 'WakeLatncy' in lone.csv (did you mean 'WakeLatency'?)" "naming the option, with a did-you-mean"

# hrt (eBPF) where it runs, and a timer result as without cpuidle (no
# ReqCState column: tables without a per-state breakdown).
# hrt needs an idle CPU: on a busy machine its datapoints come slowly, so
# the run is bounded by time and the page made of what it got (one
# datapoint draws every plot). None at all (exit 4, status 'empty') skips
# the page when hrt's own counters say the CPU was too busy (hrt_busy).
sed 's/"timer"; cpu/"hrt"; cpu/; s/name = "timer"/name = "hrt"/; s/datapoints = 3000; time = "5m"; }/datapoints = 1000; time = "30s"; }/' timer.cfg >hrt.cfg
# Not beside tests/hrt/hrt-test.sh or test_wult_compat (make -j2 check).
exec 9>/tmp/wultfw-hrt-tests.lock
flock -w 600 9 || fail "/tmp/wultfw-hrt-tests.lock held for 10 minutes"
if "$WULTFW" -c hrt.cfg --check >hrt.check 2>&1; then
	"$WULTFW" -q -c hrt.cfg 2>hrt.err
	st=$?
	if [ $st = 4 ] && why=$(hrt_busy out/hrt); then
		skip_part "the hrt page: $why"
	else
		expect_status 0 $st "an hrt measurement"
		[ $st = 0 ] || sed 's/^/    /' hrt.err
		n=$(sed -n 's/^datapoints: //p' out/hrt/info.yml)
		"$WULTFW" report -o r-hrt out/hrt 2>/dev/null
		expect_status 0 $? "report of an hrt result ($n datapoints)"
		open_report hrt r-hrt 2
	fi
else
	skip_part "the hrt page: $(grep -m1 warning hrt.check)"
fi
exec 9>&-
sed 's/name = "timer"/name = "nocpuidle"/' timer.cfg >nc.cfg
WULTFW_HIDE_CPUIDLE=1 "$WULTFW" -q -c nc.cfg && "$WULTFW" report -o r-nc out/nocpuidle 2>/dev/null
expect_status 0 $? "report of a result without cpuidle states"
open_report nocpuidle r-nc 1

# A skid result (issue 15): Skid by default, grouped by precise level, a
# histogram per level where the run has several. cpu-clock, a software
# event, counts wherever perf events can be opened at all (a breakpoint may
# open and never fire, a hardware event needs a PMU); where they cannot,
# --check says why and this part is skipped with its words.
cat >skid.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "skid";
    source = { plugin = "skid"; event = "cpu-clock"; precise = "all";
               buffer_size = 4096; runway = 100; samples = 400; };
    limits = { time = "60s"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
if "$WULTFW" -c skid.cfg --check >skid.check 2>&1; then
	"$WULTFW" -q -c skid.cfg >skid.out 2>&1
	expect_status 0 $? "a skid run (cpu-clock)"
	"$WULTFW" report -o r-skid out/skid 2>/dev/null
	expect_status 0 $? "report of a skid result"
	expect_in r-skid/data.js '"group_by": "Precise"' "grouped by precise level"
	levels=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "Precise") c = i; next }
		{ print $c }' out/skid/datapoints.csv | sort -u | wc -l)
	if [ "$levels" -gt 1 ]; then
		expect_in r-skid/data.js '"groups": [{"name": "p0", "counts": [' "a histogram per precise level ($levels)"
	else
		ok "one precise level here (the event has no others): one histogram"
	fi
	open_report skid r-skid 1
	expect_in skid.dom "<th>Precise</th>" "the tables are per precise level"
	expect_in skid.dom "Where the samples landed, per precise level" "the skid view: classes per level"
	expect_in skid.drawn "drawn-ok Skid skid-skid p0: " "the skid histogram along the runway draws every sample with a Skid"
else
	skip_part "the skid page: $(grep -m1 -e error -e warning skid.check)"
fi

# Collectors (issue 16): their counters over time under the main metric,
# on one time axis (LTime: raw = true); without LTime the page says why.
cat >col.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "col";
    source = { plugin = "timer"; cpu = 1; ldist = [ "100us", "1ms" ]; raw = true; };
    limits = { datapoints = 1000; time = "5m"; };
    sinks = ( { plugin = "csv"; } );
    collect = ( { plugin = "telemetry"; period = "20ms";
                  counters = [ "stat:ctxt", "stat:cpu1:idle" ]; } );
  }
);
CFG
"$WULTFW" -q -c col.cfg
expect_status 0 $? "a timer run with a collector"
"$WULTFW" report -o r-col out/col 2>/dev/null
expect_status 0 $? "report of a result with a collector"
expect_in r-col/data.js '"timelines": [{"metric": "WakeLatency", "notes": "", "main": {"x": [' "the main metric on the time axis"
expect_in r-col/data.js '"name": "stat:ctxt"' "the counters over time"
open_report timeline r-col 2
sed 's/"timer"; cpu = 1; ldist = \[ "100us", "1ms" \]; raw = true;/"timer"; cpu = 1; ldist = [ "100us", "1ms" ];/; s/name = "col"/name = "col2"/' col.cfg >col2.cfg
"$WULTFW" -q -c col2.cfg && "$WULTFW" report -o r-col3 out/col2 2>/dev/null
expect_status 0 $? "report of a collector result of a timer run without raw"
expect_in r-col3/data.js '"timelines": [{"metric": "WakeLatency", "notes": "", "main": {"x": [' \
	"the main metric on the time axis without raw too (LTime is in every row)"

samplers_pages
# Options and errors.
"$WULTFW" report --list-metrics "$srcdir/tests/data/wult-1.3" >lm.out 2>&1
expect_in lm.out "IntrLatency      us   numbers, reported by default" "--list-metrics"
"$WULTFW" report -o r-x -m WakeLatncy out/timer >bad.err 2>&1
expect_status 1 $? "an unknown metric fails"
expect_in bad.err "(did you mean 'WakeLatency'?)" "with a did-you-mean"
"$WULTFW" report -o r-timer out/timer >bad.err 2>&1
expect_status 1 $? "an existing report is not overwritten"
"$WULTFW" report -o r-timer --force out/timer 2>/dev/null
expect_status 0 $? "--force replaces it"
echo x >afile
"$WULTFW" report -o afile out/timer >bad.err 2>&1
expect_status 1 $? "a file as -o DIR: refused"
expect_in bad.err "which --force would not write into either" "without a hint of --force"
finish
