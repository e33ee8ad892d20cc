# The stats sink: streaming statistics, stats.json, cyclictest histograms.
pkglib_LTLIBRARIES += sinks/stats/stats.la
sinks_stats_stats_la_SOURCES = sinks/stats/stats.c \
	sinks/stats/cychist.c sinks/stats/cychist.h \
	sinks/stats/binhist.c sinks/stats/binhist.h
sinks_stats_stats_la_LDFLAGS = $(PLUGIN_MODULE_FLAGS)
sinks_stats_stats_la_LIBADD = lib/stats/libwfw_stats.la lib/atomic/libwfw_atomic.la -lm
PRELOAD_PLUGINS += -dlpreopen sinks/stats/stats.la

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stats_sink
TESTS += tests/unit/test_stats_sink
tests_unit_test_stats_sink_SOURCES = tests/unit/test_stats_sink.c \
	sinks/stats/stats.c sinks/stats/cychist.c sinks/stats/binhist.c
tests_unit_test_stats_sink_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) $(LIBCONFIG_CFLAGS) \
	-I$(top_srcdir)/sinks/stats -iquote $(top_srcdir)/core
# Options come from the core's parser, as in a run.
tests_unit_test_stats_sink_LDADD = lib/stats/libwfw_stats.la lib/atomic/libwfw_atomic.la \
	$(CORE_TEST_LIBS) -lm
endif
