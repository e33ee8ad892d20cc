#!/bin/sh
# The out-of-tree examples (examples/plugins: the loadavg sampler, the
# jsonl sink) as their users build them: 'make install' into a temporary
# root, each example's Makefile against that install's headers through
# pkg-config, then run by the installed wultfw through WULTFW_PLUGIN_PATH.
# Also: help shows loadavg's bounds, ldist is refused for a sampler, the
# CSV has no LDist; jsonl writes what csv writes, and its file option gets
# the csv sink's --check errors; a plugin built for ABI 2, or with a
# descriptor smaller than its headers say, is refused in one line.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"

for tool in pkg-config make cc; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done

inst=$work/inst
# A make of its own: not the parent's jobserver (see tests/vm/run.sh).
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -C "$top" install DESTDIR="$inst" >"$work/install.log" 2>&1
expect_status 0 $? "make install DESTDIR=$inst"
pc=$(find "$inst" -name wultfw.pc | head -1)
prefix=$(sed -n 's/^prefix=//p' "$pc")
bin=$inst$prefix/bin/wultfw
plugindir=$(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$inst \
	pkg-config --variable=plugindir wultfw)
# The examples as installed, as wultfw-plugin(7) (installed too) says.
exdir=$(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$inst \
	pkg-config --variable=examplesdir wultfw)
[ -f "$exdir/loadavg/Makefile" ] && [ -f "$exdir/jsonl/Makefile" ] &&
	ok "the examples are installed in $exdir" || fail "no examples in '$exdir'"
man7=$(find "$inst" -name wultfw-plugin.7 | head -1)
[ -n "$man7" ] && grep -q "^\.I ${exdir#"$inst"}/" "$man7" &&
	ok "wultfw-plugin(7) is installed and names the examples' directory" ||
	fail "no installed wultfw-plugin.7 naming ${exdir#"$inst"}"

for ex in loadavg jsonl; do
	cp -r "$exdir/$ex" "$work/$ex"
	chmod -R go-w "$work/$ex"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$inst" \
		make -C "$work/$ex" CFLAGS="-O2 -Wall -Wextra -Werror" >"$work/build-$ex.log" 2>&1
	expect_status 0 $? "the $ex example builds with its Makefile against the installed headers"
done
PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$inst" \
	pkg-config --cflags wultfw >"$work/cflags"
expect_in "$work/cflags" "-I$inst$prefix/include" "pkg-config points at the temporary install"

# The installed column derivation (<wultfw/kside.h>, libwultfw_kside.a),
# linked into a shared object as an out-of-tree kernel-side source would.
cat >"$work/kside.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include <wultfw/kside.h>

