#!/bin/sh
# What the latency attribution costs the measurement (doc/attribution.md):
# the timer source on CPU 1 at priority 90, ldist 100us-1ms, PAIRS pairs of
# SECONDS-second runs without and with `annotate = ( { plugin = "attrib"; } )`,
# alternating, equal settings otherwise. Prints each run's min, median and
# p99 WakeLatency, and the medians of the pairs' differences.
#   bench_attrib.sh WULTFW [PAIRS] [SECONDS]   (root, BTF)
w=${1:?usage: bench_attrib.sh WULTFW [PAIRS] [SECONDS]}
pairs=${2:-5} secs=${3:-5}
dir=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-attrib-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
cat >off.cfg <<CFG
name = "off";
source = { plugin = "timer"; cpu = 1; priority = 90; ldist = [ "100us", "1ms" ]; };
limits = { time = "${secs}s"; };
sinks = ( { plugin = "csv"; } );
CFG
sed 's/"off"/"on"/' off.cfg >on.cfg
echo 'annotate = ( { plugin = "attrib"; cost = true; } );' >>on.cfg
i=0
while [ $i -lt "$pairs" ]; do
	i=$((i + 1))
	for m in off on; do
		"$w" -q -c $m.cfg -o "r$i" || exit 1
		"$w" calc -m WakeLatency -f min,median,p99 "r$i/$m" 2>/dev/null |
			awk -v m=$m -v i=$i '$1 == "WakeLatency" { print i, m, $3, $4, $5 }'
	done
done >runs.txt
awk '{ print "pair " $1 " " $2 ": min " $3 " us, median " $4 " us, p99 " $5 " us" }' runs.txt
grep -h attrib_cost_ns r*/on/info.yml | sed 's/^/cost inside the programs, mean: /'
# median DIFF-COLUMN: the median of the pairs' differences in that column.
median() {
	awk -v c="$1" '$2 == "off" { v[$1] = $c } $2 == "on" { print $c - v[$1] }' runs.txt |
		sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
echo "with attribution, median of $pairs pairs' differences: min $(median 3) us, median $(median 4) us, p99 $(median 5) us"
