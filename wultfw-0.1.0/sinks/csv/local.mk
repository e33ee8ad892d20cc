# csv sink: wult-compatible datapoints.csv.
pkglib_LTLIBRARIES += sinks/csv/csv.la
sinks_csv_csv_la_SOURCES = sinks/csv/csv.c
sinks_csv_csv_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
sinks_csv_csv_la_LIBADD = lib/datafmt/libwfw_datafmt.la $(CSV_LIBS)
PRELOAD_PLUGINS += -dlpreopen sinks/csv/csv.la
