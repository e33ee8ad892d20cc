#!/bin/sh
# How long `wultfw report` takes to write, and headless Chromium to open, a
# report of N synthetic datapoints (exponential tail, three C-states):
#   sh doc/report-bench.sh 10000000 [WORKDIR]
# Prints the seconds to generate from CSV and from binary, data.js's size,
# and for the page (3 openings): Chromium's wall time from start to the DOM
# dump, and the page's own milliseconds from navigation start until the
# scripts were loaded and until every plot was drawn (footer data-*).
set -eu
n=${1:?datapoints}
dir=${2:-/tmp/wultfw-report-bench}
wultfw=${WULTFW:-wultfw}
mkdir -p "$dir" && cd "$dir"
[ -s "big-$n.csv" ] || awk -v n="$n" 'BEGIN { srand(5); split("POLL C1 C6", cs, " ");
	print "WakeLatency,SilentTime,LDist,ReqCState";
	for (i = 0; i < n; i++) {
		ld = 20 + rand() * 480; u = rand();
		printf "%.3f,%.3f,%.3f,%s\n", 5 - 8 * log(1 - u), ld * 0.9, ld, cs[1 + int(rand() * 3)];
	} }' >"big-$n.csv"
[ -s "big-$n.wfb" ] || "$wultfw" convert "big-$n.csv" -o "big-$n.wfb" >/dev/null 2>&1
for f in csv wfb; do
	rm -rf "rep-$f"
	/usr/bin/time -f "generate from $f: %e s, %M KiB" "$wultfw" report -o "rep-$f" "big-$n.$f" 2>&1 | tail -1
done
echo "data.js: $(($(stat -c %s rep-csv/data.js) / 1024)) KiB, plotly: $(($(stat -c %s rep-csv/plotly.min.js) / 1024)) KiB"
for i in 1 2 3; do
	prof=$(mktemp -d)
	t0=$(date +%s%N)
	timeout 300 chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader \
		--user-data-dir="$prof" --window-size=1400,1800 \
		--dump-dom "file://$PWD/rep-csv/index.html" >page.html 2>/dev/null
	t1=$(date +%s%N)
	rm -rf "$prof"
	echo "open $i: $(( (t1 - t0) / 1000000 )) ms wall; page: $(grep -o 'data-status="[a-z]*"\|data-[a-z-]*-ms="[0-9]*"' page.html | tr '\n' ' ')"
done
