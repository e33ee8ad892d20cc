#!/bin/sh
# Two builds of wultfw side by side on the tools that read a file in
# parallel parts (calc, convert, filter, report), at -j 1 and -j 2: each
# case runs A, B, A, B ... ROUNDS times on the same input (page cache hot,
# each output written afresh after a `sync`), and prints per case the
# median CPU seconds (user + sys) and wall seconds of A and of B and the
# median of the pair-by-pair ratios B/A, with the load average before and
# after. CPU time and pairs taken in turn keep a shared, loaded machine's
# drift out of the comparison; wall times say little there.
# Usage: bench_par.sh WULTFW_A WULTFW_B BUILDDIR [ROWS] [ROUNDS]
#        (BUILDDIR for tests/bench/gen_datapoints; needs /usr/bin/time)
set -e
A=${1:?usage: bench_par.sh WULTFW_A WULTFW_B BUILDDIR [ROWS] [ROUNDS]}
B=${2:?usage: bench_par.sh WULTFW_A WULTFW_B BUILDDIR [ROWS] [ROUNDS]}
BUILD=${3:?usage: bench_par.sh WULTFW_A WULTFW_B BUILDDIR [ROWS] [ROUNDS]}
ROWS=${4:-4000000}
ROUNDS=${5:-5}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-par.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

echo "generating $ROWS rows in $DIR ..."
"$BUILD/tests/bench/gen_datapoints" "$ROWS" "$DIR" >/dev/null
"$A" convert "$DIR/datapoints.csv" -o "$DIR/twin.wfb" 2>/dev/null
sync
cat "$DIR/datapoints.csv" "$DIR/twin.wfb" >/dev/null	# page cache hot
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# one WHO CASE CMD...: a timed run, "CASE WHO cpu wall" appended to runs
one() {
	who=$1 case=$2; shift 2
	rm -rf "$DIR/out.wfb" "$DIR/out.csv" "$DIR/out"
	sync
	/usr/bin/time -f "%U %S %e" -o "$DIR/time" "$@" >/dev/null 2>"$DIR/err" ||
		{ cat "$DIR/err" >&2; exit 1; }
	read -r u s w <"$DIR/time"
	echo "$case $who $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $w" >>"$DIR/runs"
}

# pair CASE ARGS...: `wultfw ARGS` of A and of B, in turn, ROUNDS times
pair() {
	case=$1; shift
	for i in $(seq "$ROUNDS"); do
		one A "$case" "$A" "$@"
		one B "$case" "$B" "$@"
	done
}

: >"$DIR/runs"
for j in 1 2; do
	pair "calc_csv_j$j" calc -j $j "$DIR/datapoints.csv"
	pair "calc_bin_j$j" calc -j $j "$DIR/twin.wfb"
	pair "csv_to_bin_j$j" convert -j $j "$DIR/datapoints.csv" -o "$DIR/out.wfb"
	pair "bin_to_csv_j$j" convert -j $j "$DIR/twin.wfb" -o "$DIR/out.csv"
	pair "filter_csv_j$j" filter -j $j "$DIR/datapoints.csv" -o "$DIR/out"
	pair "filter_csv_c6_j$j" filter -j $j "$DIR/datapoints.csv" -o "$DIR/out" \
		--include 'ReqCState == "C6"'
	pair "filter_bin_c6_j$j" filter -j $j "$DIR/twin.wfb" -o "$DIR/out" \
		--include 'ReqCState == "C6"'
	pair "report_csv_j$j" report -j $j "$DIR/datapoints.csv" -o "$DIR/out"
	pair "report_bin_j$j" report -j $j "$DIR/twin.wfb" -o "$DIR/out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Medians per case; the ratio B/A of CPU from the runs taken in turn.
awk '
	function median(s,    n, v, i, j, t) {
		n = split(s, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	!($1 in seen) { seen[$1] = 1; order[++k] = $1 }
	$2 == "A" { ca[$1] = ca[$1] " " $3; wa[$1] = wa[$1] " " $4; last[$1] = $3 }
	$2 == "B" { cb[$1] = cb[$1] " " $3; wb[$1] = wb[$1] " " $4
		    r[$1] = r[$1] " " (last[$1] > 0 ? $3 / last[$1] : 1) }
	END {
		printf "%-18s %9s %9s %9s %9s %9s\n", "case", "A cpu s", "B cpu s",
			"B/A cpu", "A wall s", "B wall s"
		for (i = 1; i <= k; i++) {
			c = order[i]
			printf "%-18s %9.3f %9.3f %9.3f %9.3f %9.3f\n", c, median(ca[c]),
				median(cb[c]), median(r[c]), median(wa[c]), median(wb[c])
		}
	}' "$DIR/runs"
