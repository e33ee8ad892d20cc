#!/bin/sh
# Compare `wultfw calc` with `cat` and with what users would otherwise
# reach for (pandas; DuckDB and Polars as Python modules or npm packages)
# on the same datapoints.csv, each asked the same statistics of the same
# column: count, min, median, p99, p99.9, max, of all rows and per C-state.
# Runs alternate (every tool once per round, rounds repeated) and ratios
# are taken inside a round, so a machine whose speed drifts still gives
# meaningful ones. See --help.
set -u

me=bench_compare.sh
usage() {
	cat <<EOF
Usage: $me [OPTION]...
Time wultfw calc against cat, pandas, DuckDB and Polars (those installed)
on one wult-format datapoints.csv and its binary twin, in alternating
rounds, and print wall and CPU seconds, peak memory, the ratios to
wultfw calc taken inside each round (their median), the load average and
the machine. Each tool computes count, min, median, p99, p99.9 and max of
one column, over all rows and per C-state; the first round's answers are
printed so that they can be compared.

  -b, --build DIR      a wultfw build tree: its wultfw and
                       tests/bench/gen_datapoints (default: .)
  -w, --wultfw PATH    the wultfw to time (default: DIR/wultfw, else the
                       one in PATH)
  -f, --file CSV       time this datapoints.csv (its binary twin is made
                       with wultfw convert) instead of generated rows
  -n, --rows N         rows to generate (default 1000000; needs
                       gen_datapoints: make -C DIR tests/bench/gen_datapoints)
  -r, --rounds N       rounds (default 3)
  -m, --metric COL     the column (default WakeLatency)
  -t, --timeout S      bound on each run, in seconds (default 600)
      --node-path DIR  node_modules holding @duckdb/node-api and
                       nodejs-polars (default: \$NODE_PATH, then
                       ./node_modules)
      --only LIST      tools, comma-separated, of: cat, wultfw, pandas,
                       duckdb, polars, duckdb-node, polars-node
  -h, --help           this help

Files go to \${TMPDIR:-/tmp} (deleted after); the page cache is warmed
first. Needs /usr/bin/time. Tools not installed are named and skipped.
EOF
}

build=. wultfw= file= rows=1000000 rounds=3 metric=WakeLatency tmo=600
node_path=${NODE_PATH:-./node_modules} only=
while [ $# -gt 0 ]; do
	case $1 in
	-b|--build) build=${2:?}; shift ;;
	-w|--wultfw) wultfw=${2:?}; shift ;;
	-f|--file) file=${2:?}; shift ;;
	-n|--rows) rows=${2:?}; shift ;;
	-r|--rounds) rounds=${2:?}; shift ;;
	-m|--metric) metric=${2:?}; shift ;;
	-t|--timeout) tmo=${2:?}; shift ;;
	--node-path) node_path=${2:?}; shift ;;
	--only) only=${2:?}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$me: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
for n in "$rows" "$rounds" "$tmo"; do
	case $n in ''|*[!0-9]*|0) echo "$me: '$n': give a positive whole number" >&2; exit 2 ;; esac
done
[ -x /usr/bin/time ] || { echo "$me: /usr/bin/time is missing (Debian package time)" >&2; exit 1; }
if [ -z "$wultfw" ]; then
	wultfw=$build/wultfw
	[ -x "$wultfw" ] || wultfw=$(command -v wultfw) ||
		{ echo "$me: no wultfw in $build or PATH: give --wultfw" >&2; exit 1; }
fi
src=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-compare.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

if [ -n "$file" ]; then
	[ -r "$file" ] || { echo "$me: $file: cannot read it" >&2; exit 1; }
	ln -s "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")" "$dir/datapoints.csv"
	timeout "$tmo" "$wultfw" convert "$file" -o "$dir/datapoints.wfb" >/dev/null 2>&1 ||
		{ echo "$me: $file: wultfw convert to binary failed" >&2; exit 1; }
else
	gen=$build/tests/bench/gen_datapoints
	[ -x "$gen" ] || { echo "$me: no $gen: make -C $build tests/bench/gen_datapoints, or give --file" >&2; exit 1; }
	echo "generating $rows rows (CSV and binary twin) in $dir ..."
	"$gen" "$rows" "$dir" >/dev/null || exit 1
fi
csv=$dir/datapoints.csv wfb=$dir/datapoints.wfb

# Which tools are here: NAME and the command, one a line, tab between.
want() { [ -z "$only" ] || case ",$only," in *",$1,"*) true ;; *) false ;; esac; }
py_has() { /usr/bin/python3 -c "import $1" 2>/dev/null; }
node_has() { command -v node >/dev/null && NODE_PATH=$node_path node -e "require('$1')" 2>/dev/null; }
calc="$wultfw calc -c -m $metric -f count,min,median,p99,p99.9,max --format csv"
: >"$dir/tools"
add() { want "$1" && printf '%s\t%s\n' "$2" "$3" >>"$dir/tools"; }
missing() { want "$1" && echo "$me: $1: not installed ($2), skipped" >&2; }
add cat cat_csv "cat $csv"
add cat cat_wfb "cat $wfb"
add wultfw wultfw_csv "$calc $csv"
add wultfw wultfw_wfb "$calc $wfb"
for t in pandas duckdb polars; do
	if py_has $t; then
		add $t $t "/usr/bin/python3 $src/bench_compare.py $t $csv $metric"
	else
		missing $t "python3 module $t"
	fi
