#!/bin/sh
# The Debian packages as a lab user meets them: build them from a clean copy
# of the source ('make deb'), lintian, 'apt-get install ./*.deb', measure with
# /usr/bin/wultfw, build the out-of-tree example source and sink wultfw-dev
# ships against it with pkg-config and load them, check DKMS built the
# modules, purge, and check nothing of ours is left. Needs root and the
# Debian packaging tools.
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "installing packages needs root"

# A source install in /usr/local (the README's first command makes one) would
# stand in for the package: its wultfw.pc, headers and bash completion come
# first in the default search paths. Hide it: run again in a private mount
# namespace with an empty tmpfs on /usr/local, which goes with this test and
# changes nothing in the real /usr/local.
if [ -z "${WULTFW_DEBS_HIDDEN:-}" ]; then
	for p in /usr/local/bin/wultfw /usr/local/lib/wultfw /usr/local/lib/*/wultfw \
		/usr/local/share/wultfw /usr/local/include/wultfw; do
		[ -e "$p" ] || continue
		unshare --mount --propagation private true 2>/dev/null ||
			skip "a source install is in /usr/local ($p) and no mount namespace to hide it in (unshare --mount failed): 'make uninstall' it first"
		echo "note: a source install is in /usr/local ($p): hidden from this test (empty tmpfs in a private mount namespace)"
		WULTFW_DEBS_HIDDEN=1 exec unshare --mount --propagation private sh -c '
			mount -t tmpfs -o mode=0755,size=1m wultfw-test /usr/local ||
				{ echo "SKIP: could not hide /usr/local (mount -t tmpfs failed)"; exit 77; }
			exec sh "$0"' "$0"
	done
fi

. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"
for t in dpkg-buildpackage dh dh_dkms dkms lintian apt-get; do
	command -v $t >/dev/null ||
		skip "$t not found (scripts/install-deps.sh installs the Debian packaging tools)"
done
# One package test at a time on this machine (engineers share it): another
# one's purge would remove the packages under this one.
exec 9>/run/lock/wultfw-test-debs.lock
flock -w 600 9 || skip "another tests/debs/test_debs.sh held the machine's packages for 10 minutes"
pkgs="wultfw wultfw-dev wultfw-dkms"
# shellcheck disable=SC2086
dpkg -s $pkgs >/dev/null 2>&1 &&
	skip "wultfw packages are installed already: 'apt-get purge $pkgs' first"
# Another apt or dpkg at work is waited for (e.g. unattended-upgrades).
apt="apt-get -o DPkg::Lock::Timeout=300"
# DKMS makes its signing key for the first module it signs and keeps it for
# every DKMS module (doc/building.md, "Debian packages"): one this test made, with no
# other DKMS module beside it, goes with the test.
key_before=$([ -e /var/lib/dkms/mok.key ] && echo yes)
dkms_dir_before=$([ -d /var/lib/dkms ] && echo yes)
forget_dkms_key() {
	[ -z "$key_before" ] && [ -e /var/lib/dkms/mok.key ] || return 0
	# Anything else there (another package's modules) may use it: it stays.
	[ -z "$(ls -A /var/lib/dkms | grep -v '^mok\.\(key\|pub\)$')" ] || return 0
	echo "note: DKMS made its signing key /var/lib/dkms/mok.key, mok.pub in this test: removed"
	rm -f /var/lib/dkms/mok.key /var/lib/dkms/mok.pub
	[ -n "$dkms_dir_before" ] || rmdir /var/lib/dkms 2>/dev/null
	return 0
}
# shellcheck disable=SC2086
trap '$apt purge -y -qq $pkgs >/dev/null 2>&1; forget_dkms_key; rm -rf "$work"' EXIT

start=$(date +%s)

# report_without_npm RESULT: /usr/bin/wultfw report RESULT as on a machine
# that installed only the .debs: npm's directories under empty tmpfs in a
# private mount namespace (only the report sees them so), no WULTFW_*
# variable naming other files; the page must carry the packaged plotly.js.
report_without_npm() {
	pj=/usr/share/wultfw/report/plotly.min.js
	grep -qx "$pj" "$work/files" && ok "the wultfw package ships $pj" ||
		fail "no $pj in the packages (debian/rules fetches it)"
	# shellcheck disable=SC2046
	bad=$(grep -l node_modules /usr/bin/wultfw $(grep '\.so$' "$work/files"))
	[ -z "$bad" ] && ok "no node_modules path compiled into the package" ||
		fail "a node_modules path is compiled into $(echo "$bad" | tr '\n' ' ')"
	# Nor the build tree's (scripts/build-debs.sh builds in
	# $TMPDIR/wultfw-debs-XXXXXX/src): the binary would look there, and the
	# package would differ with every build directory.
	# shellcheck disable=SC2046
	bad=$(grep -l -e "${TMPDIR:-/tmp}/wultfw-debs-" -e /debian/plotly/ \
		/usr/bin/wultfw $(grep '\.so$' "$work/files"))
	[ -z "$bad" ] && ok "no build path compiled into the package" ||
		fail "a build path is compiled into $(echo "$bad" | tr '\n' ' ')"
	unshare --mount --propagation private true 2>/dev/null || {
		skip_part "report without npm's copy: no mount namespace here (unshare --mount failed)"
		return
	}
	timeout 120 unshare --mount --propagation private sh -c '
		for d in /usr/lib/node_modules /usr/local/lib/node_modules; do
			[ -d "$d" ] || continue
			mount -t tmpfs -o mode=0755,size=1m wultfw-test "$d" || exit 3
		done
		left=$(find /usr/lib/node_modules /usr/local/lib/node_modules -mindepth 1 2>/dev/null)
		[ -z "$left" ] || { echo "npm files still visible: $left"; exit 3; }
		exec env -u WULTFW_PLOTLY_JS -u WULTFW_REPORT_ASSETS \
			/usr/bin/wultfw report -o "$1" "$2"' sh "$work/report" "$1" \
		>"$work/report.log" 2>&1
	expect_status 0 $? "wultfw report with npm's directories empty"
	sed "s/^/    /" "$work/report.log" | head -5
	cmp -s "$pj" "$work/report/plotly.min.js" &&
		ok "the report carries the packaged plotly.js" ||
		fail "$work/report/plotly.min.js is not the packaged $pj"
	pver=$(awk '!/^#/ { print $2 }' "$srcdir/debian/plotly.lock")
	expect_in "$work/report/plotly.min.js" "plotly.js (gl2d - minified) v$pver" \
		"the report's plotly.min.js is plotly.js $pver, as debian/plotly.lock pins"
	expect_in "$work/report/index.html" 'src="plotly.min.js"' "the page loads its own plotly.min.js"
	open_page "$work/report"
}

# open_page DIR: headless Chromium draws DIR/index.html with no error.
open_page() {
	chromium=$(command -v chromium || command -v chromium-browser)
	[ -n "$chromium" ] || {
		skip_part "drawing the report: no chromium (Debian package chromium)"
		return
	}
	timeout 300 "$chromium" --headless --no-sandbox --disable-gpu \
		--enable-unsafe-swiftshader --user-data-dir="$work/chromium-profile" \
		--virtual-time-budget=60000 --dump-dom "file://$1/index.html" \
		>"$work/page.dom" 2>"$work/chromium.log"
	status=$(sed -n 's/.*<footer id="status" data-status="\([a-z]*\)"[^>]*>\([^<]*\).*/\1: \2/p' "$work/page.dom")
	case $status in
	"ok: "*) ok "Chromium draws the report: $status" ;;
	*) fail "the report page says '${status:-nothing (did it load?)}'" ;;
	esac
}
step() { echo "[$(($(date +%s) - start)) s] $*"; }

