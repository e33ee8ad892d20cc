# attrib: latency attribution (doc/attribution.md).

# --- The accounting: events -> columns, no BPF (attrib_account.h) ---
# A convenience library the plugin and the tests link alike.
noinst_LTLIBRARIES += plugins/attrib/libattrib_account.la
plugins_attrib_libattrib_account_la_SOURCES = plugins/attrib/attrib_account.c \
	plugins/attrib/attrib_account.h plugins/attrib/attrib_ctx.c \
	plugins/attrib/attrib_ctx.h plugins/attrib/attrib_sums.c \
	plugins/attrib/attrib_sums.h plugins/attrib/attrib_map.c \
	plugins/attrib/attrib_map.h plugins/attrib/attrib_event.h

if HAVE_CUNIT
check_PROGRAMS += tests/unit/test_attrib_account
TESTS += tests/unit/test_attrib_account
tests_unit_test_attrib_account_SOURCES = tests/unit/test_attrib_account.c
tests_unit_test_attrib_account_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/attrib
tests_unit_test_attrib_account_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
tests_unit_test_attrib_account_LDADD = plugins/attrib/libattrib_account.la \
	tests/unit/libtestutil.la $(CUNIT_LIBS)
endif
# --- end of the accounting ---
