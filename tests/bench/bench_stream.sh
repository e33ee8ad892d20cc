#!/bin/sh
# Streaming (issue 14): peak RSS of wultfw calc (-j 2 and -j 1), convert
# both ways, filter and report on SMALL and BIG rows of gen_datapoints'
# 14 wult columns (default 10 M and 100 M: a 3.2 GB binary file, an 8 GB
# CSV). Target: at most 64 MiB on both, and no growth from SMALL to BIG
# (BIG at most 10% + 2 MiB above SMALL). Then calc on the BIG files with
# their pages evicted first (read from the disk), and, where there is a
# cgroup v2 memory controller, inside a cgroup whose memory.max is far
# below the file size (the page cache must be reclaimed while reading: a
# file larger than the memory it may use); both must print what the hot
# run printed. Files in ${TMPDIR:-/tmp} (a disk here), deleted at the end.
# Usage: bench_stream.sh BUILDDIR [BIG_ROWS] [SMALL_ROWS]   (root for the cgroup)
set -e
B=${1:?usage: bench_stream.sh BUILDDIR [BIG_ROWS] [SMALL_ROWS]}
BIG=${2:-100000000}
SMALL=${3:-10000000}
LIMIT_KIB=65536
CG_MAX=256M
W=$B/wultfw
T=${TMPDIR:-/tmp}

# Room: CSV (80 B a row), binary (32 B) of both sizes, one CSV-sized output.
need=$(awk -v b="$BIG" -v s="$SMALL" 'BEGIN { printf "%.0f", (b + s) * (80 + 32 + 80) * 1.05 / 1024 }')
have=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
if [ "$have" -lt "$need" ]; then
	echo "bench_stream.sh: $T has $((have / 1048576)) GiB free, $BIG + $SMALL rows need $((need / 1048576 + 1)) GiB (CSV, binary twin, one converted copy): set TMPDIR to a larger disk or give fewer rows" >&2
	exit 1
