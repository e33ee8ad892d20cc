#!/bin/sh
# A full disk (issue 29). Runs of the test source fill tmpfs mounts of a few
# sizes, so that each sink (csv, binary, stats, a mix, and the core's
# filtered.csv) fails at a different point: at open, at its first write, at
# a stats.json rewrite. After each: exit status 1 and one error line, every
# file readable (calc, convert), a CSV always with its header, and
# info.yml's counts the rows each file holds (doc/durability.md). Then the
# modes: every file and directory a run, report, filter and convert make
# is 0644/0755 less the umask, under umask 000 and 077.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}:$top/tests/plugins"
export WULTFW_STATE_DIR="$work/state"
cd "$work" || exit 1
trap 'umount "$work/m" 2>/dev/null; rm -rf "$work"' EXIT

HEADER="Seq,LDist,ReqCState"
RUN="timeout -k 10 120"

# key DIR KEY: KEY's value in DIR/info.yml, quotes dropped ("" if absent).
key() {
	sed -n "s/^$2: '*\([^']*\)'*\$/\1/p" "$1/info.yml"
}

# rows FILE: the rows a result file holds, as calc counts them (0 when
# there is no file: it was never put under its name).
rows() {
	if [ ! -e "$1" ]; then echo 0; return; fi
	$RUN "$WULTFW" calc -m Seq -f count -F csv "$1" 2>/dev/null |
		awk -F, '$1 == "Seq" { print $3 }'
}

# stats_rows DIR: the datapoints DIR/stats.json is the statistics of.
stats_rows() {
	if [ ! -e "$1/stats.json" ]; then echo 0; return; fi
	sed -n 's/.*"run": {"datapoints": \([0-9]*\),.*/\1/p' "$1/stats.json"
}

# check_file DIR WHAT FILE KEY GOT: FILE (of sink WHAT) holds GOT rows;
# info.yml says so under KEY when it counts files one by one, else in
# datapoints; no file holds fewer than datapoints.
check_file() {
	_want=$(key "$1" "$4")
	[ -n "$(key "$1" datapoints_received)" ] || _want=$(key "$1" datapoints)
	if [ -n "$5" ] && [ "$5" = "$_want" ]; then
		ok "$1: $3 holds $5 rows, as info.yml says"
	else
		fail "$1: $3 holds '$5' rows, info.yml says '$_want' ($4)"
	fi
	[ -n "$5" ] && [ "$5" -ge "$(key "$1" datapoints)" ] ||
		fail "$1: $3 holds fewer rows ($5) than datapoints ($(key "$1" datapoints))"
	case $3 in
	*.csv)
		[ ! -e "$1/$3" ] || [ "$(head -n 1 "$1/$3")" = "$HEADER" ] &&
			ok "$1: $3 has its header (or is not there)" ||
			fail "$1: $3 starts with '$(head -c 80 "$1/$3")', not its header";;
	*.wfb)
		[ ! -e "$1/$3" ] || $RUN "$WULTFW" convert --salvage "$1/$3" -o "$1.wfb.csv" >/dev/null 2>&1 &&
			ok "$1: $3 converts" || fail "$1: $3 does not convert";;
	esac
}

# full NAME SIZE WHERE 'SINKS' [EXTRA]: a run into SINKS on a tmpfs of SIZE
# that fails WHERE ("open": nothing received; "run": after some rows), of
# at most $limit datapoints (far more than fit: the disk ends it).
limit=20000000
full() {
	umount m 2>/dev/null
	rm -rf m "$1"
	mkdir m && mount -t tmpfs -o "size=$2" tmpfs m || return 1
	cat >"$1.cfg" <<CFG
name = "$1";
source = { plugin = "testsrc"; cpu = 1; rows_per_read = 100; };
limits = { datapoints = $limit; };
sinks = ( $4 );
${5:-}
CFG
	$RUN "$WULTFW" -q -c "$1.cfg" -o m >"$1.out" 2>&1
	expect_status 1 $? "$1 ($2 tmpfs): the run fails"
	cp -r "m/$1" "$1"
	umount m
	[ "$(grep -c '^wultfw: error:' "$1.out")" = 1 ] &&
		expect_in "$1.out" "No space left on device" "$1: one error line, the disk full" ||
		{ fail "$1: not one error line:"; sed 's/^/    /' "$1.out"; }
	expect_in "$1/info.yml" "status: 'failed'" "$1: info.yml says it failed"
	got=$(key "$1" datapoints_received)
	case $3 in
	open) [ -z "$got" ] && [ "$(key "$1" datapoints)" = 0 ] &&
		ok "$1: failed before any datapoint" || fail "$1: received '$got' datapoints, none expected";;
	run) [ "${got:-0}" -gt 0 ] && ok "$1: failed after $got datapoints" ||
		fail "$1: no datapoint before the failure (datapoints_received '$got')";;
	esac
}

if [ "$(id -u)" != 0 ]; then
	skip_part "the full-disk runs: they mount tmpfs file systems, which needs root"
elif ! mkdir m || ! mount -t tmpfs -o size=12k tmpfs m 2>/dev/null; then
	skip_part "the full-disk runs: cannot mount a tmpfs here (mount not allowed)"
