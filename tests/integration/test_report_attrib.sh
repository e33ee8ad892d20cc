#!/bin/sh
# The report's explanation section (issue 30, doc/attribution.md), on a
# synthetic result made here, so it runs on any machine: 10000 datapoints
# with the attribution columns and known causes (a thread with a hostile
# name as the max, NET_RX softirqs, IRQ 24, NMIs, a kworker), 3 without a
# breakdown, a telemetry.csv-like collector whose IRQ counter jumps at the
# IRQ datapoints. Checked: data.js's bands, words and top datapoints
# against what was made; the page in headless Chromium draws the section
# (the bars' segments, the bands' and the top table's rows counted against
# what was given), the hostile name as text only, the timeline's marks;
# per requested C-state (a card each, in the summary's order and colour:
# its rows, bands and p99.9 tail counted against the CSV, its segments
# drawn); a count around a datapoint shown as its change, equal to the
# difference of telemetry.csv's samples, a level as its values;
# the same explanation from CSV and binary, one thread or two; nothing of
# it without the columns; the timeline's one line when LTime is missing.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets"
export PYTHONIOENCODING=utf-8
chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	echo "SKIP: no chromium (Debian package chromium) to open the reports in"
	exit 77
fi
shots="$top/tests/integration/test_report_attrib-shots"
rm -rf "$shots" && mkdir -p "$shots"
cd "$work" || exit 1

# make_attrib DIR: the result. Rows 1000 ms apart from LTime 1000 s;
# the bulk 10-30 us of idle exit (every 10th with a 1.5 us IRQ); row 500
# a thread (pid 4242) of 900 us; rows 1000..4000 NET_RX of 600..603 us;
# rows 1500..7500 IRQ 24 of 400 us each (its IRQTime 370..400); every
# 1000th from 333 an NMI of 150 us, from 777 kworker/1:2 of 200 us;
# rows 9001..9003 without a breakdown.
make_attrib() {
	mkdir -p "$1"
	awk 'BEGIN {
	print "LTime,WakeLatency,LDist,SilentTime,ReqCState,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,IRQCnt,SWIRQCnt,NMICnt,Cause,CausePID";
	split("POLL C1 C6", cs, " ");
	for (i = 0; i < 10000; i++) {
		irq = 0; sirq = 0; nmi = 0; thr = 0; ic = 0; sc = 0; nc = 0; pid = "";
		ex = 10 + (i * 37 % 200) / 10; cause = "idle-exit";
		if (i % 10 == 3) { irq = 1.5; ic = 1 }
		if (i == 500) { thr = 880; ex = 20; cause = "thread"; pid = 4242 }
		else if (i % 1000 == 0 && i >= 1000 && i <= 4000) { sirq = 579 + i / 1000; ex = 20; sc = 1; cause = "softirq:NET_RX" }
		else if (i % 1000 == 500 && i >= 1500 && i <= 7500) { k = (i - 1500) / 1000; irq = 370 + 5 * k; ex = 30 - 5 * k; ic = 1; cause = "irq:24 virtio1-input.0" }
		else if (i % 1000 == 333) { nmi = 120; ex = 30; nc = 1; cause = "nmi" }
		else if (i % 1000 == 777) { thr = 170; ex = 30; cause = "thread"; pid = 88 }
		if (i >= 9001 && i <= 9003) {
			printf "%.0f,50.000,100.000,90.000,%s,,,,,,,,,,\n", 1e12 + i * 1e6, cs[1 + i % 3];
			continue;
		}
		printf "%.0f,%.3f,100.000,90.000,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%s,%s\n",
			1e12 + i * 1e6, irq + sirq + nmi + thr + ex, cs[1 + i % 3],
			irq, sirq, nmi, thr, ex, ic, sc, nc, cause, pid;
	} }' >"$1/datapoints.csv"
	# a sample every 20 ms; IRQ 24 up by 50 in the samples around its rows;
	# a gauge (kHz) that is no count
	awk 'BEGIN { print "Time,SampleWindow,interrupts:24:cpu1,softirqs:NET_RX:cpu1,cpufreq:cpu1:cur_freq";
		v = 1000; s = 7;
		for (k = 0; k < 501; k++) {
			t = 1e12 - 1e7 + k * 2e7;
			printf "%.0f,40000,%d,%d,%d\n", t, v, s, 2000000 + (k % 3) * 100000;
			v += 1; s += 2;
			for (i = (t - 1e12) / 1e6; i < (t + 2e7 - 1e12) / 1e6; i++)
				if (i % 1000 == 500 && i >= 1500 && i <= 7500) v += 49;
		} }' >"$1/telemetry.csv"
	printf 'PID,Comm\n88,kworker/1:2\n4242,"<img src=x onerror=""document.title=1"">,x"\n' >"$1/attrib-threads.csv"
	cat >"$1/info.yml" <<'YML'
