#!/bin/sh
# check-all's last lines (tests/summary.sh, tests/failed_tests.sh): CI
# shows only the tail of its output, so each failed test must be named
# there with the line of its log that says why, a failure inside make
# distcheck's removed tree too (its logs are copied out), and the count
# must agree. Fake .trs/.log pairs, as automake's driver writes them.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"
cd "$work" || exit 1
sum="$srcdir/tests/summary.sh"
failed="$srcdir/tests/failed_tests.sh"

# fake PATH RESULT LOG-TEXT
fake() {
	mkdir -p "$(dirname "$1")"
	printf ':test-result: %s\n:global-test-result: %s\n' "$2" "$2" >"$1.trs"
	printf '%s\n' "$3" >"$1.log"
}
fake b/tests/ok PASS 'all good'
fake b/tests/bad FAIL "$(printf 'step 1 ok\nFAIL: the peak was 3 MiB over\ncleanup')"
fake b/tests/quiet ERROR ''
fake b/tests/lacks SKIP 'SKIP: no I210 here'
fake b/wultfw-0.1.0/_build/sub/tests/dc FAIL 'FAIL: inside distcheck'
echo 'FAIL: make distcheck: tests/dc: FAIL: inside distcheck' >b/results

sh "$sum" b b/results >out 2>&1 && fail "summary.sh exited 0 with failures"
expect_in out "FAIL tests/bad: FAIL: the peak was 3 MiB over" "a failed test is named with its log's FAIL line"
expect_in out "FAIL tests/quiet: no log" "a failed test with an empty log is still named"
expect_in out "SKIP tests/lacks: no I210 here" "a skip names what is missing"
expect_in out "FAIL make distcheck: tests/dc: FAIL: inside distcheck" "a failure from the results file is named"
expect_in out "tests: 1 passed, 3 failed, 1 skipped" "the count"
grep -q '_build/sub' out && fail "summary.sh listed a test of distcheck's tree itself: $(cat out)"

sh "$failed" b/wultfw-0.1.0/_build kept >dc.out || fail "failed_tests.sh exited non-zero"
expect_in dc.out "sub/tests/dc: FAIL: inside distcheck" "a failed test in distcheck's tree"
[ -f kept/sub_tests_dc.log ] || fail "the failed test's log was not copied out: $(ls kept)"
finish
