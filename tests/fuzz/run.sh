#!/bin/sh
# Run each libFuzzer target of a 'make fuzz' build for SECONDS: seed its
# corpus from examples/, tests/data and tests/fuzz/seed-* (the
# expressions: tests/fuzz/seed-expr only; info.yml: tests/data's and
# tests/fuzz/seed-infoyml), then fuzz. Any crash, leak outside libconfig
# (tests/fuzz/lsan.supp) or input slower than 10 s fails; the input that
# did it is kept as BUILDDIR/fuzz-out/crash-TARGET-*.
# Two at once where there are 2 CPUs (FUZZ_JOBS).
# Usage: run.sh BUILDDIR SRCDIR SECONDS [TARGET...] (default: all of them)
set -u
build=${1:?usage: run.sh BUILDDIR SRCDIR SECONDS}
src=${2:?usage: run.sh BUILDDIR SRCDIR SECONDS}
secs=${3:?usage: run.sh BUILDDIR SRCDIR SECONDS}
shift 3
targets=${*:-fuzz_csv fuzz_binary fuzz_expr fuzz_experiment fuzz_state fuzz_values fuzz_infoyml fuzz_inventory}
out=$build/fuzz-out
export LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# seed TARGET: the seed files of TARGET, one path a line.
seed() {
	case $1 in
	fuzz_csv) find "$src/examples" "$src/tests/data" "$src/tests/fuzz/seed-csv" -name '*.csv' ;;
	fuzz_binary) find "$src/examples" "$src/tests/data" "$src/tests/fuzz/seed-binary" -name '*.wfb' ;;
	fuzz_expr) find "$src/tests/fuzz/seed-expr" -type f ;;
	fuzz_experiment) find "$src/examples" "$src/tests/data" "$src/tests/fuzz/seed-experiment" -name '*.cfg' ;;
	fuzz_state) find "$src/tests/fuzz/seed-state" -type f ;;
	fuzz_values) find "$src/tests/data" "$src/tests/fuzz/seed-csv" "$src/tests/fuzz/seed-values" -name '*.csv' ;;
	fuzz_infoyml) find "$src/tests/data" -name info.yml; find "$src/tests/fuzz/seed-infoyml" -type f ;;
	fuzz_inventory) find "$src/tests/fuzz/seed-inventory" -type f ;;
	esac
}

# fuzz TARGET: seed its corpus, fuzz it, and write its PASS or FAIL lines
# to fuzz-out/TARGET.result.
fuzz() {
	t=$1
	corpus=$out/corpus-$t
	mkdir -p "$corpus"
	# Named after their path: tests/data has several datapoints.csv.
	seed "$t" | while read -r f; do
		cp "$f" "$corpus/$(echo "${f#"$src"/}" | tr / _)"
	done
	log=$out/$t.log
	if "$build/tests/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$out/crash-$t-" \
		"$corpus" >"$log" 2>&1; then
		echo "PASS: $t ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | sed 's/.*: //') runs in $secs s)"
	else
		echo "FAIL: $t: see $log; the input is $(ls "$out"/crash-"$t"-* 2>/dev/null | head -1)"
		grep -m1 -A12 'ERROR:\|runtime error' "$log" | sed 's/^/    /'
	fi >"$out/$t.result"
}

# FUZZ_JOBS targets at once (default: one a CPU, at most 2): each fuzzer
# is one process on one CPU, so two at once halve the step's time.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
[ "$jobs" -le 2 ] || jobs=2
mkdir -p "$out"
set -- $targets
while [ $# -gt 0 ]; do
	n=0
	while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
		fuzz "$1" &
		shift
		n=$((n + 1))
	done
	wait
done
fail=0
for t in $targets; do
	cat "$out/$t.result"
	grep -q '^PASS: ' "$out/$t.result" || fail=1
done
exit $fail
