#!/bin/sh
# The bash completion offers the right candidates: sub-commands, options,
# plugin names, result directories; and every option it completes a value
# for is one a command takes.
. "${abs_top_srcdir:?run through make check}/tests/integration/lib.sh"

bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ] || ! command -v bash >/dev/null; then
	echo "SKIP: bash-completion is not installed ($bc; Debian package bash-completion)"
	exit 77
fi
export WULTFW_PLUGIN_PATH="$top/plugins/timer:$top/sinks/csv"
mkdir -p "$work/res-a" "$work/res-b"
: >"$work/res-a/datapoints.csv"
: >"$work/notes.txt"

# complete "LINE": the candidates bash would offer, sorted, on one line.
complete_line() {
	(cd "$work" && PATH="$top:$PATH" bash -c '
		. "$1"; . "$2"
		COMP_LINE=$3; COMP_POINT=${#3}
		read -ra COMP_WORDS <<<"$3"
		[[ $3 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_wultfw 2>/dev/null
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		sh "$bc" "$srcdir/completion/wultfw.bash" "$1")
}

# expect_completion "LINE" "CANDIDATES"
expect_completion() {
	got=$(complete_line "$1")
	if [ "$got" = "$2" ]; then ok "'$1' -> $2"; else
		fail "'$1': got '$got', expected '$2'"
	fi
}

expect_completion "wultfw c" "calc convert "
expect_completion "wultfw list" "list-plugins "
expect_completion "wultfw fe" "fetch "
expect_completion "wultfw help ti" "timer "
expect_completion "wultfw help c" "csv "
expect_completion "wultfw --conf" "--config "
expect_completion "wultfw --cpu 1 --datap" "--datapoints "
expect_completion "wultfw -H sut1 --loc" "--local "
expect_completion "wultfw --jobs 2 --sut-d" "--sut-dir "
expect_completion "wultfw calc --exact-m" "--exact-memory "
expect_completion "wultfw calc --mem-l" "--mem-limit "
expect_completion "wultfw calc --mem-limit n" "none "
expect_completion "wultfw fetch --ou" "--outdir "
expect_completion "wultfw convert --t" "--to "
expect_completion "wultfw convert -t b" "binary "
# Values that are not file names: a CPU, a format, an expression.
expect_completion "wultfw --cpu al" "all "
expect_completion "wultfw --cpu 0" "0 "
expect_completion "wultfw calc --format j" "json "
expect_completion "wultfw calc -F c" "csv "
expect_completion "wultfw calc --include " ""
expect_completion "wultfw report --title " ""
expect_completion "wultfw filter --output res-" "res-a res-b "
expect_completion "wultfw report --chi" "--chist "
expect_completion "wultfw report --hist n" "none "
expect_completion "wultfw deploy --dr" "--dry-run "
expect_completion "wultfw calc res" "res-a res-b "
expect_completion "wultfw calc res-a/" "res-a/datapoints.csv "
# --explain [PCT]: the option, then results as for calc
expect_completion "wultfw calc --expl" "--explain "
expect_completion "wultfw calc --explain res" "res-a res-b "
# Each option a value is completed for (case $prev) is in some --help:
# a branch for an option no command takes is dead code that misleads.
help="$work/help.txt"
"$WULTFW" --help >"$help" 2>&1
for sub in $(complete_line "wultfw "); do
	"$WULTFW" "$sub" --help >>"$help" 2>&1
done
opts=$(sed -n '/case \$prev in/,/esac/p' "$srcdir/completion/wultfw.bash" |
	grep -E '^ +-.*(\)|\\)$' | grep -oE -- '--[a-z][a-z-]*' | sort -u)
# --sysfs-root is real but hidden from --help (tests stand a tree for /sys).
dead=
for o in $opts; do
	[ "$o" = --sysfs-root ] && continue
	grep -qE -- "$o([^a-z-]|$)" "$help" || dead="$dead $o"
done
[ -z "$dead" ] && ok "every completed option is one a command takes" ||
	fail "the completion has branches for options no command takes:$dead"
# -H: Host lines of ~/.ssh/config without wildcards, and -i's inventory.
mkdir -p "$work/home/.ssh"
printf 'Host lab-gw lab-*\n\tHostName 10.0.0.1\nHost *.lab sut-?\n' >"$work/home/.ssh/config"
printf '[lab_a]\nsut1\nsut2\n' >"$work/lab.ini"
got=$(HOME="$work/home" complete_line "wultfw -H lab")
[ "$got" = "lab-gw " ] && ok "-H offers ssh config hosts without wildcards" ||
	fail "-H lab: got '$got', expected 'lab-gw '"
got=$(HOME="$work/home" complete_line "wultfw -i lab.ini -H lab")
[ "$got" = "lab-gw lab_a " ] && ok "-H offers the groups of -i's inventory" ||
	fail "-i lab.ini -H lab: got '$got', expected 'lab-gw lab_a '"
got=$(HOME="$work/home" complete_line "wultfw -i lab.ini -H s")
[ "$got" = "sut1 sut2 " ] && ok "-H offers the hosts of -i's inventory" ||
	fail "-i lab.ini -H s: got '$got', expected 'sut1 sut2 '"
got=$(HOME="$work/home" complete_line "wultfw -i lab.ini -H sut1,s")
[ "$got" = "sut1,sut1 sut1,sut2 " ] && ok "-H completes the last name of a list" ||
	fail "-i lab.ini -H sut1,s: got '$got', expected 'sut1,sut1 sut1,sut2 '"
got=$(HOME="$work/home" complete_line "wultfw -H @lab.i")
[ "$got" = "@lab.ini " ] && ok "-H @ completes a host file's name" ||
	fail "-H @lab.i: got '$got', expected '@lab.ini '"
# scan and deploy take -i and -H as the run does
got=$(HOME="$work/home" complete_line "wultfw scan -i lab.ini -H s")
[ "$got" = "sut1 sut2 " ] && ok "scan -i's inventory's hosts for -H" ||
	fail "scan -i lab.ini -H s: got '$got', expected 'sut1 sut2 '"
expect_completion "wultfw scan --inv" "--inventory "
expect_completion "wultfw deploy --inv" "--inventory "
finish
