#!/bin/sh
# The whole report in headless Chromium (issue 31's "Done when"): a report of
# each source that runs in CI -- timer, hrt, skid, telemetry, a timer run
# with a telemetry collector --, a diff of three results and 1 M synthetic
# datapoints, each opened with test_report_drawn.js injected
# (report_open.sh): fails on a JavaScript error, on any plot drawing fewer
# datapoints than data.js holds, or on any other check drawn.js makes.
# Screenshots go to test_report_sources-shots/ beside the test's log.
# Every run is bounded in time; a source this machine cannot run (now) is
# skipped with its reason. The timer page also carries a hostile --descr.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
export WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets"
chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	echo "SKIP: no chromium (Debian package chromium) to open the reports in"
	exit 77
fi
shots="$top/tests/integration/test_report_sources-shots"
rm -rf "$shots" && mkdir -p "$shots"
cd "$work" || exit 1
. "$srcdir/tests/integration/report_open.sh"

# tabs DIR: how many tabs DIR's page must draw (a metric each, the
# Timeline when a collector's counters are there).
tabs() {
	python3 -c 'import json, sys
s = open(sys.argv[1]).read()
r = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
print(len(r["metrics"]) + any(r.get("timelines") or []))' "$1/data.js"
}

# page NAME RESULT... [-- REPORT OPTIONS]: report RESULTs into r-NAME, open it.
page() {
	name=$1; shift
	timeout 300 "$WULTFW" report -o "r-$name" "$@" 2>"$name.err"
	st=$?
	expect_status 0 $st "report $name"
	# Why, in the log: once seen failing (1) only under the sanitizers.
	[ $st = 0 ] || tail -20 "$name.err" | sed 's/^/    /'
	[ -s "r-$name/data.js" ] || { sed 's/^/    /' "$name.err"; return 1; }
	open_report "$name" "r-$name" "$(tabs "r-$name")"
}

# run NAME CFG: measure, bounded; non-zero if it failed.
run() {
	timeout 600 "$WULTFW" -q -c "$2" >"$1.out" 2>&1
	expect_status 0 $? "a $1 run"
}

cat >timer.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = 1; ldist = [ "20us", "500us" ]; };
    limits = { datapoints = 2000; time = "2m"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
sed 's/name = "timer"/name = "timer2"/; s/"20us", "500us"/"100us", "1ms"/' timer.cfg >timer2.cfg
run timer timer.cfg && run timer2 timer2.cfg
descr='First *paragraph* with [a link](https://example.org/) and `code`.

<script>alert(1)</script> [bad](javascript:alert) "quotes" *unclosed'
page timer out/timer --title '<b>plain</b> title' --descr "$descr"
sed -n '/<div id="descr">/,/<\/div>/p' timer.dom >descr.dom
expect_in descr.dom '<p>First <em>paragraph</em> with <a href="https://example.org/" rel="noopener noreferrer">a link</a> and <code>code</code>.</p>' \
	"--descr: emphasis, link and code, in a paragraph"
expect_in descr.dom '<p>&lt;script&gt;alert(1)&lt;/script&gt; [bad](javascript:alert) "quotes" *unclosed</p>' \
	"--descr: <script>, a javascript: link, quotes and unclosed markup shown as typed"
grep -q -i -e '<script' -e 'href="javascript' descr.dom && fail "--descr made markup of hostile text" ||
	ok "--descr: no script element, no javascript: link"
expect_in timer.dom '<h1 id="title">&lt;b&gt;plain&lt;/b&gt; title</h1>' "--title is plain text"

page diff3 out/timer out/timer2 "$srcdir/tests/data/wult-1.3" --reportids timer,timer2,wult -m WakeLatency
expect_in diff3.dom "vs timer" "the diff's tables compare with the first result"

# hrt (eBPF) needs an idle CPU and a BTF kernel: --check says why not; a
# busy CPU gives no datapoint (hrt_busy); not beside other hrt tests.
sed 's/"timer"; cpu/"hrt"; cpu/; s/name = "timer"/name = "hrt"/; s/datapoints = 2000; time = "2m"/datapoints = 1000; time = "30s"/' timer.cfg >hrt.cfg
exec 9>/tmp/wultfw-hrt-tests.lock
if ! flock -w 600 9; then
	skip_part "the hrt page: /tmp/wultfw-hrt-tests.lock held for 10 minutes"
elif "$WULTFW" -c hrt.cfg --check >hrt.check 2>&1; then
	timeout 300 "$WULTFW" -q -c hrt.cfg 2>hrt.err
	st=$?
	if [ $st = 4 ] && why=$(hrt_busy out/hrt); then
		skip_part "the hrt page: $why"
	else
		expect_status 0 $st "an hrt run"
		[ $st = 0 ] && page hrt out/hrt
	fi
else
	skip_part "the hrt page: $(grep -m1 -e error -e warning hrt.check)"
fi
exec 9>&-

# skid on cpu-clock (a software event: counts wherever perf events open).
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
	run skid skid.cfg && page skid out/skid
else
	skip_part "the skid page: $(grep -m1 -e error -e warning skid.check)"
fi

# telemetry as the source: counters every 10 ms for 3 s.
cat >tele.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "telemetry";
    source = { plugin = "telemetry"; period = "10ms";
               counters = [ "stat:ctxt", "stat:intr", "stat:cpu1:idle" ]; };
    limits = { time = "3s"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
if "$WULTFW" -c tele.cfg --check >tele.check 2>&1; then
	# As a user opens it (SampleWindow and the counters' Timeline), and
	# with its counters as metrics.
	run telemetry tele.cfg && page telemetry out/telemetry &&
		page telemetry-m out/telemetry -m 'stat:*'
else
	skip_part "the telemetry page: $(grep -m1 -e error -e warning tele.check)"
fi

# A timer run with a telemetry collector: the Timeline tab.
cat >col.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "col";
    source = { plugin = "timer"; cpu = 1; ldist = [ "100us", "1ms" ]; };
    limits = { datapoints = 1000; time = "2m"; };
    sinks = ( { plugin = "csv"; } );
    collect = ( { plugin = "telemetry"; period = "20ms";
                  counters = [ "stat:ctxt", "stat:cpu1:idle" ]; } );
  }
);
CFG
run collector col.cfg && page collector out/col
expect_in collector.dom 'Timeline' "the collector's counters on a Timeline tab"

# 1 M synthetic datapoints (tests/bench/gen_datapoints: random, not
# measured), every column wult's.
gen="$top/tests/bench/gen_datapoints"
if [ -x "$gen" ]; then
	mkdir big && timeout 300 "$gen" 1000000 big >gen.out 2>&1
	expect_status 0 $? "1 M synthetic datapoints"
	rm -f big/datapoints.wfb
	page big big/datapoints.csv -m WakeLatency,IntrLatency
	expect_in r-big/data.js '"rows": 1000000' "all 1 M rows read"
else
	skip_part "the 1 M page: tests/bench/gen_datapoints not built (it needs CUnit's check programs)"
fi
finish
