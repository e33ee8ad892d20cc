#!/bin/sh
# Print one closing line for all automake test results under a build tree:
# "tests: N passed, N failed, N skipped", after one line per skipped test
# naming what this machine lacks (the test's own "SKIP: reason" line). A
# skip that gives no reason counts as a failure: it would hide a lack.
# Optional 2nd and 3rd arguments add results of checks run outside automake.
# Exit 1 when any failed.
dir=${1:-.}
pass=${2:-0} fail=${3:-0} skip=0
for trs in $(find "$dir" -name '*.trs' -not -path '*/_build/*' | sort); do
	case "$(sed -n 's/^:test-result: //p' "$trs")" in
	PASS|XFAIL) pass=$((pass + 1)) ;;
	SKIP)
		skip=$((skip + 1))
		name=${trs%.trs}
		why=$(grep -h 'SKIP: ' "$name.log" 2>/dev/null | tail -1 | sed 's/.*SKIP: //')
		if [ -z "$why" ]; then
			why="(no reason given: the test must print 'SKIP: what is missing')"
			fail=$((fail + 1))
		fi
		echo "SKIP ${name#"$dir"/}: $why"
		;;
	*) fail=$((fail + 1)) ;;
	esac
done
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