toolname: 'wult'
reportid: 'attr'
source: 'timer'
datapoints: 10000
attrib: 'on'
attrib_latency: 'WakeLatency'
attrib_start: 'LTime'
attrib_smi: 'no MSR_SMI_COUNT on this CPU'
collectors: 'telemetry.csv'
collect0_file: 'telemetry.csv'
collect0_telemetry_kinds: 'total total level'
YML
}

# report NAME ARGS...: wultfw report -o NAME ARGS, bounded; stderr in NAME.err.
report() {
	_out=$1
	shift
	timeout 120 "$WULTFW" report -o "$_out" "$@" 2>"$_out.err"
}

# page_open (its open_report is replaced below)
. "$srcdir/tests/integration/report_open.sh"

# open NAME DIR TABS [#TAB]: DIR/index.html (opened on TAB) draws every one
# of its TABS tabs (#all), no error.
open_report() {
	page_open "$1" "file://$PWD/$2/index.html${4:-#}${4:+&}all" 1400,2600 "$shots/$1.png"
	status=$(sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"[^>]*>\([^<]*\).*/\1: \2/p' "$1.dom")
	case "$status" in
	"ok: ok: $3 tabs"*) ok "$1: $status ($(grep -o 'data-drawn-ms="[0-9]*"' "$1.dom"))" ;;
	*) fail "$1: the page says '${status:-nothing (did it load?)}'"
	   sed 's/^/    /' "$1.chromium.log" | grep -v -e dbus -e 'GL Driver' | head -5 ;;
	esac
}

# explain DATAJS [METRIC]: the explanation of data.js's first result, as JSON.
explain() {
	python3 - "$1" "${2:-WakeLatency}" <<'PY'
import json, sys
s = open(sys.argv[1], encoding="utf-8").read()
rep = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
m = [m for m in rep["metrics"] if m["name"] == sys.argv[2]][0]
print(json.dumps(m["explain"][0], sort_keys=True))
PY
}

make_attrib attr
report r-attr attr
expect_status 0 $? "report of a result with attribution"
expect_in r-attr.err "3 of 10000 datapoints have no breakdown (events lost)" "says how many rows have no breakdown"

# What data.js holds, against what was made.
python3 - r-attr/data.js >attr.check <<'PY'
import json, sys
s = open(sys.argv[1], encoding="utf-8").read()
rep = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
x = rep["metrics"][0]["explain"][0]
for line in x["text"]:
    print("text:", line)
