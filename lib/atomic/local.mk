# Whole files written atomically (temporary file, fsync, rename): info.yml,
# logs/ and stats.json.
noinst_LTLIBRARIES += lib/atomic/libwfw_atomic.la
lib_atomic_libwfw_atomic_la_SOURCES = lib/atomic/atomic.c lib/atomic/atomic.h