step "make deb"
if ! make -C "$top" deb DEBS_DIR="$work/debs" >"$work/deb.log" 2>&1; then
	fail "make deb:"; tail -30 "$work/deb.log"; finish
fi
for p in $pkgs; do
	ls "$work/debs/${p}_"*.deb >/dev/null 2>&1 || fail "make deb built no $p package"
done

step "lintian"
lintian "$work"/debs/wultfw*.changes >"$work/lintian.log" 2>&1
if grep -q '^E:' "$work/lintian.log"; then fail "lintian errors:"; grep '^E:' "$work/lintian.log"; else
	ok "lintian: no errors ($(grep -c '^W:' "$work/lintian.log") warnings)"
fi
grep '^W:' "$work/lintian.log" | sed 's/^/    /'

step "apt-get install"
if ! $apt install -y -q --no-install-recommends "$work"/debs/wultfw_*.deb \
	"$work"/debs/wultfw-dev_*.deb "$work"/debs/wultfw-dkms_*.deb >"$work/apt.log" 2>&1; then
	fail "apt-get install:"; tail -30 "$work/apt.log"; finish
fi
# shellcheck disable=SC2086
dpkg -L $pkgs | sort -u >"$work/files"

# wultfw --version says the upstream version and the package's; info.yml
# the upstream one.
debver=$(dpkg-query -W -f '${Version}' wultfw)
ver=$(echo "$debver" | sed 's/-[^-]*$//')
got=$(/usr/bin/wultfw --version)
[ "$got" = "wultfw $ver (Debian $debver)" ] && ok "wultfw --version: $got" ||
	fail "wultfw --version says '$got', the package is $debver"
