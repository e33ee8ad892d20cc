#!/bin/sh
# A hostile SUT cannot make `wultfw fetch` write outside the result
# directory. ssh is a stand-in here (first on PATH): the "SUT" is this
# machine, and the archive its `tar c` sends is one the test built: an
# absolute path, a '..' member, set-user-ID and set-group-ID files, a
# symbolic link out with a file written through it, a hard link to
# /etc/passwd with a file written through it, a device file, a FIFO, a
# member outside the result's directory. Each is refused naming the
# member, nothing is unpacked and nothing outside the result directory
# changes. A good archive with odd owners and modes arrives owned by this
# user, files 0644 and directories 0755. Host names that are not ones are
# refused before anything is contacted, with file:line for hosts = [...].
. "${abs_top_srcdir:?}/tests/integration/lib.sh"

if ! command -v python3 >/dev/null; then
	echo "SKIP: test_fetch_hostile: no python3 to build the hostile archives"
	exit 77
fi
cwork=$(cd "$work" && pwd -P)
cd "$work" || exit 1
export WULTFW_PLUGIN_PATH="${WULTFW_BUILD_PLUGIN_PATH:?}"

# Host names.
# --host=NAME: a separate word starting with '-' is refused before (an
# option, not a value: checked below).
for h in .. . "a/b" -oProxyCommand=x "sut1,,sut2" "root@.." "a b" "[zz::1]"; do
	timeout 60 "$WULTFW" fetch --host="$h" >host.out 2>&1
	st=$?
	if [ $st != 2 ] || ! grep -q "^wultfw: error: -H" host.out; then
		fail "-H '$h' was not refused at the command line (status $st):"; cat host.out
	fi
done
ok "-H refuses '..', '.', a '/', a leading '-', an empty name, a space, a bad IPv6 address"
timeout 60 "$WULTFW" fetch -H -oProxyCommand=x >host.out 2>&1
expect_status 2 $? "-H -oProxyCommand=x (a separate word) is refused too"
cat >hosts.cfg <<'CFG'
name = "t";
source = { plugin = "timer"; cpu = 0; ldist = "100us"; };
limits = { datapoints = 10; };
sinks = ( { plugin = "csv"; } );
hosts = [ "sut1", "root@[::1]",
	"..",
	"a/b" ];
CFG
"$WULTFW" -c hosts.cfg --check >hosts.out 2>&1
expect_status 2 $? "hosts = [...] with bad names"
expect_in hosts.out "hosts.cfg:6: hosts[2]: '..': '.' and '..' are directories, not host names" \
	"'..' refused at file:line"
expect_in hosts.out "hosts.cfg:7: hosts[3]: 'a/b': a host name cannot contain '/'" \
	"'a/b' refused at file:line"
if grep -q "hosts\[[01]\]" hosts.out; then fail "a good host name was refused:"; cat hosts.out
else ok "sut1 and root@[::1] are host names"; fi

# The stand-in for ssh.
mkdir bin
cat >bin/ssh <<'S'
#!/bin/sh
# ssh [options] -- HOST [CMD]: CMD run here; a master connection and
# -O exit succeed at once; `tar c` sends $FAKE_SUT_TAR when it is set.
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-fN) exit 0 ;;
	-O) exit 0 ;;
	-F|-l|-i|-o) shift ;;
	esac
	shift
done
shift
case ${1:-} in
*"tar cf - --"*) if [ -n "${FAKE_SUT_TAR:-}" ]; then exec cat "$FAKE_SUT_TAR"; fi ;;
esac
exec sh -c "$1"
S
chmod 755 bin/ssh
PATH="$work/bin:$PATH"
export PATH

# A finished run on the "SUT", as a controller that lost it leaves it.
sut_run() {
	rm -rf sutdir
	mkdir -p sutdir/run-1-sut/out/res/logs
	echo 0 >sutdir/run-1-sut/rc
	printf 'res\t%s\n' "$work/results" >sutdir/run-1-sut/dest
	echo "status: 'complete'" >sutdir/run-1-sut/out/res/info.yml
	echo "log" >sutdir/run-1-sut/out/res/logs/run.log
}
fetch() {
	"$WULTFW" fetch -H sut --sut-dir "$work/sutdir" "$@"
}

mkdir outside out
echo "victim" >victim
python3 - "$cwork" <<'PY'
import io, sys, tarfile
work = sys.argv[1]

def member(t, name, data=b"", **kw):
    ti = tarfile.TarInfo(name)
    ti.mode = 0o644
    for k, v in kw.items():
        setattr(ti, k, v)
    if ti.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    else:
        t.addfile(ti)

def archive(name, *extra):
    with tarfile.open(name + ".tar", "w", format=tarfile.GNU_FORMAT) as t:
        member(t, "res", type=tarfile.DIRTYPE, mode=0o755)
        member(t, "res/info.yml", b"status: 'complete'\n")
        for e in extra:
            member(t, e[0], **e[1])