int probe_kside(void);
int probe_kside(void)
{
	static const char *const names[] = { "POLL", "C1" };
	struct wultfw_kside_cfg cfg = { .cstate_names = names, .n_cstates = 2 };
	struct wultfw_kside ks;

	if (wultfw_kside_init(&ks, &cfg))
		return 1;
	return strcmp(ks.schema.cols[0].name, "WakeLatency") != 0;
}
CEOF
cat >"$work/kside_main.c" <<'CEOF'
int probe_kside(void);
int main(void) { return probe_kside(); }
CEOF
# shellcheck disable=SC2046
cc -shared -fPIC -o "$work/libprobe.so" "$work/kside.c" \
	$(PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$inst" \
	  pkg-config --cflags --libs wultfw) >"$work/kside.log" 2>&1 &&
	cc -o "$work/kside_main" "$work/kside_main.c" -L"$work" -lprobe >>"$work/kside.log" 2>&1 &&
	LD_LIBRARY_PATH=$work "$work/kside_main"
expect_status 0 $? "an out-of-tree .so derives wult columns with the installed kside"

export WULTFW_PLUGIN_PATH="$work/loadavg:$plugindir"
"$bin" help loadavg >"$work/help" 2>&1
expect_status 0 $? "help loadavg"
expect_in "$work/help" "allowed: 1ms to 1h" "help shows the option's bounds"
expect_in "$work/help" "(no ldist: this source is a sampler)" "help says it takes no ldist"

cd "$work" || exit 1
# --time: a bound for a hang (the file stops the run at 10 datapoints).
"$bin" -c "$work/loadavg/loadavg.cfg" --time 1m >"$work/run" 2>&1
expect_status 0 $? "wultfw -c loadavg.cfg runs the out-of-tree sampler"
csv=$work/results/loadavg/datapoints.csv
expect_in "$csv" "Load1" "the CSV has the sampler's columns"
rows=$(($(wc -l <"$csv") - 1))
expect_status 10 "$rows" "10 datapoints, as limited"
if grep -q "LDist" "$csv" "$work/results/loadavg/info.yml"; then
	fail "a sampler's results mention LDist/ldist"
else
	ok "no LDist in the CSV, no ldist in info.yml"
fi

sed 's/period = "50ms";/period = "50ms"; ldist = "100us";/' \
	"$work/loadavg/loadavg.cfg" >"$work/bad.cfg"
"$bin" --check -c "$work/bad.cfg" >"$work/bad" 2>&1
expect_status 2 $? "ldist for a sampler is refused"
expect_in "$work/bad" "bad.cfg:4: source.ldist: source 'loadavg' is a sampler and takes no launch distance" "at file:line"

sed 's/period = "50ms";/period = "0.5ms";/' "$work/loadavg/loadavg.cfg" >"$work/fast.cfg"
"$bin" --check -c "$work/fast.cfg" >"$work/fast" 2>&1
expect_status 2 $? "a period below the declared bound is refused"
expect_in "$work/fast" "fast.cfg:4: source.period: \"0.5ms\" is out of range: allowed 1ms to 1h" "bound error at file:line, the value as written"

# The example sink next to the csv sink: the same datapoints, one JSON
# object a line (--time: a bound for a hang).
export WULTFW_PLUGIN_PATH="$work/loadavg:$work/jsonl:$plugindir"
"$bin" -c "$work/jsonl/jsonl.cfg" --time 1m >"$work/jrun" 2>&1
expect_status 0 $? "wultfw -c jsonl.cfg runs the out-of-tree sink"
jl=$work/results/jsonl/datapoints.jsonl
jcsv=$work/results/jsonl/datapoints.csv
expect_status 100 "$(wc -l <"$jl")" "100 JSON lines, as limited"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$jl" "$jcsv" >"$work/jcmp" 2>&1 <<'PYEOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[2])))
objs = [json.loads(l) for l in open(sys.argv[1])]
assert len(objs) == len(rows), (len(objs), len(rows))
for o, r in zip(objs, rows):
    assert list(o) == list(r), (list(o), list(r))
    for k, v in o.items():
        assert (v if isinstance(v, str) else float(v)) == \
            (r[k] if isinstance(v, str) else float(r[k])), (k, v, r[k])
print("same")
PYEOF
	expect_in "$work/jcmp" "same" "every JSON line holds the CSV row's values"
else
	grep -c '^{"WakeLatency":[-0-9.]*,' "$jl" | grep -qx 100 &&
		ok "every line is an object starting with WakeLatency (no python3 to compare with the CSV)" ||
		fail "$jl does not hold 100 objects"
fi

# The out-of-tree sink's file option gets the in-tree csv sink's errors.
for f in '../x' '/tmp/x' ''; do
	for s in jsonl csv; do
		printf 'name = "b";\nsource = { plugin = "loadavg"; };\nsinks = ( { plugin = "%s";\n  file = "%s"; } );\n' \
			"$s" "$f" >"$work/bad-$s.cfg"
		"$bin" --check -c "$work/bad-$s.cfg" >"$work/bad-$s" 2>&1
		expect_status 2 $? "$s: file = \"$f\" is refused by --check"
	done
	sed "s/bad-jsonl.cfg/bad-SINK.cfg/; s/jsonl/SINK/" "$work/bad-jsonl" >"$work/bad-j"
	sed "s/bad-csv.cfg/bad-SINK.cfg/; s/csv/SINK/" "$work/bad-csv" >"$work/bad-c"
	if cmp -s "$work/bad-j" "$work/bad-c" && grep -q 'bad-SINK.cfg:4: sinks\[0\].file: ' "$work/bad-j"; then
		ok "file = \"$f\": the same error at file:line as csv's: $(head -1 "$work/bad-jsonl")"
	else
		fail "file = \"$f\": jsonl says '$(cat "$work/bad-jsonl")', csv '$(cat "$work/bad-csv")'"
	fi
done

# Built against these headers but for ABI 2, or with too small a size:
# refused in one line naming the file and the versions or sizes.
mkdir "$work/old" "$work/small"
sed 's/\.abi_version = WULTFW_PLUGIN_ABI_VERSION,/.abi_version = 2,/' \
	"$work/loadavg/loadavg.c" >"$work/old/loadavg.c"
sed 's/\.size = sizeof(struct wultfw_plugin),/.size = 16,/' \
	"$work/loadavg/loadavg.c" >"$work/small/loadavg.c"
for d in old small; do
	# shellcheck disable=SC2046
	cc -shared -fPIC -o "$work/$d/loadavg.so" "$work/$d/loadavg.c" \
		$(PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$inst" \
		  pkg-config --cflags wultfw) >"$work/$d/cc.log" 2>&1 ||
		fail "$d: cannot build: $(cat "$work/$d/cc.log")"
	chmod -R go-w "$work/$d"
	WULTFW_PLUGIN_PATH="$work/$d:$plugindir" "$bin" --check -c "$work/loadavg/loadavg.cfg" >"$work/$d/out" 2>&1
	expect_status 2 $? "$d: the plugin is refused"
done
expect_in "$work/old/out" "loadavg.cfg:4: source.plugin: plugin 'loadavg' ($work/old/loadavg.so) has plugin ABI version 2 but this wultfw needs 3: rebuild it" \
	"ABI 2: one line naming the file and both versions"
expect_in "$work/small/out" "plugin 'loadavg' ($work/small/loadavg.so) has a 16-byte descriptor, less than ABI 3's smallest" \
	"a descriptor too small for its ABI: one line naming the file and the sizes"
finish