# Every example experiment of the source, as it is there.
for f in "$srcdir"/examples/*.cfg; do
	shipped=/usr/share/doc/wultfw/examples/${f##*/}
	cmp -s "$f" "$shipped" || fail "the package does not ship $shipped as in examples/"
done
ok "examples shipped: $(ls /usr/share/doc/wultfw/examples | tr '\n' ' ')"
grep -q "/usr/lib/.*/wultfw/hrt.so" "$work/files" && ok "hrt plugin packaged" ||
	fail "no hrt.so in the wultfw package (was the build machine without clang, bpftool or BTF?)"

grep -q 'modules-load\|modprobe.d' "$work/files" &&
	fail "a package loads modules at boot: $(grep 'modules-load\|modprobe.d' "$work/files")" ||
	ok "nothing loads the modules at boot"
# bash-completion's on-demand loader finds the packaged completion.
if [ -r /usr/share/bash-completion/bash_completion ]; then
	got=$(bash -c '. /usr/share/bash-completion/bash_completion
		__load_completion wultfw && complete -p wultfw' 2>&1)
	case $got in
	*"-F _wultfw wultfw"*) ok "bash-completion loads the packaged completion" ;;
	*) fail "bash-completion does not load the wultfw completion: $got" ;;
	esac
fi

step "default experiment with /usr/bin/wultfw"
mkdir "$work/run"
(cd "$work/run" && /usr/bin/wultfw --no-progress -o "$work/run/res") >"$work/run.log" 2>&1
expect_status 0 $? "default experiment with the installed wultfw"
res=$(ls -d "$work"/run/res/timer-* 2>/dev/null | head -1)
rows=$(($(wc -l <"$res/datapoints.csv" 2>/dev/null || echo 1) - 1))
[ "$rows" -ge 1000 ] && ok "default experiment: $rows datapoints" ||
	fail "default experiment: $rows datapoints in $res/datapoints.csv"
expect_in "$res/info.yml" "toolver: 'n/a (wultfw $ver)'" "info.yml records version $ver (toolver 'n/a (wultfw $ver)', as wult shows it)"

step "wultfw report without npm's plotly.js"
report_without_npm "$res"

step "out-of-tree plugins against wultfw-dev"
# The examples wultfw-dev ships for authors to copy (wultfw-plugin(7) says
# where), each built with its own Makefile (pkg-config finds wultfw-dev's
# wultfw.pc in the default path): the loadavg sampler and the jsonl sink.
exdir=$(pkg-config --variable=examplesdir wultfw)
[ "$exdir" = /usr/share/wultfw/examples/plugins ] && ok "pkg-config names the examples: $exdir" ||
	fail "pkg-config --variable=examplesdir wultfw says '$exdir'"
grep -q "/usr/share/man/man7/wultfw-plugin.7" "$work/files" && ok "wultfw-plugin(7) packaged" ||
	fail "no wultfw-plugin.7 in the packages"
