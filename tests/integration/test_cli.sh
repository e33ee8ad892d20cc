#!/bin/sh
# The wultfw binary's command line, with the test plugins: help, checks,
# errors with file:line, exit statuses, and a run stopped by SIGINT.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins"

"$WULTFW" --help >"$work/help" 2>&1
expect_status 0 $? "--help exits 0"
expect_in "$work/help" "Usage: wultfw [OPTIONS] [-c FILE]" "--help shows usage"
# Every exit status of core/exitstatus.h is in --help, as in the man page.
for st in $(sed -n 's/^#define WFW_EXIT_[A-Z_]* \([0-9]*\)$/\1/p' "$srcdir/core/exitstatus.h"); do
	tr '\n' ' ' <"$work/help" | grep -q "[ ,]$st [a-z(]" &&
		ok "--help explains exit status $st" || fail "--help does not explain exit status $st"
done

"$WULTFW" list-plugins >"$work/list" 2>&1
expect_in "$work/list" "testsrc    deterministic rows" "list-plugins lists the test source"
expect_in "$work/list" "testsink   checks row order" "list-plugins lists the test sink"
expect_in "$work/list" "unusable: plugin 'badabi'" "list-plugins reports the wrong-ABI plugin"

"$WULTFW" help testsrc >"$work/helpsrc" 2>&1
expect_in "$work/helpsrc" "rows_per_read  integer          100" "help PLUGIN lists options with defaults"
"$WULTFW" help nosuch >"$work/helpno" 2>&1
expect_status 2 $? "help of an unknown plugin exits 2"
"$WULTFW" help tstsrc >"$work/helpno" 2>&1
expect_status 2 $? "help of a mistyped plugin exits 2"
expect_in "$work/helpno" "no plugin 'tstsrc' (did you mean 'testsrc'? 'wultfw help testsrc' shows its options" "and suggests the plugin meant"
[ "$(wc -l <"$work/helpno")" = 1 ] && ok "in one line" || fail "help tstsrc: $(wc -l <"$work/helpno") lines"
"$WULTFW" help badab >"$work/helpno" 2>&1
expect_in "$work/helpno" "did you mean 'badabi'" "a broken plugin's name is suggested too (help says why it is broken)"

"$WULTFW" scan --pci-dump "$srcdir/tests/data/pci-two-nics.txt" >"$work/scan" 2>&1
expect_status 0 $? "scan --pci-dump exits 0"
expect_in "$work/scan" "2 found" "scan finds the two NICs of the dump"
expect_in "$work/scan" "0000:02:00.0  I211 [8086:1539]" "scan names the I211"
"$WULTFW" scan --pci-dump "$srcdir/tests/data/pci-broken.txt" >"$work/scanbad" 2>&1
expect_status 1 $? "scan of a broken dump exits 1"
expect_in "$work/scanbad" "pci-broken.txt: dump: Malformed line" "and names the file"
"$WULTFW" scan >"$work/scanlive" 2>&1
expect_in "$work/scanlive" "testsrc  yes: deterministic test source" "scan probes every source"

"$WULTFW" frobnicate >"$work/cmd" 2>&1
expect_status 2 $? "unknown command exits 2"
"$WULTFW" clac x >"$work/cmd" 2>&1
expect_status 2 $? "a mistyped command exits 2"
expect_in "$work/cmd" "unknown command 'clac' (did you mean 'calc'?" "and suggests the right one"

cat >"$work/bad.cfg" <<'CFG'
name = "bad";
source = { plugin = "testsrc"; cpu = 0;
  totl = 5; };
sinks = ( { plugin = "testsink"; } );
CFG
"$WULTFW" -c "$work/bad.cfg" -o "$work/out" >"$work/bad.out" 2>&1
expect_status 2 $? "a bad experiment file exits 2"
expect_in "$work/bad.out" "bad.cfg:3: source.totl: unknown key for plugin 'testsrc' (did you mean 'total'?)" "error names file:line:key with a hint"
expect_in "$work/bad.out" "nothing was measured" "says nothing was measured"
[ -e "$work/out" ] && fail "a bad file created the output directory" || ok "a bad file creates nothing"
(cd "$work" && "$WULTFW" -c - -o "$work/out" </dev/null >"$work/dash.out" 2>&1)
expect_status 2 $? "-c - exits 2"
expect_in "$work/dash.out" "-: an experiment is read from a file, not from standard input" "-c - says files only (no did-you-mean of a neighbour)"
"$WULTFW" list-plugins --help >"$work/listhelp" 2>&1
expect_in "$work/listhelp" "by kind (sources, sinks, annotators)" "list-plugins --help names every kind"