b = x["bands"]
print("bands:", [k["name"] for k in b], [k["rows"] for k in b])
print("explained:", x["explained"], "of", x["values"])
print("tail band:", b[4]["rows"], [round(float(v), 3) for v in b[4]["mean"]])
print("max band:", b[5]["mean"])
t = x["top"]
print("top:", t["n"], [r["row"] for r in t["rows"]][:13])
r = [r for r in t["rows"] if r["row"] == 1500][0]
print("row 1500:", r["cause"], r["cstate"], r["parts"], r["cnt"][:3], r["around"][0][:2])
print("row 500:", t["rows"][0]["pid"], t["rows"][0]["comm"])
print("counters:", [c["name"] for c in t["counters"]], [c["kind"] for c in t["counters"]])
print("marks:", len(rep["timelines"][0]["marks"]), rep["timelines"][0]["marks"][0])
PY
expect_in attr.check "text: WakeLatency p99.9 (400.0 us) and above: 12 of 10000 datapoints, 400.0 to 900.0 us" "the words: the tail's 12 datapoints"
expect_in attr.check "text:   IRQ        44%  dominant in 7: irq:24 virtio1-input.0 in 7 (median 385.0 us)" "the words: IRQ 24's share and median"
expect_in attr.check "text:   softirq    38%  dominant in 4: softirq:NET_RX in 4 (median 581.5 us)" "the words: NET_RX"
expect_in attr.check 'text:   thread     14%  dominant in 1: <img src=x onerror="document.title=1">,x (pid 4242) in 1' "the words: the thread by its name"
expect_in attr.check "text:   idle exit   3%" "the words: the idle exit"
expect_in attr.check 'text: max: 900.0 us, row 501, ReqCState C6: thread 880.0 us, idle exit 20.00 us; dominant <img' "the words: the max (numbered from 1, as calc)"
expect_in attr.check "text:   counted in them: IRQs 7, softirqs 4, NMIs 0, SMIs not available (no MSR_SMI_COUNT on this CPU)" "the words: the tail's counts, and why no SMIs (info.yml)"
expect_in attr.check "bands: ['< p50', 'p50–p90', 'p90–p99', 'p99–p99.9', '≥ p99.9', 'max'] [5036, 3979, 900, 70, 12, 1]" "six bands, every explained row in one"
expect_in attr.check "explained: 9997 of 10000" "rows without a breakdown counted apart"
expect_in attr.check "tail band: 12 [224.583, 193.833, 73.333, 0.0, 17.083]" "the p99.9 band: exactly the words' rows"
expect_in attr.check "max band: [0, 0, 880, 0, 20]" "the max's band"
expect_in attr.check "top: 20 [500, 4000, 3000, 2000, 1000, 1500, 2500, 3500, 4500, 5500, 6500, 7500, 777]" "the 20 largest, ties in row order"
expect_in attr.check "row 1500: irq:24 virtio1-input.0 POLL [370, 0, 0, 0, 30] [1, 0, 0] [1075, 1125]" "a datapoint's breakdown, C-state, counts and the counter around it"
expect_in attr.check "row 500: 4242 <img" "a thread's pid and name"
expect_in attr.check "counters: ['interrupts:24:cpu1', 'softirqs:NET_RX:cpu1', 'cpufreq:cpu1:cur_freq'] ['total', 'total', 'level']" "the collector's counters and their kinds (info.yml's)"
expect_in attr.check "marks: 20 {'rank': 1, 't': 0.51, 'lat': 900}" "the timeline marks the 20"

# The page: the section drawn, counted against data.js.
open_report attr r-attr 2
python3 - attr.dom r-attr/data.js >attr.drawn <<'PY'
import json, sys
from html.parser import HTMLParser

VOID = ("img", "input", "meta", "link", "br", "hr")

