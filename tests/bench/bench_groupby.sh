#!/bin/sh
# Benchmark `wultfw calc -g` with many groups (issue 32): ROWS rows spread
# over NGROUPS groups (names g0, g1, ... in random order, two numeric
# columns), against pandas' groupby with the same statistics (count, min,
# mean, std, median, p99, max) when python3-pandas is installed. Prints
# wall and CPU seconds and peak RSS of each, best of 3, and the targets:
# no slower than pandas and under 256 MiB. Page cache hot, ${TMPDIR:-/tmp}.
# MEMLIMIT (such as 1500M) is given to calc as --mem-limit, and its peak
# checked against it; a run that stops at the limit is said, not an error.
# Then BIG_GROUPS groups of BIG_ROWS rows each (default 1000 of 3000, one
# run of -j 2 under --mem-limit BIG_LIMIT, default 128M): groups past the
# switch point whose histograms would not fit the limit take sketches;
# BIG_GROUPS=0 leaves that run out.
# Then the 1 M-group goal: MILLION_ROWS rows (default 2 000 000) over
# exactly 1 000 000 groups, -j 2 under --mem-limit MILLION_LIMIT (default
# 512M): finished or stopped, peak (MILLION_ROWS=0: not run).
# Last, each goal of issue 32 this run measured, met or MISSED.
# GROUPBY_PANDAS=0 leaves pandas out (at 1 M groups it takes minutes a run).
# Usage: bench_groupby.sh BUILDDIR [NGROUPS [ROWS [MEMLIMIT]]]   (needs /usr/bin/time)
set -e
B=${1:?usage: bench_groupby.sh BUILDDIR [NGROUPS [ROWS [MEMLIMIT]]]}
NGROUPS=${2:-100000}
ROWS=${3:-1000000}
MEMLIMIT=${4:-}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/wfw-bench-groupby.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
F="$DIR/groups.csv"

echo "machine: $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "generating $ROWS rows over $NGROUPS groups in $F ..."
awk -v rows="$ROWS" -v groups="$NGROUPS" 'BEGIN {
	print "Grp,Lat,Other"; srand(12345)
	for (r = 0; r < rows; r++)
		printf "g%d,%.3f,%d\n", int(rand() * groups), rand() * 1000, r % 1000
}' >"$F"
cat "$F" >/dev/null

# run NAME CMD...: best of 3 by wall time: "NAME wall KiB cpu" into results;
# a calc that stopped at --mem-limit: "NAME stopped KiB" after one run
run() {
	name=$1; shift
	best=
	for i in 1 2 3; do
		if ! /usr/bin/time -f "%e %M %U %S" -o "$DIR/time" "$@" >"$DIR/out.$name" 2>"$DIR/err.$name"; then
			if grep -q "out of memory at the memory limit" "$DIR/err.$name"; then
				grep -v "^Command exited" "$DIR/err.$name" >&2
				echo "$name stopped $(tail -1 "$DIR/time" | cut -d' ' -f2) 0" >>"$DIR/results"
				return 0
			fi
			cat "$DIR/err.$name" >&2; exit 1
		fi
		read -r secs kib user sys <"$DIR/time"
		line="$name $secs $kib $(echo "$user $sys" | awk '{ print $1 + $2 }')"
		if [ -z "$best" ] || [ "$(echo "$secs $(echo "$best" | cut -d' ' -f2)" | awk '{ print ($1 < $2) }')" = 1 ]; then
			best=$line
		fi
	done
	echo "$best" >>"$DIR/results"
}

: >"$DIR/results"
run calc_j2 "$B/wultfw" calc ${MEMLIMIT:+--mem-limit "$MEMLIMIT"} -g Grp -f count,min,mean,std,median,p99,max "$F"
run calc_j1 "$B/wultfw" calc ${MEMLIMIT:+--mem-limit "$MEMLIMIT"} -j 1 -g Grp -f count,min,mean,std,median,p99,max "$F"
if [ "${GROUPBY_PANDAS:-1}" = 0 ]; then
	echo "GROUPBY_PANDAS=0: no pandas row"