# The tools' option errors: one line, with a did-you-mean.
for t in calc convert filter report; do
	"$WULTFW" $t --hepl >"$work/opt.out" 2>&1
	expect_status 2 $? "$t --hepl exits 2"
	expect_in "$work/opt.out" "wultfw $t: unknown option '--hepl' (did you mean '--help'?): 'wultfw $t --help' lists the options" "$t: says which and what it may be"
	[ "$(wc -l <"$work/opt.out")" = 1 ] && ok "$t: in one line" || fail "$t: $(wc -l <"$work/opt.out") lines"
done
# One -j for every tool: the same range, the same error, the same help.
for t in calc convert filter report; do
	for j in 0 257 x; do
		"$WULTFW" $t -j $j in -o out >"$work/opt.out" 2>&1
		expect_status 2 $? "$t -j $j exits 2"
		expect_in "$work/opt.out" "wultfw $t: --jobs $j: use 1 to 256 threads" "$t -j $j: the range said"
	done
	"$WULTFW" $t --help >"$work/opt.out" 2>&1
	expect_in "$work/opt.out" "  -j, --jobs N" "$t --help: -j"
	expect_in "$work/opt.out" "(1 to 256)" "$t --help: its range"
done
"$WULTFW" --jobs 0 >"$work/opt.out" 2>&1
expect_status 2 $? "wultfw --jobs 0 (SUTs at a time) exits 2"
expect_in "$work/opt.out" "wultfw: --jobs 0: use 1 to 4096 SUTs" "and says the range"
"$WULTFW" calc -F htlm x >"$work/opt.out" 2>&1
expect_in "$work/opt.out" "wultfw calc: --format htlm: use table, markdown, csv or json" "a choice refused with the choices"
"$WULTFW" fetch >"$work/opt.out" 2>&1
expect_status 2 $? "fetch without -H exits 2"
expect_in "$work/opt.out" "wultfw fetch: no host given: add -H HOST[,HOST...]" "and says what to add"
for c in "" calc convert filter report scan deploy fetch restore list-plugins; do
	"$WULTFW" $c --help >"$work/opt.out" 2>&1
	expect_status 0 $? "wultfw $c --help exits 0"
	expect_in "$work/opt.out" "  -h, --help" "wultfw $c --help lists itself"
	"$WULTFW" $c --nosuchoption >"$work/opt.out" 2>&1
	expect_status 2 $? "wultfw $c --nosuchoption exits 2"
done
"$WULTFW" --chek >"$work/opt.out" 2>&1
expect_status 2 $? "wultfw --chek exits 2"
expect_in "$work/opt.out" "wultfw: unknown option '--chek' (did you mean '--check'?): 'wultfw --help' lists the options" "wultfw's own options too"
"$WULTFW" calc -j >"$work/opt.out" 2>&1
expect_in "$work/opt.out" "option '-j' needs a value" "a missing value said"
"$WULTFW" calc -m WakeLatency,IntrLatncy "$srcdir/tests/data/wult-1.3" >"$work/opt.out" 2>&1
expect_status 0 $? "calc -m with one name misspelt still runs"
expect_in "$work/opt.out" "-m IntrLatncy matches no column (did you mean 'IntrLatency'?)" "and says which, with a did-you-mean"
"$WULTFW" calc -f medain "$srcdir/tests/data/wult-1.3" >"$work/opt.out" 2>&1
expect_in "$work/opt.out" "unknown function 'medain' (did you mean 'median'?)" "a function's did-you-mean"

# A shared sink's bad key, in a file of two experiments: said once.
cat >"$work/bad2.cfg" <<'CFG'
outdir = "out";
sinks = ( { plugin = "testsink"; bogus_key = 1; } );
experiments = (
  { name = "one"; source = { plugin = "testsrc"; cpu = 0; total = 10; }; },
  { name = "two"; source = { plugin = "testsrc"; cpu = 0; total = 10; }; }
);
CFG
"$WULTFW" -c "$work/bad2.cfg" --check >"$work/bad2.out" 2>&1
expect_status 2 $? "a shared sink's bad key exits 2"
[ "$(grep -c "sinks\[0\].bogus_key" "$work/bad2.out")" = 1 ] && ok "the shared key's error said once" ||
	fail "the shared key's error said $(grep -c "sinks\[0\].bogus_key" "$work/bad2.out") times"
