#!/bin/sh
# The reading tools on an experiment of several CPUs (EXP/cpuN/ results,
# EXP/info.yml naming them; issue 34): calc's CPUs side by side in CSV and
# JSON and with --include/--exclude, filter writing an experiment again
# (or one file with --one-file), convert, report's names of each CPU with
# and without --reportids, and calc --explain of a real run of every CPU.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# w ARGS...: wultfw into out and err, within 120 s.
w() {
	"$WULTFW" "$@" >out 2>err &
	wait_bounded $! 120
}

# rows FILE: data rows of a CSV file.
rows() { echo $(($(wc -l <"$1") - 1)); }

# A made-up experiment: CPU 1's tail far above CPU 0's, two C-states on CPU 1.
mkdir -p syn/cpu0 syn/cpu1
awk 'BEGIN { print "ReqCState,WakeLatency,IntrLatency"
	for (i = 0; i < 2000; i++) printf "C1,%d.5,%d\n", 10 + i % 7, 12 + i % 5 }' >syn/cpu0/datapoints.csv
awk 'BEGIN { print "ReqCState,WakeLatency,IntrLatency"
	for (i = 0; i < 2000; i++)
		printf "%s,%d.5,12\n", i % 2 ? "C1" : "POLL", i % 100 < 3 ? 400 : 10 + i % 7 }' >syn/cpu1/datapoints.csv
printf "reportid: syn\ncpus: [0, 1]\nper_cpu_dirs: true\n" >syn/info.yml

# calc: the CPUs side by side as CSV, a table of its own after a blank line
w calc -F csv -f count,median syn
expect_status 0 $? "calc -F csv" err
expect_in out "Result,CPU,C-state,Metric,Unit,count,median,p99,p99.9,max,others_p99.9,stands_out" "the per-CPU CSV header"
expect_in out "syn,1,C1,WakeLatency,us,1000,13.5,400.5,400.5,400.5,16.5,yes" "CPU 1 in C1, flagged"
expect_in out "syn,0,all,WakeLatency,us,2000,13.5,16.5,16.5,16.5,400.5,no" "CPU 0, not flagged"
[ "$(grep -c '^$' out)" = 1 ] && ok "one blank line between the two tables" ||
	fail "$(grep -c '^$' out) blank lines in the CSV"

# ... as JSON: a "cpus" member of the result's object
w calc --json -f count syn
expect_status 0 $? "calc --json" err
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = d["results"][0]["cpus"]
rows = [(r["cpu"], r["cstate"], r["count"], r["stands_out"]) for r in c["rows"]]
assert c["metric"] == "WakeLatency" and c["unit"] == "us", c
assert (1, "C1", 1000, True) in rows and (0, "all", 2000, False) in rows, rows
assert len(rows) == 5, rows' out 2>perr && ok "the JSON parses, its CPU rows right" ||
		fail "calc --json: $(tail -1 perr)"
else
	expect_in out '"cpus": {' "a cpus member"
fi

# ... of the rows a selection keeps, CPU and index as in the whole experiment
w calc -f count --include 'CPU == "1" && index < 2500' syn
expect_status 0 $? "calc --include naming CPU and index" err
grep -Eq '^ +1 +all +500 ' out && ok "CPU 1: its first 500 rows (index 2000-2499)" ||
	fail "CPU 1's rows under --include: $(grep -E '^ +1 ' out)"
grep -Eq '^ +0 +all +0 ' out && ok "CPU 0: none" || fail "CPU 0's rows under --include"
w calc -f count --exclude 'WakeLatency > 100' syn
expect_status 0 $? "calc --exclude" err
grep -Eq '^ +1 +all +1940 ' out && ok "CPU 1 without its 60 large rows" ||
	fail "CPU 1 under --exclude: $(grep -E '^ +1 ' out)"
expect_in out "0 rows flagged." "no tail stands out once they are out"
w calc -f count --include 'CPU == 1' syn
expect_status 1 $? "a number compared with the text column CPU: refused"
[ "$(wc -l <err)" -le 3 ] && expect_in err "column 'CPU' holds names" "said where" ||
	fail "$(wc -l <err) lines said"

