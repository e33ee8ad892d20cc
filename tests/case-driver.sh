#!/bin/sh
# The harness's driver for test programs (tests/local.mk, LOG_DRIVER):
# automake's test-driver runs the program and records its PASS, FAIL or
# SKIP; then every case the program names as skipped, one line "SKIP case
# 'NAME': REASON" (tu_run(), tests/unit/testutil.c), becomes a SKIP result
# of its own beside the program's, so `make check` and tests/summary.sh
# count and name it: a case that cannot run here is never a pass. A
# program whose every case skipped is a SKIP already (exit 77) and gets
# no more. Usage: case-driver.sh TEST-DRIVER [its options] -- PROGRAM...
driver=${1:?usage: case-driver.sh TEST-DRIVER [OPTIONS] -- PROGRAM...}
shift
log= trs= name= color=no
prev=
for a; do
	case $prev in
	--log-file) log=$a ;;
	--trs-file) trs=$a ;;
	--test-name) name=$a ;;
	--color-tests) color=$a ;;
	esac
	[ "$a" = -- ] && break
	prev=$a
done

sh "$driver" "$@"
st=$?
[ -f "$trs" ] && [ -f "$log" ] || exit $st
grep -q '^:global-test-result: SKIP' "$trs" && exit $st
grep '^SKIP case ' "$log" >"$trs.cases" || { rm -f "$trs.cases"; exit $st; }
blu= std=
[ "$color" = yes ] && blu=$(printf '\033[1;34m') std=$(printf '\033[m')
while IFS= read -r line; do
	echo ":test-result: $line" >>"$trs"
	echo "${blu}SKIP${std}: $name: ${line#SKIP }"
done <"$trs.cases"
rm -f "$trs.cases"
# test-suite.log keeps the log of a program with skipped cases.
sed -i 's/^:copy-in-global-log: no$/:copy-in-global-log: yes/' "$trs"
exit $st
