#!/bin/sh
# Name every failed test under a build tree, one line each: "NAME: REASON",
# the reason being the last line of its log that says FAIL or error (else
# its last line), cut to 240 bytes. With a 2nd argument, also copy each
# failed test's log into that folder, so it outlives the tree (make
# distcheck's tree is removed by the step after it). Used by check-all,
# whose output CI shows only the head and tail of.
# Usage: failed_tests.sh BUILD-DIR [LOG-COPY-DIR]
dir=${1:?usage: failed_tests.sh BUILD-DIR [LOG-COPY-DIR]}
keep=${2:-}
[ -z "$keep" ] || mkdir -p "$keep"
find "$dir" -name '*.trs' | sort | while IFS= read -r trs; do
	grep -qE '^:test-result: (FAIL|ERROR|XPASS)' "$trs" || continue
	name=${trs%.trs}
	log=$name.log
	why=$(grep -aE 'FAIL|[Ee]rror|Assertion|bound per test' "$log" 2>/dev/null |
		grep -v '^# ' | tail -1)
	[ -n "$why" ] || why=$(grep -a . "$log" 2>/dev/null | tail -1)
	why=$(printf '%s' "$why" | tr -d '\r' | cut -c1-240)
	echo "${name#"$dir"/}: ${why:-no log}"
	[ -z "$keep" ] || cp "$log" "$keep/$(echo "${name#"$dir"/}" | tr / _).log" 2>/dev/null
done
exit 0
