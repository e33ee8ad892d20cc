#!/bin/sh
# The stats sink's group_by and metrics name the source's columns: a typo
# is an error at its line with a did-you-mean when the file is loaded
# (against the columns the source declares), all of them at once; where
# the source declares none, --check warns (exit 3) once it opened it, and
# a run refuses before it makes a result directory.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="$top/tests/plugins:${WULTFW_BUILD_PLUGIN_PATH:?}"
cd "$work" || exit 1

# testsrc declares Seq, LDist (numeric) and ReqCState (ENUM).
cat >typo.cfg <<'CFG'
name = "typo";
source = { plugin = "testsrc"; };
limits = { datapoints = 10; };
sinks = ( { plugin = "stats"; group_by = "ReqCstate";
            metrics = [ "LDist",
                        "LDst", "Seq*", "Nope*" ]; } );
CFG
"$WULTFW" -c typo.cfg --check >typo.out 2>typo.err
expect_status 2 $? "--check: a group_by typo is an error"
expect_in typo.err "typo.cfg:4: sinks[0].group_by: source 'testsrc' declares no ENUM column named 'ReqCstate' (did you mean 'ReqCState'?)" \
	"group_by: at its line, with a did-you-mean"
expect_in typo.err "typo.cfg:6: sinks[0].metrics: source 'testsrc' declares no numeric column named 'LDst' (did you mean 'LDist'?)" \
	"metrics: at the element's line, with a did-you-mean"
expect_in typo.err "sinks[0].metrics: source 'testsrc' declares no numeric column matching 'Nope*'" \
	"a pattern that matches no column"
expect_in typo.err "3 problems in typo.cfg" "all three at once (Seq* and LDist are fine)"
"$WULTFW" -q -c typo.cfg -o out >/dev/null 2>&1
expect_status 2 $? "a run refuses the file"
[ -e out/typo ] && fail "a result directory was left behind" || ok "no result directory"

# The wrong type of column.
cat >types.cfg <<'CFG'
name = "types";
source = { plugin = "testsrc"; };
sinks = ( { plugin = "stats"; group_by = "LDist"; metrics = [ "ReqCState" ]; } );
CFG
"$WULTFW" -c types.cfg --check >types.out 2>types.err
expect_status 2 $? "--check: group_by naming a numeric column"
expect_in types.err "sinks[0].group_by: 'LDist' is not an ENUM column of source 'testsrc'; its ENUM columns: ReqCState" "group_by wants an ENUM column"
expect_in types.err "sinks[0].metrics: 'ReqCState' is not a numeric column of source 'testsrc'" "metrics want numeric ones"

# Right names pass, and group_by's default is not checked (a sampler has no ReqCState).
cat >good.cfg <<'CFG'
name = "good";
source = { plugin = "testsrc"; };
sinks = ( { plugin = "stats"; group_by = "ReqCState"; metrics = [ "LDist", "Seq*" ]; } );
CFG
"$WULTFW" -c good.cfg --check >good.out 2>good.err
expect_status 0 $? "--check: names the source declares"

# testsampler declares no columns: --check opens it and warns; a run refuses
# before making its result directory.
cat >open.cfg <<'CFG'
name = "open";
source = { plugin = "testsampler"; };
limits = { datapoints = 10; };
sinks = ( { plugin = "stats"; group_by = "Seq";
            metrics = [ "Valeu", "Seq" ]; } );
CFG
"$WULTFW" -c open.cfg --check >open.out 2>open.err
expect_status 3 $? "--check: against the columns the opened source gives: exit 3"
expect_in open.err "warning: open.cfg:4: sinks[0].group_by: 'Seq' is not an ENUM column of source 'testsampler'" "group_by warned at its line"
expect_in open.err "warning: open.cfg:5: sinks[0].metrics: source 'testsampler' gives on this machine no numeric column named 'Valeu' (did you mean 'Value'?)" \
	"metrics warned at its line, with a did-you-mean"
"$WULTFW" -q -c open.cfg -o out >open.run 2>&1
expect_status 1 $? "a run fails"
expect_in open.run "open.cfg:5: sinks[0].metrics: source 'testsampler' gives on this machine no numeric column named 'Valeu'" "with every problem"
[ -e out/open ] && fail "a failed result directory was left behind" || ok "before it makes a result directory"
finish
