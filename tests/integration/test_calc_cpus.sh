#!/bin/sh
# An experiment of several CPUs (EXP/cpuN/ results, EXP/info.yml naming
# them) opened as one result with a CPU column by calc, convert, filter,
# report and calc --explain; calc's CPUs side by side and its flag of a
# CPU whose tail stands out; bad layouts said in one line.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# make_exp EXP CPU...: an experiment of one-CPU timer runs (cpu = N each),
# laid out as a run of several CPUs lays it out. Returns non-zero when a
# run fails or gives no datapoint.
make_exp() {
	_exp=$1; shift
	mkdir -p "$_exp"
	_list=
	for _c in "$@"; do
		cat >"t$_c.cfg" <<CFG
outdir = "runs$_c";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = $_c; ldist = [ "20us", "500us" ]; };
    limits = { datapoints = 1500; time = "20s"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
		"$WULTFW" -q -c "t$_c.cfg" >"run$_c.out" 2>&1 &
		wait_bounded $! 120 || return 1
		has_rows "runs$_c/timer/datapoints.csv" 1 || return 1
		mv "runs$_c/timer" "$_exp/cpu$_c"
		_list="${_list:+$_list, }$_c"
	done
	printf "cpus: [%s]\nper_cpu_dirs: true\n" "$_list" >"$_exp/info.yml"
}

# calc ARGS...: into out and err, within 120 s.
calc() {
	"$WULTFW" calc "$@" >out 2>err &
	wait_bounded $! 120
}

# rows FILE: data rows of a CSV file.
rows() { echo $(($(wc -l <"$1") - 1)); }

# A made-up experiment: CPU 1's tail far above CPU 0's (flagged), CPU 0 not.
mkdir -p syn/cpu0 syn/cpu1
awk 'BEGIN { print "ReqCState,WakeLatency,IntrLatency"
	for (i = 0; i < 2000; i++) printf "C1,%d.5,%d\n", 10 + i % 7, 12 + i % 5 }' >syn/cpu0/datapoints.csv
awk 'BEGIN { print "ReqCState,WakeLatency,IntrLatency"
	for (i = 0; i < 2000; i++) printf "C1,%d.5,%d\n", i % 100 < 3 ? 400 : 10 + i % 7, 12 }' >syn/cpu1/datapoints.csv
calc -f count,median syn
expect_status 0 $? "calc of cpuN/ results without info.yml"
expect_in out "STANDS OUT" "CPU 1's tail flagged"
expect_in out "Flag rule: a CPU is flagged in a C-state when its p99.9 is more than 2 times" "the rule stated"
if grep -E '^ +0 ' out | grep -q "STANDS OUT"; then fail "CPU 0 flagged"; else ok "CPU 0 not flagged"; fi
expect_in out "2 rows flagged." "CPU 1 flagged in C1 and all"
calc -F csv -f count -g CPU -m WakeLatency syn
expect_status 0 $? "calc -g CPU"
expect_in out "WakeLatency,us,0,2000" "CPU 0's 2000 rows"
expect_in out "WakeLatency,us,1,2000" "CPU 1's 2000 rows"

# The report: a result per CPU (overlays), the flag in its description.
"$WULTFW" report -o synrep syn >rerr 2>&1 &
wait_bounded $! 300
expect_status 0 $? "report of the made-up experiment"
expect_in rerr "syn: 2 CPUs, drawn as 2 results" "its CPUs drawn as results"
expect_in rerr "syn: cpu1 stands out in C1" "the flag said"
# (grep, not expect_in: data.js is one long line)
grep -qF "cpu1 stands out" synrep/data.js && ok "the flag in the report" ||
	fail "the flag not in synrep/data.js"
grep -qF '{"id": "syn/cpu1"' synrep/data.js && ok "syn/cpu1 a result of the report" ||
	fail "syn/cpu1 not a result of synrep/data.js"

# A per-CPU result whose own CPU column disagrees with its directory.
awk -F, 'BEGIN { OFS = "," } { print $0, NR == 1 ? "CPU" : (NR == 50 ? 0 : 1) }' syn/cpu1/datapoints.csv >c.csv
awk -F, 'BEGIN { OFS = "," } { print $0, NR == 1 ? "CPU" : 0 }' syn/cpu0/datapoints.csv >syn/cpu0/d && mv syn/cpu0/d syn/cpu0/datapoints.csv
mv c.csv syn/cpu1/datapoints.csv
calc -g CPU syn
expect_status 1 $? "a CPU column at odds with its directory: refused"
expect_in err "cpu1/datapoints.csv: data row 49: its CPU column disagrees with its directory (cpu1)" "the row named"
# info.yml naming a CPU without its directory
printf "cpus: [0, 1, 2]\nper_cpu_dirs: true\n" >syn/info.yml
calc syn
expect_status 1 $? "info.yml naming a missing cpu2/"
expect_in err "syn/info.yml: cpus names 2, but syn/cpu2/ holds no datapoints.csv" "the missing CPU named"
[ "$(wc -l <err)" -eq 1 ] && ok "said in one line" || fail "$(wc -l <err) lines said"

