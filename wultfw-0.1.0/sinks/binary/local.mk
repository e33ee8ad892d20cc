# binary sink: compact self-describing datapoints (doc/binary-format.md).
pkglib_LTLIBRARIES += sinks/binary/binary.la
sinks_binary_binary_la_SOURCES = sinks/binary/binary.c
sinks_binary_binary_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
sinks_binary_binary_la_LIBADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS)
PRELOAD_PLUGINS += -dlpreopen sinks/binary/binary.la
