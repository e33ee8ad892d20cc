#!/bin/sh
# Print one closing line for all automake test results under a build tree:
# "tests: N passed, N failed, N skipped", after one line per skipped test
# naming what this machine lacks (the test's own "SKIP: reason" line), one
# per case a test program skipped while passing its others (its .trs has
# "SKIP case 'NAME': reason" beside its PASS, tests/case-driver.sh; each
# counts as a skip) and one per failed test with the reason its log gives
# (tests/failed_tests.sh). A skip that gives no reason counts as a failure:
# it would hide a lack.
# The optional 2nd argument is a file of results of checks run outside
# automake, one "PASS: name", "FAIL: name" or "SKIP: name: reason" a line.
# Exit 1 when any failed.
dir=${1:-.}
results=${2:-}
pass=0 fail=0 skip=0
noreason="(no reason given: the test must print 'SKIP: what is missing')"
for trs in $(find "$dir" -name '*.trs' -not -path '*/_build/*' | sort); do
	name=${trs%.trs}
	while IFS= read -r res; do
		case $res in
		PASS|XFAIL) pass=$((pass + 1)) ;;
		"SKIP case "*)
			skip=$((skip + 1))
			why=${res#SKIP case }
			case $why in
			*": "?*) ;;
			*) why="$why $noreason"; fail=$((fail + 1)) ;;
			esac
			echo "SKIP ${name#"$dir"/}: case $why"
			;;
		SKIP)
			skip=$((skip + 1))
			why=$(grep -h 'SKIP: ' "$name.log" 2>/dev/null | tail -1 | sed 's/.*SKIP: //')
			if [ -z "$why" ]; then
				why=$noreason
				fail=$((fail + 1))
			fi
			echo "SKIP ${name#"$dir"/}: $why"
			;;
		*) fail=$((fail + 1)) ;;
		esac
	done <<EOT
$(sed -n 's/^:test-result: //p' "$trs")
EOT
done
# Each failed test by name, with the line of its log that says why (a
# hang stopped by tests/run-bounded.sh says so): CI shows only the tail.
sh "$(dirname "$0")/failed_tests.sh" "$dir" | grep -v '/_build/' | sed 's/^/FAIL /'
if [ -n "$results" ]; then
	while IFS= read -r line; do
		case $line in
		"PASS: "*) pass=$((pass + 1)) ;;
		"SKIP: "*) skip=$((skip + 1)); echo "SKIP ${line#SKIP: }" ;;
		*) fail=$((fail + 1)); echo "FAIL ${line#FAIL: }" ;;
		esac
	done <"$results"
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
