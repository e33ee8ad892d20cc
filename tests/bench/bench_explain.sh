#!/bin/sh
# Benchmark calc --explain (doc/attribution.md) on ROWS synthetic rows
# with the attribution's columns (tests/bench/gen_attrib): the binary file
# and its CSV twin, p99.9 and p50 (a tail of half the rows), -c, each
# against plain calc of the same file; RUNS runs each, the median wall
# and CPU seconds and the largest peak RSS. Target: the binary file's
# p99.9 in under a second of wall time.
# Usage: bench_explain.sh BUILDDIR [ROWS] [RUNS]   (needs /usr/bin/time)
set -e
B=${1:?usage: bench_explain.sh BUILDDIR [ROWS] [RUNS]}
ROWS=${2:-10000000}
RUNS=${3:-5}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-explain.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

echo "generating $ROWS rows in $DIR ..."
"$B/tests/bench/gen_attrib" "$ROWS" "$DIR"
cat "$DIR/datapoints.csv" "$DIR/datapoints.wfb" >/dev/null	# in the page cache

# case NAME CMD...: RUNS timed runs after one not counted; one line.
case_() {
	name=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$name: failed: $*"; exit 1; }
	: >"$DIR/t"
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f "%e %U %S %M" -a -o "$DIR/t" "$@" >/dev/null 2>&1
		i=$((i + 1))
	done
	w=$(cut -d' ' -f1 "$DIR/t" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	c=$(awk '{ print $2 + $3 }' "$DIR/t" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	m=$(cut -d' ' -f4 "$DIR/t" | sort -n | tail -n 1)
	printf "%-30s wall %.3f s  cpu %.3f s  peak %.1f MiB\n" "$name" "$w" "$c" \
		"$(awk -v m="$m" 'BEGIN { print m / 1024 }')" | tee -a "$DIR/all"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
case_ "calc (binary)" "$B/wultfw" calc "$DIR/datapoints.wfb"
case_ "calc --explain (binary)" "$B/wultfw" calc --explain "$DIR/datapoints.wfb"
case_ "calc --explain -j 1 (binary)" "$B/wultfw" calc --explain -j 1 "$DIR/datapoints.wfb"
case_ "calc --explain 50 (binary)" "$B/wultfw" calc --explain 50 "$DIR/datapoints.wfb"
case_ "calc --explain -c (binary)" "$B/wultfw" calc --explain -c "$DIR/datapoints.wfb"
case_ "calc (CSV)" "$B/wultfw" calc "$DIR/datapoints.csv"
case_ "calc --explain (CSV)" "$B/wultfw" calc --explain "$DIR/datapoints.csv"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
wall=$(awk '/^calc --explain \(binary\)/ { print $5 }' "$DIR/all")
if awk -v w="$wall" 'BEGIN { exit !(w < 1.0) }'; then
	echo "ok: calc --explain of $ROWS binary rows in $wall s (target: under 1 s)"
else
	echo "MISSED: calc --explain of $ROWS binary rows in $wall s (target: under 1 s)"
fi
