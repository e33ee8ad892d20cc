#!/bin/sh
# The cost of measuring several CPUs at once (cpu = "A,B": one run per CPU
# side by side, core/percpu.c) against measuring each alone, at equal
# settings: the timer source, one launch distance, one priority, one
# duration. Each round runs CPU A alone, CPU B alone, then both at once,
# in turn, so a shared machine's drift falls on all three alike; per round
# and CPU it prints the datapoints, the median and 99th percentile of
# WakeLatency (us) and the measuring thread's CPU time as a share of the
# run (the timer source's timer_thread_cpu_ns / timer_run_ns), then per CPU
# the medians over the rounds and the median of the round-by-round ratios
# together/alone. The load average is printed before and after: quote it
# beside every figure.
# Usage: bench_percpu.sh WULTFW [SECONDS] [ROUNDS] [LDIST] [PRIORITY] [CPUS]
#        defaults: 10 s a run, 3 rounds, ldist 500us, priority 0 (90 needs
#        root and RT runtime), CPUS "0 1" (two CPUs, as the lists allow)
set -eu
W=${1:?usage: bench_percpu.sh WULTFW [SECONDS] [ROUNDS] [LDIST] [PRIORITY] [CPUS]}
SECS=${2:-10}
ROUNDS=${3:-3}
LDIST=${4:-500us}
PRIO=${5:-0}
CPUS=${6:-0 1}
set -- $CPUS
A=$1 B=$2
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-percpu.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

# cfg NAME CPU: one experiment at the shared settings.
cfg() {
	cat >"$DIR/$1.cfg" <<CFG
outdir = "$DIR/r";
name = "$1";
source = { plugin = "timer"; cpu = "$2"; ldist = "$LDIST"; priority = $PRIO; };
limits = { time = "${SECS}s"; };
sinks = ( { plugin = "csv"; } );
CFG
}

# key FILE KEY: a number from an info.yml.
key() {
	sed -n "s/^$2: '*\([0-9.]*\)'*\$/\1/p" "$1"
}

# stats DIR: "datapoints median p99 thread%" of one CPU's result.
stats() {
	col=$(head -1 "$1/datapoints.csv" | tr ',' '\n' | grep -nx WakeLatency | cut -d: -f1)
	tail -n +2 "$1/datapoints.csv" | cut -d, -f"$col" | sort -n >"$DIR/sorted"
	n=$(wc -l <"$DIR/sorted")
	[ "$n" -gt 0 ] || { echo "0 - - -"; return; }
	med=$(sed -n "$(((n + 1) / 2))p" "$DIR/sorted")
	p99=$(sed -n "$(((n * 99 + 99) / 100))p" "$DIR/sorted")
	pct=$(awk -v c="$(key "$1/info.yml" timer_thread_cpu_ns)" \
		-v w="$(key "$1/info.yml" timer_run_ns)" \
		'BEGIN { if (w > 0 && c != "") printf "%.2f", 100 * c / w; else print "-" }')
	echo "$n $med $p99 $pct"
}

# run ROUND CASE CPU: one run; its lines into $DIR/rows.
run() {
	rm -rf "$DIR/r/$2"
	"$W" -q -c "$DIR/$2.cfg" >"$DIR/out" 2>&1 ||
		{ echo "run $2 failed:" >&2; cat "$DIR/out" >&2; exit 1; }
	if [ -d "$DIR/r/$2/cpu$A" ]; then
		for c in $A $B; do
			echo "$1 together $c $(stats "$DIR/r/$2/cpu$c")" >>"$DIR/rows"
		done
	else
		echo "$1 alone $3 $(stats "$DIR/r/$2")" >>"$DIR/rows"
	fi
}

cfg alone$A "$A"
cfg alone$B "$B"
cfg both "$A,$B"
echo "machine: $(uname -r), $(nproc) CPUs, cpuidle driver $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
echo "settings: timer, ldist $LDIST, priority $PRIO, $SECS s a run, $ROUNDS rounds, CPUs $A and $B"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$DIR/rows"
r=1
while [ $r -le "$ROUNDS" ]; do
	run $r alone$A $A
	run $r alone$B $B
	run $r both -
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "round case cpu datapoints median_us p99_us thread_cpu%"
sort -k1,1n -k3,3n -k2,2 "$DIR/rows"
echo
echo "per CPU, medians over the rounds (ratio: together/alone, round by round)"
echo "cpu alone_median alone_p99 together_median together_p99 ratio_median ratio_p99 alone_cpu% together_cpu%"
for c in $A $B; do
	awk -v c="$c" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) {
			t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
	$3 == c && $2 == "alone" { am[$1] = $5; ap[$1] = $6; ac[$1] = $7 }
	$3 == c && $2 == "together" { tm[$1] = $5; tp[$1] = $6; tc[$1] = $7 }
	END {
		for (r in am) if (r in tm) {
			n++; x1[n] = am[r]; x2[n] = ap[r]; x3[n] = tm[r]; x4[n] = tp[r]
			x5[n] = tm[r] / am[r]; x6[n] = tp[r] / ap[r]; x7[n] = ac[r]; x8[n] = tc[r] }
		if (!n) { print c, "no complete round"; exit }
		printf "%s %.1f %.1f %.1f %.1f %.3f %.3f %.2f %.2f\n", c, med(x1, n), med(x2, n),
			med(x3, n), med(x4, n), med(x5, n), med(x6, n), med(x7, n), med(x8, n)
	}' "$DIR/rows"
done
