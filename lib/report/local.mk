# wultfw report: downsampling for plots, the HTML report writer.
noinst_LTLIBRARIES += lib/report/libwfw_report.la
lib_report_libwfw_report_la_SOURCES = \
	lib/report/reduce.c lib/report/reduce.h
lib_report_libwfw_report_la_LIBADD = -lm

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_reduce
TESTS += tests/unit/test_reduce
tests_unit_test_reduce_SOURCES = tests/unit/test_reduce.c
tests_unit_test_reduce_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_reduce_LDADD = lib/report/libwfw_report.la tests/unit/libtestutil.la $(CUNIT_LIBS) -lm
endif
