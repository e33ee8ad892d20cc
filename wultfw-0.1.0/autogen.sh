#!/bin/sh
# Generate configure and Makefile.in from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf -fi
# Autoconf's probes run "rm -f core ..." to remove core dumps; our source
# tree has a directory named core/, which makes rm complain on every probe.
sed -i 's/rm -f core /rm -f /g; s/rm -f -r core /rm -f -r /g' configure
