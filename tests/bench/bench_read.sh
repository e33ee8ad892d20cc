#!/bin/sh
# Issue 32's whole comparison in one run: the benchmark scripts beside this
# one, each as it is (bench_calc.sh, bench_groupby.sh twice, bench_paths.sh,
# bench_compare.sh), then one table of the issue's goals built from the
# "result:" line each of them ends with. See --help.
set -u

me=bench_read.sh
usage() {
	cat <<EOF
Usage: $me [OPTION]...
Repeat issue 32's comparison ("Reading at the speed of memory") on this
machine: wultfw calc against cat (bench_calc.sh, 10 M rows), calc -g
against pandas (bench_groupby.sh, 100 000 groups of 1 M rows, then 1 M
groups of 2 M rows under --mem-limit without pandas), calc -c, --include,
convert and report against plain calc (bench_paths.sh, 3 M rows), and
calc against pandas, DuckDB and Polars where installed (bench_compare.sh,
1 M rows).
Each prints its own tables; the end is one table of the goals: what was
measured, met or "MISSED by N x", and where doc/benchmarks.md says why.

  -b, --build DIR      a wultfw build tree: its wultfw and
                       tests/bench/gen_datapoints (default: .)
      --group-limit SIZE  --mem-limit of the 1 M-group run (default 512M)
      --quick          small files (a smoke run of a minute; its figures
                       judge nothing)
  -h, --help           this help

Files go to \${TMPDIR:-/tmp} (deleted after), page cache hot. Needs
/usr/bin/time; python3-pandas for the pandas rows (without it they are
left out, and said so). Other work on the machine slows wall times:
read the load average printed at the start and the end.
EOF
}

build=. quick=0 glimit=512M
while [ $# -gt 0 ]; do
	case $1 in
	-b|--build) build=${2:?}; shift ;;
	--group-limit) glimit=${2:?}; shift ;;
	--quick) quick=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$me: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$build/wultfw" ] || { echo "$me: no $build/wultfw: build it, or give --build DIR" >&2; exit 1; }
[ -x "$build/tests/bench/gen_datapoints" ] ||
	{ echo "$me: no $build/tests/bench/gen_datapoints: make -C $build tests/bench/gen_datapoints" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "$me: /usr/bin/time is missing (Debian package time)" >&2; exit 1; }
src=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-read.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# Sizes: the issue's, or a smoke run's.
if [ $quick = 1 ]; then
	rows=20000 groups=1000 grows=10000 mgroups=20000 mrows=40000 glimit=64M
	prows=20000 rounds=1 crows=20000 crounds=1 big=0
else
	rows=10000000 groups=100000 grows=1000000 mgroups=1000000 mrows=2000000
	prows=3000000 rounds=5 crows=1000000 crounds=3 big=${BIG_GROUPS:-1000}
fi

machine() {
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)
	echo "machine: ${model:-unknown CPU}, $(nproc) vCPUs, kernel $(uname -r), cpuidle $idle"
}
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
machine
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average at the start: $load0"
[ $quick = 0 ] || echo "--quick: small files, a smoke run; the verdicts below judge nothing"

# piece NAME CMD...: run it, its output shown and kept; its result line
# goes to $dir/results as "NAME key=value ...", a failure is said.
piece() {
	name=$1; shift
	echo
	echo "== $name: $* =="
	{ "$@"; echo $? >"$dir/rc.$name"; } 2>&1 | tee "$dir/log.$name"
	rc=$(cat "$dir/rc.$name")
	[ "$rc" = 0 ] || echo "$me: $name failed (exit $rc): its goals only as far as its result line" >&2
	sed -n "s/^result: [^ ]*/$name/p" "$dir/log.$name" >>"$dir/results"
}
: >"$dir/results"
piece calc sh "$src/bench_calc.sh" "$build" $rows
piece groups env BIG_GROUPS=$big MILLION_ROWS=0 sh "$src/bench_groupby.sh" "$build" $groups $grows
piece mgroups env BIG_GROUPS=0 GROUPBY_PANDAS=0 MILLION_ROWS=0 sh "$src/bench_groupby.sh" "$build" $mgroups $mrows "$glimit"
piece paths sh "$src/bench_paths.sh" "$build" $prows $rounds
piece compare sh "$src/bench_compare.sh" --build "$build" --rows $crows --rounds $crounds

echo
echo "== issue 32's goals =="
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
machine
echo "load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ $quick = 0 ] || echo "--quick: small files, a smoke run; the verdicts below judge nothing"
awk -f "$src/bench_read_goals.awk" -v quick=$quick -v groups=$groups -v mgroups=$mgroups \
	-v glimit="$glimit" "$dir/results"
