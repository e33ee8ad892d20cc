#!/bin/sh
# wultfw filter stopped by SIGINT or SIGTERM on each of its paths: exit
# 128+N, a data file of whole rows (blocks) that calc reads, holding what
# filtering the input's first rows gives, and an info.yml that says it was
# interrupted and how many rows were read and kept. A damaged block still
# removes the partial result (test_filter_bin.sh); kill -9 leaves a data
# file calc still reads.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# 2 M rows: an index, 3-decimal latencies, an enum, a count.
awk 'BEGIN {
	srand(5);
	split("POLL C1 C6", cs, " ");
	print "Idx,WakeLatency,IntrLatency,LDist,ReqCState,SMICnt";
	for (i = 0; i < 2000000; i++)
		printf "%d,%.3f,%.3f,%.3f,%s,%d\n", i, 1 + rand() * 200,
			2 + rand() * 200, 10 + rand() * 4000, cs[1 + i % 3], i % 7;
}' >raw.csv
mkdir cres bres
cp raw.csv cres/datapoints.csv
"$WULTFW" convert raw.csv -o bres/datapoints.wfb 2>/dev/null
expect_status 0 $? "the binary twin of 2 M rows"

# key DIR KEY: KEY's value in DIR/info.yml.
key() {
	sed -n "s/^$2: '\{0,1\}\([^']*\)'\{0,1\}\$/\1/p" "$1/info.yml"
}

# wrote DIR: DIR's data file holds rows: more than the writer's first
# buffer (1 MiB), which a binary header never fills.
wrote() {
	s=$(stat -c %s "$1"/datapoints.* 2>/dev/null)
	[ "${s:-0}" -gt 1048576 ]
}

# start NAME IN [OPTION...]: filter IN into NAME in the background ($pid)
# and return once it wrote rows, or once it ended.
start() {
	name=$1; in=$2; shift 2
	"$WULTFW" filter "$in" -o "$name" "$@" 2>"$name.err" &
	pid=$!
	until wrote "$name" || ! kill -0 $pid 2>/dev/null; do
		:
	done
}

# interrupt NAME SIG STATUS IN SELECTION [OPTION...]: filter IN with the
# SELECTION (one word, or "") and OPTIONs, stopped by SIG once it wrote.
interrupt() {
	name=$1 sig=$2 want=$3 in=$4 sel=$5; shift 5
	# shellcheck disable=SC2086
	start "$name" "$in" $sel "$@"
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	st=$?
	if [ $st = 0 ] && [ "$(key "$name" filter_status)" = complete ]; then
		echo "SKIP: $name: the filter ended before SIG$sig reached it"
		return
	fi
	expect_status "$want" $st "$name: SIG$sig exits $want"
	expect_in "$name/info.yml" "filter_status: 'interrupted'" "$name: info.yml says interrupted"
	expect_in "$name.err" "interrupted by SIG$sig: $name holds the" "$name: one line says what was kept where"
	nread=$(key "$name" filter_rows_read)
	kept=$(key "$name" filter_rows_kept)
	n=$("$WULTFW" calc "$name" -m WakeLatency 2>"$name.calc" | awk '$1 == "WakeLatency" { print $3 }')
	[ -n "$kept" ] && [ "$n" = "$kept" ] && [ "$(key "$name" datapoints)" = "$kept" ] &&
		[ "$nread" -le 2000000 ] && [ "$kept" -le "$nread" ] &&
		ok "$name: calc reads the $kept rows info.yml counts ($nread read)" ||
		{ fail "$name: calc counts '$n' rows, info.yml read '$nread' kept '$kept'"; cat "$name.calc"; }
	[ -s "$name.calc" ] && { fail "$name: calc said something"; cat "$name.calc"; }
	# The rows are those of the input's first `nread` rows.
	[ "$nread" -gt 0 ] || fail "$name: no row read once its file held rows"
	head -n $((nread + 1)) raw.csv >"$name.head.csv"
	# shellcheck disable=SC2086
	"$WULTFW" filter "$name.head.csv" -o "$name.ref" --to csv $sel 2>/dev/null &&
		data_as_csv "$name" "$name.out.csv" &&
		cmp -s "$name.out.csv" "$name.ref/datapoints.csv" &&
		ok "$name: the rows the first $nread rows give" ||
		fail "$name: not the rows filtering the first $nread rows gives"
	rm -rf "$name.ref" "$name.head.csv" "$name.out.csv"
}

# CSV to CSV: in chunks on two threads, and one reader with a selection.
interrupt csv_chunks INT 130 cres "" -j 2
interrupt csv_sel INT 130 cres "--include=WakeLatency>100" -j 1
# CSV to binary (one reader that learned every type), SIGTERM.
interrupt csv_bin TERM 143 cres "" --to binary
# Binary to binary: the block copy, gathering on one and two threads.
interrupt bin_copy INT 130 bres ""
interrupt bin_gather INT 130 bres "--include=WakeLatency>100" -j 2
interrupt bin_gather1 INT 130 bres '--exclude=ReqCState=="C1"' -j 1
# Binary to CSV on two threads.
interrupt bin_csv INT 130 bres "" --to csv -j 2

# report opens an interrupted result and shows it was.
if [ "$(key bin_gather filter_status)" = interrupted ]; then
	"$WULTFW" report bin_gather -o rep >rep.out 2>&1
	expect_status 0 $? "report opens an interrupted result"
	expect_in rep/data.js '"filter_status": "interrupted"' "the report's data says interrupted"
	expect_in rep/report.js '"Filter status"' "and its intro table shows it"
fi

# kill -9 cannot be handled: what reached the disk is read up to its last
# whole row or block, and calc says what it left out. A CSV cut inside a
# row, a binary file cut inside a block:
head -c 1000037 raw.csv >cut.csv
"$WULTFW" calc cut.csv -m WakeLatency >cut.out 2>&1
expect_status 0 $? "calc reads a CSV file cut inside a row"
expect_in cut.out "ignored" "and says it ignored the cut row's bytes"
rows=$(($(wc -l <cut.csv) - 1))
[ "$(awk '$1 == "WakeLatency" { print $3 }' cut.out)" = $rows ] &&
	ok "calc counts the $rows whole rows" || fail "calc of cut.csv does not count $rows rows"
head -c 1000037 bres/datapoints.wfb >cut.wfb
"$WULTFW" calc cut.wfb -m WakeLatency >cutb.out 2>&1
expect_status 0 $? "calc reads a binary file cut inside a block"
expect_in cutb.out "file cut short" "and says so"
for in in cres bres; do
	start k9 "$in" --include=WakeLatency\>100
	kill -KILL $pid 2>/dev/null
	{ wait $pid; } 2>/dev/null
	f=$(ls k9/datapoints.* 2>/dev/null)
	"$WULTFW" calc "$f" -m WakeLatency >k9.out 2>&1
	expect_status 0 $? "calc reads what kill -9 left of filter's $f"
	rm -rf k9
done
finish
