# The stats sink: streaming statistics, stats.json, cyclictest histograms.
pkglib_LTLIBRARIES += sinks/stats/stats.la
sinks_stats_stats_la_SOURCES = sinks/stats/stats.c \
	sinks/stats/cychist.c sinks/stats/cychist.h
sinks_stats_stats_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
sinks_stats_stats_la_LIBADD = lib/stats/libwfw_stats.la -lm
PRELOAD_PLUGINS += -dlpreopen sinks/stats/stats.la
