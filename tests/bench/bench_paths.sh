#!/bin/sh
# Issue 32's goals for calc's other paths, as ratios to plain calc of the
# same file: `calc -c` and `calc --include` within 1.10x on the CSV and on
# its binary twin, and `convert FILE.wfb -o OUT.csv` within 1.5x of calc
# on FILE.wfb; `report` of each file within 1.5x of calc of it. Also what convert's own work costs (OUT /dev/null) and the
# kernel's share (cat of the CSV into a new file). CPU seconds (user +
# system) and wall seconds per run; every round runs each row once, each
# row's ratio is taken within its round and the median of the rounds is
# printed, with the load average at the start and the end: a shared
# machine makes single runs minutes apart useless.
# Usage: bench_paths.sh BUILDDIR [ROWS] [ROUNDS]   (needs /usr/bin/time)
#        or make bench-paths [BENCH_ROWS=N]
set -e
B=${1:?usage: bench_paths.sh BUILDDIR [ROWS] [ROUNDS]}
ROWS=${2:-3000000}
ROUNDS=${3:-5}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-paths.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
W="$B/wultfw"

echo "generating $ROWS rows in $DIR ..."
"$B/tests/bench/gen_datapoints" "$ROWS" "$DIR" >/dev/null
"$W" convert "$DIR/datapoints.csv" -o "$DIR/twin.wfb" >/dev/null 2>&1
sync	# the new files written back first
cat "$DIR/datapoints.csv" "$DIR/twin.wfb" >/dev/null	# page cache hot

# run ROUND NAME CMD...: one timed run; the output file is new every time
run() {
	round=$1 name=$2; shift 2
	rm -rf "$DIR/out.csv" "$DIR/report"
	/usr/bin/time -f "%e %U %S" -o "$DIR/time" "$@" >/dev/null 2>"$DIR/err" ||
		{ cat "$DIR/err" >&2; exit 1; }
	read -r w u s <"$DIR/time"
	echo "$round $name $w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" >>"$DIR/all"
}

csv="$DIR/datapoints.csv" bin="$DIR/twin.wfb"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$DIR/all"
for i in $(seq "$ROUNDS"); do
	run "$i" calc_csv "$W" calc "$csv"
	run "$i" c_csv "$W" calc -c "$csv"
	run "$i" include_csv "$W" calc --include 'WakeLatency > 0' "$csv"
	run "$i" calc_bin "$W" calc "$bin"
	run "$i" c_bin "$W" calc -c "$bin"
	run "$i" include_bin "$W" calc --include 'WakeLatency > 0' "$bin"
	run "$i" convert_bin "$W" convert "$bin" -o "$DIR/out.csv"
	run "$i" convert_null "$W" convert "$bin" -o /dev/null --to csv --force
	run "$i" report_csv "$W" report "$csv" -o "$DIR/report"
	run "$i" report_bin "$W" report "$bin" -o "$DIR/report"
	run "$i" write_csv sh -c 'cat "$1" >"$2"' sh "$csv" "$DIR/out.csv"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, kernel $(uname -r)"
echo "rows: $ROWS, rounds: $ROUNDS, load average at start $load0, at end $load1"
awk -v rows="$ROWS" '
	{ w[$1, $2] = $3; c[$1, $2] = $4; if (!($2 in seen)) { seen[$2] = 1; o[++n] = $2 }
	  if ($1 > r) r = $1 }
	function base(x) { return x ~ /_csv$/ && x != "write_csv" ? "calc_csv" : "calc_bin" }
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	function goal(x) {
		if (x ~ /^(c|include)_/) return 1.10
		if (x == "convert_bin" || x ~ /^report_/) return 1.5
		return 0
	}
	END {
		printf "%-13s %8s %8s %10s %10s  %s\n", "what", "CPU s", "wall s", "CPU ratio", "wall ratio", "goal"
		for (i = 1; i <= n; i++) {
			x = o[i]; b = base(x)
			for (k = 1; k <= r; k++) {
				cc[k] = c[k, x]; ww[k] = w[k, x]
				rc[k] = c[k, b] > 0 ? c[k, x] / c[k, b] : 0
				rw[k] = w[k, b] > 0 ? w[k, x] / w[k, b] : 0
			}
			mc = median(cc, r); mw = median(ww, r); q = median(rc, r); qw = median(rw, r)
			g = goal(x)
			verdict = ""
			if (g > 0 && q <= g)
				verdict = sprintf("<= %.2fx: met", g)
			else if (g > 0)
				verdict = sprintf("<= %.2fx: missed by %.2f", g, q - g)
			printf "%-13s %8.3f %8.3f %9.2fx %9.2fx  %s\n", x, mc, mw, q, qw, verdict
			if (g > 0)
				res = res sprintf(" %s=%.2f %s_wall=%.2f", x, q, x, qw)
		}
		print "ratios: each row against plain calc of the same file (write_csv, convert: the binary file), medians of the rounds"
		# One line for scripts (bench_read.sh): the CPU ratios the goals judge, and the wall ones.
		printf "result: bench_paths rows=%d rounds=%d%s\n", rows, r, res
	}' "$DIR/all"
