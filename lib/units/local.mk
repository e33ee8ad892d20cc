# Units: durations in the experiment file and on command lines ("10us",
# exact in nanoseconds), and the units of wult's metrics (CSV files carry
# none). Shared by the core, lib/expr, lib/datafmt and the offline tools.
noinst_LTLIBRARIES += lib/units/libwfw_units.la
lib_units_libwfw_units_la_SOURCES = lib/units/duration.c lib/units/duration.h \
	lib/units/wultunits.c lib/units/wultunits.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_units
TESTS += tests/unit/test_units
tests_unit_test_units_SOURCES = tests/unit/test_units.c
tests_unit_test_units_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_units_LDADD = lib/units/libwfw_units.la tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