done
for t in duckdb polars; do
	pkg=$([ $t = duckdb ] && echo @duckdb/node-api || echo nodejs-polars)
	if node_has $pkg; then
		add $t-node $t-node "node $src/bench_compare_node.js $t $csv $metric"
	else
		missing $t-node "npm package $pkg under --node-path $node_path"
	fi
done

machine() {
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	virt=$(systemd-detect-virt --vm 2>/dev/null || echo none)
	idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)
	echo "machine: ${model:-unknown CPU}, $(nproc) CPUs, $(uname -r), VM $virt, cpuidle $idle"
}
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
machine
echo "files: $(wc -l <"$csv") lines, CSV $(du -Lh "$csv" | cut -f1), binary $(du -h "$wfb" | cut -f1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
sync
cat "$csv" "$wfb" >/dev/null	# the page cache hot

# run ROUND NAME CMD: one timed run; "ROUND NAME wall cpu peakKiB" appended.
run() {
	r=$1 name=$2; shift 2
	# cat's bytes to /dev/null: writing them to a file made it 4-5x slower.
	out=$dir/out.$name
	case $name in cat_*) out=/dev/null ;; esac
	NODE_PATH=$node_path /usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
		timeout "$tmo" "$@" >"$out" 2>"$dir/err.$name"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "$me: $name failed (exit $rc$([ $rc = 124 ] && echo ": over --timeout $tmo s")):" >&2
		tail -n 3 "$dir/err.$name" >&2
		return
	fi
	tail -n 1 "$dir/time" | awk -v r="$r" -v n="$name" \
		'{ printf "%s %s %s %.2f %s\n", r, n, $1, $2 + $3, $4 }' >>"$dir/times"
	[ "$r" = 1 ] && [ "$out" != /dev/null ] && cp "$out" "$dir/answer.$name"
}
: >"$dir/times"
i=1
while [ $i -le "$rounds" ]; do
	while IFS='	' read -r name cmd; do
		# shellcheck disable=SC2086 # cmd is words
		run $i "$name" $cmd
	done <"$dir/tools"
	i=$((i + 1))
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

# The first round's answers, "all" rows first, for comparing by eye.
echo
echo "answers (round 1; group count min median p99 p99.9 max; wultfw's ~: from its"
echo "histogram, within the relative error calc --help states):"
for f in "$dir"/answer.*; do
	[ -e "$f" ] || continue
	name=${f##*answer.}
	case $name in cat_*) continue ;; esac
	case $name in
	wultfw_*)	# calc's CSV: Metric,Unit,group,count,min,...
		awk -F, 'NR > 1 { printf "%s", $3; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }' "$f" ;;
	*) cat "$f" ;;
	esac | sed "s/^/  $name: /"
done

echo
awk -v rounds="$rounds" '
# A time below /usr/bin/time'"'"'s 10 ms reads 0: count it as 10 ms (as
# bench_calc.sh does), so a small file still gives ratios, understated.
function tick(s) { if (s > 0) return s; floored = 1; return 0.01 }
function median(list,   n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
	wall[$1, $2] = $3; cpu[$1, $2] = $4
	w[$2] = w[$2] " " $3; c[$2] = c[$2] " " $4; m[$2] = m[$2] " " $5
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
}
END {
	printf "%-12s %8s %8s %9s %13s %13s\n", "tool", "wall s", "CPU s", "peak MiB", "wall/wultfw", "CPU/wultfw"
	for (k = 1; k <= n; k++) {
		t = order[k]; rw = rc = ""
		for (r = 1; r <= rounds; r++)
			if ((r, t) in wall && (r, "wultfw_csv") in wall) {
				rw = rw " " wall[r, t] / tick(wall[r, "wultfw_csv"])
				rc = rc " " cpu[r, t] / tick(cpu[r, "wultfw_csv"])
			}
		printf "%-12s %8.2f %8.2f %9.1f %12.2fx %12.2fx\n", t, median(w[t]), median(c[t]),
			median(m[t]) / 1024, rw == "" ? 0 : median(rw), rc == "" ? 0 : median(rc)
		if (rw != "")
			res = res sprintf(" %s_wall=%.2f %s_cpu=%.2f", t, median(rw), t, median(rc))
	}
	print "(medians over the rounds; ratios taken inside each round, then their median;"
	print " a ratio below 1 is faster than wultfw calc on the CSV)"
	if (floored)
		print "(wultfw took under 10 ms, what /usr/bin/time resolves: ratios against 10 ms, understated)"
	# One line for scripts (bench_read.sh): each tool against wultfw calc of the CSV.
	printf "result: bench_compare rounds=%d%s\n", rounds, res
}' "$dir/times"
