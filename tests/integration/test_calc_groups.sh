#!/bin/sh
# calc -g with many groups (20 000 of 5 rows and one of 100 000): it ends
# within its bound, each small group exact (checked against awk), -j 1 and
# -j 2 alike, and with little room (-M 1) the large group's percentiles
# estimated and marked so, the small ones still exact.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

awk 'BEGIN {
	print "Grp,Lat,Other"; s = 7
	for (r = 0; r < 200000; r++) {
		s = (s * 1103515245 + 12345) % 2147483648
		g = r % 2 ? "big" : "g" (int(r / 2) % 20000)
		printf "%s,%d.%03d,%d\n", g, s % 1000, int(s / 1000) % 1000, r % 17
	}
}' >m.csv

# calc ARGS...: into out, within 120 s (a loaded 2-core machine included).
calc() {
	"$WULTFW" calc "$@" >out 2>&1 &
	wait_bounded $! 120
}
calc -F csv -j 1 -g Grp -f count,min,max,median m.csv
expect_status 0 $? "calc -g over 20001 groups, -j 1"
mv out j1
calc -F csv -j 2 -g Grp -f count,min,max,median m.csv
expect_status 0 $? "calc -g over 20001 groups, -j 2"
if cmp -s j1 out; then ok "-j 1 and -j 2 agree"; else fail "-j 1 and -j 2 differ"; diff j1 out | head; fi
n=$(grep -c '^Lat,,g' out)
if [ "$n" -eq 20000 ]; then ok "20000 small groups listed"; else fail "$n small groups listed"; fi

# count, min, max and the median (the middle of 5) of some groups by awk
awk -F, 'NR > 1 && $1 ~ /^g(0|777|19999)$/ { v[$1, ++n[$1]] = $2 }
	END {
		for (g in n) {
			k = n[g]
			for (i = 1; i <= k; i++)
				for (j = i + 1; j <= k; j++)
					if (v[g, j] + 0 < v[g, i] + 0) {
						t = v[g, i]; v[g, i] = v[g, j]; v[g, j] = t
					}
			printf "Lat,,%s,%d,%.3f,%.3f,%.3f\n", g, k, v[g, 1], v[g, k], v[g, 3]
		}
	}' m.csv >want
while read -r line; do
	expect_in out "$line" "exact as awk: ${line#Lat,,}"
done <want

calc -M 1 -g Grp -f count,median m.csv
expect_status 0 $? "calc -g -M 1"
expect_in out "exact up to 1023 values per metric and group" "the note says where percentiles are exact"
if grep -Eq '^Lat +big +100000 +~' out; then ok "the large group's median marked estimated"
else fail "the large group's median not marked:"; grep big out; fi
if grep -E '^Lat +g' out | grep -q '~'; then fail "a small group estimated"
else ok "small groups exact with little room"; fi
finish
