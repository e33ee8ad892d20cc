#!/bin/sh
# SPDX-License-Identifier: MIT
# Every CPU at once: `cyclictest -a -t` against the timer source's mode
# grid with cpu = "all" (one pinned measuring thread per CPU in both), at
# equal settings, the two tools run in turn (A B A B ...). Per CPU and
# round: count, min, median, p99, p99.9, max of each and their ratio,
# computed by one piece of code (bench_cyclictest.py). See --help.
set -u

me=bench_cyclictest.sh
usage() {
	cat <<EOF
Usage: $me [OPTION]...
Run cyclictest -a -t (one pinned SCHED_FIFO thread per CPU) and wultfw's
timer source in mode grid on the same CPUs (cpu = "all" or a list) in
alternating rounds, at the same interval, priority, locked memory,
wake-ups per CPU and C-state policy, and print per CPU and round the
count, min, median, p99, p99.9 and max wake latency (us) of each tool and
the ratios timer/cyclictest, then per CPU and tool each statistic's
median over the rounds and its range (ratios taken inside each round).

What both measure: a thread sleeps with clock_nanosleep(CLOCK_MONOTONIC,
TIMER_ABSTIME) to a fixed grid (next = previous + interval); latency is
the clock read just after the call returns minus the deadline.
cyclictest keeps one sample per loop; the timer source (mode grid,
reqcstate = false) one datapoint per wake-up, skipping and counting
deadlines already passed when it arms the next (shown as "skipped").

  -b, --build DIR     a wultfw build tree (default: .)
  -c, --cpus LIST     "all" (default: cyclictest -a -t) or a list as the
                      kernel writes it ("0-1,3": cyclictest -a LIST -t N)
  -i, --interval US   the grid's interval in microseconds (default 200)
  -l, --loops N       wake-ups per CPU per run (default 20000)
  -p, --priority P    SCHED_FIFO priority 1-99 (default 90)
  -r, --rounds N      rounds, each one run of both tools (default 3)
      --poll          hold /dev/cpu_dma_latency at 0 for both tools (the
                      CPUs poll instead of entering C-states; cyclictest's
                      default). Without it neither touches C-states
                      (cyclictest --laptop; the timer never does)
  -h, --help          this help

Runs as root (SCHED_FIFO, mlockall). Exits 77 naming what is missing
when it cannot run here. Each run is bounded (timeout, and the timer's
limits.time). Raw results stay in \${TMPDIR:-/tmp}/bench-cyclictest.*.
EOF
}

build=. cpus=all interval=200 loops=20000 prio=90 rounds=3 poll=
while [ $# -gt 0 ]; do
	case $1 in
	-b|--build) build=${2:?}; shift ;;
	-c|--cpus) cpus=${2:?}; shift ;;
	-i|--interval) interval=${2:?}; shift ;;
	-l|--loops) loops=${2:?}; shift ;;
	-p|--priority) prio=${2:?}; shift ;;
	-r|--rounds) rounds=${2:?}; shift ;;
	--poll) poll=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$me: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
for v in "interval=$interval" "loops=$loops" "priority=$prio" "rounds=$rounds"; do
	case ${v#*=} in
	''|*[!0-9]*|0) echo "$me: ${v%=*} '${v#*=}' is not a whole number above 0" >&2; exit 2 ;;
	esac
