#!/bin/sh
# Reproduce doc/hrt-measurements.md: run as root from a built tree.
#   doc/hrt-measure.sh [OUTDIR]        (default /tmp/hrt-measure)
# Runs wultfw with the hrt source on CPU 1 with C-states restricted by the
# core, a rate sweep at small launch distances, and reads the probes' cost
# from the kernel's BPF run-time statistics.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/hrt-measure}
N=${N:-20000}
export WULTFW_PLUGIN_PATH="$top/plugins/hrt/.libs:$top/sinks/csv/.libs:$top/sinks/stats/.libs"
rm -rf "$out/res"; mkdir -p "$out"

exp() { # NAME LDIST_FROM LDIST_TO CSTATES_LINE
	cat > "$out/$1.cfg" <<CFG
outdir = "$out/res";
experiments = (
  { name = "$1";
    source = { plugin = "hrt"; cpu = 1; ldist = [ "$2", "$3" ]; raw = true; };
    $4
    limits = { datapoints = $N; time = "5m"; };
    sinks = ( { plugin = "csv"; }, { plugin = "stats"; } );
  }
);
CFG
	echo "== $1 (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$top/wultfw" -c "$out/$1.cfg" --no-progress -q > "$out/$1.stats" || true
}

exp all 20us 1ms ""
exp poll-only 20us 1ms 'cstates = { only = [ "POLL" ]; };'
exp halt-only 20us 1ms 'cstates = { only = [ "haltpoll idle" ]; };'
for d in 1us 2us 5us 10us 20us 50us 100us; do
	exp "rate-$d" "$d" "$d" ""
done

# Probe cost: kernel.bpf_stats_enabled counts run time of every program.
old=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -qw kernel.bpf_stats_enabled=1
exp overhead 20us 1ms "" &
pid=$!
sleep 4
bpftool prog show | grep -A1 -E "name hrt_" > "$out/bpf_stats.txt" || true
wait $pid
sysctl -qw kernel.bpf_stats_enabled="$old"


# Side by side in one wultfw run: hrt and the timer source at 200 us on CPU 1,
# all C-states and only POLL (the core leaves the haltpoll governor for
# that), then cyclictest at the same interval with and without its PM QoS.
export WULTFW_PLUGIN_PATH="$WULTFW_PLUGIN_PATH:$top/plugins/timer/.libs"
cat > "$out/side.cfg" <<CFG
outdir = "$out/res";
limits = { datapoints = $N; time = "5m"; };
sinks = ( { plugin = "csv"; }, { plugin = "stats"; } );
experiments = (
  { name = "side-hrt"; source = { plugin = "hrt"; cpu = 1; ldist = "200us"; }; },
  { name = "side-timer"; source = { plugin = "timer"; cpu = 1; ldist = "200us"; priority = 90; }; },
  { name = "side-hrt-poll"; source = { plugin = "hrt"; cpu = 1; ldist = "200us"; };
    cstates = { only = [ "POLL" ]; }; },
  { name = "side-timer-poll"; source = { plugin = "timer"; cpu = 1; ldist = "200us"; priority = 90; };
    cstates = { only = [ "POLL" ]; }; }
);
CFG
echo "== side by side (load: $(cut -d' ' -f1-3 /proc/loadavg))"
"$top/wultfw" -c "$out/side.cfg" --no-progress -q > "$out/side.stats" || true
if command -v cyclictest >/dev/null; then
	cyclictest -m -p90 -i200 -l "$N" -q -a 1 -t 1 --laptop > "$out/cyclictest-laptop.txt" 2>&1
	cyclictest -m -p90 -i200 -l "$N" -q -a 1 -t 1 > "$out/cyclictest-qos0.txt" 2>&1
fi
echo "results in $out"
