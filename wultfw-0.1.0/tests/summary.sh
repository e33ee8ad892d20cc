#!/bin/sh
# Print one closing line for all automake test results under a build tree:
# "tests: N passed, N failed, N skipped". Exit 1 when any failed.
# Optional 2nd and 3rd arguments add results of checks run outside automake.
dir=${1:-.}
pass=${2:-0} fail=${3:-0} skip=0
for trs in $(find "$dir" -name '*.trs' -not -path '*/_build/*'); do
	case "$(sed -n 's/^:test-result: //p' "$trs")" in
	PASS|XFAIL) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
done
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