done
[ "$prio" -le 99 ] || { echo "$me: priority $prio is above 99" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
WULTFW=$build/wultfw
[ -x "$WULTFW" ] || { echo "$me: no $WULTFW: build first, or give --build" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$me: SKIP: not root (SCHED_FIFO and mlockall need it)"; exit 77; }
command -v cyclictest >/dev/null ||
	{ echo "$me: SKIP: no cyclictest (Debian package rt-tests)"; exit 77; }
: "${WULTFW_PLUGIN_PATH:=$build/plugins/timer/.libs:$build/sinks/csv/.libs}"
export WULTFW_PLUGIN_PATH

# The CPU list both tools get, expanded: cyclictest's thread i runs on its
# i-th CPU (-a pins in round-robin order; -t alone: thread i on CPU i).
expand() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done | paste -sd, -
}
if [ "$cpus" = all ]; then
	list=$(expand "$(cat /sys/devices/system/cpu/online)")
	affinity="-a -t"
else
	list=$(expand "$cpus") || exit 2
	affinity="-a $cpus -t $(echo "$list" | tr ',' '\n' | wc -l)"
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/bench-cyclictest.XXXXXX") || exit 1
# A run's bound: its wake-ups at the interval, four times over, + 60 s.
bound=$((loops * interval / 250000 + 60))
cat >"$out/exp.cfg" <<CFG
outdir = "$out";
limits = { datapoints = $loops; time = "${bound}s"; };
sinks = ( { plugin = "csv"; } );
experiments = (
  { name = "timer"; source = { plugin = "timer"; cpu = "$cpus"; mode = "grid";
    ldist = "${interval}us"; priority = $prio; mlock = true; reqcstate = false; }; }
);
CFG

# -d0: every thread at the same interval (default: +500 us per thread).
# -N -v: every sample in ns. --laptop: C-states left as they are.
cyc_cmd="cyclictest $affinity -d0 -m -p$prio -i$interval -l$loops -N -v -q --laptop"
timer_cmd="$WULTFW -q --no-progress -c $out/exp.cfg --force"

steal() { # all CPUs' steal ticks and all ticks, from /proc/stat
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat
}
load() { cut -d' ' -f1 /proc/loadavg; }

if [ -n "$poll" ]; then
	# Held by the script for both tools; cyclictest's --laptop keeps it
	# from writing its own.
	# (a failed exec redirection would end the shell without a word)
	[ -w /dev/cpu_dma_latency ] ||
		{ echo "$me: cannot write /dev/cpu_dma_latency: --poll needs it" >&2; exit 1; }
	exec 3>/dev/cpu_dma_latency
	printf 0 >&3
fi
policy=${poll:+"/dev/cpu_dma_latency held at 0 by this script for both"}
echo "- $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs online, kernel $(uname -r), cpuidle $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none); CPUs $list"
echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); C-states: ${policy:-left as they are by both}"
echo "- A: $cyc_cmd"
echo "- B: $timer_cmd   # exp.cfg below"
sed 's/^/      /' "$out/exp.cfg"
echo
echo "| round, CPU, tool | count | min | median | p99 | p99.9 | max |"
echo "|---|---|---|---|---|---|---|"
# shellcheck disable=SC2046 # two numbers
set -- $(steal)
st0=$1 all0=$2
status=0
for r in $(seq "$rounds"); do
	l0=$(load)
	# shellcheck disable=SC2086 # the command lines are word lists
	timeout -k 5 "$bound" $cyc_cmd >"$out/cyclictest-$r.txt" 2>"$out/cyclictest-$r.err" ||
		{ echo "$me: round $r: cyclictest failed: $(tail -1 "$out/cyclictest-$r.err")" >&2; status=1; break; }
	# shellcheck disable=SC2086
	timeout -k 5 $((bound + 30)) $timer_cmd 2>"$out/timer-$r.err" ||
		{ echo "$me: round $r: wultfw failed: $(tail -1 "$out/timer-$r.err")" >&2; status=1; break; }
	rm -rf "$out/timer-$r" && mv "$out/timer" "$out/timer-$r"
	python3 "$here/bench_cyclictest.py" "$r" "$list" "$out/cyclictest-$r.txt" \
		"$out/timer-$r" "$out/rounds" || { status=1; break; }
	echo "| #$r load average $l0 -> $(load) | | | | | | |"
done
# shellcheck disable=SC2046
set -- $(steal)
echo
echo "- load average (1 min) at the end: $(load); steal time over the runs: $((100 * ($1 - st0) / ($2 - all0 + 1)))%"
if [ -s "$out/rounds" ]; then
	echo
	echo "Over the rounds: each statistic's median (nearest-rank) and range; the"
	echo "ratios are taken inside each round first:"
	echo
	python3 "$here/bench_cyclictest.py" summary "$out/rounds"
fi
echo "raw results: $out" >&2
exit $status
