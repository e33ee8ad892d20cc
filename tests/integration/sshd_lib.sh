# Loopback sshd instances standing for SUTs, shared by the remote tests and
# tests/bench/bench_remote.sh. Each listens on 127.0.0.x only, with a
# throw-away host key, one authorized user key and its own sshd_config.
# Set SSHD_DIR (an absolute path without spaces, the caller's to remove)
# before using it; everything goes there. Needs nothing from lib.sh.
#
#   sshd_usable || skip "$sshd_why"    root, sshd, ssh, ssh-keygen here?
#   sshd_keys                          hostkey, userkey, authorized_keys
#   sshd_start NAME ADDR [PORT]        sets sshd_port; with PORT: only it
#   sshd_host_config NAME ADDR PORT    a "Host NAME" ssh_config stanza
#   sshd_stop NAME; sshd_stop_all      by their pid files
#   sshd_test_begin TEST               a test's start: skip, or into SSHD_DIR
#   sshd_stop_runs SUTDIR              the SUT runs still going there
#
# A watchdog stops every sshd of SSHD_DIR once the shell that started
# them is gone (even killed with -9) or after SSHD_BOUND seconds (1800),
# so no sshd outlives its test or benchmark; sshd_stop_all stops it too.
# shellcheck shell=sh

sshd_bin=$(command -v sshd || echo /usr/sbin/sshd)
sshd_why=
# Ports from this process id, so parallel tests rarely collide; a port
# that is taken moves on to the next.
sshd_next_port=$((20000 + ($$ * 7) % 20000))
sshd_watchdog=

# sshd_usable: succeeds when this machine can run the loopback sshd,
# else sets sshd_why to what it lacks.
sshd_usable() {
	if [ "$(id -u)" != 0 ]; then
		sshd_why="needs root (sshd with its own config)"
	elif [ ! -x "$sshd_bin" ] || ! command -v ssh >/dev/null ||
		! command -v ssh-keygen >/dev/null; then
		sshd_why="no sshd/ssh/ssh-keygen (Debian openssh-server, openssh-client)"
	else
		return 0
	fi
	return 1
}

# sshd_keys: the host key, the user key it authorizes, an empty known_hosts.
sshd_keys() {
	ssh-keygen -q -t ed25519 -N '' -C wultfw-test-host -f "$SSHD_DIR/hostkey" &&
		ssh-keygen -q -t ed25519 -N '' -C wultfw-test-user -f "$SSHD_DIR/userkey" &&
		cp "$SSHD_DIR/userkey.pub" "$SSHD_DIR/authorized_keys" &&
		: >"$SSHD_DIR/known_hosts" &&
		mkdir -p /run/sshd && chmod 700 /run/sshd
}

# sshd_config NAME ADDR PORT: its config; $sshd_extra adds lines (SetEnv).
sshd_config() {
	cat >"$SSHD_DIR/sshd-$1.config" <<C
ListenAddress $2:$3
HostKey $SSHD_DIR/hostkey
PidFile none
AuthorizedKeysFile $SSHD_DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
${sshd_extra:-}
C
}

# sshd_try NAME ADDR PORT: start it; succeeds once it listens, fails when
# it is gone (the port taken) or 30 s passed (a bound, not a timing check).
sshd_try() {
	sshd_config "$1" "$2" "$3"
	: >"$SSHD_DIR/sshd-$1.log"
	"$sshd_bin" -D -f "$SSHD_DIR/sshd-$1.config" -E "$SSHD_DIR/sshd-$1.log" &
	echo $! >"$SSHD_DIR/sshd-$1.pid"
	_se=$(($(date +%s) + 30))
	until grep -q "Server listening" "$SSHD_DIR/sshd-$1.log"; do
		if grep -q "fatal:" "$SSHD_DIR/sshd-$1.log" ||
			! kill -0 "$(cat "$SSHD_DIR/sshd-$1.pid")" 2>/dev/null ||
			[ "$(date +%s)" -ge $_se ]; then
			sshd_stop "$1"
			return 1
		fi
		sleep 0.1
	done
}

# sshd_watch: the watchdog, started once.
sshd_watch() {
	[ -n "$sshd_watchdog" ] && return
	_parent=$$
	_end=$(($(date +%s) + ${SSHD_BOUND:-1800}))
	(
		trap 'kill "$_s" 2>/dev/null; exit 0' TERM
		while kill -0 $_parent 2>/dev/null && [ "$(date +%s)" -lt $_end ] &&
			[ -d "$SSHD_DIR" ]; do
			sleep 1 & _s=$!
			wait $_s
		done
		for _f in "$SSHD_DIR"/sshd-*.pid; do
			[ -f "$_f" ] && kill "$(cat "$_f")" 2>/dev/null
		done
	) &
	sshd_watchdog=$!
}

# sshd_start NAME ADDR [PORT]: sshd NAME on ADDR; sshd_port says where.
# Its host key goes to SSHD_DIR/known_hosts. Says why on stderr if not.
sshd_start() {
	sshd_watch
	if [ -n "${3:-}" ]; then
		sshd_try "$1" "$2" "$3" && sshd_port=$3
	else
		_tries=0
		until sshd_try "$1" "$2" $sshd_next_port; do
			sshd_next_port=$((sshd_next_port + 11))
			_tries=$((_tries + 1))
			[ $_tries -lt 10 ] || break
		done
		sshd_port=$sshd_next_port
		sshd_next_port=$((sshd_next_port + 1))
		[ $_tries -lt 10 ]
	fi || {
		echo "sshd $1 does not start on $2:" >&2
		cat "$SSHD_DIR/sshd-$1.log" >&2
		return 1
	}
	echo "[$2]:$sshd_port $(cat "$SSHD_DIR/hostkey.pub")" >>"$SSHD_DIR/known_hosts"
}

# sshd_host_config NAME ADDR PORT: ssh_config lines reaching it as root.
sshd_host_config() {
	cat <<C
Host $1
	HostName $2
	Port $3
	User root
	IdentityFile $SSHD_DIR/userkey
	IdentitiesOnly yes
	UserKnownHostsFile $SSHD_DIR/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
C
}

sshd_stop() {
	[ -f "$SSHD_DIR/sshd-$1.pid" ] && kill "$(cat "$SSHD_DIR/sshd-$1.pid")" 2>/dev/null
	return 0
}

sshd_stop_all() {
	for _f in "$SSHD_DIR"/sshd-*.pid; do
		[ -f "$_f" ] && kill "$(cat "$_f")" 2>/dev/null
	done
	if [ -n "$sshd_watchdog" ]; then
		kill "$sshd_watchdog" 2>/dev/null
		wait "$sshd_watchdog" 2>/dev/null
		sshd_watchdog=
	fi
	return 0
}

# sshd_test_begin TEST: what a test of loopback SUTs does first (it has
# lib.sh): exits 77 in one line naming what this machine lacks, else works
# in SSHD_DIR with this build's plugins and no ssh agent (the test's key).
sshd_test_begin() {
	if ! sshd_usable; then
		echo "SKIP: $1: $sshd_why"
		exit 77
	fi
	cd "$SSHD_DIR" || exit 1
	unset SSH_AUTH_SOCK
	export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"
}

# sshd_stop_runs SUTDIR: the SUT runs still going under SUTDIR/run-*
# (detached, sessions of their own: a failed check ends a test first),
# stopped by their pids.
sshd_stop_runs() {
	for _d in "$1"/run-*; do
		[ -f "$_d/pid" ] && [ ! -f "$_d/rc" ] && kill "$(cat "$_d/pid")" 2>/dev/null
	done
	return 0
}
