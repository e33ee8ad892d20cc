#!/bin/sh
# Benchmark `wultfw calc` on a 10-million-row datapoints.csv and on its
# binary twin against the same statistics computed with pandas (read_csv +
# quantile), in the same run. Prints wall time and peak memory of each.
# Usage: bench_calc.sh BUILDDIR [ROWS]   (needs /usr/bin/time, python3-pandas)
set -e
B=${1:?usage: bench_calc.sh BUILDDIR [ROWS]}
ROWS=${2:-10000000}
SRC=$(dirname "$0")
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-calc.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

# `wultfw calc` once the sub-command is wired into main.c, else the driver.
if "$B/wultfw" calc --help >/dev/null 2>&1; then
	CALC="$B/wultfw calc"
else
	CALC="$B/tests/bench/calc_driver"
fi

echo "generating $ROWS rows (csv + binary twin) in $DIR ..."
"$B/tests/bench/gen_datapoints" "$ROWS" "$DIR"
ls -l "$DIR"

# run NAME CMD...: wall seconds and peak RSS (KiB) via /usr/bin/time
run() {
	name=$1; shift
	sync
	/usr/bin/time -f "%e %M" -o "$DIR/time.$name" "$@" >"$DIR/out.$name"
	read -r secs kib <"$DIR/time.$name"
	echo "$name $secs $kib" >>"$DIR/results"
}

: >"$DIR/results"
run pandas_csv /usr/bin/python3 "$SRC/bench_calc.py" "$DIR/datapoints.csv"
run calc_csv $CALC "$DIR/datapoints.csv"
run calc_bin $CALC "$DIR/datapoints.wfb"

awk -v rows="$ROWS" '
	{ t[$1] = $2; m[$1] = $3 }
	END {
		printf "%-12s %10s %12s %10s %10s\n", "tool", "seconds", "rows/s", "peak MiB", "vs pandas"
		n = split("pandas_csv calc_csv calc_bin", k, " ")
		for (i = 1; i <= n; i++)
			printf "%-12s %10.2f %12.0f %10.1f %9.1fx\n", k[i], t[k[i]],
				rows / t[k[i]], m[k[i]] / 1024, t["pandas_csv"] / t[k[i]]
	}' "$DIR/results"
echo "targets: calc_csv >= 2x pandas, calc_bin >= 10x pandas"
echo "--- wultfw calc (csv) ---"
cat "$DIR/out.calc_csv" | head -30
echo "--- pandas ---"
cat "$DIR/out.pandas_csv"
