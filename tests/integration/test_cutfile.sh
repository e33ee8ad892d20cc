#!/bin/sh
# A CSV file cut shorter while wultfw reads it, at a known moment (the
# preloaded tests/shims/cutfile.c cuts it, as another process would):
# each tool fails with one line saying so and exit 1, never dies of
# SIGBUS, and never reads the shorter file again to exit 0 with the rows
# of another file.
#  - convert and filter copy the rows' texts out of the mapped file after
#    the read (CSV to CSV): cut at their first output flush, in the middle
#    of a batch's copy;
#  - filter -j 2 and calc -j 2 read the file in parts, which fell back to
#    one reader of the whole (now shorter) file; convert -j 2 to binary
#    falls back to the reader it opened first, mapped whole: it says so.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
cd "$work" || exit 1

shim="$top/tests/shims/.libs/cutfile.so"
[ -f "$shim" ] || { echo "SKIP: no $shim (make check builds it)"; exit 77; }
# The length the file is cut to: its header and a few rows.
CUT=4096

# 20000 rows of 30 integers (some 300 bytes a row, printed as they are):
# a batch (8192 rows) is more than the 1 MiB output buffer, so the first
# flush comes in the middle of copying the first batch's texts.
awk 'BEGIN {
	srand(3);
	for (c = 0; c < 30; c++)
		printf "%sC%d", c ? "," : "", c;
	print "";
	for (i = 0; i < 20000; i++)
		for (c = 0; c < 30; c++)
			printf "%d%s", int(rand() * 1000000000), c < 29 ? "," : "\n";
}' >whole.csv

# cut NAME ON [wultfw ARG...]: run wultfw on in.csv (a fresh copy of
# whole.csv) with the file cut to $CUT bytes at ON (the shim's
# WULTFW_CUTFILE_ON); expect exit 1 and the one line.
cut() {
	name=$1 on=$2; shift 2
	cp whole.csv in.csv
	LD_PRELOAD="$shim" WULTFW_CUTFILE="$work/in.csv" WULTFW_CUTFILE_SIZE=$CUT \
		WULTFW_CUTFILE_ON=$on timeout -k 5 120 "$WULTFW" "$@" \
		>"$name.out" 2>"$name.err"
	st=$?
	if [ "$(stat -c %s in.csv)" != $CUT ]; then
		skip_part "$name: the shim did not cut the file (LD_PRELOAD not honoured: a static binary?)"
		return
	fi
	expect_status 1 $st "$name: exit 1, not SIGBUS (135) or 0" "$name.err"
	expect_in "$name.err" "in.csv: the file was cut to $CUT bytes while being read (it had $(stat -c %s whole.csv))" \
		"$name: one line says the file was cut"
	# Besides it, at most the line saying the partial output was removed.
	[ "$(grep -c 'was cut to' "$name.err")" = 1 ] &&
		! grep -v -e 'was cut to' -e 'removed' "$name.err" >/dev/null &&
		ok "$name: said once, nothing else" ||
		{ fail "$name: other lines:"; sed 's/^/    /' "$name.err"; }
}

# The file as it was: every tool reads it whole (the shim loaded, no cut).
LD_PRELOAD="$shim" timeout -k 5 120 "$WULTFW" convert whole.csv -o copy.csv 2>copy.err
expect_status 0 $? "convert of the whole file" copy.err
cmp -s whole.csv copy.csv && ok "the copy is the file" || fail "the copy differs from the file"

cut convert write:1 convert in.csv -o conv.csv
[ ! -e conv.csv ] && ok "convert: no output left" || fail "convert: conv.csv left behind"
cut filter write:1 filter in.csv -o filt
cut filter-j2 write:1 filter -j 2 in.csv -o filt2
# Each reader maps the file once: convert's first one learns the types,
# then the chunks; calc's, a part each. Cut when the second maps it.
cut convert-j2 mmap:2 convert -j 2 in.csv -o conv.wfb
cut calc-j2 mmap:2 calc -j 2 in.csv
[ ! -s calc-j2.out ] && ok "calc: no statistics printed" ||
	{ fail "calc printed statistics:"; sed 's/^/    /' calc-j2.out; }
finish
