#!/bin/sh
# The out-of-tree example sampler (examples/plugins/loadavg) as its users
# build it: 'make install' into a temporary root, the example's Makefile
# against that install's header through pkg-config, then run by the
# installed wultfw through WULTFW_PLUGIN_PATH. Also: help shows its bounds,
# ldist is refused for a sampler, the CSV has no LDist.
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

cp -r "$srcdir/examples/plugins/loadavg" "$work/loadavg"
chmod -R go-w "$work/loadavg"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$inst" \
	make -C "$work/loadavg" CFLAGS="-O2 -Wall -Wextra -Werror" >"$work/build.log" 2>&1
expect_status 0 $? "the example builds with its Makefile against the installed header"
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
expect_in "$work/fast" "fast.cfg:4: source.period: \"500us\" is out of range: allowed 1ms to 1h" "bound error at file:line"
finish
