#!/bin/sh
# bench_read.sh --quick (make bench-read on small files): every piece runs,
# and the goal table has each goal of issue 32 with a verdict and a "why"
# line naming a section doc/benchmarks.md has. The figures mean nothing at
# this size; this keeps the script and the pieces' result lines in step.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1
S=$srcdir/tests/bench/bench_read.sh

sh "$S" --help >help.out 2>&1
expect_status 0 $? "bench_read.sh --help" help.out
expect_in help.out "Usage: bench_read.sh" "bench_read.sh --help: its usage"
sh "$S" --bogus >bogus.out 2>&1
expect_status 2 $? "bench_read.sh --bogus: a usage error" bogus.out

TMPDIR=$work sh "$S" --build "$top" --quick >read.out 2>&1 &
wait_bounded $! 900
expect_status 0 $? "bench_read.sh --quick" read.out
for l in "^date: 20" "^machine: .* vCPUs, kernel .*, cpuidle " "^load average at the start: .*, at the end: "; do
	grep -q "$l" read.out && ok "the goal table's header: $l" || fail "no line '$l' in read.out"
done
if grep -q "failed (exit" read.out; then
	fail "a piece failed:"; grep "failed (exit" read.out
else
	ok "every piece ran"
fi

# goal LABEL: its row has a verdict, the next line a section of doc/benchmarks.md.
goal() {
	row=$(grep -n -F "$1" read.out | tail -n 1)
	if echo "$row" | grep -Eq ' (met|met \(bench_compare\.sh\)|MISSED by [0-9.]+x|MISSED \(stopped at the limit\))$'; then
		ok "goal '$1': a verdict"
	else
		fail "goal '$1': no verdict in '$row'"; return
	fi
	why=$(sed -n "$((${row%%:*} + 1))p" read.out)
	sect=$(echo "$why" | sed -n 's/^    why: doc\/benchmarks.md, "\([^"]*\)".*/\1/p')
	if [ -n "$sect" ] && grep -q -F "## $sect" "$srcdir/doc/benchmarks.md"; then
		ok "goal '$1': its section '$sect'"
	else
		fail "goal '$1': '$why' names no section of doc/benchmarks.md"
	fi
}
goal "calc of the CSV within 3x cat, 2 CPUs"
goal "calc -j 1 of the CSV within 6x cat"
goal "calc of the binary twin within 1.5x cat"
goal "calc's peak memory under 64 MiB"
goal "groups, under 256 MiB"
goal "calc -g, 1 M groups, within --mem-limit"
goal "calc -c of the CSV within 1.1x calc"
goal "calc -c of the binary within 1.1x calc"
goal "calc --include of the CSV within 1.1x calc"
goal "calc --include of the binary within 1.1x"
goal "convert binary->CSV within 1.5x calc"
goal "report of the CSV within 1.5x calc"
goal "report of the binary within 1.5x calc"
goal "script against cat, pandas, DuckDB, Polars"
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	goal "groups, no slower than pandas"
else
	skip_part "python3-pandas is missing: the pandas rows ran without it, unchecked"
fi
[ "$failures" = 0 ] || { echo "--- bench_read.sh's output, its errors and the table:"; grep -v "^ok\|^  " read.out | tail -n 60; }
finish