archive("abs", (work + "/victim", dict(data=b"PWNED\n")))
archive("dotdot", ("res/../../../../victim", dict(data=b"PWNED\n")))
archive("suid", ("res/suid", dict(data=b"#!/bin/sh\n", mode=0o4755)))
archive("sgid", ("res/sgid", dict(data=b"#!/bin/sh\n", mode=0o2755)))
archive("symlink", ("res/link", dict(type=tarfile.SYMTYPE, linkname=work + "/outside")),
        ("res/link/pwned", dict(data=b"PWNED\n")))
archive("hardlink", ("res/hard", dict(type=tarfile.LNKTYPE, linkname="/etc/passwd")),
        ("res/hard", dict(data=b"PWNED\n")))
archive("device", ("res/null", dict(type=tarfile.CHRTYPE, devmajor=1, devminor=3)))
archive("fifo", ("res/fifo", dict(type=tarfile.FIFOTYPE)))
archive("other", ("other/x", dict(data=b"PWNED\n")))
with tarfile.open("good.tar", "w", format=tarfile.PAX_FORMAT) as t:
    member(t, "res", type=tarfile.DIRTYPE, mode=0o777, uid=1234, gid=1234)
    member(t, "res/info.yml", b"status: 'complete'\n", mode=0o666, uid=1234)
    member(t, "res/logs", type=tarfile.DIRTYPE, mode=0o700, uid=1234)
    member(t, "res/logs/run.log", b"log\n", mode=0o600, uid=1234)
PY
[ -f good.tar ] || { fail "python3 did not build the archives"; finish; }

# Everything under $work but the result directory and the outputs.
snapshot() {
	find "$work" -mindepth 1 \( -path "$work/results" -o -path "$work/out" -o -path "$work/sutdir" \) -prune \
		-o -printf '%p %s %T@ %m %u\n' | sort
	cksum </etc/passwd
}
snapshot >out/before

# hostile NAME MEMBER-TEXT: fetching NAME.tar fails naming the member,
# leaves the result directory empty, the SUT's copy and everything else
# as they were.
hostile() {
	sut_run
	FAKE_SUT_TAR="$work/$1.tar" fetch -o "$work/results" >"out/$1" 2>&1
	_st=$? _before=$failures
	[ $_st = 1 ] || fail "$1: fetch exit status $_st, expected 1"
	for _t in "refusing the SUT's archive: member $2" "(nothing was unpacked)"; do
		grep -qF -- "$_t" "out/$1" || { fail "$1: '$_t' not in:"; sed 's/^/    /' "out/$1"; }
	done
	[ -z "$(ls -A results/sut 2>/dev/null)" ] || fail "$1: left in results/sut: $(ls -A results/sut)"
	[ -f sutdir/run-1-sut/out/res/info.yml ] || fail "$1: the SUT's copy was removed"
	snapshot >out/after
	cmp -s out/before out/after ||
		{ fail "$1: something outside the result directory changed:"; diff out/before out/after | head; }
	[ $failures = "$_before" ] && ok "$1: refused naming $2; nothing outside the result directory changed"
}

hostile abs "\"$cwork/victim\" is an absolute path"
hostile dotdot "\"res/../../../../victim\" is a path through '..'"
hostile suid "\"res/suid\" is set-user-ID or set-group-ID"
hostile sgid "\"res/sgid\" is set-user-ID or set-group-ID"
hostile symlink "\"res/link\" -> \"$cwork/outside\" is a symbolic link"
hostile hardlink "\"res/hard\" link to \"/etc/passwd\" is a hard link"
hostile device "\"res/null\" is a device file"
hostile fifo "\"res/fifo\" is a FIFO"
hostile other "\"other/x\" is outside the result directories"
[ "$(cat victim)" = victim ] && [ ! -e outside/pwned ] && ok "the victim files are untouched" ||
	fail "a victim file changed"

# A name the SUT lists that no experiment can have.
sut_run
mkdir "sutdir/run-1-sut/out/x y"
fetch -o "$work/out/names" >out/name 2>&1
expect_status 1 $? "a result name with a space"
expect_in out/name "the SUT lists a result named 'x?y'" "is refused, naming it"

# A good archive with another user's owners and odd modes.
sut_run
FAKE_SUT_TAR="$work/good.tar" fetch -o "$work/results" >out/good 2>&1
st=$?
expect_status 0 $st "a good archive is fetched"
[ $st = 0 ] || sed 's/^/    /' out/good
me=$(id -u)
modes=$(cd results/sut && find res -printf '%p %m %U\n' | sort | tr '\n' ' ')
[ "$modes" = "res 755 $me res/info.yml 644 $me res/logs 755 $me res/logs/run.log 644 $me " ] &&
	ok "files 0644, directories 0755, owned by uid $me" || fail "owners and modes: $modes"
[ ! -e sutdir/run-1-sut ] && ok "the SUT's copy is removed once it arrived" ||
	fail "the SUT's copy is still there"
[ -z "$(find results -name '.fetch-*')" ] && ok "no temporary directory left" ||
	fail "left: $(find results -name '.fetch-*')"
finish
