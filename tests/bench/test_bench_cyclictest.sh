#!/bin/sh
# bench_cyclictest.sh (make bench-cyclictest) still runs: its options, and
# two short rounds of cyclictest -a -t against the timer's mode grid on
# every online CPU, then one round on one CPU, then one with --poll.
# Checks the shape of its tables (a row per tool per CPU per round,
# counts, ratios), never the latencies: those are whatever a loaded
# machine gives.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1
B="$abs_top_srcdir/tests/bench/bench_cyclictest.sh"

sh "$B" --help >help.out 2>&1
expect_status 0 $? "--help"
expect_in help.out "Usage: bench_cyclictest.sh" "--help: its usage"
sh "$B" --loops 0 >bad.out 2>&1
expect_status 2 $? "--loops 0 refused"
expect_in bad.out "loops '0' is not a whole number above 0" "--loops 0: says why"
sh "$B" --bogus >bad.out 2>&1
expect_status 2 $? "an unknown option refused"

# bench ROUNDS LOOPS [OPTION]...: the script, bounded, into bench.out.
bench() {
	_r=$1 _l=$2
	shift 2
	TMPDIR=$work sh "$B" --build "$top" -r "$_r" -l "$_l" -i 500 "$@" >bench.out 2>bench.err &
	wait_bounded $! 300
	_rc=$?
	[ $_rc = 0 ] || [ $_rc = 77 ] || sed 's/^/    /' bench.err
	return $_rc
}

# rows CPU TOOL: the rows of that CPU and tool in bench.out.
rows() {
	grep -c "^| #[0-9]* CPU $1 $2" bench.out
}

bench 2 400
rc=$?
if [ $rc = 77 ]; then
	skip_part "$(sed -n 's/.*SKIP: //p' bench.out)"
	finish
fi
online=$(tr ',' '\n' </sys/devices/system/cpu/online | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done)
# cyclictest -l ends all its threads when the first has its loops: on a
# busy machine another CPU's thread may have none yet. The bench says so;
# that run could not compare, and the one-CPU part below still runs.
if [ $rc != 0 ] && grep -q "no values from cyclictest: its thread there took no sample" bench.err; then
	skip_part "every CPU at once: $(grep -o 'round [0-9]* CPU [0-9]*: no values from cyclictest' bench.err | head -1) (its thread was not run before another's loops ended them all: the machine was busy)"
	online=
else
	expect_status 0 $rc "two rounds on every CPU"
fi
for c in $online; do
	[ "$(rows "$c" cyclictest)" = 2 ] && [ "$(rows "$c" 'timer grid')" = 2 ] &&
		[ "$(rows "$c" timer/cyclictest)" = 2 ] &&
		ok "CPU $c: both tools and their ratio in both rounds" ||
		fail "CPU $c: rows missing:$(sed 's/^/    /' bench.out)"
	# The timer makes exactly its limit; cyclictest's -v may leave out
	# the last few samples of a thread that was stopped.
	n=$(grep "^| #1 CPU $c timer grid" bench.out | cut -d'|' -f3 | tr -d ' ')
	[ "$n" = 400 ] && ok "CPU $c: the timer's count is --loops" || fail "CPU $c: timer count '$n'"
	n=$(grep "^| #1 CPU $c cyclictest" bench.out | cut -d'|' -f3 | tr -d ' ')
	[ "${n:-0}" -gt 0 ] && [ "$n" -le 400 ] && ok "CPU $c: cyclictest's count $n is in 1-400" ||
		fail "CPU $c: cyclictest count '$n'"
done
expect_in bench.out "cyclictest -a -t -d0 -m -p90 -i500 -l400" "the cyclictest command line"
expect_in bench.out 'cpu = "all"; mode = "grid"' "the timer's experiment"
if [ -n "$online" ]; then
	expect_in bench.out "Over the rounds: each statistic's median" "the summary over the rounds"
	[ "$(grep -c '^| [0-9]* | timer/cyclictest | 2 |' bench.out)" = "$(echo "$online" | wc -l)" ] &&
		ok "the summary: a ratio row per CPU over 2 rounds" || fail "the summary's ratio rows:$(sed 's/^/    /' bench.out)"
fi

last=$(tr ',' '\n' </sys/devices/system/cpu/online | tail -1 | sed 's/.*-//')
bench 1 200 --cpus "$last"
expect_status 0 $? "one round on CPU $last alone"
[ "$(grep -c '^| #1 CPU' bench.out)" = 3 ] && ok "CPU $last only" ||
	fail "not CPU $last only:$(sed 's/^/    /' bench.out)"
expect_in bench.out "cyclictest -a $last -t 1 -d0" "cyclictest pinned to CPU $last"

if [ -w /dev/cpu_dma_latency ]; then
	bench 1 200 --cpus "$last" --poll
	expect_status 0 $? "--poll: one round with cpu_dma_latency held at 0"
	expect_in bench.out "held at 0 by this script for both" "--poll: says so"
else
	skip_part "--poll: /dev/cpu_dma_latency is not writable here"
fi
finish