# Real datapoints: CPU 0 and CPU 1 of this machine, one timer run each.
ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" -lt 2 ]; then
	skip_part "one online CPU: no experiment of two"
	finish
fi
if ! make_exp exp 0 1; then
	skip_part "a timer run gave no datapoint: $(tail -1 run0.out run1.out 2>/dev/null | tr '\n' ' ')"
	finish
fi
n0=$(rows exp/cpu0/datapoints.csv)
n1=$(rows exp/cpu1/datapoints.csv)
calc -c exp
expect_status 0 $? "calc -c of the experiment"
expect_in out "WakeLatency (us) per CPU:" "the CPUs side by side"
grep -Eq '^ +0 +all ' out && grep -Eq '^ +1 +all ' out && ok "a row per CPU" || fail "rows per CPU missing"
calc -F csv -f count -g CPU -m WakeLatency exp
expect_status 0 $? "calc -g CPU of the experiment"
expect_in out "WakeLatency,us,0,$n0" "CPU 0's count ($n0)"
expect_in out "WakeLatency,us,1,$n1" "CPU 1's count ($n1)"

# convert: every row's CPU from its directory, the rows as they were
"$WULTFW" convert exp -o all.csv 2>cerr
expect_status 0 $? "convert of the experiment"
col=$(head -1 all.csv | tr ',' '\n' | grep -nx CPU | cut -d: -f1)
if [ -n "$col" ]; then
	c0=$(awk -F, -v c="$col" 'NR > 1 && $c == "0"' all.csv | wc -l)
	c1=$(awk -F, -v c="$col" 'NR > 1 && $c == "1"' all.csv | wc -l)
	[ "$c0" -eq "$n0" ] && [ "$c1" -eq "$n1" ] && [ $((c0 + c1)) -eq "$(rows all.csv)" ] &&
		ok "CPU column right for every row" || fail "CPU column: $c0/$n0 and $c1/$n1"
	awk -F, -v c="$col" 'BEGIN { OFS = "," } { $c = ""; NF--; print }' all.csv >strip.csv
	{ cat exp/cpu0/datapoints.csv; tail -n +2 exp/cpu1/datapoints.csv; } >both.csv
	if cmp -s strip.csv both.csv; then ok "rows kept as each CPU's file has them"; else
		fail "rows differ from the per-CPU files"; diff strip.csv both.csv | head -5; fi
else
	fail "no CPU column in the converted experiment"
fi

# filter, report and --explain open it too
"$WULTFW" filter exp -o filtered --include 'WakeLatency < 1000000' >ferr 2>&1
expect_status 0 $? "filter of the experiment"
[ -f filtered/cpu0/datapoints.csv ] && [ -f filtered/cpu1/datapoints.csv ] &&
	ok "the filtered result is an experiment of the same CPUs" ||
	fail "no filtered/cpuN/datapoints.csv: $(cat ferr)"
"$WULTFW" filter exp -o filtered1 --one-file --include 'WakeLatency < 1000000' >ferr 2>&1
expect_status 0 $? "filter --one-file of the experiment"
head -1 filtered1/datapoints.csv | grep -q ',CPU$' && ok "the one-file result keeps the CPU column" ||
	fail "no CPU column in filtered1/datapoints.csv: $(cat ferr)"
"$WULTFW" report -o rep exp >rerr 2>&1 &
wait_bounded $! 300
expect_status 0 $? "report of the experiment"
expect_in rerr "exp: 2 CPUs, drawn as 2 results" "each CPU a result of the report"
calc --explain exp
st=$?
calc --explain exp/cpu0
st0=$?
[ "$st" = "$st0" ] && ok "--explain opens the experiment as it opens one CPU's ($st)" ||
	fail "--explain: $st for the experiment, $st0 for cpu0: $(cat err)"

# wult's own calc on each CPU's result
if [ -n "${WULTFW_WULT_SRC:-}" ]; then
	export PYTHONPATH="$WULTFW_WULT_SRC/wult:$WULTFW_WULT_SRC/pepc:$WULTFW_WULT_SRC/stats-collect"
	for c in 0 1; do
		/usr/bin/python3 "$WULTFW_WULT_SRC/wult/wult" calc "exp/cpu$c" >w.out 2>&1
		expect_status 0 $? "wult calc exp/cpu$c"
	done
elif command -v wult >/dev/null; then
	for c in 0 1; do
		wult calc "exp/cpu$c" >w.out 2>&1
		expect_status 0 $? "wult calc exp/cpu$c"
	done
else
	skip_part "no wult to open exp/cpuN (set WULTFW_WULT_SRC, see test_wult_compat.sh)"
fi
finish
