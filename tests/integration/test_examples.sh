#!/bin/sh
# Every experiment file in examples/ must pass --check with this build's
# plugins: examples are what users copy first. A valid example that asks
# for what this machine lacks (cpuidle states, kernel modules) passes with
# the machine's reasons printed: --check exits 3 and names file:line.
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
	"$WULTFW" -c "$cfg" --check >"$work/out" 2>&1
	case $? in
	0) ok "$(basename "$cfg") passes --check" ;;
	3)	# Valid, but asks for what this machine lacks: --check says what.
		if grep -q "warning: .*$(basename "$cfg"):[0-9]*: " "$work/out"; then
			ok "$(basename "$cfg") is valid; this machine cannot run all of it:"
			sed -n 's/^wultfw: warning: /    /p' "$work/out"
		else
			fail "$(basename "$cfg"): exit 3 without a located warning:"; cat "$work/out"
		fi ;;
	*) fail "$(basename "$cfg"):"; cat "$work/out" ;;
	esac
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no example was checked"
finish