expect_in "$work/bad2.out" "1 problem in" "and counted once"

# Errors in the order the file reads: a source key (line 2) before
# unknown top-level keys (lines 3, 4), whole-file ones (no line) last.
cat >"$work/order.cfg" <<'CFG'
name = "order";
source = { plugin = "testsrc"; cpu = 0; totl = 5; };
collectors = ( );
foo = 3;
CFG
"$WULTFW" -c "$work/order.cfg" --check >"$work/order.out" 2>&1
expect_status 2 $? "a file of four problems exits 2"
printf 'name = "o";\nsinks = ( { plugin = "testsink"; } );\nfoo = 3;\n' >"$work/order2.cfg"
"$WULTFW" -c "$work/order2.cfg" --check >>"$work/order.out" 2>&1
lines=$(grep -o 'order2*.cfg:[0-9]*:\|order2.cfg: source' "$work/order.out" | tr '\n' ' ')
[ "$lines" = "order.cfg:2: order.cfg:3: order.cfg:4: order2.cfg:3: order2.cfg: source " ] &&
	ok "errors said in line order" || fail "errors said in the order: $lines"

# No sinks named: datapoints.csv, as wult writes it.
printf 'name = "nosink";\nsource = { plugin = "testsrc"; cpu = 0; total = 10; };\n' >"$work/nosink.cfg"
# (the csv sink from this build, never an installed one)
WULTFW_PLUGIN_PATH="$top/tests/plugins:${WULTFW_BUILD_PLUGIN_PATH:?}" \
	timeout 60 "$WULTFW" -q -c "$work/nosink.cfg" -o "$work/nosink" >"$work/nosink.out" 2>&1
expect_status 0 $? "an experiment with no sinks runs"
[ "$(wc -l <"$work/nosink/nosink/datapoints.csv")" = 11 ] && ok "and writes its 10 datapoints to datapoints.csv" ||
	fail "no sinks gave: $(ls -R "$work/nosink" | tr '\n' ' ')"

cat >"$work/good.cfg" <<'CFG'
outdir = "out";
sinks = ( { plugin = "testsink"; } );
experiments = (
  { name = "one"; source = { plugin = "testsrc"; cpu = 0; total = 1000; }; },
  { name = "two"; source = { plugin = "testsrc"; cpu = 0; }; limits = { datapoints = 20; }; }
);
CFG
"$WULTFW" -c "$work/good.cfg" --check >"$work/check.out" 2>&1
expect_status 0 $? "--check of a good file exits 0"
expect_in "$work/check.out" "experiment 'two': source testsrc on CPU 0; 1 sink: OK" "--check reports each experiment"

# include/exclude against the columns a source declares: --check finds a
# misspelt column, a string against numbers, a unit a column cannot take,
# at file:line with the key, a did-you-mean and a caret (exit 2); a source
# that names its columns only when it opens is checked against those it
# gives when --check opens it here, a machine fact (exit 3), and says so.
cat >"$work/sel.cfg" <<'CFG'
sinks = ( { plugin = "testsink"; } );
experiments = (
  { name = "typo"; source = { plugin = "testsrc"; cpu = 0; };
    include = "LDist > 5us && Sq < 100"; },
  { name = "kinds"; source = { plugin = "testsrc"; cpu = 0; };
    exclude = "Seq == \"x\" || ReqCState == \"C9\""; },
  { name = "unit"; source = { plugin = "testsrc"; cpu = 0; };
    include = "Seq < 5ms"; },
  { name = "fine"; source = { plugin = "testsrc"; cpu = 0; };
    include = "LDist > 5us && ReqCState == \"C9\""; }
);
CFG
"$WULTFW" -c "$work/sel.cfg" --check >"$work/sel.out" 2>&1
expect_status 2 $? "--check refuses a selection of columns the source does not have"
expect_in "$work/sel.out" "sel.cfg:4: experiments[0].include: unknown column 'Sq' (did you mean 'Seq'?); the columns are: Seq, LDist, ReqCState, LTime, WakeLatency (checked against the columns source 'testsrc' declares)" "a misspelt column at file:line, key, with a did-you-mean"
expect_in "$work/sel.out" "  LDist > 5us && Sq < 100
                 ^" "and a caret under it"