fi
DIR=$(mktemp -d "$T/wfw-bench-stream.XXXXXX")
CG=
cleanup() {
	rm -rf "$DIR"
	[ -z "$CG" ] || rmdir "$CG" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for n in "$SMALL" "$BIG"; do
	echo "generating $n rows (CSV + binary twin, nice -n 10) in $DIR/$n ..."
	mkdir "$DIR/$n"
	nice -n 10 "$B/tests/bench/gen_datapoints" "$n" "$DIR/$n" >/dev/null
done
ls -l "$DIR/$SMALL" "$DIR/$BIG"

# run NAME ROWS CMD...: wall s, CPU s, peak RSS KiB into results; the
# output in out.NAME.ROWS; what the tool wrote removed.
run() {
	name=$1 n=$2; shift 2
	if ! /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" \
	     >"$DIR/out.$name.$n" 2>"$DIR/err.$name.$n"; then
		echo "$name on $n rows failed:" >&2
		cat "$DIR/err.$name.$n" >&2
		exit 1
	fi
	read -r w u s k <"$DIR/time"
	echo "$name $n $w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $k" >>"$DIR/results"
	rm -rf "$DIR/o.wfb" "$DIR/o.csv" "$DIR/o.d"
}

# tool NAME ARGS...: on SMALL, then on BIG unless SMALL is over the limit
# already (report keeps its plot data: 10x the rows would need 10x).
tool() {
	name=$1; shift
	for n in "$SMALL" "$BIG"; do
		f=$(echo "$*" | sed "s|@|$DIR/$n/datapoints|g")
		# shellcheck disable=SC2086
		run "$name" "$n" $f
		kib=$(awk -v x="$name" -v n="$n" '$1 == x && $2 == n { print $5 }' "$DIR/results")
		if [ "$kib" -gt "$LIMIT_KIB" ] && [ "$n" = "$SMALL" ]; then
			echo "$name $BIG skipped" >>"$DIR/results"
			break
		fi
	done
}

: >"$DIR/results"
tool calc_csv_j2 "$W" calc -j 2 @.csv
tool calc_csv_j1 "$W" calc -j 1 @.csv
tool calc_bin_j2 "$W" calc -j 2 @.wfb
tool calc_bin_j1 "$W" calc -j 1 @.wfb
tool csv_to_bin "$W" convert @.csv -o "$DIR/o.wfb"
tool bin_to_csv "$W" convert @.wfb -o "$DIR/o.csv"
tool filter_csv "$W" filter @.csv -o "$DIR/o.d"
tool filter_bin "$W" filter @.wfb -o "$DIR/o.d"
tool report_bin "$W" report @.wfb -o "$DIR/o.d"

awk -v small="$SMALL" -v big="$BIG" -v lim="$LIMIT_KIB" '
	$3 == "skipped" { skip[$1] = 1; next }
	!($1 in seen) { seen[$1] = 1; k[++n] = $1 }
	{ w[$1, $2] = $3; c[$1, $2] = $4; m[$1, $2] = $5 }
	END {
		printf "%-12s %27s %27s  %s\n", "", small " rows", big " rows", "target: <= 64 MiB, no growth"
		printf "%-12s %8s %8s %9s %8s %8s %9s\n", "what", "wall s", "CPU s", "peak MiB",
			"wall s", "CPU s", "peak MiB"
		for (i = 1; i <= n; i++) {
			x = k[i]
			printf "%-12s %8.2f %8.2f %9.1f ", x, w[x, small], c[x, small], m[x, small] / 1024
			if (x in skip) {
				printf "%8s %8s %9s  MISSED: over the limit at %d rows, %d not run\n",
					"-", "-", "-", small, big
				continue
			}
			s = m[x, small]; b = m[x, big]
			printf "%8.2f %8.2f %9.1f  ", w[x, big], c[x, big], b / 1024
			v = b <= lim && s <= lim ? "ok" : "MISSED"
			g = b <= s * 1.1 + 2048 ? "ok" : "MISSED"
			printf "limit %s, growth %+.1f MiB %s\n", v, (b - s) / 1024, g
		}
	}' "$DIR/results"

# same A B: whether two runs printed the same
same() {
	if cmp -s "$DIR/$1" "$DIR/$2"; then echo "identical"; else echo "DIFFERENT"; fi
}
echo "calc output, $BIG rows: -j 1 vs -j 2 on the CSV: $(same out.calc_csv_j1.$BIG out.calc_csv_j2.$BIG);" \
	"binary vs CSV: $(same out.calc_bin_j2.$BIG out.calc_csv_j2.$BIG)"

# evict FILE: its pages out of the page cache (clean pages: dropped).
evict() {
	dd if="$1" iflag=nocache count=0 status=none
}

# Read from the disk: the page cache is filled while calc runs.
for x in csv bin; do
	f=$DIR/$BIG/datapoints.$(test $x = csv && echo csv || echo wfb)
	evict "$f"
	run cold_$x "$BIG" "$W" calc -j 2 "$f"
	set -- $(tail -n 1 "$DIR/results")
	echo "calc -j 2 on the $BIG-row $x file, its pages evicted first: $3 s wall, $4 s CPU," \
		"peak $(($5 / 1024)) MiB; output vs the hot run: $(same out.cold_$x.$BIG out.calc_${x}_j2.$BIG)"
done

# Larger than the memory it may use: calc in a cgroup v2 whose memory.max
# (page cache included) is far below the file, its pages evicted first.
cgroot=/sys/fs/cgroup
# cg_calc KIND FILE: that run in a new cgroup, removed afterwards.
cg_calc() {
	CG=$cgroot/wfwbench
	if ! mkdir "$CG" 2>/dev/null; then
		CG=
		echo "larger than memory: skipped, cannot create $cgroot/wfwbench (needs root, or it exists)"
		return
	fi
	echo "$CG_MAX" >"$CG/memory.max"
	echo 0 >"$CG/memory.swap.max" 2>/dev/null || true
	evict "$2"
	# The shell moves itself in, then becomes the measured calc.
	run cgroup_$1 "$BIG" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$CG" "$W" calc -j 2 "$2"
	set -- "$1" "$2" $(tail -n 1 "$DIR/results")
	echo "calc -j 2 on the $BIG-row $1 file ($(($(stat -c %s "$2") >> 20)) MiB) in a cgroup with" \
		"memory.max $CG_MAX: $5 s wall, peak RSS $(($7 / 1024)) MiB, cgroup memory.peak" \
		"$(($(cat "$CG/memory.peak" 2>/dev/null || echo 0) >> 20)) MiB," \
		"$(awk '$1 == "max" { print $2 }' "$CG/memory.events") times at memory.max," \
		"$(awk '$1 == "oom_kill" { print $2 }' "$CG/memory.events") OOM kills;" \
		"output vs the hot run: $(same out.cgroup_$1.$BIG out.calc_$1_j2.$BIG)"
	rmdir "$CG"
	CG=
}
if ! grep -qw memory "$cgroot/cgroup.controllers" 2>/dev/null; then
	echo "larger than memory: skipped, no cgroup v2 memory controller in $cgroot (cgroup v1 or hybrid here)"
else
	grep -qw memory "$cgroot/cgroup.subtree_control" ||
		echo +memory >"$cgroot/cgroup.subtree_control"
	cg_calc bin "$DIR/$BIG/datapoints.wfb"
	cg_calc csv "$DIR/$BIG/datapoints.csv"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
