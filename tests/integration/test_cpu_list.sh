#!/bin/sh
# `cpu = "all"`: every online CPU measured at once, one result directory
# per CPU (EXP/cpuN/, each a complete result whose info.yml names CPU N)
# and EXP/info.yml naming the CPUs; with timer and with hrt; SIGINT
# mid-run leaves every CPU's result flushed and valid; a CPU list on a
# source that measures one CPU only, or a bad list, is a one-line error.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

online=$(cat /sys/devices/system/cpu/online)
cpus=$(awk -v l="$online" 'BEGIN { n = split(l, p, ","); s = "";
	for (i = 1; i <= n; i++) { m = split(p[i], r, "-"); if (m == 1) r[2] = r[1];
		for (c = r[1]; c <= r[2]; c++) s = s (s == "" ? "" : " ") c }
	print s }')
ncpus=$(echo "$cpus" | wc -w)

# cfg NAME SOURCE LIMITS: an experiment file NAME.cfg.
cfg() {
	cat >"$1.cfg" <<CFG
outdir = "r";
name = "$1";
source = { plugin = "$2"; cpu = "all"; ldist = "500us"; };
limits = { $3 };
sinks = ( { plugin = "csv"; } );
CFG
}

# rows FILE: datapoints in a CSV result file.
rows() {
	echo $(($(wc -l <"$1") - 1))
}

# check_exp DIR SOURCE: the layout readers rely on, each CPU's result whole.
check_exp() {
	list=$(echo "$cpus" | sed 's/ /, /g')
	expect_in "$1/info.yml" "per_cpu_dirs: true" "$2: $1/info.yml marks per-CPU directories"
	expect_in "$1/info.yml" "cpus: [$list]" "$2: $1/info.yml names CPUs [$list]"
	total=0
	for c in $cpus; do
		d="$1/cpu$c"
		n=$(rows "$d/datapoints.csv" 2>/dev/null || echo 0)
		[ "$n" -gt 0 ] && ok "$2: CPU $c: $n datapoints" || fail "$2: no datapoints in $d"
		expect_in "$d/info.yml" "cpunum: $c" "$2: every datapoint of $d is CPU $c's"
		counted=$(sed -n 's/^datapoints: //p' "$d/info.yml")
		[ "$n" = "$counted" ] && ok "$2: $d holds the $n datapoints its info.yml counts" ||
			fail "$2: $d has $n rows, its info.yml says $counted"
		"$WULTFW" calc "$d" >"calc$c.out" 2>&1
		expect_status 0 $? "$2: wultfw calc opens $d"
		total=$((total + n))
	done
	expect_in "$1/info.yml" "datapoints: $total" "$2: $1/info.yml sums every CPU's $total datapoints"
}

[ "$ncpus" -ge 2 ] || skip_part "a CPU list needs 2 online CPUs, this machine has $online"

# timer: a datapoint limit per CPU.
cfg tall timer "datapoints = 300; time = \"60s\";"
timeout 120 "$WULTFW" -q -c tall.cfg >tall.out 2>&1
expect_status 0 $? "timer on every CPU at once"
check_exp r/tall timer
expect_in r/tall/info.yml "status: 'complete'" "timer: EXP/info.yml says complete"

# SIGINT mid-run: every CPU's result flushed, valid and interrupted.
cfg tsig timer "time = \"60s\";"
"$WULTFW" -q -c tsig.cfg >tsig.out 2>&1 &
pid=$!
for c in $cpus; do
	wait_until has_rows "r/tsig/cpu$c/datapoints.csv" 50 || fail "CPU $c: no 50 rows in 120 s"
done
kill -INT $pid
wait_bounded $pid 60
expect_status 130 $? "SIGINT stops every CPU's run, exit 130"
check_exp r/tsig "timer, interrupted"
for c in $cpus; do
	expect_in "r/tsig/cpu$c/info.yml" "status: 'interrupted'" "CPU $c's info.yml says interrupted"
done
expect_in r/tsig/info.yml "status: 'interrupted'" "EXP/info.yml says interrupted"

# hrt, where it can run here (its own words say why not).
if [ -e "$top/plugins/hrt/.libs/hrt.so" ] || [ -e "$top/plugins/hrt/hrt.la" ]; then
	cfg hall hrt "time = \"3s\";"
	timeout 120 "$WULTFW" -q -c hall.cfg >hall.out 2>&1
	st=$?
	# A CPU too busy to go idle gets no datapoint: hrt's counters say so.
	why=$(for c in $cpus; do has_rows "r/hall/cpu$c/datapoints.csv" 1 ||
		hrt_busy "r/hall/cpu$c"; done)
	if [ $st = 0 ] && [ -z "$why" ]; then
		check_exp r/hall hrt
	elif [ -n "$why" ]; then	# a busy CPU, by hrt's own counters
		skip_part "hrt: $why"
	elif grep -q "cannot run here" hall.out; then
		skip_part "hrt: $(grep -m1 'cannot run here' hall.out)"
	else
		fail "hrt on every CPU at once: exit status $st:"; sed 's/^/    /' hall.out
	fi
else
	skip_part "hrt: not built here"
fi

# A source that measures one CPU per experiment refuses a list, by name.
cat >one.cfg <<'CFG'
source = { plugin = "ndl"; cpu = "0-1"; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -c one.cfg --check >one.out 2>&1
expect_status 2 $? "ndl with a CPU list: refused"
expect_in one.out "one.cfg:1: source.cpu: source 'ndl' measures one CPU per experiment" "the error names the file, key and source"
# A list that is not one, and a CPU that is not online, in one line each.
printf 'source = { plugin = "timer"; cpu = "1-x"; };\n' >bad.cfg
"$WULTFW" -c bad.cfg --check >bad.out 2>&1
expect_status 2 $? "a bad CPU list: refused"
expect_in bad.out "bad.cfg:1: source.cpu: \"1-x\" is not a CPU list" "the error says what a list is"
"$WULTFW" -c tall.cfg --cpu 0,4095 --check >off.out 2>&1
expect_status 2 $? "an offline CPU in --cpu: refused"
expect_in off.out "CPU 4095 is not online" "the error names the CPU"

finish
