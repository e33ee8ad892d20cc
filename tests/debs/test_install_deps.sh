#!/bin/sh
# scripts/install-deps.sh against a stub apt-get (nothing is installed): every
# flag counts, an unknown one is refused with the usage line, and a lock held
# by another apt is waited for, within --lock-timeout.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: install-deps.sh runs only as root"; exit 77; }
mkdir "$work/bin"
# The stub answers "locked" as many times as $work/locked says, then succeeds.
cat >"$work/bin/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$work/calls"
n=\$(cat "$work/locked" 2>/dev/null || echo 0)
[ "\$n" -gt 0 ] || exit 0
echo \$((n - 1)) >"$work/locked"
echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (stub)" >&2
exit 100
EOF
printf '#!/bin/sh\nexit 0\n' >"$work/bin/npm"
chmod +x "$work/bin/apt-get" "$work/bin/npm"
deps() {
	: >"$work/calls"
	PATH="$work/bin:$PATH" timeout 60 sh "$srcdir/scripts/install-deps.sh" "$@" \
		>"$work/out" 2>"$work/err"
}

deps --bench --wult
expect_status 0 $? "install-deps.sh --bench --wult"
install=$(grep '^-o DPkg::Lock::Timeout=[0-9]* install ' "$work/calls" | head -1)
for p in lintian python3-pandas time python3-paramiko python3-plotly; do
	case " $install " in
	*" $p "*) ;;
	*) fail "--bench --wult: $p not installed: $install" ;;
	esac
done
ok "--bench --wult: the base, bench and wult packages in one apt-get install"

deps --wult --bogus
expect_status 2 $? "an unknown option"
expect_in "$work/err" "unknown option '--bogus'" "the unknown option is named"
expect_in "$work/err" "usage: " "with the usage line"
[ -s "$work/calls" ] && fail "apt-get ran despite a bad option" || ok "apt-get did not run"

deps --help
expect_status 0 $? "--help"
expect_in "$work/out" "--lock-timeout SECONDS" "--help lists the options"

echo 2 >"$work/locked"
deps --lock-timeout 30
expect_status 0 $? "another apt holds the lock for two tries"
expect_in "$work/err" "waiting up to 30 s for another apt or dpkg: Could not get lock" \
	"says it waits, and for whom"
[ "$(grep -c ' update ' "$work/calls")" = 3 ] && ok "apt-get update tried again until it got the lock" ||
	fail "apt-get update ran $(grep -c ' update ' "$work/calls") times, want 3"

echo 1000 >"$work/locked"
deps --lock-timeout 0
expect_status 1 $? "the lock is still held after --lock-timeout"
expect_in "$work/err" "E: Could not get lock" "apt's own error is shown"
finish
