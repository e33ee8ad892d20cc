# Files root acts on that another user could have put there (state files,
# CPU locks, files the environment names): owned by root or us, writable
# by no one else, checked on the opened file.
noinst_LTLIBRARIES += lib/trust/libwfw_trust.la
lib_trust_libwfw_trust_la_SOURCES = lib/trust/trust.c lib/trust/trust.h

check_PROGRAMS += tests/unit/test_trust
TESTS += tests/unit/test_trust
tests_unit_test_trust_SOURCES = tests/unit/test_trust.c
tests_unit_test_trust_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_trust_LDADD = lib/trust/libwfw_trust.la tests/unit/libtestutil.la $(CUNIT_LIBS)
