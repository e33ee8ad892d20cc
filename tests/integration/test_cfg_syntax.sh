#!/bin/sh
# An experiment file libconfig cannot parse: one line naming FILE:LINE and
# what is expected there, never "syntax error: syntax error".
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

# try TEXT WANT WHAT: an experiment file of TEXT (printf) fails with WANT.
try() {
	printf "$1" >e.cfg
	"$WULTFW" -c e.cfg >out 2>&1 &
	wait_bounded $! 60
	expect_status 2 $? "$3: fails" out
	expect_in out "$2" "$3"
	if grep -q "syntax error: syntax error" out; then fail "$3: the doubled text"; fi
}
try 'outdir "r";\n' "e.cfg:1: syntax error: '=' missing after 'outdir': a setting is \`name = value;\`" \
	"a setting without '='"
try 'seed = 1;\noutdir "r";' "e.cfg:2: syntax error: '=' missing after 'outdir'" \
	"the last line, without a newline"
try 'outdir = "r";\nexperiments = ( { name = "a";\n' \
	"e.cfg:2: syntax error: the '{' opened here is never closed: end it with '}'" \
	"a group never closed"
try 'outdir = "r;\nseed = 1;\n' "e.cfg:1: syntax error: a string opened here is never closed" \
	"a string never closed"
try 'seed.x = 1;\n' "e.cfg:1: syntax error: '.' in the name 'seed'" "a '.' in a name"
try 'seed = 1;;\n' "e.cfg:1: syntax error: expected a setting \`name = value;\`, the value" \
	"a stray ';': the shape of a setting"
try 'a = [1, "x"];\n' "e.cfg:1: mismatched element type in array: an array [ ] holds values of one type" \
	"a mixed array: use a list"
# A FIFO is read once: the hint does not open it again and wait for a writer.
mkfifo fifo.cfg && { printf 'outdir "r";\n' >fifo.cfg & }
timeout 20 "$WULTFW" -c fifo.cfg --check >fifo.out 2>&1
expect_status 2 $? "a FIFO with a syntax error: one error, no wait for a second writer" fifo.out
expect_in fifo.out "fifo.cfg:1: syntax error" "the FIFO's error names its line"
# Nor does the @include hint (the build before: killed by the timeout).
rm fifo.cfg && mkfifo fifo.cfg && { printf '@include "nope.cfg"\n' >fifo.cfg & }
timeout 20 "$WULTFW" -c fifo.cfg --check >fifo-inc.out 2>&1
expect_status 2 $? "a FIFO with a missing @include: one error, no wait for a second writer" fifo-inc.out
expect_in fifo-inc.out "fifo.cfg:1: cannot open include file" "the FIFO's @include error names its line"
finish