elif /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	run pandas /usr/bin/python3 -c '
import sys, pandas as pd
df = pd.read_csv(sys.argv[1])
g = df.groupby("Grp")
for c in ("Lat", "Other"):
    s = g[c]
    r = pd.concat([s.count(), s.min(), s.mean(), s.std(), s.median(), s.quantile(0.99), s.max()], axis=1)
    r.to_string(sys.stdout)
' "$F"
else
	echo "python3-pandas is not installed: no pandas row (scripts/install-deps.sh --bench)"
fi
# MEMLIMIT in KiB (0: none) for the check below
limkib=$(echo "${MEMLIMIT:-0}" | awk '{ n = $0 + 0; u = substr($0, length(n "") + 1, 1)
	print n * (u == "K" ? 1 : u == "M" ? 1024 : u == "G" ? 1048576 : u == "T" ? 1073741824 : 1 / 1024) }')
awk -v lim="$limkib" -v limname="$MEMLIMIT" -v ng="$NGROUPS" -v nr="$ROWS" '
	{ t[$1] = $2; m[$1] = $3; cpu[$1] = $4; n[NR] = $1 }
	END {
		printf "%-8s %9s %9s %9s\n", "tool", "wall s", "CPU s", "peak MiB"
		for (i = 1; i <= NR; i++)
			if (t[n[i]] == "stopped")
				printf "%-8s stopped at the memory limit (peak %.1f MiB)\n", n[i], m[n[i]] / 1024
			else
				printf "%-8s %9.2f %9.2f %9.1f\n", n[i], t[n[i]], cpu[n[i]], m[n[i]] / 1024
		printf "target: under 256 MiB: %.1f %s", m["calc_j2"] / 1024, (m["calc_j2"] < 262144 ? "ok" : "MISSED")
		if ("pandas" in t)
			printf "; no slower than pandas: %.2fx %s", t["calc_j2"] / t["pandas"], (t["calc_j2"] <= t["pandas"] ? "ok" : "MISSED")
		if (lim > 0)	# RSS counts the mapped file, the limit does not
			printf "; peak RSS of -j 2 and -j 1 within --mem-limit %s: %s", limname,
				(m["calc_j2"] <= lim && m["calc_j1"] <= lim ? "ok" : "MISSED")
		printf "\n"
		# One line for scripts (bench_read.sh); a figure not measured: "none".
		printf "result: bench_groupby groups=%d rows=%d limit=%s", ng, nr, limname == "" ? "none" : limname
		printf " j2=%s j1=%s", t["calc_j2"] == "stopped" ? "stopped" : "finished",
			t["calc_j1"] == "stopped" ? "stopped" : "finished"
		printf " j2_wall=%s j2_peak_mib=%.1f j1_peak_mib=%.1f", t["calc_j2"], m["calc_j2"] / 1024, m["calc_j1"] / 1024
		vp = "none"
		if (("pandas" in t) && t["pandas"] > 0 && t["calc_j2"] != "stopped")
			vp = sprintf("%.2f", t["calc_j2"] / t["pandas"])
		printf " vs_pandas_wall=%s\n", vp
	}' "$DIR/results" | tee "$DIR/summary"