class Count(HTMLParser):
    """What is drawn: elements counted by their ancestors' data-kind and class."""
    def __init__(s):
        super().__init__()
        s.stack, s.c = [], {}
    def add(s, what):
        s.c[what] = s.c.get(what, 0) + 1
    def handle_starttag(s, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        kinds = [k for _, _, k in s.stack if k]
        above = [c for _, cl, _ in s.stack for c in cl]
        if tag == "tr" and "xp-band" in cls:
            s.add("xp-band")
        if tag == "tr" and "xp-row" in cls:
            s.add("xp-row")
        if tag == "section" and "explain" in cls:
            s.add("sections")
        if tag == "img":
            s.add("img")
        # a bar's segment: a trace's fill (the legend's are in legendfill)
        if tag == "path" and "attrib-bars" in kinds and "js-fill" in cls and "fills" in above and a.get("d"):
            s.add("segments")
        if tag not in VOID:
            s.stack.append((tag, cls, a.get("data-kind")))
    def handle_endtag(s, tag):
        while s.stack and s.stack.pop()[0] != tag:
            pass

p = Count()
dom = open(sys.argv[1], encoding="utf-8").read()
p.feed(dom)
d = open(sys.argv[2], encoding="utf-8").read()
x = json.loads(d[d.index("=") + 1:].rstrip().rstrip(";"))["metrics"][0]["explain"][0]
given = sum(1 for b in x["bands"] if b["rows"] for v in b["mean"] if v and v > 0)
print("sections:", p.c.get("sections"))
print("segments:", p.c.get("segments"), "given:", given)
print("band rows:", p.c.get("xp-band"), "given:", len(x["bands"]))
print("top rows:", p.c.get("xp-row"), "given:", x["top"]["n"])
print("img elements:", p.c.get("img", 0))
print("hostile as text:", '&lt;img src=x onerror="document.title=1"&gt;,x (pid 4242)' in dom)
print("title:", dom.split("<title>")[1].split("<")[0])
print("counter cell:", "+50 in 20 ms (2500/s)" in dom)
print("words shown:", "dominant in 7: irq:24 virtio1-input.0 in 7" in dom)
PY
expect_in attr.drawn "sections: 1" "one explanation section"
expect_in attr.drawn "segments: 16 given: 16" "the bars: every segment given drawn"
expect_in attr.drawn "band rows: 6 given: 6" "the bands' table: a row per band"
expect_in attr.drawn "top rows: 20 given: 20" "the top table: a row per datapoint given"
expect_in attr.drawn "img elements: 0" "the hostile thread name made no element"
expect_in attr.drawn "hostile as text: True" "it is shown as text"
expect_in attr.drawn "title: wultfw report" "and ran no script"
expect_in attr.drawn "counter cell: True" "the collector's counter around a datapoint"
expect_in attr.drawn "words shown: True" "the words on the page"

# Per requested C-state: each C-state's rows, bands and tail (at its own
# p99.9, computed here from the CSV) in data.js, in the summary's order.
python3 - attr/datapoints.csv r-attr/data.js >cstate.check <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
d = open(sys.argv[2], encoding="utf-8").read()
m = json.loads(d[d.index("=") + 1:].rstrip().rstrip(";"))["metrics"][0]
x = m["explain"][0]
print("order:", [g["name"] for g in x["groups"]], [r["group"] for r in m["summary"][0]][1:])
for g in x["groups"]:
    lat = sorted(float(r["WakeLatency"]) for r in rows if r["ReqCState"] == g["name"])
    n = len(lat)
    rank = (n - 1) * 0.999
    p = lat[int(rank)] + (rank - int(rank)) * (lat[min(int(rank) + 1, n - 1)] - lat[int(rank)])
    tail = sum(1 for v in lat if v >= p)
    expl = sum(1 for r in rows if r["ReqCState"] == g["name"] and r["ExitTime"] != "")
    print("%s: rows %s of %d, explained %s of %d, banded %d, tail %d of %d, max %s of %s" % (
        g["name"], g["values"], n, g["explained"], expl, sum(b["rows"] for b in g["bands"][:5]),
        g["bands"][4]["rows"], tail, g["bands"][5]["hi"], lat[-1]))
    print(g["name"], "words:", g["text"][0])
PY
for st in POLL:3334:3333 C1:3333:3332 C6:3333:3332; do
	name=${st%%:*} n=${st#*:} e=${st##*:}
	n=${n%%:*}
	expect_in cstate.check "$name: rows $n of $n, explained $e of $e, banded $e, tail 4 of 4," "$name: its rows, those with a breakdown, all in a band, its p99.9 tail as counted here"
done
expect_in cstate.check "order: ['POLL', 'C1', 'C6'] ['POLL', 'C1', 'C6']" "C-states in the summary table's order"
expect_in cstate.check "C6: rows 3333 of 3333, explained 3332 of 3332, banded 3332, tail 4 of 4, max 900 of 900.0" "C6's max band is its largest row"
expect_in cstate.check "C6 words: WakeLatency p99.9 (333.6 us) and above in ReqCState C6: 4 of 3333 datapoints, 400.0 to 900.0 us" "C6's words name it"
expect_in cstate.check "POLL words: WakeLatency p99.9 (333.4 us) and above in ReqCState POLL: 4 of 3334 datapoints, 400.0 to 602.0 us" "POLL's words"

# ... and on the page: a card per C-state with its count, its own bars
# (every segment given drawn), its six bands, its colour; the counters
# around a datapoint: a count as its change, equal to the difference of
# the two samples in telemetry.csv around the datapoint's LTime.
python3 - attr.dom r-attr/data.js attr/telemetry.csv >cstate.drawn <<'PY'
import csv, json, sys
from html.parser import HTMLParser

VOID = ("img", "input", "meta", "link", "br", "hr")

class Cards(HTMLParser):
    """The C-states' cards and the top table's cells, as drawn."""
    def __init__(s):
        super().__init__()
        s.stack, s.cards, s.rows = [], [], []
        s.head = s.row = s.cell = None
    def handle_starttag(s, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        kinds = [k for _, _, k in s.stack if k]
        above = [c for _, cl, _ in s.stack for c in cl]
        if tag == "div" and "xp-cstate" in cls:
            s.cards.append({"name": a.get("data-cstate"), "style": a.get("style"),
                            "segs": 0, "bands": 0, "head": ""})
        card = s.cards[-1] if s.cards and "xp-cstate" in above else None
        if card and tag == "path" and "attrib-bars-cstate" in kinds and "js-fill" in cls \
                and "fills" in above and a.get("d"):
            card["segs"] += 1
        if card and tag == "tr" and "xp-cstate-band" in cls:
            card["bands"] += 1
        if card and tag == "h5":
            s.head = card
        if tag == "tr" and "xp-row" in cls:
            s.row = []
            s.rows.append(s.row)
        if tag == "td" and s.row is not None:
            s.cell = [a, ""]
            s.row.append(s.cell)
        if tag not in VOID:
            s.stack.append((tag, cls, a.get("data-kind")))
    def handle_data(s, data):
        if s.head is not None:
            s.head["head"] += data
        if s.cell is not None:
            s.cell[1] += data
    def handle_endtag(s, tag):
        if tag == "h5":
            s.head = None
        if tag == "td":
            s.cell = None
        if tag == "tr":
            s.row = None
        while s.stack and s.stack.pop()[0] != tag:
            pass

p = Cards()
p.feed(open(sys.argv[1], encoding="utf-8").read())
d = open(sys.argv[2], encoding="utf-8").read()
x = json.loads(d[d.index("=") + 1:].rstrip().rstrip(";"))["metrics"][0]["explain"][0]
print("cards:", [c["name"] for c in p.cards], "given:", [g["name"] for g in x["groups"]])
for c, g in zip(p.cards, x["groups"]):
    given = sum(1 for b in g["bands"] if b["rows"] for v in b["mean"] if v and v > 0)
    print("%s: segments %d given %d, band rows %d, says %s, has %d" % (
        c["name"], c["segs"], given, c["bands"], c["head"].split(": ")[1].split()[0], g["values"]))
print("colours:", len(set(c["style"] for c in p.cards)), "distinct of", len(p.cards))
# the counters around row 1500, against telemetry.csv
counters = x["top"]["counters"]
row = [r for r in p.rows if r[1][1] == "1501"][0]  # the page numbers rows from 1, as calc
lt = [r for r in x["top"]["rows"] if r["row"] == 1500][0]["ltime"]
tel = list(csv.DictReader(open(sys.argv[3], encoding="utf-8")))
before = [r for r in tel if float(r["Time"]) <= lt][-1]
after = [r for r in tel if float(r["Time"]) > lt][0]
for (a, text), c in zip(row[-len(counters):], counters):
    n = c["name"]
    if c["kind"] == "total":
        print("%s: shown %s (%s), file %d, interval %.0f ms" % (n, a.get("data-delta"), text,
              int(after[n]) - int(before[n]), (float(after["Time"]) - float(before["Time"])) / 1e6))
    else:
        print("%s: %s %s, file %s -> %s, delta %s" % (n, c["kind"], text, before[n], after[n], a.get("data-delta")))
PY
expect_in cstate.drawn "cards: ['POLL', 'C1', 'C6'] given: ['POLL', 'C1', 'C6']" "a card per C-state, in order"
for st in POLL:3334 C1:3333 C6:3333; do
	line=$(grep "^${st%%:*}: segments" cstate.drawn)
	echo "$line" | awk -v n="${st#*:}" '{ exit !($3 == $5 + 0 && $3 > 0 && $8 == "6," && $10 + 0 == n && $12 == n) }' &&
		ok "${st%%:*}: every segment given drawn ($(echo "$line" | cut -d' ' -f3)), six bands, ${st#*:} datapoints said" ||
		fail "${st%%:*}: ${line:-no card}"
done
expect_in cstate.drawn "colours: 3 distinct of 3" "each C-state its own colour"
expect_in cstate.drawn "interrupts:24:cpu1: shown 50 (+50 in 20 ms (2500/s)), file 50, interval 20 ms" "a count shown as its change around LTime, as the file has it"
expect_in cstate.drawn "softirqs:NET_RX:cpu1: shown 2 (+2 in 20 ms (100/s)), file 2, interval 20 ms" "another count, its change"
expect_in cstate.drawn "cpufreq:cpu1:cur_freq: level 2000000 → 2100000, file 2000000 -> 2100000, delta None" "a level shown as its values"

open_report attr-timeline r-attr 2 '#Timeline'
python3 - attr-timeline.dom >attr-timeline.drawn <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
tl = dom[dom.index('data-kind="timeline"'):]
print("marks drawn:", len(re.findall(r'<path data-index="\d+"[^>]*stroke-dasharray', tl)))
PY
expect_in attr-timeline.drawn "marks drawn: 20" "the timeline: a dotted line per datapoint of the explanation"

# --explain-top: 5, none, out of range.
report r-top5 --explain-top 5 attr
expect_status 0 $? "--explain-top 5"
explain r-top5/data.js >top5.json
expect_in top5.json '"asked": 5, "counters"' "five asked"
expect_in top5.json '"n": 5,' "five listed"
report r-top0 --explain-top 0 attr
expect_status 0 $? "--explain-top 0"
open_report top0 r-top0 2
if grep -q 'class="xp-top"' top0.dom; then fail "--explain-top 0 still lists datapoints"; else ok "--explain-top 0: no table"; fi
report r-top1001 --explain-top 1001 attr
expect_status 2 $? "--explain-top 1001 refused"

# The same explanation from the binary twin, one thread or two, and from
# the CSV in two parts (no collectors: they read with one thread).
mkdir attrb attrc
timeout 120 "$WULTFW" convert attr/datapoints.csv -o attrb/datapoints.wfb 2>/dev/null
expect_status 0 $? "the binary twin"
for d in attrb attrc; do
	grep -v collectors attr/info.yml >$d/info.yml
	cp attr/attrib-threads.csv $d/
done
cp attr/datapoints.csv attrc/
report r-c1 -j 1 attrc && report r-b1 -j 1 attrb && report r-b2 -j 2 attrb && report r-c2 -j 2 attrc
expect_status 0 $? "reports of the CSV and binary twins with -j 1 and -j 2"
for r in r-c1 r-b1 r-b2 r-c2; do
	explain $r/data.js >$r.json
done
cmp -s r-c1.json r-b1.json && ok "binary: the CSV's explanation" || fail "binary and CSV explanations differ"
cmp -s r-b1.json r-b2.json && ok "binary -j 2: -j 1's explanation" || fail "binary -j 1 and -j 2 explanations differ"
cmp -s r-c1.json r-c2.json && ok "CSV -j 2: -j 1's explanation" || fail "CSV -j 1 and -j 2 explanations differ"

# Without attrib_latency: one warning, no section; without the thread
# names: by pid; a bad names file: its line; parts that do not add up.
mkdir nolat nonames badnames
for d in nolat nonames badnames; do cp attr/datapoints.csv attr/telemetry.csv $d/; done
grep -v attrib_latency attr/info.yml >nolat/info.yml
cp attr/info.yml nonames/ && cp attr/info.yml badnames/
printf 'PID,Comm\n88,kworker\nx,y\n' >badnames/attrib-threads.csv
sed -i '2s/,10\.000,0,0,0,idle-exit,/,10.500,0,0,0,idle-exit,/' nonames/datapoints.csv
report r-nolat nolat
expect_status 0 $? "a result with the columns, no attrib_latency"
expect_in r-nolat.err "has attribution columns but its info.yml names no attrib_latency: no explanation section" "says why there is no section"
explain r-nolat/data.js >nolat.json
expect_in nolat.json "null" "and there is none"
report r-nonames nonames
explain r-nonames/data.js >nonames.json
expect_in nonames.json "dominant in 1: pid 4242 (not in attrib-threads.csv) in 1" "no names file: the thread by its pid"
expect_in nonames.json "no attrib-threads.csv beside the datapoints" "and the page says why"
expect_in r-nonames.err "1 datapoint whose parts do not add up to WakeLatency" "a row whose parts do not add up is said"
report r-badnames badnames
expect_in r-badnames.err "badnames/attrib-threads.csv:3: a pid that is no whole number" "a bad names file: its line"

# Causes of 100 KB each (a hostile file): the page stays small, each name
# cut to its first 200 bytes in the words and the table.
mkdir bignames
awk 'BEGIN { x = "x"; while (length(x) < 100000) x = x x;
	print "WakeLatency,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,Cause,CausePID";
	for (i = 0; i < 60; i++)
		printf "%d.000,%d.000,0,0,0,10.000,irq:%d %s,\n", 10 + i, i, i, x }' >bignames/datapoints.csv
printf "attrib_latency: 'WakeLatency'\n" >bignames/info.yml
report r-bignames bignames
expect_status 0 $? "a result with causes of 100 KB"
size=$(stat -c %s r-bignames/data.js)
[ "$size" -lt 60000 ] && ok "its data.js stays small ($size bytes for 6 MB of names)" || fail "data.js of $size bytes"
explain r-bignames/data.js >bignames.json
expect_in bignames.json 'dominant irq:59 xxxxxxxx' "the words name the max's cause"
expect_in bignames.json 'xxx...' "cut short"

# None of it without the columns; the timeline says in one line when the
# datapoints lack LTime.
mkdir plain
cut -d, -f1-5 attr/datapoints.csv >plain/datapoints.csv
cut -d, -f2-5 attr/datapoints.csv >plain/nolt.csv
cp attr/telemetry.csv plain/
printf "reportid: 'plain'\nsource: 'timer'\ncollectors: 'telemetry.csv'\n" >plain/info.yml
report r-plain plain
expect_status 0 $? "a result without the columns"
explain r-plain/data.js >plain.json
expect_in plain.json "null" "no explanation"
mv plain/nolt.csv plain/datapoints.csv
report r-nolt plain
open_report nolt r-nolt 2 '#Timeline'
expect_in nolt.dom 'data-kind="no-ltime">plain: WakeLatency is not on this time axis: its datapoints have no LTime' "no LTime: the timeline says so first"
if grep -q 'class="explain"' nolt.dom; then fail "a section without the columns"; else ok "no section without the columns"; fi
finish
