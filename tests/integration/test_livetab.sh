#!/bin/sh
# The live table: on a terminal (a tmux pane), a run on every CPU draws
# one row per CPU (datapoints, current, min, mean, max, p99 so far) and
# leaves its last figures on the screen; with stderr not a terminal, no
# table and no escape codes, only the closing line. testspike's
# datapoints are known, so the last figures are too: no timing in it.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
cd "$work" || exit 1

cpus=$(awk -v l="$(cat /sys/devices/system/cpu/online)" 'BEGIN { n = split(l, p, ",");
	for (i = 1; i <= n; i++) { m = split(p[i], r, "-"); if (m == 1) r[2] = r[1];
		for (c = r[1]; c <= r[2]; c++) s = s (s == "" ? "" : " ") c }
	print s }')

# 200 datapoints per CPU, WakeLatency 2.0 to 2.4 us (datapoint n: 2 us
# + n % 5 * 100 ns); 20 reads 20 ms apart, so it is usually redrawn.
cat >live.cfg <<'CFG'
outdir = "r";
name = "live";
source = { plugin = "testspike"; cpu = "all"; delay = "20ms"; };
limits = { datapoints = 200; time = "60s"; };
sinks = ( { plugin = "csv"; } );
CFG

# Not a terminal: no table, the closing line only.
timeout 120 "$WULTFW" -c live.cfg >plain.out 2>plain.err
expect_status 0 $? "a run on every CPU, stderr a file"
if grep -q "Datapoints" plain.err || grep -q "$(printf '\033')" plain.err; then
	fail "a table or escape codes in a log:"; sed 's/^/    /' plain.err
else
	ok "no table and no escape codes when stderr is not a terminal"
fi
expect_in plain.err "experiment 'live': $((200 * $(echo $cpus | wc -w))) datapoints on CPUs" "the one closing line"

if ! command -v tmux >/dev/null; then
	skip_part "the table on a terminal: tmux is not installed"
	finish
fi
sock="wfw-livetab-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
rm -rf r
tmux -L "$sock" new-session -d -x 120 -y 30 \
	"cd '$work' && timeout 120 '$WULTFW' -c live.cfg; echo \$? >done; sleep 300"
wait_until test -s done || fail "the run in tmux did not end within 120 s"
tmux -L "$sock" capture-pane -p >screen.txt
tmux -L "$sock" kill-server 2>/dev/null
expect_status 0 "$(cat done)" "a run on every CPU, stderr a terminal"
expect_in screen.txt "live: WakeLatency in us" "the table names the metric"
expect_in screen.txt "  CPU  Datapoints        Cur        Min       Mean        Max        P99" "and its columns"
for c in $cpus; do
	row=$(printf '%5d %11d%11s%11s%11s%11s%11s' "$c" 200 2.000 2.000 2.200 2.400 2.400)
	expect_in screen.txt "$row" "CPU $c's row: 200 datapoints, last 2.0, min 2.0, mean 2.2, max 2.4, p99 2.4 us"
done
# The runs' own lines (each CPU's closing one) go above the table, not through it.
n=$(grep -c "  CPU  Datapoints" screen.txt)
expect_status 1 "$n" "the table is redrawn in place (one header on the screen)"
for c in $cpus; do
	expect_in screen.txt "experiment 'live-cpu$c': 200 datapoints" "CPU $c's closing line is on the screen"
done
below=$(sed -n '/  CPU  Datapoints/,$p' screen.txt | grep -c "live-cpu")
expect_status 0 "$below" "and none of them inside or below the table"

finish
