#!/bin/sh
# wultfw --check says what a run would lose or refuse here, as warnings
# with exit status 3: a collector that cannot open on this machine (at its
# line), a result directory that exists already (without --force).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins:${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# A collector whose counter this machine lacks.
cat >coll.cfg <<'CFG'
name = "coll";
source = { plugin = "testsrc"; };
limits = { datapoints = 100; };
sinks = ( { plugin = "csv"; } );
collect = ( { plugin = "testsampler"; },
            { plugin = "telemetry"; file = "net.csv";
              counters = [ "net:nosuch0:rx_packets" ]; } );
CFG
"$WULTFW" -c coll.cfg --check >coll.out 2>coll.err
expect_status 3 $? "--check: a collector that cannot run here is exit status 3"
expect_in coll.err "coll.cfg:7: collect[1].counters: collector 'telemetry' cannot run on this machine: counter 'net:nosuch0:rx_packets'" \
	"warned at the collector's line"
expect_in coll.err "(a run would go on without its net.csv)" "saying what the run would lose"
expect_in coll.out "experiment 'coll': valid, but cannot run here as it is" "the summary line"
grep -q "testsampler" coll.err && fail "the collector that can run was warned about" ||
	ok "no warning for the collector that can run"

# A result directory that exists: a rerun without --force is refused.
cat >again.cfg <<'CFG'
name = "again";
source = { plugin = "testsrc"; };
limits = { datapoints = 10; };
sinks = ( { plugin = "csv"; } );
CFG
"$WULTFW" -c again.cfg -o res --check >a1.out 2>a1.err
expect_status 0 $? "--check before the first run: nothing in the way"
"$WULTFW" -q -c again.cfg -o res
expect_status 0 $? "the first run"
"$WULTFW" -c again.cfg -o res --check >a2.out 2>a2.err
expect_status 3 $? "--check of a rerun without --force: exit status 3"
expect_in a2.err "experiment 'again': result directory res/again exists already" "names the directory"
expect_in a2.err "replace it with --force" "and --force"
"$WULTFW" -c again.cfg -o res --check --force >a3.out 2>a3.err
expect_status 0 $? "--check --force: the run would replace it"
# A directory that is not a result directory: --force does not help.
mkdir -p other/again
"$WULTFW" -c again.cfg -o other --check --force >a4.out 2>a4.err
expect_status 3 $? "--check --force over a directory that is not a result"
expect_in a4.err "other/again exists and is not a wultfw result directory" "says --force would not remove it"
finish