# filter: an experiment again, each CPU's rows in its cpuN/
w filter syn -o f --include 'WakeLatency < 100'
expect_status 0 $? "filter of the experiment"
expect_in err "3940 of 4000 rows of syn kept in f, CPUs [0, 1]" "what it kept, said once"
[ "$(rows f/cpu0/datapoints.csv)" = 2000 ] && [ "$(rows f/cpu1/datapoints.csv)" = 1940 ] &&
	ok "each CPU's rows in its cpuN/" || fail "rows: $(wc -l f/cpu*/datapoints.csv)"
head -1 f/cpu1/datapoints.csv | grep -qx 'ReqCState,WakeLatency,IntrLatency' &&
	ok "its columns as they were (no CPU column added)" ||
	fail "f/cpu1 header: $(head -1 f/cpu1/datapoints.csv)"
expect_in f/info.yml "per_cpu_dirs: true" "f/info.yml marks an experiment"
expect_in f/info.yml "cpus: [0, 1]" "f/info.yml names its CPUs"
expect_in f/info.yml "filter_rows_kept: 3940" "f/info.yml says what was kept"
expect_in f/cpu1/info.yml "filtered_from: 'syn/cpu1/datapoints.csv'" "each CPU's info.yml says its source"
w calc -F csv -f count -g CPU -m WakeLatency f
expect_in out "WakeLatency,us,1,1940" "calc reads it as one result with a CPU column"
w filter syn -o f --include 'WakeLatency < 10'
expect_status 1 $? "an existing NEWRESULT without --force: refused"
w filter syn -o f --force --include 'CPU == "1" && index < 2100'
expect_status 0 $? "filter --force, naming CPU and index"
[ "$(rows f/cpu0/datapoints.csv)" = 0 ] && [ "$(rows f/cpu1/datapoints.csv)" = 100 ] &&
	ok "replaced: CPU 0 none, CPU 1 its first 100" || fail "rows: $(wc -l f/cpu*/datapoints.csv)"
ls -d f.* >/dev/null 2>&1 && fail "a partial directory left: $(ls -d f.*)" || ok "nothing left beside it"

# filter --one-file: one result with a CPU column, not claiming cpuN/
w filter syn -o one --one-file --exclude 'ReqCState == "POLL"'
expect_status 0 $? "filter --one-file"
head -1 one/datapoints.csv | grep -qx 'ReqCState,WakeLatency,IntrLatency,CPU' &&
	ok "one file with a CPU column" || fail "one/ header: $(head -1 one/datapoints.csv)"
[ "$(rows one/datapoints.csv)" = 3000 ] && ok "3000 rows" || fail "$(rows one/datapoints.csv) rows"
grep -q 'per_cpu_dirs\|^cpus:' one/info.yml && fail "one/info.yml claims cpuN/" ||
	ok "one/info.yml claims no cpuN/"
# ... whose CPU column, digits in CSV, still reads as text: -g CPU groups
w calc -F csv -f count -g CPU -m WakeLatency one/datapoints.csv
expect_status 0 $? "calc -g CPU of the --one-file CSV" err
expect_in out "WakeLatency,us,0,2000" "CPU 0's rows a group"
expect_in out "WakeLatency,us,1,1000" "CPU 1's C1 rows a group"
w calc -f count --include 'CPU == "1"' one/datapoints.csv
expect_status 0 $? "--include 'CPU == \"1\"' on it, as on the experiment" err
expect_in err "1000 of 3000 rows selected" "CPU 1's rows selected"

# filter of binary per-CPU results keeps them binary
mkdir -p bin/cpu0 bin/cpu1
for c in 0 1; do
	"$WULTFW" convert "syn/cpu$c/datapoints.csv" -o "bin/cpu$c/datapoints.wfb" 2>>cerr