expect_in "$work/sel.out" "sel.cfg:6: experiments[1].exclude: column 'Seq' holds numbers: compare it with a number, not a string" "a string against a number column"
expect_in "$work/sel.out" "sel.cfg:8: experiments[2].include: column 'Seq' has no unit" "a unit the column cannot take"
expect_in "$work/sel.out" "3 problems in" "an enum name the machine decides is no problem"
cat >"$work/samp.cfg" <<'CFG'
name = "samp";
source = { plugin = "testsampler"; cpu = 0; };
exclude = "Vaule > 5";
sinks = ( { plugin = "testsink"; } );
CFG
"$WULTFW" -c "$work/samp.cfg" --check >"$work/samp.out" 2>&1
expect_status 3 $? "a source without declared columns: its columns here, a machine fact"
expect_in "$work/samp.out" "samp.cfg:3: exclude: unknown column 'Vaule' (did you mean 'Value'?); the columns are: Seq, Value (the columns source 'testsampler' gives on this machine)" "at file:line with a did-you-mean"
sed -i 's/Vaule/Value/' "$work/samp.cfg"
"$WULTFW" -c "$work/samp.cfg" --check >"$work/samp.out" 2>&1
expect_status 0 $? "spelt right, it passes"
expect_in "$work/samp.out" "experiment 'samp': source testsampler on CPU 0; 1 sink: OK (include/exclude: against the columns the source gave on this machine; it declares none, another machine may give others)" "saying against what it was checked"

# Valid files asking for what the machine lacks: --check warns at the
# setting's file:line and exits 3; the run refuses the same way.
cat >"$work/machine.cfg" <<'CFG'
outdir = "out";
sinks = ( { plugin = "testsink"; } );
experiments = (
  { name = "nodev"; source = { plugin = "testsrc"; cpu = 0;
      fail_open = "no such device here"; }; },
  { name = "far"; source = { plugin = "testsrc"; cpu = 0; ldist_max = "1ms";
      ldist = [ "10us", "2ms" ]; }; },
  { name = "restricted"; source = { plugin = "testsrc"; cpu = 0; };
    cstates = { only = [ "POLL" ]; }; },
  { name = "fine"; source = { plugin = "testsrc"; cpu = 0; }; }
);
CFG
WULTFW_HIDE_CPUIDLE=1 "$WULTFW" -c "$work/machine.cfg" --check >"$work/machine.out" 2>&1
expect_status 3 $? "--check of a valid file this machine cannot run exits 3"
expect_in "$work/machine.out" "machine.cfg:5: experiments[0].source.fail_open: source 'testsrc' cannot run on this machine: no such device here" "--check: a source that cannot open, at its line"
expect_in "$work/machine.out" "machine.cfg:7: experiments[1].source.ldist: [10us, 2ms] is outside what source 'testsrc' can do here" "--check: launch distances the source cannot do here"
expect_in "$work/machine.out" "machine.cfg:9: experiments[2].cstates.only: CPU 0 has no cpuidle states" "--check: a C-state restriction without cpuidle states"
expect_in "$work/machine.out" "experiment 'fine': source testsrc on CPU 0; 1 sink: OK" "--check: the runnable experiment is OK"
(cd "$work" && WULTFW_HIDE_CPUIDLE=1 "$WULTFW" -q -c machine.cfg --only restricted) >"$work/restr.out" 2>&1
expect_status 1 $? "a C-state restriction without cpuidle states fails the experiment"
expect_in "$work/restr.out" "machine.cfg:9: experiments[2].cstates.only: CPU 0 has no cpuidle states (hidden by WULTFW_HIDE_CPUIDLE)" "and says why at the setting's line"

cd "$work" || exit 1
"$WULTFW" -q -c good.cfg
expect_status 0 $? "a good batch runs"
expect_in out/one/testsink.txt "rows=1000 " "first experiment ran to its end"
expect_in out/two/testsink.txt "rows=20 " "second experiment stopped at its limit"
expect_in out/two/logs/cmdline "-q -c good.cfg" "logs/cmdline records the command line"
"$WULTFW" -q -c out/two/logs/config -o rerun
expect_status 0 $? "logs/config is a runnable experiment file"
expect_in rerun/two/testsink.txt "rows=20 " "rerun from logs/config repeats the run"

"$WULTFW" -q -c good.cfg --only two >"$work/again.out" 2>&1
expect_status 1 $? "an existing result directory fails the experiment"
expect_in "$work/again.out" "exists already" "and says why"

