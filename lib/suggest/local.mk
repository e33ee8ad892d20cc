# "did you mean": shared by the core (keys, plugin names) and plugins
# (telemetry counter names).
noinst_LTLIBRARIES += lib/suggest/libwfw_suggest.la
lib_suggest_libwfw_suggest_la_SOURCES = lib/suggest/suggest.c lib/suggest/suggest.h lib/suggest/badopt.c \
	lib/suggest/names.c

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_suggest
TESTS += tests/unit/test_suggest
tests_unit_test_suggest_SOURCES = tests/unit/test_suggest.c
tests_unit_test_suggest_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_suggest_LDADD = lib/suggest/libwfw_suggest.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
