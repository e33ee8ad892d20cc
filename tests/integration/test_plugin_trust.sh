#!/bin/sh
# A plugin that another user could have written never runs: a library's
# constructor runs the moment it is opened, before any descriptor check,
# so the file and every directory above it are vetted first. The plugin
# "evil" is a .so whose constructor creates the file $EVIL_MARKER; it is
# put where nobody (the user) owns the file, its directory or a directory
# above, where a group can write it, behind a symbolic link and in a
# sticky world-writable directory, and reached through `help`,
# `list-plugins` and a run. The marker must never appear, and the error
# names the refused file or directory. A root-owned copy is the control:
# its constructor does run (then it is refused for having no descriptor).
. "${abs_top_srcdir:?}/tests/integration/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: test_plugin_trust: needs root (to give files to another user)"
	exit 77
fi
nobody=$(id -u nobody 2>/dev/null) && nogroup=$(id -g nobody 2>/dev/null) &&
	[ "$nobody" != 0 ] && [ "$nogroup" != 0 ] || {
	echo "SKIP: test_plugin_trust: no user 'nobody' with a non-root group here"
	exit 77
}
if ! command -v cc >/dev/null; then
	echo "SKIP: test_plugin_trust: no C compiler (cc) to build the plugin"
	exit 77
fi
cwork=$(cd "$work" && pwd -P)
cat >"$work/evil.c" <<'C'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void evil(void)
{
	const char *m = getenv("EVIL_MARKER");

	if (m)
		close(open(m, O_WRONLY | O_CREAT, 0644));
}
C
cc -shared -fPIC -o "$work/evil.so" "$work/evil.c" >"$work/cc.log" 2>&1 ||
	{ fail "building the plugin:"; cat "$work/cc.log"; finish; }
chmod 644 "$work/evil.so"

# A run that would load "evil" as a sink.
cat >"$work/run.cfg" <<CFG
outdir = "$work/out";
name = "t";
source = { plugin = "timer"; cpu = 0; ldist = "100us"; };
limits = { datapoints = 10; time = "1m"; };
sinks = ( { plugin = "evil"; } );
CFG

# place NAME: a directory $work/NAME owned by root, mode 0755, holding
# evil.so owned by root, mode 0644; prints the directory.
place() {
	mkdir -p "$work/$1"
	chmod 755 "$work/$1"
	cp "$work/evil.so" "$work/$1/evil.so"
	echo "$cwork/$1"
}

# refused DIR WHAT TEXT...: with DIR first in the search path, help,
# list-plugins and a run all fail without running the constructor, and
# each one's error contains every TEXT.
refused() {
	_dir=$1 _what=$2 _before=$failures
	shift 2
	for _how in help list run; do
		_m="$work/marker-$_how"
		rm -f "$_m"
		case $_how in
		help) _cmd="help evil" ;;
		list) _cmd="list-plugins" ;;
		run) _cmd="-q --no-progress -c $work/run.cfg" ;;
		esac
		# shellcheck disable=SC2086
		EVIL_MARKER=$_m WULTFW_PLUGIN_PATH="$_dir:$WULTFW_BUILD_PLUGIN_PATH" \
			"$WULTFW" $_cmd >"$work/out.$_how" 2>&1
		_st=$?
		if [ -e "$_m" ]; then
			fail "$_what: $_how ran the plugin's constructor"
			continue
		fi
		[ "$_how" = list ] || [ $_st != 0 ] ||
			fail "$_what: $_how succeeded (exit status 0)"
		for _t in "$@"; do
			grep -qF -- "$_t" "$work/out.$_how" ||
				{ fail "$_what: $_how: '$_t' not in:"; sed 's/^/    /' "$work/out.$_how"; }
		done
	done
	[ "$failures" != "$_before" ] ||
		ok "$_what: refused by help, list-plugins and a run; the constructor never ran"
}

# The control: a plugin only root can write is opened (its constructor
# runs), so the marker checks above can see a plugin run.
d=$(place good)
EVIL_MARKER="$work/marker-good" WULTFW_PLUGIN_PATH=$d "$WULTFW" help evil >"$work/good.out" 2>&1
[ -e "$work/marker-good" ] && ok "control: a root-owned plugin is opened (its constructor ran)" ||
	{ fail "control: the root-owned plugin was not opened:"; cat "$work/good.out"; }
expect_in "$work/good.out" "plugin 'evil' ($d/evil.so) has no descriptor" \
	"control: then refused for its missing descriptor"

