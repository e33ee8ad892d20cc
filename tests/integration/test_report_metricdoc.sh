#!/bin/sh
# What each metric is, by the source that measured it, and its unit: the
# same texts in `wultfw report --list-metrics` and in the page's data, for
# a real timer result (raw columns; CSV and its binary twin), wult's own
# result and results whose info.yml names hrt and tdt.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
export WULTFW_REPORT_ASSETS="$srcdir/lib/report/assets"
cd "$work" || exit 1

cat >timer.cfg <<'CFG'
outdir = "out";
experiments = (
  { name = "timer";
    source = { plugin = "timer"; cpu = 0; ldist = [ "20us", "200us" ]; raw = true; };
    limits = { datapoints = 300; time = "5m"; };
    sinks = ( { plugin = "csv"; }, { plugin = "binary"; } );
  }
);
CFG
"$WULTFW" -q -c timer.cfg
expect_status 0 $? "a real timer measurement with the raw columns"
csv=out/timer/datapoints.csv
wfb=out/timer/datapoints.wfb

# line FILE NAME: the --list-metrics line of column NAME.
line() {
	grep -E "^  $2 " "$1"
}

# descr FILE NAME: what column NAME is, as --list-metrics says.
descr() {
	line "$1" "$2" | sed -n 's/^[^:]*: //p'
}

"$WULTFW" report --list-metrics "$csv" >lm-csv.out 2>&1
expect_status 0 $? "--list-metrics of the timer CSV"
"$WULTFW" report --list-metrics "$wfb" >lm-wfb.out 2>&1
"$WULTFW" report --list-metrics "$srcdir/tests/data/wult-1.3" >lm-wult.out 2>&1
expect_in lm-csv.out "(out/timer/datapoints.csv, source timer):" "the timer result's source is listed"
for name in WakeLatency SilentTime TBI TAI; do
	case "$(descr lm-csv.out $name)" in
	*clock_nanosleep*) ok "timer's $name: $(descr lm-csv.out $name)" ;;
	*) fail "timer's $name does not say it was taken around clock_nanosleep(): $(line lm-csv.out $name)" ;;
	esac
done
case "$(descr lm-wult.out WakeLatency)" in
"launch time to the CPU running again after idle") ok "wult's WakeLatency: wult's text" ;;
*) fail "wult's WakeLatency: $(line lm-wult.out WakeLatency)" ;;
esac
[ "$(descr lm-csv.out LDist)" = "$(descr lm-wult.out LDist)" ] &&
	ok "LDist: timer measures it as wult does, wult's text" ||
	fail "LDist: timer's and wult's texts differ"
for name in LTime TBI TAI; do
	expect_in lm-csv.out "$(printf '  %-16s %-4s numbers' $name ns)" "the CSV's $name in ns (the known unit)"
done
# The binary twin: its schema's units, the same texts.
sed 1d lm-csv.out >csv.body
sed 1d lm-wfb.out >wfb.body
if cmp -s csv.body wfb.body; then ok "the binary twin lists the same units and texts"; else
	fail "the CSV and its binary twin list different metrics:"; diff csv.body wfb.body | head -10
fi

# Sources that measure in the kernel: info.yml's source: decides.
kernel_result() {
	mkdir -p "$1"
	printf "WakeLatency,SilentTime,IntrLatency,LDist,LTime,TotCyc,CC6Cyc,AIOverhead\n" >"$1/datapoints.csv"
	printf "10.5,100.0,9.5,110.0,1000,2000,1500,0.2\n" >>"$1/datapoints.csv"
	printf "reportid: '%s'\nsource: '%s'\n" "$1" "$1" >"$1/info.yml"
}
kernel_result hrt
kernel_result tdt
"$WULTFW" report --list-metrics hrt tdt >lm-k.out 2>&1
expect_status 0 $? "--list-metrics of hrt and tdt results"
sed -n '/^hrt/,/^tdt/p' lm-k.out >lm-hrt.out
sed -n '/^tdt/,$p' lm-k.out >lm-tdt.out
expect_in lm-hrt.out "eBPF" "hrt's latencies are taken in eBPF"
expect_in lm-tdt.out "kernel module" "tdt's latencies are taken in the kernel module"
for pair in "TotCyc cycles" "CC6Cyc cycles" "AIOverhead us" "LTime ns"; do
	set -- $pair
	expect_in lm-tdt.out "$(printf '  %-16s %-6s numbers' $1 $2)" "a CSV's $1 in $2"
done

# The page: each metric's texts are those --list-metrics prints.
"$WULTFW" report -o page -m 'WakeLatency,SilentTime,LTime,TBI' "$csv" \
	"$srcdir/tests/data/wult-1.3" 2>page.err
expect_status 0 $? "report of the timer result and wult's"
for name in WakeLatency SilentTime; do
	want=$(printf '"name": "%s", "unit": "us", "descr": ["%s", "%s"]' $name \
	       "$(descr lm-csv.out $name)" "$(descr lm-wult.out $name)")
	expect_in page/data.js "$want" "the page says what $name is, as --list-metrics does, per result"
done
want=$(printf '"name": "LTime", "unit": "ns", "descr": ["%s", ""]' "$(descr lm-csv.out LTime)")
expect_in page/data.js "$want" "the page's LTime: ns and timer's text (wult's result has none)"
"$WULTFW" report -o page-wfb -m 'WakeLatency,SilentTime,LTime,TBI' "$wfb" \
	"$srcdir/tests/data/wult-1.3" 2>page-wfb.err
meta() {
	grep -o '"name": "[A-Za-z]*", "unit": "[a-z]*", "descr": \[[^]]*\]' "$1"
}
meta page/data.js >page.meta
meta page-wfb/data.js >page-wfb.meta
if [ -s page.meta ] && cmp -s page.meta page-wfb.meta; then
	ok "the binary twin's page: the same units and texts"
else
	fail "the pages of the CSV and its binary twin differ:"; diff page.meta page-wfb.meta | head -10
fi

finish