done
cp syn/info.yml bin/
w filter bin -o fb --include 'ReqCState == "C1"'
expect_status 0 $? "filter of a binary experiment"
[ -f fb/cpu0/datapoints.wfb ] && [ -f fb/cpu1/datapoints.wfb ] && ok "its CPUs kept binary" ||
	fail "fb: $(ls fb fb/cpu0 2>&1 | tr '\n' ' ')"
w calc -F csv -f count -g CPU -m WakeLatency fb
expect_in out "WakeLatency,us,1,1000" "CPU 1's C1 rows"

# convert: one file; binary keeps CPU a text column
w convert syn -o all.wfb
expect_status 0 $? "convert of the experiment to binary"
w calc -F csv -f count -g CPU -m WakeLatency all.wfb
expect_in out "WakeLatency,us,0,2000" "calc -g CPU of the converted file"
w convert syn -o all.csv
expect_status 0 $? "convert of the experiment to CSV"
w calc -F csv -f count -g CPU -m WakeLatency all.csv
expect_status 0 $? "calc -g CPU of the converted CSV file" err
expect_in out "WakeLatency,us,1,2000" "CPU 1 a group there too"

# report: each CPU named after its experiment, with --reportids too
w report -o r1 --reportids base,filt syn f
expect_status 0 $? "report --reportids of two experiments" err
for id in base/cpu0 base/cpu1 filt/cpu0 filt/cpu1; do
	grep -qF "{\"id\": \"$id\"" r1/data.js && ok "$id a result" || fail "$id not in r1/data.js"
done
w report -o r2 syn f
expect_status 0 $? "report of two experiments of one reportid" err
for id in syn/cpu0 syn/cpu1 f/cpu0 f/cpu1; do
	grep -qF "{\"id\": \"$id\"" r2/data.js && ok "$id a result" || fail "$id not in r2/data.js"
done
expect_in err "shown as 'f/cpu1'" "the second's CPUs named by their path"
w report -o r3 --reportids a,b,c syn f
expect_status 2 $? "--reportids: one name per argument"
# the flag in its description of the rows the report shows
w report -o r4 --exclude 'WakeLatency > 100' syn
expect_status 0 $? "report --exclude of the experiment" err
grep -qF "no CPU stands out" r4/data.js && ok "no CPU flagged once the tail is left out" ||
	fail "r4's description: $(grep -o 'CPUs of[^.]*' r4/data.js)"
grep -q "stands out in" err && fail "flag said of rows not shown: $(cat err)" || ok "no flag said"
w report -o r5 --include 'index < 2500' syn
expect_status 0 $? "report --include comparing index" err
expect_in err "no CPUs side by side in the description" "no flag of another count of index, said"

# calc --explain of a real run of both CPUs with attribution
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip_part "one online CPU: no run of two"
	finish
fi
cat >at.cfg <<CFG
outdir = "runs";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = "0-1"; ldist = [ "20us", "500us" ]; };
    annotate = ( { plugin = "attrib"; } );
    limits = { datapoints = 800; time = "2s"; };
    sinks = ( { plugin = "csv"; } );
  }
);
CFG
"$WULTFW" -q -c at.cfg >run.out 2>&1 &
wait_bounded $! 120
st=$?
if [ "$st" != 0 ] || ! has_rows runs/timer/cpu1/datapoints.csv 1; then
	skip_part "a timer run of CPUs 0-1 with attribution gave no datapoints: $(tail -1 run.out)"
	finish
fi
w calc --explain runs/timer
expect_status 0 $? "calc --explain of the experiment" err
expect_in out "and above:" "the tail explained"
if [ -f runs/timer/cpu0/attrib-threads.csv ]; then
	grep -q "no attrib-threads.csv" err && fail "the CPUs' attrib-threads.csv not read: $(cat err)" ||
		ok "the CPUs' attrib-threads.csv read"
fi
w calc --explain --include 'CPU == "1"' runs/timer
expect_status 0 $? "calc --explain of one CPU of it" err
n1=$(rows runs/timer/cpu1/datapoints.csv)
expect_in err "$n1 of" "CPU 1's $n1 rows selected"
w calc --explain --json runs/timer
expect_status 0 $? "calc --explain --json of the experiment" err
finish
