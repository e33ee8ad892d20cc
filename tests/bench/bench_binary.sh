#!/bin/sh
# Benchmark the binary format end to end on ROWS synthetic wult-like rows:
# file sizes (CSV, its binary twin), `cat` of each (the limit), writing the
# CSV's bytes to a new file (the floor for tools that write CSV), `wultfw
# calc` on the binary file, `wultfw convert` both ways, filter (all rows and
# a quarter of them) and report on each, and pandas on the CSV (the
# reference of issue 14). Wall seconds, CPU seconds and peak RSS.
# Usage: bench_binary.sh BUILDDIR [ROWS] [--no-pandas]
#        (needs /usr/bin/time; python3-pandas unless --no-pandas)
set -e
B=${1:?usage: bench_binary.sh BUILDDIR [ROWS] [--no-pandas]}
ROWS=${2:-10000000}
PANDAS=${3:-yes}
SRC=$(dirname "$0")
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-bin.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

echo "generating $ROWS rows in $DIR ..."
"$B/tests/bench/gen_datapoints" "$ROWS" "$DIR" >/dev/null
# The twin as convert makes it from the CSV (types inferred from the text).
"$B/wultfw" convert "$DIR/datapoints.csv" -o "$DIR/twin.wfb" 2>/dev/null
csv=$(stat -c %s "$DIR/datapoints.csv")
for f in datapoints.wfb twin.wfb; do
	s=$(stat -c %s "$DIR/$f")
	echo "$f: $s bytes, $(awk -v a="$s" -v b="$csv" 'BEGIN { printf "%.2f", a / b }') of the CSV ($csv bytes)"
done

# run NAME IN CMD...: one timed run (wall, CPU, peak RSS) appended to all;
# IN (csv or bin) is the input, whose cat and calc the row is compared with
run() {
	name=$1; in=$2; shift 2
	# Each run writes afresh (no old output to remove) and after the
	# last one's writes reached the disk (writeback would compete with
	# this run's own writes).
	rm -rf "$DIR/out.wfb" "$DIR/out.csv" "$DIR/filtered" "$DIR/report"
	sync
	/usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" >/dev/null 2>"$DIR/err" ||
		{ cat "$DIR/err"; exit 1; }
	read -r w u s k <"$DIR/time"
	echo "$name $w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $k $in" >>"$DIR/all"
}

# Every row once, in this order.
round() {
	run cat_csv csv cat "$DIR/datapoints.csv"
	run cat_bin bin cat "$DIR/twin.wfb"
	# The floor of any tool writing the CSV text: the kernel's side alone.
	run write_csv bin sh -c 'cat "$1" >"$2"' sh "$DIR/datapoints.csv" "$DIR/out.csv"
	run calc_bin bin "$B/wultfw" calc "$DIR/twin.wfb"
	run calc_csv csv "$B/wultfw" calc "$DIR/datapoints.csv"
	run csv_to_bin csv "$B/wultfw" convert "$DIR/datapoints.csv" -o "$DIR/out.wfb"
	run bin_to_csv bin "$B/wultfw" convert "$DIR/twin.wfb" -o "$DIR/out.csv"
	run bin_to_bin bin "$B/wultfw" convert "$DIR/twin.wfb" -o "$DIR/out.wfb"
	run filter_csv csv "$B/wultfw" filter "$DIR/datapoints.csv" -o "$DIR/filtered"
	# A quarter of the rows, scattered over every block.
	run filter_csv_c6 csv "$B/wultfw" filter "$DIR/datapoints.csv" -o "$DIR/filtered" \
		--include 'ReqCState == "C6"'
	# A binary input gives a binary result; --to csv prints it (as bin_to_csv).
	run filter_bin bin "$B/wultfw" filter "$DIR/twin.wfb" -o "$DIR/filtered"
	run filter_bin_c6 bin "$B/wultfw" filter "$DIR/twin.wfb" -o "$DIR/filtered" \
		--include 'ReqCState == "C6"'
	run filter_bin_csv bin "$B/wultfw" filter "$DIR/twin.wfb" -o "$DIR/filtered" --to csv
	run report_csv csv "$B/wultfw" report "$DIR/datapoints.csv" -o "$DIR/report"
	run report_bin bin "$B/wultfw" report "$DIR/twin.wfb" -o "$DIR/report"
}

# Three rounds of every row, interleaved, so that a slow minute of this
# shared machine falls on every row alike; each row's best run (by wall).
: >"$DIR/all"
cat "$DIR/datapoints.csv" "$DIR/twin.wfb" >/dev/null	# page cache hot
for i in 1 2 3; do round; done
awk '!($1 in w) || $2 < w[$1] { if (!($1 in w)) o[++n] = $1; w[$1] = $2; l[$1] = $0 }
	END { for (i = 1; i <= n; i++) print l[o[i]] }' "$DIR/all" >"$DIR/results"
if [ "$PANDAS" != --no-pandas ]; then
	/usr/bin/time -f "%e %U %S %M" -o "$DIR/time" \
		/usr/bin/python3 "$SRC/bench_calc.py" "$DIR/datapoints.csv" >/dev/null
	read -r w u s k <"$DIR/time"
	echo "pandas_csv $w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $k csv" >>"$DIR/results"
fi

awk -v rows="$ROWS" '
	{ n[++k] = $1; w[$1] = $2; c[$1] = $3; m[$1] = $4; src[$1] = $5 }
	END {
		printf "%-11s %8s %8s %9s %9s %9s %9s\n", "what", "wall s", "CPU s",
			"peak MiB", "vs cat", "vs calc", "vs pandas"
		for (i = 1; i <= k; i++) {
			x = n[i]
			cat = w["cat_" src[x]]
			calc = w["calc_" src[x]]
			printf "%-11s %8.3f %8.3f %9.1f %8.2fx %8.2fx", x, w[x], c[x],
				m[x] / 1024, (cat > 0 ? w[x] / cat : 0), (calc > 0 ? w[x] / calc : 0)
			if ("pandas_csv" in w && w[x] > 0)
				printf " %8.1fx", w["pandas_csv"] / w[x]
			printf "\n"
		}
	}' "$DIR/results"
cat "$DIR/results" | sed "s/^/raw: /"
echo "targets: binary <= 0.5 of the CSV; calc_bin ~1.5x cat_bin and >= 100x pandas;"
echo "         convert, filter, report within 1.5x of calc on the same input (vs calc column)"
