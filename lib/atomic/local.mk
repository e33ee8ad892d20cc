# Whole files written atomically (temporary file, fsync, rename): info.yml,
# logs/ and stats.json; when a sink makes its data durable (durable.h).
noinst_LTLIBRARIES += lib/atomic/libwfw_atomic.la
lib_atomic_libwfw_atomic_la_SOURCES = lib/atomic/atomic.c lib/atomic/atomic.h \
	lib/atomic/durable.c lib/atomic/durable.h