# Many groups of many values: histograms (some 75 KiB each and metric) past
# a quarter of the limit, sketches instead; the table says how many.
big_groups() {
	awk -v groups="$BG" -v per="$BR" 'BEGIN {
		print "Grp,Lat,Other"; srand(54321)
		for (r = 0; r < groups * per; r++)
			printf "g%d,%.3f,%d\n", r % groups, rand() * rand() * 1000, int(rand() * 100000)
	}' >"$F"
	/usr/bin/time -f "%e %M %U %S" -o "$DIR/time" "$B/wultfw" calc --mem-limit "$BL" -g Grp \
		-f count,min,mean,std,median,p99,max "$F" >"$DIR/out.big" 2>"$DIR/err.big" && bigok=1 || bigok=0
	set -- $(tail -1 "$DIR/time")	# after "Command exited with ..." if it failed
	secs=$1 kib=$2 user=$3 sys=$4
	nsk=$(sed -n 's/^Approximate: the percentiles (marked ~) of \([0-9]*\) groups.*/\1/p' "$DIR/out.big")
	grep -v "^Command exited" "$DIR/err.big" >&2 || true
	echo "$BG groups of $BR rows, -j 2, --mem-limit $BL: $( [ $bigok = 1 ] && echo "finished, ${nsk:-0} groups from sketches" || echo "stopped")," \
		"wall $secs s, CPU $(echo "$user $sys" | awk '{ print $1 + $2 }') s, peak $(echo "$kib" | awk '{ printf "%.1f", $1 / 1024 }') MiB"
}
BG=${BIG_GROUPS:-1000} BR=${BIG_ROWS:-3000} BL=${BIG_LIMIT:-128M}
[ "$BG" = 0 ] || big_groups

# The goals of issue 32 this run measured.
if [ "$NGROUPS" -ge 1000000 ] && [ -n "$MEMLIMIT" ]; then
	awk -v lim="$limkib" -v limname="$MEMLIMIT" -v ng="$NGROUPS" '
		{ t[$1] = $2; m[$1] = $3 }
		END {
			met = t["calc_j2"] != "stopped" && t["calc_j1"] != "stopped" &&
			      m["calc_j2"] <= lim && m["calc_j1"] <= lim
			printf "goal: 1 M groups within the limit (%d groups possible, --mem-limit %s): %s\n",
				ng, limname, met ? "met" : "MISSED"
		}' "$DIR/results"
fi
if [ "$NGROUPS" = 100000 ]; then
	awk '{ t[$1] = $2; m[$1] = $3 }
		END {
			mem = m["calc_j2"] < 262144
			fast = ("pandas" in t) && t["calc_j2"] <= t["pandas"]
			# mawk: no line break inside a ?: expression
			if (!("pandas" in t))
				v = mem ? "< 256 MiB met, pandas not installed: not measured" : "MISSED (memory)"
			else
				v = mem && fast ? "met" : "MISSED"
			printf "goal: 100 k groups no slower than pandas and < 256 MiB: %s\n", v
		}' "$DIR/results"
fi
[ "$BG" = 0 ] ||
	echo "goal: many groups of many values within a limit their histograms exceed: $( [ $bigok = 1 ] && [ -n "$nsk" ] && echo met || echo MISSED)"

MR=${MILLION_ROWS:-2000000} ML=${MILLION_LIMIT:-512M}
[ "$MR" -gt 0 ] || exit 0
awk -v rows="$MR" 'BEGIN {	# every group twice or more, spread over the file
	print "Grp,Lat,Other"; srand(777)
	for (r = 0; r < rows; r++)
		printf "g%d,%.3f,%d\n", (r * 7919) % 1000000, rand() * 1000, r % 1000
}' >"$F"
/usr/bin/time -f "%e %M %U %S" -o "$DIR/time" "$B/wultfw" calc -j 2 --mem-limit "$ML" -g Grp \
	-f count,min,mean,std,median,p99,max "$F" >"$DIR/out.million" 2>"$DIR/err.million" && mok=1 || mok=0
set -- $(tail -1 "$DIR/time")
grep -v "^Command exited" "$DIR/err.million" >&2 || true
echo "goal: 1 M groups of $MR rows finish within --mem-limit $ML (-j 2): $( [ $mok = 1 ] && echo met || echo "MISSED (stopped at the limit)")," \
	"wall $1 s, CPU $(echo "$3 $4" | awk '{ print $1 + $2 }') s, peak RSS $(echo "$2" | awk '{ printf "%.1f", $1 / 1024 }') MiB"
