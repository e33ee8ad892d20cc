#!/bin/sh
# A static build (--disable-shared) must carry every plugin inside the
# binary, preloaded through libltdl, and run without any plugin files.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"

# A clean source tree: what 'make dist' would ship.
make -s -C "$top" distdir distdir="$work/src" >"$work/distdir.log" 2>&1 ||
	{ cat "$work/distdir.log"; fail "make distdir"; finish; }
cd "$work/src" || exit 1
if ! { ./configure -q --disable-shared && make -s -j2; } >"$work/build.log" 2>&1; then
	tail -30 "$work/build.log"
	fail "static build"
	finish
fi
ok "static build"

# Every plugin the shared build installs must be inside the static binary.
WULTFW_PLUGIN_PATH=/nonexistent ./wultfw list-plugins >"$work/list" 2>&1
for la in $(cd "$top" && ls plugins/*/*.la sinks/*/*.la 2>/dev/null); do
	name=$(basename "$la" .la)
	if grep -q "^  $name " "$work/list"; then ok "built in: $name"; else
		fail "plugin $name is not in the static binary"; cat "$work/list"
	fi
done
grep -q "(built in)" "$work/list" && fail "list-plugins shows unusable built-in plugins"

# And it measures with no plugin files anywhere.
if grep -q "^  timer " "$work/list"; then
	WULTFW_PLUGIN_PATH=/nonexistent ./wultfw help timer | grep -q "file: (built in)" &&
		ok "timer is built in" || fail "timer not built in"
	cat >"$work/st.cfg" <<'CFG'
name = "static";
source = { plugin = "timer"; cpu = 0; ldist = "100us"; };
limits = { datapoints = 200; time = "5m"; };
sinks = ( { plugin = "csv"; } );
CFG
	WULTFW_PLUGIN_PATH=/nonexistent ./wultfw -q -c "$work/st.cfg" -o "$work/out"
	expect_status 0 $? "the static binary runs an experiment"
	rows=$(($(wc -l <"$work/out/static/datapoints.csv") - 1))
	[ "$rows" = 200 ] && ok "200 datapoints" || fail "expected 200 rows, got $rows"
fi
finish
