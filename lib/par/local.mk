# Parts in parallel, results in order: the engine the offline tools
# (calc, convert, filter, report) run their threads on.
noinst_LTLIBRARIES += lib/par/libwfw_par.la
lib_par_libwfw_par_la_SOURCES = lib/par/par.c lib/par/par.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_par
TESTS += tests/unit/test_par
tests_unit_test_par_SOURCES = tests/unit/test_par.c
tests_unit_test_par_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_par_LDADD = lib/par/libwfw_par.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