for ex in loadavg jsonl; do
	cp -r "$exdir/$ex" "$work/$ex"
	chmod -R go-w "$work/$ex"
	if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$work/$ex" \
		CFLAGS="-O2 -Wall -Wextra -Werror" >"$work/cc-$ex.log" 2>&1; then
		ok "the $ex example built with its Makefile against wultfw-dev"
	else
		fail "building the $ex example against wultfw-dev:"; cat "$work/cc-$ex.log"
	fi
done
(cd "$work/run" && WULTFW_PLUGIN_PATH="$work/loadavg" /usr/bin/wultfw \
	--no-progress -c "$work/loadavg/loadavg.cfg") >"$work/plugin.log" 2>&1
expect_status 0 $? "experiment with the out-of-tree loadavg sampler"
csv=$work/run/results/loadavg/datapoints.csv
rows=$(($(wc -l <"$csv" 2>/dev/null || echo 1) - 1))
[ "$rows" -eq 10 ] && ok "loadavg: 10 datapoints, as limited" ||
	{ fail "loadavg: $rows datapoints in $csv, want 10"; cat "$work/plugin.log"; }
expect_in "$csv" "Load1" "the CSV has the sampler's columns"
(cd "$work/run" && WULTFW_PLUGIN_PATH="$work/jsonl" /usr/bin/wultfw \
	--no-progress --time 1m -c "$work/jsonl/jsonl.cfg") >"$work/sink.log" 2>&1
expect_status 0 $? "experiment with the out-of-tree jsonl sink"
jl=$work/run/results/jsonl/datapoints.jsonl
rows=$(grep -c '^{"WakeLatency":' "$jl" 2>/dev/null)
[ "$rows" = 100 ] && ok "jsonl: 100 JSON lines, as limited" ||
	{ fail "jsonl: '$rows' lines in $jl, want 100"; cat "$work/sink.log"; }

step "dkms"
# What the package says about the running kernel (debian/wultfw-dkms.postinst).
awk '/^wultfw-dkms:/ { on = 1 } on && !/^(wultfw-dkms:|  )/ { on = 0 } on' \
	"$work/apt.log" | sed 's/^/    /'
run=$(uname -r)
if [ ! -e /proc/modules ]; then
	expect_in "$work/apt.log" "the running kernel $run cannot load modules" \
		"install says the running kernel $run cannot load modules"
elif [ ! -e "/lib/modules/$run/build" ]; then
	expect_in "$work/apt.log" "no headers for the running kernel $run" \
		"install says the running kernel $run has no headers"
fi
kver=$(ls -v /lib/modules 2>/dev/null | while read -r k; do
	[ -e "/lib/modules/$k/build" ] && echo "$k"; done | tail -1)
if [ -z "$kver" ]; then
	skip_part "the DKMS build: no kernel headers installed (Debian package linux-headers-amd64)"
else
	dkms status "wultfw/$ver" -k "$kver" >"$work/dkms.log" 2>&1
	expect_in "$work/dkms.log" "installed" "dkms built wultfw $ver for kernel $kver"
	ls /lib/modules/"$kver"/updates/dkms/wultfw_tdt.ko* >/dev/null 2>&1 &&
		ok "wultfw_tdt.ko installed for $kver" || fail "no wultfw_tdt.ko in /lib/modules/$kver/updates/dkms"
fi

step "apt-get purge"
# shellcheck disable=SC2086
$apt purge -y -q $pkgs >"$work/purge.log" 2>&1
expect_status 0 $? "apt-get purge"
left=$(while read -r f; do
	if [ -e "$f" ] && { [ ! -d "$f" ] || case $f in *wultfw*) true ;; *) false ;; esac; }; then
		echo "$f"
	fi
done <"$work/files"
ls -d /var/lib/dkms/wultfw /lib/modules/*/updates/dkms/wultfw* /usr/local/*/wultfw* 2>/dev/null)
[ -z "$left" ] && ok "nothing of ours left after purge" ||
	fail "left after purge: $(echo "$left" | tr '\n' ' ')"
step "done"
finish