# An experiment from standard input (a pipe has no size: not "empty").
printf 'name = "piped"; source = { plugin = "testsrc"; cpu = 0; total = 5; };\nsinks = ( { plugin = "testsink"; } );\n' |
	"$WULTFW" -q -c /dev/stdin -o "$work/piped"
expect_status 0 $? "an experiment file read from a pipe runs"
expect_in "$work/piped/piped/testsink.txt" "rows=5 " "and measures"

# A plugin failure blamed on an option points at the line that set it.
cat >"$work/blame.cfg" <<'CFG'
name = "blame";
source = { plugin = "testsrc"; cpu = 0;
  fail_open = "the device is not there"; };
sinks = ( { plugin = "testsink"; } );
CFG
"$WULTFW" -c "$work/blame.cfg" -o "$work/blame" >"$work/blame.out" 2>&1
expect_status 1 $? "a source that cannot run fails the experiment"
expect_in "$work/blame.out" "blame.cfg:3: source.fail_open: the device is not there" "the error names the option's file:line"

# Ctrl-C in the middle of a run: status 130, results saved.
cat >"$work/slow.cfg" <<'CFG'
name = "slow";
source = { plugin = "testsrc"; cpu = 0; rows_per_read = 10; delay = "20ms"; progress = "made"; };
limits = { time = "10m"; };
sinks = ( { plugin = "testsink"; } );
CFG
"$WULTFW" -q -c slow.cfg -o sig &
pid=$!
# In the middle: once the source has made rows (a loaded machine may take
# seconds to get there).
wait_until test -s made || fail "the slow run made no rows in 120 s"
kill -INT $pid
wait_bounded $pid 60
expect_status 130 $? "SIGINT exits 128+2"
expect_in sig/slow/info.yml "status: 'interrupted'" "info.yml says interrupted"
expect_in sig/slow/testsink.txt "interrupted=1" "sinks were closed with the interrupted summary"
# A result from a machine without cpuidle states (an older wultfw wrote an
# empty ReqCState): calc -c says why there is no breakdown, no "-" group.
printf 'WakeLatency,LDist,ReqCState\n10.5,100,\n12.5,200,\n' >"$work/nostates.csv"
"$WULTFW" calc -c "$work/nostates.csv" >"$work/nostates.out" 2>&1
expect_status 0 $? "calc -c of a result without C-states"
expect_in "$work/nostates.out" "ReqCState is empty in every row (measured without cpuidle states), --per-cstate shows all rows only" "calc -c says why there is no per-C-state breakdown"
if grep -q '^ *- ' "$work/nostates.out"; then fail "calc -c printed a '-' group"; cat "$work/nostates.out"; else ok "no '-' group"; fi

# --sysfs-root (tests only) must name a directory.
"$WULTFW" --check --sysfs-root "$work/nonexistent" >"$work/sysfs.out" 2>&1
expect_status 2 $? "--sysfs-root of no directory exits 2"
expect_in "$work/sysfs.out" "--sysfs-root '$work/nonexistent' is no directory" "and says so"

# A value left out takes no option as the value: `--outdir --check` ran the
# default experiment for real into ./--check.
(cd "$work" && timeout 60 "$WULTFW" --outdir --check >novalue.out 2>&1)
expect_status 2 $? "--outdir --check: refused"
expect_in "$work/novalue.out" "--outdir needs a value, and '--check' is an option" "says the value is missing"
[ ! -e "$work/--check" ] && ok "no directory --check" || fail "--outdir --check made ./--check"
timeout 60 "$WULTFW" calc -m --include "$work/nostates.csv" >"$work/novalue.out" 2>&1
expect_status 2 $? "calc -m --include: refused"
timeout 60 "$WULTFW" calc --include=--x "$work/nostates.csv" >"$work/novalue.out" 2>&1
grep -q "needs a value" "$work/novalue.out" && fail "--include=--x was refused as a missing value" ||
	ok "--include=VALUE still takes a value starting with '-' (the expression then says what is wrong)"
# --include twice: the first was dropped without a word.
timeout 60 "$WULTFW" calc --include 'WakeLatency > 11' --include 'LDist < 150' "$work/nostates.csv" >"$work/twice.out" 2>&1
expect_status 2 $? "--include twice: refused"
expect_in "$work/twice.out" "--include given twice: join the expressions in one" "says how to join them"
finish
