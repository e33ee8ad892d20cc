#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The one reader of modules.list (next to this script, in git and in every
# copy of kmod/). What it prints:
#   names            the module names, one a line
#   kbuild DIR       for Kbuild: NAME (one file) or NAME:MAIN.o+OBJ.o...,
#                    one word per module whose files are all in DIR; a
#                    note on stderr for each one skipped
#   sources          kmod/ files the modules are built from (for make)
#   shared           lib/OBJ/ files copied next to them (for make, tests)
#   dkms VERSION     dkms.conf
#   c                rows of deploy's C table: { name, objects, source, what },
set -eu
here=$(cd "$(dirname "$0")" && pwd)
list=$here/modules.list

# Every row as "module objects source what...", comments and blanks gone.
rows() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list"
}

# The files a module is built from: MODULE.c, or MODULE_main.c and OBJ.c.
files_of() {
	if [ "$2" = - ]; then
		echo "$1.c"
	else
		echo "$1_main.c $(echo "$2" | sed 's/,/.c /g').c"
	fi
}

kbuild() {
	rows | while read -r mod objs _; do
		missing='' hint=''
		for f in $(files_of "$mod" "$objs"); do
			[ -e "$1/$f" ] && continue
			missing="$missing $f"
			case $f in
			"$mod".c | "$mod"_main.c) ;;
			*) hint=" (copy lib/${f%.c}/*.c and *.h of the source tree next to them, as 'make modules' does)" ;;
			esac
		done
		if [ -n "$missing" ]; then
			echo "$mod.ko skipped: no$missing in $1$hint" >&2
		elif [ "$objs" = - ]; then
			echo "$mod"
		else
			echo "$mod:$(files_of "$mod" "$objs" | sed -e 's/\.c/.o/g' -e 's/ /+/g')"
		fi
	done
}

# Objects of lib/ (not kmod/), once each.
shared_objs() {
	rows | while read -r _ objs _; do
		[ "$objs" = - ] || echo "$objs" | tr , '\n'
	done | sort -u | while read -r obj; do
		[ -e "$here/$obj.c" ] || echo "$obj"
	done
}

sources() {
	rows | while read -r mod objs _; do
		for f in $(files_of "$mod" "$objs"); do
			[ -e "$here/$f" ] && echo "kmod/$f"
		done
	done | sort -u
}

shared() {
	for obj in $(shared_objs); do
		(cd "$here/.." && ls lib/"$obj"/*.c lib/"$obj"/*.h)
	done
}

dkms() {
	cat <<'HEAD'
# DKMS: builds the wultfw modules for each installed kernel. Nothing here
# loads them at boot; load them by hand (modprobe wultfw_hrt) when measuring.
# Made from modules.list by modules.sh: edit those, not this file.
HEAD
	echo "PACKAGE_NAME=\"wultfw\""
	echo "PACKAGE_VERSION=\"$1\""
	cat <<'MAKE'
MAKE[0]="make -C ${kernel_source_dir} M=${dkms_tree}/${PACKAGE_NAME}/${PACKAGE_VERSION}/build modules"
CLEAN="make -C ${kernel_source_dir} M=${dkms_tree}/${PACKAGE_NAME}/${PACKAGE_VERSION}/build clean"
MAKE
	i=0
	for mod in $(names); do
		echo "BUILT_MODULE_NAME[$i]=\"$mod\""
		echo "DEST_MODULE_LOCATION[$i]=\"/updates/dkms\""
		i=$((i + 1))
	done
	echo 'AUTOINSTALL="yes"'
}

c_rows() {
	echo "/* Made from kmod/modules.list by kmod/modules.sh: edit those. */"
	rows | while read -r mod objs src what; do
		[ "$objs" = - ] && objs=
		[ "$src" = - ] && src=
		what=$(printf '%s' "$what" | sed 's/["\\]/\\&/g')
		echo "{ \"$mod\", \"$objs\", \"$src\", \"$what\" },"
	done
}

names() {
	rows | while read -r mod _; do echo "$mod"; done
}

case ${1:-} in
names) names ;;
kbuild) kbuild "${2:?kbuild DIR}" ;;
sources) sources ;;
shared) shared ;;
dkms) dkms "${2:?dkms VERSION}" ;;
c) c_rows ;;
*) echo "usage: $0 names|kbuild DIR|sources|shared|dkms VERSION|c" >&2; exit 2 ;;
esac
