#!/bin/sh
# Every experiment file in examples/ must pass --check with this build's
# plugins: examples are what users copy first.
. "${abs_top_srcdir:?}/tests/integration/lib.sh"
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
checked=0
for cfg in "$srcdir"/examples/*.cfg; do
	missing=""
	for p in $(sed -n 's/.*plugin = "\([a-z0-9_]*\)".*/\1/p' "$cfg" | sort -u); do
		"$WULTFW" help "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "skipped $(basename "$cfg"): plugins not built here:$missing"
		continue
	fi
	if "$WULTFW" -c "$cfg" --check >"$work/out" 2>&1; then
		ok "$(basename "$cfg") passes --check"
	else
		fail "$(basename "$cfg"):"; cat "$work/out"
	fi
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no example was checked"
finish