d=$(place file-nobody)
chown "$nobody" "$d/evil.so"
refused "$d" "a plugin file owned by nobody" \
	"plugin 'evil': refusing $d/evil.so (file owned by " "uid $nobody" "chown root $d/evil.so"

d=$(place dir-nobody)
chown "$nobody" "$d"
refused "$d" "a plugin directory owned by nobody" \
	"plugin 'evil': refusing $d (directory owned by " "uid $nobody" "chown root $d"

mkdir "$work/parent-nobody"
d=$(place parent-nobody/sub)
chown "$nobody" "$work/parent-nobody"
refused "$d" "a directory above the plugin directory owned by nobody" \
	"plugin 'evil': refusing $cwork/parent-nobody (directory owned by " "chown root $cwork/parent-nobody"

d=$(place file-group)
chgrp "$nogroup" "$d/evil.so"
chmod 664 "$d/evil.so"
refused "$d" "a plugin file its group can write" \
	"plugin 'evil': refusing $d/evil.so (file owned by root (uid 0), mode 0664): group " "chmod go-w $d/evil.so"

d=$(place dir-group)
chgrp "$nogroup" "$d"
chmod 775 "$d"
refused "$d" "a plugin directory its group can write" \
	"plugin 'evil': refusing $d (directory owned by root (uid 0), mode 0775): group " "chmod go-w $d"

d=$(place dir-sticky)
chmod 1777 "$d"
refused "$d" "a sticky world-writable plugin directory" \
	"plugin 'evil': refusing $d (directory owned by root (uid 0), mode 1777): every user can add files to it" \
	"move the plugins into a directory of their own"

d=$(place link)
mkdir "$d/real"
mv "$d/evil.so" "$d/real/evil.so"
ln -s real/evil.so "$d/evil.so"
refused "$d" "a plugin behind a symbolic link" "plugin 'evil': refusing $d/evil.so: a symbolic link"

# libtool's layout (NAME.la, .libs/NAME.so), as in a build tree.
d=$(place libs)
mkdir "$d/.libs"
mv "$d/evil.so" "$d/.libs/evil.so"
: >"$d/evil.la"
chown "$nobody" "$d/.libs/evil.so"
refused "$d" "a build tree's .libs/evil.so owned by nobody" \
	"plugin 'evil': refusing $d/.libs/evil.so (file owned by " "chown root $d/.libs/evil.so"
chown 0 "$d/.libs/evil.so"
chown "$nobody" "$d/.libs"
refused "$d" "a build tree's .libs owned by nobody" "plugin 'evil': refusing $d/.libs (directory owned by "

# A sticky world-writable directory above the plugin directory (like
# /tmp) is fine: only root could rename the root-owned entry in it.
mkdir "$work/sticky"
chmod 1777 "$work/sticky"
d=$(place sticky/plugins)
EVIL_MARKER="$work/marker-sticky" WULTFW_PLUGIN_PATH=$d "$WULTFW" help evil >"$work/sticky.out" 2>&1
[ -e "$work/marker-sticky" ] && ok "a root-owned plugin directory inside a sticky one is accepted" ||
	{ fail "a plugin directory inside a sticky one was refused:"; cat "$work/sticky.out"; }

# A wultfw binary that a user owns (a build tree of theirs, run by root
# with sudo) loads that user's plugins: the user decides what runs anyway.
mkdir -p "$work/userbuild/plug"
cp "$WULTFW" "$work/userbuild/wultfw"
cp "$work/evil.so" "$work/userbuild/plug/evil.so"
chown -R "$nobody" "$work/userbuild"
EVIL_MARKER="$work/marker-user" WULTFW_PLUGIN_PATH="$work/userbuild/plug" \
	"$work/userbuild/wultfw" help evil >"$work/user.out" 2>&1
[ -e "$work/marker-user" ] && ok "a binary owned by nobody opens nobody's plugin" ||
	{ fail "a binary owned by nobody refused nobody's plugin:"; cat "$work/user.out"; }
refused "$work/userbuild/plug" "nobody's plugin, for a binary root owns" \
	"plugin 'evil': refusing $cwork/userbuild (directory owned by "

# The build tree's own plugins still load.
WULTFW_PLUGIN_PATH=$WULTFW_BUILD_PLUGIN_PATH "$WULTFW" help csv >"$work/csv" 2>&1
expect_status 0 $? "the build tree's csv plugin loads"
finish
