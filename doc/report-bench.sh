#!/bin/sh
# How long `wultfw report` takes to write, and headless Chromium to draw, a
# report of N synthetic datapoints (exponential tail, three C-states):
#   sh doc/report-bench.sh 10000000 [WORKDIR]
# With ATTRIB=1 the datapoints carry latency attribution's columns
# (doc/attribution.md: the five times, three counts, Cause, CausePID, LTime;
# a cause in about one row of 50) in a result directory whose info.yml
# names WakeLatency as the latency they explain: the page gets its
# explanation section.
# Prints the seconds to generate from CSV and from binary, data.js's size,
# and for the page (OPENS openings each, 3 by default, of the report with
# the tabs WakeLatency and SilentTime): the page's own milliseconds from
# navigation start until the scripts were loaded, until the opened tab's
# plots in view were drawn (as a user opens it), and with #all until every
# tab and plot was drawn (footer data-*), each with the load average before
# it. tests/integration/page_dump.py opens the page over the DevTools pipe
# and waits in real time: with --virtual-time-budget the page's clock would
# stand still while it draws.
set -eu
n=${1:?datapoints}
dir=${2:-/tmp/wultfw-report-bench}
wultfw=${WULTFW:-wultfw}
attrib=${ATTRIB:-0}
opens=${OPENS:-3}
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || command -v chromium-browser)
mkdir -p "$dir" && cd "$dir"
if [ "$attrib" = 1 ]; then
	name=attrib-$n
	mkdir -p "$name.csv.d" "$name.wfb.d"
	[ -s "$name.csv.d/datapoints.csv" ] || awk -v n="$n" 'BEGIN { srand(5); split("POLL C1 C6", cs, " ");
		split("irq:24 virtio1-input.0,irq:LOC,softirq:NET_RX,softirq:TIMER,thread,nmi", cn, ",");
		print "LTime,WakeLatency,SilentTime,LDist,ReqCState,IRQTime,SoftIRQTime,NMITime,ThreadTime,ExitTime,IRQCnt,SWIRQCnt,NMICnt,Cause,CausePID";
		for (i = 0; i < n; i++) {
			ld = 20 + rand() * 480; ex = 5 - 8 * log(1 - rand()); t[1] = t[2] = t[3] = t[4] = 0;
			cause = "idle-exit"; pid = "";
			if (rand() < 0.02) {
				k = 1 + int(rand() * 6); v = 2 - 40 * log(1 - rand()); cause = cn[k];
				t[k <= 2 ? 1 : k <= 4 ? 2 : k == 5 ? 4 : 3] = v;
				if (k == 5) pid = 100 + int(rand() * 5);
				if (v < ex) { cause = "idle-exit"; pid = "" }
			}
			lat = ex + t[1] + t[2] + t[3] + t[4];
			printf "%.0f,%.3f,%.3f,%.3f,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%s,%s\n",
				1e12 + i * 1e6, lat, ld * 0.9, ld, cs[1 + int(rand() * 3)],
				t[1], t[2], t[3], t[4], ex, (t[1] > 0), (t[2] > 0), (t[3] > 0), cause, pid;
		} }' >"$name.csv.d/datapoints.csv"
	printf "reportid: '%s'\nsource: 'timer'\nattrib: 'on'\nattrib_latency: 'WakeLatency'\nattrib_start: 'LTime'\n" \
		"$name" >"$name.csv.d/info.yml"
	printf 'PID,Comm\n100,kworker/1:0\n101,kworker/1:1\n102,sshd\n103,rcu_preempt\n104,ksoftirqd/1\n' \
		>"$name.csv.d/attrib-threads.csv"
	cp "$name.csv.d/info.yml" "$name.csv.d/attrib-threads.csv" "$name.wfb.d/"
	[ -s "$name.wfb.d/datapoints.wfb" ] ||
		"$wultfw" convert "$name.csv.d/datapoints.csv" -o "$name.wfb.d/datapoints.wfb" >/dev/null 2>&1
	csv=$name.csv.d wfb=$name.wfb.d
else
	[ -s "big-$n.csv" ] || awk -v n="$n" 'BEGIN { srand(5); split("POLL C1 C6", cs, " ");
		print "WakeLatency,SilentTime,LDist,ReqCState";
		for (i = 0; i < n; i++) {
			ld = 20 + rand() * 480; u = rand();
			printf "%.3f,%.3f,%.3f,%s\n", 5 - 8 * log(1 - u), ld * 0.9, ld, cs[1 + int(rand() * 3)];
		} }' >"big-$n.csv"
	[ -s "big-$n.wfb" ] || "$wultfw" convert "big-$n.csv" -o "big-$n.wfb" >/dev/null 2>&1
	csv=big-$n.csv wfb=big-$n.wfb
fi
for f in csv wfb; do
	eval "in=\$$f"
	rm -rf "rep-$f"
	/usr/bin/time -f "generate from $f: %e s, %M KiB" "$wultfw" report -o "rep-$f" "$in" 2>&1 | tail -1
done
rm -rf rep-tabs
"$wultfw" report -o rep-tabs -m WakeLatency,SilentTime "$wfb" >/dev/null 2>&1
echo "data.js: $(($(stat -c %s rep-csv/data.js) / 1024)) KiB, plotly: $(($(stat -c %s rep-csv/plotly.min.js) / 1024)) KiB"
echo "on $(uname -n) ($(uname -r)$(grep -q hypervisor /proc/cpuinfo && echo ", a VM guest")), $(nproc) CPUs, $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
# open_page URL first|all: the footer's times once the page drew the opened
# tab (first) or every tab (all), or said an error; the wall time around it.
open_page() {
	want=$([ "$2" = all ] && echo drawnMs || echo firstTabMs)
	t0=$(date +%s%N)
	python3 "$here/../tests/integration/page_dump.py" --bound 300 --size 1400,1800 \
		--until "(f => f.dataset.status === 'error' || f.dataset.status === 'ok' && f.dataset.$want)(document.getElementById('status'))" \
		"$chromium" "$1" 2>/dev/null >page.dom
	wall=$((($(date +%s%N) - t0) / 1000000))
	sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"\([^>]*\)>\([^<]*\).*/\1 \2|\3/p' page.dom |
		awk -F'|' -v wall="$wall" '{ for (n = split($1, a, " "); n > 1; n--) { split(a[n], kv, "\""); t[kv[1]] = kv[2] }
			printf "loaded %s ms, first tab %s ms%s; wall %d ms; %s\n", t["data-loaded-ms="], t["data-first-tab-ms="],
				t["data-drawn-ms="] != "" ? ", all " t["data-drawn-ms="] " ms" : "", wall, $2 }'
}
i=0
while [ $i -lt "$opens" ]; do
	i=$((i + 1))
	for how in first all; do
		url="file://$PWD/rep-tabs/index.html"
		[ $how = all ] && url="$url#all"
		echo "open $i, $how (load $(cut -d' ' -f1-3 /proc/loadavg)): $(open_page "$url" $how)"
	done
done
