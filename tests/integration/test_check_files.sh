#!/bin/sh
# wultfw --check catches two writers of one file in a result directory
# (sinks, collectors, keep_filtered): an error at the second one's line
# naming the first, not "already exists" once the run has started.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins:${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# Two csv sinks with the default file.
cat >two.cfg <<'CFG'
name = "two";
source = { plugin = "testsrc"; };
limits = { datapoints = 10; };
sinks = ( { plugin = "csv"; },
          { plugin = "csv"; flush_rows = 5; } );
CFG
"$WULTFW" -c two.cfg --check >two.out 2>two.err
expect_status 2 $? "--check: two csv sinks writing datapoints.csv is an error"
expect_in two.err 'two.cfg:5: sinks[1].file: "datapoints.csv" (the default) is written by sinks[0].file (two.cfg:4, its default) too' \
	"at the second sink's line, naming the first"
"$WULTFW" -q -c two.cfg -o out >run.out 2>run.err
expect_status 2 $? "a run refuses the file too"
[ -e out/two ] && fail "a result directory was made" || ok "no result directory left behind"

# A collector writing a sink's file, and keep_filtered's filtered.csv.
cat >mixed.cfg <<'CFG'
name = "mixed";
source = { plugin = "testsrc"; };
sinks = ( { plugin = "csv"; file = "filtered.csv"; },
          { plugin = "testsink"; file = "t.csv"; } );
collect = ( { plugin = "testsampler"; file = "t.csv"; } );
include = "Seq > 1";
keep_filtered = true;
CFG
"$WULTFW" -c mixed.cfg --check >mixed.out 2>mixed.err
expect_status 2 $? "--check: a collector and keep_filtered clashing with sinks"
expect_in mixed.err 'mixed.cfg:5: collect[0]: "t.csv" is written by sinks[1].file (mixed.cfg:4) too' \
	"the collector's clash names the sink"
expect_in mixed.err 'mixed.cfg:7: keep_filtered: "filtered.csv" is written by sinks[0].file (mixed.cfg:3) too' \
	"keep_filtered's clash names the sink"
expect_in mixed.err "2 problems in mixed.cfg" "both at once"

# The stats sink's histogram files count as files it writes.
cat >hist.cfg <<'CFG'
name = "hist";
source = { plugin = "testsrc"; };
sinks = ( { plugin = "csv"; file = "h.txt"; },
          { plugin = "stats"; histogram_metrics = [ "LDist" ];
            histogram = "h.txt"; } );
CFG
"$WULTFW" -c hist.cfg --check >hist.out 2>hist.err
expect_status 2 $? "--check: a stats histogram over a csv sink's file"
expect_in hist.err 'hist.cfg:5: sinks[1].histogram: "h.txt" is written by sinks[0].file (hist.cfg:3) too' \
	"the histogram option is named"

# Distinct files stay fine.
cat >fine.cfg <<'CFG'
name = "fine";
source = { plugin = "testsrc"; };
sinks = ( { plugin = "csv"; }, { plugin = "csv"; file = "b.csv"; } );
collect = ( { plugin = "testsampler"; }, { plugin = "testsampler"; } );
CFG
"$WULTFW" -c fine.cfg --check >fine.out 2>fine.err
expect_status 0 $? "--check: two csv sinks and two collectors with their own files"
finish