else
	umount m
	# Sizes in tmpfs pages: info.yml takes 2 (8 KiB kept for its end),
	# logs/ 3 (cmdline, config, wultfw.log), each file at least 1.
	for size in 12k 64k 256k; do
		where=run; [ $size = 12k ] && where=open
		full csv$size $size $where '{ plugin = "csv"; }' || break
		check_file csv$size csv datapoints.csv csv_rows_in_file "$(rows csv$size/datapoints.csv)"
		full bin$size $size $where '{ plugin = "binary"; }'
		check_file bin$size binary datapoints.wfb binary_records_in_file "$(rows bin$size/datapoints.wfb)"
	done
	# stats.json: no room for it at 20 KiB; at 24 KiB none for its rewrite,
	# which leaves the one written at open.
	# (Statistics take no more room with more rows: 100000 are enough.)
	limit=100000
	for size in 20k 24k; do
		where=run; [ $size = 20k ] && where=open
		full stats$size $size $where '{ plugin = "stats"; flush_interval = "10ms"; }'
		check_file stats$size stats stats.json stats_rows_in_file "$(stats_rows stats$size)"
	done
	limit=20000000
	# All three: each sink fails where the others left it (at 12 KiB the
	# csv header finds no room, at 24 KiB the binary one).
	for size in 12k 24k 64k 256k; do
		where=run; [ $size = 12k ] || [ $size = 24k ] && where=open
		full mix$size $size $where '{ plugin = "csv"; }, { plugin = "binary"; },
			{ plugin = "stats"; flush_interval = "10ms"; }'
		check_file mix$size csv datapoints.csv csv_rows_in_file "$(rows mix$size/datapoints.csv)"
		check_file mix$size binary datapoints.wfb binary_records_in_file "$(rows mix$size/datapoints.wfb)"
		check_file mix$size stats stats.json stats_rows_in_file "$(stats_rows mix$size)"
	done
	# The binary sink takes a batch the csv sink then fails: each sink's
	# message counts what info.yml's datapoints_received does (the failed
	# batch said apart), none one batch more.
	full bc96k 96k run '{ plugin = "binary"; }, { plugin = "csv"; }'
	want=$(key bc96k datapoints_received)
	said=$(sed -n 's/.*(\([0-9]*\) [a-z]* received.*/\1/p' bc96k.out | sort -u | tr '\n' ' ')
	[ -n "$want" ] && [ "$said" = "$want " ] &&
		ok "bc96k: the sinks' messages say $want received, as info.yml" ||
		fail "bc96k: the messages say '$said' received, info.yml '$want'"
	expect_in bc96k.out "received before the failed batch of 100" "bc96k: the failed batch said apart"
	# The core's filtered.csv beside the csv sink.
	full sel64k 64k run '{ plugin = "csv"; }' 'include = "LDist > 2000"; keep_filtered = true;'
	check_file sel64k csv datapoints.csv csv_rows_in_file "$(rows sel64k/datapoints.csv)"
	n=$(rows sel64k/filtered.csv)
	want=$(key sel64k filtered_rows_in_file)
	[ -n "$want" ] || want=$(key sel64k select_left_out)
	[ -n "$n" ] && [ "$n" = "$want" ] && ok "sel64k: filtered.csv holds $n rows, as info.yml says" ||
		fail "sel64k: filtered.csv holds '$n' rows, info.yml says '$want'"
	[ ! -e sel64k/filtered.csv ] || [ "$(head -n 1 sel64k/filtered.csv)" = "$HEADER" ] ||
		fail "sel64k: filtered.csv has no header"
fi

# The same mode for every file (0644) and directory (0755), less the umask.
cat >modes.cfg <<'CFG'
name = "u";
source = { plugin = "testsrc"; cpu = 1; rows_per_read = 100; total = 2000; };
include = "LDist > 1000";
keep_filtered = true;
collect = ( { plugin = "telemetry"; counters = [ "stat:ctxt" ]; period = "10ms"; } );
sinks = ( { plugin = "csv"; }, { plugin = "binary"; },
          { plugin = "stats"; histogram = "hist.txt"; histogram_metrics = [ "LDist" ]; } );
CFG
for mask in 000:644:755 077:600:700; do
	u=${mask%%:*} f=${mask#*:} f=${f%%:*} d=${mask##*:}
	(
		umask "$u"
		$RUN "$WULTFW" -q -c modes.cfg -o "o$u/runs" || echo "run failed" >&2
		$RUN "$WULTFW" report -o "o$u/report" -m LDist "o$u/runs/u" >/dev/null 2>&1 ||
			echo "report failed" >&2
		$RUN "$WULTFW" filter "o$u/runs/u" -o "o$u/filtered" --include 'LDist > 2000' >/dev/null 2>&1 ||
			echo "filter failed" >&2
		$RUN "$WULTFW" convert "o$u/runs/u/datapoints.wfb" -o "o$u/converted.csv" >/dev/null 2>&1 ||
			echo "convert failed" >&2
	) 2>"modes$u.err"
	[ -s "modes$u.err" ] && fail "umask $u: $(cat "modes$u.err")"
	odd=$(find "o$u" \( -type f ! -perm "$f" \) -o \( -type d ! -perm "$d" \) | head -5)
	n=$(find "o$u" | wc -l)
	[ -z "$odd" ] && [ "$n" -gt 20 ] &&
		ok "umask $u: all $n files and directories are $f / $d" ||
		fail "umask $u: not $f / $d: $(for p in $odd; do stat -c '%a %n' "$p"; done | tr '\n' ' ')"
done
finish
