# Streaming statistics (exact values, then a log-linear histogram), shared by
# the stats sink and `wultfw calc`.
noinst_LTLIBRARIES += lib/stats/libwfw_stats.la
lib_stats_libwfw_stats_la_SOURCES = \
	lib/stats/cstate.c lib/stats/cstate.h \
	lib/stats/hist.c lib/stats/hist.h \
	lib/stats/sketch.c lib/stats/sketch.h \
	lib/stats/acc_sketch.c lib/stats/acc_sketch.h \
	lib/stats/group_sketch.c \
	lib/stats/moments.c lib/stats/moments.h \
	lib/stats/acc.h lib/stats/room.c lib/stats/room.h \
	lib/stats/stats.c lib/stats/stats.h \
	lib/stats/stagemms.c lib/stats/stagemms.h \
	lib/stats/statset.c lib/stats/statset.h \
	lib/stats/table.c lib/stats/table.h \
	lib/stats/grouptab.c lib/stats/grouptab_print.c lib/stats/grouptab.h \
	lib/stats/report.c lib/stats/report.h
lib_stats_libwfw_stats_la_LIBADD = -lm

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stats
TESTS += tests/unit/test_stats
tests_unit_test_stats_SOURCES = tests/unit/test_stats.c
tests_unit_test_stats_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stats_hist
TESTS += tests/unit/test_stats_hist
tests_unit_test_stats_hist_SOURCES = tests/unit/test_stats_hist.c
tests_unit_test_stats_hist_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_hist_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stats_group
TESTS += tests/unit/test_stats_group
tests_unit_test_stats_group_SOURCES = tests/unit/test_stats_group.c
tests_unit_test_stats_group_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_group_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stats_many
TESTS += tests/unit/test_stats_many
tests_unit_test_stats_many_SOURCES = tests/unit/test_stats_many.c
tests_unit_test_stats_many_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_many_LDADD = lib/stats/libwfw_stats.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
endif
if HAVE_CUNIT
# The table of a group's members and its flag (calc and report: CPUs of an experiment, SUTs of a fleet).
check_PROGRAMS += tests/unit/test_grouptab
TESTS += tests/unit/test_grouptab
tests_unit_test_grouptab_SOURCES = tests/unit/test_grouptab.c
tests_unit_test_grouptab_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_grouptab_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
# The per-group quantile sketch's error bound.
check_PROGRAMS += tests/unit/test_stats_sketch
TESTS += tests/unit/test_stats_sketch
tests_unit_test_stats_sketch_SOURCES = tests/unit/test_stats_sketch.c
tests_unit_test_stats_sketch_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_sketch_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
# Sketches in place of histograms: the same percentiles, less memory.
check_PROGRAMS += tests/unit/test_stats_acc_sketch
TESTS += tests/unit/test_stats_acc_sketch
tests_unit_test_stats_acc_sketch_SOURCES = tests/unit/test_stats_acc_sketch.c
tests_unit_test_stats_acc_sketch_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_acc_sketch_LDADD = lib/stats/libwfw_stats.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
# Tables: many rows in one buffer, hostile cells.
check_PROGRAMS += tests/unit/test_stats_table
TESTS += tests/unit/test_stats_table
tests_unit_test_stats_table_SOURCES = tests/unit/test_stats_table.c
tests_unit_test_stats_table_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stats_table_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_stagemms
TESTS += tests/unit/test_stagemms
tests_unit_test_stagemms_SOURCES = tests/unit/test_stagemms.c
tests_unit_test_stagemms_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_stagemms_LDADD = lib/stats/libwfw_stats.la $(CUNIT_LIBS) -lm
endif
