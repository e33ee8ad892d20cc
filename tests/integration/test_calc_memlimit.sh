#!/bin/sh
# calc --mem-limit: a run within the limit prints the same bytes as one
# without it (-j 1 and -j 2); 100 000 groups under a 32 MiB limit stop
# with "out of memory" naming the limit (status 1), not the OOM killer; a size calc cannot read is a usage error (status 2).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# gen ROWS GROUPS: a CSV of ROWS rows over GROUPS names
gen() {
	awk -v rows="$1" -v groups="$2" 'BEGIN {
		print "Grp,Lat,Other"; s = 11
		for (r = 0; r < rows; r++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "g%d,%d.%03d,%d\n", (r * 7919) % groups, s % 997, int(s / 997) % 1000, r % 13
		}
	}'
}
gen 20000 2000 >small.csv
gen 200000 100000 >many.csv

# calc ARGS...: into out (stdout) and err, within 120 s
calc() {
	"$WULTFW" calc "$@" >out 2>err &
	wait_bounded $! 120
}
for j in 1 2; do
	calc -F csv -j $j -g Grp small.csv
	expect_status 0 $? "calc -g, no limit, -j $j"
	mv out free.$j
	calc -F csv -j $j -g Grp --mem-limit 2G small.csv
	expect_status 0 $? "calc -g --mem-limit 2G, -j $j"
	if cmp -s free.$j out; then ok "within the limit the same bytes (-j $j)"
	else fail "--mem-limit changed the output (-j $j)"; diff free.$j out | head; fi
done
if cmp -s free.1 free.2; then ok "-j 1 and -j 2 agree"; else fail "-j 1 and -j 2 differ"; fi

# (under ASan: malloc returns NULL past the limit, as libc's does)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" \
	calc -j 1 -g Grp --mem-limit 32M many.csv
expect_status 1 $? "100000 groups past --mem-limit 32M"
expect_in err "out of memory at the memory limit, 32 MiB (--mem-limit)" "the limit named"

calc -j 1 -g Grp --mem-limit none small.csv
expect_status 0 $? "--mem-limit none"
calc -g Grp --mem-limit 12Q small.csv
expect_status 2 $? "--mem-limit 12Q refused"
expect_in err "--mem-limit 12Q: give bytes with K, M, G or T" "the bad size named"
finish
